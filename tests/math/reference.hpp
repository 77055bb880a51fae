// Test reference math, written independently of kinema/math and on purpose in a
// different form: rotations come from the axis-angle form and Rodrigues' formula,
// slerp is the geodesic a * (a^-1 b)^t in long double, matrices are built as the
// separate T, R and S factors and multiplied by a plain triple loop. Nothing here
// calls the library's math; the tests compare the library against these.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <random>

#include "kinema/math/mat4.hpp"
#include "kinema/math/quat.hpp"
#include "kinema/math/transform.hpp"
#include "kinema/math/vec3.hpp"

namespace kref {

using M4 = std::array<double, 16>;  // column-major: (row r, column c) at [c * 4 + r]
using M3 = std::array<double, 9>;   // row-major 3x3: (row r, column c) at [r * 3 + c]

struct D3 {
    double x = 0, y = 0, z = 0;
};

struct LQ {  // long double quaternion, x y z w
    long double x = 0, y = 0, z = 0, w = 1;
};

inline double& at(M4& m, int row, int col) { return m[static_cast<std::size_t>(col * 4 + row)]; }
inline double at(const M4& m, int row, int col) { return m[static_cast<std::size_t>(col * 4 + row)]; }

inline M4 identity() { return M4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}; }

inline M4 mul(const M4& a, const M4& b) {
    M4 r{};
    for (int row = 0; row < 4; ++row)
        for (int col = 0; col < 4; ++col) {
            double s = 0;
            for (int k = 0; k < 4; ++k) s += at(a, row, k) * at(b, k, col);
            at(r, row, col) = s;
        }
    return r;
}

// Rodrigues' rotation formula: R = I + sin(a) K + (1 - cos(a)) K^2, K the cross
// product matrix of the unit axis.
inline M3 rodrigues(D3 axis, double angle) {
    const double n = std::sqrt(axis.x * axis.x + axis.y * axis.y + axis.z * axis.z);
    const double x = axis.x / n, y = axis.y / n, z = axis.z / n;
    const M3 k{0, -z, y, z, 0, -x, -y, x, 0};
    M3 k2{};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double s = 0;
            for (int m = 0; m < 3; ++m)
                s += k[static_cast<std::size_t>(i * 3 + m)] * k[static_cast<std::size_t>(m * 3 + j)];
            k2[static_cast<std::size_t>(i * 3 + j)] = s;
        }
    M3 r{1, 0, 0, 0, 1, 0, 0, 0, 1};
    const double s = std::sin(angle), c = 1.0 - std::cos(angle);
    for (std::size_t i = 0; i < 9; ++i) r[i] += s * k[i] + c * k2[i];
    return r;
}

inline D3 apply(const M3& r, D3 v) {
    return {r[0] * v.x + r[1] * v.y + r[2] * v.z, r[3] * v.x + r[4] * v.y + r[5] * v.z,
            r[6] * v.x + r[7] * v.y + r[8] * v.z};
}

inline M3 mul3(const M3& a, const M3& b) {
    M3 r{};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double s = 0;
            for (int k = 0; k < 3; ++k)
                s += a[static_cast<std::size_t>(i * 3 + k)] * b[static_cast<std::size_t>(k * 3 + j)];
            r[static_cast<std::size_t>(i * 3 + j)] = s;
        }
    return r;
}

// The rotation of a (possibly non-unit) quaternion through its axis-angle form.
inline M3 rotationOf(kinema::Quat q) {
    const double vx = q.x, vy = q.y, vz = q.z, w = q.w;
    const double vlen = std::sqrt(vx * vx + vy * vy + vz * vz);
    if (vlen == 0.0) return M3{1, 0, 0, 0, 1, 0, 0, 0, 1};
    return rodrigues({vx, vy, vz}, 2.0 * std::atan2(vlen, w));
}

// The unit quaternion of `angle` radians about `axis`, built by hand (not with fromAxisAngle).
inline kinema::Quat quatOf(D3 axis, double angle) {
    const double n = std::sqrt(axis.x * axis.x + axis.y * axis.y + axis.z * axis.z);
    const double s = std::sin(angle / 2) / n;
    return {static_cast<float>(axis.x * s), static_cast<float>(axis.y * s), static_cast<float>(axis.z * s),
            static_cast<float>(std::cos(angle / 2))};
}

inline M4 translation(kinema::Vec3 t) {
    M4 m = identity();
    at(m, 0, 3) = t.x;
    at(m, 1, 3) = t.y;
    at(m, 2, 3) = t.z;
    return m;
}
inline M4 scaling(kinema::Vec3 s) {
    M4 m = identity();
    at(m, 0, 0) = s.x;
    at(m, 1, 1) = s.y;
    at(m, 2, 2) = s.z;
    return m;
}
inline M4 rotation(const M3& r) {
    M4 m = identity();
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) at(m, i, j) = r[static_cast<std::size_t>(i * 3 + j)];
    return m;
}

// T * R * S, each factor built on its own and multiplied.
inline M4 trs(const kinema::Transform& t) {
    return mul(mul(translation(t.translation), rotation(rotationOf(t.rotation))), scaling(t.scale));
}

inline M4 widen(const kinema::Mat4& a) {
    M4 r{};
    for (std::size_t i = 0; i < 16; ++i) r[i] = a.m[i];
    return r;
}

inline D3 applyPoint(const M4& m, D3 p) {
    return {at(m, 0, 0) * p.x + at(m, 0, 1) * p.y + at(m, 0, 2) * p.z + at(m, 0, 3),
            at(m, 1, 0) * p.x + at(m, 1, 1) * p.y + at(m, 1, 2) * p.z + at(m, 1, 3),
            at(m, 2, 0) * p.x + at(m, 2, 1) * p.y + at(m, 2, 2) * p.z + at(m, 2, 3)};
}

inline double maxAbsDiff(const M4& a, const M4& b) {
    double d = 0;
    for (std::size_t i = 0; i < 16; ++i) d = std::max(d, std::fabs(a[i] - b[i]));
    return d;
}

// ---- long double quaternion slerp as a geodesic: a * (conj(a) b)^t ----------

inline LQ widenL(kinema::Quat q) { return {q.x, q.y, q.z, q.w}; }

inline LQ normalizedL(LQ q) {
    const long double n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return {q.x / n, q.y / n, q.z / n, q.w / n};
}

inline LQ hamilton(LQ a, LQ b) {
    return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

// Exact slerp along the shorter arc, in long double: the relative rotation
// r = conj(a) * b is raised to the power t through its axis-angle form.
inline LQ slerpL(kinema::Quat fa, kinema::Quat fb, long double t) {
    const LQ a = normalizedL(widenL(fa));
    LQ b = normalizedL(widenL(fb));
    if (a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w < 0) b = {-b.x, -b.y, -b.z, -b.w};
    const LQ r = hamilton({-a.x, -a.y, -a.z, a.w}, b);
    const long double vlen = std::sqrt(r.x * r.x + r.y * r.y + r.z * r.z);
    if (vlen == 0) return a;
    const long double half = std::atan2(vlen, r.w);  // half of the relative rotation angle
    const long double s = std::sin(t * half) / vlen;
    const LQ rt{r.x * s, r.y * s, r.z * s, std::cos(t * half)};
    return hamilton(a, rt);
}

// Largest component difference after aligning the sign of `got` with `want`.
inline long double signAlignedError(kinema::Quat got, LQ want) {
    const long double d = got.x * want.x + got.y * want.y + got.z * want.z + got.w * want.w;
    const long double s = d < 0 ? -1 : 1;
    long double e = 0;
    e = std::max(e, std::fabs(s * got.x - want.x));
    e = std::max(e, std::fabs(s * got.y - want.y));
    e = std::max(e, std::fabs(s * got.z - want.z));
    e = std::max(e, std::fabs(s * got.w - want.w));
    return e;
}

// A uniformly distributed unit quaternion (normalised 4D Gaussian).
inline kinema::Quat randomUnitQuat(std::mt19937& rng) {
    std::normal_distribution<double> n(0.0, 1.0);
    double x, y, z, w, len;
    do {
        x = n(rng);
        y = n(rng);
        z = n(rng);
        w = n(rng);
        len = std::sqrt(x * x + y * y + z * z + w * w);
    } while (len < 1e-3);
    return {static_cast<float>(x / len), static_cast<float>(y / len), static_cast<float>(z / len),
            static_cast<float>(w / len)};
}

inline D3 randomUnitVector(std::mt19937& rng) {
    std::normal_distribution<double> n(0.0, 1.0);
    double x, y, z, len;
    do {
        x = n(rng);
        y = n(rng);
        z = n(rng);
        len = std::sqrt(x * x + y * y + z * z);
    } while (len < 1e-3);
    return {x / len, y / len, z / len};
}

}  // namespace kref
