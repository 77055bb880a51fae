// User curves on the evaluation seam: blended across override and additive
// layers as the pose is, a missing curve counting as 0, and a clip held open by its
// length (pose held past the last key, loop wrapping at the length, markers past the
// keys swept). Expected values are worked out by hand in each test.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kinema/batch/pose_batch.hpp"
#include "kinema/runtime/instance.hpp"

namespace {

using namespace kinema;

Skeleton oneJoint() { return Skeleton::create({JointDesc{"root", kNoParent, {}}}).value(); }

// Joint 0 moves x from 0 to 1 over [0, 1] s.
Clip line(std::vector<CurveTrack> curves, std::vector<Marker> markers = {}) {
    Track t;
    t.path = TrackPath::Translation;
    t.times = {0.0f, 1.0f};
    t.values = {0, 0, 0, 1, 0, 0};
    return Clip::create("line", {t}, std::move(markers)).value().withCurves(std::move(curves)).value();
}

struct Evaluation {
    InstanceEvaluator evaluator;
    InstanceState state;
    WorkPoses work;
    std::vector<Mat4> model;
};

Evaluation evaluationWith(std::span<const std::string> curves) {
    EvaluatorOptions options;
    options.curves = curves;
    auto made = InstanceEvaluator::create(oneJoint(), {}, options);
    EXPECT_TRUE(made.ok()) << made.message();
    Evaluation e{std::move(made).value(), {}, {}, std::vector<Mat4>(1)};
    e.work = e.evaluator.makeWorkPoses();
    return e;
}

TEST(CurveBlend, LayersMoveEachCurveAsTheyMoveThePose) {
    const std::vector<std::string> names{"a", "b", "c"};
    Evaluation e = evaluationWith(names);
    const PackedClip first(line({{"a", {0.0f, 1.0f}, {0.0f, 1.0f}}, {"b", {0.0f}, {2.0f}}}));
    const PackedClip second(line({{"a", {0.0f}, {4.0f}}, {"unasked", {0.0f}, {9.0f}}}));
    InstanceRequest request;
    request.layerCount = 2;
    request.layers[0].clip = &first;
    request.layers[0].time = 0.25;
    request.layers[1].clip = &second;
    request.layers[1].weight = 0.5f;
    ASSERT_TRUE(e.evaluator.check(request).ok());
    ASSERT_TRUE(e.evaluator.evaluate(request, e.state, e.work, e.model, {}).ok());
    auto curves = e.state.curves();
    ASSERT_EQ(curves.size(), 3u);
    EXPECT_FLOAT_EQ(curves[0], 0.25f + 0.5f * (4.0f - 0.25f));  // 2.125
    EXPECT_FLOAT_EQ(curves[1], 2.0f + 0.5f * (0.0f - 2.0f));    // the second clip lacks b: toward 0
    EXPECT_EQ(curves[2], 0.0f);                                 // no clip has c

    // An additive layer adds weight x value.
    request.layerCount = 3;
    request.layers[2].clip = &second;
    request.layers[2].weight = 0.5f;
    request.layers[2].mode = LayerMode::Additive;
    ASSERT_TRUE(e.evaluator.evaluate(request, e.state, e.work, e.model, {}).ok());
    EXPECT_FLOAT_EQ(e.state.curves()[0], 2.125f + 2.0f);

    // A layer switching clips is mapped again.
    request.layerCount = 1;
    request.layers[0].clip = &second;
    ASSERT_TRUE(e.evaluator.evaluate(request, e.state, e.work, e.model, {}).ok());
    EXPECT_EQ(e.state.curves()[0], 4.0f);
    EXPECT_EQ(e.state.curves()[1], 0.0f);
}

TEST(CurveBlend, AClipReplacedAtTheSameAddressIsMappedByItsOwnNames) {
    const std::vector<std::string> names{"ik", "blink"};
    Evaluation e = evaluationWith(names);
    PackedClip slot(line({{"ik", {0.0f}, {1.0f}}, {"blink", {0.0f}, {7.0f}}}));
    InstanceRequest request;
    request.layerCount = 1;
    request.layers[0].clip = &slot;
    ASSERT_TRUE(e.evaluator.evaluate(request, e.state, e.work, e.model, {}).ok());
    EXPECT_EQ(e.state.curves()[0], 1.0f);
    EXPECT_EQ(e.state.curves()[1], 7.0f);
    // As many curves, other names in another order, at the same address.
    slot = PackedClip(line({{"blink", {0.0f}, {3.0f}}, {"ik", {0.0f}, {5.0f}}}));
    ASSERT_TRUE(e.evaluator.evaluate(request, e.state, e.work, e.model, {}).ok());
    EXPECT_EQ(e.state.curves()[0], 5.0f);
    EXPECT_EQ(e.state.curves()[1], 3.0f);
}

TEST(CurveBlend, AStateMovedFromReportsNothingAndEvaluatesAfresh) {
    const std::vector<std::string> names{"a"};
    Evaluation e = evaluationWith(names);
    const PackedClip clip(line({{"a", {0.0f, 1.0f}, {0.0f, 1.0f}}}, {{"half", 0.5f}}));
    InstanceRequest request;
    request.layerCount = 1;
    request.layers[0].clip = &clip;
    request.layers[0].time = 0.75;
    request.layers[0].sweep = true;
    request.layers[0].step = {0.25, 0.75, 0.5};
    ASSERT_TRUE(e.evaluator.evaluate(request, e.state, e.work, e.model, {}).ok());
    ASSERT_EQ(e.state.events().size(), 1u);
    InstanceState moved = std::move(e.state);
    EXPECT_EQ(moved.events().size(), 1u);
    EXPECT_FLOAT_EQ(moved.curves()[0], 0.75f);
    EXPECT_TRUE(e.state.events().empty());
    EXPECT_TRUE(e.state.curves().empty());
    EXPECT_TRUE(e.state.ikOutcomes().empty());
    // The state moved from evaluates as a new one: x = 0.5 at 0.5 s.
    request.layers[0].time = 0.5;
    request.layers[0].step = {0.25, 0.5, 0.25};
    ASSERT_TRUE(e.evaluator.evaluate(request, e.state, e.work, e.model, {}).ok());
    EXPECT_FLOAT_EQ(e.model[0].m[12], 0.5f);
    EXPECT_FLOAT_EQ(e.state.curves()[0], 0.5f);
    EXPECT_EQ(e.state.events().size(), 1u);  // 0.25 to 0.5 meets the marker again
}

TEST(CurveBlend, CurveNamesMustBeUniqueAndNamed) {
    const std::vector<std::string> twice{"a", "a"};
    EvaluatorOptions options;
    options.curves = twice;
    auto refused = InstanceEvaluator::create(oneJoint(), {}, options);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.message().find("options/curves/1"), std::string::npos) << refused.message();
    const std::vector<std::string> unnamed{""};
    options.curves = unnamed;
    EXPECT_FALSE(InstanceEvaluator::create(oneJoint(), {}, options).ok());
}

TEST(CurveBlend, ABatchReportsEachInstancesCurves) {
    const std::vector<std::string> names{"a"};
    BatchOptions options;
    options.curves = names;
    options.threads = 1;
    auto batch = PoseBatch::create(oneJoint(), {}, 2, options);
    ASSERT_TRUE(batch.ok()) << batch.message();
    const PackedClip clip(line({{"a", {0.0f, 1.0f}, {0.0f, 10.0f}}}));
    std::vector<InstanceRequest> requests(2);
    for (std::size_t i = 0; i < 2; ++i) {
        requests[i].layerCount = 1;
        requests[i].layers[0].clip = &clip;
        requests[i].layers[0].time = 0.1 + 0.5 * static_cast<double>(i);
    }
    ASSERT_TRUE(batch->evaluate(requests).ok());
    EXPECT_FLOAT_EQ(batch->curves(0)[0], 1.0f);
    EXPECT_FLOAT_EQ(batch->curves(1)[0], 6.0f);
}

TEST(ClipLengthOnTheSeam, HoldsThePoseLoopsAtTheLengthAndSweepsLateMarkers) {
    Evaluation e = evaluationWith({});
    const Clip held = line({}, {{"late", 1.4f}}).withLength(1.6f).value();
    const PackedClip packed(held);
    EXPECT_EQ(packed.duration(), 1.6f);
    InstanceRequest request;
    request.layerCount = 1;
    request.layers[0].clip = &packed;
    request.layers[0].time = 1.3;  // past the last key: the pose holds x = 1
    ASSERT_TRUE(e.evaluator.evaluate(request, e.state, e.work, e.model, {}).ok());
    EXPECT_EQ(e.model[0].m[12], 1.0f);
    request.layers[0].time = 1.8;  // the loop wraps at 1.6: clip time 0.2
    ASSERT_TRUE(e.evaluator.evaluate(request, e.state, e.work, e.model, {}).ok());
    EXPECT_NEAR(e.model[0].m[12], 0.2f, 1e-5f);
    // A step from 1.3 to 1.45 crosses the marker at 1.4, past the keys.
    request.layers[0].time = 1.45;
    request.layers[0].sweep = true;
    request.layers[0].step = {1.3, 1.45, 0.15};
    ASSERT_TRUE(e.evaluator.evaluate(request, e.state, e.work, e.model, {}).ok());
    ASSERT_EQ(e.state.events().size(), 1u);
    EXPECT_EQ(held.markers()[e.state.events()[0].marker].name, "late");
}

}  // namespace
