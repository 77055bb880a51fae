#version 450
#extension GL_GOOGLE_include_directive : require

#include "draw_constants.glsl"
#include "frame_uniforms.glsl"

layout(set = 1, binding = 0) uniform sampler2D baseColorTexture;

layout(location = 0) in vec3 inWorld;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec2 inTexcoord;
layout(location = 3) in vec4 inColor;

layout(location = 0) out vec4 outColor;

void main() {
    vec4 albedo = texture(baseColorTexture, inTexcoord) * draw.baseColor * inColor;
    if ((draw.flags & kFlagAlphaMask) != 0u && albedo.a < draw.alphaCutoff) discard;

    vec3 toEye = frame.eye.xyz - inWorld;
    vec3 n;
    if ((draw.flags & kFlagHasNormals) != 0u) {
        n = normalize(inNormal);
        if (!gl_FrontFacing) n = -n;  // the back of a double-sided surface
    } else {
        // No normals in the mesh: flat shading from the triangle's own plane.
        n = normalize(cross(dFdx(inWorld), dFdy(inWorld)));
        if (dot(n, toEye) < 0.0) n = -n;
    }
    float diffuse = max(dot(n, frame.toLight.xyz), 0.0);
    vec3 lit = albedo.rgb * (frame.ambientColor.rgb + frame.lightColor.rgb * diffuse);
    float alpha = (draw.flags & kFlagOpaque) != 0u ? 1.0 : albedo.a;
    outColor = vec4(lit, alpha);
}
