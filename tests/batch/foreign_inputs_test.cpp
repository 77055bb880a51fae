// A clip, skin or mask made for one skeleton is refused on another, with a message,
// instead of evaluating to garbage; bindClip retargets a clip by joint name.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "kinema/asset/clip.hpp"
#include "kinema/asset/skeleton.hpp"
#include "kinema/batch/pose_batch.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/runtime/instance.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/sample.hpp"
#include "support/assets.hpp"
#include "support/batch_maker.hpp"

namespace kinema {
namespace {

Model load(const std::filesystem::path& path) {
    auto model = importGltfFile(path);
    if (!model) throw std::runtime_error(model.message());
    return std::move(model).value();
}

InstanceRequest play(const PackedClip& clip, double time) {
    InstanceRequest r;
    r.layerCount = 1;
    r.layers[0] = {&clip, time};
    return r;
}

TEST(ForeignInputs, AClipOfAnotherModelIsRefusedByTheEvaluatorAndTheBatch) {
    KINEMA_REQUIRE_ASSET(cesium, "CesiumMan/CesiumMan.glb");
    KINEMA_REQUIRE_ASSET(figure, "RiggedFigure/RiggedFigure.glb");
    const Model man = load(cesium), fig = load(figure);
    ASSERT_FALSE(man.clips.empty());
    ASSERT_NE(man.skeleton.fingerprint(), fig.skeleton.fingerprint());
    EXPECT_EQ(man.clips[0].skeletonFingerprint(), man.skeleton.fingerprint());
    const PackedClip walk(man.clips[0]);

    PoseBatch batch = test::makeBatch(fig.skeleton, fig.restWeights, 2);
    const std::vector<InstanceRequest> requests(2, play(walk, 0.5));
    const Status refused = batch.evaluate(requests);
    EXPECT_EQ(refused.code, StatusCode::ForeignInput);
    EXPECT_EQ(refused.message(), "instance 0, layer 0: clip was made for another skeleton (bind it with bindClip)");

    // The same clip on its own model is fine.
    PoseBatch own = test::makeBatch(man.skeleton, man.restWeights, 2);
    EXPECT_TRUE(own.evaluate(requests).ok());

    // RiggedFigure is CesiumMan's rig with most joints renamed: binding by name keeps
    // the 9 joints both call the same (the legs and torso_joint_3, 27 tracks) and
    // names each of the 30 tracks it leaves out.
    const Result<Clip> bound = bindClip(man.clips[0], fig.skeleton);
    ASSERT_TRUE(bound.ok()) << bound.message();
    EXPECT_EQ(bound->tracks().size(), 27u);
    EXPECT_EQ(bound.warnings().size(), 30u);
    EXPECT_EQ(describe(bound.warnings()[0]),
              "tracks/0: joint \"Skeleton_torso_joint_1\" is not in the skeleton; the track is left out");
    const PackedClip retargeted(*bound);
    PoseBatch onFigure = test::makeBatch(fig.skeleton, fig.restWeights, 2);
    ASSERT_TRUE(onFigure.evaluate(std::vector<InstanceRequest>(2, play(retargeted, 0.5))).ok());
    // Each kept joint shows the source clip's value at that time: sampled on
    // CesiumMan's own skeleton by the scalar reference path, compared by name.
    std::vector<Transform> local(man.skeleton.restPose().begin(), man.skeleton.restPose().end());
    std::vector<float> weights(man.restWeights);
    ASSERT_TRUE(reference::sample(man.clips[0], 0.5, local, weights));
    for (const char* name : {"leg_joint_L_2", "leg_joint_R_5", "torso_joint_3"}) {
        const Transform want = local[*man.skeleton.findJoint(name)];
        const Transform got = onFigure.local(1).joint(*fig.skeleton.findJoint(name));
        EXPECT_NEAR(got.rotation.x, want.rotation.x, 1e-6f) << name;
        EXPECT_NEAR(got.rotation.w, want.rotation.w, 1e-6f) << name;
        EXPECT_NEAR(got.translation.y, want.translation.y, 1e-6f) << name;
    }
}

TEST(ForeignInputs, ASkinOfAnotherModelIsRefusedAtCreation) {
    KINEMA_REQUIRE_ASSET(cesium, "CesiumMan/CesiumMan.glb");
    KINEMA_REQUIRE_ASSET(figure, "RiggedFigure/RiggedFigure.glb");
    const Model man = load(cesium), fig = load(figure);
    ASSERT_FALSE(man.skins.empty());
    BatchOptions options;
    options.skins = man.skins;
    const Result<PoseBatch> refused = PoseBatch::create(fig.skeleton, fig.restWeights, 1, options);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.message().find("options/skins/0: skin"), std::string::npos) << refused.message();
    EXPECT_NE(refused.message().find("belongs to another skeleton"), std::string::npos) << refused.message();
    EXPECT_TRUE(PoseBatch::create(man.skeleton, man.restWeights, 1, options).ok());
}

Skeleton chain(std::vector<std::string> names) {
    std::vector<JointDesc> joints;
    for (std::size_t i = 0; i < names.size(); ++i) {
        JointDesc j;
        j.name = names[i];
        j.parent = i == 0 ? kNoParent : 0;
        j.rest.translation = {0.0f, static_cast<float>(i), 0.0f};
        joints.push_back(j);
    }
    return Skeleton::create(joints).value();
}

// Joint `target` slides along x from 0 to `distance` over one second.
Track slide(std::uint32_t target, float distance) {
    Track t;
    t.target = target;
    t.times = {0.0f, 1.0f};
    t.values = {0, 0, 0, distance, 0, 0};
    return t;
}

TEST(ForeignInputs, BindClipRetargetsByNameAndReportsMissingJoints) {
    const Skeleton authored = chain({"root", "arm", "leg", "tail"});
    const auto names =
        std::make_shared<const std::vector<std::string>>(authored.names().begin(), authored.names().end());
    const Clip clip =
        Clip::create("wave", {slide(1, 2.0f), slide(2, 4.0f), slide(3, 8.0f)}, {{"hit", 0.5f}}, names).value();
    // Another skeleton: the same joints in another order, no tail.
    const Skeleton other = chain({"root", "leg", "arm"});
    const PackedClip unbound(clip);
    auto evaluator = InstanceEvaluator::create(other, {});
    ASSERT_TRUE(evaluator.ok());
    EXPECT_EQ(evaluator->check(play(unbound, 0.5)).code, StatusCode::ForeignInput);

    const Result<Clip> bound = bindClip(clip, other);
    ASSERT_TRUE(bound.ok()) << bound.message();
    ASSERT_EQ(bound.warnings().size(), 1u);
    EXPECT_EQ(describe(bound.warnings()[0]), "tracks/2: joint \"tail\" is not in the skeleton; the track is left out");
    EXPECT_EQ(bound->skeletonFingerprint(), other.fingerprint());
    ASSERT_EQ(bound->markers().size(), 1u);
    const PackedClip packed(*bound);
    const InstanceRequest request = play(packed, 0.5);
    ASSERT_TRUE(evaluator->check(request).ok());
    InstanceState state;
    WorkPoses work = evaluator->makeWorkPoses();
    std::vector<Mat4> model(other.jointCount());
    ASSERT_TRUE(evaluator->evaluate(request, state, work, model, {}).ok());
    // At 0.5 s: arm (now joint 2) at x = 1, leg (now joint 1) at x = 2, from the
    // linear keys; the root keeps its rest pose.
    EXPECT_FLOAT_EQ(work.pose.joint(2).translation.x, 1.0f);
    EXPECT_FLOAT_EQ(work.pose.joint(1).translation.x, 2.0f);
    EXPECT_FLOAT_EQ(work.pose.joint(0).translation.x, 0.0f);
    EXPECT_FLOAT_EQ(work.pose.joint(1).translation.y, 0.0f);  // the track's value, not the rest

    // A clip without names has nothing to bind by; one whose joints are all missing is refused.
    const Clip unnamed = Clip::create("plain", {slide(1, 1.0f)}).value();
    EXPECT_EQ(unnamed.skeletonFingerprint(), 0u);
    EXPECT_FALSE(bindClip(unnamed, other).ok());
    EXPECT_TRUE(evaluator->check(play(PackedClip(unnamed), 0.5)).ok());  // by index, as before
    const Skeleton stranger = chain({"a", "b"});
    const Result<Clip> none = bindClip(clip, stranger);
    ASSERT_FALSE(none.ok());
    EXPECT_EQ(none.message(),
              "jointNames: clip \"wave\" animates none of the skeleton's joints: it was made for another skeleton");
}

TEST(ForeignInputs, AMaskOfAnotherSkeletonIsRefusedEvenWithTheSameJointCount) {
    const Skeleton a = chain({"root", "arm", "leg"});
    const Skeleton b = chain({"root", "wing", "fin"});
    const Clip clip = Clip::create("plain", {slide(1, 1.0f)}).value();
    const PackedClip packed(clip);
    auto evaluator = InstanceEvaluator::create(a, {});
    ASSERT_TRUE(evaluator.ok());
    JointMask own(a), foreign(b), anonymous(std::size_t{3});
    for (JointMask* m : {&own, &foreign, &anonymous}) ASSERT_TRUE(m->setAll(1.0f));
    InstanceRequest r = play(packed, 0.2);
    r.layerCount = 2;
    r.layers[1] = {&packed, 0.4, 0.5f};
    r.layers[1].mask = &own;
    EXPECT_TRUE(evaluator->check(r).ok());
    r.layers[1].mask = &anonymous;
    EXPECT_TRUE(evaluator->check(r).ok());
    r.layers[1].mask = &foreign;
    const Status refused = evaluator->check(r);
    EXPECT_EQ(refused.code, StatusCode::ForeignInput);
    EXPECT_EQ(refused.message(), "layer 1: layer mask was made for another skeleton");
}

}  // namespace
}  // namespace kinema
