// Per-draw constants shared by the mesh shaders and the deformation compute pass, and
// the per-instance records a draw reads by its instance index.
#include "draw_flags.glsl"

layout(push_constant) uniform DrawConstants {
    vec4 baseColor;     // material base colour factor, linear RGBA
    uint skinBase;      // first word of the mesh's (joint, weight) pairs in meshData
    uint influences;    // influences per vertex
    uint morphBase;     // first word of the mesh's morph displacements in meshData
    uint morphTargets;  // morph targets of the mesh (0: none)
    uint vertexCount;   // vertices of the mesh
    uint flags;         // kFlag* of draw_flags.glsl
    float alphaCutoff;  // alpha mask threshold
    uint instance;      // the compute pass: which instance record to deform by
} draw;
