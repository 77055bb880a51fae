// Conformance tests: an independent, deliberately simple glTF 2.0 reader used to
// compute expected values. It shares no code with kinema's importer: the GLB
// container, the JSON (simdjson DOM) and the accessors (memcpy, byteStride,
// normalised integers, sparse substitution) are all read here, following the
// specification's wording. It trusts the sample files and throws
// std::runtime_error on anything it does not understand (gtest reports that as a
// test failure). Header-only: the conformance folder compiles only *_test.cpp.
#pragma once

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace conformance {

using Bytes = std::vector<std::uint8_t>;

inline Bytes readBytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline std::uint32_t readU32(const Bytes& b, std::size_t at) {
    if (at + 4 > b.size()) throw std::runtime_error("read past the end of the file");
    // GLB is little-endian; assemble explicitly rather than trusting the host order.
    return std::uint32_t{b[at]} | (std::uint32_t{b[at + 1]} << 8) | (std::uint32_t{b[at + 2]} << 16) |
        (std::uint32_t{b[at + 3]} << 24);
}

struct RefAccessor {
    int bufferView = -1;
    std::size_t byteOffset = 0;
    int componentType = 0;
    bool normalized = false;
    std::size_t count = 0;
    std::string type;
    // sparse
    std::size_t sparseCount = 0;
    int sparseIndicesView = -1;
    std::size_t sparseIndicesOffset = 0;
    int sparseIndicesType = 0;
    int sparseValuesView = -1;
    std::size_t sparseValuesOffset = 0;
};

struct RefBufferView {
    int buffer = 0;
    std::size_t byteOffset = 0;
    std::size_t byteLength = 0;
    std::size_t byteStride = 0;  // 0: tightly packed
};

struct RefNode {
    std::string name;
    std::vector<int> children;
    std::optional<std::array<double, 16>> matrix;
    std::array<double, 3> t{0, 0, 0};
    std::array<double, 4> r{0, 0, 0, 1};
    std::array<double, 3> s{1, 1, 1};
    int mesh = -1;
    int skin = -1;
    std::vector<double> weights;
};

struct RefPrimitive {
    std::map<std::string, int> attributes;
    std::vector<std::map<std::string, int>> targets;
    int indices = -1;
};

struct RefMesh {
    std::vector<RefPrimitive> primitives;
    std::vector<double> weights;
};

struct RefSkin {
    std::vector<int> joints;
    int inverseBindMatrices = -1;
    int skeleton = -1;
};

struct RefChannel {
    int sampler = -1;
    int node = -1;  // -1: no target node (ignored by the spec)
    std::string path;
};

struct RefSampler {
    int input = -1;
    int output = -1;
    std::string interpolation = "LINEAR";
};

struct RefAnimation {
    std::string name;
    std::vector<RefChannel> channels;
    std::vector<RefSampler> samplers;
};

struct RefGltf {
    std::vector<RefNode> nodes;
    std::vector<RefMesh> meshes;
    std::vector<RefSkin> skins;
    std::vector<RefAnimation> animations;
    std::vector<RefAccessor> accessors;
    std::vector<RefBufferView> bufferViews;
    std::vector<std::vector<int>> scenes;
    int scene = -1;
    std::vector<std::string> bufferUris;  // empty: the GLB BIN chunk
    std::vector<Bytes> buffers;
    // Where each buffer's bytes start in the original file (GLB BIN chunk) or -1
    // for external files: lets a test patch a copy of the file bytes.
    std::vector<long long> bufferFileOffset;

    int parentOf(int node) const {
        for (std::size_t p = 0; p < nodes.size(); ++p)
            for (int c : nodes[p].children)
                if (c == node) return static_cast<int>(p);
        return -1;
    }
};

namespace detail {

namespace sj = simdjson::dom;

inline sj::element need(sj::element e, std::string_view key) {
    sj::element out;
    if (e[key].get(out)) throw std::runtime_error("missing JSON key " + std::string(key));
    return out;
}
inline bool has(sj::element e, std::string_view key, sj::element& out) { return !e[key].get(out); }

inline double num(sj::element e) {
    double d = 0;
    if (e.get_double().get(d)) throw std::runtime_error("expected a JSON number");
    return d;
}
inline int integer(sj::element e) { return static_cast<int>(num(e)); }
inline std::size_t size(sj::element e) { return static_cast<std::size_t>(num(e)); }
inline std::string str(sj::element e) {
    std::string_view s;
    if (e.get_string().get(s)) throw std::runtime_error("expected a JSON string");
    return std::string(s);
}
inline sj::array arr(sj::element e) {
    sj::array a;
    if (e.get_array().get(a)) throw std::runtime_error("expected a JSON array");
    return a;
}
inline std::vector<double> numbers(sj::element e) {
    std::vector<double> v;
    for (sj::element x : arr(e)) v.push_back(num(x));
    return v;
}
inline std::map<std::string, int> attributeMap(sj::element e) {
    sj::object o;
    if (e.get_object().get(o)) throw std::runtime_error("expected a JSON object");
    std::map<std::string, int> m;
    for (auto field : o) m[std::string(field.key)] = integer(field.value);
    return m;
}

inline void parseJson(std::string_view json, RefGltf& g) {
    sj::parser parser;
    sj::element root;
    const simdjson::padded_string padded(json);
    if (parser.parse(padded).get(root)) throw std::runtime_error("JSON does not parse");
    sj::element e;
    if (has(root, "nodes", e)) {
        for (sj::element n : arr(e)) {
            RefNode node;
            sj::element f;
            if (has(n, "name", f)) node.name = str(f);
            if (has(n, "children", f))
                for (sj::element c : arr(f)) node.children.push_back(integer(c));
            if (has(n, "matrix", f)) {
                const auto m = numbers(f);
                if (m.size() != 16) throw std::runtime_error("matrix needs 16 numbers");
                std::array<double, 16> a{};
                for (std::size_t i = 0; i < 16; ++i) a[i] = m[i];
                node.matrix = a;
            }
            if (has(n, "translation", f)) {
                const auto v = numbers(f);
                node.t = {v.at(0), v.at(1), v.at(2)};
            }
            if (has(n, "rotation", f)) {
                const auto v = numbers(f);
                node.r = {v.at(0), v.at(1), v.at(2), v.at(3)};
            }
            if (has(n, "scale", f)) {
                const auto v = numbers(f);
                node.s = {v.at(0), v.at(1), v.at(2)};
            }
            if (has(n, "mesh", f)) node.mesh = integer(f);
            if (has(n, "skin", f)) node.skin = integer(f);
            if (has(n, "weights", f)) node.weights = numbers(f);
            g.nodes.push_back(std::move(node));
        }
    }
    if (has(root, "meshes", e)) {
        for (sj::element m : arr(e)) {
            RefMesh mesh;
            for (sj::element p : arr(need(m, "primitives"))) {
                RefPrimitive prim;
                prim.attributes = attributeMap(need(p, "attributes"));
                sj::element f;
                if (has(p, "targets", f))
                    for (sj::element t : arr(f)) prim.targets.push_back(attributeMap(t));
                if (has(p, "indices", f)) prim.indices = integer(f);
                mesh.primitives.push_back(std::move(prim));
            }
            sj::element f;
            if (has(m, "weights", f)) mesh.weights = numbers(f);
            g.meshes.push_back(std::move(mesh));
        }
    }
    if (has(root, "skins", e)) {
        for (sj::element s : arr(e)) {
            RefSkin skin;
            for (sj::element j : arr(need(s, "joints"))) skin.joints.push_back(integer(j));
            sj::element f;
            if (has(s, "inverseBindMatrices", f)) skin.inverseBindMatrices = integer(f);
            if (has(s, "skeleton", f)) skin.skeleton = integer(f);
            g.skins.push_back(std::move(skin));
        }
    }
    if (has(root, "animations", e)) {
        for (sj::element a : arr(e)) {
            RefAnimation anim;
            sj::element f;
            if (has(a, "name", f)) anim.name = str(f);
            for (sj::element c : arr(need(a, "channels"))) {
                RefChannel ch;
                ch.sampler = integer(need(c, "sampler"));
                const sj::element target = need(c, "target");
                if (has(target, "node", f)) ch.node = integer(f);
                ch.path = str(need(target, "path"));
                anim.channels.push_back(ch);
            }
            for (sj::element s : arr(need(a, "samplers"))) {
                RefSampler smp;
                smp.input = integer(need(s, "input"));
                smp.output = integer(need(s, "output"));
                if (has(s, "interpolation", f)) smp.interpolation = str(f);
                anim.samplers.push_back(smp);
            }
            g.animations.push_back(std::move(anim));
        }
    }
    if (has(root, "accessors", e)) {
        for (sj::element a : arr(e)) {
            RefAccessor acc;
            sj::element f;
            if (has(a, "bufferView", f)) acc.bufferView = integer(f);
            if (has(a, "byteOffset", f)) acc.byteOffset = size(f);
            acc.componentType = integer(need(a, "componentType"));
            if (has(a, "normalized", f)) {
                bool b = false;
                if (f.get_bool().get(b)) throw std::runtime_error("normalized must be a bool");
                acc.normalized = b;
            }
            acc.count = size(need(a, "count"));
            acc.type = str(need(a, "type"));
            if (has(a, "sparse", f)) {
                acc.sparseCount = size(need(f, "count"));
                const sj::element idx = need(f, "indices");
                const sj::element val = need(f, "values");
                sj::element o;
                acc.sparseIndicesView = integer(need(idx, "bufferView"));
                if (has(idx, "byteOffset", o)) acc.sparseIndicesOffset = size(o);
                acc.sparseIndicesType = integer(need(idx, "componentType"));
                acc.sparseValuesView = integer(need(val, "bufferView"));
                if (has(val, "byteOffset", o)) acc.sparseValuesOffset = size(o);
            }
            g.accessors.push_back(std::move(acc));
        }
    }
    if (has(root, "bufferViews", e)) {
        for (sj::element v : arr(e)) {
            RefBufferView bv;
            sj::element f;
            bv.buffer = integer(need(v, "buffer"));
            if (has(v, "byteOffset", f)) bv.byteOffset = size(f);
            bv.byteLength = size(need(v, "byteLength"));
            if (has(v, "byteStride", f)) bv.byteStride = size(f);
            g.bufferViews.push_back(bv);
        }
    }
    if (has(root, "scenes", e)) {
        for (sj::element s : arr(e)) {
            std::vector<int> roots;
            sj::element f;
            if (has(s, "nodes", f))
                for (sj::element n : arr(f)) roots.push_back(integer(n));
            g.scenes.push_back(std::move(roots));
        }
    }
    if (has(root, "scene", e)) g.scene = integer(e);
    // Buffers: an entry without uri is the GLB BIN chunk; a relative uri is read
    // by the caller against the file's folder.
    if (has(root, "buffers", e)) {
        for (sj::element b : arr(e)) {
            sj::element f;
            g.bufferUris.push_back(has(b, "uri", f) ? str(f) : std::string());
        }
    }
    g.buffers.assign(g.bufferUris.size(), Bytes{});
    g.bufferFileOffset.assign(g.bufferUris.size(), -1);
}

}  // namespace detail

// Reads a .glb (12-byte header, JSON chunk, optional BIN chunk) or a .gltf with
// external buffers. `bytes` may be a patched copy of the file.
inline RefGltf parseGltfBytes(const Bytes& bytes, const std::filesystem::path& baseDir) {
    RefGltf g;
    constexpr std::uint32_t kMagic = 0x46546C67;      // "glTF"
    constexpr std::uint32_t kChunkJson = 0x4E4F534A;  // "JSON"
    constexpr std::uint32_t kChunkBin = 0x004E4942;   // "BIN\0"
    std::optional<Bytes> bin;
    long long binOffset = -1;
    if (bytes.size() >= 12 && readU32(bytes, 0) == kMagic) {
        if (readU32(bytes, 4) != 2) throw std::runtime_error("GLB version is not 2");
        const std::size_t total = readU32(bytes, 8);
        if (total > bytes.size()) throw std::runtime_error("GLB length exceeds the file");
        std::size_t at = 12;
        std::string json;
        bool first = true;
        while (at + 8 <= total) {
            const std::size_t len = readU32(bytes, at);
            const std::uint32_t type = readU32(bytes, at + 4);
            const std::size_t data = at + 8;
            if (data + len > total) throw std::runtime_error("GLB chunk exceeds the file");
            if (first) {
                if (type != kChunkJson) throw std::runtime_error("first GLB chunk is not JSON");
                json.assign(reinterpret_cast<const char*>(bytes.data() + data), len);
            } else if (type == kChunkBin && !bin) {
                bin = Bytes(bytes.begin() + static_cast<std::ptrdiff_t>(data),
                            bytes.begin() + static_cast<std::ptrdiff_t>(data + len));
                binOffset = static_cast<long long>(data);
            }
            first = false;
            at = data + len;
        }
        detail::parseJson(json, g);
    } else {
        detail::parseJson(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), g);
    }
    for (std::size_t i = 0; i < g.buffers.size(); ++i) {
        const std::string& uri = g.bufferUris[i];
        if (uri.empty()) {
            if (i != 0 || !bin) throw std::runtime_error("buffer without uri but no GLB BIN chunk");
            g.buffers[i] = *bin;
            g.bufferFileOffset[i] = binOffset;
        } else if (uri.rfind("data:", 0) == 0) {
            throw std::runtime_error("data: URIs are not needed by these tests");
        } else {
            g.buffers[i] = readBytes(baseDir / uri);
        }
    }
    return g;
}

inline RefGltf loadGltf(const std::filesystem::path& path) {
    return parseGltfBytes(readBytes(path), path.parent_path());
}

inline std::size_t componentsOf(const std::string& type) {
    if (type == "SCALAR") return 1;
    if (type == "VEC2") return 2;
    if (type == "VEC3") return 3;
    if (type == "VEC4") return 4;
    if (type == "MAT4") return 16;
    throw std::runtime_error("accessor type not used by these tests: " + type);
}

inline std::size_t componentBytes(int componentType) {
    switch (componentType) {
        case 5120:
        case 5121: return 1;  // BYTE, UNSIGNED_BYTE
        case 5122:
        case 5123: return 2;  // SHORT, UNSIGNED_SHORT
        case 5125:
        case 5126: return 4;  // UNSIGNED_INT, FLOAT
        default: throw std::runtime_error("unknown componentType");
    }
}

// One component at `p`, as the spec defines its value (normalised or not).
inline double readComponent(const std::uint8_t* p, int componentType, bool normalized) {
    switch (componentType) {
        case 5126: {
            float f;
            std::memcpy(&f, p, 4);
            return f;
        }
        case 5120: {
            std::int8_t c;
            std::memcpy(&c, p, 1);
            return normalized ? std::max(c / 127.0, -1.0) : c;
        }
        case 5121: {
            std::uint8_t c;
            std::memcpy(&c, p, 1);
            return normalized ? c / 255.0 : c;
        }
        case 5122: {
            std::int16_t c;
            std::memcpy(&c, p, 2);
            return normalized ? std::max(c / 32767.0, -1.0) : c;
        }
        case 5123: {
            std::uint16_t c;
            std::memcpy(&c, p, 2);
            return normalized ? c / 65535.0 : c;
        }
        case 5125: {
            std::uint32_t c;
            std::memcpy(&c, p, 4);
            return c;
        }
        default: throw std::runtime_error("unknown componentType");
    }
}

// `need` bytes at `offset` inside bufferView `view`, bounds-checked.
inline const std::uint8_t* viewBytes(const RefGltf& g, int view, std::size_t offset, std::size_t need) {
    const RefBufferView& bv = g.bufferViews.at(static_cast<std::size_t>(view));
    if (offset + need > bv.byteLength) throw std::runtime_error("accessor exceeds its bufferView");
    const Bytes& buf = g.buffers.at(static_cast<std::size_t>(bv.buffer));
    if (bv.byteOffset + bv.byteLength > buf.size()) throw std::runtime_error("bufferView exceeds its buffer");
    return buf.data() + bv.byteOffset + offset;
}

// The accessor's elements as doubles, count * components, sparse substitutions applied.
inline std::vector<double> readAccessor(const RefGltf& g, int index) {
    const RefAccessor& a = g.accessors.at(static_cast<std::size_t>(index));
    const std::size_t comps = componentsOf(a.type);
    const std::size_t cb = componentBytes(a.componentType);
    if (a.type == "MAT4" && cb != 4) throw std::runtime_error("only float matrices here");
    const std::size_t elem = comps * cb;
    std::vector<double> out(a.count * comps, 0.0);  // no bufferView: zeros (sparse base)
    if (a.bufferView >= 0) {
        const RefBufferView& bv = g.bufferViews.at(static_cast<std::size_t>(a.bufferView));
        const std::size_t stride = bv.byteStride ? bv.byteStride : elem;
        for (std::size_t i = 0; i < a.count; ++i) {
            const std::uint8_t* p = viewBytes(g, a.bufferView, a.byteOffset + i * stride, elem);
            for (std::size_t c = 0; c < comps; ++c)
                out[i * comps + c] = readComponent(p + c * cb, a.componentType, a.normalized);
        }
    }
    if (a.sparseCount > 0) {
        for (std::size_t s = 0; s < a.sparseCount; ++s) {
            const std::size_t ib = componentBytes(a.sparseIndicesType);
            const std::uint8_t* ip = viewBytes(g, a.sparseIndicesView, a.sparseIndicesOffset + s * ib, ib);
            const auto target = static_cast<std::size_t>(readComponent(ip, a.sparseIndicesType, false));
            if (target >= a.count) throw std::runtime_error("sparse index out of range");
            // Sparse values are tightly packed (no stride), in the accessor's component type.
            const std::uint8_t* vp = viewBytes(g, a.sparseValuesView, a.sparseValuesOffset + s * elem, elem);
            for (std::size_t c = 0; c < comps; ++c)
                out[target * comps + c] = readComponent(vp + c * cb, a.componentType, a.normalized);
        }
    }
    return out;
}

// Byte position, inside the whole GLB file, of component `component` of element
// `element` of a (non-sparse) accessor stored in the BIN chunk.
inline std::size_t fileOffsetOf(const RefGltf& g, int accessor, std::size_t element, std::size_t component) {
    const RefAccessor& a = g.accessors.at(static_cast<std::size_t>(accessor));
    const RefBufferView& bv = g.bufferViews.at(static_cast<std::size_t>(a.bufferView));
    const long long base = g.bufferFileOffset.at(static_cast<std::size_t>(bv.buffer));
    if (base < 0) throw std::runtime_error("accessor is not in the GLB BIN chunk");
    const std::size_t cb = componentBytes(a.componentType);
    const std::size_t stride = bv.byteStride ? bv.byteStride : componentsOf(a.type) * cb;
    return static_cast<std::size_t>(base) + bv.byteOffset + a.byteOffset + element * stride + component * cb;
}

}  // namespace conformance
