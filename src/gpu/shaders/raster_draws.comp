#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
// Compute raster, passes 1 and 2 in one: a workgroup per draw deforms the draw's
// vertices into shared memory, on screen, then rasterises its triangles from there
// (raster_triangle.glsl). No clip position goes through memory and no thread searches
// for its draw. For frames whose every draw has at most kSharedVertices vertices.

layout(local_size_x = 256) in;

// Set when the pipeline is made: as many vertices as the device's shared memory holds.
layout(constant_id = 0) const uint kSharedVertices = 1024u;

#include "raster_common.glsl"

layout(std430, set = 0, binding = 8) buffer Visibility { uint64_t visibility[]; };
// The same buffer as 32-bit words: an entry's depth bits are its high (odd) word.
layout(std430, set = 0, binding = 8) readonly buffer VisibilityWords { uint visibilityWords[]; };

#include "raster_triangle.glsl"

// Each vertex of the draw as screenOf gives it; a vertex behind the near plane or the
// eye has depth -1, and its triangles are clipped from their clip positions. Three
// float arrays, not one of vec3: a compiler may pad a vec3 element to 16 bytes, and
// the vertex capacity is computed for 12.
shared float screenX[kSharedVertices];
shared float screenY[kSharedVertices];
shared float screenZ[kSharedVertices];

vec3 screenAt(uint vertex) { return vec3(screenX[vertex], screenY[vertex], screenZ[vertex]); }

vec4 clipOf(uint d, uint vertex) {
    vec3 normal;
    return frame.viewProjection * deformVertex(d, vertex, normal);
}

void main() {
    uint d = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (d >= pass.drawCount) return;  // the whole group: no barrier is skipped by half of it
    uint vertexCount = draws[d].vertexCount;
    for (uint v = gl_LocalInvocationID.x; v < vertexCount; v += gl_WorkGroupSize.x) {
        vec4 c = clipOf(d, v);
        vec3 p = c.w > 0.0 && c.z >= 0.0 ? screenOf(c) : vec3(0.0, 0.0, -1.0);
        screenX[v] = p.x;
        screenY[v] = p.y;
        screenZ[v] = p.z;
    }
    barrier();
    uint triangleCount = draws[d].triangleCount;
    uint firstIndex = draws[d].firstIndex;
    uint triangleBase = draws[d].triangleBase;
    uint flags = draws[d].flags;
    uint last = max(vertexCount, 1u) - 1u;
    for (uint t = gl_LocalInvocationID.x; t < triangleCount; t += gl_WorkGroupSize.x) {
        uint first = firstIndex + 3u * t;
        uint i0 = min(indices[first], last), i1 = min(indices[first + 1u], last), i2 = min(indices[first + 2u], last);
        vec3 a = screenAt(i0), b = screenAt(i1), c = screenAt(i2);
        if (a.z >= 0.0 && b.z >= 0.0 && c.z >= 0.0) {
            rasteriseScreen(a, b, c, flags, triangleBase + t);
            continue;
        }
        vec4 v[3];
        v[0] = clipOf(d, i0);
        v[1] = clipOf(d, i1);
        v[2] = clipOf(d, i2);
        rasteriseClip(v, flags, triangleBase + t);
    }
}
