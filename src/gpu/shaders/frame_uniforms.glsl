layout(set = 0, binding = 0) uniform FrameUniforms {
    mat4 viewProjection;
    vec4 eye;             // xyz: camera position in world space
    vec4 toLight;         // xyz: unit direction towards the light
    vec4 lightColor;      // rgb
    vec4 ambientColor;    // rgb
} frame;
