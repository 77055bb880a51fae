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

// T * R * S as a column-major matrix.
Mat4 toMatrix(const Transform& t) noexcept;

// Splits an affine matrix into TRS. Never produces NaN:
// - a mirrored basis (negative determinant) comes back with scale.x negative and a
//   proper rotation, so toMatrix() reproduces the input;
// - a zero-length axis gets scale 0 and its direction is rebuilt from the other two
//   axes; with two or three axes gone the missing directions come from identity.
// Shear cannot be represented and is dropped (glTF forbids it in node matrices).
Transform decompose(const Mat4& m) noexcept;

bool isFinite(const Transform& t) noexcept;

}  // namespace kinema
