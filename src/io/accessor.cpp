#include "accessor.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace kinema::gltf {

std::size_t componentSize(std::uint32_t code) noexcept {
    switch (code) {
        case 5120:
        case 5121: return 1;
        case 5122:
        case 5123: return 2;
        case 5125:
        case 5126: return 4;
        default: return 0;
    }
}

std::optional<ElementShape> elementShape(std::string_view type) noexcept {
    if (type == "SCALAR") return ElementShape{1, 1};
    if (type == "VEC2") return ElementShape{2, 1};
    if (type == "VEC3") return ElementShape{3, 1};
    if (type == "VEC4") return ElementShape{4, 1};
    if (type == "MAT2") return ElementShape{2, 2};
    if (type == "MAT3") return ElementShape{3, 3};
    if (type == "MAT4") return ElementShape{4, 4};
    return std::nullopt;
}

namespace {

std::size_t columnStride(ComponentType type, ElementShape shape) noexcept {
    const std::size_t bytes = shape.rows * componentSize(static_cast<std::uint32_t>(type));
    return shape.columns > 1 ? (bytes + 3) & ~std::size_t{3} : bytes;
}

// Whether `count` elements of `element` bytes, `stride` apart, fit in `available` bytes.
bool fits(std::size_t count, std::size_t stride, std::size_t element, std::size_t available) noexcept {
    if (count == 0) return true;
    if (element > available) return false;
    return (count - 1) <= (available - element) / stride;
}

template <class T>
T load(const std::byte* p) noexcept {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

float componentToFloat(const std::byte* p, ComponentType type, bool normalized) noexcept {
    switch (type) {
        case ComponentType::Byte: {
            const float c = load<std::int8_t>(p);
            return normalized ? std::max(c / 127.0f, -1.0f) : c;
        }
        case ComponentType::UnsignedByte: {
            const float c = load<std::uint8_t>(p);
            return normalized ? c / 255.0f : c;
        }
        case ComponentType::Short: {
            const float c = load<std::int16_t>(p);
            return normalized ? std::max(c / 32767.0f, -1.0f) : c;
        }
        case ComponentType::UnsignedShort: {
            const float c = load<std::uint16_t>(p);
            return normalized ? c / 65535.0f : c;
        }
        case ComponentType::UnsignedInt: return static_cast<float>(load<std::uint32_t>(p));
        case ComponentType::Float: return load<float>(p);
    }
    return 0.0f;
}

std::uint32_t componentToUint(const std::byte* p, ComponentType type) noexcept {
    switch (type) {
        case ComponentType::UnsignedByte: return load<std::uint8_t>(p);
        case ComponentType::UnsignedShort: return load<std::uint16_t>(p);
        case ComponentType::UnsignedInt: return load<std::uint32_t>(p);
        default: return 0;
    }
}

// Reads one element at `p` (laid out with padded matrix columns) into `out`.
template <class Value, class Convert>
void readElement(const std::byte* p, ComponentType type, ElementShape shape, Value* out, Convert convert) noexcept {
    const std::size_t cs = componentSize(static_cast<std::uint32_t>(type));
    const std::size_t colStride = columnStride(type, shape);
    for (std::uint32_t c = 0; c < shape.columns; ++c) {
        for (std::uint32_t r = 0; r < shape.rows; ++r) *out++ = convert(p + c * colStride + r * cs);
    }
}

template <class Value, class Convert>
std::string decode(const AccessorDesc& a, std::span<Value> out, Convert convert) {
    const std::size_t comps = a.shape.components();
    const std::size_t elem = elementSize(a.componentType, a.shape);
    if (out.size() != a.count * comps) return "output size does not match the accessor";
    if (!a.hasView) {
        std::fill(out.begin(), out.end(), Value{});
    } else {
        const std::size_t stride = a.byteStride ? a.byteStride : elem;
        const bool packedFloat = std::is_same_v<Value, float> && a.componentType == ComponentType::Float &&
                                 stride == elem && elem == comps * 4;
        if (packedFloat) {
            std::memcpy(out.data(), a.data.data(), a.count * elem);
        } else {
            for (std::size_t i = 0; i < a.count; ++i) {
                readElement(a.data.data() + i * stride, a.componentType, a.shape, &out[i * comps], convert);
            }
        }
    }
    if (a.sparse) {
        const SparseDesc& s = *a.sparse;
        const std::size_t is = componentSize(static_cast<std::uint32_t>(s.indexType));
        std::uint64_t previous = 0;
        for (std::size_t i = 0; i < s.count; ++i) {
            const std::uint32_t index = componentToUint(s.indices.data() + i * is, s.indexType);
            if (index >= a.count) {
                return "sparse index " + std::to_string(index) + " at " + std::to_string(i) + " is not below count " +
                       std::to_string(a.count);
            }
            if (i > 0 && index <= previous) {
                return "sparse indices are not strictly increasing at " + std::to_string(i);
            }
            previous = index;
            readElement(s.values.data() + i * elem, a.componentType, a.shape, &out[std::size_t{index} * comps],
                        convert);
        }
    }
    return {};
}

}  // namespace

std::size_t elementSize(ComponentType type, ElementShape shape) noexcept {
    return columnStride(type, shape) * shape.columns;
}

std::string checkRanges(const AccessorDesc& a) {
    const std::size_t elem = elementSize(a.componentType, a.shape);
    if (elem == 0) return "unknown component type or element type";
    if (a.count == 0) return "count must be at least 1";
    if (a.hasView) {
        const std::size_t stride = a.byteStride ? a.byteStride : elem;
        if (stride < elem) {
            return "byteStride " + std::to_string(stride) + " is smaller than the element (" + std::to_string(elem) +
                   " bytes)";
        }
        if (!fits(a.count, stride, elem, a.data.size())) {
            return std::to_string(a.count) + " elements of " + std::to_string(elem) + " bytes, stride " +
                   std::to_string(stride) + ", do not fit the " + std::to_string(a.data.size()) +
                   " bytes left in the buffer view";
        }
    }
    if (a.sparse) {
        const SparseDesc& s = *a.sparse;
        if (s.count == 0 || s.count > a.count) {
            return "sparse count " + std::to_string(s.count) + " must be between 1 and count " + std::to_string(a.count);
        }
        const std::size_t is = componentSize(static_cast<std::uint32_t>(s.indexType));
        if (s.indexType != ComponentType::UnsignedByte && s.indexType != ComponentType::UnsignedShort &&
            s.indexType != ComponentType::UnsignedInt) {
            return "sparse indices must be unsigned byte, short or int";
        }
        if (!fits(s.count, is, is, s.indices.size())) return "sparse indices do not fit their buffer view";
        if (!fits(s.count, elem, elem, s.values.size())) return "sparse values do not fit their buffer view";
    }
    return {};
}

std::string decodeFloats(const AccessorDesc& a, std::span<float> out) {
    const ComponentType type = a.componentType;
    const bool normalized = a.normalized;
    return decode(a, out, [type, normalized](const std::byte* p) { return componentToFloat(p, type, normalized); });
}

std::string decodeUints(const AccessorDesc& a, std::span<std::uint32_t> out) {
    if (a.componentType != ComponentType::UnsignedByte && a.componentType != ComponentType::UnsignedShort &&
        a.componentType != ComponentType::UnsignedInt) {
        return "unsigned integer components expected";
    }
    const ComponentType type = a.componentType;
    return decode(a, out, [type](const std::byte* p) { return componentToUint(p, type); });
}

}  // namespace kinema::gltf
