// kinema/runtime: CPU morphing and linear-blend skinning of mesh vertices. This is
// the reference the GPU path is checked against, so it favours clarity over speed.
#pragma once

#include <cstdint>
#include <span>

#include "kinema/asset/model.hpp"
#include "kinema/math/mat4.hpp"
#include "kinema/math/vec3.hpp"

namespace kinema {

// outPositions[v] = positions[v] + sum_t weights[t] * targets[t].positions[v]; the
// same for normals when both `outNormals` is non-empty and the primitive has normals
// (the result is not renormalised here). `weights` holds the primitive's target
// count. Output spans have vertexCount() entries or are empty.
void applyMorphTargets(const MeshPrimitive& primitive, std::span<const float> weights, std::span<Vec3> outPositions,
                       std::span<Vec3> outNormals) noexcept;

// How skinning transforms normals by a vertex's blended matrix M (its upper 3x3).
// InverseTranspose keeps a normal perpendicular to the skinned surface for any M,
// non-uniform scale and mirrors included (it is computed as the cofactor matrix,
// det(M) M^-T, flipped where det(M) < 0). BlendedMatrix applies M itself: fewer
// operations, the same direction where M is a rotation times a uniform scale
// (every influence of the vertex rigid with one shared scale factor and rotation),
// and wrong under non-uniform scale. Either way the result is normalised, and a
// normal that collapses to zero length keeps its input.
enum class NormalTransform : std::uint8_t { InverseTranspose, BlendedMatrix };

namespace reference {

// The reference path's skinning (see sample.hpp: the same verbs and contracts as
// PoseKernels). Linear-blend skinning: each vertex is transformed by
// sum_i w_i * palette[joint_i]; normals by that blended matrix as `normalTransform`
// says, normalised, or skipped when `outNormals` is empty. `positions`/`normals` are
// the (morphed) inputs, one per vertex; `palette` is the skin's palette (joint indices
// were checked against it at load). False, writing nothing, when an output, the
// normals or the primitive's joints and weights are shorter than the positions need.
bool skinVertices(const MeshPrimitive& primitive, std::span<const Mat4> palette, std::span<const Vec3> positions,
                  std::span<const Vec3> normals, std::span<Vec3> outPositions, std::span<Vec3> outNormals,
                  NormalTransform normalTransform = NormalTransform::InverseTranspose) noexcept;

}  // namespace reference

}  // namespace kinema
