#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Compute raster, pass 3: one thread per pixel. An empty pixel takes the background;
// a covered one finds its draw and triangle, deforms the triangle's three vertices
// again, interpolates them with perspective-correct barycentrics at the pixel centre
// and shades as mesh.frag does. The result is sRGB-encoded here (an sRGB image cannot
// be a storage image) into a buffer the frame then copies into the colour image.

layout(local_size_x = 8, local_size_y = 8) in;

#include "raster_common.glsl"

layout(std430, set = 0, binding = 8) readonly buffer Visibility { uint64_t visibility[]; };
layout(std430, set = 0, binding = 9) writeonly buffer Colors { uint colors[]; };
// One texture per material (pipelines.hpp's kRasterTextureSlots), read through a
// switch: constant indices need no dynamic indexing from the device.
layout(set = 1, binding = 0) uniform sampler2D textures[16];

#define SAMPLE_SLOT(i) \
    case i: return textureGrad(textures[i], uv, dx, dy);

vec4 sampleMaterial(uint slot, vec2 uv, vec2 dx, vec2 dy) {
    switch (slot) {
        SAMPLE_SLOT(0) SAMPLE_SLOT(1) SAMPLE_SLOT(2) SAMPLE_SLOT(3) SAMPLE_SLOT(4) SAMPLE_SLOT(5) SAMPLE_SLOT(6)
        SAMPLE_SLOT(7) SAMPLE_SLOT(8) SAMPLE_SLOT(9) SAMPLE_SLOT(10) SAMPLE_SLOT(11) SAMPLE_SLOT(12) SAMPLE_SLOT(13)
        SAMPLE_SLOT(14) SAMPLE_SLOT(15)
    }
    return vec4(1.0);
}

// IEC 61966-2-1 encoding, what an sRGB attachment does on store; alpha stays linear.
uint encodeSrgb(vec4 linear) {
    vec3 c = clamp(linear.rgb, 0.0, 1.0);
    vec3 s = mix(12.92 * c, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, greaterThan(c, vec3(0.0031308)));
    return packUnorm4x8(vec4(s, linear.a));
}

// Perspective-correct barycentrics of the point at `ndc` on the triangle with clip
// positions c0..c2: P = sum l_i c_i projects to ndc, so l is proportional to
// M^-1 (ndc, 1) with M = (c0 c1 c2).xyw; valid when some vertices lie behind the eye.
vec3 barycentrics(vec3 c0, vec3 c1, vec3 c2, vec2 ndc) {
    vec3 p = vec3(ndc, 1.0);
    vec3 l = vec3(dot(p, cross(c1, c2)), dot(p, cross(c2, c0)), dot(p, cross(c0, c1)));
    float sum = l.x + l.y + l.z;
    return sum != 0.0 ? l / sum : vec3(1.0 / 3.0);
}

vec2 texcoordOf(uint word, uint vertex) { return vec2(vertexWords[word + 2u * vertex], vertexWords[word + 2u * vertex + 1u]); }

vec4 colorOf(uint word, uint vertex) {
    uint at = word + 4u * vertex;
    return vec4(vertexWords[at], vertexWords[at + 1u], vertexWords[at + 2u], vertexWords[at + 3u]);
}

void main() {
    uvec2 pixel = gl_GlobalInvocationID.xy;
    if (pixel.x >= pass.width || pixel.y >= pass.height) return;
    uint at = pixel.y * pass.width + pixel.x;
    uint64_t entry = visibility[at];
    if (entry == ~0ul) {
        colors[at] = encodeSrgb(pass.background);
        return;
    }
    uint id = uint(entry & 0xFFFFFFFFul);
    uint d = findDraw(id, true);
    RasterDraw r = draws[d];
    uint first = r.firstIndex + 3u * (id - r.triangleBase);
    uint i0 = indices[first], i1 = indices[first + 1u], i2 = indices[first + 2u];
    vec3 n0, n1, n2;
    vec4 w0 = deformVertex(d, i0, n0);
    vec4 w1 = deformVertex(d, i1, n1);
    vec4 w2 = deformVertex(d, i2, n2);
    // The clip positions as the raster passes computed them.
    vec3 c0 = (frame.viewProjection * w0).xyw;
    vec3 c1 = (frame.viewProjection * w1).xyw;
    vec3 c2 = (frame.viewProjection * w2).xyw;

    vec2 size = vec2(pass.width, pass.height);
    vec2 ndc = (vec2(pixel) + 0.5) / size * 2.0 - 1.0;
    vec3 l = barycentrics(c0, c1, c2, ndc);
    // One pixel to the right and one down: the texture's footprint, as a fragment
    // shader's derivatives give it.
    vec3 lx = barycentrics(c0, c1, c2, ndc + vec2(2.0 / size.x, 0.0));
    vec3 ly = barycentrics(c0, c1, c2, ndc + vec2(0.0, 2.0 / size.y));

    vec3 world = l.x * w0.xyz + l.y * w1.xyz + l.z * w2.xyz;
    vec2 t0 = texcoordOf(r.texcoords, i0), t1 = texcoordOf(r.texcoords, i1), t2 = texcoordOf(r.texcoords, i2);
    vec2 uv = l.x * t0 + l.y * t1 + l.z * t2;
    vec2 uvX = lx.x * t0 + lx.y * t1 + lx.z * t2 - uv;
    vec2 uvY = ly.x * t0 + ly.y * t1 + ly.z * t2 - uv;
    vec4 color = l.x * colorOf(r.colors, i0) + l.y * colorOf(r.colors, i1) + l.z * colorOf(r.colors, i2);

    vec4 albedo = sampleMaterial(r.material, uv, uvX, uvY) * r.baseColor * color;
    vec3 toEye = frame.eye.xyz - world;
    vec3 n;
    if ((r.flags & kFlagHasNormals) != 0u) {
        n = normalize(l.x * n0 + l.y * n1 + l.z * n2);
        // The facing the raster pass culled by: det(M) < 0 is counter-clockwise on
        // screen, whichever vertices lie behind the eye.
        float orientation = dot(c0, cross(c1, c2));
        bool front = (r.flags & kRasterClockwise) != 0u ? orientation > 0.0 : orientation < 0.0;
        if (!front) n = -n;  // the back of a double-sided surface
    } else {
        // No normals in the mesh: flat shading from the triangle's own plane.
        n = normalize(cross(w1.xyz - w0.xyz, w2.xyz - w0.xyz));
        if (dot(n, toEye) < 0.0) n = -n;
    }
    float diffuse = max(dot(n, frame.toLight.xyz), 0.0);
    vec3 lit = albedo.rgb * (frame.ambientColor.rgb + frame.lightColor.rgb * diffuse);
    colors[at] = encodeSrgb(vec4(lit, 1.0));
}
