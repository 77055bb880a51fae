#include "support/gltf_writer.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace kinema::test {

std::size_t componentBytes(std::uint32_t componentType) {
    switch (componentType) {
        case kByte:
        case kUnsignedByte: return 1;
        case kShort:
        case kUnsignedShort: return 2;
        case kUnsignedInt:
        case kFloat: return 4;
        default: return 0;
    }
}

namespace {

struct Shape {
    std::size_t rows = 0;
    std::size_t columns = 0;
};

Shape shapeOf(std::string_view type) {
    if (type == "SCALAR") return {1, 1};
    if (type == "VEC2") return {2, 1};
    if (type == "VEC3") return {3, 1};
    if (type == "VEC4") return {4, 1};
    if (type == "MAT2") return {2, 2};
    if (type == "MAT3") return {3, 3};
    if (type == "MAT4") return {4, 4};
    return {};
}

constexpr std::byte kFill{0xEE};

void putComponent(std::byte* out, std::uint32_t componentType, double v) {
    std::uint32_t bits = 0;
    switch (componentType) {
        case kByte: bits = static_cast<std::uint8_t>(static_cast<std::int8_t>(v)); break;
        case kUnsignedByte: bits = static_cast<std::uint8_t>(v); break;
        case kShort: bits = static_cast<std::uint16_t>(static_cast<std::int16_t>(v)); break;
        case kUnsignedShort: bits = static_cast<std::uint16_t>(v); break;
        case kUnsignedInt: bits = static_cast<std::uint32_t>(v); break;
        case kFloat: bits = std::bit_cast<std::uint32_t>(static_cast<float>(v)); break;
        default: throw std::invalid_argument("unknown component type " + std::to_string(componentType));
    }
    const std::size_t n = componentBytes(componentType);
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::byte>((bits >> (8 * i)) & 0xFF);
}

std::vector<std::byte> filler(std::size_t n) { return std::vector<std::byte>(n, kFill); }

void appendTo(std::vector<std::byte>& out, std::span<const std::byte> more) {
    out.insert(out.end(), more.begin(), more.end());
}

void escapeTo(std::string& out, std::string_view s) {
    out += '"';
    for (const char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            case '\r': out += "\\r"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    constexpr char hex[] = "0123456789abcdef";
                    out += "\\u00";
                    out += hex[(c >> 4) & 0xF];
                    out += hex[c & 0xF];
                } else {
                    out += c;
                }
        }
    }
    out += '"';
}

// min/max per component, as JSON numbers of the accessor's kind; nullopt when a value is not finite.
std::optional<std::pair<Json, Json>> minMax(std::uint32_t componentType, std::size_t components,
                                            std::span<const double> values) {
    if (components == 0 || values.empty()) return std::nullopt;
    std::vector<double> lo(components, std::numeric_limits<double>::infinity());
    std::vector<double> hi(components, -std::numeric_limits<double>::infinity());
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (!std::isfinite(values[i])) return std::nullopt;
        lo[i % components] = std::min(lo[i % components], values[i]);
        hi[i % components] = std::max(hi[i % components], values[i]);
    }
    Json jlo = Json::array(), jhi = Json::array();
    for (std::size_t c = 0; c < components; ++c) {
        if (componentType == kFloat) {
            jlo.push(static_cast<double>(static_cast<float>(lo[c])));
            jhi.push(static_cast<double>(static_cast<float>(hi[c])));
        } else {
            jlo.push(static_cast<std::int64_t>(lo[c]));
            jhi.push(static_cast<std::int64_t>(hi[c]));
        }
    }
    return std::make_pair(std::move(jlo), std::move(jhi));
}

Json attributesJson(const Attributes& attributes) {
    Json o = Json::object();
    for (const auto& [semantic, accessor] : attributes) o[semantic] = accessor;
    return o;
}

}  // namespace

std::size_t componentCount(std::string_view type) {
    const Shape s = shapeOf(type);
    return s.rows * s.columns;
}

std::size_t elementBytes(std::uint32_t componentType, std::string_view type) {
    const Shape s = shapeOf(type);
    const std::size_t column = s.rows * componentBytes(componentType);
    const std::size_t paddedColumn = s.columns > 1 ? (column + 3) / 4 * 4 : column;
    return paddedColumn * s.columns;
}

// ---- Json ---------------------------------------------------------------------

Json Json::array(std::vector<Json> items) {
    Json j;
    j.kind_ = Kind::Array;
    j.items_ = std::move(items);
    return j;
}

Json Json::object() {
    Json j;
    j.kind_ = Kind::Object;
    return j;
}

Json Json::raw(std::string text) {
    Json j;
    j.kind_ = Kind::Raw;
    j.text_ = std::move(text);
    return j;
}

double Json::number() const {
    switch (kind_) {
        case Kind::Int: return static_cast<double>(int_);
        case Kind::Uint: return static_cast<double>(uint_);
        case Kind::Double: return double_;
        default: throw std::logic_error("Json: not a number: " + dump());
    }
}

Json& Json::operator[](std::string_view key) {
    if (kind_ == Kind::Null) kind_ = Kind::Object;
    if (kind_ != Kind::Object) throw std::logic_error("Json: member '" + std::string(key) + "' of a non-object");
    for (std::size_t i = 0; i < keys_.size(); ++i) {
        if (keys_[i] == key) return items_[i];
    }
    keys_.emplace_back(key);
    items_.emplace_back();
    return items_.back();
}

Json& Json::operator[](std::size_t index) {
    if (kind_ != Kind::Array || index >= items_.size()) {
        throw std::logic_error("Json: no array element " + std::to_string(index));
    }
    return items_[index];
}

const Json& Json::operator[](std::size_t index) const {
    if (kind_ != Kind::Array || index >= items_.size()) {
        throw std::logic_error("Json: no array element " + std::to_string(index));
    }
    return items_[index];
}

const Json& Json::at(std::string_view key) const {
    if (kind_ == Kind::Object) {
        for (std::size_t i = 0; i < keys_.size(); ++i) {
            if (keys_[i] == key) return items_[i];
        }
    }
    throw std::logic_error("Json: no member '" + std::string(key) + "'");
}

bool Json::contains(std::string_view key) const {
    return kind_ == Kind::Object && std::find(keys_.begin(), keys_.end(), key) != keys_.end();
}

void Json::erase(std::string_view key) {
    if (kind_ != Kind::Object) return;
    for (std::size_t i = 0; i < keys_.size(); ++i) {
        if (keys_[i] == key) {
            keys_.erase(keys_.begin() + static_cast<std::ptrdiff_t>(i));
            items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(i));
            return;
        }
    }
}

Json& Json::push(Json value) {
    if (kind_ == Kind::Null) kind_ = Kind::Array;
    if (kind_ != Kind::Array) throw std::logic_error("Json: push onto a non-array");
    items_.push_back(std::move(value));
    return items_.back();
}

std::string Json::dump() const {
    std::string out;
    dumpTo(out);
    return out;
}

void Json::dumpTo(std::string& out) const {
    switch (kind_) {
        case Kind::Null: out += "null"; break;
        case Kind::Bool: out += bool_ ? "true" : "false"; break;
        case Kind::Int: out += std::to_string(int_); break;
        case Kind::Uint: out += std::to_string(uint_); break;
        case Kind::Double: {
            // Not JSON, but what some exporters write; the importer must reject it.
            if (std::isnan(double_)) {
                out += "NaN";
            } else if (std::isinf(double_)) {
                out += double_ > 0 ? "Infinity" : "-Infinity";
            } else {
                char buf[64];
                const auto r = std::to_chars(buf, buf + sizeof buf, double_);
                out.append(buf, r.ptr);
            }
            break;
        }
        case Kind::String: escapeTo(out, text_); break;
        case Kind::Raw: out += text_; break;
        case Kind::Array:
            out += '[';
            for (std::size_t i = 0; i < items_.size(); ++i) {
                if (i) out += ',';
                items_[i].dumpTo(out);
            }
            out += ']';
            break;
        case Kind::Object:
            out += '{';
            for (std::size_t i = 0; i < items_.size(); ++i) {
                if (i) out += ',';
                escapeTo(out, keys_[i]);
                out += ':';
                items_[i].dumpTo(out);
            }
            out += '}';
            break;
    }
}

// ---- encoding -----------------------------------------------------------------------

std::vector<std::byte> encodeComponents(std::uint32_t componentType, std::span<const double> values) {
    const std::size_t n = componentBytes(componentType);
    std::vector<std::byte> out(values.size() * n);
    for (std::size_t i = 0; i < values.size(); ++i) putComponent(out.data() + i * n, componentType, values[i]);
    return out;
}

std::vector<std::byte> encodeElements(std::uint32_t componentType, const std::string& type,
                                      std::span<const double> values, std::size_t byteStride) {
    const Shape shape = shapeOf(type);
    const std::size_t comps = shape.rows * shape.columns;
    const std::size_t cs = componentBytes(componentType);
    if (comps == 0 || cs == 0 || values.size() % comps != 0) {
        throw std::invalid_argument("encodeElements: bad type or value count for " + type);
    }
    const std::size_t elem = elementBytes(componentType, type);
    const std::size_t stride = byteStride ? byteStride : elem;
    const std::size_t count = values.size() / comps;
    const std::size_t columnStride = elem / shape.columns;
    // The last element ends the data: no trailing gap after it.
    std::vector<std::byte> out(count == 0 ? 0 : (count - 1) * stride + elem, kFill);
    for (std::size_t e = 0; e < count; ++e) {
        for (std::size_t c = 0; c < shape.columns; ++c) {
            for (std::size_t r = 0; r < shape.rows; ++r) {
                putComponent(out.data() + e * stride + c * columnStride + r * cs, componentType,
                             values[e * comps + c * shape.rows + r]);
            }
        }
    }
    return out;
}

std::vector<std::byte> makeGlb(std::string_view json, const std::optional<std::vector<std::byte>>& bin) {
    std::vector<std::byte> out(12);
    writeU32(out, 0, 0x46546C67);  // "glTF"
    writeU32(out, 4, 2);
    const std::size_t jsonAt = out.size();
    out.resize(jsonAt + 8);
    writeU32(out, jsonAt, static_cast<std::uint32_t>(json.size()));
    writeU32(out, jsonAt + 4, 0x4E4F534A);  // "JSON"
    appendTo(out, toBytes(json));
    if (bin) {
        const std::size_t binAt = out.size();
        out.resize(binAt + 8);
        writeU32(out, binAt, static_cast<std::uint32_t>(bin->size()));
        writeU32(out, binAt + 4, 0x004E4942);  // "BIN\0"
        appendTo(out, *bin);
    }
    writeU32(out, 8, static_cast<std::uint32_t>(out.size()));
    return out;
}

std::string base64(std::span<const std::byte> bytes) {
    constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const std::uint32_t v = (std::to_integer<std::uint32_t>(bytes[i]) << 16) |
            (std::to_integer<std::uint32_t>(bytes[i + 1]) << 8) | std::to_integer<std::uint32_t>(bytes[i + 2]);
        for (int k = 3; k >= 0; --k) out += alphabet[(v >> (6 * k)) & 63];
    }
    const std::size_t rest = bytes.size() - i;
    if (rest > 0) {
        std::uint32_t v = std::to_integer<std::uint32_t>(bytes[i]) << 16;
        if (rest == 2) v |= std::to_integer<std::uint32_t>(bytes[i + 1]) << 8;
        out += alphabet[(v >> 18) & 63];
        out += alphabet[(v >> 12) & 63];
        out += rest == 2 ? alphabet[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

std::vector<std::byte> toBytes(std::string_view text) {
    std::vector<std::byte> out(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) out[i] = static_cast<std::byte>(text[i]);
    return out;
}

GltfSource makeSource(std::vector<std::byte> bytes, std::string name, std::filesystem::path baseDir) {
    return GltfSource{std::make_shared<const std::vector<std::byte>>(std::move(bytes)), std::move(baseDir),
                      std::move(name)};
}

GltfSource makeSource(std::string_view text, std::string name, std::filesystem::path baseDir) {
    return makeSource(toBytes(text), std::move(name), std::move(baseDir));
}

std::uint32_t readU32(std::span<const std::byte> bytes, std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v |= std::to_integer<std::uint32_t>(bytes[at + i]) << (8 * i);
    return v;
}

void writeU32(std::vector<std::byte>& bytes, std::size_t at, std::uint32_t value) {
    for (std::size_t i = 0; i < 4; ++i) bytes[at + i] = static_cast<std::byte>((value >> (8 * i)) & 0xFF);
}

// ---- GltfWriter ---------------------------------------------------------------------

GltfWriter::GltfWriter() { doc_["asset"]["version"] = "2.0"; }

std::uint32_t GltfWriter::append(std::string_view array, Json value) {
    Json& a = doc_[array];
    a.push(std::move(value));
    return static_cast<std::uint32_t>(a.size() - 1);
}

void GltfWriter::useExtension(const std::string& name, bool required) {
    for (const char* key : {"extensionsUsed", "extensionsRequired"}) {
        if (std::string_view(key) == "extensionsRequired" && !required) continue;
        Json& list = doc_[key];
        bool present = false;
        for (std::size_t i = 0; i < list.size(); ++i) present |= list[i].dump() == Json(name).dump();
        if (!present) list.push(name);
    }
}

std::size_t GltfWriter::appendBytes(std::span<const std::byte> bytes, std::size_t align) {
    if (align > 1) bin_.resize((bin_.size() + align - 1) / align * align, std::byte{0});
    const std::size_t at = bin_.size();
    appendTo(bin_, bytes);
    Json& buffers = doc_["buffers"];
    if (buffers.size() == 0) buffers.push(Json::object());
    buffers[0]["byteLength"] = bin_.size();
    return at;
}

std::uint32_t GltfWriter::addBufferView(std::size_t byteOffset, std::size_t byteLength, std::size_t byteStride) {
    Json v = Json::object();
    v["buffer"] = 0;
    if (byteOffset) v["byteOffset"] = byteOffset;
    v["byteLength"] = byteLength;
    if (byteStride) v["byteStride"] = byteStride;
    return append("bufferViews", std::move(v));
}

std::uint32_t GltfWriter::addBufferView(std::span<const std::byte> bytes, std::size_t byteStride) {
    const std::size_t at = appendBytes(bytes);
    return addBufferView(at, bytes.size(), byteStride);
}

std::uint32_t GltfWriter::addAccessorJson(std::optional<std::uint32_t> bufferView, std::size_t byteOffset,
                                          std::uint32_t componentType, const std::string& type, std::size_t count,
                                          bool normalized) {
    Json a = Json::object();
    if (bufferView) a["bufferView"] = *bufferView;
    if (byteOffset) a["byteOffset"] = byteOffset;
    a["componentType"] = componentType;
    if (normalized) a["normalized"] = true;
    a["count"] = count;
    a["type"] = type;
    return append("accessors", std::move(a));
}

std::uint32_t GltfWriter::addAccessor(const AccessorData& data) {
    const std::size_t comps = componentCount(data.type);
    if (comps == 0 || data.values.empty() || data.values.size() % comps != 0) {
        throw std::invalid_argument("addAccessor: " + std::to_string(data.values.size()) + " values for " + data.type);
    }
    std::vector<std::byte> bytes = filler(data.byteOffset);
    appendTo(bytes, encodeElements(data.componentType, data.type, data.values, data.byteStride));
    const std::uint32_t view = addBufferView(bytes, data.byteStride);
    const std::uint32_t index = addAccessorJson(view, data.byteOffset, data.componentType, data.type,
                                                data.values.size() / comps, data.normalized);
    if (auto mm = minMax(data.componentType, comps, data.values)) {
        doc_["accessors"][index]["min"] = std::move(mm->first);
        doc_["accessors"][index]["max"] = std::move(mm->second);
    }
    return index;
}

std::uint32_t GltfWriter::addFloats(const std::string& type, const std::vector<float>& values) {
    return addAccessor({.componentType = kFloat, .type = type, .values = {values.begin(), values.end()}});
}

std::uint32_t GltfWriter::addSparseAccessor(const AccessorData& base, std::size_t count, const SparseData& sparse) {
    const std::size_t comps = componentCount(base.type);
    if (comps == 0 || (!base.values.empty() && base.values.size() != count * comps) ||
        sparse.values.size() != sparse.indices.size() * comps) {
        throw std::invalid_argument("addSparseAccessor: value counts do not match");
    }
    std::optional<std::uint32_t> view;
    if (!base.values.empty()) {
        std::vector<std::byte> bytes = filler(base.byteOffset);
        appendTo(bytes, encodeElements(base.componentType, base.type, base.values, base.byteStride));
        view = addBufferView(bytes, base.byteStride);
    }
    const std::uint32_t index =
        addAccessorJson(view, view ? base.byteOffset : 0, base.componentType, base.type, count, base.normalized);

    std::vector<std::byte> ib = filler(sparse.indicesByteOffset);
    const std::vector<double> indices(sparse.indices.begin(), sparse.indices.end());
    appendTo(ib, encodeComponents(sparse.indexComponentType, indices));
    const std::uint32_t indexView = addBufferView(ib);
    std::vector<std::byte> vb = filler(sparse.valuesByteOffset);
    appendTo(vb, encodeElements(base.componentType, base.type, sparse.values));
    const std::uint32_t valueView = addBufferView(vb);

    Json& a = doc_["accessors"][index];
    Json& s = a["sparse"];
    s["count"] = sparse.indices.size();
    s["indices"]["bufferView"] = indexView;
    if (sparse.indicesByteOffset) s["indices"]["byteOffset"] = sparse.indicesByteOffset;
    s["indices"]["componentType"] = sparse.indexComponentType;
    s["values"]["bufferView"] = valueView;
    if (sparse.valuesByteOffset) s["values"]["byteOffset"] = sparse.valuesByteOffset;

    // min/max describe the values after substitution.
    std::vector<double> all = base.values.empty() ? std::vector<double>(count * comps, 0.0) : base.values;
    for (std::size_t i = 0; i < sparse.indices.size(); ++i) {
        if (sparse.indices[i] >= count) continue;
        std::copy_n(sparse.values.begin() + static_cast<std::ptrdiff_t>(i * comps), comps,
                    all.begin() + static_cast<std::ptrdiff_t>(std::size_t{sparse.indices[i]} * comps));
    }
    if (auto mm = minMax(base.componentType, comps, all)) {
        a["min"] = std::move(mm->first);
        a["max"] = std::move(mm->second);
    }
    return index;
}

std::size_t GltfWriter::accessorDataOffset(std::uint32_t accessor) const {
    const Json& a = doc_.at("accessors")[accessor];
    const Json& v = doc_.at("bufferViews")[static_cast<std::size_t>(a.at("bufferView").number())];
    const double viewOffset = v.contains("byteOffset") ? v.at("byteOffset").number() : 0.0;
    const double ownOffset = a.contains("byteOffset") ? a.at("byteOffset").number() : 0.0;
    return static_cast<std::size_t>(viewOffset + ownOffset);
}

void GltfWriter::patchComponent(std::uint32_t accessor, std::size_t component, double value) {
    const auto type = static_cast<std::uint32_t>(doc_.at("accessors")[accessor].at("componentType").number());
    const std::size_t at = accessorDataOffset(accessor) + component * componentBytes(type);
    if (at + componentBytes(type) > bin_.size()) throw std::out_of_range("patchComponent: past the buffer");
    putComponent(bin_.data() + at, type, value);
}

std::uint32_t GltfWriter::addNode(const NodeSpec& node) {
    Json n = Json::object();
    if (!node.name.empty()) n["name"] = node.name;
    if (node.translation) n["translation"] = Json::numbers(*node.translation);
    if (node.rotation) n["rotation"] = Json::numbers(*node.rotation);
    if (node.scale) n["scale"] = Json::numbers(*node.scale);
    if (node.matrix) n["matrix"] = Json::numbers(*node.matrix);
    if (!node.children.empty()) n["children"] = Json::numbers(node.children);
    if (node.mesh) n["mesh"] = *node.mesh;
    if (node.skin) n["skin"] = *node.skin;
    if (!node.weights.empty()) n["weights"] = Json::numbers(node.weights);
    return append("nodes", std::move(n));
}

std::uint32_t GltfWriter::addMesh(const std::vector<PrimitiveSpec>& primitives, const std::vector<double>& weights) {
    Json m = Json::object();
    Json& prims = m["primitives"];
    prims = Json::array();
    for (const PrimitiveSpec& p : primitives) {
        Json pj = Json::object();
        pj["attributes"] = attributesJson(p.attributes);
        if (p.indices) pj["indices"] = *p.indices;
        if (p.mode) pj["mode"] = *p.mode;
        if (!p.targets.empty()) {
            Json& targets = pj["targets"];
            targets = Json::array();
            for (const Attributes& t : p.targets) targets.push(attributesJson(t));
        }
        prims.push(std::move(pj));
    }
    if (!weights.empty()) m["weights"] = Json::numbers(weights);
    return append("meshes", std::move(m));
}

std::uint32_t GltfWriter::addSkin(const std::vector<std::uint32_t>& joints,
                                  std::optional<std::uint32_t> inverseBindMatrices,
                                  std::optional<std::uint32_t> skeleton) {
    Json s = Json::object();
    s["joints"] = Json::numbers(joints);
    if (inverseBindMatrices) s["inverseBindMatrices"] = *inverseBindMatrices;
    if (skeleton) s["skeleton"] = *skeleton;
    return append("skins", std::move(s));
}

std::uint32_t GltfWriter::addAnimation(const std::vector<SamplerSpec>& samplers,
                                       const std::vector<ChannelSpec>& channels, const std::string& name) {
    Json a = Json::object();
    if (!name.empty()) a["name"] = name;
    Json& sj = a["samplers"];
    sj = Json::array();
    for (const SamplerSpec& s : samplers) {
        Json o = Json::object();
        o["input"] = s.input;
        o["output"] = s.output;
        if (!s.interpolation.empty()) o["interpolation"] = s.interpolation;
        sj.push(std::move(o));
    }
    Json& cj = a["channels"];
    cj = Json::array();
    for (const ChannelSpec& c : channels) {
        Json o = Json::object();
        o["sampler"] = c.sampler;
        if (c.node) o["target"]["node"] = *c.node;
        o["target"]["path"] = c.path;
        cj.push(std::move(o));
    }
    return append("animations", std::move(a));
}

std::uint32_t GltfWriter::addScene(const std::vector<std::uint32_t>& nodes) {
    Json s = Json::object();
    s["nodes"] = Json::numbers(nodes);
    const std::uint32_t index = append("scenes", std::move(s));
    if (!doc_.contains("scene")) doc_["scene"] = index;
    return index;
}

std::string GltfWriter::gltf() const {
    Json doc = doc_;
    if (!bin_.empty() && doc.contains("buffers")) {
        Json& buffers = doc["buffers"];
        if (buffers.kind() == Json::Kind::Array && buffers.size() > 0 && buffers[0].kind() == Json::Kind::Object &&
            !buffers[0].contains("uri")) {
            buffers[0]["uri"] = "data:application/octet-stream;base64," + base64(bin_);
        }
    }
    return doc.dump();
}

std::vector<std::byte> GltfWriter::glb() const {
    std::string json = doc_.dump();
    json.resize((json.size() + 3) / 4 * 4, ' ');
    std::optional<std::vector<std::byte>> bin;
    if (!bin_.empty()) {
        bin = bin_;
        bin->resize((bin->size() + 3) / 4 * 4, std::byte{0});
    }
    return makeGlb(json, bin);
}

GltfSource GltfWriter::gltfSource(const std::string& name) const { return makeSource(gltf(), name); }

GltfSource GltfWriter::glbSource(const std::string& name) const { return makeSource(glb(), name); }

}  // namespace kinema::test
