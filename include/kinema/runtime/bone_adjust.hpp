// kinema/runtime: bone adjustments, the seam between a clip and what only the game
// knows: a spine bent toward the aim, legs folded into a crouch,
// arms solved onto a weapon, a head hidden from the camera inside it.
//
// Adjustments are applied after sampling and blending and before composition, so
// everything hanging off an adjusted bone follows it. Their rotation, offset and
// absolute orientation are stated in model space (the frame the pose is published
// in) and act about the bone's own origin; composition brings each into the parent's
// frame with the parent's composed model transform, so a caller never needs to know
// which way the authoring tool pointed a bone's local axes:
//
//   local rotation    <- conj(Rp) * absolute          (when an absolute orientation is given)
//   local rotation    <- conj(Rp) * rotation * Rp * local rotation
//   local translation <- local translation + inverse(upper 3x3 of Mp) * offset
//   local scale       <- local scale * scale          (children inherit it)
//
// where Mp is the parent's model matrix (identity for a root) and Rp the rotation
// of Mp (exact when Mp carries no non-uniform scale or shear; otherwise the rotation
// decompose() extracts from its columns). Within one entry the steps run in the
// order above; several entries naming one bone compose in list order. There is no
// weight and no blend: a caller that wants a bend gone writes identity or drops it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "kinema/core/status.hpp"
#include "kinema/math/mat4.hpp"
#include "kinema/math/quat.hpp"
#include "kinema/math/transform.hpp"
#include "kinema/math/vec3.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "kinema/runtime/soa_pose.hpp"

namespace kinema {

struct BoneAdjustment {
    // Index of the bone in the skeleton (resolve the name once, keep the index).
    std::uint32_t joint = 0;
    // Model-space turn about the bone's own origin; turns the bone and its subtree.
    // Finite and non-zero; normalised when applied.
    Quat rotation{};
    // Model-space displacement of the bone's origin, in metres. Finite.
    Vec3 offset{};
    // When set: the orientation the bone ends up with in model space, whatever the
    // clip and the parents did (before this entry's own `rotation`). Finite, non-zero.
    std::optional<Quat> absolute{};
    // Multiplies the bone's own local scale, per axis; children inherit it. Finite.
    // Near zero collapses the bone's subtree to a point; exactly zero is accepted but
    // leaves the bone's matrix without an orientation to read back.
    Vec3 scale{1.0f, 1.0f, 1.0f};
};

// Success when every entry names a joint below `jointCount` and holds finite values
// with non-zero quaternions; otherwise the first bad entry, by its index in the
// list (Status::index). O(entries), allocates nothing.
Status checkBoneAdjustments(std::span<const BoneAdjustment> adjustments, std::size_t jointCount) noexcept;

// Scalar reference: applies `adjustments` to `local` (in place: it ends up holding
// the adjusted local pose) while composing model[i] = model[parents[i]] *
// toMatrix(local[i]). All three spans have the skeleton's joint count and
// parents[i] < i. Checks sizes and every entry first (checkBoneAdjustments) and
// returns the failure without writing anything when one is bad.
// Allocates nothing on success. O(joints + entries * adjusted joints).
Status localToModel(std::span<const std::int32_t> parents, std::span<Transform> local,
                    std::span<const BoneAdjustment> adjustments, std::span<Mat4> model) noexcept;

// SoA path, local pose only: applies `adjustments` to `local` in place, each
// adjusted bone's parent matrix composed on the fly from the (already adjusted)
// local transforms of its ancestors. Use this when no model matrices are wanted.
// Checks as localToModel above; allocates nothing on success.
Status applyBoneAdjustments(std::span<const std::int32_t> parents, SoaPose& local,
                            std::span<const BoneAdjustment> adjustments) noexcept;

// SoA path: applyBoneAdjustments, then the kernels' localToModel over the whole
// adjusted pose (`model` holds at least local.jointCount() matrices). Checks as
// localToModel above before writing anything; allocates nothing on success.
Status localToModel(const PoseKernels& kernels, std::span<const std::int32_t> parents, SoaPose& local,
                    std::span<const BoneAdjustment> adjustments, std::span<Mat4> model) noexcept;

}  // namespace kinema
