// Conformance: morph targets. For AnimatedMorphCube, AnimatedMorphSphere and
// SimpleMorph, the sampled weights are compared with LINEAR interpolation of the
// raw weights accessor computed here, and applyMorphTargets with
// base + sum_t w_t * delta_t computed here from the POSITION / NORMAL accessors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "conformance/ref_gltf.hpp"
#include "conformance/ref_math.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/sample.hpp"
#include "kinema/runtime/skinning.hpp"
#include "support/assets.hpp"

namespace {

using conformance::RefGltf;

struct MorphCase {
    const char* file;
};

class Morph : public ::testing::TestWithParam<MorphCase> {};

int morphNode(const RefGltf& g) {
    for (std::size_t n = 0; n < g.nodes.size(); ++n) {
        const int m = g.nodes[n].mesh;
        if (m >= 0 && !g.meshes.at(static_cast<std::size_t>(m)).primitives.at(0).targets.empty())
            return static_cast<int>(n);
    }
    return -1;
}

// glTF: node.weights override mesh.weights; neither means zeros.
std::vector<double> restWeightsOf(const RefGltf& g, int node, std::size_t targets) {
    const auto& n = g.nodes.at(static_cast<std::size_t>(node));
    if (!n.weights.empty()) return n.weights;
    const auto& mw = g.meshes.at(static_cast<std::size_t>(n.mesh)).weights;
    if (!mw.empty()) return mw;
    return std::vector<double>(targets, 0.0);
}

TEST_P(Morph, SampledWeightsMatchHandInterpolation) {
    KINEMA_REQUIRE_ASSET(file, GetParam().file);
    auto imported = kinema::importGltfFile(file);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const kinema::Model& model = imported.value();
    const RefGltf ref = conformance::loadGltf(file);

    const int node = morphNode(ref);
    ASSERT_GE(node, 0);
    const auto& prim =
        ref.meshes.at(static_cast<std::size_t>(ref.nodes[static_cast<std::size_t>(node)].mesh)).primitives.at(0);
    const std::size_t targets = prim.targets.size();
    const std::uint32_t joint = model.jointOfNode.at(static_cast<std::size_t>(node));
    const std::int32_t offset = model.weightOffsetOfJoint.at(joint);
    ASSERT_GE(offset, 0);
    const auto off = static_cast<std::size_t>(offset);
    ASSERT_LE(off + targets, model.restWeights.size());

    // Rest weights.
    const auto rest = restWeightsOf(ref, node, targets);
    for (std::size_t i = 0; i < targets; ++i) EXPECT_FLOAT_EQ(model.restWeights[off + i], static_cast<float>(rest[i]));

    ASSERT_EQ(ref.animations.size(), 1u);
    ASSERT_EQ(model.clips.size(), 1u);
    const auto& anim = ref.animations[0];
    ASSERT_EQ(anim.channels.size(), 1u);
    ASSERT_EQ(anim.channels[0].path, "weights");
    ASSERT_EQ(anim.channels[0].node, node);
    const auto& smp = anim.samplers.at(static_cast<std::size_t>(anim.channels[0].sampler));
    const auto times = conformance::readAccessor(ref, smp.input);
    const auto values = conformance::readAccessor(ref, smp.output);
    ASSERT_EQ(values.size(), times.size() * targets);  // one scalar per target per key

    std::vector<double> probe{0.0, times.back() + 0.4};
    if (times.front() > 0) probe.push_back(times.front() * 0.5);
    for (std::size_t k = 0; k < times.size(); ++k) {
        probe.push_back(static_cast<float>(times[k]));
        if (k + 1 < times.size()) {
            probe.push_back(static_cast<float>(times[k] + 0.37 * (times[k + 1] - times[k])));
            probe.push_back(static_cast<float>(times[k] + 0.5 * (times[k + 1] - times[k])));
        }
    }
    kinema::Pose pose = kinema::makeRestPose(model);
    double spread = 0;  // how far the weights move: the test must exercise something
    for (const double t : probe) {
        SCOPED_TRACE("t = " + std::to_string(t));
        kinema::resetToRest(model, pose);
        ASSERT_TRUE(kinema::reference::sample(model.clips[0], static_cast<float>(t), pose.local, pose.weights));
        const auto expected = conformance::sampleRef(times, values, targets, smp.interpolation, false, t);
        for (std::size_t i = 0; i < targets; ++i) {
            EXPECT_NEAR(pose.weights[off + i], expected[i], 1e-5) << "target " << i;
            spread = std::max(spread, std::abs(expected[i] - rest[i]));
        }
    }
    EXPECT_GT(spread, 0.2);
}

TEST_P(Morph, ApplyMorphTargetsIsBasePlusWeightedDeltas) {
    KINEMA_REQUIRE_ASSET(file, GetParam().file);
    auto imported = kinema::importGltfFile(file);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const kinema::Model& model = imported.value();
    const RefGltf ref = conformance::loadGltf(file);

    const int node = morphNode(ref);
    ASSERT_GE(node, 0);
    const int mesh = ref.nodes[static_cast<std::size_t>(node)].mesh;
    const auto& rprim = ref.meshes.at(static_cast<std::size_t>(mesh)).primitives.at(0);
    const std::size_t targets = rprim.targets.size();
    const auto base = conformance::readAccessor(ref, rprim.attributes.at("POSITION"));
    const bool hasNormals = rprim.attributes.count("NORMAL") > 0;
    const auto baseN =
        hasNormals ? conformance::readAccessor(ref, rprim.attributes.at("NORMAL")) : std::vector<double>{};
    std::vector<std::vector<double>> dp(targets), dn(targets);
    for (std::size_t t = 0; t < targets; ++t) {
        if (rprim.targets[t].count("POSITION")) dp[t] = conformance::readAccessor(ref, rprim.targets[t].at("POSITION"));
        if (rprim.targets[t].count("NORMAL")) dn[t] = conformance::readAccessor(ref, rprim.targets[t].at("NORMAL"));
    }
    double size = 0;
    for (double c : base) size = std::max(size, std::abs(c));

    ASSERT_LT(static_cast<std::size_t>(mesh), model.meshes.size());
    const kinema::MeshPrimitive& prim = model.meshes[static_cast<std::size_t>(mesh)].primitives.at(0);
    ASSERT_EQ(prim.targets.size(), targets);
    const std::size_t count = base.size() / 3;
    ASSERT_EQ(prim.vertexCount(), count);

    // Weight sets: each target alone, a mix with a negative and an over-unit weight.
    std::vector<std::vector<float>> sets;
    for (std::size_t t = 0; t < targets; ++t) {
        std::vector<float> w(targets, 0.0f);
        w[t] = 1.0f;
        sets.push_back(w);
    }
    std::vector<float> mix(targets);
    for (std::size_t t = 0; t < targets; ++t) mix[t] = (t % 2 ? -0.35f : 0.8f) + 0.45f * static_cast<float>(t);
    sets.push_back(mix);
    sets.push_back(std::vector<float>(targets, 0.0f));
    // And the weights kinema samples from the clip at a few times.
    ASSERT_EQ(model.clips.size(), 1u);
    const std::uint32_t joint = model.jointOfNode.at(static_cast<std::size_t>(node));
    const auto off = static_cast<std::size_t>(model.weightOffsetOfJoint.at(joint));
    kinema::Pose pose = kinema::makeRestPose(model);
    for (const float f : {0.3f, 0.55f, 0.9f}) {
        kinema::resetToRest(model, pose);
        ASSERT_TRUE(kinema::reference::sample(model.clips[0], f * model.clips[0].duration(), pose.local, pose.weights));
        sets.emplace_back(pose.weights.begin() + static_cast<std::ptrdiff_t>(off),
                          pose.weights.begin() + static_cast<std::ptrdiff_t>(off + targets));
    }

    double moved = 0;
    for (const auto& w : sets) {
        SCOPED_TRACE("weights " + ::testing::PrintToString(w));
        std::vector<kinema::Vec3> outP(count), outN(hasNormals ? count : 0);
        kinema::applyMorphTargets(prim, w, outP, outN);
        for (std::size_t v = 0; v < count; ++v) {
            for (std::size_t c = 0; c < 3; ++c) {
                double e = base[v * 3 + c];
                for (std::size_t t = 0; t < targets; ++t)
                    if (!dp[t].empty()) e += static_cast<double>(w[t]) * dp[t][v * 3 + c];
                const float got = c == 0 ? outP[v].x : c == 1 ? outP[v].y : outP[v].z;
                ASSERT_NEAR(got, e, 1e-6 * (1.0 + size)) << "vertex " << v << " component " << c;
                moved = std::max(moved, std::abs(e - base[v * 3 + c]));
                if (!hasNormals) continue;
                double en = baseN[v * 3 + c];
                for (std::size_t t = 0; t < targets; ++t)
                    if (!dn[t].empty()) en += static_cast<double>(w[t]) * dn[t][v * 3 + c];
                const float gotN = c == 0 ? outN[v].x : c == 1 ? outN[v].y : outN[v].z;
                ASSERT_NEAR(gotN, en, 1e-5) << "normal of vertex " << v << " component " << c;
            }
        }
    }
    EXPECT_GT(moved, 0.1 * size);  // the targets really displace the mesh
}

INSTANTIATE_TEST_SUITE_P(Conformance, Morph,
                         ::testing::Values(MorphCase{"AnimatedMorphCube/AnimatedMorphCube.glb"},
                                           MorphCase{"AnimatedMorphSphere/AnimatedMorphSphere.glb"},
                                           MorphCase{"SimpleMorph/SimpleMorph.gltf"}),
                         [](const ::testing::TestParamInfo<MorphCase>& param) {
                             std::string name = param.param.file;
                             return name.substr(0, name.find('/'));
                         });

}  // namespace
