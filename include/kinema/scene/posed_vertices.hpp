// kinema/scene: the world-space vertices a frame's draw list stands for, computed on
// the CPU. This is the reference a GPU renderer's output is checked against, and what
// frames a camera on an animated scene, so it favours clarity over speed.
//
// A draw's vertices are its render mesh's positions (and normals), morphed by the
// item's slice of DrawList::weights (p + sum_t w_t * target_t), then
//   - skinned (item.paletteCount > 0): p' = sum_i w_i * palettes[offset + j_i] * p,
//     linear-blend skinning with the palette already in world space; or
//   - rigid (paletteCount 0): p' = item.world * p.
// Normals follow the same matrix's inverse transpose (the cofactor matrix, flipped
// where the matrix mirrors) and are normalised; a normal that collapses to zero length
// keeps its morphed value. This is runtime/skinning.hpp's reference::skinVertices with
// NormalTransform::InverseTranspose, applied to a RenderMesh.
#pragma once

#include <vector>

#include "kinema/math/vec3.hpp"
#include "kinema/render/catalogue.hpp"
#include "kinema/scene/scene.hpp"

namespace kinema {

// The world-space positions (and normals when `outNormals` is given) of `item`, one
// per vertex of its render object's mesh, replacing the vectors' contents. Normals
// come back empty when the mesh has none.
//
// Out-of-range input is drawn as little as possible rather than read past its end:
// an object the catalogue does not hold gives no vertices; weights past the list or
// past the mesh's targets are left out; a palette slice past the list, or a skinned
// item whose mesh has no influences (or fewer joints and weights than its vertices
// need), places the mesh by item.world instead; an influence naming a joint past the
// item's palette slice contributes nothing.
void posedVertices(const RenderCatalogue& catalogue, const DrawList& list, const DrawItem& item,
                   std::vector<Vec3>& outPositions, std::vector<Vec3>* outNormals = nullptr);

// The axis-aligned bounds of every vertex the frame draws (those its triangles'
// indices name) over all items. False, leaving min and max alone, when nothing is drawn.
bool posedBounds(const RenderCatalogue& catalogue, const DrawList& list, Vec3& min, Vec3& max);

}  // namespace kinema
