// Overlay segments and dots as clip-space triangles of a fixed pixel size.
#pragma once

#include <cstdint>
#include <vector>

#include "kinema/math/mat4.hpp"
#include "kinema/render/overlay.hpp"
#include "pipelines.hpp"

namespace kinema::detail {

// Appends two triangles per segment (a quad `widthPixels` wide along the projected
// segment, cut at the near plane; none when wholly behind it) and per dot (a square
// `sizePixels` wide; none behind the near plane) for a width x height target.
void appendOverlayGeometry(const Overlay& overlay, const Mat4& viewProjection, std::uint32_t width,
                           std::uint32_t height, std::vector<OverlayVertex>& out);

}  // namespace kinema::detail
