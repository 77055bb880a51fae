// The compute rasteriser's shared declarations: its draw records, the buffers every
// pass reads, its push constants, and the mesh stage's deformation over a draw record.
// The three passes (raster_transform.comp, raster_triangles.comp, raster_resolve.comp)
// bind one descriptor set; each declares the buffers it writes itself.

#include "draw_flags.glsl"
#include "frame_uniforms.glsl"
#include "normal_matrix.glsl"

const uint kRasterCullBack = 32u;   // single-sided material: back faces are not drawn
const uint kRasterClockwise = 64u;  // front faces wind clockwise on screen (a mirroring world matrix)

// One draw item of the frame, in draw order (std430, 160 bytes; pipelines.hpp's RasterDrawRecord).
struct RasterDraw {
    mat4 world;         // rigid draws: the node's world matrix
    vec4 baseColor;     // material base colour factor, linear RGBA
    uint paletteBase;   // first palette matrix of the draw's skin
    uint weightBase;    // first morph weight of the draw
    uint vertexBase;    // first clip position of the draw in the frame's clip buffer
    uint triangleBase;  // the draw's first triangle id
    uint firstIndex;    // in the index buffer
    uint triangleCount;
    uint vertexCount;
    uint flags;  // kFlag* and kRaster*
    uint skinBase;
    uint influences;
    uint morphBase;
    uint morphTargets;
    uint positions;  // float offsets of the mesh's streams in the vertex buffer
    uint normals;
    uint texcoords;
    uint colors;
    uint material;  // the material's texture in the texture array
    uint pad0;
    uint pad1;
    uint pad2;
};

layout(std430, set = 0, binding = 1) readonly buffer Draws { RasterDraw draws[]; };
layout(std430, set = 0, binding = 2) readonly buffer Palettes { mat4 palette[]; };
layout(std430, set = 0, binding = 3) readonly buffer MorphWeights { float morphWeights[]; };
layout(std430, set = 0, binding = 4) readonly buffer MeshData { uint meshData[]; };
layout(std430, set = 0, binding = 5) readonly buffer VertexWords { float vertexWords[]; };
layout(std430, set = 0, binding = 6) readonly buffer Indices { uint indices[]; };

layout(push_constant) uniform RasterConstants {
    vec4 background;  // linear RGBA
    uint drawCount;
    uint itemCount;  // this pass's threads: vertices, triangles or pixels
    uint width;
    uint height;
} pass;

// What deform.glsl reads of the draw being deformed, set per invocation.
struct DeformParams {
    uint skinBase;
    uint influences;
    uint morphBase;
    uint morphTargets;
    uint vertexCount;
    uint flags;
};
DeformParams draw;

#include "deform.glsl"

// Large dispatches are two-dimensional (a dimension holds at most 65535 groups).
uint flatInvocation() {
    return (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
}

// The draw whose range of vertices (or triangles) holds `item`: the last draw whose
// base is at most `item` (a draw with an empty range shares its base with the next).
uint findDraw(uint item, bool byTriangle) {
    uint lo = 0u;
    uint hi = pass.drawCount - 1u;
    while (lo < hi) {
        uint mid = (lo + hi + 1u) / 2u;
        uint base = byTriangle ? draws[mid].triangleBase : draws[mid].vertexBase;
        if (base <= item) {
            lo = mid;
        } else {
            hi = mid - 1u;
        }
    }
    return lo;
}

vec3 vertexVec3(uint word, uint vertex) {
    uint at = word + 3u * vertex;
    return vec3(vertexWords[at], vertexWords[at + 1u], vertexWords[at + 2u]);
}

// Vertex `vertex` of draw `d` as the mesh vertex stage places it: morphed, then
// skinned or placed by the world matrix; `normal` is the unnormalised world normal.
vec4 deformVertex(uint d, uint vertex, out vec3 normal) {
    RasterDraw r = draws[d];
    draw = DeformParams(r.skinBase, r.influences, r.morphBase, r.morphTargets, r.vertexCount, r.flags);
    Instance copy;
    copy.world = r.world;
    copy.paletteBase = r.paletteBase;
    copy.weightBase = r.weightBase;
    copy.pad0 = 0u;
    copy.pad1 = 0u;
    vec3 position = vertexVec3(r.positions, vertex);
    vec3 n = vertexVec3(r.normals, vertex);
    morphVertex(vertex, copy.weightBase, position, n);
    mat4 m = vertexMatrix(vertex, copy);
    normal = transformNormal(m, n);
    return m * vec4(position, 1.0);
}

shared uint groupDraw;

// findDraw for a whole workgroup at the price of one search: the draw of the group's
// first item. Every thread of the group must call it, before any returns.
uint groupFirstDraw(uint item, bool byTriangle) {
    uint first = item - gl_LocalInvocationID.x;
    if (gl_LocalInvocationID.x == 0u) groupDraw = first < pass.itemCount ? findDraw(first, byTriangle) : 0u;
    barrier();
    return groupDraw;
}

// The draw of `item` (< itemCount), walking on from `d`, the draw of an earlier item
// of the group: a step or two at most, since a draw holds far more items than a group.
uint drawFrom(uint d, uint item, bool byTriangle) {
    while (d + 1u < pass.drawCount && (byTriangle ? draws[d + 1u].triangleBase : draws[d + 1u].vertexBase) <= item) {
        ++d;
    }
    return d;
}
