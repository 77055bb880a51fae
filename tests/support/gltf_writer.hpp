// Test helper: builds small glTF 2.0 files in code (a JSON document plus one
// binary buffer) and emits them as .gltf text with an embedded data: URI, as
// .glb bytes, or as a GltfSource ready for importGltf.
//
// Meant for fixtures: every piece of the document stays editable through
// json(), so a test can build a valid file and then damage exactly one field.
// Nothing here checks that the file is valid glTF; that is the importer's job.
//
//   GltfWriter w;
//   const auto times = w.addFloats("SCALAR", {0.0f, 1.0f});
//   const auto moves = w.addFloats("VEC3", {0, 0, 0, 1, 2, 3});
//   const auto node = w.addNode({.name = "box"});
//   w.addAnimation({{.input = times, .output = moves}}, {{.sampler = 0, .node = node, .path = "translation"}});
//   w.json()["accessors"][moves]["count"] = 4294967295u;   // now hostile
//   auto result = importGltf(w.gltfSource());
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "kinema/io/gltf.hpp"

namespace kinema::test {

// glTF accessor component types.
inline constexpr std::uint32_t kByte = 5120;
inline constexpr std::uint32_t kUnsignedByte = 5121;
inline constexpr std::uint32_t kShort = 5122;
inline constexpr std::uint32_t kUnsignedShort = 5123;
inline constexpr std::uint32_t kUnsignedInt = 5125;
inline constexpr std::uint32_t kFloat = 5126;

// Bytes per component of a glTF component type (0 for an unknown code).
std::size_t componentBytes(std::uint32_t componentType);
// Components per element of "SCALAR", "VEC2".."VEC4", "MAT2".."MAT4" (0 if unknown).
std::size_t componentCount(std::string_view type);
// Bytes of one element as the glTF spec lays it out: matrix columns start on
// 4-byte boundaries (MAT2/MAT3 of bytes, MAT3 of shorts are padded).
std::size_t elementBytes(std::uint32_t componentType, std::string_view type);

// A minimal JSON value: enough to build, edit and damage glTF documents.
// Objects keep their keys in insertion order.
class Json {
public:
    enum class Kind : std::uint8_t { Null, Bool, Int, Uint, Double, String, Array, Object, Raw };

    Json() = default;
    Json(std::nullptr_t) {}
    Json(bool b) : kind_(Kind::Bool), bool_(b) {}
    template <class T>
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>) Json(T v) {
        if constexpr (std::is_signed_v<T>) {
            kind_ = Kind::Int;
            int_ = v;
        } else {
            kind_ = Kind::Uint;
            uint_ = v;
        }
    }
    Json(double d) : kind_(Kind::Double), double_(d) {}
    Json(float f) : kind_(Kind::Double), double_(f) {}
    Json(const char* s) : kind_(Kind::String), text_(s) {}
    Json(std::string s) : kind_(Kind::String), text_(std::move(s)) {}
    Json(std::string_view s) : kind_(Kind::String), text_(s) {}

    static Json array(std::vector<Json> items = {});
    static Json object();
    // Text written verbatim by dump() (e.g. "1e400", "-0", or something that is not JSON at all).
    static Json raw(std::string text);
    // An array of numbers.
    template <class T>
    static Json numbers(std::span<const T> values) {
        Json a = array();
        for (const T& v : values) a.items_.emplace_back(v);
        return a;
    }
    template <class T>
    static Json numbers(const std::vector<T>& values) {
        return numbers(std::span<const T>(values));
    }
    template <class T, std::size_t N>
    static Json numbers(const std::array<T, N>& values) {
        return numbers(std::span<const T>(values));
    }

    Kind kind() const noexcept { return kind_; }
    bool isNull() const noexcept { return kind_ == Kind::Null; }
    // The value of a number (Int, Uint or Double); throws for anything else.
    double number() const;

    // Object member, inserted as null when absent (a null value becomes an object first).
    Json& operator[](std::string_view key);
    // Array element; it must exist.
    Json& operator[](std::size_t index);
    const Json& operator[](std::size_t index) const;
    // Object member; it must exist.
    const Json& at(std::string_view key) const;
    bool contains(std::string_view key) const;
    void erase(std::string_view key);
    // Appends to an array (a null value becomes an array first); returns the new element.
    Json& push(Json value);
    // Array items or object members.
    std::size_t size() const noexcept { return items_.size(); }

    // Compact JSON text.
    std::string dump() const;

private:
    void dumpTo(std::string& out) const;

    Kind kind_ = Kind::Null;
    bool bool_ = false;
    std::int64_t int_ = 0;
    std::uint64_t uint_ = 0;
    double double_ = 0.0;
    std::string text_;               // string value or raw text
    std::vector<std::string> keys_;  // object keys, parallel to items_
    std::vector<Json> items_;
};

// Raw component values (as stored: integers for integer types) for an accessor.
struct AccessorData {
    std::uint32_t componentType = kFloat;
    std::string type = "SCALAR";
    std::vector<double> values{};  // count * components, glTF order (matrices column-major)
    bool normalized = false;
    // Bytes from one element to the next (written as the view's byteStride);
    // 0: tightly packed and no byteStride. Gap bytes are filled with 0xEE.
    std::size_t byteStride = 0;
    // The accessor's byteOffset into its own view; the skipped bytes are 0xEE.
    std::size_t byteOffset = 0;
};

// The sparse part of an accessor: element indices[i] is replaced by element i of values.
struct SparseData {
    std::uint32_t indexComponentType = kUnsignedInt;
    std::vector<std::uint32_t> indices{};
    std::vector<double> values{};       // indices.size() * components raw component values
    std::size_t indicesByteOffset = 0;  // byteOffset of sparse.indices (skipped bytes are 0xEE)
    std::size_t valuesByteOffset = 0;   // byteOffset of sparse.values
};

struct NodeSpec {
    std::string name{};
    std::optional<std::array<double, 3>> translation{};
    std::optional<std::array<double, 4>> rotation{};  // x, y, z, w
    std::optional<std::array<double, 3>> scale{};
    std::optional<std::array<double, 16>> matrix{};  // column-major
    std::vector<std::uint32_t> children{};
    std::optional<std::uint32_t> mesh{};
    std::optional<std::uint32_t> skin{};
    std::vector<double> weights{};
};

using Attributes = std::vector<std::pair<std::string, std::uint32_t>>;  // semantic -> accessor

struct PrimitiveSpec {
    Attributes attributes{};
    std::optional<std::uint32_t> indices{};
    std::optional<std::uint32_t> mode{};
    std::vector<Attributes> targets{};  // morph targets
};

struct SamplerSpec {
    std::uint32_t input = 0;
    std::uint32_t output = 0;
    std::string interpolation{};  // empty: omitted (glTF's default, LINEAR)
};

struct ChannelSpec {
    std::uint32_t sampler = 0;
    std::optional<std::uint32_t> node{};  // absent: a channel without a node (KHR_animation_pointer style)
    std::string path{};
};

class GltfWriter {
public:
    GltfWriter();  // {"asset": {"version": "2.0"}}

    // The document. Edit it freely; the writer only appends to its arrays, and
    // keeps buffers[0].byteLength equal to bin().size() each time it appends bytes.
    Json& json() noexcept { return doc_; }
    const Json& json() const noexcept { return doc_; }
    // The content of buffer 0 (the GLB BIN chunk, or the data: URI of a .gltf).
    std::vector<std::byte>& bin() noexcept { return bin_; }
    const std::vector<std::byte>& bin() const noexcept { return bin_; }

    // Adds names to extensionsUsed (and extensionsRequired when `required`).
    void useExtension(const std::string& name, bool required);

    // ---- binary data ---------------------------------------------------------
    // Appends bytes to buffer 0 after zero padding up to a multiple of `align`; returns their offset.
    std::size_t appendBytes(std::span<const std::byte> bytes, std::size_t align = 4);
    // A bufferView over bytes [byteOffset, byteOffset + byteLength) of buffer 0.
    std::uint32_t addBufferView(std::size_t byteOffset, std::size_t byteLength, std::size_t byteStride = 0);
    // Appends bytes and adds a bufferView over exactly them.
    std::uint32_t addBufferView(std::span<const std::byte> bytes, std::size_t byteStride = 0);

    // ---- accessors -------------------------------------------------------------
    // Only the JSON of an accessor (for interleaved layouts built by hand).
    // bufferView absent: the accessor has no view (zeros, or sparse only).
    std::uint32_t addAccessorJson(std::optional<std::uint32_t> bufferView, std::size_t byteOffset,
                                  std::uint32_t componentType, const std::string& type, std::size_t count,
                                  bool normalized = false);
    // Encodes data in its own bufferView and adds the accessor (with min/max when all values are finite).
    std::uint32_t addAccessor(const AccessorData& data);
    // Float accessor, tightly packed: the usual case.
    std::uint32_t addFloats(const std::string& type, const std::vector<float>& values);
    // A sparse accessor of `count` elements. base.values empty: no bufferView (all zeros
    // before substitution); else base.values holds all count elements.
    std::uint32_t addSparseAccessor(const AccessorData& base, std::size_t count, const SparseData& sparse);

    // Byte offset in bin() where accessor `accessor`'s data starts (its view's
    // byteOffset plus its own); the accessor must have a bufferView.
    std::size_t accessorDataOffset(std::uint32_t accessor) const;
    // Overwrites raw component `component` (counted over the whole accessor) of a
    // tightly packed scalar or vector accessor, e.g. to plant a NaN key time.
    void patchComponent(std::uint32_t accessor, std::size_t component, double value);

    // ---- scene structure -------------------------------------------------------
    std::uint32_t addNode(const NodeSpec& node);
    std::uint32_t addMesh(const std::vector<PrimitiveSpec>& primitives, const std::vector<double>& weights = {});
    std::uint32_t addSkin(const std::vector<std::uint32_t>& joints,
                          std::optional<std::uint32_t> inverseBindMatrices = {},
                          std::optional<std::uint32_t> skeleton = {});
    std::uint32_t addAnimation(const std::vector<SamplerSpec>& samplers, const std::vector<ChannelSpec>& channels,
                               const std::string& name = {});
    // Adds a scene; the first one added becomes the default "scene".
    std::uint32_t addScene(const std::vector<std::uint32_t>& nodes);

    // ---- output ------------------------------------------------------------------
    // .gltf text; buffer 0 gets a base64 data: URI unless the document already gives it a uri.
    std::string gltf() const;
    // .glb bytes: JSON chunk (space padded), then the BIN chunk when bin() is not empty.
    std::vector<std::byte> glb() const;
    GltfSource gltfSource(const std::string& name = "test.gltf") const;
    GltfSource glbSource(const std::string& name = "test.glb") const;

private:
    std::uint32_t append(std::string_view array, Json value);

    Json doc_;
    std::vector<std::byte> bin_;
};

// Raw components encoded little-endian as `componentType`, tightly packed (no matrix padding).
std::vector<std::byte> encodeComponents(std::uint32_t componentType, std::span<const double> values);
// Elements of `type` as glTF lays them out (matrix columns padded to 4 bytes), each
// `byteStride` apart (0: packed); padding and gaps are 0xEE.
std::vector<std::byte> encodeElements(std::uint32_t componentType, const std::string& type,
                                      std::span<const double> values, std::size_t byteStride = 0);

// A GLB container around given chunks, exactly as given (no padding added):
// header, JSON chunk, then the BIN chunk when `bin` is set.
std::vector<std::byte> makeGlb(std::string_view json, const std::optional<std::vector<std::byte>>& bin);

std::string base64(std::span<const std::byte> bytes);
std::vector<std::byte> toBytes(std::string_view text);
GltfSource makeSource(std::vector<std::byte> bytes, std::string name, std::filesystem::path baseDir = {});
GltfSource makeSource(std::string_view text, std::string name, std::filesystem::path baseDir = {});

// Little-endian u32 read/write inside a byte vector (for editing GLB headers).
std::uint32_t readU32(std::span<const std::byte> bytes, std::size_t at);
void writeU32(std::vector<std::byte>& bytes, std::size_t at, std::uint32_t value);

}  // namespace kinema::test
