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

template <ComponentType C>
struct Component;
template <>
struct Component<ComponentType::Byte> {
    using T = std::int8_t;
    static constexpr float norm() { return 127.0f; }
    static constexpr bool isSigned() { return true; }
};
template <>
struct Component<ComponentType::UnsignedByte> {
    using T = std::uint8_t;
    static constexpr float norm() { return 255.0f; }
    static constexpr bool isSigned() { return false; }
};
template <>
struct Component<ComponentType::Short> {
    using T = std::int16_t;
    static constexpr float norm() { return 32767.0f; }
    static constexpr bool isSigned() { return true; }
};
template <>
struct Component<ComponentType::UnsignedShort> {
    using T = std::uint16_t;
    static constexpr float norm() { return 65535.0f; }
    static constexpr bool isSigned() { return false; }
};
template <>
struct Component<ComponentType::UnsignedInt> {
    using T = std::uint32_t;
    static constexpr float norm() { return 1.0f; }
    static constexpr bool isSigned() { return false; }
};
template <>
struct Component<ComponentType::Float> {
    using T = float;
    static constexpr float norm() { return 1.0f; }
    static constexpr bool isSigned() { return true; }
};

// One component of type C at p, as float (normalised per the glTF formulas when asked).
template <ComponentType C, bool Normalized>
inline float toFloat(const std::byte* p) noexcept {
    using Traits = Component<C>;
    const float c = static_cast<float>(load<typename Traits::T>(p));
    if constexpr (!Normalized || C == ComponentType::Float || C == ComponentType::UnsignedInt) {
        return c;
    } else if constexpr (Traits::isSigned()) {
        return std::max(c / Traits::norm(), -1.0f);
    } else {
        return c / Traits::norm();
    }
}

template <ComponentType C>
inline std::uint32_t toUint(const std::byte* p) noexcept {
    if constexpr (C == ComponentType::UnsignedByte || C == ComponentType::UnsignedShort ||
                  C == ComponentType::UnsignedInt) {
        return load<typename Component<C>::T>(p);
    } else {
        return 0;
    }
}

// Reads `count` elements `stride` bytes apart (matrix columns `colStride` apart)
// into out, converting each component with Convert.
template <class Value, std::size_t Size, class Convert>
void readElements(const std::byte* base, std::size_t count, std::size_t stride, ElementShape shape,
                  std::size_t colStride, Value* out, Convert convert) noexcept {
    if (shape.columns == 1 && stride == shape.rows * Size) {
        // Tightly packed: one flat loop the compiler can vectorise.
        const std::size_t n = count * shape.rows;
        for (std::size_t i = 0; i < n; ++i) out[i] = convert(base + i * Size);
        return;
    }
    if (shape.columns == 1) {
        const std::size_t rows = shape.rows;
        for (std::size_t i = 0; i < count; ++i) {
            const std::byte* p = base + i * stride;
            for (std::size_t r = 0; r < rows; ++r) *out++ = convert(p + r * Size);
        }
        return;
    }
    for (std::size_t i = 0; i < count; ++i) {
        const std::byte* p = base + i * stride;
        for (std::uint32_t c = 0; c < shape.columns; ++c) {
            for (std::uint32_t r = 0; r < shape.rows; ++r) *out++ = convert(p + c * colStride + r * Size);
        }
    }
}

// Calls fn.template operator()<C>() with the accessor's component type as a constant.
template <class Fn>
decltype(auto) withComponentType(ComponentType type, Fn&& fn) {
    switch (type) {
        case ComponentType::Byte: return fn.template operator()<ComponentType::Byte>();
        case ComponentType::UnsignedByte: return fn.template operator()<ComponentType::UnsignedByte>();
        case ComponentType::Short: return fn.template operator()<ComponentType::Short>();
        case ComponentType::UnsignedShort: return fn.template operator()<ComponentType::UnsignedShort>();
        case ComponentType::UnsignedInt: return fn.template operator()<ComponentType::UnsignedInt>();
        case ComponentType::Float: break;
    }
    return fn.template operator()<ComponentType::Float>();
}

// Reads `count` elements of accessor layout into out (count * components values).
template <class Value>
void readAll(const std::byte* base, std::size_t count, std::size_t stride, ComponentType type, ElementShape shape,
             bool normalized, Value* out) noexcept {
    const std::size_t colStride = columnStride(type, shape);
    withComponentType(type, [&]<ComponentType C>() {
        constexpr std::size_t size = sizeof(typename Component<C>::T);
        if constexpr (std::is_same_v<Value, float>) {
            if (normalized) {
                readElements<Value, size>(base, count, stride, shape, colStride, out, toFloat<C, true>);
            } else {
                readElements<Value, size>(base, count, stride, shape, colStride, out, toFloat<C, false>);
            }
        } else {
            readElements<Value, size>(base, count, stride, shape, colStride, out,
                                      [](const std::byte* p) { return static_cast<Value>(toUint<C>(p)); });
        }
    });
}

template <class Value>
std::string decode(const AccessorDesc& a, std::span<Value> out) {
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
            readAll(a.data.data(), a.count, stride, a.componentType, a.shape, a.normalized, out.data());
        }
    }
    if (a.sparse) {
        const SparseDesc& s = *a.sparse;
        const std::size_t is = componentSize(static_cast<std::uint32_t>(s.indexType));
        std::uint64_t previous = 0;
        for (std::size_t i = 0; i < s.count; ++i) {
            std::uint32_t index = 0;
            readAll(s.indices.data() + i * is, 1, is, s.indexType, ElementShape{1, 1}, false, &index);
            if (index >= a.count) {
                return "sparse index " + std::to_string(index) + " at " + std::to_string(i) + " is not below count " +
                    std::to_string(a.count);
            }
            if (i > 0 && index <= previous) {
                return "sparse indices are not strictly increasing at " + std::to_string(i);
            }
            previous = index;
            readAll(s.values.data() + i * elem, 1, elem, a.componentType, a.shape, a.normalized,
                    &out[std::size_t{index} * comps]);
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
            return "sparse count " + std::to_string(s.count) + " must be between 1 and count " +
                std::to_string(a.count);
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

namespace {

std::span<const std::byte> packedAs(const AccessorDesc& a, ComponentType type, std::size_t size) noexcept {
    if (!a.hasView || a.sparse || a.componentType != type) return {};
    // Matrix columns padded to 4 bytes make the element larger than its values.
    const std::size_t elem = elementSize(a.componentType, a.shape);
    const std::size_t stride = a.byteStride ? a.byteStride : elem;
    if (stride != elem || elem != a.shape.components() * size) return {};
    return a.data.first(a.count * elem);
}

}  // namespace

std::span<const std::byte> packedFloats(const AccessorDesc& a) noexcept { return packedAs(a, ComponentType::Float, 4); }

std::span<const std::byte> packedUint16s(const AccessorDesc& a) noexcept {
    return packedAs(a, ComponentType::UnsignedShort, 2);
}

std::string decodeFloats(const AccessorDesc& a, std::span<float> out) { return decode(a, out); }

std::string decodeUint16s(const AccessorDesc& a, std::span<std::uint16_t> out) {
    if (a.componentType != ComponentType::UnsignedByte && a.componentType != ComponentType::UnsignedShort) {
        return "unsigned byte or short components expected";
    }
    return decode(a, out);
}

std::string decodeUints(const AccessorDesc& a, std::span<std::uint32_t> out) {
    if (a.componentType != ComponentType::UnsignedByte && a.componentType != ComponentType::UnsignedShort &&
        a.componentType != ComponentType::UnsignedInt) {
        return "unsigned integer components expected";
    }
    return decode(a, out);
}

}  // namespace kinema::gltf
