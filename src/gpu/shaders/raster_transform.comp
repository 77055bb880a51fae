#version 450
#extension GL_GOOGLE_include_directive : require
// Compute raster, pass 1: one thread per (draw, vertex) deforms the vertex as the mesh
// vertex stage does and stores its clip position at the draw's vertex base.

layout(local_size_x = 64) in;

#include "raster_common.glsl"

layout(std430, set = 0, binding = 7) writeonly buffer Clip { vec4 clipPositions[]; };

void main() {
    uint item = flatInvocation();
    uint start = groupFirstDraw(item, false);
    if (item >= pass.itemCount) return;
    uint d = drawFrom(start, item, false);
    vec3 normal;
    vec4 world = deformVertex(d, item - draws[d].vertexBase, normal);
    clipPositions[item] = frame.viewProjection * world;
}
