// findModelFaults on a small Model built in code: a consistent baseline, then one
// deliberate inconsistency per case, each named after what it breaks.
#include <gtest/gtest.h>

#include <limits>

#include <string>
#include <vector>

#include "kinema/asset/model.hpp"

namespace {

using kinema::Model;
using Wheres = std::vector<std::string>;

// Three joints root <- arm <- hand; the hand draws a 3-vertex skinned, morphed
// triangle (2 morph targets, 2 influences per vertex) through a 2-joint skin
// {arm, hand}; one clip moves the arm and animates the hand's 2 morph weights.
Model validModel() {
    Model m;
    m.source = "built in code";
    std::vector<kinema::JointDesc> j(3);
    j[0] = {"root", kinema::kNoParent, {}};
    j[1] = {"arm", 0, {}};
    j[2] = {"hand", 1, {}};
    m.skeleton = kinema::Skeleton::create(j).value();
    m.nodeOfJoint = {0, 1, 2};
    m.jointOfNode = {0, 1, 2};
    m.weightOffsetOfJoint = {-1, -1, 0};
    m.restWeights = {0.0f, 0.0f};

    kinema::Skin skin;
    skin.name = "skin";
    skin.joints = {1, 2};
    skin.inverseBindMatrices = {kinema::Mat4{}, kinema::Mat4{}};
    skin.root = 0;
    m.skins.push_back(skin);

    kinema::MeshPrimitive p;
    p.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    p.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    p.influencesPerVertex = 2;
    p.joints = {0, 1, 0, 1, 1, 0};
    p.weights = {0.5f, 0.5f, 1.0f, 0.0f, 0.75f, 0.25f};
    p.indices = {0, 1, 2};
    p.targets.resize(2);
    p.targets[0].positions = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    p.targets[1].positions = {{1, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    p.material = 0;
    kinema::Mesh mesh;
    mesh.name = "triangle";
    mesh.primitives.push_back(p);
    mesh.targetCount = 2;
    mesh.weights = {0.0f, 0.0f};
    m.meshes.push_back(mesh);
    m.materials.push_back(kinema::Material{});

    kinema::MeshInstance mi;
    mi.joint = 2;
    mi.mesh = 0;
    mi.skin = 0;
    mi.weightOffset = 0;
    m.meshInstances.push_back(mi);

    kinema::Track move;
    move.target = 1;
    move.path = kinema::TrackPath::Translation;
    move.width = 3;
    move.times = {0, 1};
    move.values = {0, 0, 0, 0, 1, 0};
    kinema::Track morph;
    morph.target = 2;
    morph.path = kinema::TrackPath::Weights;
    morph.width = 2;
    morph.weightOffset = 0;
    morph.times = {0, 1};
    morph.values = {0, 0, 1, 0.5f};
    m.clips.push_back(kinema::Clip::create("wave", {move, morph}).value());
    m.scenes.push_back({"scene", {0}});
    m.defaultScene = 0;
    return m;
}

Wheres wheres(const Model& m) {
    Wheres w;
    for (const auto& f : kinema::findModelFaults(m)) {
        w.push_back(f.where);
        EXPECT_FALSE(f.what.empty()) << f.where;
    }
    return w;
}

TEST(ModelFaults, ConsistentModelHasNoFaults) { EXPECT_EQ(wheres(validModel()), Wheres{}); }

TEST(ModelFaults, NodeMapOfTheWrongSize) {
    Model m = validModel();
    m.nodeOfJoint.pop_back();
    EXPECT_EQ(wheres(m), Wheres{"nodeOfJoint"});
}

TEST(ModelFaults, NodeMapsThatAreNotInverse) {
    Model m = validModel();
    m.nodeOfJoint = {0, 2, 1};  // jointOfNode stays the identity
    EXPECT_EQ(wheres(m), (Wheres{"nodeOfJoint/1", "nodeOfJoint/2"}));
}

TEST(ModelFaults, NodeMapPastTheNodeCount) {
    Model m = validModel();
    m.nodeOfJoint[2] = 7;
    EXPECT_EQ(wheres(m), Wheres{"nodeOfJoint/2"});
}

TEST(ModelFaults, WeightOffsetTableOfTheWrongSize) {
    Model m = validModel();
    m.weightOffsetOfJoint.push_back(-1);
    EXPECT_EQ(wheres(m), Wheres{"weightOffsetOfJoint"});
}

TEST(ModelFaults, ClipTargetOutsideTheSkeleton) {
    Model m = validModel();
    auto tracks = std::vector<kinema::Track>(m.clips[0].tracks().begin(), m.clips[0].tracks().end());
    tracks[0].target = 3;
    m.clips[0] = kinema::Clip::create("wave", tracks).value();
    EXPECT_EQ(wheres(m), Wheres{"clips/0/tracks/0/target"});
}

TEST(ModelFaults, ClipWeightsPastTheWeightArray) {
    Model m = validModel();
    auto tracks = std::vector<kinema::Track>(m.clips[0].tracks().begin(), m.clips[0].tracks().end());
    tracks[1].weightOffset = 1;  // writes weights 1..3 of 2
    m.clips[0] = kinema::Clip::create("wave", tracks).value();
    EXPECT_EQ(wheres(m), Wheres{"clips/0/tracks/1/weightOffset"});
}

TEST(ModelFaults, SkinWithMissingInverseBindMatrix) {
    Model m = validModel();
    m.skins[0].inverseBindMatrices.pop_back();
    EXPECT_EQ(wheres(m), Wheres{"skins/0/inverseBindMatrices"});
}

// A matrix that is not affine, or not finite, cannot be a bind pose; the glTF import
// refuses it, and a model built or read any other way is held to the same.
TEST(ModelFaults, InverseBindMatricesMustBeFiniteAndAffine) {
    Model m = validModel();
    m.skins[0].inverseBindMatrices[0](3, 1) = -1.7e38f;
    m.skins[0].inverseBindMatrices[1].m[12] = std::numeric_limits<float>::infinity();
    EXPECT_EQ(wheres(m), (Wheres{"skins/0/inverseBindMatrices/0", "skins/0/inverseBindMatrices/1"}));
    m = validModel();
    m.skins[0].inverseBindMatrices[0](3, 3) = 1.0f + 5e-7f;  // a writer's rounding
    EXPECT_EQ(wheres(m), Wheres{});
}

TEST(ModelFaults, SkinNamingAMissingJoint) {
    Model m = validModel();
    m.skins[0].joints[1] = 3;
    EXPECT_EQ(wheres(m), Wheres{"skins/0/joints/1"});
}

TEST(ModelFaults, MeshInstanceOnAMissingJoint) {
    Model m = validModel();
    m.meshInstances[0].joint = 3;
    EXPECT_EQ(wheres(m), Wheres{"meshInstances/0/joint"});
}

TEST(ModelFaults, MeshInstanceOfAMissingMesh) {
    Model m = validModel();
    m.meshInstances[0].mesh = 1;
    EXPECT_EQ(wheres(m), Wheres{"meshInstances/0/mesh"});
}

TEST(ModelFaults, MeshInstanceWithAMissingSkin) {
    Model m = validModel();
    m.meshInstances[0].skin = 1;
    EXPECT_EQ(wheres(m), Wheres{"meshInstances/0/skin"});
}

TEST(ModelFaults, MeshInstanceMorphWeightsPastTheWeightArray) {
    Model m = validModel();
    m.meshInstances[0].weightOffset = 1;  // 2 targets from 1: weights 1..3 of 2
    EXPECT_EQ(wheres(m), Wheres{"meshInstances/0/weightOffset"});
}

TEST(ModelFaults, InfluenceArraysShorterThanVerticesTimesInfluences) {
    Model m = validModel();
    m.meshes[0].primitives[0].weights.pop_back();
    EXPECT_EQ(wheres(m), Wheres{"meshes/0/primitives/0"});
}

TEST(ModelFaults, InfluencePastTheSkinsJointList) {
    Model m = validModel();
    m.meshes[0].primitives[0].joints[3] = 2;  // the skin has joints 0 and 1
    EXPECT_EQ(wheres(m), Wheres{"meshes/0/primitives/0/joints/3"});
}

// The cases below break invariants that model.hpp documents for the parts of a
// model (morph weight layout, per-vertex arrays, indices into other tables).

TEST(ModelFaults, JointWeightOffsetPastTheWeightArray) {
    Model m = validModel();
    m.weightOffsetOfJoint[2] = 5;  // the weight array holds 2
    const Wheres w = wheres(m);
    ASSERT_EQ(w.size(), 1u) << "findModelFaults does not check weightOffsetOfJoint entries";
    EXPECT_EQ(w[0].rfind("weightOffsetOfJoint", 0), 0u) << w[0];
}

TEST(ModelFaults, PrimitiveWithADifferentMorphTargetCountThanItsMesh) {
    Model m = validModel();
    m.meshes[0].primitives[0].targets.pop_back();  // mesh.targetCount stays 2
    const Wheres w = wheres(m);
    ASSERT_EQ(w.size(), 1u) << "findModelFaults does not check primitive target counts against Mesh::targetCount";
    EXPECT_EQ(w[0].rfind("meshes/0", 0), 0u) << w[0];
}

TEST(ModelFaults, MorphTargetWithTheWrongVertexCount) {
    Model m = validModel();
    m.meshes[0].primitives[0].targets[1].positions.pop_back();  // 2 displacements for 3 vertices
    const Wheres w = wheres(m);
    ASSERT_EQ(w.size(), 1u) << "findModelFaults does not check morph target sizes against vertexCount";
    EXPECT_EQ(w[0].rfind("meshes/0/primitives/0", 0), 0u) << w[0];
}

TEST(ModelFaults, IndexPastTheVertexCount) {
    Model m = validModel();
    m.meshes[0].primitives[0].indices[2] = 3;  // 3 vertices: 0..2
    const Wheres w = wheres(m);
    ASSERT_EQ(w.size(), 1u) << "findModelFaults does not check primitive indices against vertexCount";
    EXPECT_EQ(w[0].rfind("meshes/0/primitives/0", 0), 0u) << w[0];
}

TEST(ModelFaults, PrimitiveMaterialPastTheMaterialList) {
    Model m = validModel();
    m.meshes[0].primitives[0].material = 1;  // one material
    const Wheres w = wheres(m);
    ASSERT_EQ(w.size(), 1u) << "findModelFaults does not check primitive material indices";
    EXPECT_EQ(w[0].rfind("meshes/0/primitives/0", 0), 0u) << w[0];
}

}  // namespace
