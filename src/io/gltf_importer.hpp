// Internal to kinema/io: the glTF importer, one class whose passes live in one
// source file per job (gltf_import.cpp runs them in order):
//   gltf_document.cpp   faults and warnings, the memory budget, the container (GLB
//                       or JSON text), duplicate keys, asset and extensions
//   gltf_buffers.cpp    external resources, buffers, buffer views
//   gltf_accessors.cpp  accessors, their bounds, decoding them for a role
//   gltf_nodes.cpp      nodes, the skeleton, scenes, binding nodes to meshes and skins
//   gltf_materials.cpp  images, samplers, textures, materials, image decoding
//   gltf_cameras.cpp    cameras
//   gltf_meshes.cpp     meshes, primitives, morph targets and their names
//   gltf_influences.cpp skinning sets: joints and weights per vertex
//   gltf_skins.cpp      skins
//   gltf_animations.cpp animations, their rotation keys and markers
// Each pass records every fault it finds and carries on where that is safe. The
// JSON readers, the budget's fast path and the decoding template stay inline here:
// every pass calls them per field or per accessor.
#pragma once

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "accessor.hpp"
#include "kinema/asset/model.hpp"
#include "kinema/core/counted.hpp"
#include "kinema/core/quoted.hpp"
#include "kinema/io/gltf.hpp"
#include "resource.hpp"

namespace kinema::gltf_import {

// The words every fault of the import's memory budget holds (outOfMemoryBudget()).
inline constexpr std::string_view kBudgetWords = "; the import's memory budget of ";

namespace dom = simdjson::dom;
using gltf::AccessorDesc;
using gltf::ComponentType;
using gltf::ElementShape;

// Messages quote the file's own text (names, versions, URIs): control characters are
// shown as \xNN, so a file cannot move the cursor, recolour a terminal or forge a line
// of output, and a message is cut after 1000 bytes, so a huge string stays one line.
std::string printable(std::string text);

// The Khronos glTF-Validator's tolerances, so that strict import and the validator
// call the same files errors: |length - 1| of a unit quaternion, of a unit normal,
// and per non-zero weight of a vertex's weight sum (accumulated in float).
inline constexpr double kRotationUnitTolerance = 0.00769;
inline constexpr double kNormalUnitTolerance = 0.00674;
inline constexpr double kWeightSumTolerancePerWeight = 2e-7;

// A JSON pointer built without allocating; formatted only when a fault is recorded.
// Keys are views into the parsed document or string literals, both outliving it.
class Pointer {
public:
    Pointer() = default;
    Pointer operator/(std::string_view key) const {
        Pointer p = *this;
        p.push({key.data(), static_cast<std::uint32_t>(key.size()), false});
        return p;
    }
    Pointer operator/(std::size_t index) const {
        Pointer p = *this;
        p.push({nullptr, static_cast<std::uint32_t>(std::min<std::size_t>(index, 0xFFFFFFFFu)), true});
        return p;
    }
    std::string str() const {
        std::string s;
        for (std::size_t i = 0; i < n_; ++i) {
            s += '/';
            if (segs_[i].isIndex) {
                s += std::to_string(segs_[i].value);
            } else {
                appendPointerToken(s, std::string_view(segs_[i].key, segs_[i].value));
            }
        }
        return s;
    }

private:
    struct Segment {
        const char* key;
        std::uint32_t value;  // key length, or the array index
        bool isIndex;
    };
    void push(Segment s) {
        if (n_ < segs_.size()) segs_[n_++] = s;
    }
    std::array<Segment, 8> segs_;
    std::uint8_t n_ = 0;
};

// Which component encodings an accessor may use for a given role.
enum Allow : unsigned {
    kFloat = 1u << 0,
    kInt8Norm = 1u << 1,
    kInt8 = 1u << 2,
    kInt16Norm = 1u << 3,
    kInt16 = 1u << 4,
    kUint32 = 1u << 5,
};
inline constexpr unsigned kQuantized = kFloat | kInt8Norm | kInt8 | kInt16Norm | kInt16;

// The index a fault's `where` names right after `prefix` ("joints/" in "joints/3/rest"):
// an asset-tier fault located by index, to be told as the glTF element it came from.
inline std::optional<std::size_t> indexAfter(std::string_view where, std::string_view prefix) {
    if (!where.starts_with(prefix)) return std::nullopt;
    std::size_t index = 0;
    const char* first = where.data() + prefix.size();
    const auto [end, error] = std::from_chars(first, where.data() + where.size(), index);
    if (error != std::errc{} || end == first) return std::nullopt;
    return index;
}

inline std::optional<std::uint64_t> asUint(const dom::element& e) {
    std::uint64_t u;
    if (!e.get_uint64().get(u)) return u;
    std::int64_t i;
    if (!e.get_int64().get(i))
        return i >= 0 ? std::optional<std::uint64_t>(static_cast<std::uint64_t>(i)) : std::nullopt;
    double d;
    if (!e.get_double().get(d) && d >= 0.0 && d <= 9007199254740992.0 && std::floor(d) == d) {
        return static_cast<std::uint64_t>(d);
    }
    return std::nullopt;
}

// Byte equality for short keys: a few overlapping word compares, no call.
inline bool sameBytes(const char* a, const char* b, std::size_t n) noexcept {
    auto load8 = [](const char* p) {
        std::uint64_t v;
        std::memcpy(&v, p, 8);
        return v;
    };
    auto load4 = [](const char* p) {
        std::uint32_t v;
        std::memcpy(&v, p, 4);
        return v;
    };
    if (n >= 8) {
        for (std::size_t i = 0; i + 8 < n; i += 8) {
            if (load8(a + i) != load8(b + i)) return false;
        }
        return load8(a + n - 8) == load8(b + n - 8);
    }
    if (n >= 4) return load4(a) == load4(b) && load4(a + n - 4) == load4(b + n - 4);
    for (std::size_t i = 0; i < n; ++i) {
        if (a[i] != b[i]) return false;
    }
    return true;
}

// The members of `o` named by `keys`, found in one walk over the object instead of
// one walk per key. Like at_key, the first of duplicate keys wins.
template <std::size_t N>
class Members {
public:
    Members(const dom::object& o, const std::array<std::string_view, N>& keys) {
        static_assert(N <= 32);
        for (dom::key_value_pair field : o) {
            const std::string_view k = field.key;
            for (std::size_t i = 0; i < N; ++i) {
                if (k.size() == keys[i].size() && (found_ & (1u << i)) == 0 &&
                    sameBytes(k.data(), keys[i].data(), k.size())) {
                    values_[i] = field.value;
                    found_ |= 1u << i;
                    break;
                }
            }
        }
    }
    std::optional<dom::element> operator[](std::size_t i) const {
        if ((found_ & (1u << i)) == 0) return std::nullopt;
        return values_[i];
    }
    bool has(std::size_t i) const noexcept { return (found_ & (1u << i)) != 0; }

private:
    std::array<dom::element, N> values_{};
    std::uint32_t found_ = 0;
};

// out = the values of a tightly packed accessor (gltf::packedFloats/packedUint16s),
// copied as they are, without first filling out with zeros. False (out untouched)
// when there are no such bytes or they are not aligned for T.
template <class T>
bool assignPacked(std::vector<T>& out, std::span<const std::byte> bytes) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (bytes.empty() || bytes.size() % sizeof(T) != 0 ||
        reinterpret_cast<std::uintptr_t>(bytes.data()) % alignof(T) != 0) {
        return false;
    }
    // assign() of a trivially copyable range is a memmove of these bytes; the
    // pointer cast only tells it how many elements that is.
    const T* first = reinterpret_cast<const T*>(bytes.data());
    out.assign(first, first + bytes.size() / sizeof(T));
    return true;
}

struct Buffer {
    std::shared_ptr<const std::vector<std::byte>> owner;
    std::span<const std::byte> bytes;
    std::int32_t modelBuffer = -1;
    bool ok = false;
};

struct View {
    std::span<const std::byte> bytes;
    std::size_t buffer = 0;
    std::size_t stride = 0;
    bool ok = false;
};

struct Accessor {
    AccessorDesc desc;
    std::uint64_t declaredCount = 0;  // as written, for messages
    std::vector<double> min, max;     // declared bounds (empty when absent)
    bool hasBounds = false;           // both min and max declared, with one number per component
    bool boundsChecked = false;       // declared bounds already compared with the data
    bool unitChecked = false;         // rotation keys already checked for unit length
    bool ok = false;
};

struct Node {
    std::string_view name;  // into the parsed document, which outlives the import
    std::int32_t parent = -1;
    std::int32_t mesh = -1;
    std::int32_t skin = -1;
    std::int32_t camera = -1;
    Transform local;
    std::vector<std::uint32_t> children;
    std::vector<float> weights;
    bool hasWeights = false;
    bool hasMatrix = false;  // matrix nodes may not be animated
};

// The members of a primitive's `attributes`: the usual ones found in one walk,
// any other name looked up.
class Attributes {
public:
    explicit Attributes(const dom::object& attrs) : attrs_(attrs), m_(attrs, kKeys) {}
    std::optional<dom::element> operator[](std::string_view key) const {
        for (std::size_t i = 0; i < kKeys.size(); ++i) {
            if (kKeys[i] == key) return m_[i];
        }
        dom::element e;
        if (attrs_.at_key(key).get(e)) return std::nullopt;
        return e;
    }
    const dom::object& object() const noexcept { return attrs_; }

private:
    static constexpr std::array<std::string_view, 8> kKeys{"POSITION", "NORMAL",    "TEXCOORD_0", "COLOR_0",
                                                           "JOINTS_0", "WEIGHTS_0", "JOINTS_1",   "WEIGHTS_1"};
    const dom::object& attrs_;
    Members<8> m_;
};

class Importer {
public:
    Importer(dom::parser& parser, const GltfSource& source, const ImportOptions& options)
        : parser_(parser), src_(source), opt_(options) {}

    Result<Model> run();

private:
    // ---- the passes, in order (gltf_import.cpp) -------------------------------
    Result<Model> runChecked();
    Result<Model> finish();

    // ---- faults, warnings and the memory budget (gltf_document.cpp) -----------
    bool lenient() const noexcept { return opt_.conformance == Conformance::Lenient; }
    void recoverable(const Pointer& at, const std::string& what, const std::string& repair);
    void warn(const Pointer& at, std::string what);
    void fault(const Pointer& at, std::string what);
    void faultRaw(std::string where, std::string what);

    // Charges `bytes` to the import's memory budget before they are allocated; a
    // fault at `at` (a JSON pointer, or "" for the file) when they do not fit.
    // Out of budget, the import stops after the pass it is in: later passes would
    // report what the data left undecoded lacks, which is not the file's fault.
    bool charge(std::size_t bytes, const Pointer& at, const std::string& what) {
        if (take(bytes)) return true;
        fault(at, budgetMessage(bytes, what));
        stopped_ = true;
        return false;
    }
    bool charge(std::size_t bytes, const char* rawWhere, const std::string& what) {
        if (take(bytes)) return true;
        faultRaw(rawWhere, budgetMessage(bytes, what));
        stopped_ = true;
        return false;
    }
    bool take(std::size_t bytes) noexcept {
        if (!fitsBudget(bytes)) return false;
        usedBytes_ += bytes;
        return true;
    }
    std::size_t table(std::string_view key, std::size_t perItem);
    bool charged(std::size_t count, std::size_t perItem, const Pointer& at, const std::string& what);
    void refund(std::size_t bytes) noexcept { usedBytes_ -= std::min(bytes, usedBytes_); }
    bool fitsBudget(std::size_t bytes) const noexcept {
        return bytes <= opt_.memoryBudget && usedBytes_ <= opt_.memoryBudget - bytes;
    }
    std::size_t budgetLeft() const noexcept { return opt_.memoryBudget - std::min(usedBytes_, opt_.memoryBudget); }
    std::string budgetMessage(std::size_t bytes, const std::string& what) const;
    bool reserveDecoded(std::size_t bytes, const Pointer& at) { return charge(bytes, at, "decoded data"); }

    // ---- JSON field readers: absent optional fields leave `out` untouched ---
    // Each reader comes in two forms: by key (one look-up in the object) and on a
    // member already found (see Members, one walk over the object for all its keys).
    std::optional<dom::element> member(const dom::object& o, std::string_view key) {
        dom::element e;
        if (o.at_key(key).get(e)) return std::nullopt;
        return e;
    }
    // False when `e` is absent, with a fault when it is required.
    bool present(const std::optional<dom::element>& e, std::string_view key, const Pointer& at, bool required) {
        if (e) return true;
        if (required) fault(at / key, "required property is missing");
        return false;
    }
    // `e` as a T (std::string_view, bool, dom::array, dom::object); a fault `mustBe`
    // when it is something else.
    template <class T>
    bool getAs(const std::optional<dom::element>& e, std::string_view key, const Pointer& at, T& out, bool required,
               const char* mustBe) {
        if (!present(e, key, at, required)) return false;
        if (e->get<T>().get(out)) {
            fault(at / key, mustBe);
            return false;
        }
        return true;
    }
    bool getUint(const dom::object& o, std::string_view key, const Pointer& at, std::uint64_t& out, bool required) {
        return getUint(member(o, key), key, at, out, required);
    }
    bool getUint(const std::optional<dom::element>& e, std::string_view key, const Pointer& at, std::uint64_t& out,
                 bool required) {
        if (!present(e, key, at, required)) return false;
        const auto v = asUint(*e);
        if (!v) {
            fault(at / key, "must be a non-negative integer");
            return false;
        }
        out = *v;
        return true;
    }
    // An index into an array of `limit` items; -1 when absent or invalid.
    std::int32_t getIndex(const dom::object& o, std::string_view key, const Pointer& at, std::size_t limit,
                          const char* what, bool required) {
        return getIndex(member(o, key), key, at, limit, what, required);
    }
    std::int32_t getIndex(const std::optional<dom::element>& e, std::string_view key, const Pointer& at,
                          std::size_t limit, const char* what, bool required) {
        std::uint64_t v = 0;
        if (!getUint(e, key, at, v, required)) return -1;
        if (v >= limit) {
            fault(
                at / key,
                std::string(what) + " index " + std::to_string(v) + " is out of range (" + counted(limit, what) + ")");
            return -1;
        }
        return static_cast<std::int32_t>(v);
    }
    bool getString(const dom::object& o, std::string_view key, const Pointer& at, std::string_view& out,
                   bool required) {
        return getString(member(o, key), key, at, out, required);
    }
    bool getString(const std::optional<dom::element>& e, std::string_view key, const Pointer& at, std::string_view& out,
                   bool required) {
        return getAs(e, key, at, out, required, "must be a string");
    }
    bool getBool(const std::optional<dom::element>& e, std::string_view key, const Pointer& at, bool& out) {
        return getAs(e, key, at, out, false, "must be true or false");
    }
    bool getArray(const dom::object& o, std::string_view key, const Pointer& at, dom::array& out, bool required) {
        return getArray(member(o, key), key, at, out, required);
    }
    // Every array of the glTF schema holds at least one item: an empty one is a
    // writer's fault. An optional one is then as good as absent (a lenient import
    // ignores it); a required one leaves its object without what it needs.
    bool getArray(const std::optional<dom::element>& e, std::string_view key, const Pointer& at, dom::array& out,
                  bool required) {
        if (!getAs(e, key, at, out, required, "must be an array")) return false;
        if (out.size() != 0) return true;
        if (required) {
            fault(at / key, "must not be empty");
        } else {
            recoverable(at / key, "must not be empty", "ignored");
        }
        return false;
    }
    bool getObject(const dom::object& o, std::string_view key, const Pointer& at, dom::object& out, bool required) {
        return getObject(member(o, key), key, at, out, required);
    }
    bool getObject(const std::optional<dom::element>& e, std::string_view key, const Pointer& at, dom::object& out,
                   bool required) {
        return getAs(e, key, at, out, required, "must be an object");
    }
    bool asObject(const dom::element& e, const Pointer& at, dom::object& out) {
        if (e.get_object().get(out)) {
            fault(at, "must be an object");
            return false;
        }
        return true;
    }
    // The object's optional "name" into `out` (left as it is when absent).
    void readName(const dom::object& o, const Pointer& at, std::string& out) {
        std::string_view name;
        if (getString(o, "name", at, name, false)) out = name;
    }
    // One number, finite as a float.
    bool getFloat(const std::optional<dom::element>& e, std::string_view key, const Pointer& at, float& out,
                  bool required) {
        if (!present(e, key, at, required)) return false;
        double d;
        if (e->get_double().get(d)) {
            fault(at / key, "must be a number");
            return false;
        }
        if (!std::isfinite(static_cast<float>(d))) {
            fault(at / key, "must be a finite number");
            return false;
        }
        out = static_cast<float>(d);
        return true;
    }
    // Exactly n finite numbers.
    bool getFloats(const dom::object& o, std::string_view key, const Pointer& at, float* out, std::size_t n) {
        return getFloats(member(o, key), key, at, out, n);
    }
    bool getFloats(const std::optional<dom::element>& e, std::string_view key, const Pointer& at, float* out,
                   std::size_t n) {
        dom::array a;
        if (!getArray(e, key, at, a, false)) return false;
        if (a.size() != n) {
            fault(at / key, "must hold " + std::to_string(n) + " numbers, holds " + std::to_string(a.size()));
            return false;
        }
        std::size_t i = 0;
        for (dom::element v : a) {
            double d;
            if (v.get_double().get(d) || !std::isfinite(static_cast<float>(d))) {
                fault(at / key / i, "must be a finite number");
                return false;
            }
            out[i++] = static_cast<float>(d);
        }
        return true;
    }
    std::size_t arraySize(std::string_view key) {
        dom::array a;
        dom::element e;
        if (root_.at_key(key).get(e) || e.get_array().get(a)) return 0;
        return a.size();
    }
    template <class Fn>
    void forEachObject(std::string_view key, Fn&& fn) {
        dom::array a;
        if (stopped_ || !getArray(root_, key, Pointer{}, a, false)) return;
        std::size_t i = 0;
        for (dom::element e : a) {
            if (stopped_) return;
            const Pointer at = Pointer{} / key / i;
            dom::object o;
            if (asObject(e, at, o)) fn(i, o, at);
            ++i;
        }
    }

    // ---- container and asset (gltf_document.cpp) ------------------------------
    bool parseContainer();
    void checkDuplicateKeys(const dom::element& doc);
    bool looksLikeGlb(std::span<const std::byte> bytes) const;
    void readAsset();

    // ---- external resources, buffers, views (gltf_buffers.cpp) ----------------
    gltf::UriPath checkedUri(std::string_view uri, const Pointer& at, bool& ok);
    gltf::ResourceLocation locate(const gltf::UriPath& path, std::string& error) const;
    ResourceBytes fetchResource(std::string_view uri, std::size_t wanted, const Pointer& at, const Pointer& lengthAt);
    void readBuffers();
    void readViews();
    std::optional<std::span<const std::byte>> viewFrom(std::int32_t index, std::uint64_t offset, const Pointer& at);

    // ---- accessors (gltf_accessors.cpp) ---------------------------------------
    void readAccessors();
    void readBounds(const std::optional<dom::element>& minElement, const std::optional<dom::element>& maxElement,
                    const Pointer& at, Accessor& acc);
    void checkBounds(std::int64_t index, std::span<const float> values, bool required, const char* role);
    bool checkFinite(std::int64_t index, std::span<const float> values);
    const AccessorDesc* useAccessor(std::int64_t index, const Pointer& at, std::initializer_list<ElementShape> shapes,
                                    unsigned allow, const char* role);
    bool decodeFloats(const AccessorDesc& d, std::int64_t index, std::span<float> out);
    template <class T>
    bool decodeInto(std::int64_t index, const Pointer& at, std::initializer_list<ElementShape> shapes, unsigned allow,
                    const char* role, std::vector<T>& out, std::size_t expectedCount = 0) {
        const AccessorDesc* d = useAccessor(index, at, shapes, allow, role);
        if (!d) return false;
        if (expectedCount && d->count != expectedCount) {
            fault(at,
                  std::string(role) + " accessor " + std::to_string(index) + " has " + std::to_string(d->count) +
                      " elements, " + std::to_string(expectedCount) + " expected");
            return false;
        }
        const std::size_t comps = d->shape.components();
        const std::size_t floats = d->count * comps;
        static_assert(sizeof(T) % sizeof(float) == 0);
        if (floats * sizeof(float) != d->count * sizeof(T)) {
            fault(at, std::string(role) + ": element size mismatch");
            return false;
        }
        if (!reserveDecoded(floats * sizeof(float), at)) return false;
        if (assignPacked(out, gltf::packedFloats(*d))) return true;
        out.resize(d->count);
        return decodeFloats(*d, index, std::span<float>(reinterpret_cast<float*>(out.data()), floats));
    }
    bool decodeUintsInto(std::int64_t index, const Pointer& at, ElementShape shape, const char* role,
                         std::vector<std::uint32_t>& out);

    // ---- nodes, skeleton, scenes (gltf_nodes.cpp) -----------------------------
    void readNodes();
    void checkDecomposes(const Vec3 (&axes)[3], const Transform& trs, const Pointer& at);
    void buildSkeleton();
    void bindNodes();
    std::uint16_t largestJoint(std::size_t mesh, std::size_t primitive, const MeshPrimitive& prim);
    void readScenes();

    // ---- images, textures, materials (gltf_materials.cpp) ---------------------
    void locateImage(std::size_t index, std::string_view uri, const Pointer& at, ImageSource& img);
    void readImagesTexturesMaterials();
    void readMaterial(const dom::object& o, const Pointer& at, Material& m);
    void decodeImages();

    // ---- cameras (gltf_cameras.cpp) -------------------------------------------
    void readCameras();

    // ---- meshes (gltf_meshes.cpp, gltf_influences.cpp) ------------------------
    void readMeshes();
    void readTargetNames(const dom::object& o, const Pointer& at, Mesh& mesh);
    void readPrimitive(const dom::object& o, const Pointer& at, MeshPrimitive& prim, std::size_t& targetCount);
    void checkUnitNormals(std::int64_t index, std::vector<Vec3>& normals);
    void readColors(std::int64_t index, const Pointer& at, std::size_t vertexCount, bool decode, MeshPrimitive& prim);
    void checkColorRange(std::int64_t index, std::vector<std::array<float, 4>>& colors);
    void readInfluences(const Attributes& attrs, const Pointer& aat, std::size_t sets, std::size_t vertexCount,
                        MeshPrimitive& prim);
    bool checkInfluences(const MeshPrimitive& prim, std::size_t vertexCount, std::size_t sets,
                         const std::vector<std::size_t>& jointAccessor, const std::vector<std::size_t>& weightAccessor);

    // ---- skins (gltf_skins.cpp) -----------------------------------------------
    std::int32_t commonAncestor(std::int32_t a, std::int32_t b) const;
    void readSkins();

    // ---- animations (gltf_animations.cpp) -------------------------------------
    void readAnimations();
    bool checkKeyTimes(std::span<const float> times, std::int64_t accessor, const Pointer& at);
    void checkUnitRotations(std::int64_t index, const Track& track);
    std::vector<Marker> readMarkers(const dom::object& animation, const Pointer& at);
    // The clip with animation.extras.curves and extras.length applied (each bad one skipped, recoverably).
    Clip withCurvesAndLength(Clip clip, const dom::object& animation, const Pointer& at);

    dom::parser& parser_;
    const GltfSource& src_;
    const ImportOptions& opt_;
    std::vector<Fault> faults_;
    Model model_;
    dom::object root_;
    std::span<const std::byte> glbBin_;
    bool hasGlbBin_ = false;
    bool quantized_ = false;
    bool nodesOk_ = false;
    bool skeletonOk_ = false;
    bool stopped_ = false;                                        // out of budget: the remaining passes do not run
    std::shared_ptr<const std::vector<std::string>> jointNames_;  // shared by every clip
    std::size_t usedBytes_ = 0;
    std::size_t valueFaults_ = 0;                                    // faults from recoverable(), counted apart
    std::vector<std::uint8_t> jointSeen_;                            // per node, while reading one skin
    std::unordered_map<std::uint64_t, std::uint16_t> largestJoint_;  // (mesh, primitive) -> largest joint index
    std::vector<Fault> warnings_;
    std::vector<Buffer> buffers_;
    std::vector<View> views_;
    std::vector<Accessor> accessors_;
    std::vector<Node> nodes_;
};

}  // namespace kinema::gltf_import
