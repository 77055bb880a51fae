// kinema/math: a local transform as translation, rotation, scale (TRS). The
// matrix it stands for is T * R * S, as glTF composes node transforms.
#pragma once

#include "kinema/math/mat4.hpp"
#include "kinema/math/quat.hpp"
#include "kinema/math/vec3.hpp"

namespace kinema {

struct Transform {
    Vec3 translation{0.0f, 0.0f, 0.0f};
    Quat rotation{0.0f, 0.0f, 0.0f, 1.0f};
    Vec3 scale{1.0f, 1.0f, 1.0f};
    friend constexpr bool operator==(const Transform&, const Transform&) = default;
};

// T * R * S as a column-major matrix. Inline: it runs once per joint per frame.
inline Mat4 toMatrix(const Transform& t) noexcept {
    const Quat& q = t.rotation;
    const float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    const float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    const float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    Mat4 m;
    m.m[0] = (1.0f - 2.0f * (yy + zz)) * t.scale.x;
    m.m[1] = (2.0f * (xy + wz)) * t.scale.x;
    m.m[2] = (2.0f * (xz - wy)) * t.scale.x;
    m.m[3] = 0.0f;
    m.m[4] = (2.0f * (xy - wz)) * t.scale.y;
    m.m[5] = (1.0f - 2.0f * (xx + zz)) * t.scale.y;
    m.m[6] = (2.0f * (yz + wx)) * t.scale.y;
    m.m[7] = 0.0f;
    m.m[8] = (2.0f * (xz + wy)) * t.scale.z;
    m.m[9] = (2.0f * (yz - wx)) * t.scale.z;
    m.m[10] = (1.0f - 2.0f * (xx + yy)) * t.scale.z;
    m.m[11] = 0.0f;
    m.m[12] = t.translation.x;
    m.m[13] = t.translation.y;
    m.m[14] = t.translation.z;
    m.m[15] = 1.0f;
    return m;
}

// Splits an affine matrix into TRS, in double (any finite scale, 1e-40 or 1e38).
// Never produces NaN:
// - a mirrored basis (negative determinant) comes back with scale.x negative and a
//   proper rotation, so toMatrix() reproduces the input;
// - a zero-length axis gets scale 0 and its direction is rebuilt from the other two
//   axes; with two or three axes gone the missing directions come from identity.
// Shear cannot be represented (glTF forbids it in node matrices): the scale is the
// axes' lengths and the rotation the one nearest their directions (the polar factor
// of the unit axes, which leans toward none of them); axes all but in one plane keep
// x and the x-y plane.
Transform decompose(const Mat4& m) noexcept;

bool isFinite(const Transform& t) noexcept;

}  // namespace kinema
