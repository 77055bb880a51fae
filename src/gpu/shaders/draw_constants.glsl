// Per-draw constants shared by the mesh shaders and the deformation compute pass.
// 116 bytes: within the 128 every Vulkan device guarantees for push constants.
layout(push_constant) uniform DrawConstants {
    mat4 world;         // rigid draws: the node's world matrix
    vec4 baseColor;     // material base colour factor, linear RGBA
    uint paletteBase;   // first palette matrix of this draw's skin
    uint skinBase;      // first word of the mesh's (joint, weight) pairs in meshData
    uint influences;    // influences per vertex
    uint morphBase;     // first word of the mesh's morph displacements in meshData
    uint morphTargets;  // morph targets of the mesh (0: none)
    uint weightBase;    // first morph weight of this draw
    uint vertexCount;   // vertices of the mesh
    uint flags;         // kFlag* below
    float alphaCutoff;  // alpha mask threshold
} draw;

const uint kFlagSkinned = 1u;
const uint kFlagMorphNormals = 2u;
const uint kFlagAlphaMask = 4u;
const uint kFlagHasNormals = 8u;
const uint kFlagOpaque = 16u;
