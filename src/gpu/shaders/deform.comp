#version 450
#extension GL_GOOGLE_include_directive : require
// The mesh vertex stage's deformation, writing world-space positions to a buffer so
// the GPU's skinning can be read back and compared with the CPU reference.

#include "draw_constants.glsl"

layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) readonly buffer Palettes { mat4 palette[]; };
layout(std430, set = 0, binding = 1) readonly buffer MorphWeights { float morphWeights[]; };
layout(std430, set = 0, binding = 2) readonly buffer MeshData { uint meshData[]; };
layout(std430, set = 0, binding = 3) readonly buffer Positions { float positions[]; };
layout(std430, set = 0, binding = 4) writeonly buffer Deformed { float deformed[]; };
layout(std430, set = 0, binding = 5) readonly buffer Instances { Instance instances[]; };

#include "deform.glsl"

void main() {
    uint vertex = gl_GlobalInvocationID.x;
    if (vertex >= draw.vertexCount) return;
    vec3 position = vec3(positions[3u * vertex], positions[3u * vertex + 1u], positions[3u * vertex + 2u]);
    vec3 normal = vec3(0.0, 0.0, 1.0);
    Instance copy = instances[draw.instance];
    morphVertex(vertex, copy.weightBase, position, normal);
    vec4 world = vertexMatrix(vertex, copy) * vec4(position, 1.0);
    deformed[3u * vertex] = world.x;
    deformed[3u * vertex + 1u] = world.y;
    deformed[3u * vertex + 2u] = world.z;
}
