// kinema/math: small value types for animation math. Vec3 is a point or a
// direction in metres (or a scale factor); plain floats, no SIMD wrapper here.
#pragma once

#include <cmath>

namespace kinema {

struct Vec3 {
    float x = 0.0f, y = 0.0f, z = 0.0f;
    friend constexpr bool operator==(const Vec3&, const Vec3&) = default;
};

constexpr Vec3 operator+(Vec3 a, Vec3 b) noexcept { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
constexpr Vec3 operator-(Vec3 a, Vec3 b) noexcept { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
constexpr Vec3 operator-(Vec3 a) noexcept { return {-a.x, -a.y, -a.z}; }
constexpr Vec3 operator*(Vec3 a, float s) noexcept { return {a.x * s, a.y * s, a.z * s}; }
constexpr Vec3 operator*(float s, Vec3 a) noexcept { return a * s; }
// Component-wise product (scale composition).
constexpr Vec3 mulComponents(Vec3 a, Vec3 b) noexcept { return {a.x * b.x, a.y * b.y, a.z * b.z}; }

constexpr float dot(Vec3 a, Vec3 b) noexcept { return a.x * b.x + a.y * b.y + a.z * b.z; }
constexpr Vec3 cross(Vec3 a, Vec3 b) noexcept {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline float length(Vec3 a) noexcept { return std::sqrt(dot(a, a)); }
// a + (b - a) * t, in double: t = 0 returns a exactly, and points of opposite signs
// more than the largest float apart give the finite point between them.
constexpr Vec3 lerp(Vec3 a, Vec3 b, float t) noexcept {
    const auto along = [t](float from, float to) {
        return static_cast<float>(from + (static_cast<double>(to) - from) * t);
    };
    return {along(a.x, b.x), along(a.y, b.y), along(a.z, b.z)};
}
inline bool isFinite(Vec3 a) noexcept { return std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z); }

}  // namespace kinema
