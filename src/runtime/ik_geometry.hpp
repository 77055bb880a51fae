// Internal: what the reference IK solvers (ik.cpp) and the side-by-side ones
// (ik_lanes.cpp) share so that they give the same results on the same input: the
// threshold that tells a direction from rounding noise, how a model-space turn is
// taken into a parent's frame, and an aim's shares and limit.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <span>

#include "kinema/math/quat.hpp"
#include "kinema/math/vec3.hpp"

namespace kinema::detail {

// Aim tasks re-aim up to this many times: turning a joint above the aimed one moves
// the aimed joint's origin, so the direction to the target is measured again, until
// a pass turns no more than kAimSettled radians.
inline constexpr int kAimPasses = 16;
inline constexpr float kAimSettled = 1e-5f;
// Each aim joint's part of a pass's turn, root first: the aimed joint 1, each joint
// above it `decay` times the one below, over their sum. Counted from the largest
// share (the aimed joint's for a decay up to 1, the first joint's above it), so that
// no power of the decay overflows.
inline void aimShares(float decay, std::span<float> shares) noexcept {
    const std::size_t n = shares.size();
    float share = 1.0f, sum = 0.0f;
    if (decay <= 1.0f) {
        for (std::size_t k = n; k-- > 0;) {
            shares[k] = share;
            sum += share;
            share *= decay;
        }
    } else {
        for (std::size_t k = 0; k < n; ++k) {
            shares[k] = share;
            sum += share;
            share /= decay;
        }
    }
    for (float& s : shares) s /= sum;
}

// An aim's angle limit, its sines and cosines taken once per task: a turn from the
// pose's forward axis is limited without an angle of its own (no inverse
// trigonometry). A limit of 0, or of a half turn or more, limits nothing.
struct AimLimitAngles {
    explicit AimLimitAngles(float maxAngle) noexcept
        : active(maxAngle > 0.0f && maxAngle < 3.14159265358979f),
          sine(std::sin(maxAngle)),
          cosine(std::cos(maxAngle)),
          halfSine(std::sin(0.5f * maxAngle)),
          halfCosine(std::cos(0.5f * maxAngle)) {}

    bool active;
    float sine, cosine, halfSine, halfCosine;
};

// An aim's up axis, or its up vector, whose part across the forward axis is shorter
// than this (of unit length: within 1e-4 rad of the axis) has no direction about
// it: no roll is taken from it.
inline constexpr float kRollSlack = 1e-4f;

// A non-zero finite axis or direction at unit length, scaled by its largest component
// first so that its square neither overflows nor underflows: the checks take axes of
// any length that has a direction (1e20 and 1e-20 as well as 1), and the solvers use
// them through this. (An axis the checks take has a square above 0, so its largest
// component is above 1e-23 and its reciprocal finite.)
inline Vec3 unitAxis(Vec3 v) noexcept {
    const auto most = [](float x, float y) { return x < y ? y : x; };
    const float largest = most(most(std::abs(v.x), std::abs(v.y)), std::abs(v.z));
    const Vec3 s = v * (1.0f / largest);
    return s * (1.0f / std::sqrt(dot(s, s)));
}

// The rounding noise of a difference of two points with these coordinates: a vector
// between them no longer than this has no direction. (Points 1000 units from the
// origin carry about 6e-5 of it, so a target "at" a root placed there is 6e-5 away.)
// Branch-free, so that lane loops calling it stay vector code.
inline float pointNoise(Vec3 a, Vec3 b) noexcept {
    const auto most = [](float x, float y) { return x < y ? y : x; };
    const float m = most(most(most(std::abs(a.x), std::abs(a.y)), most(std::abs(a.z), std::abs(b.x))),
                         most(std::abs(b.y), std::abs(b.z)));
    return 16.0f * std::numeric_limits<float>::epsilon() * m;
}

// The axis of the shortest turn from unit `from` to unit `to`, not normalised: their
// cross product, with its part along `from` taken out where they point apart. There
// the product is a difference of nearly equal terms, and rounding leans it off `from`
// by as much as its own length: a half turn about it would miss `to` by a wide angle
// (a look-at target straight behind). Branch-free, so that lane loops calling it
// stay vector code.
//
// Where they point apart and this axis is shorter than kOppositeNoise, it is
// rounding alone: the two are taken as opposite, and the turn is a half turn about a
// fixed perpendicular of `from`, so that both solvers pick the same one.
inline constexpr float kOppositeNoise = 16.0f * std::numeric_limits<float>::epsilon();

inline Vec3 turnAxis(Vec3 from, Vec3 to) noexcept {
    const Vec3 axis = cross(from, to);
    const float along = dot(from, to) < 0.0f ? dot(axis, from) : 0.0f;
    return axis - from * along;
}

// An outcome's distance as reported: a pose whose composition overflowed (scales
// of 1e30 on nested joints) leaves the end at no finite place, and its distance,
// a difference of infinities, NaN: it is reported as infinitely far, not reached.
inline float reportedDistance(float distance) noexcept {
    return distance == distance ? distance : std::numeric_limits<float>::infinity();
}

// Heron's product for the triangle of sides upper, lower and reach (16 area^2) over
// (upper + lower)^4: each factor divided by upper + lower, so that the product neither
// underflows for bones of 1e-11 (four such lengths multiply to below the smallest
// normal float) nor overflows for long ones, and a factor that is exactly 0 (full
// extension, full fold) stays 0. Branch-free.
inline float heronOverFourth(float upper, float lower, float reach) noexcept {
    const float sum = upper + lower;
    const float s = 1.0f / (sum > 0.0f ? sum : 1.0f);
    // The two middle factors as (reach - |upper - lower|) (reach + |upper - lower|), with
    // the difference taken as the callers clamp the reach to it, so that a reach at
    // either end of its range (a flat triangle) gives exactly 0: upper - lower is not
    // always exact, and the square root of a rounding error would be a visible bend.
    const float difference = std::abs(upper - lower);
    return ((sum + reach) * s) * ((reach - difference) * s) * ((reach + difference) * s) * ((sum - reach) * s);
}

// `delta`, a turn in model space about a joint's origin, as the turn to apply to the
// joint's local rotation under a parent whose model-space linear map has columns
// x, y, z (each rotation times its per-axis scale, composed) and rotations alone
// `rotation`: the turn that, seen through the map, is `delta`. Its axis goes through
// the map transposed and is reversed where the map mirrors (a negative determinant):
// exact for any rotation times a scale the same on all axes, a mirrored axis
// included, where the rotations alone (the fallback, for a map that flattens the
// axis) miss under a mirror. Under a scale that differs between axes no rotation is
// exact; this one keeps the axis the map would show. `delta` need not be unit length.
// Branch-free, so that lane loops calling it stay vector code.
inline Quat turnInFrame(Vec3 x, Vec3 y, Vec3 z, Quat rotation, Quat delta) noexcept;

// turnInFrame's turn through the map alone; `usable` false where the map flattens the
// axis (the fallback's case), the result then meaningless. For callers that take
// such lanes elsewhere.
inline Quat turnThroughMap(Vec3 x, Vec3 y, Vec3 z, Quat delta, bool& usable) noexcept {
    const Vec3 v{delta.x, delta.y, delta.z};
    const Vec3 w{dot(x, v), dot(y, v), dot(z, v)};
    const float w2 = dot(w, w), v2 = dot(v, v);
    usable = w2 > 0.0f && w2 <= std::numeric_limits<float>::max();
    const float mirror = dot(x, cross(y, z)) < 0.0f ? -1.0f : 1.0f;
    const float k = mirror * std::sqrt(v2) / std::sqrt(usable ? w2 : 1.0f);
    return {w.x * k, w.y * k, w.z * k, delta.w};
}

inline Quat turnInFrame(Vec3 x, Vec3 y, Vec3 z, Quat rotation, Quat delta) noexcept {
    bool usable = false;
    const Quat mapped = turnThroughMap(x, y, z, delta, usable);
    const Quat fallback = conjugate(rotation) * delta * rotation;
    return {usable ? mapped.x : fallback.x, usable ? mapped.y : fallback.y, usable ? mapped.z : fallback.z,
            usable ? mapped.w : fallback.w};
}

}  // namespace kinema::detail
