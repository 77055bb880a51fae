// kinema/math: 4x4 matrices, column-major as glTF and GPU buffers store them:
// element (row r, column c) is m[c * 4 + r]; the translation is m[12..14].
#pragma once

#include <array>

#include "kinema/math/quat.hpp"
#include "kinema/math/vec3.hpp"

namespace kinema {

struct alignas(64) Mat4 {
    std::array<float, 16> m{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

    static constexpr Mat4 identity() noexcept { return Mat4{}; }
    constexpr float operator()(int row, int col) const noexcept { return m[static_cast<std::size_t>(col * 4 + row)]; }
    constexpr float& operator()(int row, int col) noexcept { return m[static_cast<std::size_t>(col * 4 + row)]; }
    friend constexpr bool operator==(const Mat4&, const Mat4&) = default;
};

Mat4 operator*(const Mat4& a, const Mat4& b) noexcept;

// a * b for affine matrices (last row 0,0,0,1 in both); cheaper than the general
// product. Inline: it is the inner step of local -> model composition.
inline Mat4 mulAffine(const Mat4& a, const Mat4& b) noexcept {
    Mat4 r;
    const auto& x = a.m;
    const auto& y = b.m;
    for (std::size_t c = 0; c < 4; ++c) {
        const float b0 = y[c * 4 + 0], b1 = y[c * 4 + 1], b2 = y[c * 4 + 2];
        const float w = c == 3 ? 1.0f : 0.0f;
        r.m[c * 4 + 0] = x[0] * b0 + x[4] * b1 + x[8] * b2 + x[12] * w;
        r.m[c * 4 + 1] = x[1] * b0 + x[5] * b1 + x[9] * b2 + x[13] * w;
        r.m[c * 4 + 2] = x[2] * b0 + x[6] * b1 + x[10] * b2 + x[14] * w;
        r.m[c * 4 + 3] = w;
    }
    return r;
}

// The point p (w = 1) transformed by m.
constexpr Vec3 transformPoint(const Mat4& a, Vec3 p) noexcept {
    return {a.m[0] * p.x + a.m[4] * p.y + a.m[8] * p.z + a.m[12], a.m[1] * p.x + a.m[5] * p.y + a.m[9] * p.z + a.m[13],
            a.m[2] * p.x + a.m[6] * p.y + a.m[10] * p.z + a.m[14]};
}
// The direction d (w = 0) transformed by m's upper 3x3.
constexpr Vec3 transformDirection(const Mat4& a, Vec3 d) noexcept {
    return {a.m[0] * d.x + a.m[4] * d.y + a.m[8] * d.z, a.m[1] * d.x + a.m[5] * d.y + a.m[9] * d.z,
            a.m[2] * d.x + a.m[6] * d.y + a.m[10] * d.z};
}

bool isFinite(const Mat4& a) noexcept;

// Whether `a` is finite and affine: its last row 0, 0, 0, 1, each within `slack`.
bool isFiniteAffine(const Mat4& a, float slack) noexcept;

// Inverse of an affine matrix (last row 0,0,0,1). A singular upper 3x3 yields
// a matrix of zeros in that block rather than infinities.
Mat4 inverseAffine(const Mat4& a) noexcept;

}  // namespace kinema
