// The draw flags and the per-instance record, shared by the mesh shaders, the
// deformation compute pass and the compute rasteriser.
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
