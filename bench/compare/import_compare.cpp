// kinema_import_compare: kinema's glTF import against tinygltf and Assimp on the same
// in-memory bytes, in one run, so the comparison rests on ratios. Per model:
//
//   <model>/kinema             GltfImporter::import, one importer reused (as Import/<model>
//                              of kinema_bench): parse, validate, decode every accessor,
//                              build the Model, destroy it.
//   <model>/kinema_animpath    the same with decodeRenderAttributes = false (as
//                              ImportAnimationPath/<model>): NORMAL, TEXCOORD_0 and indices
//                              range-checked but not decoded. The workload of the fastgltf
//                              reference figures (docs/PERFORMANCE.md).
//   <model>/tinygltf_parse     TinyGLTF::LoadBinaryFromMemory alone (JSON parse, its checks,
//                              the GLB BIN chunk copied into the model's buffer); for a .gltf,
//                              LoadASCIIFromString with the model's folder as base dir, so its
//                              external .bin files are read from disk inside the loop (as
//                              kinema's import reads them) and data: URIs decoded; images are
//                              not decoded (an image loader that keeps nothing).
//   <model>/tinygltf_decode    the same load, then the accessors kinema_animpath decodes,
//                              decoded to float arrays (16-bit joints) with bounds checks:
//                              node TRS / matrix, inverse bind matrices, every animation
//                              sampler input (each distinct accessor once) and output,
//                              POSITION, JOINTS_0, WEIGHTS_0 of every primitive, the POSITION
//                              and NORMAL deltas of every morph target and the mesh's default
//                              morph weights; sparse accessors applied.
//   <model>/assimp             Assimp::Importer::ReadFileFromMemory with no post-processing
//                              (flags 0), then FreeScene. For a .gltf (whose external .bin
//                              files ReadFileFromMemory cannot find: it names the in-memory
//                              file with a magic name in no folder), Importer::ReadFile on
//                              the model's path through an IOSystem that serves that path
//                              from the same in-memory bytes and opens every other file
//                              (the .bin buffers) from disk with Assimp's DefaultIOSystem.
//                              Assimp's glTF 2 reader always converts every mesh attribute
//                              and the indices, so this is closer to kinema's full import
//                              than to the animation path.
//   <model>/buffer_files       .gltf models only: the model's external buffer files read
//                              whole with kinema::readFileBytes, the file I/O that every
//                              library above does in each of its iterations (not an import).
//
// Models: the four with fastgltf reference figures first (their rows as
// before), then every other model folder of the assets folder, sorted. Every loop
// includes the destruction of what it built. The benchmarks of one model
// are registered next to each other; run with --benchmark_enable_random_interleaving
// and repetitions so that machine-load drift is spread over all of them alike
// (docs/PERFORMANCE.md gives the commands; report.py turns the JSON into the tables).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <assimp/DefaultIOSystem.h>
#include <assimp/IOSystem.hpp>
#include <assimp/Importer.hpp>
#include <assimp/MemoryIOWrapper.h>
#include <assimp/scene.h>
#include <tiny_gltf.h>

#include "bench_common.hpp"
#include "kinema/io/gltf.hpp"

namespace {

using kinema::GltfImporter;
using kinema::GltfSource;
using kinema::ImportOptions;

// The models with fastgltf reference figures, registered first and even when
// missing; modelNames() adds every other model folder found at run time.
constexpr const char* kReferenceModels[] = {"CesiumMan", "RiggedFigure", "InterpolationTest", "RiggedSimple"};

std::vector<std::string> modelNames() {
    std::vector<std::string> names(std::begin(kReferenceModels), std::end(kReferenceModels));
    std::vector<std::string> others;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(kinema::bench::assetsDir(), ec)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_directory(ec) && kinema::bench::findModelFile(entry.path()) &&
            std::find(names.begin(), names.end(), name) == names.end()) {
            others.push_back(name);
        }
    }
    std::sort(others.begin(), others.end());
    names.insert(names.end(), others.begin(), others.end());
    return names;
}

// ---------------------------------------------------------------------------------
// The tinygltf side: decoding what kinema's animation path decodes.

struct NodeTransform {
    bool hasMatrix = false;
    std::array<float, 16> matrix{};
    std::array<float, 3> translation{0.0f, 0.0f, 0.0f};
    std::array<float, 4> rotation{0.0f, 0.0f, 0.0f, 1.0f};
    std::array<float, 3> scale{1.0f, 1.0f, 1.0f};
};

struct DecodedPrimitive {
    std::vector<float> positions;                    // 3 per vertex
    std::vector<std::uint16_t> joints;               // 4 per vertex, or empty
    std::vector<float> weights;                      // 4 per vertex, or empty
    std::vector<std::vector<float>> morphPositions;  // per target, 3 per vertex, or empty
    std::vector<std::vector<float>> morphNormals;    // per target, 3 per vertex, or empty

    std::size_t morphFloats() const {
        std::size_t n = 0;
        for (const auto& v : morphPositions) n += v.size();
        for (const auto& v : morphNormals) n += v.size();
        return n;
    }
};

struct Decoded {
    std::vector<NodeTransform> nodes;
    std::vector<std::vector<float>> inverseBindMatrices;  // per skin, 16 per joint
    std::vector<std::vector<float>> inputs;               // per distinct sampler input accessor
    std::vector<std::vector<float>> outputs;              // per sampler
    std::vector<DecodedPrimitive> primitives;             // every primitive of every mesh
    std::vector<std::vector<float>> meshWeights;          // per mesh, default morph weights

    std::size_t floatCount() const {
        std::size_t n = nodes.size() * 10;
        for (const auto& v : inverseBindMatrices) n += v.size();
        for (const auto& v : inputs) n += v.size();
        for (const auto& v : outputs) n += v.size();
        for (const auto& p : primitives) n += p.positions.size() + p.weights.size() + p.morphFloats();
        for (const auto& w : meshWeights) n += w.size();
        return n;
    }
};

// Where the elements of an accessor are, checked against its buffer view and buffer.
struct ElementView {
    const unsigned char* data = nullptr;
    std::size_t stride = 0;
    std::size_t elementSize = 0;
};

bool elementView(const tinygltf::Model& model, const tinygltf::Accessor& accessor, std::size_t components,
                 ElementView& view) {
    if (accessor.bufferView < 0 || static_cast<std::size_t>(accessor.bufferView) >= model.bufferViews.size()) {
        return false;
    }
    const tinygltf::BufferView& bufferView = model.bufferViews[static_cast<std::size_t>(accessor.bufferView)];
    if (bufferView.buffer < 0 || static_cast<std::size_t>(bufferView.buffer) >= model.buffers.size()) return false;
    const tinygltf::Buffer& buffer = model.buffers[static_cast<std::size_t>(bufferView.buffer)];
    const int componentSize = tinygltf::GetComponentSizeInBytes(static_cast<std::uint32_t>(accessor.componentType));
    if (componentSize <= 0) return false;
    view.elementSize = static_cast<std::size_t>(componentSize) * components;
    view.stride = bufferView.byteStride != 0 ? bufferView.byteStride : view.elementSize;
    if (view.stride < view.elementSize) return false;
    if (bufferView.byteOffset > buffer.data.size() ||
        bufferView.byteLength > buffer.data.size() - bufferView.byteOffset) {
        return false;
    }
    if (accessor.count != 0) {
        const std::size_t last = accessor.byteOffset + view.stride * (accessor.count - 1) + view.elementSize;
        if (last > bufferView.byteLength) return false;
    }
    view.data = buffer.data.data() + bufferView.byteOffset + accessor.byteOffset;
    return true;
}

template <class T>
T readAt(const unsigned char* p) {
    T value;
    std::memcpy(&value, p, sizeof(T));
    return value;
}

// `count` elements of `components` components each, `stride` bytes apart from `src`, to
// floats at `dst`: float components as they are, normalized integer components scaled as
// glTF 2.0 says. False for any other component type.
bool convertElements(int componentType, bool normalized, const unsigned char* src, std::size_t stride,
                     std::size_t count, std::size_t components, float* dst) {
    const auto convert = [&](auto tag, float scale, float lowest) {
        using C = decltype(tag);
        for (std::size_t e = 0; e < count; ++e, src += stride) {
            for (std::size_t c = 0; c < components; ++c) {
                *dst++ = std::max(static_cast<float>(readAt<C>(src + c * sizeof(C))) * scale, lowest);
            }
        }
    };
    switch (componentType) {
        case TINYGLTF_COMPONENT_TYPE_FLOAT:
            if (stride == components * sizeof(float)) {
                std::memcpy(dst, src, count * components * sizeof(float));
            } else {
                for (std::size_t e = 0; e < count; ++e, src += stride, dst += components) {
                    std::memcpy(dst, src, components * sizeof(float));
                }
            }
            return true;
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
            if (!normalized) return false;
            convert(std::uint8_t{}, 1.0f / 255.0f, 0.0f);
            return true;
        case TINYGLTF_COMPONENT_TYPE_BYTE:
            if (!normalized) return false;
            convert(std::int8_t{}, 1.0f / 127.0f, -1.0f);
            return true;
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
            if (!normalized) return false;
            convert(std::uint16_t{}, 1.0f / 65535.0f, 0.0f);
            return true;
        case TINYGLTF_COMPONENT_TYPE_SHORT:
            if (!normalized) return false;
            convert(std::int16_t{}, 1.0f / 32767.0f, -1.0f);
            return true;
        default: return false;
    }
}

// `count` tightly packed elements of `elementSize` bytes at byteOffset of buffer view
// `bufferView`, checked against the view and its buffer (a sparse accessor's indices or
// values); nullptr on any fault.
const unsigned char* packedRange(const tinygltf::Model& model, int bufferView, std::size_t byteOffset,
                                 std::size_t count, std::size_t elementSize) {
    if (bufferView < 0 || static_cast<std::size_t>(bufferView) >= model.bufferViews.size()) return nullptr;
    const tinygltf::BufferView& view = model.bufferViews[static_cast<std::size_t>(bufferView)];
    if (view.buffer < 0 || static_cast<std::size_t>(view.buffer) >= model.buffers.size()) return nullptr;
    const tinygltf::Buffer& buffer = model.buffers[static_cast<std::size_t>(view.buffer)];
    if (view.byteOffset > buffer.data.size() || view.byteLength > buffer.data.size() - view.byteOffset) return nullptr;
    if (byteOffset > view.byteLength || count * elementSize > view.byteLength - byteOffset) return nullptr;
    return buffer.data.data() + view.byteOffset + byteOffset;
}

// Accessor `index` as floats (`components` per element; 0: the accessor's own count),
// converted by convertElements; a sparse accessor's substitutions applied over its base
// (the buffer view's elements, or zeros without one), with its indices checked to be
// below count. False on any fault.
bool decodeFloats(const tinygltf::Model& model, int index, std::size_t components, std::vector<float>& out) {
    if (index < 0 || static_cast<std::size_t>(index) >= model.accessors.size()) return false;
    const tinygltf::Accessor& accessor = model.accessors[static_cast<std::size_t>(index)];
    const int typeComponents = tinygltf::GetNumComponentsInType(static_cast<std::uint32_t>(accessor.type));
    if (typeComponents <= 0) return false;
    if (components == 0) components = static_cast<std::size_t>(typeComponents);
    if (static_cast<std::size_t>(typeComponents) != components) return false;
    const std::size_t n = accessor.count * components;
    if (accessor.bufferView < 0) {
        out.assign(n, 0.0f);
    } else {
        ElementView view;
        if (!elementView(model, accessor, components, view)) return false;
        out.resize(n);
        if (!convertElements(accessor.componentType, accessor.normalized, view.data, view.stride, accessor.count,
                             components, out.data())) {
            return false;
        }
    }
    if (!accessor.sparse.isSparse) return true;
    const auto& sparse = accessor.sparse;
    if (sparse.count <= 0) return false;
    const std::size_t sparseCount = static_cast<std::size_t>(sparse.count);
    const int indexSize = tinygltf::GetComponentSizeInBytes(static_cast<std::uint32_t>(sparse.indices.componentType));
    const int componentSize = tinygltf::GetComponentSizeInBytes(static_cast<std::uint32_t>(accessor.componentType));
    if (indexSize <= 0 || componentSize <= 0 || sparse.indices.byteOffset < 0 || sparse.values.byteOffset < 0) {
        return false;
    }
    const std::size_t elementSize = static_cast<std::size_t>(componentSize) * components;
    const unsigned char* indices =
        packedRange(model, sparse.indices.bufferView, static_cast<std::size_t>(sparse.indices.byteOffset), sparseCount,
                    static_cast<std::size_t>(indexSize));
    const unsigned char* values = packedRange(
        model, sparse.values.bufferView, static_cast<std::size_t>(sparse.values.byteOffset), sparseCount, elementSize);
    if (indices == nullptr || values == nullptr) return false;
    for (std::size_t i = 0; i < sparseCount; ++i, values += elementSize) {
        std::size_t target = 0;
        switch (sparse.indices.componentType) {
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: target = indices[i]; break;
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: target = readAt<std::uint16_t>(indices + 2 * i); break;
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: target = readAt<std::uint32_t>(indices + 4 * i); break;
            default: return false;
        }
        if (target >= accessor.count) return false;
        if (!convertElements(accessor.componentType, accessor.normalized, values, elementSize, 1, components,
                             out.data() + target * components)) {
            return false;
        }
    }
    return true;
}

// JOINTS_n: unsigned byte or short VEC4 to 16-bit joint indices.
bool decodeJoints(const tinygltf::Model& model, int index, std::vector<std::uint16_t>& out) {
    if (index < 0 || static_cast<std::size_t>(index) >= model.accessors.size()) return false;
    const tinygltf::Accessor& accessor = model.accessors[static_cast<std::size_t>(index)];
    if (accessor.sparse.isSparse || accessor.type != TINYGLTF_TYPE_VEC4) return false;
    ElementView view;
    if (!elementView(model, accessor, 4, view)) return false;
    out.resize(accessor.count * 4);
    std::uint16_t* dst = out.data();
    const unsigned char* src = view.data;
    if (accessor.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT) {
        if (view.stride == view.elementSize) {
            std::memcpy(dst, src, out.size() * sizeof(std::uint16_t));
        } else {
            for (std::size_t e = 0; e < accessor.count; ++e, src += view.stride, dst += 4) std::memcpy(dst, src, 8);
        }
        return true;
    }
    if (accessor.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE) {
        for (std::size_t e = 0; e < accessor.count; ++e, src += view.stride) {
            for (std::size_t c = 0; c < 4; ++c) *dst++ = src[c];
        }
        return true;
    }
    return false;
}

template <std::size_t N>
bool copyDoubles(const std::vector<double>& from, std::array<float, N>& to) {
    if (from.empty()) return true;  // the default stays
    if (from.size() != N) return false;
    for (std::size_t i = 0; i < N; ++i) to[i] = static_cast<float>(from[i]);
    return true;
}

bool decodeAnimationPath(const tinygltf::Model& model, Decoded& out) {
    out.nodes.resize(model.nodes.size());
    for (std::size_t i = 0; i < model.nodes.size(); ++i) {
        const tinygltf::Node& node = model.nodes[i];
        NodeTransform& t = out.nodes[i];
        t.hasMatrix = !node.matrix.empty();
        if (!copyDoubles(node.matrix, t.matrix) || !copyDoubles(node.translation, t.translation) ||
            !copyDoubles(node.rotation, t.rotation) || !copyDoubles(node.scale, t.scale)) {
            return false;
        }
    }
    out.inverseBindMatrices.resize(model.skins.size());
    for (std::size_t i = 0; i < model.skins.size(); ++i) {
        const tinygltf::Skin& skin = model.skins[i];
        if (skin.inverseBindMatrices < 0) continue;
        if (!decodeFloats(model, skin.inverseBindMatrices, 16, out.inverseBindMatrices[i])) return false;
    }
    std::vector<int> inputSlot(model.accessors.size(), -1);
    for (const tinygltf::Animation& animation : model.animations) {
        for (const tinygltf::AnimationSampler& sampler : animation.samplers) {
            if (sampler.input < 0 || static_cast<std::size_t>(sampler.input) >= inputSlot.size()) return false;
            int& slot = inputSlot[static_cast<std::size_t>(sampler.input)];
            if (slot < 0) {
                slot = static_cast<int>(out.inputs.size());
                if (!decodeFloats(model, sampler.input, 1, out.inputs.emplace_back())) return false;
            }
            if (!decodeFloats(model, sampler.output, 0, out.outputs.emplace_back())) return false;
        }
    }
    for (const tinygltf::Mesh& mesh : model.meshes) {
        std::vector<float>& meshWeights = out.meshWeights.emplace_back(mesh.weights.size());
        for (std::size_t w = 0; w < mesh.weights.size(); ++w) meshWeights[w] = static_cast<float>(mesh.weights[w]);
        for (const tinygltf::Primitive& primitive : mesh.primitives) {
            DecodedPrimitive& p = out.primitives.emplace_back();
            const auto position = primitive.attributes.find("POSITION");
            if (position == primitive.attributes.end() || !decodeFloats(model, position->second, 3, p.positions)) {
                return false;
            }
            const auto joints = primitive.attributes.find("JOINTS_0");
            const auto weights = primitive.attributes.find("WEIGHTS_0");
            if ((joints == primitive.attributes.end()) != (weights == primitive.attributes.end())) return false;
            if (joints != primitive.attributes.end()) {
                if (!decodeJoints(model, joints->second, p.joints) ||
                    !decodeFloats(model, weights->second, 4, p.weights)) {
                    return false;
                }
            }
            p.morphPositions.resize(primitive.targets.size());
            p.morphNormals.resize(primitive.targets.size());
            for (std::size_t t = 0; t < primitive.targets.size(); ++t) {
                const auto deltaPositions = primitive.targets[t].find("POSITION");
                if (deltaPositions != primitive.targets[t].end() &&
                    !decodeFloats(model, deltaPositions->second, 3, p.morphPositions[t])) {
                    return false;
                }
                const auto deltaNormals = primitive.targets[t].find("NORMAL");
                if (deltaNormals != primitive.targets[t].end() &&
                    !decodeFloats(model, deltaNormals->second, 3, p.morphNormals[t])) {
                    return false;
                }
            }
        }
    }
    return true;
}

// Images are not decoded: the loader keeps nothing (kinema's import does not decode them).
bool skipImage(tinygltf::Image*, const int, std::string*, std::string*, int, int, const unsigned char*, int, void*) {
    return true;
}

// ---------------------------------------------------------------------------------
// Shared set-up: the model's bytes, read once, checked to load with every library, and
// kinema's and tinygltf's decoded amounts compared so that the work is the same.

struct Prepared {
    GltfSource source;
    const unsigned char* data = nullptr;
    unsigned int size = 0;
    bool binary = true;                              // .glb; else .gltf JSON, external buffers relative to baseDir
    std::string path;                                // the model file
    std::string baseDir;                             // its folder
    std::size_t kinemaPositions = 0;                 // kinema's decoded positions, for the Assimp check
    std::vector<std::filesystem::path> bufferFiles;  // .gltf: its external buffers
};

bool tinyLoad(tinygltf::TinyGLTF& loader, tinygltf::Model& model, const Prepared& p, std::string& err) {
    std::string warn;
    if (p.binary) return loader.LoadBinaryFromMemory(&model, &err, &warn, p.data, p.size, "");
    return loader.LoadASCIIFromString(&model, &err, &warn, reinterpret_cast<const char*>(p.data), p.size, p.baseDir);
}

bool prepare(benchmark::State& state, const std::string& name, Prepared& p) {
    const auto file = kinema::bench::findModelFile(kinema::bench::assetsDir() / name);
    if (!file) {
        state.SkipWithError(kinema::bench::missingModelMessage(name).c_str());
        return false;
    }
    auto bytes = kinema::readFileBytes(*file);
    if (!bytes) {
        state.SkipWithError(bytes.message().c_str());
        return false;
    }
    p.source = GltfSource{std::move(*bytes), file->parent_path(), file->filename().string()};
    p.data = reinterpret_cast<const unsigned char*>(p.source.bytes->data());
    p.size = static_cast<unsigned int>(p.source.bytes->size());
    p.binary = file->extension() == ".glb";
    p.path = file->string();
    p.baseDir = file->parent_path().string();

    ImportOptions animationPath;
    animationPath.decodeRenderAttributes = false;
    auto model = kinema::importGltf(p.source, animationPath);
    if (!model) {
        state.SkipWithError(("kinema import of " + file->string() + " failed: " + model.message()).c_str());
        return false;
    }
    tinygltf::TinyGLTF loader;
    loader.SetImageLoader(skipImage, nullptr);
    tinygltf::Model tiny;
    std::string err;
    Decoded decoded;
    if (!tinyLoad(loader, tiny, p, err) || !decodeAnimationPath(tiny, decoded)) {
        state.SkipWithError(("tinygltf load or decode of " + file->string() + " failed: " + err).c_str());
        return false;
    }
    // Equal work: the same vertices, influences, inverse bind matrices, nodes and
    // samplers (tracks) on both sides.
    std::size_t kPositions = 0, kJoints = 0, kWeights = 0, kIbm = 0, tPositions = 0, tJoints = 0, tWeights = 0,
                tIbm = 0, kTracks = 0;
    for (const auto& mesh : model->meshes) {
        for (const auto& prim : mesh.primitives) {
            kPositions += prim.positions.size() * 3;
            kJoints += prim.joints.size();
            kWeights += prim.weights.size();
        }
    }
    std::size_t kMorph = 0, tMorph = 0;
    for (const auto& mesh : model->meshes) {
        for (const auto& prim : mesh.primitives) {
            for (const auto& target : prim.targets) kMorph += (target.positions.size() + target.normals.size()) * 3;
        }
    }
    for (const auto& prim : decoded.primitives) tMorph += prim.morphFloats();
    for (const auto& skin : model->skins) kIbm += skin.inverseBindMatrices.size() * 16;
    for (const auto& clip : model->clips) kTracks += clip.tracks().size();
    for (const auto& prim : decoded.primitives) {
        tPositions += prim.positions.size();
        tJoints += prim.joints.size();
        tWeights += prim.weights.size();
    }
    for (const auto& m : decoded.inverseBindMatrices) tIbm += m.size();
    if (kPositions != tPositions || kJoints != tJoints || kWeights != tWeights || kIbm != tIbm || kMorph != tMorph ||
        model->nodeCount() != decoded.nodes.size() || kTracks != decoded.outputs.size()) {
        const std::string message = "kinema and tinygltf decode different amounts of " + file->string() +
            ": positions " + std::to_string(kPositions) + "/" + std::to_string(tPositions) + ", joints " +
            std::to_string(kJoints) + "/" + std::to_string(tJoints) + ", weights " + std::to_string(kWeights) + "/" +
            std::to_string(tWeights) + ", inverse bind floats " + std::to_string(kIbm) + "/" + std::to_string(tIbm) +
            ", nodes " + std::to_string(model->nodeCount()) + "/" + std::to_string(decoded.nodes.size()) + ", tracks " +
            std::to_string(kTracks) + "/" + std::to_string(decoded.outputs.size()) + ", morph delta floats " +
            std::to_string(kMorph) + "/" + std::to_string(tMorph);
        state.SkipWithError(message.c_str());
        return false;
    }
    // And the same values: every decoded position, primitive by primitive in file order.
    std::size_t primitive = 0;
    for (const auto& mesh : model->meshes) {
        for (const auto& prim : mesh.primitives) {
            const std::vector<float>& t = decoded.primitives[primitive++].positions;
            for (std::size_t v = 0; v < prim.positions.size(); ++v) {
                if (prim.positions[v].x != t[3 * v] || prim.positions[v].y != t[3 * v + 1] ||
                    prim.positions[v].z != t[3 * v + 2]) {
                    state.SkipWithError(("kinema and tinygltf positions differ in " + file->string()).c_str());
                    return false;
                }
            }
            const auto& tMorphPositions = decoded.primitives[primitive - 1].morphPositions;
            for (std::size_t target = 0; target < prim.targets.size(); ++target) {
                const auto& k = prim.targets[target].positions;
                const std::vector<float>& d = tMorphPositions[target];
                for (std::size_t v = 0; v < k.size(); ++v) {
                    if (k[v].x != d[3 * v] || k[v].y != d[3 * v + 1] || k[v].z != d[3 * v + 2]) {
                        state.SkipWithError(
                            ("kinema and tinygltf morph position deltas differ in " + file->string()).c_str());
                        return false;
                    }
                }
            }
        }
    }
    p.kinemaPositions = kPositions;
    std::string external;
    if (!p.binary) {
        std::uintmax_t binBytes = 0;
        std::size_t count = 0;
        for (const tinygltf::Buffer& buffer : tiny.buffers) {
            if (!buffer.uri.empty() && buffer.uri.rfind("data:", 0) != 0) {
                p.bufferFiles.push_back(file->parent_path() / buffer.uri);
                ++count;
                binBytes += buffer.data.size();
            }
        }
        if (count > 0) external = " + " + std::to_string(count) + " .bin (" + std::to_string(binBytes) + " B)";
    }
    state.SetLabel(file->filename().string() + external + ", " + std::to_string(p.size / 1024) + " KiB, " +
                   std::to_string(decoded.floatCount()) + " floats + " + std::to_string(tJoints) +
                   " joints on the animation path");
    return true;
}

void setBytes(benchmark::State& state, const Prepared& p) {
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(p.size));
}

// ---------------------------------------------------------------------------------
// The benchmarks.

void kinemaImport(benchmark::State& state, const std::string& name, bool renderAttributes) {
    Prepared p;
    if (!prepare(state, name, p)) return;
    GltfImporter importer;
    ImportOptions options;
    options.decodeRenderAttributes = renderAttributes;
    for (auto _ : state) {
        auto result = importer.import(p.source, options);
        benchmark::DoNotOptimize(result);
    }
    setBytes(state, p);
}

// tinygltf's parse, and with `decode` also the accessors kinema's animation path decodes.
void tinygltfImport(benchmark::State& state, const std::string& name, bool decode) {
    Prepared p;
    if (!prepare(state, name, p)) return;
    tinygltf::TinyGLTF loader;
    loader.SetImageLoader(skipImage, nullptr);
    for (auto _ : state) {
        tinygltf::Model model;
        std::string err;
        Decoded decoded;
        const bool ok = tinyLoad(loader, model, p, err) && (!decode || decodeAnimationPath(model, decoded));
        benchmark::DoNotOptimize(ok);
        benchmark::DoNotOptimize(model);
        benchmark::DoNotOptimize(decoded);
    }
    setBytes(state, p);
}

// The file I/O in every library's import of a .gltf with external buffers: each buffer
// file read whole with kinema::readFileBytes (open, fstat, read, close), as kinema's import
// reads it. Not an import; it says how much of the import times above is file I/O.
void bufferFiles(benchmark::State& state, const std::string& name) {
    Prepared p;
    if (!prepare(state, name, p)) return;
    if (p.bufferFiles.empty()) {
        state.SkipWithError((p.path + " has no external buffer files").c_str());
        return;
    }
    for (auto _ : state) {
        for (const auto& file : p.bufferFiles) {
            auto bytes = kinema::readFileBytes(file);
            if (!bytes) {
                state.SkipWithError(bytes.message().c_str());
                return;
            }
            benchmark::DoNotOptimize(bytes);
        }
    }
    setBytes(state, p);
}

// Assimp's file system for a .gltf: the model's own path from the bytes in memory (as
// ReadFileFromMemory would), every other file (its external buffers) from disk.
class ModelIOSystem : public Assimp::IOSystem {
public:
    ModelIOSystem(std::string path, const unsigned char* data, std::size_t size)
        : path_(std::move(path)), data_(data), size_(size) {}
    bool Exists(const char* file) const override { return path_ == file || disk_.Exists(file); }
    char getOsSeparator() const override { return disk_.getOsSeparator(); }
    Assimp::IOStream* Open(const char* file, const char* mode) override {
        if (path_ == file) return new Assimp::MemoryIOStream(data_, size_, false);
        return disk_.Open(file, mode);
    }
    void Close(Assimp::IOStream* stream) override { delete stream; }

private:
    std::string path_;
    const unsigned char* data_;
    std::size_t size_;
    Assimp::DefaultIOSystem disk_;
};

const aiScene* assimpLoad(Assimp::Importer& importer, const Prepared& p) {
    if (p.binary) return importer.ReadFileFromMemory(p.data, p.size, 0, "glb");
    return importer.ReadFile(p.path, 0);
}

void assimpRead(benchmark::State& state, const std::string& name) {
    Prepared p;
    if (!prepare(state, name, p)) return;
    Assimp::Importer importer;
    if (!p.binary) importer.SetIOHandler(new ModelIOSystem(p.path, p.data, p.size));  // owned by importer
    const aiScene* check = assimpLoad(importer, p);
    if (check == nullptr) {
        state.SkipWithError(("Assimp failed: " + std::string(importer.GetErrorString())).c_str());
        return;
    }
    // Equal work, as far as Assimp's scene shows it: the vertices kinema decodes (one
    // aiMesh per primitive) with the same values (sparse accessors applied), the same
    // number of morph targets per primitive and of animations.
    std::size_t positions = 0;
    for (unsigned int m = 0; m < check->mNumMeshes; ++m) positions += std::size_t{check->mMeshes[m]->mNumVertices} * 3;
    if (positions != p.kinemaPositions) {
        state.SkipWithError(("Assimp and kinema decode different numbers of positions of " + p.path + ": " +
                             std::to_string(positions) + "/" + std::to_string(p.kinemaPositions))
                                .c_str());
        return;
    }
    // Assimp numbers its meshes in the order its reader first reaches them, not in file
    // order, so each of kinema's primitives is matched with an unused aiMesh of equal
    // positions.
    {
        auto model = kinema::importGltf(p.source);
        std::vector<bool> used(check->mNumMeshes, false);
        std::size_t primitive = 0;
        for (const auto& mesh : model->meshes) {
            for (const auto& prim : mesh.primitives) {
                bool found = false;
                for (unsigned int m = 0; m < check->mNumMeshes && !found; ++m) {
                    const aiMesh* a = check->mMeshes[m];
                    if (used[m] || a->mNumVertices != prim.positions.size() ||
                        a->mNumAnimMeshes != prim.targets.size()) {
                        continue;
                    }
                    bool same = true;
                    for (std::size_t v = 0; v < prim.positions.size() && same; ++v) {
                        same = a->mVertices[v].x == prim.positions[v].x && a->mVertices[v].y == prim.positions[v].y &&
                            a->mVertices[v].z == prim.positions[v].z;
                    }
                    if (same) used[m] = found = true;
                }
                if (!found) {
                    state.SkipWithError(("no Assimp mesh has the positions of kinema's primitive " +
                                         std::to_string(primitive) + " of " + p.path)
                                            .c_str());
                    return;
                }
                ++primitive;
            }
        }
        if (check->mNumAnimations != model->clips.size()) {
            state.SkipWithError(("Assimp has " + std::to_string(check->mNumAnimations) + " animations, kinema " +
                                 std::to_string(model->clips.size()) + " clips, in " + p.path)
                                    .c_str());
            return;
        }
    }
    importer.FreeScene();
    for (auto _ : state) {
        const aiScene* scene = assimpLoad(importer, p);
        benchmark::DoNotOptimize(scene);
        importer.FreeScene();
    }
    setBytes(state, p);
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    // Per model, the libraries next to each other.
    for (const std::string& name : modelNames()) {
        benchmark::RegisterBenchmark((name + "/kinema").c_str(), kinemaImport, name, true)
            ->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark((name + "/kinema_animpath").c_str(), kinemaImport, name, false)
            ->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark((name + "/tinygltf_parse").c_str(), tinygltfImport, name, false)
            ->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark((name + "/tinygltf_decode").c_str(), tinygltfImport, name, true)
            ->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark((name + "/assimp").c_str(), assimpRead, name)->Unit(benchmark::kMicrosecond);
        const auto file = kinema::bench::findModelFile(kinema::bench::assetsDir() / name);
        if (file && file->extension() == ".gltf") {
            benchmark::RegisterBenchmark((name + "/buffer_files").c_str(), bufferFiles, name)
                ->Unit(benchmark::kMicrosecond);
        }
    }
    benchmark::AddCustomContext("kinema_assets", kinema::bench::assetsDir().string());
    benchmark::AddCustomContext("assimp",
                                "Assimp::Importer::ReadFileFromMemory, flags 0 (.gltf: ReadFile through an IOSystem "
                                "serving the model file from memory, external buffers from disk)");
    benchmark::AddCustomContext("tinygltf",
                                "TinyGLTF::LoadBinaryFromMemory (.gltf: LoadASCIIFromString, base dir the model's "
                                "folder), no image decoding");
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
