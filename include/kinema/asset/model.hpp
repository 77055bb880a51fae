// kinema/asset: a Model is everything an animated file (or code) provides for one
// scene: the node hierarchy as a skeleton, skins, clips, meshes with skinning and
// morph data, materials and image sources. Immutable once built; share it.
//
// Every node of the file is a joint of `skeleton` (rigid node animation and
// skeletal animation are the same thing here), re-ordered parent-before-child;
// nodeOfJoint / jointOfNode map between the file's order and the skeleton's.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kinema/asset/clip.hpp"
#include "kinema/asset/skeleton.hpp"
#include "kinema/math/mat4.hpp"
#include "kinema/math/vec3.hpp"

namespace kinema {

enum class PrimitiveMode : std::uint8_t { Points, Lines, LineLoop, LineStrip, Triangles, TriangleStrip, TriangleFan };

// Per-vertex displacements of one morph target; an empty vector means the
// target does not displace that attribute.
struct MorphTarget {
    std::vector<Vec3> positions;
    std::vector<Vec3> normals;
};

struct MeshPrimitive {
    PrimitiveMode mode = PrimitiveMode::Triangles;
    std::vector<Vec3> positions;                  // one per vertex, in the mesh's own space
    std::vector<Vec3> normals;                    // empty, or one per vertex
    std::vector<std::array<float, 2>> texcoords;  // TEXCOORD_0: empty, or one per vertex
    // COLOR_0 as linear RGBA in 0..1 (alpha 1 when the file gives RGB): empty, or one per vertex.
    std::vector<std::array<float, 4>> colors;
    // Skinning influences, vertex-major: vertex v uses joints[v * n + i] with
    // weights[v * n + i] for i < n = influencesPerVertex (4 per JOINTS_n set).
    // Joint values index the skin's joint list. Weights of a vertex sum to 1
    // (renormalised at load), or are all 0 when the file gave only zeros.
    std::uint32_t influencesPerVertex = 0;
    std::vector<std::uint16_t> joints;
    std::vector<float> weights;
    std::vector<std::uint32_t> indices;  // empty: draw vertices in order
    std::vector<MorphTarget> targets;
    std::int32_t material = -1;

    std::size_t vertexCount() const noexcept { return positions.size(); }
};

struct Mesh {
    std::string name;
    std::vector<MeshPrimitive> primitives;
    std::uint32_t targetCount = 0;  // morph targets, the same for every primitive
    std::vector<float> weights;     // default morph weights (targetCount floats)
    // One name per morph target (from the exporters' mesh.extras.targetNames), or empty.
    std::vector<std::string> targetNames;
};

// How far an inverse bind matrix's last row may be from 0, 0, 0, 1 (a writer's
// rounding); a model whose matrices go further, or are not finite, is refused.
inline constexpr float kInverseBindSlack = 1e-6f;

struct Skin {
    std::string name;
    std::vector<std::uint32_t> joints;      // skeleton joint indices, in the file's joint order
    std::vector<Mat4> inverseBindMatrices;  // one per joint (identity when the file gives none), affine
    std::int32_t root = -1;                 // skeleton joint under which all joints hang, or -1
    // Skeleton::fingerprint() of the skeleton `joints` index (0: unknown, checked by
    // range only). Evaluating the skin on another skeleton is refused.
    std::uint64_t skeleton = 0;
};

struct TextureRef {
    std::uint32_t texture = 0;   // index into Model::textures
    std::uint32_t texCoord = 0;  // TEXCOORD_n set
};

// How a texture is sampled, from its glTF sampler. The values are resolved into each
// Texture rather than kept as a table of samplers, so that a texture alone says how it
// is drawn; glTF's defaults (linear filtering, repeat) fill what the file leaves out.
enum class SamplerFilter : std::uint8_t { Nearest, Linear };
// Minification between mipmap levels: None for the plain NEAREST / LINEAR minFilter
// (and when the file gives no minFilter), else the *_MIPMAP_NEAREST / *_MIPMAP_LINEAR part.
enum class SamplerMipmap : std::uint8_t { None, Nearest, Linear };
enum class SamplerWrap : std::uint8_t { Repeat, MirroredRepeat, ClampToEdge };

struct Texture {
    std::int32_t image = -1;  // index into Model::images, or -1
    // The file's sampler index, or -1 (none: the defaults below).
    std::int32_t sampler = -1;
    SamplerFilter magFilter = SamplerFilter::Linear;
    SamplerFilter minFilter = SamplerFilter::Linear;  // the base filter of a mipmapped minFilter too
    SamplerMipmap mipmapFilter = SamplerMipmap::None;
    SamplerWrap wrapS = SamplerWrap::Repeat;  // u
    SamplerWrap wrapT = SamplerWrap::Repeat;  // v
};

// glTF's alphaMode: Opaque ignores alpha, Mask discards below alphaCutoff, Blend composites.
enum class MaterialAlpha : std::uint8_t { Opaque, Mask, Blend };

struct Material {
    std::string name;
    std::array<float, 4> baseColorFactor{1.0f, 1.0f, 1.0f, 1.0f};  // linear RGBA
    std::optional<TextureRef> baseColorTexture;
    MaterialAlpha alphaMode = MaterialAlpha::Opaque;
    float alphaCutoff = 0.5f;  // finite, >= 0; used by MaterialAlpha::Mask only
    bool doubleSided = false;  // false: back faces are culled
};

// Where an image's encoded bytes are; decoding (to RGBA8) happens only on request.
struct ImageSource {
    std::string name;
    std::string mimeType;
    std::string uri;  // as written in the file (a relative path or a data: URI); or empty
    // An external file: `path` relative to `folder`, which opening it may not leave
    // (symbolic links included); with an empty folder, `path` is opened as it is (an
    // import that allowed any path). Both empty when the bytes are elsewhere. The
    // importer stores the folder (or the lone path) absolute, so that decoding later
    // does not depend on the working folder.
    std::string folder;
    std::string path;
    std::int32_t buffer = -1;  // index into Model::buffers when the bytes are embedded
    std::size_t byteOffset = 0;
    std::size_t byteLength = 0;
};

// An image decoded to 8-bit RGBA.
struct ImageRGBA8 {
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    std::vector<std::uint8_t> pixels;  // width * height * 4, rows top to bottom
};

// A node that draws a mesh.
struct MeshInstance {
    std::uint32_t joint = 0;  // the node, as a skeleton joint
    std::uint32_t mesh = 0;
    std::int32_t skin = -1;
    std::uint32_t weightOffset = 0;  // first morph weight of this node in a pose's weight array
};

enum class CameraProjection : std::uint8_t { Perspective, Orthographic };

// A glTF camera. It looks down the -Z axis of the node that carries it, +Y up;
// distances are in the scene's units. Import guarantees the values glTF requires.
struct Camera {
    std::string name;
    CameraProjection projection = CameraProjection::Perspective;
    float yfov = 0.0f;                 // perspective: vertical field of view in radians, > 0
    std::optional<float> aspectRatio;  // perspective: width / height, > 0; absent: the viewport's
    float xmag = 0.0f;                 // orthographic: half the view's width, non-zero
    float ymag = 0.0f;                 // orthographic: half the view's height, non-zero
    float znear = 0.0f;                // > 0 (perspective), >= 0 (orthographic)
    std::optional<float> zfar;         // > znear; absent (perspective only): infinite
};

// A node that carries a camera.
struct CameraInstance {
    std::uint32_t joint = 0;   // the node, as a skeleton joint
    std::uint32_t camera = 0;  // index into Model::cameras
};

// One of the file's scenes: a name and the joints at its roots.
struct SceneRoots {
    std::string name;
    std::vector<std::uint32_t> roots;  // skeleton joints
};

struct Model {
    std::string source;  // file path or a name, for messages
    Skeleton skeleton;
    std::vector<std::uint32_t> nodeOfJoint;         // joint -> file node index
    std::vector<std::uint32_t> jointOfNode;         // file node index -> joint
    std::vector<std::int32_t> weightOffsetOfJoint;  // joint -> first morph weight, or -1
    std::vector<float> restWeights;                 // all nodes' morph weights at rest (node over mesh defaults)
    std::vector<Skin> skins;
    std::vector<Clip> clips;
    std::vector<Mesh> meshes;
    std::vector<MeshInstance> meshInstances;  // in file node order
    std::vector<Material> materials;
    std::vector<Texture> textures;
    std::vector<ImageSource> images;
    std::vector<SceneRoots> scenes;
    std::int32_t defaultScene = -1;
    std::vector<Camera> cameras;                  // in file order
    std::vector<CameraInstance> cameraInstances;  // in file node order
    // Every image decoded, in `images` order, when import was asked to (empty otherwise).
    std::vector<ImageRGBA8> decodedImages;
    // Binary buffers kept alive for on-demand work (embedded images).
    std::vector<std::shared_ptr<const std::vector<std::byte>>> buffers;

    std::size_t nodeCount() const noexcept { return nodeOfJoint.size(); }
    std::size_t weightCount() const noexcept { return restWeights.size(); }
};

// Every inconsistency between the parts of a model (clips that do not fit the
// skeleton, skins naming missing joints, influences past a skin's joint list,
// mesh and camera instances out of range, morph weight layout): what a builder or importer
// must guarantee before the per-frame path trusts the model.
std::vector<Fault> findModelFaults(const Model& model);

// The clips' names for a message that asks for one of them: "'walk', 'run', an
// unnamed one (index 2)"; "none" when there are no clips.
std::string clipNames(std::span<const Clip> clips);

}  // namespace kinema
