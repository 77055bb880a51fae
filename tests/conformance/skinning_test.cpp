// Conformance: posed, skinned vertices of RiggedSimple.glb and CesiumMan.glb.
// kinema: reference::sample -> reference::localToModel -> reference::skinPalette -> reference::skinVertices.
// Reference, written here without kinema's math: raw keyframes from the buffer
// sampled with our own slerp, node matrices from TRS through Rodrigues' formula
// (or the node's matrix), a hierarchy walk over the JSON node tree from the
// scene roots, inverse bind matrices and JOINTS_0 / WEIGHTS_0 read from the
// buffer, and v' = sum_i w_i (jointWorld_i * IBM_i) v.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "conformance/ref_gltf.hpp"
#include "conformance/ref_math.hpp"
#include "conformance/synthetic_glb.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/sample.hpp"
#include "kinema/runtime/skinning.hpp"
#include "support/assets.hpp"

namespace {

using conformance::M4;
using conformance::Q4;
using conformance::RefGltf;
using conformance::V3;

constexpr double kRelTol = 1e-4;  // of the model's size

// ---- reference ---------------------------------------------------------------

struct RefChannelData {
    int node = -1;
    std::string path;
    std::string interpolation;
    std::vector<double> times;
    std::vector<double> values;
};

std::vector<RefChannelData> channelsOf(const RefGltf& g, std::size_t animation) {
    std::vector<RefChannelData> out;
    const auto& anim = g.animations.at(animation);
    for (const auto& ch : anim.channels) {
        if (ch.node < 0) continue;
        const auto& smp = anim.samplers.at(static_cast<std::size_t>(ch.sampler));
        out.push_back({ch.node, ch.path, smp.interpolation, conformance::readAccessor(g, smp.input),
                       conformance::readAccessor(g, smp.output)});
    }
    return out;
}

// World (scene root space) matrix of every node at time t.
std::vector<M4> worldMatrices(const RefGltf& g, const std::vector<RefChannelData>& channels, double t) {
    std::vector<V3> tr(g.nodes.size()), sc(g.nodes.size());
    std::vector<Q4> ro(g.nodes.size());
    for (std::size_t n = 0; n < g.nodes.size(); ++n) {
        tr[n] = g.nodes[n].t;
        ro[n] = g.nodes[n].r;
        sc[n] = g.nodes[n].s;
    }
    std::vector<bool> animated(g.nodes.size(), false);
    for (const auto& ch : channels) {
        const auto n = static_cast<std::size_t>(ch.node);
        animated[n] = true;
        const bool rotation = ch.path == "rotation";
        const auto v = conformance::sampleRef(ch.times, ch.values, rotation ? 4 : 3, ch.interpolation, rotation, t);
        if (ch.path == "translation") tr[n] = {v[0], v[1], v[2]};
        if (ch.path == "scale") sc[n] = {v[0], v[1], v[2]};
        if (rotation) ro[n] = {v[0], v[1], v[2], v[3]};
    }
    std::vector<M4> local(g.nodes.size());
    for (std::size_t n = 0; n < g.nodes.size(); ++n) {
        if (g.nodes[n].matrix) {
            if (animated[n]) throw std::runtime_error("an animated node must not carry a matrix");
            local[n] = *g.nodes[n].matrix;
        } else {
            local[n] = conformance::fromTrs(tr[n], ro[n], sc[n]);
        }
    }
    std::vector<M4> world(g.nodes.size(), conformance::identity4());
    std::vector<int> visited(g.nodes.size(), 0);
    // Depth-first from the scene roots: world(child) = world(parent) * local(child).
    std::vector<std::pair<int, M4>> stack;
    const auto& roots = g.scenes.at(static_cast<std::size_t>(std::max(g.scene, 0)));
    for (int r : roots) stack.emplace_back(r, conformance::identity4());
    while (!stack.empty()) {
        auto [n, parent] = stack.back();
        stack.pop_back();
        const auto un = static_cast<std::size_t>(n);
        if (visited[un]++) throw std::runtime_error("node visited twice: not a tree");
        world[un] = conformance::mul(parent, local[un]);
        for (int c : g.nodes[un].children) stack.emplace_back(c, world[un]);
    }
    return world;
}

struct RefSkinnedPrimitive {
    std::vector<V3> positions;
    std::vector<V3> normals;
};

RefSkinnedPrimitive skinReference(const RefGltf& g, int meshNode, std::size_t primitive, const std::vector<M4>& world) {
    const auto& node = g.nodes.at(static_cast<std::size_t>(meshNode));
    const auto& skin = g.skins.at(static_cast<std::size_t>(node.skin));
    const auto& prim = g.meshes.at(static_cast<std::size_t>(node.mesh)).primitives.at(primitive);
    std::vector<double> ibm;
    if (skin.inverseBindMatrices >= 0) ibm = conformance::readAccessor(g, skin.inverseBindMatrices);
    std::vector<M4> jointMatrix(skin.joints.size());
    for (std::size_t j = 0; j < skin.joints.size(); ++j) {
        M4 inv = conformance::identity4();
        if (!ibm.empty()) std::copy_n(ibm.begin() + static_cast<std::ptrdiff_t>(16 * j), 16, inv.begin());
        jointMatrix[j] = conformance::mul(world.at(static_cast<std::size_t>(skin.joints[j])), inv);
    }
    const auto pos = conformance::readAccessor(g, prim.attributes.at("POSITION"));
    const auto nrm = conformance::readAccessor(g, prim.attributes.at("NORMAL"));
    const auto jnt = conformance::readAccessor(g, prim.attributes.at("JOINTS_0"));
    const auto wgt = conformance::readAccessor(g, prim.attributes.at("WEIGHTS_0"));
    const std::size_t count = pos.size() / 3;
    RefSkinnedPrimitive out;
    for (std::size_t v = 0; v < count; ++v) {
        M4 m{};  // sum_i w_i * jointMatrix_i
        for (std::size_t i = 0; i < 4; ++i) {
            const double w = wgt[v * 4 + i];
            if (w == 0.0) continue;
            const auto& jm = jointMatrix.at(static_cast<std::size_t>(jnt[v * 4 + i]));
            for (std::size_t e = 0; e < 16; ++e) m[e] += w * jm[e];
        }
        out.positions.push_back(conformance::applyPoint(m, {pos[v * 3], pos[v * 3 + 1], pos[v * 3 + 2]}));
        // Normal: inverse-transpose of the upper 3x3 = cofactor matrix / determinant.
        auto a = [&](int r, int c) { return m[static_cast<std::size_t>(c * 4 + r)]; };
        double cof[3][3];
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) {
                const int r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
                cof[r][c] = a(r1, c1) * a(r2, c2) - a(r1, c2) * a(r2, c1);
            }
        const double det = a(0, 0) * cof[0][0] + a(0, 1) * cof[0][1] + a(0, 2) * cof[0][2];
        const double n[3] = {nrm[v * 3], nrm[v * 3 + 1], nrm[v * 3 + 2]};
        V3 nn{};
        for (int r = 0; r < 3; ++r)
            nn[static_cast<std::size_t>(r)] = (cof[r][0] * n[0] + cof[r][1] * n[1] + cof[r][2] * n[2]) / det;
        const double len = std::sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
        for (double& c : nn) c /= len;
        out.normals.push_back(nn);
    }
    return out;
}

int skinnedMeshNode(const RefGltf& g) {
    for (std::size_t n = 0; n < g.nodes.size(); ++n)
        if (g.nodes[n].skin >= 0 && g.nodes[n].mesh >= 0) return static_cast<int>(n);
    throw std::runtime_error("no skinned mesh node");
}

double modelSize(const RefGltf& g, int meshNode) {
    const auto& prim =
        g.meshes.at(static_cast<std::size_t>(g.nodes.at(static_cast<std::size_t>(meshNode)).mesh)).primitives.at(0);
    const auto pos = conformance::readAccessor(g, prim.attributes.at("POSITION"));
    V3 lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
    for (std::size_t i = 0; i < pos.size(); ++i) {
        lo[i % 3] = std::min(lo[i % 3], pos[i]);
        hi[i % 3] = std::max(hi[i % 3], pos[i]);
    }
    return std::sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                     (hi[2] - lo[2]) * (hi[2] - lo[2]));
}

// ---- kinema ------------------------------------------------------------------

struct KinemaPosed {
    std::vector<kinema::Vec3> positions;
    std::vector<kinema::Vec3> normals;
    std::vector<kinema::Mat4> model;  // per joint
};

KinemaPosed kinemaPose(const kinema::Model& model, std::size_t clip, float t, std::uint32_t meshNode) {
    kinema::Pose pose = kinema::makeRestPose(model);
    kinema::resetToRest(model, pose);
    if (!kinema::reference::sample(model.clips.at(clip), t, pose.local, pose.weights))
        throw std::runtime_error("reference::sample refused the pose");
    kinema::reference::localToModel(model.skeleton.parents(), pose.local, pose.model);
    const std::uint32_t joint = model.jointOfNode.at(meshNode);
    const kinema::MeshInstance* inst = nullptr;
    for (const auto& mi : model.meshInstances)
        if (mi.joint == joint) inst = &mi;
    if (!inst || inst->skin < 0) throw std::runtime_error("no skinned mesh instance on the mesh node");
    const kinema::Skin& skin = model.skins.at(static_cast<std::size_t>(inst->skin));
    std::vector<kinema::Mat4> palette(skin.joints.size());
    kinema::reference::skinPalette(skin, pose.model, palette);
    const kinema::MeshPrimitive& prim = model.meshes.at(inst->mesh).primitives.at(0);
    KinemaPosed out;
    out.positions.resize(prim.vertexCount());
    out.normals.resize(prim.normals.size());
    kinema::reference::skinVertices(prim, palette, prim.positions, prim.normals, out.positions, out.normals);
    out.model = pose.model;
    return out;
}

struct Errors {
    double position = 0;  // max over vertices, absolute
    double normal = 0;
    double jointMatrix = 0;  // max element difference over all nodes' world matrices
};

Errors compare(const kinema::Model& model, const RefGltf& ref, std::size_t clip, double t) {
    const int meshNode = skinnedMeshNode(ref);
    const auto world = worldMatrices(ref, channelsOf(ref, clip), t);
    const auto expected = skinReference(ref, meshNode, 0, world);
    const auto got = kinemaPose(model, clip, static_cast<float>(t), static_cast<std::uint32_t>(meshNode));
    Errors e;
    if (got.positions.size() != expected.positions.size()) throw std::runtime_error("vertex counts differ");
    for (std::size_t v = 0; v < expected.positions.size(); ++v) {
        const auto& p = got.positions[v];
        const auto& q = expected.positions[v];
        e.position = std::max(e.position, std::hypot(p.x - q[0], p.y - q[1], p.z - q[2]));
        if (!(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z))) e.position = INFINITY;
    }
    if (got.normals.size() == expected.normals.size()) {
        for (std::size_t v = 0; v < expected.normals.size(); ++v) {
            const auto& p = got.normals[v];
            const auto& q = expected.normals[v];
            e.normal = std::max(e.normal, std::hypot(p.x - q[0], p.y - q[1], p.z - q[2]));
        }
    } else {
        e.normal = INFINITY;
    }
    for (std::size_t n = 0; n < ref.nodes.size(); ++n) {
        const auto& m = got.model.at(model.jointOfNode.at(n));
        for (std::size_t i = 0; i < 16; ++i) e.jointMatrix = std::max(e.jointMatrix, std::abs(m.m[i] - world[n][i]));
    }
    return e;
}

struct Case {
    const char* file;
};

class PosedVertices : public ::testing::TestWithParam<Case> {};

TEST_P(PosedVertices, MatchIndependentReferenceAtSeveralTimes) {
    KINEMA_REQUIRE_ASSET(file, GetParam().file);
    auto imported = kinema::importGltfFile(file);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const kinema::Model& model = imported.value();
    const RefGltf ref = conformance::loadGltf(file);
    ASSERT_EQ(model.clips.size(), 1u);
    const double size = modelSize(ref, skinnedMeshNode(ref));
    ASSERT_GT(size, 0.0);
    for (const double t : {0.0, 0.3, 1.0, 1.7, 2.5}) {
        SCOPED_TRACE("t = " + std::to_string(t));
        const Errors e = compare(model, ref, 0, t);
        EXPECT_LE(e.position, kRelTol * size) << "model size " << size;
        EXPECT_LE(e.normal, 1e-3);
        EXPECT_LE(e.jointMatrix, 1e-5 * std::max(1.0, size));
    }
    // The animation really moves the mesh between the probed times (else the
    // comparison would only test the bind pose).
    const int meshNode = skinnedMeshNode(ref);
    const auto channels = channelsOf(ref, 0);
    const auto a = skinReference(ref, meshNode, 0, worldMatrices(ref, channels, 0.0));
    const auto b = skinReference(ref, meshNode, 0, worldMatrices(ref, channels, 1.0));
    double moved = 0;
    for (std::size_t v = 0; v < a.positions.size(); ++v)
        moved = std::max(moved,
                         std::hypot(a.positions[v][0] - b.positions[v][0], a.positions[v][1] - b.positions[v][1],
                                    a.positions[v][2] - b.positions[v][2]));
    EXPECT_GT(moved, 100 * kRelTol * size);
}

// The comparison can fail: move one translation key of the first animated node
// by 5% of the model size in a copy of the file bytes. kinema importing the
// patched bytes must then disagree with the reference built from the original
// bytes at that key's time, and agree with a reference built from the patched ones.
TEST_P(PosedVertices, OneMutatedKeyframeMakesTheComparisonFail) {
    KINEMA_REQUIRE_ASSET(file, GetParam().file);
    const conformance::Bytes original = conformance::readBytes(file);
    const RefGltf ref = conformance::parseGltfBytes(original, file.parent_path());
    const double size = modelSize(ref, skinnedMeshNode(ref));

    // The first translation channel; its first key at or after t = 1 s.
    const auto& anim = ref.animations.at(0);
    const conformance::RefSampler* sampler = nullptr;
    for (const auto& ch : anim.channels)
        if (ch.path == "translation" && !sampler) sampler = &anim.samplers.at(static_cast<std::size_t>(ch.sampler));
    ASSERT_NE(sampler, nullptr);
    ASSERT_EQ(sampler->interpolation, "LINEAR");
    const auto times = conformance::readAccessor(ref, sampler->input);
    std::size_t key = 0;
    while (key + 1 < times.size() && times[key] < 1.0) ++key;
    const double t = times[key];

    conformance::Bytes patched = original;
    const std::size_t at = conformance::fileOffsetOf(ref, sampler->output, key, 0);
    float x = 0;
    std::memcpy(&x, patched.data() + at, 4);
    x += static_cast<float>(0.05 * size);
    std::memcpy(patched.data() + at, &x, 4);

    kinema::GltfSource src;
    src.bytes = std::make_shared<const std::vector<std::byte>>(
        reinterpret_cast<const std::byte*>(patched.data()),
        reinterpret_cast<const std::byte*>(patched.data() + patched.size()));
    src.baseDir = file.parent_path();
    src.name = file.filename().string() + " (patched)";
    // The moved key no longer matches the accessor's declared max: lenient import.
    kinema::ImportOptions lenient;
    lenient.conformance = kinema::Conformance::Lenient;
    auto imported = kinema::importGltf(src, lenient);
    ASSERT_TRUE(imported.ok()) << imported.message();

    const Errors against = compare(imported.value(), ref, 0, t);
    EXPECT_GT(against.position, 10 * kRelTol * size) << "a moved keyframe went unnoticed";

    const RefGltf patchedRef = conformance::parseGltfBytes(patched, file.parent_path());
    const Errors along = compare(imported.value(), patchedRef, 0, t);
    EXPECT_LE(along.position, kRelTol * size);
}

INSTANTIATE_TEST_SUITE_P(Conformance, PosedVertices,
                         ::testing::Values(Case{"RiggedSimple/RiggedSimple.glb"}, Case{"CesiumMan/CesiumMan.glb"}),
                         [](const ::testing::TestParamInfo<Case>& param) {
                             std::string name = param.param.file;
                             return name.substr(0, name.find('/'));
                         });

// Non-uniform and mirrored (negative) joint scale, animated with rotation: the
// skinned normals must use the inverse-transpose of the blended matrix (with the
// determinant's sign), positions the blended matrix itself.
TEST(PosedVerticesSynthetic, NonUniformAndMirroredJointScale) {
    using conformance::accessor;
    conformance::BinWriter w;
    const int pos = w.add(std::vector<float>{0.5f, 1, 0, 0, 2.5f, 0.5f, -0.5f, 3.5f, 0.2f, 0.3f, 4.5f, -0.4f});
    const float r = 1.0f / std::sqrt(3.0f);
    const int nrm = w.add(std::vector<float>{1, 0, 0, r, r, r, 0, 0.6f, 0.8f, -r, r, -r});
    const int jnt = w.add(std::vector<std::uint8_t>{0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0});
    const int wgt = w.add(std::vector<float>{1, 0, 0, 0, 0.7f, 0.3f, 0, 0, 0.3f, 0.7f, 0, 0, 1, 0, 0, 0});
    const int ibm = w.add(std::vector<float>{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1,    // T(0,-1,0)
                                             1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -3, 0, 1});  // T(0,-3,0)
    const int time = w.add(std::vector<float>{0, 1, 2});
    const float h = std::sqrt(0.5f);
    const float s85 = std::sin(1.4835298f), c85 = std::cos(1.4835298f);  // half of 170 degrees
    const int rot = w.add(std::vector<float>{0, 0, 0, 1, h, 0, 0, h, s85, 0, 0, c85});
    const int scl = w.add(std::vector<float>{2, 1, 0.5f, 1.5f, 0.7f, 3, -1, 1, 1});
    const std::string json = R"({"asset":{"version":"2.0"},)" + w.json() + R"(,"accessors":[)" +
        accessor(pos, 5126, 4, "VEC3", false, R"("min":[-0.5,1,-0.4],"max":[0.5,4.5,0.5])") + "," +
        accessor(nrm, 5126, 4, "VEC3") + "," + accessor(jnt, 5121, 4, "VEC4") + "," + accessor(wgt, 5126, 4, "VEC4") +
        "," + accessor(ibm, 5126, 2, "MAT4") + "," +
        accessor(time, 5126, 3, "SCALAR", false, R"("min":[0],"max":[2])") + "," + accessor(rot, 5126, 3, "VEC4") +
        "," + accessor(scl, 5126, 3, "VEC3") + R"(],
        "meshes":[{"primitives":[{"attributes":{"POSITION":0,"NORMAL":1,"JOINTS_0":2,"WEIGHTS_0":3},"mode":0}]}],
        "skins":[{"joints":[1,2],"inverseBindMatrices":4}],
        "nodes":[{"mesh":0,"skin":0},{"translation":[0,1,0],"children":[2]},{"translation":[0,2,0]}],
        "scenes":[{"nodes":[0,1]}],"scene":0,
        "animations":[{"samplers":[{"input":5,"output":6},{"input":5,"output":7}],
           "channels":[{"sampler":0,"target":{"node":2,"path":"rotation"}},{"sampler":1,"target":{"node":2,"path":"scale"}}]}]
      })";
    auto imported = conformance::importSynthetic(json, w.bytes);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const auto glb = conformance::makeGlb(json, w.bytes);
    conformance::Bytes bytes(glb->size());
    std::memcpy(bytes.data(), glb->data(), glb->size());
    const RefGltf ref = conformance::parseGltfBytes(bytes, {});
    const double size = modelSize(ref, 0);
    // Scale x crosses 0 at t = 1.6: probe either side, including mirrored poses.
    for (const double t : {0.0, 0.5, 1.0, 1.3, 1.9, 2.0, 2.5}) {
        SCOPED_TRACE("t = " + std::to_string(t));
        const Errors e = compare(imported.value(), ref, 0, t);
        EXPECT_LE(e.position, kRelTol * size);
        EXPECT_LE(e.normal, 1e-4);
        EXPECT_LE(e.jointMatrix, 1e-5 * std::max(1.0, size));
    }
}

}  // namespace
