// Accessor decoding (src/io/accessor.hpp) against the glTF 2.0 specification:
// normalised integer formulas, byteStride, matrix column padding, sparse
// substitution and range checks. Expected values come from the spec's formulas
// computed here; byte layouts are written by hand, not by the code under test.
#include <gtest/gtest.h>

#include <cstdint>
#include <array>
#include <cstring>
#include <limits>
#include <vector>

#include "io/accessor.hpp"
#include "io_fixtures.hpp"

namespace kinema::gltf {
namespace {

using test::specNormByte;
using test::specNormShort;
using test::specNormUbyte;
using test::specNormUshort;

constexpr ElementShape kScalar{1, 1};
constexpr ElementShape kVec2{2, 1};
constexpr ElementShape kVec3{3, 1};
constexpr ElementShape kMat2{2, 2};
constexpr ElementShape kMat3{3, 3};
constexpr ElementShape kMat4{4, 4};

template <class T>
void put(std::vector<std::byte>& out, std::size_t at, T v) {
    if (out.size() < at + sizeof(T)) out.resize(at + sizeof(T), std::byte{0xAB});
    // Byte-wise copy: g++ 12 at -O3 misreads a memcpy after resize as an overflow.
    std::array<std::byte, sizeof(T)> bytes;
    std::memcpy(bytes.data(), &v, sizeof(T));
    for (std::size_t i = 0; i < sizeof(T); ++i) out[at + i] = bytes[i];
}

AccessorDesc viewDesc(ComponentType type, ElementShape shape, bool normalized, const std::vector<std::byte>& data,
                      std::size_t count, std::size_t stride = 0) {
    AccessorDesc d;
    d.data = data;
    d.hasView = true;
    d.byteStride = stride;
    d.componentType = type;
    d.shape = shape;
    d.normalized = normalized;
    d.count = count;
    return d;
}

std::vector<float> decode(const AccessorDesc& d) {
    EXPECT_EQ(checkRanges(d), "");
    std::vector<float> out(d.count * d.shape.components(), -12345.0f);
    EXPECT_EQ(decodeFloats(d, out), "");
    return out;
}

// ---- normalised integers: every representable value --------------------------

TEST(AccessorDecode, NormalizedByteIsMaxOfCOver127AndMinus1) {
    std::vector<std::byte> data;
    for (int c = -128; c <= 127; ++c) put(data, data.size(), static_cast<std::int8_t>(c));
    const auto out = decode(viewDesc(ComponentType::Byte, kScalar, true, data, 256));
    for (int c = -128; c <= 127; ++c) EXPECT_EQ(out[static_cast<std::size_t>(c + 128)], specNormByte(c)) << "c = " << c;
    EXPECT_EQ(out[0], -1.0f);   // -128 clamps to -1
    EXPECT_EQ(out[1], -1.0f);   // -127 is exactly -1
    EXPECT_EQ(out[255], 1.0f);  // 127
    EXPECT_EQ(out[128], 0.0f);  // 0
}

TEST(AccessorDecode, NormalizedUnsignedByteIsCOver255) {
    std::vector<std::byte> data;
    for (int c = 0; c <= 255; ++c) put(data, data.size(), static_cast<std::uint8_t>(c));
    const auto out = decode(viewDesc(ComponentType::UnsignedByte, kScalar, true, data, 256));
    for (int c = 0; c <= 255; ++c) EXPECT_EQ(out[static_cast<std::size_t>(c)], specNormUbyte(c)) << "c = " << c;
    EXPECT_EQ(out[255], 1.0f);
}

TEST(AccessorDecode, NormalizedShortIsMaxOfCOver32767AndMinus1) {
    std::vector<std::byte> data;
    for (int c = -32768; c <= 32767; ++c) put(data, data.size(), static_cast<std::int16_t>(c));
    const auto out = decode(viewDesc(ComponentType::Short, kScalar, true, data, 65536));
    int mismatches = 0;
    for (int c = -32768; c <= 32767; ++c) {
        if (out[static_cast<std::size_t>(c + 32768)] != specNormShort(c) && ++mismatches < 5) {
            ADD_FAILURE() << "c = " << c << ": " << out[static_cast<std::size_t>(c + 32768)]
                          << " != " << specNormShort(c);
        }
    }
    EXPECT_EQ(mismatches, 0);
    EXPECT_EQ(out[0], -1.0f);
    EXPECT_EQ(out[65535], 1.0f);
}

TEST(AccessorDecode, NormalizedUnsignedShortIsCOver65535) {
    std::vector<std::byte> data;
    for (int c = 0; c <= 65535; ++c) put(data, data.size(), static_cast<std::uint16_t>(c));
    const auto out = decode(viewDesc(ComponentType::UnsignedShort, kScalar, true, data, 65536));
    int mismatches = 0;
    for (int c = 0; c <= 65535; ++c) {
        if (out[static_cast<std::size_t>(c)] != specNormUshort(c) && ++mismatches < 5) {
            ADD_FAILURE() << "c = " << c;
        }
    }
    EXPECT_EQ(mismatches, 0);
}

TEST(AccessorDecode, UnnormalizedIntegersKeepTheirValue) {
    std::vector<std::byte> b, ub, s, us, ui;
    put(b, 0, std::int8_t{-128});
    put(b, 1, std::int8_t{127});
    put(ub, 0, std::uint8_t{0});
    put(ub, 1, std::uint8_t{255});
    put(s, 0, std::int16_t{-32768});
    put(s, 2, std::int16_t{32767});
    put(us, 0, std::uint16_t{0});
    put(us, 2, std::uint16_t{65535});
    put(ui, 0, std::uint32_t{16777216});
    put(ui, 4, std::uint32_t{7});
    EXPECT_EQ(decode(viewDesc(ComponentType::Byte, kScalar, false, b, 2)), (std::vector<float>{-128, 127}));
    EXPECT_EQ(decode(viewDesc(ComponentType::UnsignedByte, kScalar, false, ub, 2)), (std::vector<float>{0, 255}));
    EXPECT_EQ(decode(viewDesc(ComponentType::Short, kScalar, false, s, 2)), (std::vector<float>{-32768, 32767}));
    EXPECT_EQ(decode(viewDesc(ComponentType::UnsignedShort, kScalar, false, us, 2)), (std::vector<float>{0, 65535}));
    EXPECT_EQ(decode(viewDesc(ComponentType::UnsignedInt, kScalar, false, ui, 2)), (std::vector<float>{16777216, 7}));
}

TEST(AccessorDecode, UintsAcceptOnlyUnsignedComponents) {
    std::vector<std::byte> us;
    put(us, 0, std::uint16_t{65535});
    put(us, 2, std::uint16_t{3});
    std::vector<std::uint32_t> out(2);
    EXPECT_EQ(decodeUints(viewDesc(ComponentType::UnsignedShort, kScalar, false, us, 2), out), "");
    EXPECT_EQ(out, (std::vector<std::uint32_t>{65535, 3}));
    EXPECT_NE(decodeUints(viewDesc(ComponentType::Short, kScalar, false, us, 2), out), "");
    std::vector<std::byte> f;
    put(f, 0, 1.0f);
    std::vector<std::uint32_t> one(1);
    EXPECT_NE(decodeUints(viewDesc(ComponentType::Float, kScalar, false, f, 1), one), "");
}

// ---- byteStride ------------------------------------------------------------------

TEST(AccessorDecode, ByteStrideSkipsInterleavedBytes) {
    // Three VEC3 floats 20 bytes apart; the 8 bytes between elements hold other data.
    std::vector<std::byte> data(2 * 20 + 12, std::byte{0x7F});
    const std::vector<float> v = {1.5f, -2.0f, 3.25f, 4.0f, 5.0f, -6.5f, 7.0f, 8.0f, 1e-3f};
    for (std::size_t e = 0; e < 3; ++e) {
        for (std::size_t c = 0; c < 3; ++c) put(data, e * 20 + c * 4, v[e * 3 + c]);
    }
    EXPECT_EQ(decode(viewDesc(ComponentType::Float, kVec3, false, data, 3, 20)), v);
}

TEST(AccessorDecode, ByteStrideOnNormalizedUnsignedBytes) {
    // VEC2 ubyte normalised, stride 4 (the 2 bytes after each element are not read).
    std::vector<std::byte> data;
    const int c[6] = {0, 255, 17, 200, 128, 1};
    for (std::size_t e = 0; e < 3; ++e) {
        put(data, e * 4, static_cast<std::uint8_t>(c[e * 2]));
        put(data, e * 4 + 1, static_cast<std::uint8_t>(c[e * 2 + 1]));
        if (e < 2) {
            put(data, e * 4 + 2, std::uint8_t{0xFF});
            put(data, e * 4 + 3, std::uint8_t{0xFF});
        }
    }
    ASSERT_EQ(data.size(), 10u);  // the last element needs no trailing gap
    const auto out = decode(viewDesc(ComponentType::UnsignedByte, kVec2, true, data, 3, 4));
    for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(out[i], specNormUbyte(c[i])) << i;
}

TEST(AccessorDecode, StrideSmallerThanElementIsRejected) {
    std::vector<std::byte> data(64);
    EXPECT_NE(checkRanges(viewDesc(ComponentType::Float, kVec3, false, data, 2, 8)), "");
}

TEST(AccessorDecode, LastStridedElementMayEndTheView) {
    // count 3, stride 16, element 12: needs exactly 2 * 16 + 12 = 44 bytes.
    std::vector<std::byte> data(44);
    EXPECT_EQ(checkRanges(viewDesc(ComponentType::Float, kVec3, false, data, 3, 16)), "");
    std::vector<std::byte> shortData(43);
    EXPECT_NE(checkRanges(viewDesc(ComponentType::Float, kVec3, false, shortData, 3, 16)), "");
}

// ---- matrix column padding ---------------------------------------------------------

TEST(AccessorDecode, MatrixElementSizesFollowColumnPadding) {
    // glTF "Data Alignment": each matrix column starts on a 4-byte boundary.
    EXPECT_EQ(elementSize(ComponentType::Byte, kMat2), 8u);   // 2 + 2 pad per column
    EXPECT_EQ(elementSize(ComponentType::Byte, kMat3), 12u);  // 3 + 1 pad per column
    EXPECT_EQ(elementSize(ComponentType::Byte, kMat4), 16u);
    EXPECT_EQ(elementSize(ComponentType::Short, kMat2), 8u);
    EXPECT_EQ(elementSize(ComponentType::Short, kMat3), 24u);  // 6 + 2 pad per column
    EXPECT_EQ(elementSize(ComponentType::Short, kMat4), 32u);
    EXPECT_EQ(elementSize(ComponentType::Float, kMat2), 16u);
    EXPECT_EQ(elementSize(ComponentType::Float, kMat3), 36u);
    EXPECT_EQ(elementSize(ComponentType::Float, kMat4), 64u);
    EXPECT_EQ(elementSize(ComponentType::UnsignedByte, kVec3), 3u);  // vectors are not padded
}

TEST(AccessorDecode, Mat2OfNormalizedBytesSkipsColumnPadding) {
    // Two elements; column c of element e at e*8 + c*4; pad bytes hold 0x55.
    const int c[8] = {127, -128, 1, -1, 64, -64, 0, 100};
    std::vector<std::byte> data(16, std::byte{0x55});
    for (std::size_t e = 0; e < 2; ++e) {
        for (std::size_t col = 0; col < 2; ++col) {
            for (std::size_t row = 0; row < 2; ++row) {
                put(data, e * 8 + col * 4 + row, static_cast<std::int8_t>(c[e * 4 + col * 2 + row]));
            }
        }
    }
    const auto out = decode(viewDesc(ComponentType::Byte, kMat2, true, data, 2));
    for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(out[i], specNormByte(c[i])) << i;
}

TEST(AccessorDecode, Mat3OfUnsignedBytesSkipsColumnPadding) {
    std::vector<std::byte> data(12, std::byte{0x55});
    for (std::size_t col = 0; col < 3; ++col) {
        for (std::size_t row = 0; row < 3; ++row) put(data, col * 4 + row, static_cast<std::uint8_t>(10 * col + row));
    }
    const auto out = decode(viewDesc(ComponentType::UnsignedByte, kMat3, false, data, 1));
    for (std::size_t col = 0; col < 3; ++col) {
        for (std::size_t row = 0; row < 3; ++row) EXPECT_EQ(out[col * 3 + row], static_cast<float>(10 * col + row));
    }
}

TEST(AccessorDecode, Mat3OfNormalizedShortsSkipsColumnPadding) {
    // Column stride 8 bytes (6 + 2 pad), element 24 bytes; two elements.
    std::vector<std::byte> data(48, std::byte{0x55});
    std::vector<int> c;
    for (int i = 0; i < 18; ++i) c.push_back(i * 3000 - 27000);
    for (std::size_t e = 0; e < 2; ++e) {
        for (std::size_t col = 0; col < 3; ++col) {
            for (std::size_t row = 0; row < 3; ++row) {
                put(data, e * 24 + col * 8 + row * 2, static_cast<std::int16_t>(c[e * 9 + col * 3 + row]));
            }
        }
    }
    const auto out = decode(viewDesc(ComponentType::Short, kMat3, true, data, 2));
    for (std::size_t i = 0; i < 18; ++i) EXPECT_EQ(out[i], specNormShort(c[i])) << i;
}

TEST(AccessorDecode, Mat2OfShortsHasNoPadding) {
    std::vector<std::byte> data;
    const int c[4] = {-5, 6, 32767, -32768};
    for (std::size_t i = 0; i < 4; ++i) put(data, i * 2, static_cast<std::int16_t>(c[i]));
    EXPECT_EQ(decode(viewDesc(ComponentType::Short, kMat2, false, data, 1)),
              (std::vector<float>{-5, 6, 32767, -32768}));
}

TEST(AccessorDecode, MatrixDataShorterThanPaddedElementIsRejected) {
    // MAT3 of bytes needs 12 bytes, not 9.
    std::vector<std::byte> data(9);
    EXPECT_NE(checkRanges(viewDesc(ComponentType::Byte, kMat3, false, data, 1)), "");
}

// ---- sparse -------------------------------------------------------------------------

std::vector<std::byte> indexBytes(ComponentType type, const std::vector<std::uint32_t>& indices) {
    std::vector<std::byte> out;
    for (std::size_t i = 0; i < indices.size(); ++i) {
        switch (type) {
            case ComponentType::UnsignedByte: put(out, i, static_cast<std::uint8_t>(indices[i])); break;
            case ComponentType::UnsignedShort: put(out, i * 2, static_cast<std::uint16_t>(indices[i])); break;
            default: put(out, i * 4, indices[i]); break;
        }
    }
    return out;
}

class SparseIndexType : public ::testing::TestWithParam<ComponentType> {};

TEST_P(SparseIndexType, SubstitutesOverZerosWithoutBufferView) {
    const std::vector<std::uint32_t> idx = {1, 4};
    const auto ib = indexBytes(GetParam(), idx);
    std::vector<std::byte> vb;
    const float v[6] = {1, 2, 3, -4, -5, -6};
    for (std::size_t i = 0; i < 6; ++i) put(vb, i * 4, v[i]);
    AccessorDesc d;
    d.componentType = ComponentType::Float;
    d.shape = kVec3;
    d.count = 5;
    d.sparse = SparseDesc{2, ib, GetParam(), vb};
    const auto out = decode(d);
    const std::vector<float> expected = {0, 0, 0, 1, 2, 3, 0, 0, 0, 0, 0, 0, -4, -5, -6};
    EXPECT_EQ(out, expected);
}

TEST_P(SparseIndexType, SubstitutesOverBufferViewData) {
    std::vector<std::byte> base;
    for (std::size_t i = 0; i < 4; ++i) put(base, i * 2, static_cast<std::int16_t>(100 + i));
    const auto ib = indexBytes(GetParam(), {0, 3});
    std::vector<std::byte> vb;
    put(vb, 0, std::int16_t{-32768});
    put(vb, 2, std::int16_t{32767});
    AccessorDesc d = viewDesc(ComponentType::Short, kScalar, true, base, 4);
    d.sparse = SparseDesc{2, ib, GetParam(), vb};
    const auto out = decode(d);
    EXPECT_EQ(out, (std::vector<float>{-1.0f, specNormShort(101), specNormShort(102), 1.0f}));
}

INSTANTIATE_TEST_SUITE_P(AccessorDecode, SparseIndexType,
                         ::testing::Values(ComponentType::UnsignedByte, ComponentType::UnsignedShort,
                                           ComponentType::UnsignedInt),
                         [](const auto& p) { return std::to_string(static_cast<unsigned>(p.param)); });

TEST(AccessorDecode, SparseIndicesMustIncrease) {
    const auto ib = indexBytes(ComponentType::UnsignedByte, {2, 2});
    std::vector<std::byte> vb(8);
    AccessorDesc d;
    d.componentType = ComponentType::Float;
    d.shape = kScalar;
    d.count = 4;
    d.sparse = SparseDesc{2, ib, ComponentType::UnsignedByte, vb};
    ASSERT_EQ(checkRanges(d), "");
    std::vector<float> out(4);
    EXPECT_NE(decodeFloats(d, out), "");
}

TEST(AccessorDecode, SparseIndexMustBeBelowCount) {
    const auto ib = indexBytes(ComponentType::UnsignedInt, {4});
    std::vector<std::byte> vb(4);
    AccessorDesc d;
    d.componentType = ComponentType::Float;
    d.shape = kScalar;
    d.count = 4;
    d.sparse = SparseDesc{1, ib, ComponentType::UnsignedInt, vb};
    ASSERT_EQ(checkRanges(d), "");
    std::vector<float> out(4);
    EXPECT_NE(decodeFloats(d, out), "");
}

TEST(AccessorDecode, SparseCountOutsideOneToCountIsRejected) {
    const auto ib = indexBytes(ComponentType::UnsignedInt, {0, 1, 2});
    std::vector<std::byte> vb(12);
    AccessorDesc d;
    d.componentType = ComponentType::Float;
    d.shape = kScalar;
    d.count = 2;
    d.sparse = SparseDesc{3, ib, ComponentType::UnsignedInt, vb};
    EXPECT_NE(checkRanges(d), "");
    d.sparse->count = 0;
    EXPECT_NE(checkRanges(d), "");
}

TEST(AccessorDecode, SparseIndicesOrValuesPastTheirViewAreRejected) {
    const auto ib = indexBytes(ComponentType::UnsignedShort, {0, 1});
    AccessorDesc d;
    d.componentType = ComponentType::Float;
    d.shape = kScalar;
    d.count = 2;
    std::vector<std::byte> vb(7);  // 2 floats need 8
    d.sparse = SparseDesc{2, ib, ComponentType::UnsignedShort, vb};
    EXPECT_NE(checkRanges(d), "");
    std::vector<std::byte> vb8(8);
    d.sparse = SparseDesc{2, std::span<const std::byte>(ib).first(3), ComponentType::UnsignedShort, vb8};
    EXPECT_NE(checkRanges(d), "");
}

TEST(AccessorDecode, SignedSparseIndexTypeIsRejected) {
    std::vector<std::byte> ib(2), vb(4);
    AccessorDesc d;
    d.componentType = ComponentType::Float;
    d.shape = kScalar;
    d.count = 2;
    d.sparse = SparseDesc{1, ib, ComponentType::Short, vb};
    EXPECT_NE(checkRanges(d), "");
}

// ---- ranges -------------------------------------------------------------------------

TEST(AccessorDecode, HugeCountOnATinyViewIsRejected) {
    std::vector<std::byte> data(16);
    EXPECT_NE(checkRanges(viewDesc(ComponentType::Float, kScalar, false, data, 4294967295u)), "");
    EXPECT_NE(
        checkRanges(viewDesc(ComponentType::Float, kMat4, false, data, std::numeric_limits<std::size_t>::max() / 64)),
        "");
    EXPECT_NE(checkRanges(viewDesc(ComponentType::Float, kVec3, false, data, 2, 252)), "");
}

TEST(AccessorDecode, ZeroCountIsRejected) {
    std::vector<std::byte> data(16);
    EXPECT_NE(checkRanges(viewDesc(ComponentType::Float, kScalar, false, data, 0)), "");
}

}  // namespace
}  // namespace kinema::gltf
