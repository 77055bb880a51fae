// glTF 2.0 import. One pass per top-level array in dependency order (buffers,
// views, accessors, nodes, meshes, skins, animations); each pass records every
// fault it finds and carries on where that is safe, so `kinema validate` can list
// them all; a model is returned only when no fault was found.
#include <simdjson.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>

#include "accessor.hpp"
#include "container.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/io/image.hpp"
#include "../core/json_syntax.hpp"
#include "kinema/math/finite.hpp"
#include "resource.hpp"

namespace kinema {

namespace dom = simdjson::dom;
using gltf::AccessorDesc;
using gltf::ComponentType;
using gltf::ElementShape;

namespace {

constexpr std::size_t kMaxFaults = 500;
constexpr std::uint64_t kMaxElementCount = std::uint64_t{1} << 40;

// Messages quote the file's own text (names, versions, URIs): control characters are
// shown as \xNN, so a file cannot move the cursor, recolour a terminal or forge a line
// of output, and a message is cut after 1000 bytes, so a huge string stays one line.
std::string printable(std::string text) {
    constexpr std::size_t kMaxMessage = 1000;
    bool clean = text.size() <= kMaxMessage;
    for (const char c : text) clean &= !(static_cast<unsigned char>(c) < 0x20 || c == 0x7F);
    if (clean) return text;
    std::string out;
    for (const char c : text) {
        if (out.size() >= kMaxMessage) {
            out += "... (cut)";
            break;
        }
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7F) {
            constexpr char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[u >> 4];
            out += kHex[u & 15];
        } else {
            out += c;
        }
    }
    return out;
}

// The Khronos glTF-Validator's tolerances, so that strict import and the validator
// call the same files errors: |length - 1| of a unit quaternion, of a unit normal,
// and per non-zero weight of a vertex's weight sum (accumulated in float).
constexpr double kRotationUnitTolerance = 0.00769;
constexpr double kNormalUnitTolerance = 0.00674;
constexpr double kWeightSumTolerancePerWeight = 2e-7;


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
                for (const char c : std::string_view(segs_[i].key, segs_[i].value)) {
                    if (c == '~') s += "~0";
                    else if (c == '/') s += "~1";
                    else s += c;
                }
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
constexpr unsigned kQuantized = kFloat | kInt8Norm | kInt8 | kInt16Norm | kInt16;

unsigned encodingBit(ComponentType type, bool normalized) {
    switch (type) {
        case ComponentType::Float: return kFloat;
        case ComponentType::Byte:
        case ComponentType::UnsignedByte: return normalized ? kInt8Norm : kInt8;
        case ComponentType::Short:
        case ComponentType::UnsignedShort: return normalized ? kInt16Norm : kInt16;
        case ComponentType::UnsignedInt: return kUint32;
    }
    return 0;
}

std::string_view typeName(ElementShape s) {
    if (s.columns == 1) {
        switch (s.rows) {
            case 1: return "SCALAR";
            case 2: return "VEC2";
            case 3: return "VEC3";
            case 4: return "VEC4";
        }
    }
    switch (s.rows) {
        case 2: return "MAT2";
        case 3: return "MAT3";
        case 4: return "MAT4";
    }
    return "?";
}

std::optional<std::uint64_t> asUint(const dom::element& e) {
    std::uint64_t u;
    if (!e.get_uint64().get(u)) return u;
    std::int64_t i;
    if (!e.get_int64().get(i)) return i >= 0 ? std::optional<std::uint64_t>(static_cast<std::uint64_t>(i)) : std::nullopt;
    double d;
    if (!e.get_double().get(d) && d >= 0.0 && d <= 9007199254740992.0 && std::floor(d) == d) {
        return static_cast<std::uint64_t>(d);
    }
    return std::nullopt;
}

// Byte equality for short keys: a few overlapping word compares, no call.
inline bool sameBytes(const char* a, const char* b, std::size_t n) noexcept {
    auto load8 = [](const char* p) { std::uint64_t v; std::memcpy(&v, p, 8); return v; };
    auto load4 = [](const char* p) { std::uint32_t v; std::memcpy(&v, p, 4); return v; };
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
                if (k.size() == keys[i].size() && (found_ & (1u << i)) == 0 && sameBytes(k.data(), keys[i].data(), k.size())) {
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
    Transform local;
    std::vector<std::uint32_t> children;
    std::vector<float> weights;
    bool hasWeights = false;
    bool hasMatrix = false;  // matrix nodes may not be animated
};

class Importer {
public:
    Importer(dom::parser& parser, const GltfSource& source, const ImportOptions& options)
        : parser_(parser), src_(source), opt_(options) {}

    Result<Model> run() {
        if (!src_.bytes) return Fault{src_.name, "no bytes to import"};
        try {
            return runChecked();
        } catch (const std::bad_alloc&) {
            // The budget is checked before each large allocation; what is left is
            // the machine running out first. A fault, never an exception out of import.
            Result<Model> failed(Fault{src_.name, "out of memory while importing (" + std::to_string(usedBytes_) +
                                                      " bytes of the memory budget in use)"});
            failed.addWarnings(warnings_);
            return failed;
        }
    }

private:
    Result<Model> runChecked() {
        model_.source = src_.name;
        if (!charge(src_.bytes->size(), "", "the file")) return finish();
        if (!parseContainer()) return finish();
        // A pass that ran out of budget stops the import: later passes index the
        // tables it could not build.
        for (void (Importer::*pass)() : {&Importer::readAsset, &Importer::readBuffers, &Importer::readViews,
                                         &Importer::readAccessors, &Importer::readNodes}) {
            (this->*pass)();
            if (stopped_) return finish();
        }
        if (nodesOk_) buildSkeleton();
        for (void (Importer::*pass)() : {&Importer::readImagesTexturesMaterials, &Importer::readMeshes}) {
            (this->*pass)();
            if (stopped_) return finish();
        }
        if (skeletonOk_) {
            for (void (Importer::*pass)() :
                 {&Importer::readSkins, &Importer::bindNodes, &Importer::readScenes, &Importer::readAnimations}) {
                (this->*pass)();
                if (stopped_) return finish();
            }
        }
        if (opt_.decodeImages && faults_.empty()) decodeImages();
        return finish();
    }

    // Last, when everything else is valid: decoding costs far more than checking.
    // Each image gets what is left of the memory budget.
    void decodeImages() {
        model_.decodedImages.reserve(model_.images.size());
        for (std::size_t i = 0; i < model_.images.size(); ++i) {
            auto image = decodeImage(model_, i, ImageLimits{opt_.maxImagePixels, budgetLeft()});
            if (!image) {
                for (const Fault& f : image.faults()) faults_.push_back(f);
                continue;
            }
            if (!charge(image->pixels.size(), Pointer{} / "images" / i, "image " + std::to_string(i))) continue;
            model_.decodedImages.push_back(std::move(*image));
        }
    }

    Result<Model> finish() {
        Result<Model> result = faults_.empty() ? Result<Model>(std::move(model_)) : Result<Model>(std::move(faults_));
        result.addWarnings(warnings_);
        return result;
    }

    bool lenient() const noexcept { return opt_.conformance == Conformance::Lenient; }

    // A recoverable error: a warning naming the repair when lenient, else a fault.
    void recoverable(const Pointer& at, const std::string& what, const std::string& repair) {
        if (lenient()) {
            warn(at, what + "; " + repair);
        } else {
            fault(at, what);
            ++valueFaults_;
        }
    }
    void warn(const Pointer& at, std::string what) {
        if (warnings_.size() < kMaxFaults) warnings_.push_back({src_.name + "#" + at.str(), printable(std::move(what))});
    }

    // Charges `bytes` to the import's memory budget before they are allocated; a
    // fault at `at` (a JSON pointer, or "" for the file) when they do not fit.
    bool charge(std::size_t bytes, const Pointer& at, const std::string& what) {
        if (take(bytes)) return true;
        fault(at, budgetMessage(bytes, what));
        return false;
    }
    bool charge(std::size_t bytes, const char* rawWhere, const std::string& what) {
        if (take(bytes)) return true;
        faultRaw(rawWhere, budgetMessage(bytes, what));
        return false;
    }
    bool take(std::size_t bytes) noexcept {
        if (!fitsBudget(bytes)) return false;
        usedBytes_ += bytes;
        return true;
    }
    // The working table of a top-level array: `perItem` bytes per entry, charged
    // before it is sized (a file of a million "{}" would otherwise cost far more
    // memory than its bytes). 0, and the import stops, when they do not fit.
    std::size_t table(std::string_view key, std::size_t perItem) {
        const std::size_t count = arraySize(key);
        return charged(count, perItem, Pointer{} / key, "the " + std::string(key) + " table") ? count : 0;
    }
    // Charges `count` items of `perItem` bytes; false (and the import stops) when they
    // do not fit.
    bool charged(std::size_t count, std::size_t perItem, const Pointer& at, const std::string& what) {
        if (count == 0) return true;
        if (count > std::numeric_limits<std::size_t>::max() / perItem || !charge(count * perItem, at, what)) {
            stopped_ = true;
            return false;
        }
        return true;
    }
    void refund(std::size_t bytes) noexcept { usedBytes_ -= std::min(bytes, usedBytes_); }
    bool fitsBudget(std::size_t bytes) const noexcept {
        return bytes <= opt_.memoryBudget && usedBytes_ <= opt_.memoryBudget - bytes;
    }
    std::size_t budgetLeft() const noexcept { return opt_.memoryBudget - std::min(usedBytes_, opt_.memoryBudget); }
    std::string budgetMessage(std::size_t bytes, const std::string& what) const {
        return what + " needs " + std::to_string(bytes) + " bytes; the import's memory budget of " +
               std::to_string(opt_.memoryBudget) + " bytes has " + std::to_string(budgetLeft()) + " left";
    }

    // ---- faults -------------------------------------------------------------
    void fault(const Pointer& at, std::string what) {
        if (faults_.size() < kMaxFaults) {
            faults_.push_back({src_.name + "#" + at.str(), printable(std::move(what))});
        } else if (faults_.size() == kMaxFaults) {
            faults_.push_back({src_.name, "more faults not listed"});
        }
    }
    void faultRaw(std::string where, std::string what) {
        if (faults_.size() < kMaxFaults) {
            faults_.push_back({src_.name + std::move(where), printable(std::move(what))});
        } else if (faults_.size() == kMaxFaults) {
            faults_.push_back({src_.name, "more faults not listed"});
        }
    }

    // ---- JSON field readers: absent optional fields leave `out` untouched ---
    // Each reader comes in two forms: by key (one look-up in the object) and on a
    // member already found (see Members, one walk over the object for all its keys).
    std::optional<dom::element> member(const dom::object& o, std::string_view key) {
        dom::element e;
        if (o.at_key(key).get(e)) return std::nullopt;
        return e;
    }
    bool getUint(const dom::object& o, std::string_view key, const Pointer& at, std::uint64_t& out, bool required) {
        return getUint(member(o, key), key, at, out, required);
    }
    bool getUint(const std::optional<dom::element>& e, std::string_view key, const Pointer& at, std::uint64_t& out,
                 bool required) {
        if (!e) {
            if (required) fault(at / key, "required property is missing");
            return false;
        }
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
            fault(at / key, std::string(what) + " index " + std::to_string(v) + " is out of range (" +
                                std::to_string(limit) + " " + what + (limit == 1 ? "" : "s") + ")");
            return -1;
        }
        return static_cast<std::int32_t>(v);
    }
    bool getString(const dom::object& o, std::string_view key, const Pointer& at, std::string_view& out,
                   bool required) {
        return getString(member(o, key), key, at, out, required);
    }
    bool getString(const std::optional<dom::element>& e, std::string_view key, const Pointer& at,
                   std::string_view& out, bool required) {
        if (!e) {
            if (required) fault(at / key, "required property is missing");
            return false;
        }
        if (e->get_string().get(out)) {
            fault(at / key, "must be a string");
            return false;
        }
        return true;
    }
    bool getBool(const std::optional<dom::element>& e, std::string_view key, const Pointer& at, bool& out) {
        if (!e) return false;
        if (e->get_bool().get(out)) {
            fault(at / key, "must be true or false");
            return false;
        }
        return true;
    }
    bool getArray(const dom::object& o, std::string_view key, const Pointer& at, dom::array& out, bool required) {
        return getArray(member(o, key), key, at, out, required);
    }
    bool getArray(const std::optional<dom::element>& e, std::string_view key, const Pointer& at, dom::array& out,
                  bool required) {
        if (!e) {
            if (required) fault(at / key, "required property is missing");
            return false;
        }
        if (e->get_array().get(out)) {
            fault(at / key, "must be an array");
            return false;
        }
        return true;
    }
    bool getObject(const dom::object& o, std::string_view key, const Pointer& at, dom::object& out, bool required) {
        return getObject(member(o, key), key, at, out, required);
    }
    bool getObject(const std::optional<dom::element>& e, std::string_view key, const Pointer& at, dom::object& out,
                   bool required) {
        if (!e) {
            if (required) fault(at / key, "required property is missing");
            return false;
        }
        if (e->get_object().get(out)) {
            fault(at / key, "must be an object");
            return false;
        }
        return true;
    }
    bool asObject(const dom::element& e, const Pointer& at, dom::object& out) {
        if (e.get_object().get(out)) {
            fault(at, "must be an object");
            return false;
        }
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

    // ---- container ----------------------------------------------------------
    // glTF requires the keys of a JSON object to be unique. Readers disagree on which
    // of two equal keys counts (kinema reads the first, JSON.parse the last), so a
    // file could mean one thing here and another elsewhere: strict import refuses it,
    // lenient import warns and keeps the first. One walk over the objects of the
    // document, without recursion; objects of up to 16 keys compare pairwise, larger
    // ones sort a copy.
    void checkDuplicateKeys(const dom::element& doc) {
        // Each container visited: its element and where it hangs (parent, key or index),
        // so a pointer is built only for a duplicate found.
        struct Visit {
            dom::element element;
            std::uint32_t parent;
            std::uint32_t index;  // in the parent array, when key is empty
            std::string_view key;
        };
        std::vector<Visit> visits{{doc, 0, 0, {}}};
        std::vector<std::string_view> keys;
        for (std::size_t v = 0; v < visits.size(); ++v) {
            const dom::element e = visits[v].element;
            const auto self = static_cast<std::uint32_t>(v);
            dom::object o;
            dom::array a;
            if (!e.get_object().get(o)) {
                keys.clear();
                for (dom::key_value_pair field : o) {
                    keys.push_back(field.key);
                    if (isContainer(field.value)) visits.push_back({field.value, self, 0, field.key});
                }
                const std::string_view repeated = firstRepeated(keys);
                if (!repeated.empty()) {
                    recoverable(pointerTo(visits, v) / repeated,
                                "the key '" + std::string(repeated) +
                                    "' appears more than once in one object (keys must be unique)",
                                "the first one is used");
                }
            } else if (!e.get_array().get(a)) {
                // An array that starts with a number or string holds no objects that
                // kinema reads (a glTF array is of one kind): not walked, which keeps
                // this cheap on files full of number arrays.
                dom::element first;
                if (a.at(0).get(first) || !isContainer(first)) continue;
                std::uint32_t i = 0;
                for (dom::element item : a) {
                    if (isContainer(item)) visits.push_back({item, self, i, {}});
                    ++i;
                }
            }
        }
    }
    template <class Visits>
    static Pointer pointerTo(const Visits& visits, std::size_t v) {
        std::vector<std::size_t> chain;
        for (std::size_t at = v; at != 0; at = visits[at].parent) chain.push_back(at);
        Pointer p;
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            const auto& step = visits[*it];
            p = step.key.data() ? p / step.key : p / std::size_t{step.index};
        }
        return p;
    }
    static bool isContainer(const dom::element& e) noexcept {
        const dom::element_type t = e.type();
        return t == dom::element_type::OBJECT || t == dom::element_type::ARRAY;
    }
    static std::string_view firstRepeated(std::vector<std::string_view>& keys) {
        if (keys.size() <= 16) {
            for (std::size_t i = 1; i < keys.size(); ++i) {
                for (std::size_t j = 0; j < i; ++j) {
                    if (keys[i].size() == keys[j].size() && keys[i] == keys[j]) return keys[i];
                }
            }
            return {};
        }
        std::sort(keys.begin(), keys.end());
        const auto it = std::adjacent_find(keys.begin(), keys.end());
        return it == keys.end() ? std::string_view{} : *it;
    }

    // A GLB whose magic is damaged: named .glb and not JSON text, or a GLB header
    // (version 2) and first chunk header ("JSON") behind the wrong four bytes.
    bool looksLikeGlb(std::span<const std::byte> bytes) const {
        const auto at = [&](std::size_t i) { return static_cast<unsigned char>(bytes[i]); };
        if (bytes.size() >= 20 && at(4) == 2 && at(5) == 0 && at(6) == 0 && at(7) == 0 && at(16) == 'J' &&
            at(17) == 'S' && at(18) == 'O' && at(19) == 'N') {
            return true;
        }
        std::string lower;
        const std::size_t dot = src_.name.rfind('.');
        if (dot != std::string::npos) {
            for (const char c : src_.name.substr(dot)) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        if (lower != ".glb") return false;
        for (std::size_t i = 0; i < bytes.size(); ++i) {
            const unsigned char c = at(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
            return c != '{';
        }
        return false;
    }

    bool parseContainer() {
        const std::vector<std::byte>& file = *src_.bytes;
        if (file.empty()) {
            faultRaw("@byte 0", "the file is empty");
            return false;
        }
        std::span<const std::byte> json(file.data(), file.size());
        std::size_t jsonOffset = 0;
        if (!gltf::isGlb(json) && looksLikeGlb(json)) {
            std::string magic;
            for (std::size_t i = 0; i < 4 && i < json.size(); ++i) {
                const auto c = static_cast<unsigned char>(json[i]);
                magic += (c >= 0x20 && c < 0x7F) ? static_cast<char>(c) : '?';
            }
            faultRaw("@byte 0", "bad magic: a GLB file starts with 'glTF', this one with '" + magic + "'");
            return false;
        }
        if (gltf::isGlb(json)) {
            gltf::GlbError error;
            const auto chunks = gltf::splitGlb(json, error);
            if (!chunks) {
                faultRaw("@byte " + std::to_string(error.byteOffset), error.what);
                return false;
            }
            json = chunks->json;
            jsonOffset = chunks->jsonOffset;
            if (chunks->hasBin) {
                glbBin_ = chunks->bin;
                hasGlbBin_ = true;
            }
        }
        // simdjson reads up to SIMDJSON_PADDING bytes past the text (their values do
        // not matter). In a GLB the BIN chunk usually follows the JSON, so the file's
        // own bytes are that padding and the parser need not copy the text first.
        const std::size_t after = static_cast<std::size_t>(file.data() + file.size() - (json.data() + json.size()));
        const bool padded = after >= simdjson::SIMDJSON_PADDING;
        // The parser's document: an 8-byte tape slot and up to 5/3 bytes of string
        // buffer per byte of text, a 4-byte structural index per byte, and a padded copy
        // of the text when the file's own bytes cannot serve as the padding.
        constexpr std::size_t kParserBytesPerJsonByte = 14;
        const std::size_t copy = padded ? 0 : json.size() + simdjson::SIMDJSON_PADDING;
        if (json.size() > std::numeric_limits<std::size_t>::max() / (kParserBytesPerJsonByte + 1) ||
            !charge(json.size() * kParserBytesPerJsonByte + copy, "", "parsing the JSON text")) {
            return false;
        }
        dom::element doc;
        const auto error = parser_.parse(reinterpret_cast<const char*>(json.data()), json.size(), !padded).get(doc);
        if (error) {
            // simdjson says that the text is malformed, the locator says where.
            const std::string_view text(reinterpret_cast<const char*>(json.data()), json.size());
            const auto syntax = kinema::json::findJsonSyntaxError(text);
            if (!syntax) {
                faultRaw("", std::string("JSON does not parse: ") + simdjson::error_message(error));
                return false;
            }
            const std::size_t offset = jsonOffset + syntax->byteOffset;
            faultRaw("@byte " + std::to_string(offset) + " (line " + std::to_string(syntax->line) + ", column " +
                         std::to_string(syntax->column) + ")",
                     "JSON syntax error: " + syntax->what);
            return false;
        }
        if (doc.get_object().get(root_)) {
            faultRaw("#", "the JSON root must be an object");
            return false;
        }
        checkDuplicateKeys(doc);
        return true;
    }

    void readAsset() {
        dom::object asset;
        if (!getObject(root_, "asset", Pointer{}, asset, true)) return;
        std::string_view version;
        if (getString(asset, "version", Pointer{} / "asset", version, true)) {
            if (version.substr(0, 2) != "2.") fault(Pointer{} / "asset" / "version", "glTF version " + std::string(version) + " is not 2.x");
        }
        std::string_view minVersion;
        if (getString(asset, "minVersion", Pointer{} / "asset", minVersion, false) && minVersion != "2.0") {
            fault(Pointer{} / "asset" / "minVersion", "requires glTF " + std::string(minVersion) + "; 2.0 is supported");
        }
        auto readExtensionList = [&](std::string_view key, bool required) {
            dom::array list;
            if (!getArray(root_, key, Pointer{}, list, false)) return;
            std::size_t i = 0;
            for (dom::element e : list) {
                std::string_view name;
                if (e.get_string().get(name)) {
                    fault(Pointer{} / key / i, "must be a string");
                } else if (name == "KHR_mesh_quantization") {
                    quantized_ = true;
                } else if (required) {
                    fault(Pointer{} / key / i, "required extension " + std::string(name) + " is not supported");
                }
                ++i;
            }
        };
        readExtensionList("extensionsUsed", false);
        readExtensionList("extensionsRequired", true);
    }

    // ---- external resources -------------------------------------------------
    // The bytes behind a URI that is not a data: URI, through the resolver or the
    // file system, confined by the options; at least `wanted` bytes (a buffer's
    // byteLength: a shorter file is a fault at `lengthAt`), of which only those are
    // read from a file. Null, with a fault recorded at `at`, when they cannot be had.
    gltf::UriPath checkedUri(std::string_view uri, const Pointer& at, bool& ok) {
        ok = false;
        if (!opt_.allowExternalFiles) {
            fault(at, "external resources are disabled for this import");
            return {};
        }
        std::string error;
        gltf::UriPath path = gltf::parseUriPath(uri, error);
        if (!error.empty()) {
            fault(at, error);
            return path;
        }
        // Refused before anything is touched, so a refusal says nothing about
        // whether the path exists.
        if (path.leaves && !opt_.allowExternalPaths && (opt_.resolver || opt_.allowedFolders.empty())) {
            fault(at, path.absolute ? "an absolute path leads outside the file's folder, which this import does not allow"
                                    : "'..' leads outside the file's folder, which this import does not allow");
            return path;
        }
        ok = true;
        return path;
    }

    gltf::ResourceLocation locate(const gltf::UriPath& path, std::string& error) const {
        return gltf::locateResource(src_.baseDir, path, gltf::PathPolicy{opt_.allowExternalPaths, opt_.allowedFolders}, error);
    }

    ResourceBytes fetchResource(std::string_view uri, std::size_t wanted, const Pointer& at, const Pointer& lengthAt) {
        bool ok = false;
        const gltf::UriPath path = checkedUri(uri, at, ok);
        if (!ok) return nullptr;
        if (opt_.resolver) {
            auto got = opt_.resolver(ResourceRequest{uri, path.path, wanted});
            if (!got) {
                for (const Fault& f : got.faults()) fault(at, f.what.empty() ? "the resolver could not provide it" : f.what);
                return nullptr;
            }
            if (!*got) {
                fault(at, "the resolver returned no bytes");
                return nullptr;
            }
            return std::move(*got);
        }
        std::string error;
        const gltf::ResourceLocation location = locate(path, error);
        const gltf::OpenFile file = error.empty() ? gltf::openLocated(location, error) : gltf::OpenFile{};
        if (!file.isOpen()) {
            fault(at, error);
            return nullptr;
        }
        if (file.size() < wanted) {
            fault(lengthAt, "declares " + std::to_string(wanted) + " bytes, the file has " + std::to_string(file.size()));
            return nullptr;
        }
        auto bytes = std::make_shared<const std::vector<std::byte>>(file.readPrefix(wanted, error));
        if (!error.empty()) {
            fault(at, error);
            return nullptr;
        }
        return bytes;
    }

    // ---- buffers, views, accessors -----------------------------------------
    void readBuffers() {
        buffers_.resize(table("buffers", sizeof(Buffer) + sizeof(ResourceBytes)));
        forEachObject("buffers", [&](std::size_t i, const dom::object& o, const Pointer& at) {
            Buffer& b = buffers_[i];
            std::uint64_t byteLength = 0;
            const bool hasLength = getUint(o, "byteLength", at, byteLength, true);
            if (hasLength && byteLength == 0) fault(at / "byteLength", "must be at least 1");
            std::string_view uri;
            if (!getString(o, "uri", at, uri, false)) {
                if (i != 0 || !hasGlbBin_) {
                    fault(at, "buffer has no uri and is not the GLB binary chunk");
                    return;
                }
                b.owner = src_.bytes;
                b.bytes = glbBin_;
            } else if (gltf::isDataUri(uri)) {
                // The decoded bytes are never more than the URI's characters.
                if (!charge(uri.size(), at / "uri", "buffer " + std::to_string(i) + "'s data URI")) return;
                std::string error;
                auto data = gltf::decodeDataUri(uri, error);
                if (!data) {
                    fault(at / "uri", error);
                    return;
                }
                refund(uri.size() - std::min(uri.size(), data->bytes.size()));
                auto owned = std::make_shared<const std::vector<std::byte>>(std::move(data->bytes));
                b.bytes = *owned;
                b.owner = std::move(owned);
            } else {
                // Only the declared bytes are read: a buffer that names a huge file
                // costs its byteLength, and the byteLength is charged first.
                if (!hasLength || byteLength == 0) return;
                if (byteLength > std::numeric_limits<std::size_t>::max() ||
                    !charge(static_cast<std::size_t>(byteLength), at / "byteLength", "buffer " + std::to_string(i))) {
                    return;
                }
                b.owner = fetchResource(uri, static_cast<std::size_t>(byteLength), at / "uri", at / "byteLength");
                if (!b.owner) return;
                b.bytes = *b.owner;
            }
            if (hasLength && byteLength > b.bytes.size()) {
                fault(at / "byteLength", "declares " + std::to_string(byteLength) + " bytes, the data has " +
                                             std::to_string(b.bytes.size()));
                return;
            }
            if (hasLength) b.bytes = b.bytes.first(static_cast<std::size_t>(byteLength));
            b.ok = hasLength && byteLength > 0;
            if (b.ok) {
                b.modelBuffer = static_cast<std::int32_t>(model_.buffers.size());
                model_.buffers.push_back(b.owner);
            }
        });
    }

    void readViews() {
        views_.resize(table("bufferViews", sizeof(View)));
        forEachObject("bufferViews", [&](std::size_t i, const dom::object& o, const Pointer& at) {
            View& v = views_[i];
            enum { kBuffer, kByteOffset, kByteLength, kByteStride };
            static constexpr std::array<std::string_view, 4> kKeys{"buffer", "byteOffset", "byteLength", "byteStride"};
            const Members<4> m(o, kKeys);
            const std::int32_t buffer = getIndex(m[kBuffer], "buffer", at, buffers_.size(), "buffer", true);
            std::uint64_t offset = 0, length = 0, stride = 0;
            getUint(m[kByteOffset], "byteOffset", at, offset, false);
            const bool hasLength = getUint(m[kByteLength], "byteLength", at, length, true);
            if (getUint(m[kByteStride], "byteStride", at, stride, false) && (stride < 4 || stride > 252 || stride % 4 != 0)) {
                fault(at / "byteStride", "must be a multiple of 4 between 4 and 252");
                return;
            }
            if (buffer < 0 || !hasLength) return;
            if (length == 0) {
                fault(at / "byteLength", "must be at least 1");
                return;
            }
            const Buffer& b = buffers_[static_cast<std::size_t>(buffer)];
            if (!b.ok) return;  // the buffer's own fault is already recorded
            if (offset > b.bytes.size() || length > b.bytes.size() - offset) {
                fault(at, "byteOffset " + std::to_string(offset) + " + byteLength " + std::to_string(length) +
                              " runs past the end of buffer " + std::to_string(buffer) + " (" +
                              std::to_string(b.bytes.size()) + " bytes)");
                return;
            }
            v.bytes = b.bytes.subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(length));
            v.buffer = static_cast<std::size_t>(buffer);
            v.stride = static_cast<std::size_t>(stride);
            v.ok = true;
        });
    }

    // The span from `offset` to the end of view `index`, or nullopt (fault recorded).
    std::optional<std::span<const std::byte>> viewFrom(std::int32_t index, std::uint64_t offset, const Pointer& at) {
        if (index < 0) return std::nullopt;
        const View& v = views_[static_cast<std::size_t>(index)];
        if (!v.ok) return std::nullopt;
        if (offset > v.bytes.size()) {
            fault(at, "byteOffset " + std::to_string(offset) + " is past the end of buffer view " +
                          std::to_string(index) + " (" + std::to_string(v.bytes.size()) + " bytes)");
            return std::nullopt;
        }
        return v.bytes.subspan(static_cast<std::size_t>(offset));
    }

    // accessor.min / max: one number per component, kept to be compared with the data.
    void readBounds(const std::optional<dom::element>& minElement, const std::optional<dom::element>& maxElement,
                    const Pointer& at, Accessor& acc) {
        const std::size_t comps = acc.desc.shape.components();
        auto read = [&](const std::optional<dom::element>& e, std::string_view key, std::vector<double>& out) {
            dom::array a;
            if (!getArray(e, key, at, a, false)) return false;
            if (a.size() != comps) {
                fault(at / key, "must hold " + std::to_string(comps) + " numbers (one per component), holds " +
                                    std::to_string(a.size()));
                return false;
            }
            std::size_t i = 0;
            for (dom::element v : a) {
                double d;
                if (v.get_double().get(d)) {
                    fault(at / key / i, "must be a number");
                    return false;
                }
                out.push_back(d);
                ++i;
            }
            return true;
        };
        const bool hasMin = read(minElement, "min", acc.min);
        const bool hasMax = read(maxElement, "max", acc.max);
        acc.hasBounds = hasMin && hasMax;
    }

    // Every component's bounds in one pass. Element-wise min/max over blocks of eight
    // elements (so each block lines up with the components) is a loop over contiguous
    // floats that the compiler vectorises; the blocks' lanes are folded per component
    // at the end. NaN compares false and so never becomes a bound (those values have
    // faults of their own); false when a bound is not finite.
    template <std::size_t N>
    static bool boundsOfWidth(std::span<const float> values, std::array<float, 16>& lo, std::array<float, 16>& hi) {
        constexpr std::size_t kBlock = N * 8;
        std::array<float, kBlock> l, h;
        for (std::size_t p = 0; p < kBlock; ++p) l[p] = h[p] = values[p % N];
        std::size_t i = 0;
        for (; i + kBlock <= values.size(); i += kBlock) {
            for (std::size_t p = 0; p < kBlock; ++p) {
                l[p] = values[i + p] < l[p] ? values[i + p] : l[p];
                h[p] = values[i + p] > h[p] ? values[i + p] : h[p];
            }
        }
        for (; i < values.size(); ++i) {
            l[i % N] = values[i] < l[i % N] ? values[i] : l[i % N];
            h[i % N] = values[i] > h[i % N] ? values[i] : h[i % N];
        }
        bool finite = true;
        for (std::size_t c = 0; c < N; ++c) {
            lo[c] = l[c];
            hi[c] = h[c];
            for (std::size_t p = c + N; p < kBlock; p += N) {
                lo[c] = std::min(lo[c], l[p]);
                hi[c] = std::max(hi[c], h[p]);
            }
            finite &= std::isfinite(lo[c]) && std::isfinite(hi[c]);
        }
        return finite;
    }
    static bool boundsOf(std::span<const float> values, std::size_t comps, std::array<float, 16>& lo,
                         std::array<float, 16>& hi) {
        switch (comps) {
            case 1: return boundsOfWidth<1>(values, lo, hi);
            case 2: return boundsOfWidth<2>(values, lo, hi);
            case 3: return boundsOfWidth<3>(values, lo, hi);
            case 4: return boundsOfWidth<4>(values, lo, hi);
            case 9: return boundsOfWidth<9>(values, lo, hi);
            case 16: return boundsOfWidth<16>(values, lo, hi);
            default: return false;  // every accessor type has one of the widths above
        }
    }

    // Compares a float accessor's declared min/max with its decoded values, once per
    // accessor. `required`: the specification makes them mandatory for this use
    // (animation inputs, POSITION). Integer accessors declare bounds in raw integer
    // units, which the decoded (normalised) floats no longer are: those are not compared.
    void checkBounds(std::int64_t index, std::span<const float> values, bool required, const char* role) {
        if (index < 0 || static_cast<std::size_t>(index) >= accessors_.size()) return;
        Accessor& acc = accessors_[static_cast<std::size_t>(index)];
        if (acc.boundsChecked || acc.desc.componentType != ComponentType::Float) return;
        acc.boundsChecked = true;
        const Pointer at = Pointer{} / "accessors" / static_cast<std::size_t>(index);
        const std::size_t comps = acc.desc.shape.components();
        if (!acc.hasBounds) {
            if (required && acc.min.empty() == acc.max.empty() && acc.min.empty()) {
                recoverable(at, std::string(role) + " accessor must declare min and max",
                            "the data's own bounds are used");
            } else if (required) {
                recoverable(at, std::string(role) + " accessor must declare both min and max",
                            "the data's own bounds are used");
            }
            return;
        }
        if (values.size() != acc.desc.count * comps || values.empty()) return;
        std::array<float, 16> lo{}, hi{};
        if (!boundsOf(values, comps, lo, hi)) return;  // non-finite values have faults of their own
        for (std::size_t c = 0; c < comps; ++c) {
            // The declared bounds are JSON numbers for float data: equal when they
            // round to the same float.
            const float declaredLo = static_cast<float>(acc.min[c]);
            const float declaredHi = static_cast<float>(acc.max[c]);
            if (!(declaredLo == lo[c])) {
                recoverable(at / "min" / c, "declared min " + exactNumber(acc.min[c]) + " differs from the data's minimum " + exactNumber(lo[c]),
                            "the data's own minimum is used");
            }
            if (!(declaredHi == hi[c])) {
                recoverable(at / "max" / c, "declared max " + exactNumber(acc.max[c]) + " differs from the data's maximum " + exactNumber(hi[c]),
                            "the data's own maximum is used");
            }
        }
    }

    // Every value finite (glTF: an accessor of floats holds no NaN or infinity).
    bool checkFinite(std::int64_t index, std::span<const float> values) {
        if (allFinite(values)) return true;
        const auto bad = std::find_if(values.begin(), values.end(), [](float v) { return !std::isfinite(v); });
        const std::size_t comps = accessors_[static_cast<std::size_t>(index)].desc.shape.components();
        const std::size_t at = static_cast<std::size_t>(bad - values.begin());
        fault(Pointer{} / "accessors" / static_cast<std::size_t>(index),
              "element " + std::to_string(at / comps) + " component " + std::to_string(at % comps) + " is " +
                  exactNumber(*bad) + "; accessor values must be finite");
        return false;
    }

    // Rotation keys (the values, not cubic tangents) of unit length within the
    // validator's tolerance. Within it they are renormalised silently, as the file
    // means; beyond it lenient import renormalises them too (the clip does).
    void checkUnitRotations(std::int64_t index, const Track& track) {
        Accessor& acc = accessors_[static_cast<std::size_t>(index)];
        if (acc.unitChecked) return;
        acc.unitChecked = true;
        const bool cubic = track.interpolation == Interpolation::CubicSpline;
        const std::size_t stride = cubic ? 12 : 4, first = cubic ? 4 : 0;
        std::size_t off = 0, firstKey = 0;
        double firstLength = 0.0;
        for (std::size_t key = 0; key * stride + first + 4 <= track.values.size(); ++key) {
            const float* q = &track.values[key * stride + first];
            const double len = std::sqrt(double(q[0]) * q[0] + double(q[1]) * q[1] + double(q[2]) * q[2] + double(q[3]) * q[3]);
            if (std::fabs(len - 1.0) <= kRotationUnitTolerance) continue;
            if (off++ == 0) {
                firstKey = key;
                firstLength = len;
            }
        }
        if (off == 0) return;
        recoverable(Pointer{} / "accessors" / static_cast<std::size_t>(index),
                    std::to_string(off) + " rotation key" + (off == 1 ? " is" : "s are") +
                        " not a unit quaternion (first: key " + std::to_string(firstKey) + ", length " +
                        exactNumber(static_cast<float>(firstLength)) + "; tolerance " + exactNumber(kRotationUnitTolerance) + ")",
                    "renormalised");
    }

    // NORMAL vectors of unit length within the validator's tolerance; lenient
    // import renormalises the others (a zero vector stays zero: it has no direction).
    void checkUnitNormals(std::int64_t index, std::vector<Vec3>& normals) {
        std::size_t off = 0, first = 0;
        double firstLength = 0.0;
        for (std::size_t v = 0; v < normals.size(); ++v) {
            Vec3& n = normals[v];
            const double len = std::sqrt(double(n.x) * n.x + double(n.y) * n.y + double(n.z) * n.z);
            if (std::fabs(len - 1.0) <= kNormalUnitTolerance) continue;
            if (off++ == 0) {
                first = v;
                firstLength = len;
            }
            if (lenient() && len > 0.0) n = {float(n.x / len), float(n.y / len), float(n.z / len)};
        }
        if (off == 0) return;
        recoverable(Pointer{} / "accessors" / static_cast<std::size_t>(index),
                    std::to_string(off) + " normal" + (off == 1 ? " is" : "s are") + " not of unit length (first: vertex " +
                        std::to_string(first) + ", length " + exactNumber(static_cast<float>(firstLength)) + "; tolerance " +
                        exactNumber(kNormalUnitTolerance) + ")",
                    "renormalised (zero vectors left as they are)");
    }

    void readAccessors() {
        accessors_.resize(table("accessors", sizeof(Accessor) + sizeof(std::vector<float>)));
        forEachObject("accessors", [&](std::size_t i, const dom::object& o, const Pointer& at) {
            Accessor& acc = accessors_[i];
            AccessorDesc& d = acc.desc;
            enum { kComponentType, kCount, kType, kNormalized, kByteOffset, kBufferView, kSparse, kMin, kMax };
            static constexpr std::array<std::string_view, 9> kKeys{"componentType", "count", "type", "normalized",
                                                                    "byteOffset", "bufferView", "sparse", "min", "max"};
            const Members<9> m(o, kKeys);
            std::uint64_t componentType = 0, count = 0, offset = 0;
            const bool hasType = getUint(m[kComponentType], "componentType", at, componentType, true);
            if (hasType && gltf::componentSize(static_cast<std::uint32_t>(std::min<std::uint64_t>(componentType, 0xFFFFFFFF))) == 0) {
                fault(at / "componentType", std::to_string(componentType) + " is not a glTF component type");
                return;
            }
            const bool hasCount = getUint(m[kCount], "count", at, count, true);
            std::string_view type;
            const bool hasShape = getString(m[kType], "type", at, type, true);
            std::optional<ElementShape> shape;
            if (hasShape) {
                shape = gltf::elementShape(type);
                if (!shape) fault(at / "type", "'" + std::string(type) + "' is not an accessor type");
            }
            getBool(m[kNormalized], "normalized", at, d.normalized);
            getUint(m[kByteOffset], "byteOffset", at, offset, false);
            if (!hasType || !hasCount || !shape) return;
            d.componentType = static_cast<ComponentType>(componentType);
            d.shape = *shape;
            acc.declaredCount = count;
            // No buffer holds 2^40 elements; a larger count is refused here, so that
            // sizes computed from it later cannot overflow.
            if (count > kMaxElementCount) {
                fault(at / "count", "count " + std::to_string(count) + " is larger than any accessor can hold (at most " +
                                        std::to_string(kMaxElementCount) + ")");
                return;
            }
            d.count = static_cast<std::size_t>(count);
            readBounds(m[kMin], m[kMax], at, acc);
            if (d.normalized && (d.componentType == ComponentType::Float || d.componentType == ComponentType::UnsignedInt)) {
                fault(at / "normalized", "float and unsigned int accessors cannot be normalized");
                return;
            }
            const std::size_t componentBytes = gltf::componentSize(static_cast<std::uint32_t>(componentType));
            const std::int32_t view = getIndex(m[kBufferView], "bufferView", at, views_.size(), "bufferView", false);
            if (view >= 0) {
                const auto data = viewFrom(view, offset, at / "byteOffset");
                if (!data) return;
                const View& v = views_[static_cast<std::size_t>(view)];
                const std::size_t absolute = static_cast<std::size_t>(v.bytes.data() - buffers_[v.buffer].bytes.data()) +
                                             static_cast<std::size_t>(offset);
                if (absolute % componentBytes != 0) {
                    fault(at / "byteOffset", "data starts at buffer byte " + std::to_string(absolute) +
                                                 ", not a multiple of the component size " + std::to_string(componentBytes));
                    return;
                }
                if (v.stride != 0 && v.stride % componentBytes != 0) {
                    fault(at / "bufferView", "byteStride is not a multiple of the component size");
                    return;
                }
                d.data = *data;
                d.hasView = true;
                d.byteStride = v.stride;
            } else if (offset != 0 && m.has(kBufferView)) {
                return;  // invalid view index already reported
            }
            dom::object sparse;
            if (getObject(m[kSparse], "sparse", at, sparse, false)) {
                const Pointer sp = at / "sparse";
                gltf::SparseDesc s;
                std::uint64_t sparseCount = 0;
                dom::object indices, values;
                const bool ok1 = getUint(sparse, "count", sp, sparseCount, true);
                const bool ok2 = getObject(sparse, "indices", sp, indices, true);
                const bool ok3 = getObject(sparse, "values", sp, values, true);
                if (!ok1 || !ok2 || !ok3) return;
                s.count = static_cast<std::size_t>(std::min<std::uint64_t>(sparseCount, d.count + 1));
                std::uint64_t indexType = 0, indexOffset = 0, valueOffset = 0;
                const std::int32_t iv = getIndex(indices, "bufferView", sp / "indices", views_.size(), "bufferView", true);
                getUint(indices, "byteOffset", sp / "indices", indexOffset, false);
                if (!getUint(indices, "componentType", sp / "indices", indexType, true)) return;
                const std::int32_t vv = getIndex(values, "bufferView", sp / "values", views_.size(), "bufferView", true);
                getUint(values, "byteOffset", sp / "values", valueOffset, false);
                if (indexType != 5121 && indexType != 5123 && indexType != 5125) {
                    fault(sp / "indices" / "componentType", "sparse indices must be UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT");
                    return;
                }
                s.indexType = static_cast<ComponentType>(indexType);
                const auto ib = viewFrom(iv, indexOffset, sp / "indices" / "byteOffset");
                const auto vb = viewFrom(vv, valueOffset, sp / "values" / "byteOffset");
                if (!ib || !vb) return;
                s.indices = *ib;
                s.values = *vb;
                d.sparse = s;
            }
            const std::string problem = gltf::checkRanges(d);
            if (!problem.empty()) {
                fault(at, problem);
                return;
            }
            acc.ok = true;
        });
    }

    // Checks that accessor `index` (referenced at `at`) suits a role; nullptr if not.
    const AccessorDesc* useAccessor(std::int64_t index, const Pointer& at, std::initializer_list<ElementShape> shapes,
                                    unsigned allow, const char* role) {
        if (index < 0 || static_cast<std::size_t>(index) >= accessors_.size()) return nullptr;
        const Accessor& a = accessors_[static_cast<std::size_t>(index)];
        if (!a.ok) return nullptr;
        const AccessorDesc& d = a.desc;
        bool shapeOk = false;
        for (const ElementShape& s : shapes) shapeOk |= (s.rows == d.shape.rows && s.columns == d.shape.columns);
        if (!shapeOk) {
            fault(at, std::string(role) + " cannot use accessor " + std::to_string(index) + " of type " +
                          std::string(typeName(d.shape)));
            return nullptr;
        }
        if ((encodingBit(d.componentType, d.normalized) & allow) == 0) {
            fault(at, std::string(role) + " cannot use accessor " + std::to_string(index) + " with componentType " +
                          std::to_string(static_cast<unsigned>(d.componentType)) +
                          (d.normalized ? " (normalized)" : "") +
                          (quantized_ ? "" : " (KHR_mesh_quantization not in use)"));
            return nullptr;
        }
        return &d;
    }

    bool reserveDecoded(std::size_t bytes, const Pointer& at) { return charge(bytes, at, "decoded data"); }

    // Data faults (sparse indices) belong to the accessor, not to its user.
    bool decodeFloats(const AccessorDesc& d, std::int64_t index, std::span<float> out) {
        const std::string problem = gltf::decodeFloats(d, out);
        if (!problem.empty()) {
            fault(Pointer{} / "accessors" / static_cast<std::size_t>(index), problem);
            return false;
        }
        return true;
    }

    template <class T>
    bool decodeInto(std::int64_t index, const Pointer& at, std::initializer_list<ElementShape> shapes, unsigned allow,
                    const char* role, std::vector<T>& out, std::size_t expectedCount = 0) {
        const AccessorDesc* d = useAccessor(index, at, shapes, allow, role);
        if (!d) return false;
        if (expectedCount && d->count != expectedCount) {
            fault(at, std::string(role) + " accessor " + std::to_string(index) + " has " + std::to_string(d->count) +
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
                         std::vector<std::uint32_t>& out) {
        const AccessorDesc* d = useAccessor(index, at, {shape}, kInt8 | kInt16 | kUint32, role);
        if (!d) return false;
        if (d->componentType == ComponentType::Byte || d->componentType == ComponentType::Short) {
            fault(at, std::string(role) + " must use unsigned components");
            return false;
        }
        const std::size_t n = d->count * shape.components();
        if (!reserveDecoded(n * sizeof(std::uint32_t), at)) return false;
        out.resize(n);
        const std::string problem = gltf::decodeUints(*d, out);
        if (!problem.empty()) {
            fault(Pointer{} / "accessors" / static_cast<std::size_t>(index), problem);
            return false;
        }
        return true;
    }

    // ---- nodes and hierarchy ------------------------------------------------
    void readNodes() {
        const std::size_t count = arraySize("nodes");
        const std::size_t meshCount = arraySize("meshes");
        const std::size_t skinCount = arraySize("skins");
        // A node is also a joint of the skeleton, with its maps and rest pose.
        if (!charged(count, sizeof(Node) + sizeof(JointDesc) + 2 * sizeof(Transform) + 8 * sizeof(std::uint32_t),
                     Pointer{} / "nodes", "the nodes table")) {
            return;
        }
        nodes_.resize(count);
        const std::size_t faultsBefore = faults_.size() - valueFaults_;
        forEachObject("nodes", [&](std::size_t i, const dom::object& o, const Pointer& at) {
            Node& n = nodes_[i];
            enum { kName, kMesh, kSkin, kMatrix, kTranslation, kRotation, kScale, kChildren, kWeights };
            static constexpr std::array<std::string_view, 9> kKeys{"name",     "mesh",  "skin",     "matrix", "translation",
                                                                    "rotation", "scale", "children", "weights"};
            const Members<9> f(o, kKeys);
            std::string_view name;
            if (getString(f[kName], "name", at, name, false)) n.name = name;
            n.mesh = getIndex(f[kMesh], "mesh", at, meshCount, "mesh", false);
            n.skin = getIndex(f[kSkin], "skin", at, skinCount, "skin", false);
            float m[16];
            const bool hasMatrix = getFloats(f[kMatrix], "matrix", at, m, 16);
            float t[3], r[4], s[3];
            const bool hasT = getFloats(f[kTranslation], "translation", at, t, 3);
            const bool hasR = getFloats(f[kRotation], "rotation", at, r, 4);
            const bool hasS = getFloats(f[kScale], "scale", at, s, 3);
            if (hasMatrix && (hasT || hasR || hasS)) fault(at, "a node has either matrix or TRS properties, not both");
            if (hasMatrix) {
                Mat4 mat;
                std::copy(m, m + 16, mat.m.begin());
                if (mat(3, 0) != 0.0f || mat(3, 1) != 0.0f || mat(3, 2) != 0.0f || mat(3, 3) != 1.0f) {
                    fault(at / "matrix", "the last row must be 0, 0, 0, 1 (the matrix must decompose to TRS)");
                }
                n.local = decompose(mat);
                n.hasMatrix = true;
                // decompose() zeroes what it cannot represent; a finite matrix whose
                // axis lengths overflow float would silently collapse the subtree.
                const Vec3 axes[3] = {{m[0], m[1], m[2]}, {m[4], m[5], m[6]}, {m[8], m[9], m[10]}};
                for (const Vec3& axis : axes) {
                    const double len = std::sqrt(double(axis.x) * axis.x + double(axis.y) * axis.y + double(axis.z) * axis.z);
                    if (len > double(std::numeric_limits<float>::max())) {
                        fault(at / "matrix", "an axis is too long to represent as a float scale");
                        break;
                    }
                }
            }
            if (hasT) n.local.translation = {t[0], t[1], t[2]};
            if (hasS) n.local.scale = {s[0], s[1], s[2]};
            if (hasR) {
                const auto q = tryNormalize({r[0], r[1], r[2], r[3]});
                const double len = std::sqrt(double(r[0]) * r[0] + double(r[1]) * r[1] + double(r[2]) * r[2] + double(r[3]) * r[3]);
                if (!q) {
                    fault(at / "rotation", "zero quaternion");
                } else {
                    // Within the tolerance, renormalising is what the file means.
                    if (std::fabs(len - 1.0) > kRotationUnitTolerance) {
                        recoverable(at / "rotation", "rotation has length " + exactNumber(static_cast<float>(len)) +
                                                         "; a unit quaternion is required (tolerance " +
                                                         exactNumber(kRotationUnitTolerance) + ")",
                                    "renormalised");
                    }
                    n.local.rotation = *q;
                }
            }
            dom::array children;
            if (getArray(f[kChildren], "children", at, children, false)) {
                std::size_t c = 0;
                for (dom::element e : children) {
                    const auto v = asUint(e);
                    if (!v || *v >= count) {
                        fault(at / "children" / c, "not a node index (" + std::to_string(count) + " nodes)");
                    } else if (*v == i) {
                        fault(at / "children" / c, "a node cannot be its own child");
                    } else {
                        n.children.push_back(static_cast<std::uint32_t>(*v));
                    }
                    ++c;
                }
            }
            dom::array weights;
            if (getArray(f[kWeights], "weights", at, weights, false)) {
                n.hasWeights = true;
                n.weights.resize(weights.size());
                if (!getFloats(f[kWeights], "weights", at, n.weights.data(), n.weights.size())) n.weights.clear();
            }
        });
        // Parents: each node is the child of at most one node.
        for (std::size_t i = 0; i < count; ++i) {
            for (std::size_t c = 0; c < nodes_[i].children.size(); ++c) {
                const std::uint32_t child = nodes_[i].children[c];
                Node& cn = nodes_[child];
                if (cn.parent >= 0 && cn.parent != static_cast<std::int32_t>(i)) {
                    fault(Pointer{} / "nodes" / i / "children" / c,
                          "node " + std::to_string(child) + " already has parent " + std::to_string(cn.parent));
                } else if (cn.parent == static_cast<std::int32_t>(i)) {
                    fault(Pointer{} / "nodes" / i / "children" / c, "node " + std::to_string(child) + " listed twice");
                } else {
                    cn.parent = static_cast<std::int32_t>(i);
                }
            }
        }
        // Repairable value faults (a non-unit rotation) do not stop the passes that
        // need the hierarchy, so that every other fault is still found.
        nodesOk_ = faults_.size() - valueFaults_ == faultsBefore;
    }

    void buildSkeleton() {
        const std::size_t count = nodes_.size();
        std::vector<std::uint32_t> order;
        order.reserve(count);
        std::vector<std::uint8_t> visited(count, 0);
        std::vector<std::uint32_t> stack;
        for (std::size_t r = 0; r < count; ++r) {
            if (nodes_[r].parent >= 0) continue;
            stack.push_back(static_cast<std::uint32_t>(r));
            while (!stack.empty()) {
                const std::uint32_t n = stack.back();
                stack.pop_back();
                if (visited[n]) continue;
                visited[n] = 1;
                order.push_back(n);
                const auto& ch = nodes_[n].children;
                for (auto it = ch.rbegin(); it != ch.rend(); ++it) stack.push_back(*it);
            }
        }
        if (order.size() != count) {
            for (std::size_t i = 0; i < count; ++i) {
                if (!visited[i]) fault(Pointer{} / "nodes" / i, "node is part of a cycle in the node hierarchy");
            }
            return;
        }
        model_.nodeOfJoint = order;
        model_.jointOfNode.assign(count, 0);
        for (std::size_t j = 0; j < count; ++j) model_.jointOfNode[order[j]] = static_cast<std::uint32_t>(j);
        std::vector<JointDesc> joints(count);
        for (std::size_t j = 0; j < count; ++j) {
            Node& n = nodes_[order[j]];
            joints[j].name = std::string(n.name);
            joints[j].parent = n.parent < 0 ? kNoParent : static_cast<std::int32_t>(model_.jointOfNode[static_cast<std::size_t>(n.parent)]);
            joints[j].rest = n.local;
        }
        auto skeleton = Skeleton::create(std::move(joints));
        if (!skeleton) {
            for (const Fault& f : skeleton.faults()) fault(Pointer{} / "nodes", f.where + ": " + f.what);
            return;
        }
        model_.skeleton = std::move(*skeleton);
        skeletonOk_ = true;
    }

    // ---- images, textures, materials ----------------------------------------
    // An image file is checked now, under the same rules as buffers, and read only
    // when decoded. A resolver cannot be called later (the Model keeps no callback),
    // so with one the bytes are fetched now and kept as a model buffer.
    void locateImage(std::size_t index, std::string_view uri, const Pointer& at, ImageSource& img) {
        if (opt_.resolver) {
            ResourceBytes bytes = fetchResource(uri, budgetLeft(), at, at);
            if (!bytes) return;
            if (!charge(bytes->size(), at, "image " + std::to_string(index))) return;
            img.buffer = static_cast<std::int32_t>(model_.buffers.size());
            img.byteOffset = 0;
            img.byteLength = bytes->size();
            model_.buffers.push_back(std::move(bytes));
            return;
        }
        bool ok = false;
        const gltf::UriPath path = checkedUri(uri, at, ok);
        if (!ok) return;
        std::string error;
        gltf::ResourceLocation location = locate(path, error);
        if (!error.empty()) {
            fault(at, error);
            return;
        }
        img.folder = std::move(location.folder);
        img.path = std::move(location.path);
    }

    void readImagesTexturesMaterials() {
        model_.images.resize(table("images", sizeof(ImageSource)));
        forEachObject("images", [&](std::size_t i, const dom::object& o, const Pointer& at) {
            ImageSource& img = model_.images[i];
            std::string_view s;
            if (getString(o, "name", at, s, false)) img.name = s;
            if (getString(o, "mimeType", at, s, false)) img.mimeType = s;
            std::string_view uri;
            const bool hasUri = getString(o, "uri", at, uri, false);
            const std::int32_t view = getIndex(o, "bufferView", at, views_.size(), "bufferView", false);
            if (hasUri == (member(o, "bufferView").has_value())) {
                fault(at, "an image has exactly one of uri and bufferView");
                return;
            }
            if (hasUri) {
                img.uri = uri;
                if (!gltf::isDataUri(uri)) locateImage(i, uri, at / "uri", img);
            } else if (view >= 0 && views_[static_cast<std::size_t>(view)].ok) {
                const View& v = views_[static_cast<std::size_t>(view)];
                const Buffer& b = buffers_[v.buffer];
                img.buffer = b.modelBuffer;
                img.byteOffset = static_cast<std::size_t>(v.bytes.data() - b.owner->data());
                img.byteLength = v.bytes.size();
                if (img.mimeType.empty()) fault(at / "mimeType", "required when the image is in a bufferView");
            }
        });
        model_.textures.resize(table("textures", sizeof(Texture)));
        forEachObject("textures", [&](std::size_t i, const dom::object& o, const Pointer& at) {
            model_.textures[i].image = getIndex(o, "source", at, model_.images.size(), "image", false);
        });
        model_.materials.resize(table("materials", sizeof(Material)));
        forEachObject("materials", [&](std::size_t i, const dom::object& o, const Pointer& at) {
            Material& m = model_.materials[i];
            std::string_view s;
            if (getString(o, "name", at, s, false)) m.name = s;
            dom::object pbr;
            if (!getObject(o, "pbrMetallicRoughness", at, pbr, false)) return;
            const Pointer pat = at / "pbrMetallicRoughness";
            getFloats(pbr, "baseColorFactor", pat, m.baseColorFactor.data(), 4);
            dom::object tex;
            if (getObject(pbr, "baseColorTexture", pat, tex, false)) {
                const Pointer tat = pat / "baseColorTexture";
                const std::int32_t t = getIndex(tex, "index", tat, model_.textures.size(), "texture", true);
                std::uint64_t texCoord = 0;
                getUint(tex, "texCoord", tat, texCoord, false);
                if (t >= 0) m.baseColorTexture = TextureRef{static_cast<std::uint32_t>(t), static_cast<std::uint32_t>(std::min<std::uint64_t>(texCoord, 0xFFFF))};
            }
        });
    }

    // ---- meshes -------------------------------------------------------------
    void readMeshes() {
        model_.meshes.resize(table("meshes", sizeof(Mesh)));
        forEachObject("meshes", [&](std::size_t mi, const dom::object& o, const Pointer& at) {
            Mesh& mesh = model_.meshes[mi];
            std::string_view s;
            if (getString(o, "name", at, s, false)) mesh.name = s;
            dom::array prims;
            if (!getArray(o, "primitives", at, prims, true)) return;
            if (prims.size() == 0) fault(at / "primitives", "a mesh needs at least one primitive");
            if (!charged(prims.size(), sizeof(MeshPrimitive), at / "primitives", "the primitives")) return;
            mesh.primitives.resize(prims.size());
            std::size_t p = 0;
            bool first = true;
            for (dom::element e : prims) {
                const Pointer pat = at / "primitives" / p;
                dom::object po;
                if (asObject(e, pat, po)) {
                    std::size_t targets = 0;
                    readPrimitive(po, pat, mesh.primitives[p], targets);
                    if (first) mesh.targetCount = static_cast<std::uint32_t>(targets);
                    else if (targets != mesh.targetCount) {
                        fault(pat / "targets", "every primitive of a mesh has the same number of morph targets (" +
                                                   std::to_string(mesh.targetCount) + " in primitive 0)");
                    }
                    first = false;
                }
                ++p;
            }
            mesh.weights.assign(mesh.targetCount, 0.0f);
            dom::array w;
            if (getArray(o, "weights", at, w, false)) {
                if (w.size() != mesh.targetCount) {
                    fault(at / "weights", "holds " + std::to_string(w.size()) + " weights for " +
                                              std::to_string(mesh.targetCount) + " morph targets");
                } else {
                    getFloats(o, "weights", at, mesh.weights.data(), mesh.weights.size());
                }
            }
            readTargetNames(o, at, mesh);
        });
    }

    // Morph target names: not part of glTF itself, but exporters (Blender among them)
    // and loaders agree on mesh.extras.targetNames, one string per target. Names that
    // do not fit the targets are a warning, never a fault: extras are free-form.
    void readTargetNames(const dom::object& o, const Pointer& at, Mesh& mesh) {
        dom::object extras;
        dom::array names;
        dom::element e;
        if (o.at_key("extras").get(e) || e.get_object().get(extras)) return;
        if (extras.at_key("targetNames").get(e)) return;
        const Pointer nat = at / "extras" / "targetNames";
        if (e.get_array().get(names)) {
            warn(nat, "is not an array of names; ignored");
            return;
        }
        if (names.size() != mesh.targetCount) {
            warn(nat, "holds " + std::to_string(names.size()) + " names for " + std::to_string(mesh.targetCount) +
                          " morph targets; ignored");
            return;
        }
        std::vector<std::string> list;
        for (dom::element name : names) {
            std::string_view text;
            if (name.get_string().get(text)) {
                warn(nat / list.size(), "is not a string; the names are ignored");
                return;
            }
            list.emplace_back(text);
        }
        mesh.targetNames = std::move(list);
    }

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
        static constexpr std::array<std::string_view, 7> kKeys{"POSITION", "NORMAL",    "TEXCOORD_0", "JOINTS_0",
                                                                "WEIGHTS_0", "JOINTS_1", "WEIGHTS_1"};
        const dom::object& attrs_;
        Members<7> m_;
    };

    void readPrimitive(const dom::object& o, const Pointer& at, MeshPrimitive& prim, std::size_t& targetCount) {
        enum { kMode, kMaterial, kAttributes, kIndices, kTargets };
        static constexpr std::array<std::string_view, 5> kKeys{"mode", "material", "attributes", "indices", "targets"};
        const Members<5> pm(o, kKeys);
        std::uint64_t mode = 4;
        if (getUint(pm[kMode], "mode", at, mode, false) && mode > 6) fault(at / "mode", "must be 0..6");
        prim.mode = static_cast<PrimitiveMode>(std::min<std::uint64_t>(mode, 6));
        prim.material = getIndex(pm[kMaterial], "material", at, model_.materials.size(), "material", false);
        dom::object attrObject;
        if (!getObject(pm[kAttributes], "attributes", at, attrObject, true)) return;
        const Attributes attrs(attrObject);
        const Pointer aat = at / "attributes";
        const unsigned posAllow = quantized_ ? kQuantized : kFloat;
        const unsigned nrmAllow = quantized_ ? (kFloat | kInt8Norm | kInt16Norm) : kFloat;
        const unsigned uvAllow = quantized_ ? kQuantized : (kFloat | kInt8Norm | kInt16Norm);
        std::uint64_t idx = 0;
        std::size_t vertexCount = 0;
        bool haveCount = false;
        if (getUint(attrs["POSITION"], "POSITION", aat, idx, false)) {
            if (decodeInto(static_cast<std::int64_t>(idx), aat / "POSITION", {{3, 1}}, posAllow, "POSITION", prim.positions)) {
                vertexCount = prim.positions.size();
                haveCount = true;
                const std::span<const float> flat(&prim.positions.data()->x, vertexCount * 3);
                checkFinite(static_cast<std::int64_t>(idx), flat);
                checkBounds(static_cast<std::int64_t>(idx), flat, true, "a POSITION");
            }
            if (idx >= accessors_.size()) fault(aat / "POSITION", "no such accessor");
        }
        auto attributeIndex = [&](std::string_view key, std::int64_t& out) {
            std::uint64_t v = 0;
            if (!getUint(attrs[key], key, aat, v, false)) return false;
            if (v >= accessors_.size()) {
                fault(aat / key, "no such accessor");
                return false;
            }
            out = static_cast<std::int64_t>(v);
            return true;
        };
        // Without POSITION a primitive has no vertices to pose or draw (glTF: skip
        // it); its other accessors are still checked but not decoded, so nothing in
        // the model refers to vertices that do not exist.
        const bool decodeDrawData = opt_.decodeRenderAttributes && haveCount;
        std::int64_t a = -1;
        if (attributeIndex("NORMAL", a)) {
            if (decodeDrawData) {
                if (decodeInto(a, aat / "NORMAL", {{3, 1}}, nrmAllow, "NORMAL", prim.normals, vertexCount)) {
                    const std::span<const float> flat(&prim.normals.data()->x, vertexCount * 3);
                    if (checkFinite(a, flat)) checkUnitNormals(a, prim.normals);
                    checkBounds(a, flat, false, "a NORMAL");
                }
            } else {
                useAccessor(a, aat / "NORMAL", {{3, 1}}, nrmAllow, "NORMAL");
            }
        }
        if (attributeIndex("TEXCOORD_0", a)) {
            if (decodeDrawData) {
                if (decodeInto(a, aat / "TEXCOORD_0", {{2, 1}}, uvAllow, "TEXCOORD_0", prim.texcoords, vertexCount)) {
                    const std::span<const float> flat(prim.texcoords.data()->data(), vertexCount * 2);
                    checkFinite(a, flat);
                    checkBounds(a, flat, false, "a TEXCOORD_0");
                }
            } else {
                useAccessor(a, aat / "TEXCOORD_0", {{2, 1}}, uvAllow, "TEXCOORD_0");
            }
        }
        // Skinning sets JOINTS_n / WEIGHTS_n come in pairs, numbered from 0 without gaps.
        std::size_t sets = 0;
        bool unpairedSet = false;
        while (true) {
            const std::string jk = "JOINTS_" + std::to_string(sets), wk = "WEIGHTS_" + std::to_string(sets);
            const bool hj = attrs[jk].has_value(), hw = attrs[wk].has_value();
            if (!hj && !hw) break;
            if (hj != hw) {
                fault(aat / (hj ? jk : wk), "skinning set " + std::to_string(sets) + " has " + (hj ? jk : wk) +
                                                " without " + (hj ? wk : jk));
                unpairedSet = true;
                break;
            }
            ++sets;
        }
        // Any other numbered skinning set (a gap) is a fault.
        for (auto [key, value] : attrObject) {
            (void)value;
            for (std::string_view prefix : {std::string_view("JOINTS_"), std::string_view("WEIGHTS_")}) {
                if (key.substr(0, prefix.size()) == prefix) {
                    std::size_t n = 0;
                    bool digits = key.size() > prefix.size();
                    for (char c : key.substr(prefix.size())) {
                        digits &= (c >= '0' && c <= '9');
                        n = n * 10 + static_cast<std::size_t>(c - '0');
                        if (n > 1000) break;
                    }
                    if ((!digits || n >= sets) && !unpairedSet) {
                        fault(aat / key, "skinning attribute sets must be numbered from 0 without gaps");
                    }
                }
            }
        }
        if (unpairedSet) {
            // Reported above; the sets cannot be read, the rest of the primitive can.
        } else if (sets > 0 && haveCount) {
            readInfluences(attrs, aat, sets, vertexCount, prim);
        } else {
            for (std::size_t set = 0; set < sets; ++set) {
                const std::string jk = "JOINTS_" + std::to_string(set), wk = "WEIGHTS_" + std::to_string(set);
                if (attributeIndex(jk, a)) useAccessor(a, aat / jk, {{4, 1}}, kInt8 | kInt16, "JOINTS_n");
                if (attributeIndex(wk, a)) useAccessor(a, aat / wk, {{4, 1}}, kFloat | kInt8Norm | kInt16Norm, "WEIGHTS_n");
            }
        }
        if (pm.has(kIndices)) {
            std::uint64_t ia = 0;
            getUint(pm[kIndices], "indices", at, ia, true);
            if (ia >= accessors_.size()) {
                fault(at / "indices", "no such accessor");
            } else if (accessors_[ia].ok && accessors_[ia].desc.byteStride != 0) {
                fault(at / "indices", "accessor " + std::to_string(ia) + "'s bufferView has byteStride " +
                                          std::to_string(accessors_[ia].desc.byteStride) +
                                          "; indices must be tightly packed (no byteStride)");
            } else if (!decodeDrawData) {
                useAccessor(static_cast<std::int64_t>(ia), at / "indices", {{1, 1}}, kInt8 | kInt16 | kUint32, "indices");
            } else if (decodeUintsInto(static_cast<std::int64_t>(ia), at / "indices", {1, 1}, "indices", prim.indices)) {
                // Any index >= vertexCount, as a signed compare of biased values so
                // the scan vectorises without SSE4.1's unsigned max.
                bool anyBad = false;
                if (vertexCount <= 0xFFFFFFFFu) {
                    const auto biased = [](std::uint32_t v) { return static_cast<std::int32_t>(v ^ 0x80000000u); };
                    const std::int32_t limit = biased(static_cast<std::uint32_t>(vertexCount));
                    int bad = 0;
                    for (const std::uint32_t i : prim.indices) bad |= biased(i) >= limit ? 1 : 0;
                    anyBad = bad != 0;
                }
                if (anyBad) {
                    const auto bad = std::find_if(prim.indices.begin(), prim.indices.end(),
                                                  [&](std::uint32_t i) { return i >= vertexCount; });
                    fault(Pointer{} / "accessors" / static_cast<std::size_t>(ia),
                          "index " + std::to_string(*bad) + " at element " +
                              std::to_string(bad - prim.indices.begin()) + " is not below the vertex count " +
                              std::to_string(vertexCount));
                }
            }
        }
        dom::array targets;
        if (getArray(pm[kTargets], "targets", at, targets, false)) {
            targetCount = targets.size();
            if (!charged(targetCount, sizeof(MorphTarget), at / "targets", "the morph targets")) return;
            prim.targets.resize(targetCount);
            std::size_t t = 0;
            for (dom::element e : targets) {
                const Pointer tat = at / "targets" / t;
                dom::object to;
                if (asObject(e, tat, to)) {
                    const unsigned deltaAllow = quantized_ ? kQuantized : kFloat;
                    std::uint64_t ta = 0;
                    for (const auto& [key, deltas] : {std::pair<std::string_view, std::vector<Vec3>*>{"POSITION", &prim.targets[t].positions},
                                                      std::pair<std::string_view, std::vector<Vec3>*>{"NORMAL", &prim.targets[t].normals}}) {
                        if (!getUint(to, key, tat, ta, false)) continue;
                        const auto index = static_cast<std::int64_t>(ta);
                        if (ta >= accessors_.size()) {
                            fault(tat / key, "no such accessor");
                        } else if (haveCount) {
                            if (decodeInto(index, tat / key, {{3, 1}}, deltaAllow, "morph target", *deltas, vertexCount)) {
                                const std::span<const float> flat(&deltas->data()->x, vertexCount * 3);
                                checkFinite(index, flat);
                                checkBounds(index, flat, false, "a morph target");
                            }
                        } else {
                            useAccessor(index, tat / key, {{3, 1}}, deltaAllow, "morph target");
                        }
                    }
                }
                ++t;
            }
        }
    }

    // JOINTS_n / WEIGHTS_n sets into the primitive's vertex-major influence arrays,
    // weights checked (finite, >= 0) and renormalised to sum to 1 per vertex.
    void readInfluences(const Attributes& attrs, const Pointer& aat, std::size_t sets, std::size_t vertexCount,
                        MeshPrimitive& prim) {
        const std::size_t k = sets * 4;
        const std::size_t n = vertexCount * k;
        // Joints (2 bytes) and weights (4) per influence, and as much again for the
        // per-set staging when there is more than one set.
        if (!reserveDecoded(n * (sets == 1 ? 6 : 12), aat)) return;
        prim.influencesPerVertex = static_cast<std::uint32_t>(k);
        // One set (the common case) decodes straight into place, tightly packed
        // data copied as it is.
        const bool direct = sets == 1;
        if (!direct) {
            prim.joints.resize(n);
            prim.weights.resize(n);
        }
        std::vector<std::uint16_t> js;
        std::vector<float> ws;
        std::vector<std::size_t> jointAccessor(sets), weightAccessor(sets);
        for (std::size_t set = 0; set < sets; ++set) {
            const std::string jk = "JOINTS_" + std::to_string(set), wk = "WEIGHTS_" + std::to_string(set);
            std::uint64_t ja = 0, wa = 0;
            getUint(attrs[jk], jk, aat, ja, true);
            getUint(attrs[wk], wk, aat, wa, true);
            jointAccessor[set] = static_cast<std::size_t>(ja);
            weightAccessor[set] = static_cast<std::size_t>(wa);
            const AccessorDesc* jd = useAccessor(static_cast<std::int64_t>(ja), aat / jk, {{4, 1}}, kInt8 | kInt16, jk.c_str());
            const AccessorDesc* wd =
                useAccessor(static_cast<std::int64_t>(wa), aat / wk, {{4, 1}}, kFloat | kInt8Norm | kInt16Norm, wk.c_str());
            if (ja >= accessors_.size()) fault(aat / jk, "no such accessor");
            if (wa >= accessors_.size()) fault(aat / wk, "no such accessor");
            if (!jd || !wd) return;
            if (jd->count != vertexCount || wd->count != vertexCount) {
                fault(aat / (jd->count != vertexCount ? jk : wk),
                      "has " + std::to_string(jd->count != vertexCount ? jd->count : wd->count) + " elements for " +
                          std::to_string(vertexCount) + " vertices");
                return;
            }
            std::vector<std::uint16_t>& jv = direct ? prim.joints : js;
            std::vector<float>& wv = direct ? prim.weights : ws;
            if (!assignPacked(jv, gltf::packedUint16s(*jd))) {
                jv.resize(vertexCount * 4);
                const std::string problem = gltf::decodeUint16s(*jd, jv);
                if (!problem.empty()) {
                    fault(aat / jk, problem);
                    return;
                }
            }
            if (!assignPacked(wv, gltf::packedFloats(*wd))) {
                wv.resize(vertexCount * 4);
                const std::string problem = gltf::decodeFloats(*wd, wv);
                if (!problem.empty()) {
                    fault(Pointer{} / "accessors" / static_cast<std::size_t>(wa), problem);
                    return;
                }
            }
            const std::span<const float> wout = wv;
            // Negative (other than -0) or non-finite weights, found with integer
            // tests on the bits so the scan vectorises.
            std::uint32_t bad = 0;
            for (const float w : wout) {
                std::uint32_t bits;
                std::memcpy(&bits, &w, sizeof bits);
                bad |= static_cast<std::uint32_t>(bits > 0x80000000u) |
                       static_cast<std::uint32_t>((bits & 0x7F800000u) == 0x7F800000u);
            }
            if (bad != 0) {
                const auto it = std::find_if(wout.begin(), wout.end(), [](float w) {
                    return !(w >= 0.0f && w <= std::numeric_limits<float>::max());
                });
                fault(Pointer{} / "accessors" / static_cast<std::size_t>(wa),
                      "weight of vertex " + std::to_string((it - wout.begin()) / 4) + " is negative or not finite");
                return;
            }
            if (!direct) {
                for (std::size_t v = 0; v < vertexCount; ++v) {
                    std::copy_n(&js[v * 4], 4, &prim.joints[v * k + set * 4]);
                    std::copy_n(&ws[v * 4], 4, &prim.weights[v * k + set * 4]);
                }
            }
        }
        if (!checkInfluences(prim, vertexCount, sets, jointAccessor, weightAccessor)) return;
        // Renormalise: quantised weights and exporters drift from a sum of 1 (within
        // the tolerance checked above, or beyond it when lenient). Branch-free so it
        // vectorises; a sum of exactly 1 multiplies by exactly 1, an all-zero vertex
        // stays all zero. (A fixed count of 4, the common case, lets the compiler unroll it.)
        auto renormalise = [&](auto influences) {
            const std::size_t per = influences;
            for (std::size_t v = 0; v < vertexCount; ++v) {
                float* w = &prim.weights[v * per];
                float sum = 0.0f;
                for (std::size_t i = 0; i < per; ++i) sum += w[i];
                const float inv = sum > 0.0f ? 1.0f / sum : 1.0f;
                for (std::size_t i = 0; i < per; ++i) w[i] *= inv;
            }
        };
        if (k == 4) renormalise(std::integral_constant<std::size_t, 4>{});
        else renormalise(k);
    }

    // One set of four influences per vertex (nearly every file): whether every vertex
    // passes, in one branch-free pass that the compiler can vectorise; the slower
    // pass that names the first offender runs only when one does not. Zero weights
    // add nothing to a float sum, and |sum - 1| is exact in float near 1, so this
    // decides exactly as the validator's double-precision comparison does.
    static bool influencesLookRight(const std::vector<std::uint16_t>& joints, const std::vector<float>& weights,
                                    std::size_t vertexCount) {
        std::uint32_t bad = 0;
        for (std::size_t v = 0; v < vertexCount; ++v) {
            const float* w = &weights[v * 4];
            const std::uint16_t* j = &joints[v * 4];
            const bool n0 = w[0] != 0.0f, n1 = w[1] != 0.0f, n2 = w[2] != 0.0f, n3 = w[3] != 0.0f;
            const bool repeated = (n0 & n1 & (j[0] == j[1])) | (n0 & n2 & (j[0] == j[2])) | (n0 & n3 & (j[0] == j[3])) |
                                  (n1 & n2 & (j[1] == j[2])) | (n1 & n3 & (j[1] == j[3])) | (n2 & n3 & (j[2] == j[3]));
            const float sum = ((w[0] + w[1]) + w[2]) + w[3];
            const float tolerance = float(int(n0) + int(n1) + int(n2) + int(n3)) * float(kWeightSumTolerancePerWeight);
            bad |= std::uint32_t(repeated) | std::uint32_t(std::fabs(sum - 1.0f) > tolerance);
        }
        return bad == 0;
    }

    // Per vertex, as the glTF-Validator counts it: a joint may carry a non-zero weight
    // once (a repeat is a fault: which of the two the file meant is unknowable); the
    // non-zero weights, summed in float in component-then-set order, are 1 within 2e-7
    // each (else recoverable: renormalised when lenient).
    bool checkInfluences(const MeshPrimitive& prim, std::size_t vertexCount, std::size_t sets,
                         const std::vector<std::size_t>& jointAccessor, const std::vector<std::size_t>& weightAccessor) {
        const std::size_t k = sets * 4;
        std::size_t offSum = 0, firstOff = 0;
        float firstSum = 0.0f;
        if (sets == 1 && influencesLookRight(prim.joints, prim.weights, vertexCount)) return true;
        for (std::size_t v = 0; v < vertexCount; ++v) {
            const std::uint16_t* joints = &prim.joints[v * k];
            const float* weights = &prim.weights[v * k];
            float sum = 0.0f;
            double tolerance = 0.0;
            for (std::size_t r = 0; r < 4; ++r) {
                for (std::size_t set = 0; set < sets; ++set) {
                    const float w = weights[set * 4 + r];
                    if (w == 0.0f) continue;
                    sum += w;
                    tolerance += kWeightSumTolerancePerWeight;
                }
            }
            bool repeated = false;
            for (std::size_t a = 0; a < k && !repeated; ++a) {
                for (std::size_t b = a + 1; b < k; ++b) {
                    repeated |= weights[a] != 0.0f && weights[b] != 0.0f && joints[a] == joints[b];
                }
            }
            if (repeated) {
                // Which joint, and in which set's accessor its second listing is.
                for (std::size_t b = 1; b < k; ++b) {
                    for (std::size_t a = 0; a < b; ++a) {
                        if (weights[a] != 0.0f && weights[b] != 0.0f && joints[a] == joints[b]) {
                            fault(Pointer{} / "accessors" / jointAccessor[b / 4],
                                  "vertex " + std::to_string(v) + " lists joint " + std::to_string(joints[b]) +
                                      " twice with non-zero weights");
                            return false;
                        }
                    }
                }
            }
            if (std::fabs(double(sum) - 1.0) > tolerance) {
                if (offSum++ == 0) {
                    firstOff = v;
                    firstSum = sum;
                }
            }
        }
        if (offSum > 0) {
            recoverable(Pointer{} / "accessors" / weightAccessor[0],
                        "the skin weights of " + std::to_string(offSum) + " vertex" + (offSum == 1 ? "" : "es") +
                            " do not sum to 1 (first: vertex " + std::to_string(firstOff) + ", sum " + exactNumber(firstSum) +
                            "; tolerance 2e-7 per non-zero weight)",
                        "renormalised (a vertex with no weight at all stays unskinned at the origin)");
            if (!lenient()) return false;
        }
        return true;
    }

    // ---- skins --------------------------------------------------------------
    // Joint-space lowest common ancestor-or-self of a and b, or -1.
    std::int32_t commonAncestor(std::int32_t a, std::int32_t b) const {
        const auto parents = model_.skeleton.parents();
        // Parents come before children, so walking the larger index up converges.
        while (a != b && a >= 0 && b >= 0) {
            if (a > b) a = parents[static_cast<std::size_t>(a)];
            else b = parents[static_cast<std::size_t>(b)];
        }
        return a == b ? a : -1;
    }

    void readSkins() {
        model_.skins.resize(table("skins", sizeof(Skin)));
        forEachObject("skins", [&](std::size_t si, const dom::object& o, const Pointer& at) {
            Skin& skin = model_.skins[si];
            std::string_view s;
            if (getString(o, "name", at, s, false)) skin.name = s;
            dom::array joints;
            if (!getArray(o, "joints", at, joints, true)) return;
            if (joints.size() == 0) {
                fault(at / "joints", "a skin needs at least one joint");
                return;
            }
            // One marker array for all skins, cleared joint by joint: work stays
            // proportional to the joints listed, however many nodes and skins there are.
            std::vector<std::uint8_t>& seen = jointSeen_;
            seen.resize(nodes_.size(), 0);
            struct Clear {
                std::vector<std::uint8_t>& marks;
                const Skin& skin;
                const std::vector<std::uint32_t>& nodeOfJoint;
                ~Clear() {
                    for (const std::uint32_t joint : skin.joints) marks[nodeOfJoint[joint]] = 0;
                }
            } const clear{seen, skin, model_.nodeOfJoint};
            std::size_t j = 0;
            for (dom::element e : joints) {
                const auto v = asUint(e);
                if (!v || *v >= nodes_.size()) {
                    fault(at / "joints" / j, "not a node index");
                } else if (seen[*v]) {
                    fault(at / "joints" / j, "node " + std::to_string(*v) + " is listed twice");
                } else {
                    seen[*v] = 1;
                    skin.joints.push_back(model_.jointOfNode[*v]);
                }
                ++j;
            }
            if (skin.joints.size() != joints.size()) return;
            if (!charged(skin.joints.size(), sizeof(Mat4), at / "joints", "the inverse bind matrices")) return;
            skin.inverseBindMatrices.assign(skin.joints.size(), Mat4::identity());
            std::uint64_t ibm = 0;
            if (getUint(o, "inverseBindMatrices", at, ibm, false)) {
                if (ibm >= accessors_.size()) {
                    fault(at / "inverseBindMatrices", "no such accessor");
                    return;
                }
                const AccessorDesc* d = useAccessor(static_cast<std::int64_t>(ibm), at / "inverseBindMatrices", {{4, 4}}, kFloat, "inverseBindMatrices");
                if (!d) return;
                if (d->byteStride != 0) {
                    fault(at / "inverseBindMatrices", "accessor " + std::to_string(ibm) + "'s bufferView has byteStride " +
                                                          std::to_string(d->byteStride) +
                                                          "; inverse bind matrices must be tightly packed (no byteStride)");
                    return;
                }
                if (d->count < skin.joints.size()) {
                    fault(at / "inverseBindMatrices", "accessor " + std::to_string(ibm) + " has " + std::to_string(d->count) +
                                                          " matrices for " + std::to_string(skin.joints.size()) + " joints");
                    return;
                }
                std::vector<Mat4> all;
                if (!decodeInto(static_cast<std::int64_t>(ibm), at / "inverseBindMatrices", {{4, 4}}, kFloat, "inverseBindMatrices", all)) return;
                checkBounds(static_cast<std::int64_t>(ibm), std::span<const float>(all.data()->m.data(), all.size() * 16), false,
                            "an inverseBindMatrices");
                for (std::size_t i = 0; i < skin.joints.size(); ++i) {
                    const Mat4& m = all[i];
                    if (!isFinite(m) || std::fabs(m(3, 0)) > 1e-6f || std::fabs(m(3, 1)) > 1e-6f ||
                        std::fabs(m(3, 2)) > 1e-6f || std::fabs(m(3, 3) - 1.0f) > 1e-6f) {
                        fault(Pointer{} / "accessors" / static_cast<std::size_t>(ibm),
                              "inverse bind matrix " + std::to_string(i) + " is not finite or its last row is not 0, 0, 0, 1");
                        return;
                    }
                    skin.inverseBindMatrices[i] = m;
                }
            }
            std::int32_t root = static_cast<std::int32_t>(skin.joints[0]);
            for (const std::uint32_t jj : skin.joints) root = commonAncestor(root, static_cast<std::int32_t>(jj));
            if (root < 0) {
                fault(at / "joints", "the joints have no common root node");
                return;
            }
            std::int32_t declared = getIndex(o, "skeleton", at, nodes_.size(), "node", false);
            if (declared >= 0) {
                const std::int32_t dj = static_cast<std::int32_t>(model_.jointOfNode[static_cast<std::size_t>(declared)]);
                if (commonAncestor(dj, root) != dj) {
                    fault(at / "skeleton", "node " + std::to_string(declared) +
                                               " is not the joints' common root nor one of its ancestors");
                    return;
                }
            }
            skin.root = root;
        });
    }

    std::uint16_t largestJoint(std::size_t mesh, std::size_t primitive, const MeshPrimitive& prim) {
        const std::uint64_t key = (std::uint64_t{mesh} << 32) | primitive;
        const auto it = largestJoint_.find(key);
        if (it != largestJoint_.end()) return it->second;
        std::uint16_t largest = 0;
        for (const std::uint16_t j : prim.joints) largest = std::max(largest, j);
        largestJoint_.emplace(key, largest);
        return largest;
    }

    // Mesh instances, morph weight layout, and the rules that tie nodes to meshes and skins.
    void bindNodes() {
        const std::size_t count = nodes_.size();
        model_.weightOffsetOfJoint.assign(count, -1);
        for (std::size_t i = 0; i < count; ++i) {
            const Node& n = nodes_[i];
            const Pointer at = Pointer{} / "nodes" / i;
            const std::uint32_t joint = model_.jointOfNode[i];
            if (n.skin >= 0 && n.mesh < 0) fault(at / "skin", "a node with a skin must have a mesh");
            if (n.mesh < 0) {
                if (n.hasWeights) fault(at / "weights", "a node without a mesh cannot have morph weights");
                continue;
            }
            const Mesh& mesh = model_.meshes[static_cast<std::size_t>(n.mesh)];
            MeshInstance inst;
            inst.joint = joint;
            inst.mesh = static_cast<std::uint32_t>(n.mesh);
            inst.skin = n.skin;
            inst.weightOffset = static_cast<std::uint32_t>(model_.restWeights.size());
            if (mesh.targetCount > 0) {
                model_.weightOffsetOfJoint[joint] = static_cast<std::int32_t>(inst.weightOffset);
                if (n.hasWeights && n.weights.size() != mesh.targetCount) {
                    fault(at / "weights", "holds " + std::to_string(n.weights.size()) + " weights for the mesh's " +
                                              std::to_string(mesh.targetCount) + " morph targets");
                }
                const std::vector<float>& w = (n.hasWeights && n.weights.size() == mesh.targetCount) ? n.weights : mesh.weights;
                // Many nodes may share a mesh with many targets: each gets its own weights.
                if (!reserveDecoded(w.size() * sizeof(float), at / "mesh")) continue;
                model_.restWeights.insert(model_.restWeights.end(), w.begin(), w.end());
            } else if (n.hasWeights) {
                fault(at / "weights", "the node's mesh has no morph targets");
            }
            if (n.skin >= 0) {
                const Skin& skin = model_.skins[static_cast<std::size_t>(n.skin)];
                for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
                    const MeshPrimitive& prim = mesh.primitives[p];
                    if (prim.vertexCount() == 0) continue;  // no POSITION: nothing to skin
                    if (prim.influencesPerVertex == 0) {
                        fault(Pointer{} / "meshes" / static_cast<std::size_t>(n.mesh) / "primitives" / p / "attributes",
                              "skinned by node " + std::to_string(i) + " but has no JOINTS_0/WEIGHTS_0");
                        continue;
                    }
                    // Once per primitive, however many nodes skin it.
                    const std::uint16_t largest = largestJoint(static_cast<std::size_t>(n.mesh), p, prim);
                    if (largest < skin.joints.size()) continue;
                    for (std::size_t k = 0; k < prim.joints.size(); ++k) {
                        if (prim.joints[k] >= skin.joints.size()) {
                            fault(Pointer{} / "meshes" / static_cast<std::size_t>(n.mesh) / "primitives" / p / "attributes",
                                  "vertex " + std::to_string(k / prim.influencesPerVertex) + " uses joint " +
                                      std::to_string(prim.joints[k]) + ", skin " + std::to_string(n.skin) + " has " +
                                      std::to_string(skin.joints.size()));
                            break;
                        }
                    }
                }
            }
            model_.meshInstances.push_back(inst);
        }
    }

    void readScenes() {
        model_.scenes.resize(table("scenes", sizeof(Scene)));
        forEachObject("scenes", [&](std::size_t si, const dom::object& o, const Pointer& at) {
            Scene& scene = model_.scenes[si];
            std::string_view s;
            if (getString(o, "name", at, s, false)) scene.name = s;
            dom::array roots;
            if (!getArray(o, "nodes", at, roots, false)) return;
            std::size_t r = 0;
            for (dom::element e : roots) {
                const auto v = asUint(e);
                if (!v || *v >= nodes_.size()) {
                    fault(at / "nodes" / r, "not a node index");
                } else if (nodes_[*v].parent >= 0) {
                    fault(at / "nodes" / r, "node " + std::to_string(*v) + " is not a root (its parent is node " +
                                                std::to_string(nodes_[*v].parent) + ")");
                } else {
                    scene.roots.push_back(model_.jointOfNode[*v]);
                }
                ++r;
            }
        });
        model_.defaultScene = getIndex(root_, "scene", Pointer{}, model_.scenes.size(), "scene", false);
    }

    // ---- animations ---------------------------------------------------------
    void readAnimations() {
        // Key times by input accessor (empty: not decoded yet).
        std::vector<std::vector<float>> timesByAccessor(accessors_.size());
        model_.clips.reserve(table("animations", sizeof(Clip)));
        forEachObject("animations", [&](std::size_t, const dom::object& o, const Pointer& at) {
            std::string name;
            std::string_view s;
            if (getString(o, "name", at, s, false)) name = s;
            dom::array samplers, channels;
            const bool hasSamplers = getArray(o, "samplers", at, samplers, true);
            const bool hasChannels = getArray(o, "channels", at, channels, true);
            if (!hasSamplers || !hasChannels) return;
            struct SamplerInfo {
                std::int64_t input = -1, output = -1;
                Interpolation interpolation = Interpolation::Linear;
                bool ok = false;
            };
            if (!charged(samplers.size() + channels.size(), sizeof(Track) + 2 * sizeof(std::size_t), at,
                         "the samplers and channels")) {
                return;
            }
            std::vector<SamplerInfo> infos(samplers.size());
            std::size_t i = 0;
            for (dom::element e : samplers) {
                const Pointer sat = at / "samplers" / i;
                dom::object so;
                SamplerInfo& si = infos[i++];
                if (!asObject(e, sat, so)) continue;
                std::uint64_t input = 0, output = 0;
                enum { kInput, kOutput, kInterpolation };
                static constexpr std::array<std::string_view, 3> kKeys{"input", "output", "interpolation"};
                const Members<3> m(so, kKeys);
                const bool hi = getUint(m[kInput], "input", sat, input, true);
                const bool ho = getUint(m[kOutput], "output", sat, output, true);
                std::string_view interp = "LINEAR";
                getString(m[kInterpolation], "interpolation", sat, interp, false);
                if (interp == "LINEAR") si.interpolation = Interpolation::Linear;
                else if (interp == "STEP") si.interpolation = Interpolation::Step;
                else if (interp == "CUBICSPLINE") si.interpolation = Interpolation::CubicSpline;
                else {
                    fault(sat / "interpolation", "'" + std::string(interp) + "' is not LINEAR, STEP or CUBICSPLINE");
                    continue;
                }
                if (hi && input >= accessors_.size()) fault(sat / "input", "no such accessor");
                if (ho && output >= accessors_.size()) fault(sat / "output", "no such accessor");
                if (!hi || !ho || input >= accessors_.size() || output >= accessors_.size()) continue;
                si.input = static_cast<std::int64_t>(input);
                si.output = static_cast<std::int64_t>(output);
                // Sampler data is read as packed arrays: the specification allows
                // byteStride only on buffer views of vertex attributes.
                bool packed = true;
                for (const auto& [key, index] : {std::pair<std::string_view, std::uint64_t>{"input", input}, {"output", output}}) {
                    const Accessor& a = accessors_[static_cast<std::size_t>(index)];
                    if (a.ok && a.desc.byteStride != 0) {
                        fault(sat / key, "accessor " + std::to_string(index) + "'s bufferView has byteStride " +
                                             std::to_string(a.desc.byteStride) +
                                             "; animation sampler data must be tightly packed (no byteStride)");
                        packed = false;
                    }
                }
                si.ok = packed;
            }
            std::vector<Track> tracks;
            std::vector<std::size_t> channelOfTrack;
            tracks.reserve(channels.size());
            channelOfTrack.reserve(channels.size());
            std::size_t c = 0;
            // Faults about the data's values (bounds, unit length) do not stop the clip's
            // own checks, which name other problems of the same data.
            const std::size_t faultsBefore = faults_.size() - valueFaults_;
            for (dom::element e : channels) {
                const Pointer cat = at / "channels" / c;
                dom::object co, target;
                const std::size_t channelIndex = c++;
                if (!asObject(e, cat, co)) continue;
                enum { kSampler, kTarget, kNode = 0, kPath = 1 };
                static constexpr std::array<std::string_view, 2> kChannelKeys{"sampler", "target"};
                static constexpr std::array<std::string_view, 2> kTargetKeys{"node", "path"};
                const Members<2> cm(co, kChannelKeys);
                const std::int32_t sampler = getIndex(cm[kSampler], "sampler", cat, infos.size(), "sampler", true);
                if (!getObject(cm[kTarget], "target", cat, target, true)) continue;
                const Pointer tat = cat / "target";
                const Members<2> tm(target, kTargetKeys);
                std::string_view path;
                if (!getString(tm[kPath], "path", tat, path, true)) continue;
                if (!tm.has(kNode)) {
                    // KHR_animation_pointer and other extensions target things that
                    // are not nodes; without the extension such a channel is skipped.
                    continue;
                }
                const std::int32_t node = getIndex(tm[kNode], "node", tat, nodes_.size(), "node", true);
                TrackPath tp;
                if (path == "translation") tp = TrackPath::Translation;
                else if (path == "rotation") tp = TrackPath::Rotation;
                else if (path == "scale") tp = TrackPath::Scale;
                else if (path == "weights") tp = TrackPath::Weights;
                else {
                    fault(tat / "path", "'" + std::string(path) + "' is not translation, rotation, scale or weights");
                    continue;
                }
                if (node >= 0 && nodes_[static_cast<std::size_t>(node)].hasMatrix) {
                    fault(tat / "node", "node " + std::to_string(node) + " is given by a matrix and cannot be animated");
                    continue;
                }
                if (node < 0 || sampler < 0 || !infos[static_cast<std::size_t>(sampler)].ok) continue;
                const SamplerInfo& si = infos[static_cast<std::size_t>(sampler)];
                const Pointer sat = at / "samplers" / static_cast<std::size_t>(sampler);
                Track track;
                track.target = model_.jointOfNode[static_cast<std::size_t>(node)];
                track.path = tp;
                track.interpolation = si.interpolation;
                std::uint32_t width = 3;
                // Only rotation and weights outputs may be normalized integers;
                // KHR_mesh_quantization covers mesh attributes, not animation.
                unsigned allow = kFloat;
                ElementShape shape{3, 1};
                if (tp == TrackPath::Rotation) {
                    width = 4;
                    shape = {4, 1};
                    allow = kFloat | kInt8Norm | kInt16Norm;
                } else if (tp == TrackPath::Weights) {
                    const Node& n = nodes_[static_cast<std::size_t>(node)];
                    const std::uint32_t targets = n.mesh >= 0 ? model_.meshes[static_cast<std::size_t>(n.mesh)].targetCount : 0;
                    if (targets == 0) {
                        fault(tat / "node", "weights animated on node " + std::to_string(node) + ", whose mesh has no morph targets");
                        continue;
                    }
                    width = targets;
                    shape = {1, 1};
                    allow = kFloat | kInt8Norm | kInt16Norm;
                    track.weightOffset = static_cast<std::uint32_t>(model_.weightOffsetOfJoint[track.target]);
                }
                track.width = width;
                // Key times: a float scalar accessor, decoded once however many channels share it.
                std::vector<float>& cached = timesByAccessor[static_cast<std::size_t>(si.input)];
                if (cached.empty()) {
                    if (!decodeInto(si.input, sat / "input", {{1, 1}}, kFloat, "sampler input", cached)) {
                        cached.clear();
                        continue;
                    }
                    checkBounds(si.input, cached, true, "an animation input");
                }
                // Each track holds its own copy of the shared times.
                if (!reserveDecoded(cached.size() * sizeof(float), sat / "input")) continue;
                track.times = cached;
                const std::size_t keys = track.times.size();
                const std::size_t perKey = (si.interpolation == Interpolation::CubicSpline ? 3u : 1u) *
                                           (tp == TrackPath::Weights ? width : 1u);
                if (allow == kFloat) {
                    const Accessor& out = accessors_[static_cast<std::size_t>(si.output)];
                    if (out.ok && out.desc.componentType != ComponentType::Float) {
                        fault(sat / "output", std::string(path) + " output accessor " + std::to_string(si.output) +
                                                  " must be float (componentType 5126), not " +
                                                  std::to_string(static_cast<unsigned>(out.desc.componentType)) +
                                                  "; only rotation and weights outputs may be normalized integers "
                                                  "(KHR_mesh_quantization does not extend to animation)");
                        continue;
                    }
                }
                const AccessorDesc* od = useAccessor(si.output, sat / "output", {shape}, allow, "sampler output");
                if (!od) continue;
                if (od->count != keys * perKey) {
                    fault(sat / "output", "output accessor " + std::to_string(si.output) + " has " + std::to_string(od->count) +
                                              " elements; " + std::to_string(keys) + " keys need " + std::to_string(keys * perKey));
                    continue;
                }
                if (!reserveDecoded(od->count * shape.components() * sizeof(float), sat / "output")) continue;
                if (!assignPacked(track.values, gltf::packedFloats(*od))) {
                    track.values.resize(od->count * shape.components());
                    if (!decodeFloats(*od, si.output, track.values)) continue;
                }
                checkBounds(si.output, track.values, false, "an animation output");
                if (tp == TrackPath::Rotation) checkUnitRotations(si.output, track);
                tracks.push_back(std::move(track));
                channelOfTrack.push_back(channelIndex);
            }
            if (faults_.size() - valueFaults_ != faultsBefore) return;
            auto clip = Clip::create(name, std::move(tracks));
            if (!clip) {
                for (const Fault& f : clip.faults()) {
                    // "tracks/<i>/..." -> the channel that produced track i.
                    std::size_t t = 0;
                    std::string rest = f.where;
                    if (rest.rfind("tracks/", 0) == 0) {
                        t = std::stoul(rest.substr(7));
                        const std::size_t slash = rest.find('/', 7);
                        rest = slash == std::string::npos ? "" : rest.substr(slash + 1);
                        fault(at / "channels" / channelOfTrack[t], (rest.empty() ? "" : rest + ": ") + f.what);
                    } else {
                        fault(at, f.where + ": " + f.what);
                    }
                }
                return;
            }
            model_.clips.push_back(std::move(*clip));
        });
    }

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
    bool stopped_ = false;  // out of budget: the remaining passes do not run
    std::size_t usedBytes_ = 0;
    std::size_t valueFaults_ = 0;  // faults from recoverable(), counted apart
    std::vector<std::uint8_t> jointSeen_;                          // per node, while reading one skin
    std::unordered_map<std::uint64_t, std::uint16_t> largestJoint_;  // (mesh, primitive) -> largest joint index
    std::vector<Fault> warnings_;
    std::vector<Buffer> buffers_;
    std::vector<View> views_;
    std::vector<Accessor> accessors_;
    std::vector<Node> nodes_;
};

std::string fileName(const std::filesystem::path& path) { return path.filename().string(); }

}  // namespace

struct GltfImporter::Parser {
    dom::parser parser;
};

GltfImporter::GltfImporter() : parser_(std::make_unique<Parser>()) {}
GltfImporter::~GltfImporter() = default;
GltfImporter::GltfImporter(GltfImporter&&) noexcept = default;
GltfImporter& GltfImporter::operator=(GltfImporter&&) noexcept = default;

Result<Model> GltfImporter::import(const GltfSource& source, const ImportOptions& options) {
    Importer importer(parser_->parser, source, options);
    return importer.run();
}

Result<Model> GltfImporter::importFile(const std::filesystem::path& path, const ImportOptions& options) {
    // The file is the first thing charged to the budget: one larger is not read at all.
    auto bytes = readFileBytes(path, options.memoryBudget);
    if (!bytes) return std::vector<Fault>(bytes.faults().begin(), bytes.faults().end());
    GltfSource source{std::move(*bytes), path.parent_path(), fileName(path)};
    return import(source, options);
}

Result<Model> importGltf(const GltfSource& source, const ImportOptions& options) {
    GltfImporter importer;
    return importer.import(source, options);
}

Result<Model> importGltfFile(const std::filesystem::path& path, const ImportOptions& options) {
    GltfImporter importer;
    return importer.importFile(path, options);
}

}  // namespace kinema
