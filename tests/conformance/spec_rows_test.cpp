// Conformance: rows of the glTF 2.0 animation rules (see GLTF-NOTES.md) that the
// shared sample models leave unexercised, each on a small GLB built in memory.
// Expected values come from the spec's formulas, either written out here or
// computed by the independent reader / sampler in ref_gltf.hpp / ref_math.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numbers>
#include <string>
#include <vector>

#include "conformance/ref_gltf.hpp"
#include "conformance/ref_math.hpp"
#include "conformance/synthetic_glb.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/runtime/clip_time.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/sample.hpp"

namespace {

using conformance::accessor;
using conformance::BinWriter;
using conformance::importSynthetic;

// Our reader's view of the same bytes (for expected values by the spec's formulas).
conformance::RefGltf refOf(const std::string& json, const std::vector<std::uint8_t>& bin) {
    const auto glb = conformance::makeGlb(json, bin);
    conformance::Bytes bytes(glb->size());
    std::memcpy(bytes.data(), glb->data(), glb->size());
    return conformance::parseGltfBytes(bytes, {});
}

std::vector<double> rotationOf(const kinema::Transform& t) {
    return {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w};
}

// Max abs difference of two quaternions, up to sign.
double quatGap(const std::vector<double>& a, const std::vector<double>& b) {
    double plus = 0, minus = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        plus = std::max(plus, std::abs(a[i] - b[i]));
        minus = std::max(minus, std::abs(a[i] + b[i]));
    }
    return std::min(plus, minus);
}

// The spec's rotation keys must be unit quaternions; decoded normalised integers
// are not, so the reference normalises each key before slerp (as a loader must).
std::vector<double> normalizedKeys(std::vector<double> v) {
    for (std::size_t k = 0; k + 3 < v.size(); k += 4) {
        const auto q = conformance::normalized({v[k], v[k + 1], v[k + 2], v[k + 3]});
        for (std::size_t i = 0; i < 4; ++i) v[k + i] = q[i];
    }
    return v;
}

// Triangle with two position morph targets, shared by several cases.
struct MorphTriangle {
    int pos, t0, t1;
    explicit MorphTriangle(BinWriter& w)
        : pos(w.add(std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0})),
          t0(w.add(std::vector<float>{0, 0, 1, 0, 0, 1, 0, 0, 1})),
          t1(w.add(std::vector<float>{1, 0, 0, 0, 1, 0, 0, 0, 0})) {}
    // Accessors 0, 1, 2.
    std::string accessors() const {
        return accessor(pos, 5126, 3, "VEC3", false, R"("min":[0,0,0],"max":[1,1,0])") + "," +
            accessor(t0, 5126, 3, "VEC3") + "," + accessor(t1, 5126, 3, "VEC3");
    }
    static std::string mesh(const std::string& weights = "[0,0]") {
        return R"({"primitives":[{"attributes":{"POSITION":0},"targets":[{"POSITION":1},{"POSITION":2}]}],"weights":)" +
            weights + "}";
    }
};

// Rotation and weights keyframes stored as normalised integers: signed byte
// max(c / 127, -1), unsigned byte c / 255, signed short max(c / 32767, -1),
// unsigned short c / 65535.
TEST(SpecRows, NormalisedIntegerKeyframesDecodeAsSpecified) {
    BinWriter w;
    const MorphTriangle tri(w);
    const int time = w.add(std::vector<float>{0, 1});
    const int rotI8 = w.add(std::vector<std::int8_t>{-128, 0, 0, 127, 0, 0, 127, 64});
    const int wI8 = w.add(std::vector<std::int8_t>{-64, 127, 100, -128});
    const int rotI16 = w.add(std::vector<std::int16_t>{-32768, 0, 0, 32767, 0, 16384, 0, 32767});
    const int wU8 = w.add(std::vector<std::uint8_t>{255, 0, 51, 102});
    const int wU16 = w.add(std::vector<std::uint16_t>{65535, 0, 13107, 32768});
    const int wI16 = w.add(std::vector<std::int16_t>{-32768, 16384, 32767, -1});
    const std::string json = R"({"asset":{"version":"2.0"},)" + w.json() + R"(,"accessors":[)" + tri.accessors() + "," +
        accessor(time, 5126, 2, "SCALAR", false, R"("min":[0],"max":[1])") + "," +
        accessor(rotI8, 5120, 2, "VEC4", true) + "," + accessor(wI8, 5120, 4, "SCALAR", true) + "," +
        accessor(rotI16, 5122, 2, "VEC4", true) + "," + accessor(wU8, 5121, 4, "SCALAR", true) + "," +
        accessor(wU16, 5123, 4, "SCALAR", true) + "," + accessor(wI16, 5122, 4, "SCALAR", true) + R"(],
        "meshes":[)" +
        MorphTriangle::mesh() + R"(],
        "nodes":[{"mesh":0},{"name":"spinner"}],
        "scenes":[{"nodes":[0,1]}],"scene":0,
        "animations":[
          {"name":"i8","samplers":[{"input":3,"output":4},{"input":3,"output":5}],
           "channels":[{"sampler":0,"target":{"node":1,"path":"rotation"}},{"sampler":1,"target":{"node":0,"path":"weights"}}]},
          {"name":"i16+u8","samplers":[{"input":3,"output":6},{"input":3,"output":7}],
           "channels":[{"sampler":0,"target":{"node":1,"path":"rotation"}},{"sampler":1,"target":{"node":0,"path":"weights"}}]},
          {"name":"u16","samplers":[{"input":3,"output":8}],"channels":[{"sampler":0,"target":{"node":0,"path":"weights"}}]},
          {"name":"i16 weights","samplers":[{"input":3,"output":9}],"channels":[{"sampler":0,"target":{"node":0,"path":"weights"}}]}
        ]})";
    // The extreme codes make rotation keys of length sqrt(2), which only a lenient import
    // accepts (renormalising them after decoding, as the clip always does).
    auto imported = importSynthetic(json, w.bytes, kinema::Conformance::Lenient);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const kinema::Model& model = imported.value();
    ASSERT_EQ(model.clips.size(), 4u);
    const auto ref = refOf(json, w.bytes);

    // Spot values written out from the formulas (weights of key 0 of each clip).
    const double spot[4][2] = {{-64.0 / 127.0, 1.0}, {1.0, 0.0}, {1.0, 0.0}, {-1.0, 16384.0 / 32767.0}};
    const int weightAccessor[4] = {5, 7, 8, 9};
    const int rotationAccessor[4] = {4, 6, -1, -1};

    const std::uint32_t meshJoint = model.jointOfNode[0];
    const std::uint32_t spinJoint = model.jointOfNode[1];
    const auto wOff = static_cast<std::size_t>(model.weightOffsetOfJoint.at(meshJoint));
    kinema::Pose pose = kinema::makeRestPose(model);
    for (std::size_t c = 0; c < 4; ++c) {
        SCOPED_TRACE(std::string(model.clips[c].name()));
        const auto weights = conformance::readAccessor(ref, weightAccessor[c]);
        EXPECT_NEAR(weights[0], spot[c][0], 1e-12);
        EXPECT_NEAR(weights[1], spot[c][1], 1e-12);
        for (const double t : {0.0, 0.25, 0.5, 1.0}) {
            SCOPED_TRACE("t = " + std::to_string(t));
            kinema::resetToRest(model, pose);
            ASSERT_TRUE(kinema::reference::sample(model.clips[c], static_cast<float>(t), pose.local, pose.weights));
            const auto ew = conformance::sampleRef({0.0, 1.0}, weights, 2, "LINEAR", false, t);
            EXPECT_NEAR(pose.weights[wOff], ew[0], 1e-6);
            EXPECT_NEAR(pose.weights[wOff + 1], ew[1], 1e-6);
            if (rotationAccessor[c] < 0) continue;
            const auto keys = normalizedKeys(conformance::readAccessor(ref, rotationAccessor[c]));
            const auto er = conformance::sampleRef({0.0, 1.0}, keys, 4, "LINEAR", true, t);
            EXPECT_LE(quatGap(rotationOf(pose.local[spinJoint]), er), 1e-6)
                << ::testing::PrintToString(rotationOf(pose.local[spinJoint])) << " vs "
                << ::testing::PrintToString(er);
        }
    }
}

// CUBICSPLINE: per key in-tangents, values, out-tangents; for weights all targets'
// in-tangents, then all values, then all out-tangents. Tangents scale by t_d (= 2 here).
TEST(SpecRows, CubicSplineWeightsAndTranslationUseTheKeyLayoutAndIntervalScaling) {
    BinWriter w;
    const MorphTriangle tri(w);
    const int time = w.add(std::vector<float>{0, 2});
    const int wv = w.add(std::vector<float>{0, 0, 0.1f, 0.9f, 0.5f, -1.0f,   // key 0: in0 in1, v0 v1, out0 out1
                                            2.0f, 0.3f, 0.7f, 0.2f, 0, 0});  // key 1
    const int tv = w.add(std::vector<float>{0, 0, 0, 0, 0, 0, 1, 2, -1,      // key 0: in, value, out
                                            3, 0, 1, 1, 1, 1, 0, 0, 0});     // key 1
    const std::string json = R"({"asset":{"version":"2.0"},)" + w.json() + R"(,"accessors":[)" + tri.accessors() + "," +
        accessor(time, 5126, 2, "SCALAR", false, R"("min":[0],"max":[2])") + "," + accessor(wv, 5126, 12, "SCALAR") +
        "," + accessor(tv, 5126, 6, "VEC3") + R"(],
        "meshes":[)" +
        MorphTriangle::mesh() + R"(],
        "nodes":[{"mesh":0},{"name":"mover"}],
        "scenes":[{"nodes":[0,1]}],"scene":0,
        "animations":[{"samplers":[{"input":3,"output":4,"interpolation":"CUBICSPLINE"},
                                   {"input":3,"output":5,"interpolation":"CUBICSPLINE"}],
           "channels":[{"sampler":0,"target":{"node":0,"path":"weights"}},{"sampler":1,"target":{"node":1,"path":"translation"}}]}]
      })";
    auto imported = importSynthetic(json, w.bytes);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const kinema::Model& model = imported.value();
    ASSERT_EQ(model.clips.size(), 1u);
    const auto ref = refOf(json, w.bytes);
    const auto weights = conformance::readAccessor(ref, 4);
    const auto trans = conformance::readAccessor(ref, 5);
    const auto wOff = static_cast<std::size_t>(model.weightOffsetOfJoint.at(model.jointOfNode[0]));
    const std::uint32_t mover = model.jointOfNode[1];
    kinema::Pose pose = kinema::makeRestPose(model);
    for (const double t : {0.0, 0.3, 0.5, 1.0, 1.5, 1.9, 2.0, 3.0}) {
        SCOPED_TRACE("t = " + std::to_string(t));
        kinema::resetToRest(model, pose);
        ASSERT_TRUE(kinema::reference::sample(model.clips[0], static_cast<float>(t), pose.local, pose.weights));
        const auto ew = conformance::sampleRef({0.0, 2.0}, weights, 2, "CUBICSPLINE", false, t);
        EXPECT_NEAR(pose.weights[wOff], ew[0], 1e-5);
        EXPECT_NEAR(pose.weights[wOff + 1], ew[1], 1e-5);
        const auto et = conformance::sampleRef({0.0, 2.0}, trans, 3, "CUBICSPLINE", false, t);
        const auto& tr = pose.local[mover].translation;
        EXPECT_NEAR(tr.x, et[0], 1e-5);
        EXPECT_NEAR(tr.y, et[1], 1e-5);
        EXPECT_NEAR(tr.z, et[2], 1e-5);
    }
    // One value written out: weight 0 at t = 1 (s = 0.5): 0.5 (p0 + p1) + t_d / 8 (m0 - m1)
    // = 0.5 * 0.8 + 2 / 8 * (0.5 - 2.0) = 0.025.
    kinema::resetToRest(model, pose);
    ASSERT_TRUE(kinema::reference::sample(model.clips[0], 1.0f, pose.local, pose.weights));
    EXPECT_NEAR(pose.weights[wOff], 0.025, 1e-6);
}

// LINEAR rotation between keys in opposite hemispheres (dot < 0) takes the short
// arc: from identity to -(120 degrees about z), halfway is 60 degrees about z.
TEST(SpecRows, LinearRotationTakesTheShortArc) {
    BinWriter w;
    const int time = w.add(std::vector<float>{0, 1});
    const float s60 = static_cast<float>(std::sqrt(3.0) / 2.0);
    const int rot = w.add(std::vector<float>{0, 0, 0, 1, 0, 0, -s60, -0.5f});
    const int tiny = w.add(std::vector<float>{0, 0, 0, 1, 0, 0, 1e-7f, 1});  // nearly equal keys
    const std::string json = R"({"asset":{"version":"2.0"},)" + w.json() + R"(,"accessors":[)" +
        accessor(time, 5126, 2, "SCALAR", false, R"("min":[0],"max":[1])") + "," + accessor(rot, 5126, 2, "VEC4") +
        "," + accessor(tiny, 5126, 2, "VEC4") + R"(],
        "nodes":[{"name":"a"},{"name":"b"}],
        "scenes":[{"nodes":[0,1]}],"scene":0,
        "animations":[{"samplers":[{"input":0,"output":1},{"input":0,"output":2}],
           "channels":[{"sampler":0,"target":{"node":0,"path":"rotation"}},{"sampler":1,"target":{"node":1,"path":"rotation"}}]}]
      })";
    auto imported = importSynthetic(json, w.bytes);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const kinema::Model& model = imported.value();
    const auto ref = refOf(json, w.bytes);
    const auto keys = normalizedKeys(conformance::readAccessor(ref, 1));
    const auto tinyKeys = normalizedKeys(conformance::readAccessor(ref, 2));
    kinema::Pose pose = kinema::makeRestPose(model);
    for (const double t : {0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0}) {
        SCOPED_TRACE("t = " + std::to_string(t));
        kinema::resetToRest(model, pose);
        ASSERT_TRUE(kinema::reference::sample(model.clips.at(0), static_cast<float>(t), pose.local, pose.weights));
        const auto a = rotationOf(pose.local[model.jointOfNode[0]]);
        EXPECT_LE(quatGap(a, conformance::sampleRef({0.0, 1.0}, keys, 4, "LINEAR", true, t)), 1e-6);
        // Rotation angle from identity: 120 degrees * t along the short arc.
        const double angle = 2.0 * std::acos(std::min(1.0, std::abs(a[3])));
        EXPECT_NEAR(angle, t * 2.0 * std::numbers::pi / 3.0, 1e-5);
        const auto b = rotationOf(pose.local[model.jointOfNode[1]]);
        for (double c : b) EXPECT_TRUE(std::isfinite(c));
        EXPECT_LE(quatGap(b, conformance::sampleRef({0.0, 1.0}, tinyKeys, 4, "LINEAR", true, t)), 1e-6);
    }
}

// A channel without `node` (a KHR_animation_pointer channel seen by a loader that
// may not know the extension) is ignored; it neither fails the import nor
// disables the animation's other channels.
TEST(SpecRows, ChannelWithoutNodeIsIgnored) {
    BinWriter w;
    const int time = w.add(std::vector<float>{0, 1});
    const int tv = w.add(std::vector<float>{0, 0, 0, 2, 4, 6});
    const int cv = w.add(std::vector<float>{1, 0, 0, 1, 0, 1, 0, 1});
    const std::string json = R"({"asset":{"version":"2.0"},"extensionsUsed":["KHR_animation_pointer"],)" + w.json() +
        R"(,"accessors":[)" + accessor(time, 5126, 2, "SCALAR", false, R"("min":[0],"max":[1])") + "," +
        accessor(tv, 5126, 2, "VEC3") + "," + accessor(cv, 5126, 2, "VEC4") + R"(],
        "materials":[{"pbrMetallicRoughness":{"baseColorFactor":[1,1,1,1]}}],
        "nodes":[{"name":"a"}],
        "scenes":[{"nodes":[0]}],"scene":0,
        "animations":[{"samplers":[{"input":0,"output":1},{"input":0,"output":2}],
           "channels":[{"sampler":0,"target":{"node":0,"path":"translation"}},
                       {"sampler":1,"target":{"path":"pointer","extensions":{"KHR_animation_pointer":
                           {"pointer":"/materials/0/pbrMetallicRoughness/baseColorFactor"}}}}]}]
      })";
    auto imported = importSynthetic(json, w.bytes);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const kinema::Model& model = imported.value();
    ASSERT_EQ(model.clips.size(), 1u);
    EXPECT_EQ(model.clips[0].tracks().size(), 1u);
    kinema::Pose pose = kinema::makeRestPose(model);
    ASSERT_TRUE(kinema::reference::sample(model.clips[0], 0.5f, pose.local, pose.weights));
    EXPECT_EQ(pose.local[0].translation, (kinema::Vec3{1, 2, 3}));
}

// node.weights override mesh.weights; each node drawing a morphed mesh gets its
// own weights, and a weights channel writes only its node's.
TEST(SpecRows, NodeWeightsOverrideMeshWeightsPerInstance) {
    BinWriter w;
    const MorphTriangle tri(w);
    const int time = w.add(std::vector<float>{0, 1});
    const int wv = w.add(std::vector<float>{0.0f, 1.0f, 1.0f, 0.0f});
    const std::string json = R"({"asset":{"version":"2.0"},)" + w.json() + R"(,"accessors":[)" + tri.accessors() + "," +
        accessor(time, 5126, 2, "SCALAR", false, R"("min":[0],"max":[1])") + "," + accessor(wv, 5126, 4, "SCALAR") +
        R"(],
        "meshes":[)" +
        MorphTriangle::mesh("[0.25,0.5]") + R"(],
        "nodes":[{"mesh":0,"weights":[0.75,0.125]},{"mesh":0},{"children":[0,1]}],
        "scenes":[{"nodes":[2]}],"scene":0,
        "animations":[{"samplers":[{"input":3,"output":4}],
           "channels":[{"sampler":0,"target":{"node":1,"path":"weights"}}]}]
      })";
    auto imported = importSynthetic(json, w.bytes);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const kinema::Model& model = imported.value();
    const auto a = model.weightOffsetOfJoint.at(model.jointOfNode[0]);
    const auto b = model.weightOffsetOfJoint.at(model.jointOfNode[1]);
    ASSERT_GE(a, 0);
    ASSERT_GE(b, 0);
    ASSERT_NE(a, b);
    EXPECT_EQ(model.weightOffsetOfJoint.at(model.jointOfNode[2]), -1);
    const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
    EXPECT_EQ(model.restWeights.at(ua), 0.75f);
    EXPECT_EQ(model.restWeights.at(ua + 1), 0.125f);
    EXPECT_EQ(model.restWeights.at(ub), 0.25f);
    EXPECT_EQ(model.restWeights.at(ub + 1), 0.5f);
    ASSERT_EQ(model.meshInstances.size(), 2u);
    for (const auto& inst : model.meshInstances)
        EXPECT_EQ(static_cast<std::int32_t>(inst.weightOffset), model.weightOffsetOfJoint.at(inst.joint));

    kinema::Pose pose = kinema::makeRestPose(model);
    ASSERT_TRUE(kinema::reference::sample(model.clips.at(0), 0.25f, pose.local, pose.weights));
    EXPECT_FLOAT_EQ(pose.weights[ua], 0.75f);  // untouched
    EXPECT_FLOAT_EQ(pose.weights[ua + 1], 0.125f);
    EXPECT_FLOAT_EQ(pose.weights[ub], 0.25f);  // lerp((0, 1), (1, 0), 0.25)
    EXPECT_FLOAT_EQ(pose.weights[ub + 1], 0.75f);
}

// Skin data: JOINTS_0 as unsigned bytes, WEIGHTS_0 as normalised unsigned bytes
// and shorts; no inverseBindMatrices means identity; with no `skeleton`, the root
// is the joints' common ancestor even when that node is not itself a joint.
TEST(SpecRows, SkinInfluencesDecodeAndRootIsTheCommonAncestor) {
    BinWriter w;
    const int pos = w.add(std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0});
    const int jnt = w.add(std::vector<std::uint8_t>{0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0});
    const int wu8 = w.add(std::vector<std::uint8_t>{128, 127, 0, 0, 255, 0, 0, 0, 51, 204, 0, 0});
    const int wu16 = w.add(std::vector<std::uint16_t>{32768, 32767, 0, 0, 65535, 0, 0, 0, 13107, 52428, 0, 0});
    const std::string json = R"({"asset":{"version":"2.0"},)" + w.json() + R"(,"accessors":[)" +
        accessor(pos, 5126, 3, "VEC3", false, R"("min":[0,0,0],"max":[1,1,0])") + "," + accessor(jnt, 5121, 3, "VEC4") +
        "," + accessor(wu8, 5121, 3, "VEC4", true) + "," + accessor(wu16, 5123, 3, "VEC4", true) + R"(],
        "meshes":[{"primitives":[{"attributes":{"POSITION":0,"JOINTS_0":1,"WEIGHTS_0":2}},
                                 {"attributes":{"POSITION":0,"JOINTS_0":1,"WEIGHTS_0":3}}]}],
        "skins":[{"joints":[1,2]}],
        "nodes":[{"name":"holder","translation":[0,5,0],"children":[1,2]},
                 {"name":"j1","translation":[1,0,0]},{"name":"j2","translation":[-1,0,0]},
                 {"name":"skinned","mesh":0,"skin":0}],
        "scenes":[{"nodes":[0,3]}],"scene":0
      })";
    auto imported = importSynthetic(json, w.bytes);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const kinema::Model& model = imported.value();
    ASSERT_EQ(model.skins.size(), 1u);
    const kinema::Skin& skin = model.skins[0];
    EXPECT_EQ(skin.root, static_cast<std::int32_t>(model.jointOfNode[0]));
    ASSERT_EQ(skin.inverseBindMatrices.size(), 2u);
    for (const auto& m : skin.inverseBindMatrices) EXPECT_EQ(m, kinema::Mat4::identity());

    const auto& prims = model.meshes.at(0).primitives;
    ASSERT_EQ(prims.size(), 2u);
    const std::vector<std::uint16_t> joints{0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    const std::vector<double> expected[2] = {{128.0 / 255, 127.0 / 255, 0, 0, 1, 0, 0, 0, 0.2, 0.8, 0, 0},
                                             {32768.0 / 65535, 32767.0 / 65535, 0, 0, 1, 0, 0, 0, 0.2, 0.8, 0, 0}};
    for (std::size_t p = 0; p < 2; ++p) {
        SCOPED_TRACE("primitive " + std::to_string(p));
        ASSERT_EQ(prims[p].influencesPerVertex, 4u);
        EXPECT_EQ(prims[p].joints, joints);
        ASSERT_EQ(prims[p].weights.size(), 12u);
        for (std::size_t i = 0; i < 12; ++i) EXPECT_NEAR(prims[p].weights[i], expected[p][i], 1e-6) << i;
    }
}

// Any accessor may be sparse, keyframe outputs included.
TEST(SpecRows, SparseKeyframeOutputIsSubstituted) {
    BinWriter w;
    const int time = w.add(std::vector<float>{0, 1, 2});
    const int base = w.add(std::vector<float>{0, 0, 0, 1, 1, 1, 2, 2, 2});
    const int idx = w.add(std::vector<std::uint16_t>{1});
    const int val = w.add(std::vector<float>{5, 6, 7});
    const std::string sparse = R"("sparse":{"count":1,"indices":{"bufferView":)" + std::to_string(idx) +
        R"(,"componentType":5123},"values":{"bufferView":)" + std::to_string(val) + "}}";
    const std::string json = R"({"asset":{"version":"2.0"},)" + w.json() + R"(,"accessors":[)" +
        accessor(time, 5126, 3, "SCALAR", false, R"("min":[0],"max":[2])") + "," +
        accessor(base, 5126, 3, "VEC3", false, sparse) + R"(],
        "nodes":[{"name":"a"}],
        "scenes":[{"nodes":[0]}],"scene":0,
        "animations":[{"samplers":[{"input":0,"output":1}],
           "channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}]}]
      })";
    auto imported = importSynthetic(json, w.bytes);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const kinema::Model& model = imported.value();
    kinema::Pose pose = kinema::makeRestPose(model);
    ASSERT_TRUE(kinema::reference::sample(model.clips.at(0), 1.0f, pose.local, pose.weights));
    EXPECT_EQ(pose.local[0].translation, (kinema::Vec3{5, 6, 7}));
    ASSERT_TRUE(kinema::reference::sample(model.clips.at(0), 1.5f, pose.local, pose.weights));
    EXPECT_EQ(pose.local[0].translation, (kinema::Vec3{3.5f, 4, 4.5f}));
}

// Sparse substitution on a keyframe output stored as normalised signed bytes,
// with 32-bit sparse indices: the substituted values are decoded like the base.
TEST(SpecRows, SparseNormalisedWeightsWithUnsignedIntIndices) {
    BinWriter w;
    const MorphTriangle tri(w);
    const int time = w.add(std::vector<float>{0, 1});
    const int base = w.add(std::vector<std::int8_t>{127, 0, 0, 127});
    const int idx = w.add(std::vector<std::uint32_t>{1, 2});
    const int val = w.add(std::vector<std::int8_t>{-128, 64});
    const std::string sparse = R"("sparse":{"count":2,"indices":{"bufferView":)" + std::to_string(idx) +
        R"(,"componentType":5125},"values":{"bufferView":)" + std::to_string(val) + "}}";
    const std::string json = R"({"asset":{"version":"2.0"},)" + w.json() + R"(,"accessors":[)" + tri.accessors() + "," +
        accessor(time, 5126, 2, "SCALAR", false, R"("min":[0],"max":[1])") + "," +
        accessor(base, 5120, 4, "SCALAR", true, sparse) + R"(],
        "meshes":[)" +
        MorphTriangle::mesh() + R"(],
        "nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0,
        "animations":[{"samplers":[{"input":3,"output":4,"interpolation":"STEP"}],
           "channels":[{"sampler":0,"target":{"node":0,"path":"weights"}}]}]})";
    auto imported = importSynthetic(json, w.bytes);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const kinema::Model& model = imported.value();
    const auto off = static_cast<std::size_t>(model.weightOffsetOfJoint.at(model.jointOfNode[0]));
    kinema::Pose pose = kinema::makeRestPose(model);
    // Key 0 = (1, -1) [index 1 substituted by -128 -> -1], key 1 = (64/127, 1).
    ASSERT_TRUE(kinema::reference::sample(model.clips.at(0), 0.5f, pose.local, pose.weights));
    EXPECT_NEAR(pose.weights[off], 1.0, 1e-7);
    EXPECT_NEAR(pose.weights[off + 1], -1.0, 1e-7);
    ASSERT_TRUE(kinema::reference::sample(model.clips.at(0), 1.0f, pose.local, pose.weights));
    EXPECT_NEAR(pose.weights[off], 64.0 / 127.0, 1e-7);
    EXPECT_NEAR(pose.weights[off + 1], 1.0, 1e-7);
}

// A mesh without default weights and a node without weights: morph weights are 0.
TEST(SpecRows, NoWeightsAnywhereMeansZeros) {
    BinWriter w;
    const MorphTriangle tri(w);
    const std::string json = R"({"asset":{"version":"2.0"},)" + w.json() + R"(,"accessors":[)" + tri.accessors() +
        R"(],
        "meshes":[{"primitives":[{"attributes":{"POSITION":0},"targets":[{"POSITION":1},{"POSITION":2}]}]}],
        "nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0})";
    auto imported = importSynthetic(json, w.bytes);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const kinema::Model& model = imported.value();
    const auto off = model.weightOffsetOfJoint.at(model.jointOfNode[0]);
    ASSERT_GE(off, 0);
    ASSERT_GE(model.restWeights.size(), static_cast<std::size_t>(off) + 2);
    EXPECT_EQ(model.restWeights[static_cast<std::size_t>(off)], 0.0f);
    EXPECT_EQ(model.restWeights[static_cast<std::size_t>(off) + 1], 0.0f);
}

// Only nodes whose mesh has morph targets may be animated on "weights"; kinema
// is fail-closed, so such a file must be rejected (not imported half-way).
TEST(SpecRows, WeightsChannelOnNodeWithoutTargetsIsRejected) {
    BinWriter w;
    const int time = w.add(std::vector<float>{0, 1});
    const int wv = w.add(std::vector<float>{0, 1});
    const std::string json = R"({"asset":{"version":"2.0"},)" + w.json() + R"(,"accessors":[)" +
        accessor(time, 5126, 2, "SCALAR", false, R"("min":[0],"max":[1])") + "," + accessor(wv, 5126, 2, "SCALAR") +
        R"(],
        "nodes":[{"name":"plain"}],"scenes":[{"nodes":[0]}],"scene":0,
        "animations":[{"samplers":[{"input":0,"output":1}],
           "channels":[{"sampler":0,"target":{"node":0,"path":"weights"}}]}]})";
    auto imported = importSynthetic(json, w.bytes);
    EXPECT_FALSE(imported.ok());
    if (!imported.ok()) {
        EXPECT_FALSE(imported.message().empty());
    }
}

// The input accessor's min/max must not be trusted for the clip's extent: here
// max claims 0.5 s while the keys run to 2 s. Rejecting the file is acceptable;
// importing it with a clip that ends at 0.5 s is not.
TEST(SpecRows, DurationComesFromTheKeysNotFromAccessorMax) {
    BinWriter w;
    const int time = w.add(std::vector<float>{0, 1, 2});
    const int tv = w.add(std::vector<float>{0, 0, 0, 1, 0, 0, 2, 0, 0});
    const std::string json = R"({"asset":{"version":"2.0"},)" + w.json() + R"(,"accessors":[)" +
        accessor(time, 5126, 3, "SCALAR", false, R"("min":[0],"max":[0.5])") + "," + accessor(tv, 5126, 3, "VEC3") +
        R"(],
        "nodes":[{"name":"a"}],"scenes":[{"nodes":[0]}],"scene":0,
        "animations":[{"samplers":[{"input":0,"output":1}],
           "channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}]}]})";
    auto imported = importSynthetic(json, w.bytes);
    if (!imported.ok()) {
        RecordProperty("outcome", "rejected: " + imported.message());
    } else {
        RecordProperty("outcome", "imported");
        const kinema::Model& model = imported.value();
        EXPECT_FLOAT_EQ(model.clips.at(0).duration(), 2.0f);
        kinema::Pose pose = kinema::makeRestPose(model);
        ASSERT_TRUE(kinema::reference::sample(model.clips.at(0), 1.5f, pose.local, pose.weights));
        EXPECT_FLOAT_EQ(pose.local[0].translation.x, 1.5f);
    }
}

// Looping is the runtime's policy, separate from glTF's clamp: Clamp holds the
// ends, Loop wraps (exactly `duration` maps to 0) and never returns `duration`.
TEST(SpecRows, ClipTimeClampsOrWrapsWithoutReachingDuration) {
    EXPECT_EQ(kinema::clipTime(-1.0, 2.0f, kinema::LoopMode::Clamp), 0.0f);
    EXPECT_EQ(kinema::clipTime(5.0, 2.0f, kinema::LoopMode::Clamp), 2.0f);
    EXPECT_EQ(kinema::clipTime(1.25, 2.0f, kinema::LoopMode::Clamp), 1.25f);
    EXPECT_EQ(kinema::clipTime(2.0, 2.0f, kinema::LoopMode::Loop), 0.0f);
    EXPECT_EQ(kinema::clipTime(4.5, 2.0f, kinema::LoopMode::Loop), 0.5f);
    EXPECT_EQ(kinema::clipTime(-0.5, 2.0f, kinema::LoopMode::Loop), 1.5f);
    EXPECT_EQ(kinema::clipTime(3.0, 0.0f, kinema::LoopMode::Loop), 0.0f);
    // Just below a multiple of the duration: the (double) result stays below it.
    const double nearEnd = kinema::clipTime(6.0 - 1e-12, 2.0f, kinema::LoopMode::Loop);
    EXPECT_LT(nearEnd, 2.0);
    EXPECT_GE(nearEnd, 0.0);
    const double negEnd = kinema::clipTime(-1e-12, 2.0f, kinema::LoopMode::Loop);
    EXPECT_LT(negEnd, 2.0);
    EXPECT_GE(negEnd, 0.0);
}

}  // namespace
