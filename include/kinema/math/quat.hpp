// kinema/math: unit quaternions for rotation, stored x, y, z, w as glTF stores them.
#pragma once

#include <cmath>
#include <optional>

#include "kinema/math/vec3.hpp"

namespace kinema {

struct Quat {
    float x = 0.0f, y = 0.0f, z = 0.0f, w = 1.0f;
    friend constexpr bool operator==(const Quat&, const Quat&) = default;
};

constexpr float dot(Quat a, Quat b) noexcept { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
constexpr Quat operator-(Quat q) noexcept { return {-q.x, -q.y, -q.z, -q.w}; }
constexpr Quat conjugate(Quat q) noexcept { return {-q.x, -q.y, -q.z, q.w}; }

// Hamilton product: (a * b) rotates by b first, then by a.
constexpr Quat operator*(Quat a, Quat b) noexcept {
    return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

// Rotates v by the unit quaternion q.
constexpr Vec3 rotate(Quat q, Vec3 v) noexcept {
    const Vec3 u{q.x, q.y, q.z};
    const Vec3 t = cross(u, v) * 2.0f;
    return v + t * q.w + cross(u, t);
}

bool isFinite(Quat q) noexcept;

// Robust normalisation: the length is computed in double with scaling, so tiny
// and huge (but finite, non-zero) inputs normalise correctly. Returns nullopt for
// a zero or non-finite quaternion: callers at a load boundary reject those.
std::optional<Quat> tryNormalize(Quat q) noexcept;

// Normalisation for the per-frame path: inputs are known to be non-zero and
// finite (validated data, or a blend of such data along the short arc). Inline:
// a call would pass the quaternion through memory, costing more than the work.
inline Quat normalize(Quat q) noexcept {
    const float inv = 1.0f / std::sqrt(dot(q, q));
    return {q.x * inv, q.y * inv, q.z * inv, q.w * inv};
}

// Rotation of `radians` about the unit vector `axis`.
Quat fromAxisAngle(Vec3 axis, float radians) noexcept;

// The part of the unit quaternion `q` that turns about `axis` (any non-zero length):
// its twist, with w >= 0 (an angle in [-pi, pi]). q = twist * a = b * twist for
// rotations a and b about axes perpendicular to `axis`, the same twist either way.
// The identity where q turns half a turn about such an axis (no twist is defined).
// Computed in double.
Quat twistAbout(Quat q, Vec3 axis) noexcept;

// Spherical linear interpolation along the shorter arc (b is negated when
// dot(a, b) < 0). t = 0 returns a, t = 1 returns +/-b exactly up to rounding.
// Computed in double precision: within 1e-6 of exact slerp on the whole sphere.
Quat slerp(Quat a, Quat b, float t) noexcept;

// Normalised linear interpolation along the shorter arc. Not slerp: the angular
// speed is not constant. Named honestly for callers that accept that.
Quat nlerp(Quat a, Quat b, float t) noexcept;

}  // namespace kinema
