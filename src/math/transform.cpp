#include <algorithm>
#include <cmath>

#include "kinema/math/mat4.hpp"
#include "kinema/math/quat.hpp"
#include "kinema/math/transform.hpp"

namespace kinema {

namespace {

struct DQuat {
    double x, y, z, w;
};

DQuat widen(Quat q) { return {q.x, q.y, q.z, q.w}; }

Quat narrowNormalized(DQuat q) {
    const double len = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    const double inv = 1.0 / len;
    return {static_cast<float>(q.x * inv), static_cast<float>(q.y * inv), static_cast<float>(q.z * inv),
            static_cast<float>(q.w * inv)};
}

// Rotation matrix with orthonormal columns c0, c1, c2 (right-handed) to quaternion.
Quat quatFromBasis(Vec3 c0, Vec3 c1, Vec3 c2) {
    const double m00 = c0.x, m10 = c0.y, m20 = c0.z;
    const double m01 = c1.x, m11 = c1.y, m21 = c1.z;
    const double m02 = c2.x, m12 = c2.y, m22 = c2.z;
    const double trace = m00 + m11 + m22;
    DQuat q{};
    // Pick the largest of w, x, y, z to divide by, so the result is well conditioned.
    if (trace > 0.0) {
        const double s = std::sqrt(trace + 1.0) * 2.0;
        q = {(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25 * s};
    } else if (m00 > m11 && m00 > m22) {
        const double s = std::sqrt(std::max(0.0, 1.0 + m00 - m11 - m22)) * 2.0;
        q = {0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s};
    } else if (m11 > m22) {
        const double s = std::sqrt(std::max(0.0, 1.0 + m11 - m00 - m22)) * 2.0;
        q = {(m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s};
    } else {
        const double s = std::sqrt(std::max(0.0, 1.0 + m22 - m00 - m11)) * 2.0;
        q = {(m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s};
    }
    if (!(std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w)) ||
        (q.x == 0.0 && q.y == 0.0 && q.z == 0.0 && q.w == 0.0)) {
        return Quat{};
    }
    return narrowNormalized(q);
}

// Three-vectors in double, for decompose(): a float axis squared overflows above
// about 1.8e19 and underflows below about 1e-19, and glTF allows any finite scale.
struct D3 {
    double x, y, z;
};
D3 operator+(D3 a, D3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
D3 operator-(D3 a, D3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
D3 operator*(D3 a, double k) { return {a.x * k, a.y * k, a.z * k}; }
double dot(D3 a, D3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
D3 cross(D3 a, D3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
double length(D3 a) { return std::sqrt(dot(a, a)); }
D3 unitOrZero(D3 v) {
    const double len = length(v);
    return len > 0.0 && std::isfinite(len) ? v * (1.0 / len) : D3{0.0, 0.0, 0.0};
}
bool isZero(D3 v) { return v.x == 0.0 && v.y == 0.0 && v.z == 0.0; }

// A unit vector perpendicular to unit `u`, taken from the identity axes in order so
// the choice is deterministic.
D3 perpendicularTo(D3 u) {
    const D3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    D3 best{0.0, 0.0, 0.0};
    double bestLen = -1.0;
    for (const D3& a : axes) {
        const D3 p = a - u * dot(a, u);
        const double l = length(p);
        if (l > bestLen + 1e-3) {
            best = p;
            bestLen = l;
        }
    }
    return unitOrZero(best);
}

// The rotation nearest the basis of unit columns u (a right-handed one): its polar
// factor, by Newton's iteration X <- (g X + X^-T / g) / 2 with Higham's scaling g.
// The polar factor of a rotation is itself, and it treats the three axes alike where
// shear leaves them apart. Axes within 1e-9 of a plane are made orthonormal in order
// instead (x kept, y in the x-y plane), where the iteration would divide by nearly 0.
void nearestRotation(D3 (&u)[3]) {
    constexpr double kFlat = 1e-9;
    for (int pass = 0; pass < 40; ++pass) {
        const D3 bc = cross(u[1], u[2]), ca = cross(u[2], u[0]), ab = cross(u[0], u[1]);
        const double det = dot(u[0], bc);
        if (!(det > kFlat)) break;
        // X^-T has columns (b x c, c x a, a x b) / det.
        const D3 inv[3] = {bc * (1.0 / det), ca * (1.0 / det), ab * (1.0 / det)};
        const double normX = dot(u[0], u[0]) + dot(u[1], u[1]) + dot(u[2], u[2]);
        const double normInv = dot(inv[0], inv[0]) + dot(inv[1], inv[1]) + dot(inv[2], inv[2]);
        const double g = std::sqrt(std::sqrt(normInv / normX));
        double change = 0.0;
        for (int i = 0; i < 3; ++i) {
            const D3 next = (u[i] * g + inv[i] * (1.0 / g)) * 0.5;
            const D3 d = next - u[i];
            change += dot(d, d);
            u[i] = next;
        }
        if (change < 1e-30) return;
    }
    if (dot(u[0], cross(u[1], u[2])) > kFlat) return;  // converged on the last pass
    // (An x axis rebuilt from two parallel ones is zero: it is taken from y then.)
    if (isZero(u[0])) u[0] = isZero(u[1]) ? D3{1.0, 0.0, 0.0} : perpendicularTo(u[1]);
    u[1] = unitOrZero(u[1] - u[0] * dot(u[1], u[0]));
    if (isZero(u[1])) u[1] = perpendicularTo(u[0]);
    u[2] = cross(u[0], u[1]);
}

}  // namespace

bool isFinite(Quat q) noexcept {
    return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w);
}

std::optional<Quat> tryNormalize(Quat q) noexcept {
    if (!isFinite(q)) return std::nullopt;
    // Double holds the square of any finite float, so no scaling is needed.
    const DQuat d = widen(q);
    if (d.x == 0.0 && d.y == 0.0 && d.z == 0.0 && d.w == 0.0) return std::nullopt;
    return narrowNormalized(d);
}

Quat fromAxisAngle(Vec3 axis, float radians) noexcept {
    const double h = 0.5 * double(radians);
    const double s = std::sin(h);
    return {static_cast<float>(axis.x * s), static_cast<float>(axis.y * s), static_cast<float>(axis.z * s),
            static_cast<float>(std::cos(h))};
}

Quat twistAbout(Quat q, Vec3 axis) noexcept {
    const double ax = axis.x, ay = axis.y, az = axis.z;
    const double axisLength = std::sqrt(ax * ax + ay * ay + az * az);
    if (!(axisLength > 0.0) || !std::isfinite(axisLength) || !isFinite(q)) return Quat{};
    const double ux = ax / axisLength, uy = ay / axisLength, uz = az / axisLength;
    const double sign = q.w < 0.0f ? -1.0 : 1.0;
    const double along = sign * (q.x * ux + q.y * uy + q.z * uz);
    const double w = sign * q.w;
    if (along == 0.0 && w == 0.0) return Quat{};
    return narrowNormalized({ux * along, uy * along, uz * along, w});
}

Quat slerp(Quat a, Quat b, float t) noexcept {
    if (t == 0.0f) return a;
    DQuat p = widen(a);
    DQuat q = widen(b);
    double d = p.x * q.x + p.y * q.y + p.z * q.z + p.w * q.w;
    if (d < 0.0) {
        q = {-q.x, -q.y, -q.z, -q.w};
        d = -d;
    }
    // The angle from atan2 of the chord lengths stays accurate near 0 and pi,
    // where acos(dot) loses half of the significant digits.
    const double dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z, dw = p.w - q.w;
    const double sx = p.x + q.x, sy = p.y + q.y, sz = p.z + q.z, sw = p.w + q.w;
    const double omega = 2.0 *
        std::atan2(std::sqrt(dx * dx + dy * dy + dz * dz + dw * dw), std::sqrt(sx * sx + sy * sy + sz * sz + sw * sw));
    double wa, wb;
    if (omega < 1e-9) {
        wa = 1.0 - t;
        wb = t;
    } else {
        const double s = std::sin(omega);
        wa = std::sin((1.0 - t) * omega) / s;
        wb = std::sin(t * omega) / s;
    }
    return narrowNormalized({wa * p.x + wb * q.x, wa * p.y + wb * q.y, wa * p.z + wb * q.z, wa * p.w + wb * q.w});
}

Quat nlerp(Quat a, Quat b, float t) noexcept {
    if (dot(a, b) < 0.0f) b = -b;
    const Quat r{a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t, a.w + (b.w - a.w) * t};
    return normalize(r);
}

Mat4 operator*(const Mat4& a, const Mat4& b) noexcept {
    Mat4 r;
    for (int c = 0; c < 4; ++c) {
        for (int row = 0; row < 4; ++row) {
            r(row, c) = a(row, 0) * b(0, c) + a(row, 1) * b(1, c) + a(row, 2) * b(2, c) + a(row, 3) * b(3, c);
        }
    }
    return r;
}

bool isFinite(const Mat4& a) noexcept {
    return std::all_of(a.m.begin(), a.m.end(), [](float v) { return std::isfinite(v); });
}

bool isFiniteAffine(const Mat4& a, float slack) noexcept {
    return isFinite(a) && std::fabs(a(3, 0)) <= slack && std::fabs(a(3, 1)) <= slack && std::fabs(a(3, 2)) <= slack &&
        std::fabs(a(3, 3) - 1.0f) <= slack;
}

Mat4 inverseAffine(const Mat4& a) noexcept {
    const double m00 = a(0, 0), m01 = a(0, 1), m02 = a(0, 2);
    const double m10 = a(1, 0), m11 = a(1, 1), m12 = a(1, 2);
    const double m20 = a(2, 0), m21 = a(2, 1), m22 = a(2, 2);
    const double c00 = m11 * m22 - m12 * m21, c01 = m02 * m21 - m01 * m22, c02 = m01 * m12 - m02 * m11;
    const double c10 = m12 * m20 - m10 * m22, c11 = m00 * m22 - m02 * m20, c12 = m02 * m10 - m00 * m12;
    const double c20 = m10 * m21 - m11 * m20, c21 = m01 * m20 - m00 * m21, c22 = m00 * m11 - m01 * m10;
    const double det = m00 * c00 + m01 * c10 + m02 * c20;
    Mat4 r;
    const double inv = (det != 0.0 && std::isfinite(det)) ? 1.0 / det : 0.0;
    const double i00 = c00 * inv, i01 = c01 * inv, i02 = c02 * inv;
    const double i10 = c10 * inv, i11 = c11 * inv, i12 = c12 * inv;
    const double i20 = c20 * inv, i21 = c21 * inv, i22 = c22 * inv;
    r(0, 0) = float(i00);
    r(0, 1) = float(i01);
    r(0, 2) = float(i02);
    r(1, 0) = float(i10);
    r(1, 1) = float(i11);
    r(1, 2) = float(i12);
    r(2, 0) = float(i20);
    r(2, 1) = float(i21);
    r(2, 2) = float(i22);
    const double tx = a(0, 3), ty = a(1, 3), tz = a(2, 3);
    r(0, 3) = float(-(i00 * tx + i01 * ty + i02 * tz));
    r(1, 3) = float(-(i10 * tx + i11 * ty + i12 * tz));
    r(2, 3) = float(-(i20 * tx + i21 * ty + i22 * tz));
    r(3, 0) = 0.0f;
    r(3, 1) = 0.0f;
    r(3, 2) = 0.0f;
    r(3, 3) = 1.0f;
    return r;
}

Transform decompose(const Mat4& m) noexcept {
    Transform t;
    t.translation = {m.m[12], m.m[13], m.m[14]};
    const D3 c[3] = {{m.m[0], m.m[1], m.m[2]}, {m.m[4], m.m[5], m.m[6]}, {m.m[8], m.m[9], m.m[10]}};
    double s[3] = {length(c[0]), length(c[1]), length(c[2])};
    D3 u[3] = {unitOrZero(c[0]), unitOrZero(c[1]), unitOrZero(c[2])};
    const bool present[3] = {!isZero(u[0]), !isZero(u[1]), !isZero(u[2])};
    for (int i = 0; i < 3; ++i) {
        if (!present[i]) s[i] = 0.0;
    }
    const int count = int(present[0]) + int(present[1]) + int(present[2]);
    if (count == 3) {
        // A mirrored basis: flip one axis so the rest is a proper rotation.
        if (dot(u[0], cross(u[1], u[2])) < 0.0) {
            s[0] = -s[0];
            u[0] = u[0] * -1.0;
        }
    } else if (count == 2) {
        // Rebuild the collapsed axis from the two that survived (right-handed).
        if (!present[0]) u[0] = unitOrZero(cross(u[1], u[2]));
        if (!present[1]) u[1] = unitOrZero(cross(u[2], u[0]));
        if (!present[2]) u[2] = unitOrZero(cross(u[0], u[1]));
    } else if (count == 1) {
        const int k = present[0] ? 0 : (present[1] ? 1 : 2);
        const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        u[k1] = perpendicularTo(u[k]);
        u[k2] = unitOrZero(cross(u[k], u[k1]));
    } else {
        u[0] = {1, 0, 0};
        u[1] = {0, 1, 0};
        u[2] = {0, 0, 1};
    }
    nearestRotation(u);
    const auto narrow = [](D3 v) {
        return Vec3{static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)};
    };
    t.rotation = quatFromBasis(narrow(u[0]), narrow(u[1]), narrow(u[2]));
    t.scale = {static_cast<float>(s[0]), static_cast<float>(s[1]), static_cast<float>(s[2])};
    if (!isFinite(t.translation)) t.translation = {};
    if (!isFinite(t.scale)) t.scale = {};
    return t;
}

bool isFinite(const Transform& t) noexcept {
    return isFinite(t.translation) && isFinite(t.rotation) && isFinite(t.scale);
}

}  // namespace kinema

#include <cstdint>
#include <cstring>

#include "kinema/math/finite.hpp"

namespace kinema {

bool allFinite(std::span<const float> values) noexcept {
    std::uint32_t bad = 0;
    for (const float v : values) {
        std::uint32_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        bad |= static_cast<std::uint32_t>((bits & 0x7F800000u) == 0x7F800000u);
    }
    return bad == 0;
}

}  // namespace kinema
