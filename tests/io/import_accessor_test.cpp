// Accessor decoding through the whole importer: quantized meshes
// (KHR_mesh_quantization), normalised animation outputs, byteStride and
// byteOffset, and sparse accessors in every role that may use them. Expected
// values are the glTF spec's formulas applied to the raw components written here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "io_fixtures.hpp"
#include "kinema/io/gltf.hpp"

namespace kinema::test {
namespace {

// A node with a one-primitive mesh; returns the node index.
std::uint32_t meshNode(GltfWriter& w, const PrimitiveSpec& prim, const std::vector<double>& weights = {}) {
    const std::uint32_t mesh = w.addMesh({prim}, weights);
    const std::uint32_t node = w.addNode({.name = "mesh", .mesh = mesh});
    w.addScene({node});
    return node;
}

std::vector<float> componentsOf(const std::vector<Vec3>& v) {
    std::vector<float> out;
    for (const Vec3& p : v) {
        out.push_back(p.x);
        out.push_back(p.y);
        out.push_back(p.z);
    }
    return out;
}

const Track* findTrack(const Model& m, std::uint32_t node, TrackPath path) {
    if (m.clips.empty()) return nullptr;
    for (const Track& t : m.clips[0].tracks()) {
        if (t.target == m.jointOfNode[node] && t.path == path) return &t;
    }
    return nullptr;
}

// Unit quaternion from raw normalised shorts: spec decode, then normalise in double.
std::vector<double> normalisedQuat(const std::vector<int>& c) {
    std::vector<double> q;
    double len2 = 0;
    for (const int v : c) {
        q.push_back(specNormShort(v));
        len2 += q.back() * q.back();
    }
    for (double& v : q) v /= std::sqrt(len2);
    return q;
}

TEST(ImportAccessor, QuantizedMeshLoadsWithExactValues) {
    GltfWriter w;
    w.useExtension("KHR_mesh_quantization", true);
    // POSITION as plain shorts padded to 8 bytes per vertex (the usual quantized layout).
    const std::vector<int> pos = {-32768, 0, 32767, 1, -1, 100, 7, 8, 9};
    const auto posAcc =
        w.addAccessor({.componentType = kShort, .type = "VEC3", .values = {pos.begin(), pos.end()}, .byteStride = 8});
    // NORMAL as normalised bytes, 4 per vertex.
    // Unit length within the specification's tolerance: (0, -90, 90) / 127 has length 1.0022.
    const std::vector<int> nrm = {127, 0, 0, -128, 0, 0, 0, -90, 90};
    const auto nrmAcc = w.addAccessor({.componentType = kByte,
                                       .type = "VEC3",
                                       .values = {nrm.begin(), nrm.end()},
                                       .normalized = true,
                                       .byteStride = 4});
    const std::vector<int> uv = {0, 65535, 32768, 1, 12345, 54321};
    const auto uvAcc = w.addAccessor(
        {.componentType = kUnsignedShort, .type = "VEC2", .values = {uv.begin(), uv.end()}, .normalized = true});
    // A morph target of normalised shorts.
    const std::vector<int> dp = {-32768, 32767, 1, 0, -2, 3, 16384, -16384, 0};
    const auto dpAcc =
        w.addAccessor({.componentType = kShort, .type = "VEC3", .values = {dp.begin(), dp.end()}, .normalized = true});
    meshNode(w,
             {.attributes = {{"POSITION", posAcc}, {"NORMAL", nrmAcc}, {"TEXCOORD_0", uvAcc}},
              .targets = {{{"POSITION", dpAcc}}}});

    const auto r = importGltf(w.gltfSource("quantized.gltf"));
    ASSERT_TRUE(imported(r));
    const MeshPrimitive& p = r->meshes.at(0).primitives.at(0);
    std::vector<float> expectPos(pos.begin(), pos.end());
    EXPECT_EQ(componentsOf(p.positions), expectPos);
    std::vector<float> expectNrm;
    for (int c : nrm) expectNrm.push_back(specNormByte(c));
    EXPECT_EQ(componentsOf(p.normals), expectNrm);
    ASSERT_EQ(p.texcoords.size(), 3u);
    for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(p.texcoords[i / 2][i % 2], specNormUshort(uv[i])) << i;
    std::vector<float> expectDp;
    for (int c : dp) expectDp.push_back(specNormShort(c));
    ASSERT_EQ(p.targets.size(), 1u);
    EXPECT_EQ(componentsOf(p.targets[0].positions), expectDp);
}

TEST(ImportAccessor, MorphTargetNamesComeFromExtras) {
    const auto build = [](Json names) {
        GltfWriter w;
        const auto pos = w.addFloats("VEC3", {0, 0, 0, 1, 0, 0, 0, 1, 0});
        const auto d = w.addFloats("VEC3", {0, 0, 1, 0, 0, 1, 0, 0, 1});
        meshNode(w, {.attributes = {{"POSITION", pos}}, .targets = {{{"POSITION", d}}, {{"POSITION", d}}}});
        w.json()["meshes"][0]["extras"]["targetNames"] = std::move(names);
        return w;
    };
    const auto named = importGltf(build(Json::array({"smile", "blink"})).gltfSource("named.gltf"));
    ASSERT_TRUE(imported(named));
    EXPECT_EQ(named->meshes[0].targetNames, (std::vector<std::string>{"smile", "blink"}));
    EXPECT_TRUE(named.warnings().empty());
    // Names that do not fit are a warning (extras are free-form), and none are kept.
    for (Json bad : {Json::array({"smile"}), Json::array({"smile", 3}), Json("smile")}) {
        const auto r = importGltf(build(std::move(bad)).gltfSource("bad.gltf"));
        ASSERT_TRUE(imported(r));
        EXPECT_TRUE(r->meshes[0].targetNames.empty());
        ASSERT_EQ(r.warnings().size(), 1u);
        EXPECT_EQ(r.warnings()[0].where.rfind("bad.gltf#/meshes/0/extras/targetNames", 0), 0u) << r.warnings()[0].where;
    }
}

TEST(ImportAccessor, QuantizedPositionWithoutTheExtensionIsRejected) {
    GltfWriter w;
    const auto posAcc = w.addAccessor(
        {.componentType = kShort, .type = "VEC3", .values = {0, 0, 0, 1, 2, 3, 4, 5, 6}, .byteStride = 8});
    meshNode(w, {.attributes = {{"POSITION", posAcc}}});
    EXPECT_TRUE(faultAt(importGltf(w.gltfSource("q.gltf")), "q.gltf#/meshes/0/primitives/0/attributes/POSITION"));
}

TEST(ImportAccessor, NormalizedShortRotationOutputDecodesPerSpec) {
    GltfWriter w;
    w.useExtension("KHR_mesh_quantization", true);
    const auto times = w.addFloats("SCALAR", {0.0f, 0.5f, 1.0f, 2.0f});
    // Keys whose decoded value is already unit length stay exact; the last one is
    // normalised after decoding by a lenient import (a track's rotation keys are unit
    // quaternions; a strict import refuses one this far off).
    const std::vector<int> rot = {0, 0, 0, 32767, -32768, 0, 0, 0, 0, 32767, 0, 0, 0, 0, 12000, -20000};
    const auto rotAcc = w.addAccessor(
        {.componentType = kShort, .type = "VEC4", .values = {rot.begin(), rot.end()}, .normalized = true});
    const auto node = w.addNode({.name = "spinner"});
    w.addAnimation({{.input = times, .output = rotAcc}}, {{.sampler = 0, .node = node, .path = "rotation"}});
    ImportOptions lenient;
    lenient.conformance = Conformance::Lenient;
    const auto r = importGltf(w.gltfSource("rot.gltf"), lenient);
    ASSERT_TRUE(imported(r));
    ASSERT_EQ(r.warnings().size(), 1u);
    EXPECT_EQ(r.warnings()[0].where, "rot.gltf#/accessors/" + std::to_string(rotAcc));
    EXPECT_TRUE(faultAt(importGltf(w.gltfSource("rot.gltf")), "rot.gltf#/accessors/" + std::to_string(rotAcc)));
    const Track* t = findTrack(*r, node, TrackPath::Rotation);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->times, (std::vector<float>{0.0f, 0.5f, 1.0f, 2.0f}));
    ASSERT_EQ(t->values.size(), 16u);
    for (std::size_t i = 0; i < 12; ++i) EXPECT_EQ(t->values[i], specNormShort(rot[i])) << i;
    const auto q = normalisedQuat({0, 0, 12000, -20000});
    for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(t->values[12 + i], q[i], 2e-7) << i;
}

TEST(ImportAccessor, NormalizedRotationBytesDecodePerSpec) {
    GltfWriter w;
    const auto times = w.addFloats("SCALAR", {0.0f, 1.0f});
    const std::vector<int> rot = {0, -128, 0, 0, 127, 0, 0, 0};
    const auto rotAcc =
        w.addAccessor({.componentType = kByte, .type = "VEC4", .values = {rot.begin(), rot.end()}, .normalized = true});
    const auto node = w.addNode({});
    w.addAnimation({{.input = times, .output = rotAcc, .interpolation = "STEP"}},
                   {{.sampler = 0, .node = node, .path = "rotation"}});
    const auto r = importGltf(w.gltfSource("rot8.gltf"));
    ASSERT_TRUE(imported(r));
    const Track* t = findTrack(*r, node, TrackPath::Rotation);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->interpolation, Interpolation::Step);
    std::vector<float> expected;
    for (int c : rot) expected.push_back(specNormByte(c));
    EXPECT_EQ(t->values, expected);
}

TEST(ImportAccessor, NormalizedMorphWeightOutputsDecodePerSpec) {
    for (const std::uint32_t type : {kByte, kUnsignedByte, kShort, kUnsignedShort}) {
        SCOPED_TRACE(type);
        GltfWriter w;
        const auto pos = w.addFloats("VEC3", {0, 0, 0, 1, 0, 0, 0, 1, 0});
        const auto d0 = w.addFloats("VEC3", {0, 0, 1, 0, 0, 1, 0, 0, 1});
        const auto d1 = w.addFloats("VEC3", {1, 0, 0, 1, 0, 0, 1, 0, 0});
        const auto node =
            meshNode(w, {.attributes = {{"POSITION", pos}}, .targets = {{{"POSITION", d0}}, {{"POSITION", d1}}}});
        const auto times = w.addFloats("SCALAR", {0.0f, 1.0f, 3.0f});
        std::vector<int> raw;
        switch (type) {
            case kByte: raw = {0, 127, -128, 64, 1, -1}; break;
            case kUnsignedByte: raw = {0, 255, 128, 1, 254, 77}; break;
            case kShort: raw = {0, 32767, -32768, 16384, -1, 1}; break;
            default: raw = {0, 65535, 32768, 1, 40000, 3}; break;
        }
        const auto out = w.addAccessor(
            {.componentType = type, .type = "SCALAR", .values = {raw.begin(), raw.end()}, .normalized = true});
        w.addAnimation({{.input = times, .output = out}}, {{.sampler = 0, .node = node, .path = "weights"}});
        const auto r = importGltf(w.gltfSource("weights.gltf"));
        ASSERT_TRUE(imported(r));
        const Track* t = findTrack(*r, node, TrackPath::Weights);
        ASSERT_NE(t, nullptr);
        EXPECT_EQ(t->width, 2u);
        std::vector<float> expected;
        for (int c : raw) {
            switch (type) {
                case kByte: expected.push_back(specNormByte(c)); break;
                case kUnsignedByte: expected.push_back(specNormUbyte(c)); break;
                case kShort: expected.push_back(specNormShort(c)); break;
                default: expected.push_back(specNormUshort(c)); break;
            }
        }
        EXPECT_EQ(t->values, expected);
    }
}

TEST(ImportAccessor, NormalizedSkinWeightsDecodeAndSumToOne) {
    GltfWriter w;
    const auto pos = w.addFloats("VEC3", {0, 0, 0, 1, 0, 0, 0, 1, 0});
    const auto joints = w.addAccessor(
        {.componentType = kUnsignedShort, .type = "VEC4", .values = {0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 2, 0}});
    const std::vector<int> raw = {255, 0, 0, 0, 128, 127, 0, 0, 85, 85, 85, 0};
    const auto weights = w.addAccessor(
        {.componentType = kUnsignedByte, .type = "VEC4", .values = {raw.begin(), raw.end()}, .normalized = true});
    const auto mesh = w.addMesh({{.attributes = {{"POSITION", pos}, {"JOINTS_0", joints}, {"WEIGHTS_0", weights}}}});
    const auto j0 = w.addNode({.name = "j0", .children = {1, 2}});
    w.addNode({.name = "j1"});
    w.addNode({.name = "j2"});
    const auto skin = w.addSkin({0, 1, 2});
    const auto body = w.addNode({.mesh = mesh, .skin = skin});
    w.addScene({j0, body});
    const auto r = importGltf(w.gltfSource("skin.gltf"));
    ASSERT_TRUE(imported(r));
    const MeshPrimitive& p = r->meshes.at(0).primitives.at(0);
    ASSERT_EQ(p.influencesPerVertex, 4u);
    EXPECT_EQ(p.joints, (std::vector<std::uint16_t>{0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 2, 0}));
    ASSERT_EQ(p.weights.size(), 12u);
    for (std::size_t v = 0; v < 3; ++v) {
        double sum = 0;
        for (std::size_t k = 0; k < 4; ++k) {
            EXPECT_NEAR(p.weights[v * 4 + k], specNormUbyte(raw[v * 4 + k]), 1e-6) << v << "," << k;
            sum += p.weights[v * 4 + k];
        }
        EXPECT_NEAR(sum, 1.0, 1e-6) << "vertex " << v;
    }
    EXPECT_EQ(p.weights[0], 1.0f);  // 255/255 needs no renormalisation
}

TEST(ImportAccessor, InterleavedAttributesHonourByteStride) {
    GltfWriter w;
    // POSITION at offset 0 and NORMAL at offset 12 of 28-byte vertices (4 spare bytes).
    const std::vector<double> pos = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const std::vector<double> nrm = {0, 0, 1, 0, 1, 0, 1, 0, 0};
    std::vector<std::byte> bytes;
    for (std::size_t v = 0; v < 3; ++v) {
        const auto p = encodeComponents(kFloat, std::span<const double>(pos).subspan(v * 3, 3));
        const auto n = encodeComponents(kFloat, std::span<const double>(nrm).subspan(v * 3, 3));
        bytes.insert(bytes.end(), p.begin(), p.end());
        bytes.insert(bytes.end(), n.begin(), n.end());
        bytes.insert(bytes.end(), 4, std::byte{0xEE});
    }
    const auto view = w.addBufferView(bytes, 28);
    const auto posAcc = w.addAccessorJson(view, 0, kFloat, "VEC3", 3);
    const auto nrmAcc = w.addAccessorJson(view, 12, kFloat, "VEC3", 3);
    w.json()["accessors"][posAcc]["min"] = Json::numbers(std::vector<double>{1, 2, 3});  // required for POSITION
    w.json()["accessors"][posAcc]["max"] = Json::numbers(std::vector<double>{7, 8, 9});
    meshNode(w, {.attributes = {{"POSITION", posAcc}, {"NORMAL", nrmAcc}}});
    for (const bool glb : {false, true}) {
        const auto r = importGltf(glb ? w.glbSource("i.glb") : w.gltfSource("i.gltf"));
        ASSERT_TRUE(imported(r));
        const MeshPrimitive& p = r->meshes.at(0).primitives.at(0);
        EXPECT_EQ(componentsOf(p.positions), std::vector<float>(pos.begin(), pos.end()));
        EXPECT_EQ(componentsOf(p.normals), std::vector<float>(nrm.begin(), nrm.end()));
    }
}

TEST(ImportAccessor, AccessorByteOffsetAppliesWithinItsView) {
    GltfWriter w;
    const auto posAcc =
        w.addAccessor({.componentType = kFloat, .type = "VEC3", .values = {1, 2, 3, 4, 5, 6}, .byteOffset = 16});
    const auto idx =
        w.addAccessor({.componentType = kUnsignedByte, .type = "SCALAR", .values = {1, 0, 1}, .byteOffset = 3});
    meshNode(w, {.attributes = {{"POSITION", posAcc}}, .indices = idx});
    const auto r = importGltf(w.gltfSource("offset.gltf"));
    ASSERT_TRUE(imported(r));
    const MeshPrimitive& p = r->meshes.at(0).primitives.at(0);
    EXPECT_EQ(componentsOf(p.positions), (std::vector<float>{1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(p.indices, (std::vector<std::uint32_t>{1, 0, 1}));
}

// ---- sparse ------------------------------------------------------------------------

class SparsePositions : public ::testing::TestWithParam<std::uint32_t> {};

TEST_P(SparsePositions, WithoutBufferViewStartFromZeros) {
    GltfWriter w;
    const auto acc =
        w.addSparseAccessor({.componentType = kFloat, .type = "VEC3"}, 5,
                            {.indexComponentType = GetParam(), .indices = {1, 4}, .values = {1, 2, 3, -4, -5, -6}});
    meshNode(w, {.attributes = {{"POSITION", acc}}});
    const auto r = importGltf(w.gltfSource("sparse.gltf"));
    ASSERT_TRUE(imported(r));
    EXPECT_EQ(componentsOf(r->meshes[0].primitives[0].positions),
              (std::vector<float>{0, 0, 0, 1, 2, 3, 0, 0, 0, 0, 0, 0, -4, -5, -6}));
}

TEST_P(SparsePositions, OverBufferViewWithTheirOwnOffsets) {
    GltfWriter w;
    // The accessor's byteOffset (8) applies to its view only; indices and values
    // have their own offsets (4 and 12).
    const auto acc = w.addSparseAccessor(
        {.componentType = kFloat, .type = "VEC3", .values = {1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4}, .byteOffset = 8}, 4,
        {.indexComponentType = GetParam(),
         .indices = {0, 2},
         .values = {9, 8, 7, 6, 5, 4},
         .indicesByteOffset = 4,
         .valuesByteOffset = 12});
    meshNode(w, {.attributes = {{"POSITION", acc}}});
    for (const bool glb : {false, true}) {
        const auto r = importGltf(glb ? w.glbSource("s.glb") : w.gltfSource("s.gltf"));
        ASSERT_TRUE(imported(r));
        EXPECT_EQ(componentsOf(r->meshes[0].primitives[0].positions),
                  (std::vector<float>{9, 8, 7, 2, 2, 2, 6, 5, 4, 4, 4, 4}));
    }
}

INSTANTIATE_TEST_SUITE_P(ImportAccessor, SparsePositions,
                         ::testing::Values(kUnsignedByte, kUnsignedShort, kUnsignedInt),
                         [](const auto& p) { return std::to_string(p.param); });

TEST(ImportAccessor, SparseAnimationOutputsLoad) {
    GltfWriter w;
    const auto node = w.addNode({.name = "mover"});
    const auto times = w.addFloats("SCALAR", {0, 1, 2, 3});
    // Translation: base data with two keys replaced.
    const auto moves = w.addSparseAccessor(
        {.componentType = kFloat, .type = "VEC3", .values = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3}}, 4,
        {.indexComponentType = kUnsignedInt, .indices = {1, 3}, .values = {10, 20, 30, -1, -2, -3}});
    // Scale: no bufferView, zeros except key 2.
    const auto scales = w.addSparseAccessor({.componentType = kFloat, .type = "VEC3"}, 4,
                                            {.indexComponentType = kUnsignedByte, .indices = {2}, .values = {2, 3, 4}});
    // Rotation: normalised shorts with a sparse key.
    const auto turns =
        w.addSparseAccessor({.componentType = kShort,
                             .type = "VEC4",
                             .values = {0, 0, 0, 32767, 0, 0, 0, 32767, 0, 0, 0, 32767, 0, 0, 0, 32767},
                             .normalized = true},
                            4, {.indexComponentType = kUnsignedShort, .indices = {3}, .values = {0, -32768, 0, 0}});
    w.addAnimation({{.input = times, .output = moves},
                    {.input = times, .output = scales, .interpolation = "STEP"},
                    {.input = times, .output = turns}},
                   {{.sampler = 0, .node = node, .path = "translation"},
                    {.sampler = 1, .node = node, .path = "scale"},
                    {.sampler = 2, .node = node, .path = "rotation"}});
    const auto r = importGltf(w.gltfSource("sparse-anim.gltf"));
    ASSERT_TRUE(imported(r));
    const Track* t = findTrack(*r, node, TrackPath::Translation);
    const Track* s = findTrack(*r, node, TrackPath::Scale);
    const Track* q = findTrack(*r, node, TrackPath::Rotation);
    ASSERT_TRUE(t && s && q);
    EXPECT_EQ(t->values, (std::vector<float>{0, 0, 0, 10, 20, 30, 2, 2, 2, -1, -2, -3}));
    EXPECT_EQ(s->values, (std::vector<float>{0, 0, 0, 0, 0, 0, 2, 3, 4, 0, 0, 0}));
    EXPECT_EQ(q->values, (std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, -1, 0, 0}));
}

TEST(ImportAccessor, SparseKeyTimesLoad) {
    GltfWriter w;
    const auto node = w.addNode({});
    const auto times =
        w.addSparseAccessor({.componentType = kFloat, .type = "SCALAR", .values = {0, 1, 2, 3}}, 4,
                            {.indexComponentType = kUnsignedByte, .indices = {1, 2}, .values = {0.25, 0.5}});
    const auto moves = w.addFloats("VEC3", {0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0});
    w.addAnimation({{.input = times, .output = moves}}, {{.sampler = 0, .node = node, .path = "translation"}});
    const auto r = importGltf(w.gltfSource("sparse-times.gltf"));
    ASSERT_TRUE(imported(r));
    const Track* t = findTrack(*r, node, TrackPath::Translation);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->times, (std::vector<float>{0, 0.25f, 0.5f, 3}));
}

TEST(ImportAccessor, SparseMorphTargetsLoad) {
    GltfWriter w;
    const auto pos = w.addFloats("VEC3", {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0});
    // Exporters write morph targets as sparse accessors without a bufferView.
    const auto d0 =
        w.addSparseAccessor({.componentType = kFloat, .type = "VEC3"}, 4,
                            {.indexComponentType = kUnsignedShort, .indices = {2, 3}, .values = {0, 0, 1, 0, 0, 0.5}});
    const auto d1 =
        w.addSparseAccessor({.componentType = kFloat, .type = "VEC3", .values = {1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0}},
                            4, {.indexComponentType = kUnsignedInt, .indices = {0}, .values = {0, 0, 0}});
    const auto n0 = w.addSparseAccessor(
        {.componentType = kFloat, .type = "VEC3"}, 4,
        {.indexComponentType = kUnsignedByte, .indices = {0, 1, 2, 3}, .values = {0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0}});
    const auto node = meshNode(
        w, {.attributes = {{"POSITION", pos}}, .targets = {{{"POSITION", d0}, {"NORMAL", n0}}, {{"POSITION", d1}}}},
        {0.25, 0.75});
    // Morph weights animated from a sparse output with no bufferView.
    const auto times = w.addFloats("SCALAR", {0, 1});
    const auto weights =
        w.addSparseAccessor({.componentType = kFloat, .type = "SCALAR"}, 4,
                            {.indexComponentType = kUnsignedByte, .indices = {1, 2}, .values = {1, 0.5}});
    w.addAnimation({{.input = times, .output = weights}}, {{.sampler = 0, .node = node, .path = "weights"}});
    const auto r = importGltf(w.gltfSource("sparse-morph.gltf"));
    ASSERT_TRUE(imported(r));
    const MeshPrimitive& p = r->meshes[0].primitives[0];
    ASSERT_EQ(p.targets.size(), 2u);
    EXPECT_EQ(componentsOf(p.targets[0].positions), (std::vector<float>{0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0.5f}));
    EXPECT_EQ(componentsOf(p.targets[0].normals), (std::vector<float>{0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0}));
    EXPECT_EQ(componentsOf(p.targets[1].positions), (std::vector<float>{0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0}));
    EXPECT_TRUE(p.targets[1].normals.empty());
    EXPECT_EQ(r->meshes[0].weights, (std::vector<float>{0.25f, 0.75f}));
    const Track* t = findTrack(*r, node, TrackPath::Weights);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->values, (std::vector<float>{0, 1, 0.5f, 0}));
}

TEST(ImportAccessor, SparseIndicesNotIncreasingAreRejected) {
    GltfWriter w;
    const auto acc =
        w.addSparseAccessor({.componentType = kFloat, .type = "VEC3"}, 3,
                            {.indexComponentType = kUnsignedShort, .indices = {2, 1}, .values = {1, 1, 1, 2, 2, 2}});
    meshNode(w, {.attributes = {{"POSITION", acc}}});
    EXPECT_TRUE(faultAt(importGltf(w.gltfSource("s.gltf")), "s.gltf#/accessors/" + std::to_string(acc)));
}

TEST(ImportAccessor, SparseIndexPastCountIsRejected) {
    GltfWriter w;
    const auto acc = w.addSparseAccessor({.componentType = kFloat, .type = "VEC3"}, 3,
                                         {.indexComponentType = kUnsignedByte, .indices = {3}, .values = {1, 1, 1}});
    meshNode(w, {.attributes = {{"POSITION", acc}}});
    EXPECT_TRUE(faultAt(importGltf(w.gltfSource("s.gltf")), "s.gltf#/accessors/" + std::to_string(acc)));
}

}  // namespace
}  // namespace kinema::test
