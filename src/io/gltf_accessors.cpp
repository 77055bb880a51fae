// Accessors: their JSON, where their data lies, their declared bounds, and decoding
// them for a role (which shapes and encodings the role allows).
#include "gltf_importer.hpp"

#include <algorithm>
#include <string>

#include "kinema/math/finite.hpp"

namespace kinema::gltf_import {

namespace {

constexpr std::uint64_t kMaxElementCount = std::uint64_t{1} << 40;

// The Allow bit of an encoding.
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

// The accessor type as glTF spells it ("SCALAR", "VEC3", "MAT4", ...).
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

// Every component's bounds in one pass. Element-wise min/max over blocks of eight
// elements (so each block lines up with the components) is a loop over contiguous
// floats that the compiler vectorises; the blocks' lanes are folded per component
// at the end. NaN compares false and so never becomes a bound (those values have
// faults of their own); false when a bound is not finite.
template <std::size_t N>
bool boundsOfWidth(std::span<const float> values, std::array<float, 16>& lo, std::array<float, 16>& hi) {
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

bool boundsOf(std::span<const float> values, std::size_t comps, std::array<float, 16>& lo, std::array<float, 16>& hi) {
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

}  // namespace

void Importer::readAccessors() {
    accessors_.resize(table("accessors", sizeof(Accessor) + sizeof(std::vector<float>)));
    if (stopped_) return;  // out of budget
    forEachObject("accessors", [&](std::size_t i, const dom::object& o, const Pointer& at) {
        Accessor& acc = accessors_[i];
        AccessorDesc& d = acc.desc;
        enum { kComponentType, kCount, kType, kNormalized, kByteOffset, kBufferView, kSparse, kMin, kMax };
        static constexpr std::array<std::string_view, 9> kKeys{
            "componentType", "count", "type", "normalized", "byteOffset", "bufferView", "sparse", "min", "max"};
        const Members<9> m(o, kKeys);
        std::uint64_t componentType = 0, count = 0, offset = 0;
        const bool hasType = getUint(m[kComponentType], "componentType", at, componentType, true);
        if (hasType &&
            gltf::componentSize(static_cast<std::uint32_t>(std::min<std::uint64_t>(componentType, 0xFFFFFFFF))) == 0) {
            fault(at / "componentType", std::to_string(componentType) + " is not a glTF component type");
            return;
        }
        const bool hasCount = getUint(m[kCount], "count", at, count, true);
        std::string_view type;
        const bool hasShape = getString(m[kType], "type", at, type, true);
        std::optional<ElementShape> shape;
        if (hasShape) {
            shape = gltf::elementShape(type);
            if (!shape) fault(at / "type", inQuotes(type) + " is not an accessor type");
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
            fault(at / "count",
                  "count " + std::to_string(count) + " is larger than any accessor can hold (at most " +
                      std::to_string(kMaxElementCount) + ")");
            return;
        }
        d.count = static_cast<std::size_t>(count);
        readBounds(m[kMin], m[kMax], at, acc);
        if (d.normalized &&
            (d.componentType == ComponentType::Float || d.componentType == ComponentType::UnsignedInt)) {
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
                fault(at / "byteOffset",
                      "data starts at buffer byte " + std::to_string(absolute) +
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
                fault(sp / "indices" / "componentType",
                      "sparse indices must be UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT");
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

// accessor.min / max: one number per component, kept to be compared with the data.
void Importer::readBounds(const std::optional<dom::element>& minElement, const std::optional<dom::element>& maxElement,
                          const Pointer& at, Accessor& acc) {
    const std::size_t comps = acc.desc.shape.components();
    auto read = [&](const std::optional<dom::element>& e, std::string_view key, std::vector<double>& out) {
        dom::array a;
        if (!getArray(e, key, at, a, false)) return false;
        if (a.size() != comps) {
            fault(at / key,
                  "must hold " + std::to_string(comps) + " numbers (one per component), holds " +
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

// Compares a float accessor's declared min/max with its decoded values, once per
// accessor. `required`: the specification makes them mandatory for this use
// (animation inputs, POSITION). Integer accessors declare bounds in raw integer
// units, which the decoded (normalised) floats no longer are: those are not compared.
void Importer::checkBounds(std::int64_t index, std::span<const float> values, bool required, const char* role) {
    if (index < 0 || static_cast<std::size_t>(index) >= accessors_.size()) return;
    Accessor& acc = accessors_[static_cast<std::size_t>(index)];
    if (acc.boundsChecked || acc.desc.componentType != ComponentType::Float) return;
    acc.boundsChecked = true;
    const Pointer at = Pointer{} / "accessors" / static_cast<std::size_t>(index);
    const std::size_t comps = acc.desc.shape.components();
    if (!acc.hasBounds) {
        if (required && acc.min.empty() == acc.max.empty() && acc.min.empty()) {
            recoverable(at, std::string(role) + " accessor must declare min and max", "the data's own bounds are used");
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
            recoverable(
                at / "min" / c,
                "declared min " + exactNumber(acc.min[c]) + " differs from the data's minimum " + exactNumber(lo[c]),
                "the data's own minimum is used");
        }
        if (!(declaredHi == hi[c])) {
            recoverable(
                at / "max" / c,
                "declared max " + exactNumber(acc.max[c]) + " differs from the data's maximum " + exactNumber(hi[c]),
                "the data's own maximum is used");
        }
    }
}

// Every value finite (glTF: an accessor of floats holds no NaN or infinity).
bool Importer::checkFinite(std::int64_t index, std::span<const float> values) {
    if (allFinite(values)) return true;
    const auto bad = std::find_if(values.begin(), values.end(), [](float v) { return !std::isfinite(v); });
    const std::size_t comps = accessors_[static_cast<std::size_t>(index)].desc.shape.components();
    const std::size_t at = static_cast<std::size_t>(bad - values.begin());
    fault(Pointer{} / "accessors" / static_cast<std::size_t>(index),
          "element " + std::to_string(at / comps) + " component " + std::to_string(at % comps) + " is " +
              exactNumber(*bad) + "; accessor values must be finite");
    return false;
}

// Checks that accessor `index` (referenced at `at`) suits a role; nullptr if not.
const AccessorDesc* Importer::useAccessor(std::int64_t index, const Pointer& at,
                                          std::initializer_list<ElementShape> shapes, unsigned allow,
                                          const char* role) {
    if (index < 0 || static_cast<std::size_t>(index) >= accessors_.size()) return nullptr;
    const Accessor& a = accessors_[static_cast<std::size_t>(index)];
    if (!a.ok) return nullptr;
    const AccessorDesc& d = a.desc;
    bool shapeOk = false;
    for (const ElementShape& s : shapes) shapeOk |= (s.rows == d.shape.rows && s.columns == d.shape.columns);
    if (!shapeOk) {
        fault(at,
              std::string(role) + " cannot use accessor " + std::to_string(index) + " of type " +
                  std::string(typeName(d.shape)));
        return nullptr;
    }
    if ((encodingBit(d.componentType, d.normalized) & allow) == 0) {
        fault(at,
              std::string(role) + " cannot use accessor " + std::to_string(index) + " with componentType " +
                  std::to_string(static_cast<unsigned>(d.componentType)) + (d.normalized ? " (normalized)" : "") +
                  (quantized_ ? "" : " (KHR_mesh_quantization not in use)"));
        return nullptr;
    }
    return &d;
}

// Data faults (sparse indices) belong to the accessor, not to its user.
bool Importer::decodeFloats(const AccessorDesc& d, std::int64_t index, std::span<float> out) {
    const std::string problem = gltf::decodeFloats(d, out);
    if (!problem.empty()) {
        fault(Pointer{} / "accessors" / static_cast<std::size_t>(index), problem);
        return false;
    }
    return true;
}

bool Importer::decodeUintsInto(std::int64_t index, const Pointer& at, ElementShape shape, const char* role,
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

}  // namespace kinema::gltf_import
