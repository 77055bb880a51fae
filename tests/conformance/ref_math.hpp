// Conformance tests: reference math in double precision, written independently of
// kinema/math (different formulations on purpose): slerp from acos/sin weights,
// rotation matrices from the axis-angle form (Rodrigues' formula), column-major
// 4x4 matrices, and glTF keyframe sampling (STEP, LINEAR, CUBICSPLINE) as the
// specification's Appendix C states it.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace conformance {

// Column-major 4x4: element (row r, column c) is m[c * 4 + r], as glTF stores it.
using M4 = std::array<double, 16>;
using V3 = std::array<double, 3>;
using Q4 = std::array<double, 4>;  // x, y, z, w

inline M4 identity4() { return M4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}; }

inline M4 mul(const M4& a, const M4& b) {
    M4 r{};
    for (int c = 0; c < 4; ++c)
        for (int row = 0; row < 4; ++row) {
            double s = 0;
            for (int k = 0; k < 4; ++k)
                s += a[static_cast<std::size_t>(k * 4 + row)] * b[static_cast<std::size_t>(c * 4 + k)];
            r[static_cast<std::size_t>(c * 4 + row)] = s;
        }
    return r;
}

inline V3 applyPoint(const M4& m, const V3& p) {
    V3 r{};
    for (std::size_t row = 0; row < 3; ++row)
        r[row] = m[row] * p[0] + m[4 + row] * p[1] + m[8 + row] * p[2] + m[12 + row];
    return r;
}

// Rotation matrix of a (not necessarily unit) quaternion through its axis-angle
// form: angle = 2 atan2(|v|, w), axis = v / |v|, R = I + sin(a) K + (1 - cos(a)) K^2
// where K is the cross-product matrix of the axis.
inline std::array<double, 9> rodrigues(const Q4& q) {
    const double vlen = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    std::array<double, 9> r{1, 0, 0, 0, 1, 0, 0, 0, 1};  // row-major 3x3 here
    if (vlen < 1e-300) return r;
    const double angle = 2.0 * std::atan2(vlen, q[3]);
    const double kx = q[0] / vlen, ky = q[1] / vlen, kz = q[2] / vlen;
    const std::array<double, 9> k{0, -kz, ky, kz, 0, -kx, -ky, kx, 0};
    std::array<double, 9> k2{};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double s = 0;
            for (int m = 0; m < 3; ++m)
                s += k[static_cast<std::size_t>(i * 3 + m)] * k[static_cast<std::size_t>(m * 3 + j)];
            k2[static_cast<std::size_t>(i * 3 + j)] = s;
        }
    const double sa = std::sin(angle), ca = 1.0 - std::cos(angle);
    for (std::size_t i = 0; i < 9; ++i) r[i] += sa * k[i] + ca * k2[i];
    return r;
}

// T * R * S as a column-major matrix.
inline M4 fromTrs(const V3& t, const Q4& q, const V3& s) {
    const auto r = rodrigues(q);
    M4 m{};
    for (int c = 0; c < 3; ++c)
        for (int row = 0; row < 3; ++row)
            m[static_cast<std::size_t>(c * 4 + row)] =
                r[static_cast<std::size_t>(row * 3 + c)] * s[static_cast<std::size_t>(c)];
    m[12] = t[0];
    m[13] = t[1];
    m[14] = t[2];
    m[15] = 1.0;
    return m;
}

inline Q4 normalized(Q4 q) {
    const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (double& c : q) c /= n;
    return q;
}

// Slerp along the short arc: weights sin((1-s) theta) / sin(theta) and
// sin(s theta) / sin(theta) with theta = acos(|dot|).
inline Q4 slerpRef(const Q4& a, Q4 b, double s) {
    double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    if (d < 0) {
        d = -d;
        for (double& c : b) c = -c;
    }
    if (d > 1.0) d = 1.0;
    const double theta = std::acos(d);
    const double st = std::sin(theta);
    double wa = 1.0 - s, wb = s;
    if (st > 1e-12) {
        wa = std::sin((1.0 - s) * theta) / st;
        wb = std::sin(s * theta) / st;
    }
    return Q4{wa * a[0] + wb * b[0], wa * a[1] + wb * b[1], wa * a[2] + wb * b[2], wa * a[3] + wb * b[3]};
}

// Samples one glTF sampler at time t (seconds). `values` is the raw output
// accessor (keys * width, or keys * 3 * width for CUBICSPLINE: in-tangents,
// values, out-tangents per key). `rotation` selects slerp (LINEAR) and a final
// normalisation (CUBICSPLINE). Clamps outside [first, last] key.
inline std::vector<double> sampleRef(const std::vector<double>& times, const std::vector<double>& values,
                                     std::size_t width, const std::string& interpolation, bool rotation, double t) {
    const bool cubic = interpolation == "CUBICSPLINE";
    const std::size_t n = times.size();
    if (n == 0 || values.size() != n * width * (cubic ? 3 : 1)) throw std::runtime_error("bad sampler sizes");
    auto value = [&](std::size_t k) {
        const std::size_t at = cubic ? (k * 3 + 1) * width : k * width;
        return std::vector<double>(values.begin() + static_cast<std::ptrdiff_t>(at),
                                   values.begin() + static_cast<std::ptrdiff_t>(at + width));
    };
    if (t <= times[0]) return value(0);
    if (t >= times[n - 1]) return value(n - 1);
    std::size_t k = 0;
    while (!(times[k] <= t && t < times[k + 1])) ++k;
    const double td = times[k + 1] - times[k];
    const double s = (t - times[k]) / td;
    std::vector<double> out(width);
    if (interpolation == "STEP") return value(k);
    if (interpolation == "LINEAR") {
        const auto a = value(k), b = value(k + 1);
        if (rotation) {
            const Q4 q = slerpRef(Q4{a[0], a[1], a[2], a[3]}, Q4{b[0], b[1], b[2], b[3]}, s);
            return {q[0], q[1], q[2], q[3]};
        }
        for (std::size_t i = 0; i < width; ++i) out[i] = a[i] * (1.0 - s) + b[i] * s;
        return out;
    }
    if (!cubic) throw std::runtime_error("unknown interpolation " + interpolation);
    // Hermite: p(s) = h00 p0 + h10 td m0 + h01 p1 + h11 td m1, with m0 the out-tangent
    // of key k and m1 the in-tangent of key k+1.
    const double s2 = s * s, s3 = s2 * s;
    const double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
    for (std::size_t i = 0; i < width; ++i) {
        const double p0 = values[(k * 3 + 1) * width + i];
        const double m0 = values[(k * 3 + 2) * width + i];
        const double p1 = values[((k + 1) * 3 + 1) * width + i];
        const double m1 = values[((k + 1) * 3 + 0) * width + i];
        out[i] = h00 * p0 + h10 * td * m0 + h01 * p1 + h11 * td * m1;
    }
    if (rotation) {
        const Q4 q = normalized(Q4{out[0], out[1], out[2], out[3]});
        return {q[0], q[1], q[2], q[3]};
    }
    return out;
}

}  // namespace conformance
