// Test helper: a CPU rasteriser that says which pixels a GPU covers, to check a
// renderer's images against. Written for clarity, not speed: double precision,
// one pixel at a time.
//
// Input vertices are in Vulkan clip space (x, y, z, w): x right, y down, visible
// depth 0 <= z <= w. Each triangle is
//   1. clipped in homogeneous space before the divide: against w >= 1e-6, the near
//      plane z >= 0 and the far plane z <= w (as a GPU clips without depth clamp),
//      and against |x| <= w, |y| <= w, which changes no pixel but keeps the
//      coordinates small; a vertex made on an edge is computed from the edge's
//      endpoints in one fixed order, so two triangles sharing that edge get the same one;
//   2. divided by w and mapped to pixels, px = (x / w + 1) / 2 * width,
//      py = (y / w + 1) / 2 * height, then snapped to 1 / 2^subpixelBits of a pixel
//      as GPUs do (8 bits is usual), which also makes every edge test exact;
//   3. sampled at pixel centres (x + 0.5, y + 0.5) with edge functions; a centre on
//      an edge belongs to the triangle when the edge is a top edge (horizontal, the
//      triangle below it) or a left edge (the triangle to its right): the top-left
//      rule of D3D-class hardware, so two triangles sharing an edge cover each centre
//      on it exactly once. Both windings are drawn (no culling).
// Depth is z / w interpolated linearly in screen space, as Vulkan interpolates it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace kinema::test {

struct RasterTarget {
    int width = 0;
    int height = 0;
    // width * height, row-major from the top-left pixel: 1 where any triangle covers
    // the pixel centre, whatever the depth test says.
    std::vector<std::uint8_t> coverage;
    // Empty: no depth test. Else width * height values (cleared to 1 by
    // makeRasterTarget); a fragment passes when its depth is less than the stored one
    // (VK_COMPARE_OP_LESS) and then writes it.
    std::vector<float> depth;
    // Empty: not recorded. Else width * height: the index (in `indices`, divided by
    // three) of the triangle whose fragment was kept last at the pixel, or -1.
    std::vector<std::int32_t> triangle;
    int subpixelBits = 8;
};

// A cleared target: nothing covered, depth 1, triangle -1.
RasterTarget makeRasterTarget(int width, int height, bool withDepth = true, bool withTriangleIds = true);

// Draws the triangles `indices` (three per triangle; a trailing partial triangle and
// a triangle naming a vertex past `clip` are skipped) into `target`, in order. A
// target whose buffers are not width * height long (depth and triangle may be empty)
// is left as it is.
void rasteriseTriangles(std::span<const std::array<float, 4>> clip, std::span<const std::uint32_t> indices,
                        RasterTarget& target);

// |a and b| / |a or b| of two masks (non-zero = set) of one size; 1 when both are
// empty, NaN when the sizes differ.
double intersectionOverUnion(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b);

// How many entries of the mask are set.
std::size_t countSet(std::span<const std::uint8_t> mask);

}  // namespace kinema::test
