// motionLayers: absolute weights (summing to 1) become sequential override layers
// whose blend gives each clip its own share again. Checked on translations of
// constant clips, where the blend is exact: three clips at 0.5, 0.3, 0.2 must put
// a joint at 0.5 a + 0.3 b + 0.2 c, worked out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "support/batch_maker.hpp"
#include "kinema/play/motion_layers.hpp"
#include "kinema/batch/pose_batch.hpp"

namespace {

using namespace kinema;

// One joint held at translation `t` for 1 s.
Clip constantClip(const char* name, Vec3 t) {
    Track track;
    track.path = TrackPath::Translation;
    track.times = {0.0f, 1.0f};
    track.values = {t.x, t.y, t.z, t.x, t.y, t.z};
    return Clip::create(name, {track}).value();
}

Skeleton oneJoint() {
    std::vector<JointDesc> joints(1);
    joints[0].name = "root";
    return Skeleton::create(joints).value();
}

MotionSample sample(std::uint32_t slot, float weight, LoopMode mode = LoopMode::Loop) {
    MotionSample s;
    s.clipSlot = slot;
    s.weight = weight;
    s.time = 0.25;
    s.mode = mode;
    return s;
}

TEST(MotionLayers, AbsoluteWeightsBecomeSequentialLayerWeights) {
    const Clip a = constantClip("a", {1, 0, 0}), b = constantClip("b", {0, 1, 0}), c = constantClip("c", {0, 0, 1});
    const PackedClip pa(a), pb(b), pc(c);
    const std::vector<const PackedClip*> packed{&pa, &pb, &pc};
    const std::vector<MotionSample> samples{sample(0, 0.5f), sample(1, 0.3f), sample(2, 0.2f)};
    InstanceRequest in;
    ASSERT_TRUE(motionLayers(samples, packed, in));
    ASSERT_EQ(in.layerCount, 3u);
    EXPECT_EQ(in.layers[0].clip, &pa);
    EXPECT_EQ(in.layers[0].weight, 1.0f);
    EXPECT_NEAR(in.layers[1].weight, 0.375f, 1e-6f);  // 0.3 / 0.8
    EXPECT_NEAR(in.layers[2].weight, 0.2f, 1e-6f);    // 0.2 / 1.0
    EXPECT_EQ(in.layers[1].time, 0.25);

    const Skeleton skeleton = oneJoint();
    BatchOptions options;
    options.threads = 1;
    PoseBatch batch = test::makeBatch(skeleton, {}, 1, options);
    ASSERT_TRUE(batch.evaluate(std::span<const InstanceRequest>(&in, 1)).ok());
    const Transform t = batch.local(0).joint(0);
    EXPECT_NEAR(t.translation.x, 0.5f, 1e-6f);
    EXPECT_NEAR(t.translation.y, 0.3f, 1e-6f);
    EXPECT_NEAR(t.translation.z, 0.2f, 1e-6f);
}

TEST(MotionLayers, KeepsTheHeaviestWhenTooManyAndTheirOrder) {
    const Clip a = constantClip("a", {1, 0, 0});
    const PackedClip p(a);
    const std::vector<const PackedClip*> packed(6, &p);
    // Six samples: the two lightest (slots 1 and 4) are left out.
    const std::vector<MotionSample> samples{sample(0, 0.2f),  sample(1, 0.05f), sample(2, 0.25f),
                                            sample(3, 0.15f), sample(4, 0.1f),  sample(5, 0.25f)};
    InstanceRequest in;
    ASSERT_TRUE(motionLayers(samples, packed, in));
    ASSERT_EQ(in.layerCount, 4u);
    // Kept in their own order: slots 0, 2, 3, 5 with weights 0.2, 0.25, 0.15, 0.25.
    EXPECT_EQ(in.layers[0].weight, 1.0f);
    EXPECT_NEAR(in.layers[1].weight, 0.25f / 0.45f, 1e-6f);
    EXPECT_NEAR(in.layers[2].weight, 0.15f / 0.6f, 1e-6f);
    EXPECT_NEAR(in.layers[3].weight, 0.25f / 0.85f, 1e-6f);
}

TEST(MotionLayers, OneShotsAreSampledWithoutWrapping) {
    const Clip a = constantClip("a", {1, 0, 0});
    const PackedClip p(a);
    const std::vector<const PackedClip*> packed{&p};
    const std::vector<MotionSample> samples{sample(0, 1.0f, LoopMode::Clamp)};
    InstanceRequest in;
    ASSERT_TRUE(motionLayers(samples, packed, in));
    EXPECT_EQ(in.layers[0].loop, LoopMode::Clamp);
    const std::vector<MotionSample> looping{sample(0, 1.0f)};
    ASSERT_TRUE(motionLayers(looping, packed, in));
    EXPECT_EQ(in.layers[0].loop, LoopMode::Loop);
}

TEST(MotionLayers, AMissingPackedClipChangesNothing) {
    const Clip a = constantClip("a", {1, 0, 0});
    const PackedClip p(a);
    const std::vector<const PackedClip*> packed{&p, nullptr};
    InstanceRequest in;
    in.layerCount = 1;
    in.layers[0].clip = &p;
    in.layers[0].time = 7.0;
    const Status missing = motionLayers(std::vector<MotionSample>{sample(0, 0.5f), sample(1, 0.5f)}, packed, in);
    EXPECT_EQ(missing.code, StatusCode::Missing);
    EXPECT_EQ(missing.index, 1);
    EXPECT_EQ(motionLayers(std::vector<MotionSample>{sample(2, 1.0f)}, packed, in).code, StatusCode::Missing);
    EXPECT_EQ(in.layerCount, 1u);
    EXPECT_EQ(in.layers[0].time, 7.0);
}

TEST(MotionLayers, NoSamplesMeansTheRestPose) {
    InstanceRequest in;
    in.layerCount = 2;
    ASSERT_TRUE(motionLayers({}, {}, in));
    EXPECT_EQ(in.layerCount, 0u);
}

}  // namespace
