// Per-draw constants shared by the mesh shaders and the deformation compute pass, and
// the per-instance records a draw reads by its instance index.
layout(push_constant) uniform DrawConstants {
    vec4 baseColor;     // material base colour factor, linear RGBA
    uint skinBase;      // first word of the mesh's (joint, weight) pairs in meshData
    uint influences;    // influences per vertex
    uint morphBase;     // first word of the mesh's morph displacements in meshData
    uint morphTargets;  // morph targets of the mesh (0: none)
    uint vertexCount;   // vertices of the mesh
    uint flags;         // kFlag* below
    float alphaCutoff;  // alpha mask threshold
    uint instance;      // the compute pass: which instance record to deform by
} draw;

const uint kFlagSkinned = 1u;
const uint kFlagMorphNormals = 2u;
const uint kFlagAlphaMask = 4u;
const uint kFlagHasNormals = 8u;
const uint kFlagOpaque = 16u;

// One drawn copy of a mesh: where it is placed or which palette slice skins it, and
// where its morph weights start.
struct Instance {
    mat4 world;        // rigid draws: the node's world matrix
    uint paletteBase;  // first palette matrix of this draw's skin
    uint weightBase;   // first morph weight of this draw
    uint pad0;
    uint pad1;
};
