// kinema/runtime: CPU morphing and linear-blend skinning of mesh vertices. This is
// the reference the GPU path is checked against, so it favours clarity over speed.
#pragma once

#include <span>

#include "kinema/asset/model.hpp"
#include "kinema/math/mat4.hpp"
#include "kinema/math/vec3.hpp"

namespace kinema {

// outPositions[v] = positions[v] + sum_t weights[t] * targets[t].positions[v]; the
// same for normals when both `outNormals` is non-empty and the primitive has normals
// (the result is not renormalised here). `weights` holds the primitive's target
// count. Output spans have vertexCount() entries or are empty.
void applyMorphTargets(const MeshPrimitive& primitive, std::span<const float> weights,
                       std::span<Vec3> outPositions, std::span<Vec3> outNormals) noexcept;

// Linear-blend skinning: each vertex is transformed by sum_i w_i * palette[joint_i].
// Normals use the inverse-transpose of that blended matrix and are normalised.
// `positions`/`normals` are the (morphed) inputs, one per vertex; `palette` is the
// skin's palette (joint indices were checked against it at load).
void skinVertices(const MeshPrimitive& primitive, std::span<const Mat4> palette, std::span<const Vec3> positions,
                  std::span<const Vec3> normals, std::span<Vec3> outPositions, std::span<Vec3> outNormals) noexcept;

}  // namespace kinema
