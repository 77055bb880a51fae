// Conformance: the skeleton, skin and mesh-instance structure kinema builds for
// CesiumMan.glb and RiggedFigure.glb, checked against the JSON node tree read here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "conformance/ref_gltf.hpp"
#include "kinema/io/gltf.hpp"
#include "support/assets.hpp"

namespace {

using conformance::RefGltf;

struct StructureCase {
    const char* file;
};

class Structure : public ::testing::TestWithParam<StructureCase> {};

std::vector<int> ancestorsOrSelf(const RefGltf& g, int node) {
    std::vector<int> chain;
    for (int n = node; n >= 0; n = g.parentOf(n)) chain.push_back(n);
    return chain;  // node first, root last
}

// Lowest common ancestor (or self) of all `nodes` in the JSON tree; -1 if none.
int lowestCommonAncestor(const RefGltf& g, const std::vector<int>& nodes) {
    std::vector<int> common = ancestorsOrSelf(g, nodes.at(0));
    for (int n : nodes) {
        const auto chain = ancestorsOrSelf(g, n);
        std::vector<int> keep;
        for (int c : common)
            if (std::find(chain.begin(), chain.end(), c) != chain.end()) keep.push_back(c);
        common = keep;
    }
    return common.empty() ? -1 : common.front();  // deepest first
}

TEST_P(Structure, SkeletonSkinAndInstancesMatchTheNodeTree) {
    KINEMA_REQUIRE_ASSET(file, GetParam().file);
    auto imported = kinema::importGltfFile(file);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const kinema::Model& model = imported.value();
    const RefGltf ref = conformance::loadGltf(file);
    const std::size_t nodes = ref.nodes.size();

    // Every node is a joint; parents come first.
    ASSERT_EQ(model.skeleton.jointCount(), nodes);
    const auto parents = model.skeleton.parents();
    for (std::size_t j = 0; j < parents.size(); ++j)
        EXPECT_LT(parents[j], static_cast<std::int32_t>(j)) << "joint " << j;

    // nodeOfJoint / jointOfNode are inverse permutations of 0..n-1.
    ASSERT_EQ(model.nodeOfJoint.size(), nodes);
    ASSERT_EQ(model.jointOfNode.size(), nodes);
    std::set<std::uint32_t> seenNodes, seenJoints;
    for (std::size_t j = 0; j < nodes; ++j) {
        ASSERT_LT(model.nodeOfJoint[j], nodes);
        seenNodes.insert(model.nodeOfJoint[j]);
        EXPECT_EQ(model.jointOfNode[model.nodeOfJoint[j]], j);
    }
    for (std::size_t n = 0; n < nodes; ++n) {
        ASSERT_LT(model.jointOfNode[n], nodes);
        seenJoints.insert(model.jointOfNode[n]);
        EXPECT_EQ(model.nodeOfJoint[model.jointOfNode[n]], n);
    }
    EXPECT_EQ(seenNodes.size(), nodes);
    EXPECT_EQ(seenJoints.size(), nodes);

    // The hierarchy is the JSON's, and names follow their nodes.
    for (std::size_t n = 0; n < nodes; ++n) {
        const int p = ref.parentOf(static_cast<int>(n));
        const std::int32_t expected =
            p < 0 ? kinema::kNoParent : static_cast<std::int32_t>(model.jointOfNode[static_cast<std::size_t>(p)]);
        EXPECT_EQ(parents[model.jointOfNode[n]], expected) << "node " << n;
        EXPECT_EQ(model.skeleton.name(model.jointOfNode[n]), ref.nodes[n].name) << "node " << n;
    }

    // Skin: joints in file order, inverse bind matrices from the buffer, and the
    // root under which all joints hang (their lowest common ancestor).
    ASSERT_EQ(ref.skins.size(), 1u);
    ASSERT_EQ(model.skins.size(), 1u);
    const auto& rskin = ref.skins[0];
    const kinema::Skin& skin = model.skins[0];
    ASSERT_EQ(skin.joints.size(), rskin.joints.size());
    for (std::size_t i = 0; i < skin.joints.size(); ++i)
        EXPECT_EQ(skin.joints[i], model.jointOfNode.at(static_cast<std::size_t>(rskin.joints[i])))
            << "skin joint " << i;
    const auto ibm = conformance::readAccessor(ref, rskin.inverseBindMatrices);
    ASSERT_EQ(skin.inverseBindMatrices.size(), skin.joints.size());
    for (std::size_t i = 0; i < skin.joints.size(); ++i)
        for (std::size_t e = 0; e < 16; ++e)
            EXPECT_FLOAT_EQ(skin.inverseBindMatrices[i].m[e], static_cast<float>(ibm[16 * i + e])) << "IBM " << i;

    const int lca = lowestCommonAncestor(ref, rskin.joints);
    ASSERT_GE(lca, 0);
    ASSERT_GE(skin.root, 0) << "skin root not found";
    EXPECT_EQ(skin.root, static_cast<std::int32_t>(model.jointOfNode[static_cast<std::size_t>(lca)]));
    for (std::uint32_t j : skin.joints) {
        bool under = false;
        for (std::int32_t a = static_cast<std::int32_t>(j); a >= 0; a = parents[static_cast<std::size_t>(a)])
            under = under || a == skin.root;
        EXPECT_TRUE(under) << "joint " << j << " does not hang under the skin root";
    }

    // Mesh instances: one per node with a mesh, in file node order, valid skin indices.
    std::vector<std::size_t> meshNodes;
    for (std::size_t n = 0; n < nodes; ++n)
        if (ref.nodes[n].mesh >= 0) meshNodes.push_back(n);
    ASSERT_EQ(model.meshInstances.size(), meshNodes.size());
    for (std::size_t i = 0; i < meshNodes.size(); ++i) {
        const auto& inst = model.meshInstances[i];
        const auto& rn = ref.nodes[meshNodes[i]];
        EXPECT_EQ(inst.joint, model.jointOfNode[meshNodes[i]]);
        EXPECT_EQ(inst.mesh, static_cast<std::uint32_t>(rn.mesh));
        EXPECT_EQ(inst.skin, rn.skin);
        ASSERT_GE(inst.skin, 0);
        ASSERT_LT(static_cast<std::size_t>(inst.skin), model.skins.size());
        ASSERT_LT(inst.mesh, model.meshes.size());
        const auto& s = model.skins[static_cast<std::size_t>(inst.skin)];
        for (const auto& prim : model.meshes[inst.mesh].primitives) {
            ASSERT_GT(prim.influencesPerVertex, 0u);
            ASSERT_EQ(prim.joints.size(), prim.vertexCount() * prim.influencesPerVertex);
            for (std::uint16_t jj : prim.joints) ASSERT_LT(jj, s.joints.size());
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Conformance, Structure,
                         ::testing::Values(StructureCase{"CesiumMan/CesiumMan.glb"},
                                           StructureCase{"RiggedFigure/RiggedFigure.glb"}),
                         [](const ::testing::TestParamInfo<StructureCase>& param) {
                             std::string name = param.param.file;
                             return name.substr(0, name.find('/'));
                         });

}  // namespace
