// kinema/render: what is drawn, as plain data. A renderer compiles these
// descriptions into its own resources; nothing here names a graphics API, so the
// same catalogue can feed any backend and be built and checked without a device.
//
// Images are kinema::ImageRGBA8 (asset/model.hpp): width, height and tightly packed
// RGBA8 rows, top to bottom. Every reference between descriptions is a typed id
// (render/ids.hpp) issued by the RenderCatalogue that holds both ends.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/math/vec3.hpp"
#include "kinema/render/ids.hpp"

namespace kinema {

enum class TextureFilter : std::uint8_t { Nearest, Linear };
enum class TextureWrap : std::uint8_t { Repeat, MirroredRepeat, ClampToEdge };

// An image and how it is sampled. The defaults are glTF's: linear filtering, repeat.
struct TextureDesc {
    ImageId image;  // required
    TextureFilter minFilter = TextureFilter::Linear;
    TextureFilter magFilter = TextureFilter::Linear;
    TextureWrap wrapU = TextureWrap::Repeat;
    TextureWrap wrapV = TextureWrap::Repeat;
};

enum class AlphaMode : std::uint8_t { Opaque, Mask, Blend };

// A surface, with glTF's metallic-roughness base colour terms.
struct MaterialDesc {
    std::array<float, 4> baseColorFactor{1.0f, 1.0f, 1.0f, 1.0f};  // linear RGBA
    std::optional<TextureId> baseColorTexture;                     // sampled with TEXCOORD_0
    AlphaMode alphaMode = AlphaMode::Opaque;
    float alphaCutoff = 0.5f;  // used by AlphaMode::Mask: fragments below it are discarded
    bool doubleSided = false;
};

// One indexed triangle list. Every optional stream is empty or holds one entry per
// vertex; skinning influences and morph targets have the layout of asset's
// MeshPrimitive, so an imported primitive's data moves here unchanged.
struct RenderMesh {
    std::vector<Vec3> positions;                  // one per vertex, in the mesh's own space
    std::vector<Vec3> normals;                    // empty, or one per vertex
    std::vector<std::array<float, 2>> texcoords;  // TEXCOORD_0: empty, or one per vertex
    std::vector<std::array<float, 4>> colors;     // linear RGBA: empty, or one per vertex
    // Vertex-major: vertex v uses joints[v * n + i] with weights[v * n + i] for
    // i < n = influencesPerVertex; both empty when n is 0.
    std::uint32_t influencesPerVertex = 0;
    std::vector<std::uint16_t> joints;
    std::vector<float> weights;
    std::vector<std::uint32_t> indices;  // three per triangle, each below the vertex count
    std::vector<MorphTarget> targets;    // per-vertex position / normal displacements

    std::size_t vertexCount() const noexcept { return positions.size(); }
};

// One drawable thing: a mesh with the material it is drawn with.
struct RenderObjectDesc {
    MeshId mesh;
    MaterialId material;
};

}  // namespace kinema
