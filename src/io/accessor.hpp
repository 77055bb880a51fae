// Internal to kinema/io: glTF accessor decoding, independent of JSON. Every
// range is checked (without integer overflow) before a byte is read, so the
// decoders never read outside the spans they are given.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace kinema::gltf {

enum class ComponentType : std::uint16_t {
    Byte = 5120,
    UnsignedByte = 5121,
    Short = 5122,
    UnsignedShort = 5123,
    UnsignedInt = 5125,
    Float = 5126,
};

// Bytes per component, or 0 for a code that is not a glTF component type.
std::size_t componentSize(std::uint32_t code) noexcept;

// The glTF accessor type ("SCALAR", "VEC3", "MAT4", ...): rows and columns.
struct ElementShape {
    std::uint32_t rows = 0;     // components per column
    std::uint32_t columns = 0;  // 1 for scalars and vectors
    std::uint32_t components() const noexcept { return rows * columns; }
};
std::optional<ElementShape> elementShape(std::string_view type) noexcept;

struct SparseDesc {
    std::size_t count = 0;
    std::span<const std::byte> indices;  // from the indices' offset to the end of their view
    ComponentType indexType = ComponentType::UnsignedInt;
    std::span<const std::byte> values;  // from the values' offset to the end of their view
};

struct AccessorDesc {
    // From the accessor's byteOffset to the end of its buffer view; empty (with
    // hasView false) when the accessor has no view and starts from zeros.
    std::span<const std::byte> data;
    bool hasView = false;
    std::size_t byteStride = 0;  // 0: tightly packed
    ComponentType componentType = ComponentType::Float;
    ElementShape shape;
    bool normalized = false;
    std::size_t count = 0;
    std::optional<SparseDesc> sparse;
};

// Bytes one element occupies, matrix columns padded to 4-byte boundaries as glTF requires.
std::size_t elementSize(ComponentType type, ElementShape shape) noexcept;

// Empty when every range of `a` fits its spans; else what does not fit.
std::string checkRanges(const AccessorDesc& a);

// The accessor's bytes when they are already what decoding would produce for
// `Value` (float data, or unsigned short data for 16-bit values, tightly packed,
// no sparse substitution): count * components values, to be copied as they are.
// Empty otherwise. Precondition: checkRanges(a) is empty.
std::span<const std::byte> packedFloats(const AccessorDesc& a) noexcept;
std::span<const std::byte> packedUint16s(const AccessorDesc& a) noexcept;

// Decodes all count * components values to float (normalised integers per the glTF
// formula: max(c / 127, -1), c / 255, max(c / 32767, -1), c / 65535), applying
// sparse substitution. `out` holds count * components floats. Returns an empty
// string, or what is wrong with the data (sparse indices not increasing or out of range).
// Precondition: checkRanges(a) is empty.
std::string decodeFloats(const AccessorDesc& a, std::span<float> out);

// The same for unsigned integer data (indices, joint indices); float and signed
// data is rejected.
std::string decodeUints(const AccessorDesc& a, std::span<std::uint32_t> out);

// Unsigned byte or short data (joint indices) to 16 bits.
std::string decodeUint16s(const AccessorDesc& a, std::span<std::uint16_t> out);

}  // namespace kinema::gltf
