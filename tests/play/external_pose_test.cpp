// External pose blend: the weight ramp worked out by hand (a 0.2 s ramp is
// half way at 0.1 s), clamping, stop from part way, cuts, elapsed-time validation
// that changes nothing; the local TRS blend at weights 0, 1/2 and 1 against
// hand-computed values; and the hand-off helpers between model space and the
// local pose.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "kinema/asset/skeleton.hpp"
#include "kinema/math/quat.hpp"
#include "kinema/math/transform.hpp"
#include "kinema/play/external_pose.hpp"
#include "kinema/runtime/joint_mask.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "kinema/runtime/soa_pose.hpp"

namespace {

using namespace kinema;

const float kH = std::sqrt(0.5f);
const Quat kYaw90{0.0f, kH, 0.0f, kH};   // x -> -z, z -> x
const Quat kRoll90{0.0f, 0.0f, kH, kH};  // x -> y, y -> -x
const double kInf = std::numeric_limits<double>::infinity();

TEST(ExternalPoseRamp, StartsAtZeroAndInactive) {
    const ExternalPoseBlend b;
    EXPECT_EQ(b.weight(), 0.0f);
    EXPECT_EQ(b.target(), 0.0f);
    EXPECT_FALSE(b.active());
    EXPECT_FALSE(b.ramping());
}

TEST(ExternalPoseRamp, AFifthOfASecondRampIsHalfWayAtATenth) {
    ExternalPoseBlend b;
    b.start(0.2);
    EXPECT_TRUE(b.ramping());
    EXPECT_EQ(b.weight(), 0.0f);  // nothing moves before time passes
    ASSERT_TRUE(b.update(0.1).ok());
    EXPECT_FLOAT_EQ(b.weight(), 0.5f);
    EXPECT_TRUE(b.active());
    ASSERT_TRUE(b.update(0.05).ok());
    EXPECT_FLOAT_EQ(b.weight(), 0.75f);
    ASSERT_TRUE(b.update(0.05).ok());
    EXPECT_FLOAT_EQ(b.weight(), 1.0f);
    EXPECT_FALSE(b.ramping());
}

// Ten steps of 0.1 s end a 1 s ramp (they sum to 0.9999999999999999): the weight is
// its target and the ramp over on the tenth update, up and down.
TEST(ExternalPoseRamp, StepsThatAddUpToTheRampEndIt) {
    ExternalPoseBlend b;
    b.start(1.0);
    for (int i = 0; i < 10; ++i) {
        EXPECT_TRUE(b.ramping()) << i;
        ASSERT_TRUE(b.update(0.1).ok());
    }
    EXPECT_FALSE(b.ramping());
    EXPECT_EQ(b.weight(), 1.0f);
    b.stop(1.0);
    for (int i = 0; i < 10; ++i) ASSERT_TRUE(b.update(0.1).ok());
    EXPECT_FALSE(b.ramping());
    EXPECT_FALSE(b.active());
}

TEST(ExternalPoseRamp, ClampedAtOneAndAtZero) {
    ExternalPoseBlend b;
    b.start(0.2);
    ASSERT_TRUE(b.update(5.0).ok());
    EXPECT_EQ(b.weight(), 1.0f);
    ASSERT_TRUE(b.update(1.0).ok());
    EXPECT_EQ(b.weight(), 1.0f);
    b.stop(0.4);
    ASSERT_TRUE(b.update(0.1).ok());
    EXPECT_FLOAT_EQ(b.weight(), 0.75f);  // 0.1 / 0.4 of the way back
    ASSERT_TRUE(b.update(10.0).ok());
    EXPECT_EQ(b.weight(), 0.0f);
    EXPECT_FALSE(b.active());
}

TEST(ExternalPoseRamp, StopPartWayComesBackFromWhereItIsWithoutAJump) {
    ExternalPoseBlend b;
    b.start(1.0);
    ASSERT_TRUE(b.update(0.4).ok());
    EXPECT_FLOAT_EQ(b.weight(), 0.4f);
    b.stop(0.2);  // 5 per second down from 0.4
    EXPECT_FLOAT_EQ(b.weight(), 0.4f);
    ASSERT_TRUE(b.update(0.05).ok());
    EXPECT_FLOAT_EQ(b.weight(), 0.15f);
    ASSERT_TRUE(b.update(0.05).ok());
    EXPECT_EQ(b.weight(), 0.0f);
}

TEST(ExternalPoseRamp, ZeroOrNonFiniteRampIsACut) {
    for (const double seconds : {0.0, -1.0, std::nan(""), kInf}) {
        ExternalPoseBlend b;
        b.start(seconds);
        EXPECT_EQ(b.weight(), 1.0f) << seconds;
        b.stop(seconds);
        EXPECT_EQ(b.weight(), 0.0f) << seconds;
    }
}

TEST(ExternalPoseRamp, BadElapsedTimeChangesNothing) {
    ExternalPoseBlend b;
    b.start(0.2);
    ASSERT_TRUE(b.update(0.1).ok());
    for (const double bad : {-0.01, std::nan(""), kInf, -kInf}) {
        const Status refused = b.update(bad);
        EXPECT_EQ(refused.code, std::isfinite(bad) ? StatusCode::OutOfRange : StatusCode::NotFinite)
            << refused.message();
        EXPECT_FLOAT_EQ(b.weight(), 0.5f);
        EXPECT_EQ(b.target(), 1.0f);
    }
    ASSERT_TRUE(b.update(0.05).ok());  // the ramp goes on from exactly where it was
    EXPECT_FLOAT_EQ(b.weight(), 0.75f);
}

// Two joints and one morph weight. Joint 0: animated at rest, external moved to
// (2, 0, 0), rolled 90 degrees, scaled (3, 1, 1). Joint 1: animated at (0, 1, 0),
// external at (0, 3, 0). Morph weight: animated 0.3, external 0.9.
struct Poses {
    SoaPose animated{2, 1}, external{2, 1}, out{2, 1};
    Poses() {
        animated.setJoint(1, {{0.0f, 1.0f, 0.0f}, {}, {1.0f, 1.0f, 1.0f}});
        animated.weights()[0] = 0.3f;
        external.setJoint(0, {{2.0f, 0.0f, 0.0f}, kRoll90, {3.0f, 1.0f, 1.0f}});
        external.setJoint(1, {{0.0f, 3.0f, 0.0f}, {}, {1.0f, 1.0f, 1.0f}});
        external.weights()[0] = 0.9f;
    }
};

void expectTransform(const Transform& a, const Transform& b, const char* what) {
    EXPECT_NEAR(a.translation.x, b.translation.x, 1e-6f) << what;
    EXPECT_NEAR(a.translation.y, b.translation.y, 1e-6f) << what;
    EXPECT_NEAR(a.translation.z, b.translation.z, 1e-6f) << what;
    EXPECT_NEAR(a.rotation.x, b.rotation.x, 1e-6f) << what;
    EXPECT_NEAR(a.rotation.y, b.rotation.y, 1e-6f) << what;
    EXPECT_NEAR(a.rotation.z, b.rotation.z, 1e-6f) << what;
    EXPECT_NEAR(a.rotation.w, b.rotation.w, 1e-6f) << what;
    EXPECT_NEAR(a.scale.x, b.scale.x, 1e-6f) << what;
    EXPECT_NEAR(a.scale.y, b.scale.y, 1e-6f) << what;
    EXPECT_NEAR(a.scale.z, b.scale.z, 1e-6f) << what;
}

TEST(ExternalPoseBlendResult, WeightZeroIsTheAnimatedPose) {
    Poses p;
    ASSERT_TRUE(blendExternalPose(PoseKernels{}, p.animated, p.external, 0.0f, nullptr, p.out));
    EXPECT_EQ(p.out.joint(0), p.animated.joint(0));
    EXPECT_EQ(p.out.joint(1), p.animated.joint(1));
    EXPECT_EQ(p.out.weights()[0], 0.3f);
}

TEST(ExternalPoseBlendResult, WeightOneIsTheExternalJointsWithTheAnimatedMorphWeights) {
    Poses p;
    ASSERT_TRUE(blendExternalPose(PoseKernels{}, p.animated, p.external, 1.0f, nullptr, p.out));
    EXPECT_EQ(p.out.joint(0), p.external.joint(0));
    EXPECT_EQ(p.out.joint(1), p.external.joint(1));
    EXPECT_EQ(p.out.weights()[0], 0.3f);
}

// A rotation not of unit length (length 2, or 1e-30, whose square is no float) is
// taken at unit length, as a weight just below 1 takes it: a half turn about z.
TEST(ExternalPoseBlendResult, RotationsNotOfUnitLengthAreTakenAtUnitLengthAtWeightOne) {
    for (const float length : {2.0f, 1e-30f, 1e30f}) {
        Poses p;
        p.external.setJoint(1, {{0.0f, 3.0f, 0.0f}, {0.0f, 0.0f, length, 0.0f}, {1.0f, 1.0f, 1.0f}});
        ASSERT_TRUE(blendExternalPose(PoseKernels{}, p.animated, p.external, 1.0f, nullptr, p.out));
        const Quat q = p.out.joint(1).rotation;
        EXPECT_EQ(q.x, 0.0f) << length;
        EXPECT_EQ(q.y, 0.0f) << length;
        EXPECT_EQ(q.z, 1.0f) << length;
        EXPECT_EQ(q.w, 0.0f) << length;
        EXPECT_EQ(p.out.joint(0), p.external.joint(0));  // unit already: bit for bit
    }
}

TEST(ExternalPoseBlendResult, WeightHalfIsTheLocalMidpoint) {
    // Translation (1, 0, 0) and (0, 2, 0), scale (2, 1, 1); the rotation half way
    // from identity to a 90 degree roll is a 45 degree roll, (0, 0, sin 22.5, cos 22.5)
    // (nlerp and slerp agree at the midpoint). On every SIMD level.
    const float s = std::sin(0.125f * static_cast<float>(M_PI)), c = std::cos(0.125f * static_cast<float>(M_PI));
    for (const SimdLevel level : {SimdLevel::Portable, SimdLevel::Sse42, SimdLevel::Avx2, SimdLevel::Avx512}) {
        if (!isSupported(level)) continue;
        Poses p;
        ExternalPoseBlend ramp;
        ramp.start(0.2);
        ASSERT_TRUE(ramp.update(0.1).ok());
        ASSERT_TRUE(ramp.apply(PoseKernels(level), p.animated, p.external, p.out));
        expectTransform(p.out.joint(0), {{1.0f, 0.0f, 0.0f}, {0.0f, 0.0f, s, c}, {2.0f, 1.0f, 1.0f}}, "joint 0");
        expectTransform(p.out.joint(1), {{0.0f, 2.0f, 0.0f}, {}, {1.0f, 1.0f, 1.0f}}, "joint 1");
        EXPECT_EQ(p.out.weights()[0], 0.3f);
    }
}

TEST(ExternalPoseBlendResult, AMaskLimitsTheBlendPerJoint) {
    // Joint 1 masked out keeps its animated (0, 1, 0); joint 0 at mask 1/2 and
    // weight 1 is at the midpoint (1, 0, 0).
    Poses p;
    JointMask mask(2);
    ASSERT_TRUE(mask.set(0, 0.5f));
    ASSERT_TRUE(blendExternalPose(PoseKernels{}, p.animated, p.external, 1.0f, &mask, p.out));
    EXPECT_NEAR(p.out.joint(0).translation.x, 1.0f, 1e-6f);
    EXPECT_EQ(p.out.joint(1).translation.y, 1.0f);
    EXPECT_EQ(p.out.weights()[0], 0.3f);
}

TEST(ExternalPoseBlendResult, PosesThatDoNotFitAreRefusedWithNothingWritten) {
    Poses p;
    SoaPose threeJoints(3, 1), noWeights(2, 0);
    const PoseKernels k;
    const Transform before = p.out.joint(0);
    EXPECT_FALSE(blendExternalPose(k, p.animated, threeJoints, 0.5f, nullptr, p.out));
    EXPECT_FALSE(blendExternalPose(k, p.animated, noWeights, 0.5f, nullptr, p.out));
    EXPECT_FALSE(blendExternalPose(k, p.animated, p.external, 1.5f, nullptr, p.out));
    EXPECT_FALSE(blendExternalPose(k, p.animated, p.external, std::nanf(""), nullptr, p.out));
    EXPECT_FALSE(blendExternalPose(k, p.animated, p.external, 0.5f, nullptr, p.animated));
    JointMask wrongMask(5);
    EXPECT_FALSE(blendExternalPose(k, p.animated, p.external, 0.5f, &wrongMask, p.out));
    EXPECT_EQ(p.out.joint(0), before);
    EXPECT_EQ(p.out.weights()[0], 0.0f);
    EXPECT_EQ(p.animated.joint(1).translation.y, 1.0f);
}

// Hand-off: hips at (1, 0, 0) yawed 90 degrees; a child 1 up in the hips' frame,
// rolled 90 degrees and scaled 2. In model space the child sits at (1, 1, 0)
// (the yaw leaves the y axis alone) with rotation yaw * roll and scale 2.
TEST(ExternalPoseHandOff, ModelTransformsAreTheComposedTrsPerJoint) {
    const std::vector<std::int32_t> parents{kNoParent, 0};
    const SoaPose local(std::vector<Transform>{{{1.0f, 0.0f, 0.0f}, kYaw90, {1.0f, 1.0f, 1.0f}},
                                               {{0.0f, 1.0f, 0.0f}, kRoll90, {2.0f, 2.0f, 2.0f}}},
                        {});
    std::vector<Mat4> model(2);
    ASSERT_TRUE(PoseKernels{}.localToModel(parents, local, model));
    std::vector<Transform> bodies(2);
    ASSERT_TRUE(modelTransforms(model, bodies));
    // yaw * roll = (0, h, 0, h) * (0, 0, h, h) = (1/2, 1/2, 1/2, 1/2).
    expectTransform(bodies[0], {{1.0f, 0.0f, 0.0f}, kYaw90, {1.0f, 1.0f, 1.0f}}, "hips");
    expectTransform(bodies[1], {{1.0f, 1.0f, 0.0f}, {0.5f, 0.5f, 0.5f, 0.5f}, {2.0f, 2.0f, 2.0f}}, "child");
    std::vector<Transform> wrongSize(3);
    EXPECT_FALSE(modelTransforms(model, wrongSize));
}

TEST(ExternalPoseHandOff, LocalFromModelUndoesComposition) {
    // Bodies placed in model space as above come back as the local pose: the child
    // at (0, 1, 0) in the hips' frame, rolled 90 degrees, scale 2.
    const std::vector<std::int32_t> parents{kNoParent, 0};
    const std::vector<Mat4> model{toMatrix({{1.0f, 0.0f, 0.0f}, kYaw90, {1.0f, 1.0f, 1.0f}}),
                                  toMatrix({{1.0f, 1.0f, 0.0f}, {0.5f, 0.5f, 0.5f, 0.5f}, {2.0f, 2.0f, 2.0f}})};
    SoaPose ragdoll(2, 1);
    ragdoll.weights()[0] = 0.25f;
    ASSERT_TRUE(localFromModel(parents, model, ragdoll));
    expectTransform(ragdoll.joint(0), {{1.0f, 0.0f, 0.0f}, kYaw90, {1.0f, 1.0f, 1.0f}}, "hips");
    expectTransform(ragdoll.joint(1), {{0.0f, 1.0f, 0.0f}, kRoll90, {2.0f, 2.0f, 2.0f}}, "child");
    EXPECT_EQ(ragdoll.weights()[0], 0.25f);
    SoaPose three(3, 0);
    EXPECT_FALSE(localFromModel(parents, model, three));
}

}  // namespace
