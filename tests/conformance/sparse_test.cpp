// Conformance: sparse accessors. SimpleSparseAccessor.gltf's POSITION is a base
// bufferView with 3 sparse substitutions; expected positions are computed here
// from the .bin and the JSON. Synthetic GLBs cover the rows of the spec the
// sample file does not: no base bufferView (zeros), byte offsets on the accessor
// and on the sparse index / value views, 8-bit sparse indices.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "conformance/ref_gltf.hpp"
#include "conformance/synthetic_glb.hpp"
#include "kinema/io/gltf.hpp"
#include "support/assets.hpp"

namespace {

using conformance::RefGltf;

TEST(SparseAccessor, SimpleSparseAccessorPositionsAreBasePlusSubstitutions) {
    KINEMA_REQUIRE_ASSET(file, "SimpleSparseAccessor/SimpleSparseAccessor.gltf");
    auto imported = kinema::importGltfFile(file);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const kinema::Model& model = imported.value();
    const RefGltf ref = conformance::loadGltf(file);

    ASSERT_EQ(ref.meshes.size(), 1u);
    const int posAccessor = ref.meshes[0].primitives.at(0).attributes.at("POSITION");
    const conformance::RefAccessor& acc = ref.accessors.at(static_cast<std::size_t>(posAccessor));
    ASSERT_EQ(acc.sparseCount, 3u) << "the sample is expected to carry 3 sparse substitutions";

    // By hand: base elements from the bufferView, then element indices[i] := values[i].
    const auto& base = ref.bufferViews.at(static_cast<std::size_t>(acc.bufferView));
    const auto& bin = ref.buffers.at(static_cast<std::size_t>(base.buffer));
    std::vector<float> expected(acc.count * 3);
    std::memcpy(expected.data(), bin.data() + base.byteOffset + acc.byteOffset, expected.size() * sizeof(float));
    const auto& idxView = ref.bufferViews.at(static_cast<std::size_t>(acc.sparseIndicesView));
    const auto& valView = ref.bufferViews.at(static_cast<std::size_t>(acc.sparseValuesView));
    ASSERT_EQ(acc.sparseIndicesType, 5123);  // UNSIGNED_SHORT in this file
    std::vector<std::uint16_t> changed;
    for (std::size_t i = 0; i < acc.sparseCount; ++i) {
        std::uint16_t index = 0;
        std::memcpy(&index, bin.data() + idxView.byteOffset + acc.sparseIndicesOffset + 2 * i, 2);
        ASSERT_LT(index, acc.count);
        float v[3];
        std::memcpy(v, bin.data() + valView.byteOffset + acc.sparseValuesOffset + 12 * i, 12);
        // The substitution must matter, or this test would prove nothing.
        EXPECT_TRUE(v[0] != expected[index * 3u] || v[1] != expected[index * 3u + 1] ||
                    v[2] != expected[index * 3u + 2])
            << "sparse element " << i << " equals the base";
        std::memcpy(&expected[index * 3u], v, 12);
        changed.push_back(index);
    }
    EXPECT_EQ(changed.size(), 3u);

    // And the generic reader agrees with the hand computation.
    const auto generic = conformance::readAccessor(ref, posAccessor);
    ASSERT_EQ(generic.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(generic[i], static_cast<double>(expected[i]));

    ASSERT_EQ(model.meshes.size(), 1u);
    ASSERT_EQ(model.meshes[0].primitives.size(), 1u);
    const auto& positions = model.meshes[0].primitives[0].positions;
    ASSERT_EQ(positions.size(), acc.count);
    for (std::size_t v = 0; v < positions.size(); ++v) {
        SCOPED_TRACE("vertex " + std::to_string(v));
        EXPECT_EQ(positions[v].x, expected[v * 3 + 0]);
        EXPECT_EQ(positions[v].y, expected[v * 3 + 1]);
        EXPECT_EQ(positions[v].z, expected[v * 3 + 2]);
    }
}

// --- synthetic files ---------------------------------------------------------

using conformance::importSynthetic;

template <class T>
void append(std::vector<std::uint8_t>& bin, const std::vector<T>& values) {
    const std::size_t at = bin.size();
    bin.resize(at + values.size() * sizeof(T));
    std::memcpy(bin.data() + at, values.data(), values.size() * sizeof(T));
}

// Triangle whose POSITION has no bufferView: the base is all zeros, and two
// elements are substituted through 8-bit indices. The index and value views
// start at non-zero byteOffsets inside their views.
TEST(SparseAccessor, WithoutBufferViewTheBaseIsZeros) {
    std::vector<std::uint8_t> bin;
    append(bin, std::vector<std::uint8_t>{0xEE, 0xEE, 0xEE, 0xEE, 0, 2});  // bytes 0..5: junk, then indices at +4
    while (bin.size() % 4) bin.push_back(0);                               // bytes 6..7 padding
    append(bin, std::vector<float>{99, 99, 99, 1, 2, 3, 4, 5, 6});  // bytes 8..: junk element, then values at +12
    const std::string json = R"({
      "asset": {"version": "2.0"},
      "buffers": [{"byteLength": 44}],
      "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 6},
                      {"buffer": 0, "byteOffset": 8, "byteLength": 36}],
      "accessors": [{"componentType": 5126, "count": 3, "type": "VEC3",
                     "min": [0, 0, 0], "max": [4, 5, 6],
                     "sparse": {"count": 2,
                                "indices": {"bufferView": 0, "byteOffset": 4, "componentType": 5121},
                                "values": {"bufferView": 1, "byteOffset": 12}}}],
      "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
      "nodes": [{"mesh": 0}],
      "scenes": [{"nodes": [0]}], "scene": 0
    })";
    auto imported = importSynthetic(json, bin);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const auto& p = imported.value().meshes.at(0).primitives.at(0).positions;
    ASSERT_EQ(p.size(), 3u);
    EXPECT_EQ(p[0], (kinema::Vec3{1, 2, 3}));
    EXPECT_EQ(p[1], (kinema::Vec3{0, 0, 0}));
    EXPECT_EQ(p[2], (kinema::Vec3{4, 5, 6}));
}

// The accessor's own byteOffset applies to its bufferView only; the sparse views
// carry their own offsets (and the base view has a byteStride here).
TEST(SparseAccessor, AccessorByteOffsetDoesNotShiftSparseViews) {
    std::vector<std::uint8_t> bin;
    // View 0 (bytes 0..63): base, stride 16, accessor byteOffset 4: element i at 4 + 16 i.
    std::vector<float> base(16, -7.0f);
    for (int i = 0; i < 4; ++i)
        for (int c = 0; c < 3; ++c) base[static_cast<std::size_t>(1 + 4 * i + c)] = static_cast<float>(10 * i + c);
    append(bin, base);
    // View 1 (bytes 64..71): u16 sparse indices {1, 3}, starting at view offset 4.
    append(bin, std::vector<std::uint16_t>{0xBEEF, 0xBEEF, 1, 3});
    // View 2 (bytes 72..95): sparse values {100,101,102}, {300,301,302}, no offset.
    append(bin, std::vector<float>{100, 101, 102, 300, 301, 302});
    const std::string json = R"({
      "asset": {"version": "2.0"},
      "buffers": [{"byteLength": 96}],
      "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 64, "byteStride": 16},
                      {"buffer": 0, "byteOffset": 64, "byteLength": 8},
                      {"buffer": 0, "byteOffset": 72, "byteLength": 24}],
      "accessors": [{"bufferView": 0, "byteOffset": 4, "componentType": 5126, "count": 4, "type": "VEC3",
                     "min": [0, 1, 2], "max": [300, 301, 302],
                     "sparse": {"count": 2,
                                "indices": {"bufferView": 1, "byteOffset": 4, "componentType": 5123},
                                "values": {"bufferView": 2}}}],
      "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "mode": 0}]}],
      "nodes": [{"mesh": 0}],
      "scenes": [{"nodes": [0]}], "scene": 0
    })";
    auto imported = importSynthetic(json, bin);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const auto& p = imported.value().meshes.at(0).primitives.at(0).positions;
    ASSERT_EQ(p.size(), 4u);
    EXPECT_EQ(p[0], (kinema::Vec3{0, 1, 2}));
    EXPECT_EQ(p[1], (kinema::Vec3{100, 101, 102}));
    EXPECT_EQ(p[2], (kinema::Vec3{20, 21, 22}));
    EXPECT_EQ(p[3], (kinema::Vec3{300, 301, 302}));
}

}  // namespace
