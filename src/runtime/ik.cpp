#include "kinema/runtime/ik.hpp"

#include "ik_geometry.hpp"
#include "ik_lanes.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>

#include "kinema/math/finite.hpp"
#include "kinema/math/transform.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace kinema {
namespace {

// The longest chain an aim or chain task may name: its scratch lives on the stack.
constexpr std::size_t kMaxChain = 64;
// A chain task's iterations at most: each costs a pass over the chain (and with
// joint limits one per joint), so an unreachable target with no tolerance runs them all.
constexpr std::uint32_t kMaxChainIterations = 1000;
constexpr float kTiny = 1e-12f;
using detail::kAimPasses;
using detail::kAimSettled;

constexpr Quat kIdentity{0.0f, 0.0f, 0.0f, 1.0f};

// A joint's model-space placement as translation, rotation and per-axis scale,
// composed from the local pose by walking up to the root: (A o B).p = A.p + A.r (A.s B.p),
// (A o B).r = A.r B.r, (A o B).s = A.s B.s. Exact without non-uniform scale on the
// way (which glTF rigs rarely have); the solvers need no more than positions and
// rotations, and a walk of the chain's depth costs far less than composing the pose.
struct Frame {
    Vec3 p{};
    Quat r{0.0f, 0.0f, 0.0f, 1.0f};
    Vec3 s{1.0f, 1.0f, 1.0f};
    // The exact linear map (each rotation times its per-axis scale, composed), by
    // columns: what a turn is taken into the frame through (turnInFrame).
    Vec3 x{1.0f, 0.0f, 0.0f};
    Vec3 y{0.0f, 1.0f, 0.0f};
    Vec3 z{0.0f, 0.0f, 1.0f};
};

// The joints from `joint` up to `top` (included; -1: the root) composed, in `top`'s
// parent's frame; rotation not normalised. With `Map`, the linear map's columns too
// (a turn is taken into the frame through them); without, they stay the identity.
template <bool Map = true>
Frame framePart(std::span<const std::int32_t> parents, const SoaPose& local, std::int64_t joint,
                std::int64_t top) noexcept {
    std::array<const float*, kSoaComponents> c;
    for (std::size_t k = 0; k < kSoaComponents; ++k) c[k] = local.component(static_cast<SoaComponent>(k));
    Frame f;
    for (std::int64_t k = joint; k >= 0; k = parents[static_cast<std::size_t>(k)]) {
        const auto i = static_cast<std::size_t>(k);
        const Vec3 t{c[0][i], c[1][i], c[2][i]};
        const Quat r{c[3][i], c[4][i], c[5][i], c[6][i]};
        const Vec3 scale{c[7][i], c[8][i], c[9][i]};
        f.p = t + rotate(r, mulComponents(scale, f.p));
        f.r = r * f.r;
        f.s = mulComponents(scale, f.s);
        if constexpr (Map) {
            f.x = rotate(r, mulComponents(scale, f.x));
            f.y = rotate(r, mulComponents(scale, f.y));
            f.z = rotate(r, mulComponents(scale, f.z));
        }
        if (k == top) break;
    }
    return f;
}

template <bool Map = true>
Frame frameOf(std::span<const std::int32_t> parents, const SoaPose& local, std::int64_t joint) noexcept {
    Frame f = framePart<Map>(parents, local, joint, -1);
    f.r = normalize(f.r);
    return f;
}

// `v` through the frame's linear map (no translation).
Vec3 through(const Frame& f, Vec3 v) noexcept { return f.x * v.x + f.y * v.y + f.z * v.z; }

// The direction a joint-space axis points in model space: through the frame's
// linear map, so a mirrored or scaled frame shows it where it is drawn.
Vec3 axisOf(const Frame& f, Vec3 axis) noexcept;

Vec3 positionOf(std::span<const std::int32_t> parents, const SoaPose& local, std::uint32_t joint) noexcept {
    return frameOf<false>(parents, local, joint).p;
}

// A pole this close to the root-target line (squared offset over squared distance)
// is taken as on it: its offset is rounding noise, no direction.
constexpr float kOnLine = 1e-10f;

// The sine of the root's angle in the triangle of sides upper, lower and reach, from
// its area (Heron): exactly 0 at full extension and full fold, where 1 - cos^2
// would be rounding noise amplified by the square root.
float sineAtRoot(float upper, float lower, float reach) noexcept {
    const float sum = upper + lower;
    return std::min(
        1.0f,
        std::sqrt(std::max(0.0f, detail::heronOverFourth(upper, lower, reach))) * (sum * sum) / (2.0f * upper * reach));
}

// `v` scaled to unit length, or `fallback` when `v` is too short to have a direction.
Vec3 directionOr(Vec3 v, Vec3 fallback) noexcept {
    const float len = length(v);
    return len > kTiny && std::isfinite(len) ? v * (1.0f / len) : fallback;
}

Vec3 axisOf(const Frame& f, Vec3 axis) noexcept { return directionOr(through(f, axis), Vec3{}); }

// Unit `v` less its part along unit `u`, at unit length (zero when nothing is left).
Vec3 perpendicularPart(Vec3 v, Vec3 u) noexcept { return directionOr(v - u * dot(v, u), Vec3{}); }

// Any unit vector perpendicular to unit `v`.
Vec3 perpendicularTo(Vec3 v) noexcept {
    const Vec3 other = std::abs(v.x) < 0.9f ? Vec3{1.0f, 0.0f, 0.0f} : Vec3{0.0f, 1.0f, 0.0f};
    return directionOr(cross(v, other), Vec3{0.0f, 0.0f, 1.0f});
}

// The shorter-arc slerp from identity toward `q` by `t`.
Quat partOf(Quat q, float t) noexcept { return slerp(kIdentity, q, t); }

// A turn by `angle` radians about unit `axis`.
Quat turnAbout(Vec3 axis, float angle) noexcept {
    const float s = std::sin(0.5f * angle);
    return {axis.x * s, axis.y * s, axis.z * s, std::cos(0.5f * angle)};
}

// The shortest turn taking unit `from` onto unit `to`, as a unit axis and an angle
// in [0, pi]: about their cross product, or when they are (anti)parallel about any
// perpendicular, by 0 or a half turn. The angle from atan2 stays exact near 0 and pi.
struct AxisAngle {
    Vec3 axis;
    float angle = 0.0f;
};

AxisAngle turnBetween(Vec3 from, Vec3 to) noexcept {
    const Vec3 axis = detail::turnAxis(from, to);
    const float sine = length(axis), cosine = dot(from, to);
    if (sine > (cosine < 0.0f ? detail::kOppositeNoise : kTiny))
        return {axis * (1.0f / sine), std::atan2(sine, cosine)};
    return {perpendicularTo(from), cosine < 0.0f ? 3.14159265358979f : 0.0f};
}

// Parents each before their child (or -1), as a Skeleton keeps them: the walks up
// the hierarchy end, and stay inside `parents`. The failure's index is the joint.
Status checkParents(std::span<const std::int32_t> parents) noexcept {
    for (std::size_t j = 0; j < parents.size(); ++j) {
        if (parents[j] < -1 || parents[j] >= static_cast<std::int64_t>(j)) {
            return Status::failure(StatusCode::OutOfRange, "IK parents: a joint's parent must come before it, or be -1")
                .withIndex(static_cast<std::int64_t>(j));
        }
    }
    return Status::success();
}

// Whether `ancestor` is above `joint`. Parents before children move a walk up to
// smaller indices, so it stops below `ancestor`, and stays within `parents` even
// when a caller's list breaks that order (checkIkTasks is public).
bool isAncestor(std::span<const std::int32_t> parents, std::uint32_t ancestor, std::uint32_t joint) noexcept {
    std::int64_t p = parents[joint];
    while (p >= 0 && p < static_cast<std::int64_t>(joint) && p >= static_cast<std::int64_t>(ancestor)) {
        if (static_cast<std::uint32_t>(p) == ancestor) return true;
        joint = static_cast<std::uint32_t>(p);
        p = parents[joint];
    }
    return false;
}

// Coordinates up to this far square and sum without overflowing a float (3e36 of
// 3.4e38), differences of two included: a farther target is as good as infinite.
constexpr float kFarthest = 1e18f;
bool near(Vec3 v) noexcept {
    return std::abs(v.x) <= kFarthest && std::abs(v.y) <= kFarthest && std::abs(v.z) <= kFarthest;
}
bool nonZero(Vec3 v) noexcept { return isFinite(v) && dot(v, v) > 0.0f; }

// Every float of a two-bone task within its bounds (the common case), in vector
// comparisons: each bound holds exactly where the checks of checkIkTasks that
// name the failure pass (NaN and infinity fail the first). The task's floats after
// its joints (detail::kTwoBoneFloats: their layout) are compared with a low and a
// high bound each (soften's high bound is the float below 1), four at a time.
constexpr float kFloatMax = std::numeric_limits<float>::max();
constexpr std::array<float, 9> kTwoBoneLow = {-kFarthest, -kFarthest, -kFarthest, -kFarthest, -kFarthest,
                                              -kFarthest, -kFloatMax, 0.0f,       0.0f};
constexpr std::array<float, 9> kTwoBoneHigh = {
    kFarthest, kFarthest, kFarthest, kFarthest,  kFarthest,
    kFarthest, kFloatMax, 1.0f,      0.99999994f};  // the float below 1: soften < 1
bool twoBoneValuesInBounds(const TwoBoneIk& t) noexcept {
    const float* v = reinterpret_cast<const float*>(&t);  // floats from index 3 (detail::kTwoBoneFloats)
#if defined(__SSE2__)
    // Floats 3-6 and 7-10 as two vectors, soften alone.
    const __m128 a = _mm_loadu_ps(v + 3), b = _mm_loadu_ps(v + 7);
    const __m128 inA = _mm_and_ps(_mm_cmple_ps(_mm_loadu_ps(kTwoBoneLow.data()), a),
                                  _mm_cmple_ps(a, _mm_loadu_ps(kTwoBoneHigh.data())));
    const __m128 inB = _mm_and_ps(_mm_cmple_ps(_mm_loadu_ps(kTwoBoneLow.data() + 4), b),
                                  _mm_cmple_ps(b, _mm_loadu_ps(kTwoBoneHigh.data() + 4)));
    const bool floats = _mm_movemask_ps(_mm_and_ps(inA, inB)) == 0xF;
    return floats && kTwoBoneLow[8] <= v[11] && v[11] <= kTwoBoneHigh[8];
#else
    bool ok = true;
    for (std::size_t k = 0; k < kTwoBoneLow.size(); ++k)
        ok = ok && kTwoBoneLow[k] <= v[3 + k] && v[3 + k] <= kTwoBoneHigh[k];
    return ok;
#endif
}

std::int64_t index(std::size_t task) noexcept { return static_cast<std::int64_t>(task); }

Status failure(StatusCode code, const char* what, std::size_t task) noexcept {
    return Status::failure(code, what).withIndex(index(task));
}

Status checkChainOrder(std::span<const std::int32_t> parents, std::span<const std::uint32_t> joints, bool direct,
                       std::size_t task) noexcept {
    const std::size_t n = parents.size();
    for (std::size_t k = 0; k < joints.size(); ++k) {
        if (joints[k] >= n) return failure(StatusCode::OutOfRange, "IK joint index past the skeleton", task);
        if (k == 0) continue;
        const bool ordered = direct ? parents[joints[k]] == static_cast<std::int32_t>(joints[k - 1])
                                    : isAncestor(parents, joints[k - 1], joints[k]);
        if (!ordered)
            return failure(StatusCode::OutOfRange,
                           direct ? "IK chain joint is not the child of the one before it"
                                  : "IK chain joint is not a descendant of the one before it",
                           task);
    }
    return Status::success();
}

// Turns the chain's joints, root first, each by its model-space delta about its own
// origin, blended by `weight` in local space. A later joint's parent orientation is
// read from the local pose, so it includes the earlier joints' turns.
void turnJoint(std::span<const std::int32_t> parents, SoaPose& local, std::uint32_t joint, Quat delta,
               float weight) noexcept {
    const std::int32_t p = parents[joint];
    Transform t = local.joint(joint);
    const Frame f = p >= 0 ? frameOf(parents, local, p) : Frame{};
    const Quat turn = detail::turnInFrame(f.x, f.y, f.z, f.r, delta);
    const Quat solved = normalize(turn * t.rotation);
    t.rotation = weight >= 1.0f ? solved : slerp(t.rotation, solved, weight);
    local.setJoint(joint, t);
}

void applyTurns(std::span<const std::int32_t> parents, SoaPose& local, std::span<const std::uint32_t> chain,
                std::span<const Quat> deltas, float weight) noexcept {
    for (std::size_t k = 0; k < deltas.size(); ++k) turnJoint(parents, local, chain[k], deltas[k], weight);
}

// Turns bone k of the chain (joint k toward joint k + 1) so the chain's joints land on
// `solved`, root first, by the shortest arcs; `original` are the joints' positions now.
void turnBonesOnto(std::span<const std::int32_t> parents, SoaPose& local, std::span<const std::uint32_t> chain,
                   std::span<const Vec3> original, std::span<const Vec3> solved, float weight) noexcept {
    const std::size_t n = chain.size();
    std::array<Vec3, kMaxChain> current{};
    std::array<Quat, kMaxChain> deltas{};
    std::copy(original.begin(), original.end(), current.begin());
    for (std::size_t k = 0; k + 1 < n; ++k) {
        const Vec3 fromDir = directionOr(current[k + 1] - current[k], Vec3{});
        const Vec3 toDir = directionOr(solved[k + 1] - solved[k], fromDir);
        deltas[k] = dot(fromDir, fromDir) > 0.0f ? rotationBetween(fromDir, toDir) : kIdentity;
        for (std::size_t m = k + 1; m < n; ++m) current[m] = current[k] + rotate(deltas[k], current[m] - current[k]);
    }
    applyTurns(parents, local, chain, std::span<const Quat>(deltas.data(), n - 1), weight);
}

void solveTwoBone(const TwoBoneIk& task, std::span<const std::int32_t> parents, SoaPose& local) noexcept {
    const Vec3 a = positionOf(parents, local, task.root);
    const Vec3 b = positionOf(parents, local, task.middle);
    const Vec3 c = positionOf(parents, local, task.end);
    const float upper = length(b - a), lower = length(c - b);
    if (!(upper > kTiny) || !(lower > kTiny)) return;  // a zero-length bone has no direction to turn
    const float chain = upper + lower;

    // A target within rounding of the root (detail::pointNoise) has no direction: the
    // limb folds flat toward the pole, the middle out along it (with bones of unequal
    // length the end is as near as it gets, on the pole's side or the far one), or
    // along the end's present direction when the pole is at the root too.
    const Vec3 toTarget = task.target - a;
    const bool targetOff = length(toTarget) > detail::pointNoise(a, task.target);
    const Vec3 holdDirection = directionOr(c - a, (b - a) * (1.0f / upper));
    const bool poleOff = length(task.pole - a) > detail::pointNoise(a, task.pole);
    const bool foldToPole = !targetOff && poleOff;
    const float side = upper >= lower ? 1.0f : -1.0f;  // the end on the pole's side, or the far one
    const Vec3 u = targetOff ? directionOr(toTarget, holdDirection)
        : foldToPole         ? directionOr(task.pole - a, holdDirection) * side
                             : holdDirection;
    float reach = targetOff ? length(toTarget) : 0.0f;
    if (task.soften > 0.0f) {
        // Past (1 - soften) of the chain, the reach approaches full extension
        // exponentially instead of reaching it: no snap as the knee straightens.
        const float soft = chain * (1.0f - task.soften);
        const float span = chain * task.soften;
        if (reach > soft) reach = soft + span * (1.0f - std::exp(-(reach - soft) / span));
    }
    reach = std::clamp(reach, std::abs(upper - lower), chain);

    // The bend direction: toward the pole, else the pose's own bend, else any. A pole
    // whose offset from the root-target line is rounding noise (relative to its
    // distance, or to the coordinates) lies on the line. The part along the line is
    // taken out twice: once leaves as much of it as the subtraction rounded away.
    const Vec3 toPole = task.pole - a;
    const Vec3 poleOffset = toPole - u * dot(toPole, u);
    const float offset2 = dot(poleOffset, poleOffset), poleNoise = detail::pointNoise(a, task.pole);
    Vec3 bend = offset2 > kOnLine * dot(toPole, toPole) && offset2 > poleNoise * poleNoise
        ? perpendicularPart(directionOr(poleOffset, Vec3{}), u)
        : Vec3{};
    if (dot(bend, bend) == 0.0f) {
        const Vec3 current = b - a;
        bend = perpendicularPart(directionOr(current - u * dot(current, u), perpendicularTo(u)), u);
        if (dot(bend, bend) == 0.0f) bend = perpendicularTo(u);
    }
    if (task.twist != 0.0f) bend = rotate(fromAxisAngle(u, task.twist), bend);

    // The law of cosines with upper^2 - lower^2 as a product, exact for equal bones
    // however short the reach. A reach of 0 (equal bones, the target and the pole at
    // the root): the limb folds, the middle straight out along the bend.
    const float cosRoot = foldToPole ? side
        : reach > 0.0f
        ? std::clamp(((upper - lower) * (upper + lower) + reach * reach) / (2.0f * upper * reach), -1.0f, 1.0f)
        : 0.0f;
    const float sinRoot = foldToPole ? 0.0f : reach > 0.0f ? sineAtRoot(upper, lower, reach) : 1.0f;
    const Vec3 middle = a + (u * cosRoot + bend * sinRoot) * upper;
    const Vec3 end = a + u * reach;

    const Quat rootTurn = rotationBetween((b - a) * (1.0f / upper), directionOr(middle - a, u));
    const Vec3 endAfterRoot = a + rotate(rootTurn, c - a);
    const Vec3 lowerNow = directionOr(endAfterRoot - middle, u);
    const Quat middleTurn = rotationBetween(lowerNow, directionOr(end - middle, lowerNow));
    const std::uint32_t chainJoints[] = {task.root, task.middle};
    const Quat deltas[] = {rootTurn, middleTurn};
    applyTurns(parents, local, chainJoints, deltas, task.weight);
}

// An aim task's joints while they turn. Only the joints from the first named one
// down to the aimed one move, so the model frame above the first is composed once
// and every placement after it walks no higher than the first joint.
class AimChain {
public:
    AimChain(std::span<const std::int32_t> parents, SoaPose& local, std::uint32_t top) noexcept
        : parents_(parents), local_(local), top_(top) {
        if (parents[top] >= 0) above_ = frameOf(parents, local, parents[top]);
    }

    // `joint`'s model placement; `joint` is the first joint or below it.
    Frame frame(std::uint32_t joint) const noexcept {
        Frame f = framePart(parents_, local_, joint, top_);
        f.p = above_.p + through(above_, f.p);
        f.r = normalize(above_.r * f.r);
        f.x = through(above_, f.x);
        f.y = through(above_, f.y);
        f.z = through(above_, f.z);
        return f;
    }

    // As turnJoint at full weight: `joint` turned by the model-space `delta` about its origin.
    void turn(std::uint32_t joint, Quat delta) noexcept {
        const Frame p = joint == top_ ? above_ : frame(static_cast<std::uint32_t>(parents_[joint]));
        float* x = local_.component(SoaComponent::Rx);
        float* y = local_.component(SoaComponent::Ry);
        float* z = local_.component(SoaComponent::Rz);
        float* w = local_.component(SoaComponent::Rw);
        const Quat solved =
            normalize(detail::turnInFrame(p.x, p.y, p.z, p.r, delta) * Quat{x[joint], y[joint], z[joint], w[joint]});
        x[joint] = solved.x;
        y[joint] = solved.y;
        z[joint] = solved.z;
        w[joint] = solved.w;
    }

private:
    std::span<const std::int32_t> parents_;
    SoaPose& local_;
    std::uint32_t top_;
    Frame above_{};
};

// An aim's angle limit, applied.
struct AimLimit : detail::AimLimitAngles {
    using AimLimitAngles::AimLimitAngles;

    // `wanted` turned back toward `poseForward` to the limit where it lies beyond it.
    // The turn between the two, of sine |f x w| and cosine f . w, lies past the limit
    // when sin(turn - limit) > 0: both angles lie in [0, pi], so their difference does
    // in (-pi, pi).
    Vec3 apply(Vec3 poseForward, Vec3 wanted) const noexcept {
        if (!active) return wanted;
        const Vec3 axis = detail::turnAxis(poseForward, wanted);
        const float s = length(axis), c = dot(poseForward, wanted);
        if (!(cosine * s - sine * c > 0.0f)) return wanted;
        const Vec3 unitAxis =
            s > (c < 0.0f ? detail::kOppositeNoise : kTiny) ? axis * (1.0f / s) : perpendicularTo(poseForward);
        return rotate(Quat{unitAxis.x * halfSine, unitAxis.y * halfSine, unitAxis.z * halfSine, halfCosine},
                      poseForward);
    }
};

// One aim pass: turns the joints so that the aimed joint's forward axis turns toward
// the target (limited to `limit` from `poseForward`), the turn shared out by decay.
// Returns the angle turned (radians). `forwardAxis`: the task's forward axis at unit
// length (detail::unitAxis), taken once per task.
float aimPass(const AimIk& task, Vec3 forwardAxis, AimChain& chain, std::span<const float> shares,
              const AimLimit& limit, Vec3 poseForward) noexcept {
    const std::size_t n = task.joints.size();
    const Frame aimed = chain.frame(task.joints[n - 1]);
    const Vec3 forward = axisOf(aimed, forwardAxis);
    if (dot(forward, forward) == 0.0f) return 0.0f;
    // A target within rounding of the aimed joint's origin has no direction: no turn.
    const Vec3 toTarget = task.target - aimed.p;
    const bool off = length(toTarget) > detail::pointNoise(aimed.p, task.target);
    const Vec3 wanted = limit.apply(poseForward, off ? directionOr(toTarget, forward) : forward);
    const AxisAngle total = turnBetween(forward, wanted);
    // The turns are about one axis, so their parts compose to the whole. Turned root
    // first: each joint's turn is taken into its parent's frame as the ones above left it.
    for (std::size_t k = 0; k < n; ++k) chain.turn(task.joints[k], turnAbout(total.axis, total.angle * shares[k]));
    return total.angle;
}

void solveAim(const AimIk& task, std::span<const std::int32_t> parents, SoaPose& local) noexcept {
    const std::size_t n = task.joints.size();
    const std::uint32_t aimedJoint = task.joints[n - 1];
    AimChain chain(parents, local, task.joints[0]);
    const Vec3 forwardAxis = detail::unitAxis(task.forward);
    const Vec3 poseForward = directionOr(axisOf(chain.frame(aimedJoint), forwardAxis), Vec3{0.0f, 0.0f, 1.0f});
    std::array<float, kMaxChain> shares;  // floats: the array is not filled first
    detail::aimShares(task.decay, std::span<float>(shares.data(), n));
    const AimLimit limit(task.maxAngle);
    // Solved at full weight, then blended with the rotations the pose had.
    // The pose's rotations, for a weight below 1 (floats: the array is not filled first).
    std::array<float, 4 * kMaxChain> before;
    const float* rotations[] = {local.component(SoaComponent::Rx), local.component(SoaComponent::Ry),
                                local.component(SoaComponent::Rz), local.component(SoaComponent::Rw)};
    if (task.weight < 1.0f) {
        for (std::size_t k = 0; k < n; ++k) {
            for (std::size_t c = 0; c < 4; ++c) before[4 * k + c] = rotations[c][task.joints[k]];
        }
    }
    // One joint: its origin does not move, one pass aims it. A chain: turning the
    // joints above moves the aimed one, so passes repeat until one turns less than
    // kAimSettled.
    const int passes = n > 1 ? kAimPasses : 1;
    const std::span<const float> parts(shares.data(), n);
    for (int pass = 0; pass < passes; ++pass) {
        if (aimPass(task, forwardAxis, chain, parts, limit, poseForward) <= kAimSettled) break;
    }
    if (task.upVector) {
        const Frame aimed = chain.frame(aimedJoint);
        const Vec3 forward = axisOf(aimed, forwardAxis);
        const Vec3 up = axisOf(aimed, detail::unitAxis(task.up));
        const Vec3 want = detail::unitAxis(*task.upVector);
        // The up axis and the up vector across the forward axis; the roll about that
        // axis exactly (its angle from their cross and dot products), so that it
        // leaves the aimed axis where the passes put it.
        const Vec3 upNow = up - forward * dot(up, forward);
        const Vec3 upWanted = want - forward * dot(want, forward);
        if (dot(forward, forward) > 0.0f && length(upNow) > detail::kRollSlack &&
            length(upWanted) > detail::kRollSlack) {
            const float angle = std::atan2(dot(forward, cross(upNow, upWanted)), dot(upNow, upWanted));
            chain.turn(aimedJoint, turnAbout(forward, angle));
        }
    }
    if (task.weight < 1.0f) {
        for (std::size_t k = 0; k < n; ++k) {
            Transform t = local.joint(task.joints[k]);
            const Quat pose{before[4 * k], before[4 * k + 1], before[4 * k + 2], before[4 * k + 3]};
            t.rotation = slerp(pose, t.rotation, task.weight);
            local.setJoint(task.joints[k], t);
        }
    }
}

// A chain whose joints all lie on the line from its root toward the target (within
// rounding: kOnChainLine of the chain's length) gives FABRIK and CCD nothing to turn:
// FABRIK's passes only slide the joints along the line, and CCD finds every bone
// already pointing at the target. Such a chain is first turned rigidly about its root
// by kUnbend radians toward a fixed perpendicular of the line (perpendicularTo), after
// which it folds toward the target as any bent chain does. `points` are the joints'
// model positions, root first; the direction is the line's own (the end's, with the
// target at the root).
constexpr float kOnChainLine = 1e-5f;
constexpr float kUnbend = 0.05f;

bool onOneLine(std::span<const Vec3> points, Vec3 direction, float total) noexcept {
    const Vec3 root = points[0];
    for (const Vec3& q : points) {
        const Vec3 v = q - root;
        const Vec3 off = v - direction * dot(v, direction);
        if (length(off) > kOnChainLine * total + detail::pointNoise(root, q)) return false;
    }
    return true;
}

// The turn that unbends a straight chain toward the target (identity where the chain
// is not straight along the line toward the target). About `hinge` (model space) where
// it is given and leaves the line (a first joint that only bends about it), else about
// a fixed perpendicular of the line.
Quat unbendingTurn(std::span<const Vec3> points, Vec3 target, float total, Vec3 hinge = Vec3{}) noexcept {
    const Vec3 root = points[0];
    const Vec3 direction = directionOr(target - root, directionOr(points.back() - root, Vec3{}));
    if (dot(direction, direction) == 0.0f || !onOneLine(points, direction, total)) return kIdentity;
    Vec3 axis = directionOr(hinge - direction * dot(hinge, direction), Vec3{});
    if (dot(axis, axis) == 0.0f) axis = directionOr(cross(direction, perpendicularTo(direction)), Vec3{});
    return dot(axis, axis) > 0.0f ? fromAxisAngle(axis, kUnbend) : kIdentity;
}

void solveChain(const ChainIk& task, std::span<const std::int32_t> parents, SoaPose& local) noexcept {
    const std::size_t n = task.joints.size();
    std::array<Vec3, kMaxChain> original{}, p{};
    std::array<float, kMaxChain> lengths{};
    float total = 0.0f;
    for (std::size_t k = 0; k < n; ++k) original[k] = positionOf(parents, local, task.joints[k]);
    for (std::size_t k = 0; k + 1 < n; ++k) {
        lengths[k] = length(original[k + 1] - original[k]);
        total += lengths[k];
    }
    if (!(total > kTiny)) return;
    p = original;
    const Vec3 root = original[0];
    if (length(task.target - root) >= total) {
        // Out of reach: the chain straight, pointing at the target.
        const Vec3 dir = directionOr(task.target - root, directionOr(original[n - 1] - root, Vec3{0, 1, 0}));
        for (std::size_t k = 0; k + 1 < n; ++k) p[k + 1] = p[k] + dir * lengths[k];
    } else if (task.solver == ChainSolver::Fabrik) {
        if (length(p[n - 1] - task.target) > task.tolerance) {
            const Quat unbend = unbendingTurn(std::span<const Vec3>(p.data(), n), task.target, total);
            for (std::size_t k = 1; k < n; ++k) p[k] = root + rotate(unbend, p[k] - root);
        }
        for (std::uint32_t it = 0; it < task.iterations && length(p[n - 1] - task.target) > task.tolerance; ++it) {
            p[n - 1] = task.target;
            for (std::size_t k = n - 1; k-- > 0;) {
                const Vec3 fallback = directionOr(original[k] - original[k + 1], Vec3{0, -1, 0});
                p[k] = p[k + 1] + directionOr(p[k] - p[k + 1], fallback) * lengths[k];
            }
            p[0] = root;
            for (std::size_t k = 0; k + 1 < n; ++k) {
                const Vec3 fallback = directionOr(original[k + 1] - original[k], Vec3{0, 1, 0});
                p[k + 1] = p[k] + directionOr(p[k + 1] - p[k], fallback) * lengths[k];
            }
        }
    } else {
        // CCD on the bones as vectors from the root, each put back to its length after
        // every turn: positions turned again and again in place would drift (their
        // rounding grows with the distance from the origin and with the iterations),
        // and the stopping test would measure a chain the pose does not have.
        std::array<Vec3, kMaxChain> bone{};
        for (std::size_t k = 0; k + 1 < n; ++k) bone[k] = original[k + 1] - original[k];
        const Vec3 goal = task.target - root;
        const auto endFrom = [&](std::size_t k) {  // the end, seen from joint k
            Vec3 e{};
            for (std::size_t m = k; m + 1 < n; ++m) e = e + bone[m];
            return e;
        };
        if (length(endFrom(0) - goal) > task.tolerance) {
            const Quat unbend = unbendingTurn(std::span<const Vec3>(original.data(), n), task.target, total);
            for (std::size_t k = 0; k + 1 < n; ++k) bone[k] = rotate(unbend, bone[k]);
        }
        for (std::uint32_t it = 0; it < task.iterations && length(endFrom(0) - goal) > task.tolerance; ++it) {
            for (std::size_t k = n - 1; k-- > 0;) {
                Vec3 at{};
                for (std::size_t m = 0; m < k; ++m) at = at + bone[m];
                const Vec3 from = directionOr(endFrom(k), Vec3{});
                const Vec3 to = directionOr(goal - at, Vec3{});
                if (dot(from, from) == 0.0f || dot(to, to) == 0.0f) continue;
                const Quat turn = rotationBetween(from, to);
                for (std::size_t m = k; m + 1 < n; ++m) {
                    const Vec3 turned = rotate(turn, bone[m]);
                    bone[m] = directionOr(turned, Vec3{}) * lengths[m];
                }
            }
        }
        for (std::size_t k = 0; k + 1 < n; ++k) p[k + 1] = p[k] + bone[k];
    }
    turnBonesOnto(parents, local, task.joints, std::span<const Vec3>(original.data(), n),
                  std::span<const Vec3>(p.data(), n), task.weight);
}

// The twist of `q` about unit axis `a` and the swing left over: q = swing * twist,
// with the twist's angle in [-pi, pi].
void splitSwingTwist(Quat q, Vec3 a, Quat& swing, Quat& twist) noexcept {
    twist = twistAbout(q, a);
    swing = normalize(q * conjugate(twist));
}

// `relative` (a joint's turn from its pose rotation, in its own frame there) kept within `limit`.
Quat withinLimit(Quat relative, const JointLimit& limit) noexcept {
    if (limit.kind == JointLimit::Kind::Free) return relative;
    const Vec3 axis = detail::unitAxis(limit.axis);
    Quat swing, twist;
    splitSwingTwist(relative, axis, swing, twist);
    float angle = 2.0f * std::atan2(twist.x * axis.x + twist.y * axis.y + twist.z * axis.z, twist.w);
    if (limit.kind == JointLimit::Kind::Hinge)
        return fromAxisAngle(axis, std::clamp(angle, limit.minAngle, limit.maxAngle));
    angle = std::clamp(angle, limit.minTwist, limit.maxTwist);
    if (swing.w < 0.0f) swing = -swing;
    const float swingAngle = 2.0f * std::acos(std::clamp(swing.w, -1.0f, 1.0f));
    if (swingAngle > limit.coneAngle) swing = partOf(swing, swingAngle > kTiny ? limit.coneAngle / swingAngle : 0.0f);
    return normalize(swing * fromAxisAngle(axis, angle));
}

// Turns joint `k` of the chain by the model-space `delta`, then keeps it within its limit.
void turnWithinLimit(std::span<const std::int32_t> parents, SoaPose& local, const ChainIk& task, std::size_t k,
                     Quat delta, std::span<const Quat> poseRotations) noexcept {
    const std::uint32_t joint[] = {task.joints[k]};
    const Quat deltas[] = {delta};
    applyTurns(parents, local, joint, deltas, 1.0f);
    Transform t = local.joint(task.joints[k]);
    const Quat relative = conjugate(poseRotations[k]) * t.rotation;
    t.rotation = normalize(poseRotations[k] * withinLimit(relative, task.limits[k]));
    local.setJoint(task.joints[k], t);
}

// FABRIK or CCD with joint limits: the solver's steps become turns of the joints,
// each kept within its limit as soon as it is made, so every iteration starts from a
// pose the limits allow.
void solveLimitedChain(const ChainIk& task, std::span<const std::int32_t> parents, SoaPose& local) noexcept {
    const std::size_t n = task.joints.size();
    std::array<Quat, kMaxChain> pose{};
    std::array<Vec3, kMaxChain> p{}, solved{};
    std::array<float, kMaxChain> lengths{};
    for (std::size_t k = 0; k < n; ++k) pose[k] = local.joint(task.joints[k]).rotation;
    // The first joint's placement by its walk up, then down the chain (each joint the
    // parent of the next): one pass, however long the chain.
    const auto positions = [&] {
        Frame f = frameOf(parents, local, task.joints[0]);
        p[0] = f.p;
        for (std::size_t k = 1; k < n; ++k) {
            const Transform t = local.joint(task.joints[k]);
            f.p = f.p + through(f, t.translation);
            p[k] = f.p;
            if (k + 1 == n) break;
            const Vec3 x = through(f, rotate(t.rotation, mulComponents(t.scale, Vec3{1.0f, 0.0f, 0.0f})));
            const Vec3 y = through(f, rotate(t.rotation, mulComponents(t.scale, Vec3{0.0f, 1.0f, 0.0f})));
            const Vec3 z = through(f, rotate(t.rotation, mulComponents(t.scale, Vec3{0.0f, 0.0f, 1.0f})));
            f.x = x;
            f.y = y;
            f.z = z;
        }
    };
    positions();
    float total = 0.0f;
    for (std::size_t k = 0; k + 1 < n; ++k) {
        lengths[k] = length(p[k + 1] - p[k]);
        total += lengths[k];
    }
    const std::span<const Quat> poseRotations(pose.data(), n);
    if (length(p[n - 1] - task.target) > task.tolerance && length(task.target - p[0]) < total) {
        // A straight chain toward the target, unbent at its first joint (unbendingTurn),
        // about that joint's hinge where it has one.
        const JointLimit& first = task.limits[0];
        const Vec3 hinge = first.kind == JointLimit::Kind::Hinge
            ? rotate(frameOf(parents, local, task.joints[0]).r, detail::unitAxis(first.axis))
            : Vec3{};
        const Quat unbend = unbendingTurn(std::span<const Vec3>(p.data(), n), task.target, total, hinge);
        if (unbend.w < 1.0f) {
            turnWithinLimit(parents, local, task, 0, unbend, poseRotations);
            positions();
        }
    }
    for (std::uint32_t it = 0; it < task.iterations && length(p[n - 1] - task.target) > task.tolerance; ++it) {
        if (task.solver == ChainSolver::Ccd) {
            for (std::size_t k = n - 1; k-- > 0;) {
                const Vec3 from = directionOr(p[n - 1] - p[k], Vec3{});
                const Vec3 to = directionOr(task.target - p[k], Vec3{});
                if (dot(from, from) > 0.0f && dot(to, to) > 0.0f)
                    turnWithinLimit(parents, local, task, k, rotationBetween(from, to), poseRotations);
                positions();
            }
        } else {
            // One FABRIK pass on the current positions, then each bone turned toward
            // its place in it, root first.
            solved = p;
            solved[n - 1] = task.target;
            for (std::size_t k = n - 1; k-- > 0;)
                solved[k] = solved[k + 1] + directionOr(solved[k] - solved[k + 1], Vec3{0, -1, 0}) * lengths[k];
            solved[0] = p[0];
            for (std::size_t k = 0; k + 1 < n; ++k)
                solved[k + 1] = solved[k] + directionOr(solved[k + 1] - solved[k], Vec3{0, 1, 0}) * lengths[k];
            for (std::size_t k = 0; k + 1 < n; ++k) {
                const Vec3 from = directionOr(p[k + 1] - p[k], Vec3{});
                const Vec3 to = directionOr(solved[k + 1] - p[k], from);
                if (dot(from, from) > 0.0f)
                    turnWithinLimit(parents, local, task, k, rotationBetween(from, to), poseRotations);
                positions();
            }
        }
    }
    if (task.weight < 1.0f) {
        for (std::size_t k = 0; k < n; ++k) {
            Transform t = local.joint(task.joints[k]);
            t.rotation = slerp(pose[k], t.rotation, task.weight);
            local.setJoint(task.joints[k], t);
        }
    }
}

// The distance left and whether it counts as reached, from the pose after the task.
IkOutcome outcomeOf(const IkTask& task, std::span<const std::int32_t> parents, const SoaPose& local) noexcept {
    IkOutcome out;
    if (const auto* t = std::get_if<TwoBoneIk>(&task)) {
        const Vec3 a = positionOf(parents, local, t->root), b = positionOf(parents, local, t->middle);
        const Vec3 c = positionOf(parents, local, t->end);
        out.distance = length(c - t->target);
        out.reached = out.distance <= 1e-4f * (length(b - a) + length(c - b));
    } else if (const auto* aim = std::get_if<AimIk>(&task)) {
        const Frame f = frameOf(parents, local, aim->joints.back());
        const Vec3 forward = axisOf(f, detail::unitAxis(aim->forward));
        const Vec3 toTarget = aim->target - f.p;
        const float along = dot(toTarget, forward);
        out.distance = along >= 0.0f ? length(toTarget - forward * along) : length(toTarget);
        // A target within rounding of the aimed joint's origin lies on every axis through it.
        const float far = length(toTarget);
        out.reached = far <= detail::pointNoise(f.p, aim->target) || out.distance <= 1e-4f * far;
    } else if (const auto* chain = std::get_if<ChainIk>(&task)) {
        out.distance = length(positionOf(parents, local, chain->joints.back()) - chain->target);
        out.reached = out.distance <= chain->tolerance;
    }
    out.distance = detail::reportedDistance(out.distance);
    return out;
}

}  // namespace

namespace detail {

IkOutcome solveIkTask(std::span<const std::int32_t> parents, SoaPose& local, const IkTask& task) noexcept {
    const float weight = std::visit([](const auto& t) { return t.weight; }, task);
    if (weight > 0.0f) {
        if (const auto* t = std::get_if<TwoBoneIk>(&task)) {
            solveTwoBone(*t, parents, local);
        } else if (const auto* aim = std::get_if<AimIk>(&task)) {
            solveAim(*aim, parents, local);
        } else if (const auto* chain = std::get_if<ChainIk>(&task)) {
            if (chain->limits.empty())
                solveChain(*chain, parents, local);
            else
                solveLimitedChain(*chain, parents, local);
        }
    }
    return outcomeOf(task, parents, local);
}

}  // namespace detail

Quat rotationBetween(Vec3 from, Vec3 to) noexcept {
    const float c = dot(from, to);
    const Vec3 axis = cross(from, to);
    // q = (from x to, 1 + from . to), normalised: half the angle between them.
    if (c >= -0.99f) return normalize(Quat{axis.x, axis.y, axis.z, 1.0f + c});
    // Near opposite, 1 + c and the axis lose digits. A half turn about the axis (made
    // perpendicular to `from`; any perpendicular when there is none) takes `from` to
    // -from, and the short arc from -from onto `to` is well conditioned: `to` is met
    // to rounding, and the product is the shortest arc where the axis is known.
    const Vec3 side = directionOr(axis - from * dot(axis, from), perpendicularTo(from));
    const Quat half = fromAxisAngle(side, 3.14159265358979f);
    return normalize(normalize(Quat{-axis.x, -axis.y, -axis.z, 1.0f - c}) * half);
}

Status checkIkTasks(std::span<const IkTask> tasks, std::span<const std::int32_t> parents) noexcept {
    const std::size_t n = parents.size();
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        if (const auto* t = std::get_if<TwoBoneIk>(&tasks[i])) {
            if (t->root >= n || t->middle >= n || t->end >= n)
                return failure(StatusCode::OutOfRange, "IK joint index past the skeleton", i);
            // A leg or an arm (each joint the parent of the next) needs no walk up the chain.
            const bool direct = parents[t->middle] == static_cast<std::int32_t>(t->root) &&
                parents[t->end] == static_cast<std::int32_t>(t->middle);
            if (direct && twoBoneValuesInBounds(*t)) continue;
            if (!isAncestor(parents, t->root, t->middle) || !isAncestor(parents, t->middle, t->end))
                return failure(StatusCode::OutOfRange, "two-bone IK joints are not root, middle, end of one chain", i);
            if (twoBoneValuesInBounds(*t)) continue;
            if (!isFinite(t->target) || !isFinite(t->pole) || !std::isfinite(t->twist))
                return failure(StatusCode::NotFinite, "IK target, pole or twist not finite", i);
            if (!near(t->target) || !near(t->pole))
                return failure(StatusCode::OutOfRange, "IK target or pole farther than 1e18 along an axis", i);
            if (Status w = checkUnitWeight(t->weight, "IK weight outside [0, 1]", "IK weight not finite"); !w)
                return w.withIndex(index(i));
            if (!std::isfinite(t->soften)) return failure(StatusCode::NotFinite, "two-bone IK soften not finite", i);
            if (!(t->soften >= 0.0f && t->soften < 1.0f))
                return failure(StatusCode::OutOfRange, "two-bone IK soften outside [0, 1)", i);
        } else if (const auto* aim = std::get_if<AimIk>(&tasks[i])) {
            if (aim->joints.empty() || aim->joints.size() > kMaxChain)
                return failure(StatusCode::WrongCount, "aim IK names no joint or more than 64", i);
            if (Status s = checkChainOrder(parents, aim->joints, false, i); !s) return s;
            if (!isFinite(aim->target)) return failure(StatusCode::NotFinite, "IK target not finite", i);
            if (!near(aim->target))
                return failure(StatusCode::OutOfRange, "IK target farther than 1e18 along an axis", i);
            if (!isFinite(aim->forward) || !isFinite(aim->up) || (aim->upVector && !isFinite(*aim->upVector)))
                return failure(StatusCode::NotFinite, "aim IK forward axis, up axis or up vector not finite", i);
            if (!nonZero(aim->forward) || !nonZero(aim->up))
                return failure(StatusCode::OutOfRange, "aim IK forward or up axis zero", i);
            if (aim->upVector && !(nonZero(*aim->upVector) && near(*aim->upVector)))
                return failure(StatusCode::OutOfRange, "aim IK up vector zero or farther than 1e18", i);
            if (aim->upVector &&
                length(cross(detail::unitAxis(aim->up), detail::unitAxis(aim->forward))) <= detail::kRollSlack)
                return failure(StatusCode::OutOfRange, "aim IK up axis along the forward axis: no roll about it", i);
            if (Status w = checkUnitWeight(aim->weight, "IK weight outside [0, 1]", "IK weight not finite"); !w)
                return w.withIndex(index(i));
            if (!std::isfinite(aim->maxAngle) || !std::isfinite(aim->decay))
                return failure(StatusCode::NotFinite, "aim IK angle limit or decay not finite", i);
            if (!(aim->maxAngle >= 0.0f && aim->decay >= 0.0f))
                return failure(StatusCode::OutOfRange, "aim IK angle limit or decay negative", i);
        } else if (const auto* chain = std::get_if<ChainIk>(&tasks[i])) {
            if (chain->joints.size() < 2 || chain->joints.size() > kMaxChain)
                return failure(StatusCode::WrongCount, "chain IK needs 2 to 64 joints", i);
            if (Status s = checkChainOrder(parents, chain->joints, true, i); !s) return s;
            if (!isFinite(chain->target)) return failure(StatusCode::NotFinite, "IK target not finite", i);
            if (!near(chain->target))
                return failure(StatusCode::OutOfRange, "IK target farther than 1e18 along an axis", i);
            if (Status w = checkUnitWeight(chain->weight, "IK weight outside [0, 1]", "IK weight not finite"); !w)
                return w.withIndex(index(i));
            if (chain->iterations == 0 || chain->iterations > kMaxChainIterations)
                return failure(StatusCode::OutOfRange, "chain IK needs 1 to 1000 iterations", i);
            if (!std::isfinite(chain->tolerance))
                return failure(StatusCode::NotFinite, "chain IK tolerance not finite", i);
            if (!(chain->tolerance >= 0.0f)) return failure(StatusCode::OutOfRange, "chain IK tolerance negative", i);
            if (!chain->limits.empty() && chain->limits.size() != chain->joints.size())
                return failure(StatusCode::WrongCount, "chain IK limits: none, or one per joint", i);
            for (const JointLimit& limit : chain->limits) {
                const bool finite = std::isfinite(limit.minAngle) && std::isfinite(limit.maxAngle) &&
                    std::isfinite(limit.coneAngle) && std::isfinite(limit.minTwist) && std::isfinite(limit.maxTwist);
                if (!finite || !isFinite(limit.axis))
                    return failure(StatusCode::NotFinite, "joint limit angle or axis not finite", i);
                if (limit.kind != JointLimit::Kind::Free && limit.kind != JointLimit::Kind::Hinge &&
                    limit.kind != JointLimit::Kind::Cone)
                    return failure(StatusCode::OutOfRange, "joint limit of no known kind (free, hinge, cone)", i);
                if (!nonZero(limit.axis) || limit.minAngle > limit.maxAngle || limit.minTwist > limit.maxTwist ||
                    limit.coneAngle < 0.0f)
                    return failure(StatusCode::OutOfRange,
                                   "joint limit with a zero axis, min above max or a negative cone", i);
            }
        }
    }
    return Status::success();
}

Status applyIk(const PoseKernels& kernels, std::span<const std::int32_t> parents, SoaPose& local,
               std::span<const IkTask> tasks, std::span<Mat4> model, std::span<IkOutcome> outcomes) noexcept {
    if (local.jointCount() != parents.size() || model.size() < parents.size())
        return Status::failure(StatusCode::WrongCount, "IK pose, parents and model matrices differ in size");
    if (Status s = checkParents(parents); !s) return s;
    if (Status s = checkIkTasks(tasks, parents); !s) return s;
    if (const std::int64_t j = firstUnsoundJoint(local); j >= 0) {
        if (j == static_cast<std::int64_t>(parents.size()))
            return Status::failure(StatusCode::NotFinite, "IK pose holds a morph weight that is not finite");
        return Status::failure(StatusCode::NotFinite, "IK pose holds a value that is not finite or a zero rotation")
            .withIndex(j);
    }
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        const IkOutcome outcome = detail::solveIkTask(parents, local, tasks[i]);
        if (i < outcomes.size()) outcomes[i] = outcome;
    }
    (void)kernels.localToModel(parents, local, model);
    return Status::success();
}

}  // namespace kinema
