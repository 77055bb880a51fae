// kinema/runtime: inverse kinematics on one instance's pose, after blending and
// bone adjustments and before the final composition (instance.hpp runs the tasks of
// a request in list order).
//
// Every target, pole and up vector is in the instance's model space (the frame its
// model matrices are in): convert a world-space target with the inverse of the
// instance's world matrix. The solvers turn joints about their own origins and never
// move them, so bone lengths are kept exactly as the pose has them; a task writes
// only the local rotations of the joints it solves, blended from the pose's by its
// weight (0 leaves the pose untouched, bit for bit; docs/IK.md says how each solver
// blends between 0 and 1). Axes and up vectors may be of any length that has a
// direction: the solvers use them at unit length.
//
// Solvers:
//   - TwoBoneIk: an analytic solution for any three joints of one chain (root, middle,
//     end: each an ancestor of the next), bending in the plane the pole picks, with an
//     optional twist of that plane about the root-target line and a soft limit near
//     full extension.
//   - AimIk: turns a joint (or a chain, the turn spread over it with decaying shares)
//     so that a forward axis given in the end joint's own frame points at the target,
//     within an angle limit, keeping its up axis toward an up vector when asked.
//   - ChainIk: FABRIK or CCD over a chain of any length (each joint the parent of the
//     next), with an iteration count, a tolerance and optional joint limits (hinge,
//     cone with twist).
// Each reports whether its end reached the target and the distance left.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "kinema/core/status.hpp"
#include "kinema/math/mat4.hpp"
#include "kinema/math/quat.hpp"
#include "kinema/math/vec3.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "kinema/runtime/soa_pose.hpp"

namespace kinema {

struct TwoBoneIk {
    std::uint32_t root = 0;    // the upper joint (hip, shoulder)
    std::uint32_t middle = 0;  // the bending joint (knee, elbow), a descendant of root
    std::uint32_t end = 0;     // the effector (ankle, wrist), a descendant of middle
    Vec3 target{};
    // A point the middle joint bends toward (a knee toward a point in front of it).
    // When it lies on the root-target line, the pose's own bend plane is kept.
    Vec3 pole{};
    float twist = 0.0f;   // radians: the bend plane turned about the root-target line (right-handed)
    float weight = 1.0f;  // [0, 1]
    // [0, 1): the fraction of the chain's length over which the reach eases into full
    // extension, so the knee never snaps straight; 0: reach exactly while possible.
    float soften = 0.0f;
};

struct AimIk {
    // The joints turned, root first, each an ancestor of the next; the last is the
    // one aimed (a head, a turret). One joint, or a spine-neck-head chain.
    std::span<const std::uint32_t> joints{};
    Vec3 target{};
    Vec3 forward{0.0f, 0.0f, 1.0f};  // the aimed joint's forward axis, in its own frame; non-zero
    // With `upVector`: the aimed joint's up axis (own frame; not along `forward`),
    // kept toward `upVector` (model space) by a roll about the forward axis after
    // aiming; an up vector within 1e-4 rad of the forward axis gives no roll.
    // Without: no roll is applied.
    Vec3 up{0.0f, 1.0f, 0.0f};
    std::optional<Vec3> upVector{};
    float weight = 1.0f;    // [0, 1]
    float maxAngle = 0.0f;  // radians the forward axis may turn from the pose's; 0: no limit (weight 0 turns nothing)
    // Each joint's share of the turn relative to the next one's (the aimed joint
    // takes the rest): 1 spreads it evenly, smaller leaves more to the end.
    float decay = 0.5f;
};

enum class ChainSolver : std::uint8_t { Fabrik, Ccd };

// How far an iterative solver may turn a joint, measured from the rotation the pose
// gives it (its local rotation before the task), in the joint's own frame there.
struct JointLimit {
    enum class Kind : std::uint8_t {
        Free,   // no limit
        Hinge,  // turns only about `axis`, by an angle in [minAngle, maxAngle] (a knee, an elbow)
        Cone,   // swings at most `coneAngle` away from its pose direction, twisting about
                // `axis` (the bone's direction, usually) within [minTwist, maxTwist] (a shoulder)
    };
    Kind kind = Kind::Free;
    Vec3 axis{1.0f, 0.0f, 0.0f};  // unit-length or not, non-zero
    float minAngle = 0.0f;        // radians, Hinge
    float maxAngle = 0.0f;
    float coneAngle = 0.0f;  // radians, Cone, >= 0
    float minTwist = 0.0f;   // radians, Cone
    float maxTwist = 0.0f;
};

struct ChainIk {
    std::span<const std::uint32_t> joints{};  // root first, each the parent of the next; at least 2
    Vec3 target{};
    ChainSolver solver = ChainSolver::Fabrik;
    std::uint32_t iterations = 10;  // at most; 1 to 1000
    float tolerance = 1e-4f;        // stop when the end is this close (model units); >= 0
    float weight = 1.0f;            // [0, 1]
    // Empty, or one per joint of `joints` (the last one's is not used): each joint's
    // turn is kept within its limit after every step of every iteration.
    std::span<const JointLimit> limits{};
};

using IkTask = std::variant<TwoBoneIk, AimIk, ChainIk>;

struct IkOutcome {
    bool reached = false;  // the end lies within the task's tolerance of the target
    // From the end (the aimed axis's line, for AimIk) to the target, after the task;
    // infinity where the pose's composition overflows (scales of 1e30 on nested joints).
    float distance = 0.0f;
    friend constexpr bool operator==(const IkOutcome&, const IkOutcome&) = default;
};

// Whether the tasks can run on a skeleton with these parents: every joint index
// below the joint count, chain order as each task requires (an ancestor, or for
// ChainIk the parent, of the next), finite targets, poles and axes, non-zero axes,
// weights in [0, 1], soften in [0, 1), a limit and decay >= 0, 1 to 1000 iterations
// and a tolerance >= 0, joint limits one per chain joint of a known kind with a
// non-zero axis, min <= max and a cone angle >= 0. The failure names the task
// (Status::index); a value that is not finite is NotFinite, the rest OutOfRange or
// WrongCount.
// `parents` as a Skeleton keeps them (each before its child); other lists are
// walked safely but give no meaningful answer. Allocates nothing.
Status checkIkTasks(std::span<const IkTask> tasks, std::span<const std::int32_t> parents) noexcept;

// Runs the tasks in list order on `local` (changed in place), then composes the
// result into `model` (at least local.jointCount() matrices). `outcomes` gets one
// entry per task (it may be shorter: the rest are not reported). Checks first, and
// changes nothing when a check fails: `parents` each before its child or -1 (index:
// the joint), the tasks as checkIkTasks, and `local` finite with no zero rotation
// (index: the joint). Allocates nothing.
Status applyIk(const PoseKernels& kernels, std::span<const std::int32_t> parents, SoaPose& local,
               std::span<const IkTask> tasks, std::span<Mat4> model, std::span<IkOutcome> outcomes) noexcept;

// The rotation turning unit-length direction `from` onto `to` by the shortest arc
// (a half turn about an axis perpendicular to `from` when they are opposite). Within
// about 8 degrees of opposite it is built as a half turn and the short arc on to
// `to`, which meets `to` to rounding where the direct form loses digits.
Quat rotationBetween(Vec3 from, Vec3 to) noexcept;

}  // namespace kinema
