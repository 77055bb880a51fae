// kinema/render: the whole catalogue checked before a renderer touches it.
//
// A renderer uploads what it is given: an index past the vertex buffer or an image
// shorter than its extent becomes an out-of-bounds read on the device, where it
// cannot be reported with a location. So every entry is checked here, on the CPU,
// including entries nothing draws yet: an unused malformed image is a fault the
// moment it is added, not later when some object starts using it.
#pragma once

#include <vector>

#include "kinema/core/result.hpp"
#include "kinema/render/catalogue.hpp"

namespace kinema {

// Every fault of the catalogue, in the order images, textures, materials, meshes,
// render objects (each in id order); empty when the catalogue is fit to draw.
// `where` is a field path ("images/3", "meshes/2/indices/17",
// "renderObjects/0/material"); `what` says what is wrong, with the numbers.
//
//   images:        width and height at least 1; pixels.size() == width * height * 4,
//                  computed without overflow (an extent whose byte count does not
//                  fit a size_t is a fault, not a wrapped-around size).
//   textures:      an image assigned and in range; filters and wraps named values.
//   materials:     a finite base colour factor; the base colour texture, when
//                  present, assigned and in range; a named alpha mode; a finite,
//                  non-negative alpha cutoff.
//   meshes:        at least one vertex; indices present, a multiple of 3, each below
//                  the vertex count; normals, texcoords, colours and each morph
//                  target's streams empty or one per vertex; joints and weights
//                  vertexCount * influencesPerVertex long; every float finite.
//   renderObjects: a mesh and a material assigned and in range.
//
// A stream with many bad values (indices out of range, non-finite floats) is
// reported once, at its first bad element, with the count of the others.
std::vector<Fault> findRenderFaults(const RenderCatalogue& catalogue);

}  // namespace kinema
