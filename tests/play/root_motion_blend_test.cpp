// Root motion of blends: one delta per update, the weighted blend of each playing
// clip's delta over its own step - for raw shares, state machines (fades included),
// blend spaces, crossfades and layer requests - and the root anchor that keeps the
// evaluated pose in place. Expected values are closed forms of linear root tracks.
#include <gtest/gtest.h>

#include <tuple>

#include <cmath>
#include <limits>
#include <numbers>

#include "fixtures.hpp"
#include "kinema/math/quat.hpp"
#include "kinema/play/layer_stack.hpp"
#include "kinema/play/root_motion.hpp"
#include "kinema/runtime/instance.hpp"

namespace {

using namespace kinema;

// A clip of `seconds` whose root (joint 0) travels `velocity` m/s in a straight
// line and turns `turn` radians per second about +Y (keys every 1/8 of the clip, so
// slerp between them is the uniform turn).
Clip travel(const std::string& name, float seconds, Vec3 velocity, float turn = 0.0f) {
    Track t;
    t.path = TrackPath::Translation;
    t.times = {0.0f, seconds};
    t.values = {0, 0, 0, velocity.x * seconds, velocity.y * seconds, velocity.z * seconds};
    std::vector<Track> tracks{t};
    if (turn != 0.0f) {
        Track r;
        r.path = TrackPath::Rotation;
        r.width = 4;
        for (int k = 0; k <= 8; ++k) {
            const float time = seconds * static_cast<float>(k) / 8.0f;
            const Quat q = fromAxisAngle({0.0f, 1.0f, 0.0f}, turn * time);
            r.times.push_back(time);
            r.values.insert(r.values.end(), {q.x, q.y, q.z, q.w});
        }
        tracks.push_back(r);
    }
    auto clip = Clip::create(name, tracks);
    EXPECT_TRUE(clip.ok()) << clip.message();
    return std::move(clip).value();
}

RootMotion motionOf(const Clip& clip) {
    auto r = RootMotion::create(clip, 0, Transform{});
    EXPECT_TRUE(r.ok()) << r.message();
    return std::move(r).value();
}

float yawOf(const Quat& q) { return 2.0f * std::atan2(q.y, q.w); }

TEST(BlendedRootMotion, OneShareIsItsOwnDeltaBitForBit) {
    const Clip clip = travel("walk", 1.0f, {0.0f, 0.0f, 1.5f}, 0.4f);
    const RootMotion m = motionOf(clip);
    const PlaybackStep step{0.9, 0.25, 0.35};
    const RootMotionShare one{&m, LoopMode::Loop, step, 1.0f};
    const Transform blended = blendRootMotion({&one, 1});
    const Transform own = m.delta(LoopMode::Loop, step);
    EXPECT_EQ(blended.translation, own.translation);
    EXPECT_EQ(blended.rotation, own.rotation);
    EXPECT_EQ(blendRootMotion({}).translation, Vec3{});
}

TEST(BlendedRootMotion, TranslationsAverageByWeightAcrossWrapsAndBackwards) {
    const Clip forward = travel("forward", 1.0f, {0.0f, 0.0f, 2.0f});
    const Clip side = travel("side", 0.5f, {1.0f, 0.0f, 0.0f});
    const RootMotion f = motionOf(forward), s = motionOf(side);
    // 0.3 s of each: forward across its wrap (0.9 -> 0.2), side backwards over its wrap.
    const RootMotionShare shares[] = {{&f, LoopMode::Loop, {0.9, 0.2, 0.3}, 0.25f},
                                      {&s, LoopMode::Loop, {0.1, 0.3, -0.3}, 0.75f}};
    const Transform d = blendRootMotion(shares);
    EXPECT_NEAR(d.translation.z, 0.25f * 2.0f * 0.3f, 1e-6f);
    EXPECT_NEAR(d.translation.x, 0.75f * -0.3f, 1e-6f);
    // Weights need not sum to 1; a share without root motion stands still.
    const RootMotionShare halfStill[] = {{&f, LoopMode::Loop, {0.1, 0.4, 0.3}, 2.0f},
                                         {nullptr, LoopMode::Loop, {0.0, 0.3, 0.3}, 2.0f}};
    EXPECT_NEAR(blendRootMotion(halfStill).translation.z, 0.5f * 0.6f, 1e-6f);
}

// A weight that is NaN, negative or infinite counts as 0: the other shares blend as
// if it were absent, and an infinite weight on a share without motion writes no NaN.
TEST(BlendedRootMotion, WeightsThatAreNotPositiveAndFiniteCountAsZero) {
    const Clip forward = travel("forward", 1.0f, {0.0f, 0.0f, 2.0f});
    const RootMotion f = motionOf(forward);
    const float inf = std::numeric_limits<float>::infinity();
    for (const float odd : {std::numeric_limits<float>::quiet_NaN(), -1.0f, inf, -inf}) {
        const RootMotionShare shares[] = {{nullptr, LoopMode::Loop, {0.0, 0.3, 0.3}, odd},
                                          {&f, LoopMode::Loop, {0.1, 0.4, 0.3}, 0.5f}};
        const Transform d = blendRootMotion(shares);
        EXPECT_NEAR(d.translation.z, 2.0f * 0.3f, 1e-6f) << odd;  // the second share alone
        EXPECT_EQ(d.translation.x, 0.0f) << odd;
        const RootMotionShare alone[] = {{nullptr, LoopMode::Loop, {0.0, 0.3, 0.3}, odd}};
        EXPECT_EQ(blendRootMotion(alone).translation, Vec3{}) << odd;
        EXPECT_EQ(blendRootMotion(alone).rotation, Quat{}) << odd;
    }
}

TEST(BlendedRootMotion, TurnsBlendAsTheNormalisedSumOfTheirQuaternions) {
    const Clip left = travel("left", 1.0f, {0.0f, 0.0f, 1.0f}, 0.8f);
    const Clip right = travel("right", 1.0f, {0.0f, 0.0f, 1.0f}, -0.2f);
    const RootMotion l = motionOf(left), r = motionOf(right);
    const float w = 0.3f;
    const RootMotionShare shares[] = {{&l, LoopMode::Loop, {0.0, 0.5, 0.5}, w},
                                      {&r, LoopMode::Loop, {0.0, 0.5, 0.5}, 1.0f - w}};
    const Transform d = blendRootMotion(shares);
    // Half a second of each turn: 0.4 and -0.1 rad about +Y. The normalised
    // weighted quaternion sum of two turns about one axis is a turn about it by
    // 2 atan2(w sin(a/2) + (1-w) sin(b/2), w cos(a/2) + (1-w) cos(b/2)).
    const double a = 0.4, b = -0.1;
    const double expected = 2.0 *
        std::atan2(w * std::sin(a / 2) + (1 - w) * std::sin(b / 2), w * std::cos(a / 2) + (1 - w) * std::cos(b / 2));
    EXPECT_NEAR(yawOf(d.rotation), expected, 1e-5);
    EXPECT_NEAR(d.rotation.x, 0.0f, 1e-6f);
    EXPECT_NEAR(d.rotation.z, 0.0f, 1e-6f);
}

TEST(BlendedRootMotion, AStateMachineFadeMovesByBothStatesShares) {
    using test::clipState;
    const Clip walk = travel("walk", 1.0f, {0.0f, 0.0f, 1.0f});
    const Clip run = travel("run", 0.5f, {0.0f, 0.0f, 3.0f});
    StateMachineDesc desc;
    desc.parameters = {{"speed", ParameterType::Float, 0.0f}};
    desc.states = {clipState("walk", "walk"), clipState("run", "run")};
    TransitionDesc toRun;
    toRun.from = "walk";
    toRun.to = "run";
    toRun.duration = 0.25f;
    toRun.conditions = {{"speed", ConditionOp::Greater, 2.0f}};
    desc.transitions = {toRun};
    auto def = StateMachineDefinition::create(desc, [&](std::string_view n) -> const Clip* {
        return n == "walk" ? &walk : n == "run" ? &run : nullptr;
    });
    ASSERT_TRUE(def.ok()) << def.message();
    const RootMotion walkMotion = motionOf(walk), runMotion = motionOf(run);
    std::vector<const RootMotion*> bySlot;
    for (const Clip* c : def->clips()) bySlot.push_back(c == &walk ? &walkMotion : &runMotion);

    StateMachine sm(*def);
    const double dt = 1.0 / 64.0;  // exact in binary: the fade ends on a tick
    double travelled = 0.0;
    for (int i = 0; i < 64; ++i) {  // one second of walking: 1 m
        ASSERT_TRUE(sm.update(dt).ok());
        travelled += rootMotionDelta(sm, bySlot).translation.z;
    }
    EXPECT_NEAR(travelled, 1.0, 1e-5);
    ASSERT_TRUE(sm.setFloat("speed", 3.0f).ok());
    // The transition fires at the end of the next update (transitions are tried
    // after the states advance), so the run's linear weight is (k - 1) dt / 0.25
    // after the k-th tick from now and tick k moves (1 - u) * 1 + u * 3 metres per second.
    double fade = 0.0, expected = 0.0;
    for (int k = 1; k <= 24; ++k) {
        ASSERT_TRUE(sm.update(dt).ok());
        const double u = std::min(1.0, (k - 1) * dt / 0.25);
        fade += rootMotionDelta(sm, bySlot).translation.z;
        expected += dt * ((1.0 - u) * 1.0 + u * 3.0);
    }
    EXPECT_NEAR(fade, expected, 1e-5);
    // Running alone afterwards: 3 m/s, across the run's 0.5 s loop.
    double running = 0.0;
    for (int i = 0; i < 64; ++i) {
        ASSERT_TRUE(sm.update(dt).ok());
        running += rootMotionDelta(sm, bySlot).translation.z;
    }
    EXPECT_NEAR(running, 3.0, 1e-4);
}

// In the update a cut fires, the state it leaves has moved the character up to the
// cut; samples() already shows the state entered, at its start.
TEST(BlendedRootMotion, AStateMachineCutKeepsTheMotionOfTheUpdateItFiresIn) {
    using test::clipState;
    const Clip walk = travel("walk", 1.0f, {0.0f, 0.0f, 2.0f});
    const Clip run = travel("run", 1.0f, {0.0f, 0.0f, 4.0f});
    const Clip jump = travel("jump", 1.0f, {0.0f, 0.0f, 1.0f});
    StateMachineDesc desc;
    desc.parameters = {{"go", ParameterType::Bool, 0.0f}};
    desc.states = {clipState("walk", "walk"), clipState("run", "run"), clipState("jump", "jump", LoopMode::Clamp)};
    TransitionDesc toRun;  // a cut on a condition
    toRun.from = "walk";
    toRun.to = "run";
    toRun.duration = 0.0f;
    toRun.conditions = {{"go", ConditionOp::IsTrue, 0.0f}};
    TransitionDesc toJump;  // a cut half-way through run
    toJump.from = "run";
    toJump.to = "jump";
    toJump.duration = 0.0f;
    toJump.exitTime = 0.5f;
    TransitionDesc land;  // a cut where the one-shot ends
    land.from = "jump";
    land.to = "walk";
    land.duration = 0.0f;
    land.exitTime = 1.0f;
    desc.transitions = {toRun, toJump, land};
    auto def = StateMachineDefinition::create(desc, [&](std::string_view n) -> const Clip* {
        return n == "walk" ? &walk : n == "run" ? &run : n == "jump" ? &jump : nullptr;
    });
    ASSERT_TRUE(def.ok()) << def.message();
    const RootMotion walkMotion = motionOf(walk), runMotion = motionOf(run), jumpMotion = motionOf(jump);
    std::vector<const RootMotion*> bySlot;
    for (const Clip* c : def->clips()) {
        bySlot.push_back(c == &walk ? &walkMotion : c == &run ? &runMotion : &jumpMotion);
    }
    StateMachine sm(*def);
    const double dt = 0.125;  // exact in binary
    ASSERT_TRUE(sm.update(dt).ok());
    EXPECT_DOUBLE_EQ(rootMotionDelta(sm, bySlot).translation.z, 2.0 * dt);
    ASSERT_TRUE(sm.setBool("go", true).ok());
    // Walk plays this update, then the cut to run fires: 2 m/s for dt.
    ASSERT_TRUE(sm.update(dt).ok());
    EXPECT_EQ(sm.currentState(), 1u);
    EXPECT_DOUBLE_EQ(rootMotionDelta(sm, bySlot).translation.z, 2.0 * dt);
    EXPECT_EQ(sm.samples()[0].step.travel, 0.0);  // run entered at its start
    // Four updates of run reach its exit time 0.5: the fourth moves 4 m/s, then the
    // cut to the one-shot jump; jump plays 1 s (1 m) in eight updates and lands.
    double running = 0.0;
    for (int k = 0; k < 4; ++k) {
        ASSERT_TRUE(sm.update(dt).ok());
        running += rootMotionDelta(sm, bySlot).translation.z;
    }
    EXPECT_EQ(sm.currentState(), 2u);
    EXPECT_NEAR(running, 4.0 * 0.5, 1e-6);
    double jumping = 0.0;
    for (int k = 0; k < 8; ++k) {
        ASSERT_TRUE(sm.update(dt).ok());
        jumping += rootMotionDelta(sm, bySlot).translation.z;
    }
    EXPECT_EQ(sm.currentState(), 0u);  // landed in the update the jump ended
    EXPECT_NEAR(jumping, 1.0, 1e-6);
    EXPECT_FALSE(sm.motion().empty());
    ASSERT_TRUE(sm.forceState(1));
    EXPECT_TRUE(sm.motion().empty());  // a jump moves nothing
}

// An interruption mid-fade drops the state fading out, after this update: its share
// of the update still moved the character.
TEST(BlendedRootMotion, AnInterruptedFadeKeepsTheDroppedStatesShareOfTheUpdate) {
    using test::clipState;
    const Clip walk = travel("walk", 1.0f, {0.0f, 0.0f, 1.0f});
    const Clip run = travel("run", 1.0f, {0.0f, 0.0f, 3.0f});
    const Clip stop = travel("stop", 1.0f, {0.0f, 0.0f, 0.0f});
    StateMachineDesc desc;
    desc.parameters = {{"go", ParameterType::Bool, 0.0f}, {"halt", ParameterType::Bool, 0.0f}};
    desc.states = {clipState("walk", "walk"), clipState("run", "run"), clipState("stop", "stop")};
    TransitionDesc toRun;
    toRun.from = "walk";
    toRun.to = "run";
    toRun.duration = 0.5f;
    toRun.conditions = {{"go", ConditionOp::IsTrue, 0.0f}};
    toRun.interruption = Interruption::Destination;
    TransitionDesc toStop;
    toStop.from = "run";
    toStop.to = "stop";
    toStop.duration = 0.5f;
    toStop.conditions = {{"halt", ConditionOp::IsTrue, 0.0f}};
    desc.transitions = {toRun, toStop};
    auto def = StateMachineDefinition::create(desc, [&](std::string_view n) -> const Clip* {
        return n == "walk" ? &walk : n == "run" ? &run : n == "stop" ? &stop : nullptr;
    });
    ASSERT_TRUE(def.ok()) << def.message();
    const RootMotion walkMotion = motionOf(walk), runMotion = motionOf(run), stopMotion = motionOf(stop);
    std::vector<const RootMotion*> bySlot;
    for (const Clip* c : def->clips()) {
        bySlot.push_back(c == &walk ? &walkMotion : c == &run ? &runMotion : &stopMotion);
    }
    StateMachine sm(*def);
    const double dt = 0.125;
    ASSERT_TRUE(sm.setBool("go", true).ok());
    ASSERT_TRUE(sm.update(dt).ok());  // walks, then the fade to run starts (run at weight 0)
    ASSERT_TRUE(sm.transitioning());
    ASSERT_TRUE(sm.update(dt).ok());  // run at 0.25
    EXPECT_NEAR(rootMotionDelta(sm, bySlot).translation.z, dt * (0.75 * 1.0 + 0.25 * 3.0), 1e-6);
    // Run at 0.5 this update; then run (the destination) is interrupted by the fade to
    // stop, which drops walk.
    ASSERT_TRUE(sm.setBool("halt", true).ok());
    ASSERT_TRUE(sm.update(dt).ok());
    ASSERT_EQ(sm.currentState(), 1u);
    EXPECT_NEAR(rootMotionDelta(sm, bySlot).translation.z, dt * (0.5 * 1.0 + 0.5 * 3.0), 1e-6);
}

TEST(BlendedRootMotion, ACrossFadeAndABlendSpaceBlendTheirClipsDeltas) {
    const Clip slow = travel("slow", 1.0f, {0.0f, 0.0f, 1.0f});
    const Clip fast = travel("fast", 1.0f, {0.0f, 0.0f, 4.0f});
    const RootMotion slowMotion = motionOf(slow), fastMotion = motionOf(fast);
    CrossFade fade;
    fade.crossFadeTo(&slow, 0.0);
    CrossFadeStep step;
    ASSERT_TRUE(fade.update(0.5, step).ok());
    fade.crossFadeTo(&fast, 1.0);
    ASSERT_TRUE(fade.update(0.25, step).ok());
    const float u = fade.currentWeight();
    EXPECT_NEAR(u, 0.25f, 1e-6f);
    const Transform d = rootMotionDelta(fade, step, &fastMotion, &slowMotion);
    EXPECT_NEAR(d.translation.z, 0.25f * (u * 4.0f + (1.0f - u) * 1.0f), 1e-6f);

    // Blend-space samples: each clip's own step, by its weight.
    const BlendSample samples[] = {{0, 0.4f, 0.3, {0.1, 0.3, 0.2}}, {1, 0.6f, 0.6, {0.2, 0.6, 0.4}}};
    const RootMotion* byClip[] = {&slowMotion, &fastMotion};
    EXPECT_NEAR(rootMotionDelta(samples, byClip).translation.z, 0.4f * 0.2f + 0.6f * 4.0f * 0.4f, 1e-6f);
}

TEST(BlendedRootMotion, LayersShareAsTheirPoseBlendDoes) {
    const Clip base = travel("base", 1.0f, {0.0f, 0.0f, 1.0f});
    const Clip over = travel("over", 1.0f, {2.0f, 0.0f, 0.0f});
    const RootMotion baseMotion = motionOf(base), overMotion = motionOf(over);
    const PackedClip packedBase(base), packedOver(over);
    InstanceRequest request;
    request.layerCount = 3;
    request.layers[0] = {&packedBase, 0.5,     1.0f,  LoopMode::Loop, LayerMode::Override,
                         nullptr,     nullptr, false, {0.3, 0.5, 0.2}};
    request.layers[1] = {&packedOver, 0.5,     0.25f, LoopMode::Loop, LayerMode::Override,
                         nullptr,     nullptr, false, {0.3, 0.5, 0.2}};
    // An additive layer leaves the motion to the layers below.
    request.layers[2] = {&packedOver, 0.5,     1.0f,  LoopMode::Loop, LayerMode::Additive,
                         nullptr,     nullptr, false, {0.3, 0.5, 0.2}};
    const RootMotion* byLayer[] = {&baseMotion, &overMotion, &overMotion};
    const Transform d = rootMotionDelta(request, byLayer, 0);
    EXPECT_NEAR(d.translation.z, 0.75f * 0.2f, 1e-6f);
    EXPECT_NEAR(d.translation.x, 0.25f * 2.0f * 0.2f, 1e-6f);
    // A mask that leaves the root out of layer 1 leaves the base alone.
    const JointMask mask(1);  // every weight 0
    request.layers[1].mask = &mask;
    EXPECT_NEAR(rootMotionDelta(request, byLayer, 0).translation.z, 0.2f, 1e-6f);
    EXPECT_NEAR(rootMotionDelta(request, byLayer, 0).translation.x, 0.0f, 1e-7f);
}

TEST(RootAnchor, KeepsTheEvaluatedPoseInPlaceAndIsChecked) {
    const Clip clip = travel("walk", 1.0f, {0.5f, 0.0f, 1.0f}, 1.0f);
    const PackedClip packed(clip);
    Skeleton skeleton = Skeleton::create({JointDesc{"root", kNoParent, {}}}).value();
    auto evaluator = InstanceEvaluator::create(skeleton, {});
    ASSERT_TRUE(evaluator.ok()) << evaluator.message();
    const RootMotion motion = motionOf(clip);
    InstanceRequest request;
    request.layerCount = 1;
    request.layers[0].clip = &packed;
    request.layers[0].time = 0.5;
    request.rootAnchor = motion.anchor(0);
    ASSERT_TRUE(evaluator->check(request).ok());
    InstanceState state;
    WorkPoses work = evaluator->makeWorkPoses();
    std::vector<Mat4> model(1);
    ASSERT_TRUE(evaluator->evaluate(request, state, work, model, {}).ok());
    // x, z and the turn back at their time-0 values; y (not extracted) as sampled (0).
    EXPECT_EQ(model[0].m[12], 0.0f);
    EXPECT_EQ(model[0].m[14], 0.0f);
    EXPECT_NEAR(model[0].m[0], 1.0f, 1e-6f) << "no turn left in the pose";

    request.rootAnchor->joint = 1;
    const Status past = evaluator->check(request);
    EXPECT_FALSE(past.ok());
    EXPECT_NE(past.message().find("root anchor joint"), std::string::npos) << past.message();
    request.rootAnchor->joint = 0;
    request.rootAnchor->value.translation.x = std::nanf("");
    EXPECT_FALSE(evaluator->check(request).ok());
    request.rootAnchor->value = Transform{};
    request.rootAnchor->value.scale.x = std::nanf("");  // unused, yet a value given is finite
    EXPECT_FALSE(evaluator->check(request).ok());
    request.rootAnchor->value = Transform{};
    request.rootAnchor->value.rotation = {0.0f, 0.0f, 0.0f, 0.0f};
    EXPECT_FALSE(evaluator->check(request).ok());
    request.rootAnchor->value = Transform{};
    request.rootAnchor->up = Vec3{};
    const Status noUp = evaluator->check(request);
    EXPECT_FALSE(noUp.ok());
    EXPECT_NE(noUp.message().find("up axis"), std::string::npos) << noUp.message();
    request.rootAnchor->up = {0.0f, std::nanf(""), 0.0f};
    EXPECT_FALSE(evaluator->check(request).ok());
    request.rootAnchor->up = {0.0f, 1.0f, 0.0f};
    request.rootAnchor->rotation = static_cast<RootRotation>(7);
    EXPECT_FALSE(evaluator->check(request).ok());
    // A rotation of any length with a direction is taken at unit length, even where
    // its square is no float (1e-30, 3e19 on two axes): a half turn about x, and a
    // quarter turn about x, the whole rotation held.
    request.rootAnchor->rotation = RootRotation::Full;
    for (const auto& [rotation, m5, m6] :
         {std::tuple{Quat{1e-30f, 0, 0, 0}, -1.0f, 0.0f}, std::tuple{Quat{3e19f, 0, 0, 3e19f}, 0.0f, 1.0f}}) {
        request.rootAnchor->value = Transform{};
        request.rootAnchor->value.rotation = rotation;
        ASSERT_TRUE(evaluator->check(request).ok());
        ASSERT_TRUE(evaluator->evaluate(request, state, work, model, {}).ok());
        EXPECT_NEAR(model[0].m[5], m5, 1e-6f) << rotation.x;  // y axis' y: cos of the turn
        EXPECT_NEAR(model[0].m[6], m6, 1e-6f) << rotation.x;  // y axis' z: sin of the turn
    }
}

// With the heading held, the evaluated root keeps its lean: a clip that turns about
// +Y and leans about its own +X shows only the lean, under the anchor's heading.
TEST(RootAnchor, HoldsTheHeadingAndKeepsTheLean) {
    const float yaw = 0.9f, lean = -0.4f, held = 0.25f;
    Track r;
    r.path = TrackPath::Rotation;
    r.width = 4;
    r.times = {0.0f};
    const Quat q = fromAxisAngle({0.0f, 1.0f, 0.0f}, yaw) * fromAxisAngle({1.0f, 0.0f, 0.0f}, lean);
    r.values = {q.x, q.y, q.z, q.w};
    const Clip clip = Clip::create("lean", {r}).value();
    const PackedClip packed(clip);
    Skeleton skeleton = Skeleton::create({JointDesc{"root", kNoParent, {}}}).value();
    auto evaluator = InstanceEvaluator::create(skeleton, {});
    ASSERT_TRUE(evaluator.ok()) << evaluator.message();
    InstanceRequest request;
    request.layerCount = 1;
    request.layers[0].clip = &packed;
    RootAnchor anchor;
    anchor.rotation = RootRotation::Heading;
    anchor.up = {0.0f, 2.0f, 0.0f};
    anchor.value.rotation = fromAxisAngle({0.0f, 1.0f, 0.0f}, held) * fromAxisAngle({0.0f, 0.0f, 1.0f}, 1.0f);
    request.rootAnchor = anchor;
    InstanceState state;
    WorkPoses work = evaluator->makeWorkPoses();
    std::vector<Mat4> model(1);
    ASSERT_TRUE(evaluator->evaluate(request, state, work, model, {}).ok());
    // Columns of R_y(held) R_x(lean): x axis (cos h, 0, -sin h); y axis
    // (sin h sin l, cos l, cos h sin l).
    EXPECT_NEAR(model[0].m[0], std::cos(held), 1e-6f);
    EXPECT_NEAR(model[0].m[1], 0.0f, 1e-6f);
    EXPECT_NEAR(model[0].m[2], -std::sin(held), 1e-6f);
    EXPECT_NEAR(model[0].m[4], std::sin(held) * std::sin(lean), 1e-6f);
    EXPECT_NEAR(model[0].m[5], std::cos(lean), 1e-6f);
    EXPECT_NEAR(model[0].m[6], std::cos(held) * std::sin(lean), 1e-6f);
}

}  // namespace
