// Conformance: mesh and skin rows of the glTF 2.0 rules that the shared sample
// models leave unexercised (quantized attributes, a second influence set, more
// inverse bind matrices than joints), each on a small GLB built in memory.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "conformance/synthetic_glb.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/skinning.hpp"

namespace {

using conformance::accessor;
using conformance::BinWriter;
using conformance::importSynthetic;

// KHR_mesh_quantization: POSITION as normalised and plain integers, NORMAL and
// target POSITION as normalised bytes. Signed: max(c / 127, -1), max(c / 32767, -1).
TEST(MeshRows, QuantizedAttributesDecodeAsSpecified) {
    BinWriter w;
    // short VEC3 elements are 6 bytes, padded to a stride of 8 (vertex attributes align to 4).
    const int posN = w.add(std::vector<std::int16_t>{-32768, 0, 32767, 0, 16384, -16384, 0, 0, 0, 1, -1, 0}, 8);
    const int posU = w.add(std::vector<std::uint16_t>{0, 0, 0, 0, 1000, 0, 0, 0, 0, 2, 65535, 0}, 8);
    // byte VEC3 elements are 3 bytes, padded to 4.
    const int nrm = w.add(std::vector<std::int8_t>{127, 0, 0, 0, 0, -128, 0, 0, 0, 0, 127, 0}, 4);
    const int tgt = w.add(std::vector<std::int8_t>{-128, 64, 0, 0, 0, 0, 127, 0, -1, 1, 0, 0}, 4);
    const std::string json = R"({"asset":{"version":"2.0"},
        "extensionsUsed":["KHR_mesh_quantization"],"extensionsRequired":["KHR_mesh_quantization"],)" +
        w.json() + R"(,"accessors":[)" +
        accessor(posN, 5122, 3, "VEC3", true, R"("min":[-32768,-16384,-1],"max":[16384,1,32767])") + "," +
        accessor(posU, 5123, 3, "VEC3", false, R"("min":[0,0,0],"max":[1000,2,65535])") + "," +
        accessor(nrm, 5120, 3, "VEC3", true) + "," + accessor(tgt, 5120, 3, "VEC3", true) +
        R"(],
        "meshes":[{"primitives":[{"attributes":{"POSITION":0,"NORMAL":2},"targets":[{"POSITION":3}]},
                                 {"attributes":{"POSITION":1},"targets":[{"POSITION":3}]}],"weights":[0]}],
        "nodes":[{"mesh":0}],
        "scenes":[{"nodes":[0]}],"scene":0
      })";
    auto imported = importSynthetic(json, w.bytes);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const auto& prims = imported.value().meshes.at(0).primitives;
    ASSERT_EQ(prims.size(), 2u);

    auto near = [](kinema::Vec3 got, double x, double y, double z) {
        return std::abs(got.x - x) <= 1e-7 && std::abs(got.y - y) <= 1e-7 && std::abs(got.z - z) <= 1e-7;
    };
    const auto& p0 = prims[0].positions;
    ASSERT_EQ(p0.size(), 3u);
    EXPECT_TRUE(near(p0[0], -1.0, 0.0, 1.0)) << p0[0].x << " " << p0[0].y << " " << p0[0].z;
    EXPECT_TRUE(near(p0[1], 16384.0 / 32767, -16384.0 / 32767, 0.0)) << p0[1].x << " " << p0[1].y;
    EXPECT_TRUE(near(p0[2], 0.0, 1.0 / 32767, -1.0 / 32767));
    const auto& p1 = prims[1].positions;
    ASSERT_EQ(p1.size(), 3u);
    EXPECT_EQ(p1[0], (kinema::Vec3{0, 0, 0}));
    EXPECT_EQ(p1[1], (kinema::Vec3{1000, 0, 0}));
    EXPECT_EQ(p1[2], (kinema::Vec3{0, 2, 65535}));
    const auto& n = prims[0].normals;
    ASSERT_EQ(n.size(), 3u);
    EXPECT_TRUE(near(n[0], 1, 0, 0));
    EXPECT_TRUE(near(n[1], 0, -1, 0)) << n[1].y;
    EXPECT_TRUE(near(n[2], 0, 0, 1));
    for (const auto& prim : prims) {
        ASSERT_EQ(prim.targets.size(), 1u);
        const auto& d = prim.targets[0].positions;
        ASSERT_EQ(d.size(), 3u);
        EXPECT_TRUE(near(d[0], -1.0, 64.0 / 127, 0.0)) << d[0].x << " " << d[0].y;
        EXPECT_TRUE(near(d[1], 0.0, 0.0, 127.0 / 127));
        EXPECT_TRUE(near(d[2], -1.0 / 127, 1.0 / 127, 0.0));
    }
}

// Eight influences per vertex through JOINTS_0/WEIGHTS_0 and JOINTS_1/WEIGHTS_1.
// The inverse bind accessor holds more matrices than the skin has joints, which
// the spec allows (count >= joints); only the first joints.size() are used.
TEST(MeshRows, SecondInfluenceSetAndExtraInverseBindMatrices) {
    BinWriter w;
    const int pos = w.add(std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0});
    // Joint k is translated by (k, 2k, -k) from an origin parent; identity inverse binds.
    const int j0 = w.add(std::vector<std::uint8_t>{0, 1, 2, 3, 4, 5, 6, 7, 7, 6, 5, 4});
    const int j1 = w.add(std::vector<std::uint8_t>{4, 5, 6, 7, 0, 1, 2, 3, 3, 2, 1, 0});
    const int w0 = w.add(std::vector<float>{0.1f, 0.1f, 0.1f, 0.1f, 0.5f, 0, 0, 0, 0.25f, 0.25f, 0, 0});
    const int w1 = w.add(std::vector<float>{0.05f, 0.15f, 0.2f, 0.2f, 0, 0, 0, 0.5f, 0, 0, 0.25f, 0.25f});
    std::vector<float> ibm;
    for (int k = 0; k < 9; ++k)  // nine matrices for eight joints; the ninth translates by 7
        for (int e = 0; e < 16; ++e) ibm.push_back(e % 5 == 0 ? 1.0f : (k == 8 && e >= 12 && e < 15 ? 7.0f : 0.0f));
    const int ib = w.add(ibm);
    // Node 0 draws the mesh; node 1 is the joints' common (non-joint) root, at the
    // origin; nodes 2..9 are the joints.
    std::string nodes = R"({"mesh":0,"skin":0},{"children":[2,3,4,5,6,7,8,9]})";
    for (int k = 0; k < 8; ++k)
        nodes +=
            R"(,{"translation":[)" + std::to_string(k) + "," + std::to_string(2 * k) + "," + std::to_string(-k) + "]}";
    const std::string json = R"({"asset":{"version":"2.0"},)" + w.json() + R"(,"accessors":[)" +
        accessor(pos, 5126, 3, "VEC3", false, R"("min":[0,0,0],"max":[1,1,0])") + "," + accessor(j0, 5121, 3, "VEC4") +
        "," + accessor(j1, 5121, 3, "VEC4") + "," + accessor(w0, 5126, 3, "VEC4") + "," +
        accessor(w1, 5126, 3, "VEC4") + "," + accessor(ib, 5126, 9, "MAT4") + R"(],
        "meshes":[{"primitives":[{"attributes":{"POSITION":0,"JOINTS_0":1,"JOINTS_1":2,"WEIGHTS_0":3,"WEIGHTS_1":4}}]}],
        "skins":[{"joints":[2,3,4,5,6,7,8,9],"inverseBindMatrices":5}],
        "nodes":[)" +
        nodes + R"(],
        "scenes":[{"nodes":[0,1]}],"scene":0
      })";
    auto imported = importSynthetic(json, w.bytes);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const kinema::Model& model = imported.value();
    const auto& prim = model.meshes.at(0).primitives.at(0);
    ASSERT_EQ(prim.influencesPerVertex, 8u);
    ASSERT_EQ(model.skins.at(0).inverseBindMatrices.size(), 8u);
    for (const auto& m : model.skins[0].inverseBindMatrices) EXPECT_EQ(m, kinema::Mat4::identity());

    kinema::Pose pose = kinema::makeRestPose(model);
    kinema::reference::localToModel(model.skeleton.parents(), pose.local, pose.model);
    std::vector<kinema::Mat4> palette(8);
    kinema::reference::skinPalette(model.skins[0], pose.model, palette);
    std::vector<kinema::Vec3> out(3);
    kinema::reference::skinVertices(prim, palette, prim.positions, {}, out, {});

    // By hand: identity IBMs and pure translations, so v' = v + sum_i w_i t(joint_i),
    // t(k) = (k, 2k, -k): the offset is (s, 2s, -s) with s = sum_i w_i k_i.
    const double s[3] = {0.1 * (0 + 1 + 2 + 3) + 0.05 * 4 + 0.15 * 5 + 0.2 * 6 + 0.2 * 7, 0.5 * 4 + 0.5 * 3,
                         0.25 * 7 + 0.25 * 6 + 0.25 * 1 + 0.25 * 0};
    const double base[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    for (std::size_t v = 0; v < 3; ++v) {
        SCOPED_TRACE("vertex " + std::to_string(v));
        EXPECT_NEAR(out[v].x, base[v][0] + s[v], 1e-5);
        EXPECT_NEAR(out[v].y, base[v][1] + 2 * s[v], 1e-5);
        EXPECT_NEAR(out[v].z, base[v][2] - s[v], 1e-5);
    }
}

}  // namespace
