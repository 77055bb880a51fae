// Morphing then linear-blend skinning of one vertex, as the CPU reference does it:
// p' = sum_i w_i * palette[j_i] * (p + sum_t m_t * d_t(p)). The including shader
// declares `palette`, `morphWeights` and `meshData` and includes draw_constants.glsl.

vec3 readVec3(uint word) {
    return vec3(uintBitsToFloat(meshData[word]), uintBitsToFloat(meshData[word + 1u]),
                uintBitsToFloat(meshData[word + 2u]));
}

void morphVertex(uint vertex, uint weightBase, inout vec3 position, inout vec3 normal) {
    for (uint t = 0u; t < draw.morphTargets; ++t) {
        float w = morphWeights[weightBase + t];
        if (w == 0.0) continue;
        position += w * readVec3(draw.morphBase + (t * draw.vertexCount + vertex) * 3u);
        if ((draw.flags & kFlagMorphNormals) != 0u) {
            uint normals = draw.morphBase + draw.morphTargets * draw.vertexCount * 3u;
            normal += w * readVec3(normals + (t * draw.vertexCount + vertex) * 3u);
        }
    }
}

// The matrix that places the vertex: its blended palette matrix when skinned, the
// instance's world matrix otherwise.
mat4 vertexMatrix(uint vertex, Instance copy) {
    if ((draw.flags & kFlagSkinned) == 0u) return copy.world;
    mat4 m = mat4(0.0);
    uint pair = draw.skinBase + vertex * draw.influences * 2u;
    for (uint i = 0u; i < draw.influences; ++i) {
        uint joint = meshData[pair + 2u * i];
        float w = uintBitsToFloat(meshData[pair + 2u * i + 1u]);
        m += w * palette[copy.paletteBase + joint];
    }
    return m;
}
