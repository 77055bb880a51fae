#version 450
#extension GL_GOOGLE_include_directive : require

#include "draw_constants.glsl"
#include "frame_uniforms.glsl"
#include "normal_matrix.glsl"

layout(location = 0) in vec3 inPosition;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec2 inTexcoord;
layout(location = 3) in vec4 inColor;

layout(location = 0) out vec3 outWorld;
layout(location = 1) out vec3 outNormal;
layout(location = 2) out vec2 outTexcoord;
layout(location = 3) out vec4 outColor;

layout(std430, set = 0, binding = 1) readonly buffer Instances { Instance instances[]; };

#ifdef DEFORM
layout(std430, set = 2, binding = 0) readonly buffer Palettes { mat4 palette[]; };
layout(std430, set = 2, binding = 1) readonly buffer MorphWeights { float morphWeights[]; };
layout(std430, set = 2, binding = 2) readonly buffer MeshData { uint meshData[]; };
#include "deform.glsl"
#endif

void main() {
    Instance copy = instances[gl_InstanceIndex];
    vec3 position = inPosition;
    vec3 normal = inNormal;
#ifdef DEFORM
    uint vertex = uint(gl_VertexIndex);
    morphVertex(vertex, copy.weightBase, position, normal);
    mat4 m = vertexMatrix(vertex, copy);
#else
    mat4 m = copy.world;
#endif
    vec4 world = m * vec4(position, 1.0);
    outWorld = world.xyz;
    outNormal = transformNormal(m, normal);
    outTexcoord = inTexcoord;
    outColor = inColor;
    gl_Position = frame.viewProjection * world;
}
