#include "kinema/render/validation.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <utility>

#include "kinema/core/counted.hpp"

namespace kinema {
namespace {

using std::to_string;

// Collects faults; `where` strings are built by the caller.
struct Faults {
    std::vector<Fault> list;
    void add(std::string where, std::string what) { list.push_back({std::move(where), std::move(what)}); }
};

// The components of one stream element, so one finiteness check serves every stream.
std::array<float, 1> components(float value) { return {value}; }
std::array<float, 3> components(Vec3 value) { return {value.x, value.y, value.z}; }
template <std::size_t N>
std::array<float, N> components(const std::array<float, N>& value) {
    return value;
}

std::string text(std::span<const float> values) {
    if (values.size() == 1) return exactNumber(values[0]);
    std::string out = "(";
    for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + exactNumber(values[i]);
    return out + ")";
}

bool finite(std::span<const float> values) {
    for (const float v : values)
        if (!std::isfinite(v)) return false;
    return true;
}

// The first element holding NaN or an infinity is reported, with how many others do.
template <class T>
void checkFinite(Faults& faults, const std::string& where, const std::vector<T>& values, const char* one) {
    std::size_t first = values.size();
    std::size_t bad = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (finite(components(values[i]))) continue;
        if (bad++ == 0) first = i;
    }
    if (bad == 0) return;
    std::string what =
        std::string(one) + " " + to_string(first) + " is " + text(components(values[first])) + ", which is not finite";
    if (bad > 1) what += "; " + counted(bad - 1, "more is", "more are") + " not finite either";
    faults.add(where + "/" + to_string(first), std::move(what));
}

// An optional per-vertex stream: empty, or exactly one entry per vertex.
void checkPerVertex(Faults& faults, const std::string& where, std::size_t size, std::size_t vertices,
                    const char* many) {
    if (size == 0 || size == vertices) return;
    faults.add(where,
               "holds " + counted(size, "entry", "entries") + "; " + many + " are either absent or one per vertex (" +
                   counted(vertices, "vertex", "vertices") + ")");
}

// An id another entry refers to: assigned, and naming an entry of the catalogue.
template <class Id>
void checkReference(Faults& faults, const std::string& where, Id id, std::size_t count, const char* one,
                    const char* many) {
    if (!id.valid()) {
        faults.add(where, std::string("no ") + one + " assigned");
    } else if (id.value >= count) {
        faults.add(where,
                   std::string(one) + " " + to_string(id.value) + " is out of range: the catalogue has " +
                       counted(count, one, many));
    }
}

template <class Enum>
void checkEnum(Faults& faults, const std::string& where, Enum value, Enum last, const char* names) {
    const auto raw = static_cast<unsigned>(value);
    if (raw > static_cast<unsigned>(last)) faults.add(where, to_string(raw) + " is not one of " + names);
}

void checkImage(Faults& faults, const std::string& at, const ImageRGBA8& image) {
    const std::string extent = to_string(image.width) + " x " + to_string(image.height);
    if (image.width == 0 || image.height == 0) {
        faults.add(at, "extent " + extent + " has no pixels: width and height must be at least 1");
        return;
    }
    // Two 32-bit factors cannot overflow 64 bits; the factor 4 can, so it is checked
    // against the largest size_t before it is applied.
    const std::uint64_t pixels = std::uint64_t{image.width} * std::uint64_t{image.height};
    constexpr std::uint64_t kMaxBytes = std::numeric_limits<std::size_t>::max();
    if (pixels > kMaxBytes / 4) {
        faults.add(at,
                   "extent " + extent + " needs " + to_string(pixels) +
                       " pixels of 4 bytes, more bytes than a size_t can count");
        return;
    }
    const std::uint64_t bytes = pixels * 4;
    if (image.pixels.size() != bytes) {
        faults.add(at + "/pixels",
                   "holds " + counted(image.pixels.size(), "byte", "bytes") + "; " + extent + " RGBA8 pixels need " +
                       to_string(bytes));
    }
}

void checkTexture(Faults& faults, const std::string& at, const TextureDesc& texture, std::size_t images) {
    checkReference(faults, at + "/image", texture.image, images, "image", "images");
    const char* filters = "Nearest (0), Linear (1)";
    const char* wraps = "Repeat (0), MirroredRepeat (1), ClampToEdge (2)";
    checkEnum(faults, at + "/minFilter", texture.minFilter, TextureFilter::Linear, filters);
    checkEnum(faults, at + "/magFilter", texture.magFilter, TextureFilter::Linear, filters);
    checkEnum(faults, at + "/wrapU", texture.wrapU, TextureWrap::ClampToEdge, wraps);
    checkEnum(faults, at + "/wrapV", texture.wrapV, TextureWrap::ClampToEdge, wraps);
}

void checkMaterial(Faults& faults, const std::string& at, const MaterialDesc& material, std::size_t textures) {
    for (std::size_t c = 0; c < material.baseColorFactor.size(); ++c) {
        const float v = material.baseColorFactor[c];
        if (!std::isfinite(v)) faults.add(at + "/baseColorFactor/" + to_string(c), exactNumber(v) + " is not finite");
    }
    if (material.baseColorTexture) {
        checkReference(faults, at + "/baseColorTexture", *material.baseColorTexture, textures, "texture", "textures");
    }
    checkEnum(faults, at + "/alphaMode", material.alphaMode, AlphaMode::Blend, "Opaque (0), Mask (1), Blend (2)");
    const float cutoff = material.alphaCutoff;
    if (!std::isfinite(cutoff)) {
        faults.add(at + "/alphaCutoff", exactNumber(cutoff) + " is not finite");
    } else if (cutoff < 0.0f) {
        faults.add(at + "/alphaCutoff", exactNumber(cutoff) + " is negative");
    }
}

void checkIndices(Faults& faults, const std::string& at, const RenderMesh& mesh) {
    const std::size_t count = mesh.indices.size();
    if (count == 0) {
        faults.add(at, "no indices: a render mesh is an indexed triangle list");
        return;
    }
    if (count % 3 != 0) {
        faults.add(at, counted(count, "index is", "indices are") + " not whole triangles (a multiple of 3)");
    }
    const std::size_t vertices = mesh.vertexCount();
    std::size_t first = count;
    std::size_t bad = 0;
    for (std::size_t i = 0; i < count; ++i) {
        if (mesh.indices[i] < vertices) continue;
        if (bad++ == 0) first = i;
    }
    if (bad == 0) return;
    std::string what =
        "index " + to_string(mesh.indices[first]) + " is not below the vertex count " + to_string(vertices);
    if (bad > 1) what += "; " + counted(bad - 1, "more index is", "more indices are") + " out of range too";
    faults.add(at + "/" + to_string(first), std::move(what));
}

void checkInfluences(Faults& faults, const std::string& at, const RenderMesh& mesh) {
    const std::size_t vertices = mesh.vertexCount();
    const std::size_t n = mesh.influencesPerVertex;
    if (n != 0 && vertices > std::numeric_limits<std::size_t>::max() / n) {
        faults.add(at + "/influencesPerVertex",
                   to_string(vertices) + " vertices x " + to_string(n) +
                       " influences is more entries than a size_t can count");
        return;
    }
    const std::size_t expected = vertices * n;
    const std::string need = n == 0
        ? std::string("none, as influencesPerVertex is 0")
        : to_string(expected) + " (" + counted(vertices, "vertex", "vertices") + " x " + to_string(n) + " influences)";
    if (mesh.joints.size() != expected) {
        faults.add(at + "/joints", "holds " + counted(mesh.joints.size(), "entry", "entries") + "; expected " + need);
    }
    if (mesh.weights.size() != expected) {
        faults.add(at + "/weights", "holds " + counted(mesh.weights.size(), "entry", "entries") + "; expected " + need);
    }
}

void checkMesh(Faults& faults, const std::string& at, const RenderMesh& mesh) {
    const std::size_t vertices = mesh.vertexCount();
    if (vertices == 0) faults.add(at + "/positions", "no vertices: a mesh needs at least one");
    checkIndices(faults, at + "/indices", mesh);
    checkPerVertex(faults, at + "/normals", mesh.normals.size(), vertices, "normals");
    checkPerVertex(faults, at + "/texcoords", mesh.texcoords.size(), vertices, "texture coordinates");
    checkPerVertex(faults, at + "/colors", mesh.colors.size(), vertices, "vertex colours");
    checkInfluences(faults, at, mesh);
    for (std::size_t t = 0; t < mesh.targets.size(); ++t) {
        const std::string target = at + "/targets/" + to_string(t);
        checkPerVertex(faults, target + "/positions", mesh.targets[t].positions.size(), vertices,
                       "position displacements");
        checkPerVertex(faults, target + "/normals", mesh.targets[t].normals.size(), vertices, "normal displacements");
    }
    checkFinite(faults, at + "/positions", mesh.positions, "position");
    checkFinite(faults, at + "/normals", mesh.normals, "normal");
    checkFinite(faults, at + "/texcoords", mesh.texcoords, "texture coordinate");
    checkFinite(faults, at + "/colors", mesh.colors, "colour");
    checkFinite(faults, at + "/weights", mesh.weights, "weight");
    for (std::size_t t = 0; t < mesh.targets.size(); ++t) {
        const std::string target = at + "/targets/" + to_string(t);
        checkFinite(faults, target + "/positions", mesh.targets[t].positions, "displacement");
        checkFinite(faults, target + "/normals", mesh.targets[t].normals, "displacement");
    }
}

}  // namespace

std::vector<Fault> findRenderFaults(const RenderCatalogue& catalogue) {
    Faults faults;
    const auto images = catalogue.images();
    const auto textures = catalogue.textures();
    const auto materials = catalogue.materials();
    const auto meshes = catalogue.meshes();
    const auto objects = catalogue.renderObjects();
    for (std::size_t i = 0; i < images.size(); ++i) checkImage(faults, "images/" + to_string(i), images[i]);
    for (std::size_t i = 0; i < textures.size(); ++i) {
        checkTexture(faults, "textures/" + to_string(i), textures[i], images.size());
    }
    for (std::size_t i = 0; i < materials.size(); ++i) {
        checkMaterial(faults, "materials/" + to_string(i), materials[i], textures.size());
    }
    for (std::size_t i = 0; i < meshes.size(); ++i) checkMesh(faults, "meshes/" + to_string(i), meshes[i]);
    for (std::size_t i = 0; i < objects.size(); ++i) {
        const std::string at = "renderObjects/" + to_string(i);
        checkReference(faults, at + "/mesh", objects[i].mesh, meshes.size(), "mesh", "meshes");
        checkReference(faults, at + "/material", objects[i].material, materials.size(), "material", "materials");
    }
    return std::move(faults.list);
}

}  // namespace kinema
