// LayerStack: per-layer speed, time, loop and weight, through a PoseBatch.
// Clips are straight lines in time (translation x = t on A, y = t / 2 on B), so the
// expected poses are worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "support/batch_maker.hpp"
#include "kinema/play/layer_stack.hpp"

namespace {

using namespace kinema;

Clip line(const char* name, float seconds, Vec3 end, std::vector<Marker> markers = {}) {
    Track t;
    t.path = TrackPath::Translation;
    t.times = {0.0f, seconds};
    t.values = {0, 0, 0, end.x, end.y, end.z};
    return Clip::create(name, {t}, std::move(markers)).value();
}

Skeleton oneJoint() {
    std::vector<JointDesc> joints(1);
    joints[0].name = "root";
    return Skeleton::create(joints).value();
}

struct Rig {
    Skeleton skeleton = oneJoint();
    Clip a = line("a", 1.0f, {1, 0, 0}, {{"step", 0.4f}});
    Clip b = line("b", 2.0f, {0, 1, 0}, {{"beat", 0.9f}});
    PackedClip pa{a}, pb{b};
    PoseBatch batch = test::makeBatch(skeleton, {}, 1, [] {
        BatchOptions o;
        o.threads = 1;
        return o;
    }());

    Transform evaluate(const LayerStack& stack) {
        InstanceRequest in;
        EXPECT_TRUE(stack.fill(in).ok());
        EXPECT_TRUE(batch.evaluate(std::span<const InstanceRequest>(&in, 1)).ok());
        return batch.local(0).joint(0);
    }
};

TEST(LayerStack, EachLayerAdvancesAtItsOwnSpeed) {
    Rig r;
    LayerStack stack;
    ASSERT_TRUE(stack.setLayer(0, r.a, r.pa));
    ASSERT_TRUE(stack.setLayer(1, r.b, r.pb, LoopMode::Loop, {0.5f}));
    ASSERT_TRUE(stack.player(1).setSpeed(2.0));
    ASSERT_TRUE(stack.update(0.25).ok());
    ASSERT_TRUE(stack.update(0.25).ok());
    InstanceRequest in;
    ASSERT_TRUE(stack.fill(in));
    ASSERT_EQ(in.layerCount, 2u);
    EXPECT_EQ(in.layers[0].time, 0.5);
    EXPECT_EQ(in.layers[1].time, 1.0);
    EXPECT_EQ(in.layers[1].weight, 0.5f);
    // A at 0.5 s: (0.5, 0, 0); B at 1 s: (0, 0.5, 0); B over A at 0.5.
    const Transform t = r.evaluate(stack);
    EXPECT_NEAR(t.translation.x, 0.25f, 1e-6f);
    EXPECT_NEAR(t.translation.y, 0.25f, 1e-6f);
}

TEST(LayerStack, LayersLoopOrHoldByTheirOwnMode) {
    Rig r;
    LayerStack stack;
    ASSERT_TRUE(stack.setLayer(0, r.a, r.pa, LoopMode::Clamp));
    ASSERT_TRUE(stack.setLayer(1, r.b, r.pb, LoopMode::Loop, {1.0f}));
    ASSERT_TRUE(stack.update(2.5).ok());
    InstanceRequest in;
    ASSERT_TRUE(stack.fill(in));
    EXPECT_EQ(in.layers[0].time, 1.0);  // held at the end, not wrapped to 0
    EXPECT_EQ(in.layers[0].loop, LoopMode::Clamp);
    EXPECT_EQ(in.layers[1].time, 0.5);  // 2.5 wraps on a 2 s loop
    stack.settings(1).weight = 0.0f;
    const Transform t = r.evaluate(stack);
    EXPECT_NEAR(t.translation.x, 1.0f, 1e-6f);
}

TEST(LayerStack, PausedAndSeekedLayersKeepTheirTime) {
    Rig r;
    LayerStack stack;
    ASSERT_TRUE(stack.setLayer(0, r.a, r.pa));
    ASSERT_TRUE(stack.setLayer(1, r.b, r.pb));
    stack.player(1).pause();
    ASSERT_TRUE(stack.player(1).seek(1.5));
    ASSERT_TRUE(stack.update(0.3).ok());
    InstanceRequest in;
    ASSERT_TRUE(stack.fill(in));
    EXPECT_NEAR(in.layers[0].time, 0.3, 1e-12);
    EXPECT_EQ(in.layers[1].time, 1.5);
}

TEST(LayerStack, MarkersOfEachLayerAreReportedByTheBatch) {
    Rig r;
    LayerStack stack;
    ASSERT_TRUE(stack.setLayer(0, r.a, r.pa));
    ASSERT_TRUE(stack.setLayer(1, r.b, r.pb));
    ASSERT_TRUE(stack.update(0.5).ok());  // A passes 0.4; B (0..0.5) not 0.9
    r.evaluate(stack);
    ASSERT_EQ(r.batch.events().size(), 1u);
    EXPECT_EQ(r.batch.events()[0].layer, 0u);
    EXPECT_EQ(r.batch.events()[0].clip, &r.pa);
    ASSERT_TRUE(stack.update(0.5).ok());  // B passes 0.9; A (0.5..1.0) nothing
    r.evaluate(stack);
    ASSERT_EQ(r.batch.events().size(), 1u);
    EXPECT_EQ(r.batch.events()[0].layer, 1u);
    stack.settings(1).announceMarkers = false;
    ASSERT_TRUE(stack.update(2.0).ok());  // both lap: only A is heard
    r.evaluate(stack);
    ASSERT_EQ(r.batch.events().size(), 1u);
    EXPECT_EQ(r.batch.events()[0].clip, &r.pa);
}

TEST(LayerStack, RefusesGapsMismatchedClipsAndBadTime) {
    Rig r;
    LayerStack stack;
    const Status gap = stack.setLayer(1, r.a, r.pa);  // no layer 0 yet
    EXPECT_EQ(gap.code, StatusCode::OutOfRange);
    EXPECT_EQ(gap.layer, 1);
    EXPECT_EQ(stack.setLayer(0, r.a, r.pb).code, StatusCode::ForeignInput);  // packed from another clip
    ASSERT_TRUE(stack.setLayer(0, r.a, r.pa));
    EXPECT_EQ(stack.setLayer(kMaxLayers, r.a, r.pa).code, StatusCode::OutOfRange);
    EXPECT_EQ(stack.size(), 1u);
    ASSERT_TRUE(stack.update(0.2).ok());
    EXPECT_FALSE(stack.update(-1.0).ok());
    EXPECT_FALSE(stack.update(std::nan("")).ok());
    EXPECT_NEAR(stack.player(0).clipTime(), 0.2, 1e-12);
    stack.pop();
    EXPECT_EQ(stack.size(), 0u);
    InstanceRequest in;
    ASSERT_TRUE(stack.fill(in));
    EXPECT_EQ(in.layerCount, 0u);
}

// A weight outside [0, 1] is refused where it enters, not clamped: by setLayer, and
// by fill() when it was changed through settings() (the request is left as it was).
// A layer whose speed overflows the step refuses it: the update fails naming the
// layer, and no layer moves (the stack stays as the last update left it, rather than
// some layers a step further on).
TEST(LayerStack, AStepOneLayerRefusesChangesNoLayer) {
    Rig r;
    LayerStack stack;
    ASSERT_TRUE(stack.setLayer(0, r.a, r.pa));
    ASSERT_TRUE(stack.setLayer(1, r.b, r.pb, LoopMode::Loop, {0.5f}));
    ASSERT_TRUE(stack.update(0.6).ok());
    ASSERT_TRUE(stack.player(1).setSpeed(1e300).ok());
    const Status refused = stack.update(1e10);
    EXPECT_EQ(refused.code, StatusCode::OutOfRange);
    EXPECT_EQ(refused.layer, 1);
    InstanceRequest in;
    ASSERT_TRUE(stack.fill(in));
    EXPECT_EQ(in.layers[0].time, 0.6);
    EXPECT_EQ(in.layers[1].time, 0.6);
    EXPECT_EQ(in.layers[0].step.travel, 0.6);  // the last step that was taken
    EXPECT_EQ(in.layers[1].step.travel, 0.6);
    ASSERT_TRUE(stack.player(1).setSpeed(1.0).ok());
    ASSERT_TRUE(stack.update(0.1).ok());
    ASSERT_TRUE(stack.fill(in));
    EXPECT_NEAR(in.layers[0].time, 0.7, 1e-12);
    EXPECT_NEAR(in.layers[1].step.travel, 0.1, 1e-12);
}

TEST(LayerStack, RefusesWeightsOutsideTheUnitInterval) {
    Rig r;
    LayerStack stack;
    ASSERT_TRUE(stack.setLayer(0, r.a, r.pa));
    EXPECT_EQ(stack.setLayer(1, r.b, r.pb, LoopMode::Loop, {1.5f}).code, StatusCode::OutOfRange);
    EXPECT_EQ(stack.setLayer(1, r.b, r.pb, LoopMode::Loop, {std::nanf("")}).code, StatusCode::NotFinite);
    EXPECT_EQ(stack.size(), 1u);
    ASSERT_TRUE(stack.setLayer(1, r.b, r.pb, LoopMode::Loop, {0.5f}));
    InstanceRequest in;
    in.layerCount = 3;
    stack.settings(1).weight = -0.25f;
    const Status bad = stack.fill(in);
    EXPECT_EQ(bad.code, StatusCode::OutOfRange);
    EXPECT_EQ(bad.layer, 1);
    EXPECT_EQ(in.layerCount, 3u);
    stack.settings(1).weight = 1.0f;
    ASSERT_TRUE(stack.fill(in));
    EXPECT_EQ(in.layerCount, 2u);
    EXPECT_EQ(in.layers[1].weight, 1.0f);
}

}  // namespace
