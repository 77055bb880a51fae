#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
// Compute raster, pass 2 (after raster_transform.comp): one thread per (draw,
// triangle) reads the triangle's clip positions and rasterises it (raster_triangle.glsl).

layout(local_size_x = 64) in;

#include "raster_common.glsl"

layout(std430, set = 0, binding = 7) readonly buffer Clip { vec4 clipPositions[]; };
layout(std430, set = 0, binding = 8) buffer Visibility { uint64_t visibility[]; };
// The same buffer as 32-bit words: an entry's depth bits are its high (odd) word.
layout(std430, set = 0, binding = 8) readonly buffer VisibilityWords { uint visibilityWords[]; };

#include "raster_triangle.glsl"

void main() {
    uint id = flatInvocation();
    uint start = groupFirstDraw(id, true);
    if (id >= pass.itemCount) return;
    uint d = drawFrom(start, id, true);
    uint local = id - draws[d].triangleBase;
    uint first = draws[d].firstIndex + 3u * local;
    uint base = draws[d].vertexBase;
    vec4 v[3];
    v[0] = clipPositions[base + indices[first]];
    v[1] = clipPositions[base + indices[first + 1u]];
    v[2] = clipPositions[base + indices[first + 2u]];
    rasteriseClip(v, draws[d].flags, id);
}
