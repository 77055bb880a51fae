// Internal: what both two-bone solvers (the reference in ik.cpp, the lanes in
// ik_lanes.cpp) share so that they give the same results on the same input: the
// threshold that tells a direction from rounding noise, and how a model-space turn
// is taken into a parent's frame.
#pragma once

#include <cmath>
#include <limits>

#include "kinema/math/quat.hpp"
#include "kinema/math/vec3.hpp"

namespace kinema::detail {

// Aim tasks re-aim up to this many times: turning a joint above the aimed one moves
// the aimed joint's origin, so the direction to the target is measured again, until
// a pass turns no more than kAimSettled radians.
inline constexpr int kAimPasses = 16;
inline constexpr float kAimSettled = 1e-5f;

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
inline Quat turnInFrame(Vec3 x, Vec3 y, Vec3 z, Quat rotation, Quat delta) noexcept {
    const Vec3 v{delta.x, delta.y, delta.z};
    const Vec3 w{dot(x, v), dot(y, v), dot(z, v)};
    const float w2 = dot(w, w), v2 = dot(v, v);
    const bool usable = w2 > 0.0f && w2 <= std::numeric_limits<float>::max();
    const float mirror = dot(x, cross(y, z)) < 0.0f ? -1.0f : 1.0f;
    const float k = mirror * std::sqrt(v2) / std::sqrt(usable ? w2 : 1.0f);
    const Quat fallback = conjugate(rotation) * delta * rotation;
    return {usable ? w.x * k : fallback.x, usable ? w.y * k : fallback.y, usable ? w.z * k : fallback.z,
            usable ? delta.w : fallback.w};
}

}  // namespace kinema::detail
