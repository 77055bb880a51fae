// The state machine: transitions by conditions, list order, any-state,
// triggers, exit times, interruption policies, code predicates, speed parameters,
// blend space states, events, queries, force state, bad input, and validation
// faults at their JSON pointers. Expected values are worked out by hand from the
// clip lengths, fade lengths and ticks of each test.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "kinema/asset/clip.hpp"
#include "kinema/play/state_machine.hpp"
#include "play/fixtures.hpp"

namespace {

using namespace kinema;

using test::clipState;

TransitionDesc transition(std::string from, std::string to, float duration) {
    TransitionDesc t;
    t.from = std::move(from);
    t.to = std::move(to);
    t.duration = duration;
    return t;
}

Clip makeClip(const std::string& name, float seconds, std::vector<Marker> markers = {}) {
    return test::lineClip(name, seconds, std::move(markers));
}

struct Clips {
    std::map<std::string, Clip, std::less<>> byName;
    ClipLookup lookup() const {
        return [this](std::string_view n) -> const Clip* {
            const auto it = byName.find(n);
            return it == byName.end() ? nullptr : &it->second;
        };
    }
};

Clips locomotionClips() {
    Clips c;
    c.byName.emplace("idle", makeClip("idle", 2.0f));
    c.byName.emplace("walk", makeClip("walk", 1.0f, {{"footL", 0.0f}, {"footR", 0.5f}}));
    c.byName.emplace("run", makeClip("run", 0.5f, {{"footL", 0.0f}, {"footR", 0.25f}}));
    c.byName.emplace("jump", makeClip("jump", 1.0f));
    return c;
}

ConditionDesc greater(std::string p, float v) { return {std::move(p), ConditionOp::Greater, v}; }
ConditionDesc less(std::string p, float v) { return {std::move(p), ConditionOp::Less, v}; }

// idle <-> walk by speed, jump from anywhere by trigger, back to idle at 90 %.
StateMachineDesc locomotionDesc() {
    StateMachineDesc d;
    d.parameters = {{"speed", ParameterType::Float, 0.0f}, {"jump", ParameterType::Trigger, 0.0f}};
    d.states = {clipState("idle", "idle"), clipState("walk", "walk"), clipState("jump", "jump", LoopMode::Clamp)};
    TransitionDesc toWalk = transition("idle", "walk", 0.2f);
    toWalk.conditions = {greater("speed", 0.1f)};
    TransitionDesc toIdle = transition("walk", "idle", 0.25f);
    toIdle.conditions = {less("speed", 0.05f)};
    TransitionDesc jump = transition("*", "jump", 0.1f);
    jump.conditions = {{"jump", ConditionOp::IsTrue, 0.0f}};
    TransitionDesc land = transition("jump", "idle", 0.1f);
    land.exitTime = 0.9f;
    d.transitions = {toWalk, toIdle, jump, land};
    d.defaultState = "idle";
    return d;
}

StateMachineDefinition define(const StateMachineDesc& desc, const Clips& clips) {
    auto def = StateMachineDefinition::create(desc, clips.lookup());
    EXPECT_TRUE(def.ok()) << def.message();
    return std::move(def).value();
}

void tick(StateMachine& sm, double seconds, int times = 1) {
    for (int i = 0; i < times; ++i) ASSERT_TRUE(sm.update(seconds).ok());
}

float weightOf(const StateMachine& sm, std::string_view clip) {
    float w = 0.0f;
    for (const MotionSample& s : sm.samples()) {
        if (s.clip->name() == clip) w += s.weight;
    }
    return w;
}

TEST(StateMachine, StartsInTheDefaultStateAtTimeZeroWithFullWeight) {
    const Clips clips = locomotionClips();
    auto desc = locomotionDesc();
    desc.defaultState = "walk";
    const auto def = define(desc, clips);
    StateMachine sm(def);
    EXPECT_EQ(sm.currentState(), *def.findState("walk"));
    EXPECT_FALSE(sm.transitioning());
    ASSERT_EQ(sm.samples().size(), 1u);
    EXPECT_EQ(sm.samples()[0].clip->name(), "walk");
    EXPECT_EQ(sm.samples()[0].time, 0.0);
    EXPECT_EQ(sm.samples()[0].weight, 1.0f);
}

TEST(StateMachine, EmptyDefaultStateMeansTheFirst) {
    const Clips clips = locomotionClips();
    auto desc = locomotionDesc();
    desc.defaultState.clear();
    const auto def = define(desc, clips);
    EXPECT_EQ(def.defaultState(), 0u);
}

TEST(StateMachine, ConditionStartsAFadeThatRunsItsDurationInUnscaledSeconds) {
    const Clips clips = locomotionClips();
    const auto def = define(locomotionDesc(), clips);
    StateMachine sm(def);
    tick(sm, 0.5);
    EXPECT_FALSE(sm.transitioning());
    EXPECT_DOUBLE_EQ(sm.currentTime(), 0.5);
    ASSERT_TRUE(sm.setFloat("speed", 1.0f));
    tick(sm, 0.0);  // the fade starts on this update, at weight 0
    ASSERT_TRUE(sm.transitioning());
    EXPECT_EQ(*sm.targetState(), *def.findState("walk"));
    EXPECT_EQ(*sm.activeTransition(), 0u);
    EXPECT_EQ(sm.blendFactor(), 0.0f);
    tick(sm, 0.05);
    EXPECT_NEAR(sm.blendFactor(), 0.25f, 1e-6f);  // 0.05 of 0.2 s
    EXPECT_NEAR(weightOf(sm, "idle"), 0.75f, 1e-6f);
    EXPECT_NEAR(weightOf(sm, "walk"), 0.25f, 1e-6f);
    EXPECT_NEAR(sm.targetTime(), 0.05, 1e-12);
    EXPECT_NEAR(sm.currentTime(), 0.55, 1e-12);  // the state being left keeps advancing
    tick(sm, 0.15);
    EXPECT_FALSE(sm.transitioning());
    EXPECT_EQ(sm.currentState(), *def.findState("walk"));
    EXPECT_NEAR(sm.currentTime(), 0.2, 1e-12);
    ASSERT_EQ(sm.samples().size(), 1u);
    EXPECT_EQ(sm.samples()[0].weight, 1.0f);
}

TEST(StateMachine, FadeWeightFollowsTheTransitionsEasing) {
    const Clips clips = locomotionClips();
    auto desc = locomotionDesc();
    desc.transitions[0].easing = Easing::InQuad;
    desc.transitions[0].duration = 1.0f;
    const auto def = define(desc, clips);
    StateMachine sm(def);
    EXPECT_TRUE(sm.setFloat("speed", 1.0f).ok());
    tick(sm, 0.0);
    tick(sm, 0.5);
    EXPECT_NEAR(sm.blendFactor(), 0.25f, 1e-6f);  // (1/2)^2
}

TEST(StateMachine, OvershootingFadeEasingKeepsWeightsInRangeAndSummingToOne) {
    // Found by the fuzzer: inOutBack leaves [0, 1], and the shares of the pose did not
    // sum to 1 any more. Shares are clamped: each in [0, 1], together 1, at every tick.
    const Clips clips = locomotionClips();
    auto desc = locomotionDesc();
    desc.transitions[0].easing = Easing::InOutBack;
    desc.transitions[0].duration = 0.3f;
    const auto def = define(desc, clips);
    StateMachine sm(def);
    EXPECT_TRUE(sm.setFloat("speed", 1.0f).ok());
    for (int i = 0; i < 24; ++i) {
        tick(sm, 1.0 / 60.0);
        EXPECT_GE(sm.blendFactor(), 0.0f);
        EXPECT_LE(sm.blendFactor(), 1.0f);
        float sum = 0.0f;
        for (const MotionSample& s : sm.samples()) {
            EXPECT_GT(s.weight, 0.0f);
            EXPECT_LE(s.weight, 1.0f);
            sum += s.weight;
        }
        EXPECT_NEAR(sum, 1.0f, 1e-6f) << i;
    }
}

TEST(StateMachine, FirstSatisfiedTransitionInListOrderWins) {
    const Clips clips = locomotionClips();
    auto desc = locomotionDesc();
    TransitionDesc toJump = transition("idle", "jump", 0.0f);
    toJump.conditions = {greater("speed", 0.5f)};
    desc.transitions.insert(desc.transitions.begin() + 1, toJump);  // after idle -> walk
    const auto def = define(desc, clips);
    StateMachine sm(def);
    EXPECT_TRUE(sm.setFloat("speed", 1.0f).ok());  // both idle -> walk and idle -> jump hold
    tick(sm, 0.0);
    EXPECT_EQ(*sm.targetState(), *def.findState("walk"));

    desc.transitions.erase(desc.transitions.begin() + 1);
    desc.transitions.insert(desc.transitions.begin(), toJump);  // now it comes first
    const auto def2 = define(desc, clips);
    StateMachine sm2(def2);
    EXPECT_TRUE(sm2.setFloat("speed", 1.0f).ok());
    tick(sm2, 0.0);
    EXPECT_EQ(sm2.currentState(), *def2.findState("jump"));  // a cut: duration 0
    EXPECT_FALSE(sm2.transitioning());
}

// A "*" transition listed before a state's own is tried before it, and after it
// when listed after: one list order across both kinds.
TEST(StateMachine, AnyStateAndOwnTransitionsShareOneListOrder) {
    const Clips clips = locomotionClips();
    auto desc = locomotionDesc();
    TransitionDesc anyToJump = transition("*", "jump", 0.0f);
    anyToJump.conditions = {greater("speed", 0.5f)};
    desc.transitions.insert(desc.transitions.begin(), anyToJump);  // before idle -> walk
    const auto first = define(desc, clips);
    StateMachine sm(first);
    EXPECT_TRUE(sm.setFloat("speed", 1.0f).ok());  // both "*" -> jump and idle -> walk hold
    tick(sm, 0.0);
    EXPECT_EQ(sm.currentState(), *first.findState("jump"));

    desc.transitions.erase(desc.transitions.begin());
    desc.transitions.push_back(anyToJump);  // now after every idle transition
    const auto last = define(desc, clips);
    StateMachine sm2(last);
    EXPECT_TRUE(sm2.setFloat("speed", 1.0f).ok());
    tick(sm2, 0.0);
    EXPECT_EQ(*sm2.targetState(), *last.findState("walk"));
}

TEST(StateMachine, AllConditionsMustHold) {
    const Clips clips = locomotionClips();
    auto desc = locomotionDesc();
    desc.transitions[0].conditions.push_back(less("speed", 2.0f));
    const auto def = define(desc, clips);
    StateMachine sm(def);
    EXPECT_TRUE(sm.setFloat("speed", 3.0f).ok());
    tick(sm, 0.1);
    EXPECT_FALSE(sm.transitioning());
    EXPECT_TRUE(sm.setFloat("speed", 1.5f).ok());
    tick(sm, 0.1);
    EXPECT_TRUE(sm.transitioning());
}

TEST(StateMachine, AnyStateTriggerFiresFromEveryStateAndIsConsumed) {
    const Clips clips = locomotionClips();
    const auto def = define(locomotionDesc(), clips);
    StateMachine sm(def);
    const auto jump = *def.findParameter("jump");
    EXPECT_TRUE(sm.setFloat("speed", 1.0f).ok());
    tick(sm, 0.0);
    tick(sm, 0.2);  // now walking
    ASSERT_EQ(sm.currentState(), *def.findState("walk"));
    ASSERT_TRUE(sm.setTrigger(jump));
    EXPECT_TRUE(sm.boolValue(jump));
    tick(sm, 0.0);
    EXPECT_EQ(*sm.targetState(), *def.findState("jump"));
    EXPECT_FALSE(sm.boolValue(jump));  // consumed by the transition
    tick(sm, 0.1);
    EXPECT_EQ(sm.currentState(), *def.findState("jump"));
    // "*" -> jump does not restart the state it is already in.
    EXPECT_TRUE(sm.setTrigger(jump).ok());
    tick(sm, 0.1);
    EXPECT_FALSE(sm.transitioning());
    EXPECT_NEAR(sm.currentTime(), 0.2, 1e-12);  // 0.1 fading in, 0.1 since
    EXPECT_TRUE(sm.boolValue(jump));            // not consumed: nothing fired
}

TEST(StateMachine, AnyStateCanRestartItselfWhenAllowed) {
    const Clips clips = locomotionClips();
    auto desc = locomotionDesc();
    desc.transitions[2].canTransitionToSelf = true;
    desc.transitions[2].duration = 0.0f;
    const auto def = define(desc, clips);
    StateMachine sm(def);
    EXPECT_TRUE(sm.setTrigger("jump").ok());
    tick(sm, 0.3);
    EXPECT_EQ(sm.currentState(), *def.findState("jump"));
    EXPECT_EQ(sm.currentTime(), 0.0);
    tick(sm, 0.3);
    EXPECT_TRUE(sm.setTrigger("jump").ok());
    tick(sm, 0.2);
    EXPECT_EQ(sm.currentTime(), 0.0);  // restarted
}

TEST(StateMachine, OneShotExitTimeWaitsForTheNormalisedTime) {
    const Clips clips = locomotionClips();
    const auto def = define(locomotionDesc(), clips);
    StateMachine sm(def);
    sm.forceState(*def.findState("jump"));
    tick(sm, 0.125, 7);  // 0.875 of the 1 s jump
    EXPECT_FALSE(sm.transitioning());
    EXPECT_DOUBLE_EQ(sm.currentNormalizedTime(), 0.875);
    tick(sm, 0.125);  // 1.0 >= 0.9
    EXPECT_EQ(*sm.targetState(), *def.findState("idle"));
}

// A one-shot of negative speed plays from its end to its start: entered at its end,
// its normalised time counts the fraction played, and its exit time is reached.
TEST(StateMachine, ABackwardOneShotPlaysFromItsEndToItsExitTime) {
    const Clips clips = locomotionClips();
    auto desc = locomotionDesc();
    desc.states[2].speed = -1.0f;  // jump, 1 s, clamp
    const auto def = define(desc, clips);
    StateMachine sm(def);
    sm.forceState(*def.findState("jump"));
    EXPECT_DOUBLE_EQ(sm.currentTime(), 1.0);
    tick(sm, 0.125, 7);
    EXPECT_FALSE(sm.transitioning());
    EXPECT_DOUBLE_EQ(sm.currentTime(), 0.125);
    EXPECT_DOUBLE_EQ(sm.currentNormalizedTime(), 0.875);
    tick(sm, 0.125);  // 1.0 >= 0.9
    EXPECT_EQ(*sm.targetState(), *def.findState("idle"));
    // Run to its start at any tick: the exit time of 1 is met there.
    desc.transitions[3].exitTime = 1.0f;
    const auto exact = define(desc, clips);
    StateMachine held(exact);
    held.forceState(*exact.findState("jump"));
    tick(held, 0.3, 4);
    EXPECT_EQ(*held.targetState(), *exact.findState("idle"));
}

TEST(StateMachine, LoopingExitTimeIsReachedOncePerLap) {
    const Clips clips = locomotionClips();
    auto desc = locomotionDesc();
    desc.transitions[1].exitTime = 0.5f;  // walk -> idle at the middle of a walk cycle
    const auto def = define(desc, clips);
    StateMachine sm(def);
    sm.forceState(*def.findState("walk"));
    tick(sm, 0.25);
    EXPECT_FALSE(sm.transitioning());  // speed 0 < 0.05 holds, the head is at 0.25
    tick(sm, 0.25);                    // it reaches 0.5 on this update
    EXPECT_TRUE(sm.transitioning());

    StateMachine late(def);
    late.forceState(*def.findState("walk"));
    EXPECT_TRUE(late.setFloat("speed", 1.0f).ok());
    tick(late, 0.25, 3);  // 0.75: past the exit point of lap 0 while the condition failed
    EXPECT_TRUE(late.setFloat("speed", 0.0f).ok());
    tick(late, 0.25, 2);  // 1.25: condition holds, but the exit point of lap 1 is 1.5
    EXPECT_FALSE(late.transitioning());
    tick(late, 0.25);  // 1.5
    EXPECT_TRUE(late.transitioning());
}

// A state whose clip is a single key (no length) counts a whole lap per update that
// spends time: its exit times are reached, whether it loops or not.
TEST(StateMachine, AClipOfNoLengthReachesItsExitTimes) {
    Clips clips = locomotionClips();
    Track still;
    still.path = TrackPath::Translation;
    still.times = {0.0f};
    still.values = {0, 0, 0};
    clips.byName.emplace("still", Clip::create("still", {still}).value());
    ASSERT_EQ(clips.byName.at("still").duration(), 0.0f);
    for (const LoopMode mode : {LoopMode::Clamp, LoopMode::Loop}) {
        for (const float exitTime : {0.0f, 0.5f, 1.0f}) {
            StateMachineDesc d;
            d.states = {clipState("idle", "idle"), clipState("pose", "still", mode)};
            TransitionDesc back = transition("pose", "idle", 0.0f);
            back.exitTime = exitTime;
            d.transitions = {back};
            d.defaultState = "pose";
            const auto def = define(d, clips);
            StateMachine sm(def);
            tick(sm, 0.0);
            if (exitTime > 0.0f) {
                EXPECT_EQ(sm.currentState(), *def.findState("pose")) << "no time spent yet";
            }
            tick(sm, 0.1);
            EXPECT_EQ(sm.currentState(), *def.findState("idle")) << "exit time " << exitTime;
        }
    }
    // Two laps wanted: two updates.
    StateMachineDesc d;
    d.states = {clipState("idle", "idle"), clipState("pose", "still", LoopMode::Clamp)};
    TransitionDesc back = transition("pose", "idle", 0.0f);
    back.exitTime = 2.0f;
    d.transitions = {back};
    d.defaultState = "pose";
    const auto def = define(d, clips);
    StateMachine sm(def);
    tick(sm, 0.1);
    EXPECT_EQ(sm.currentState(), *def.findState("pose"));
    tick(sm, 0.1);
    EXPECT_EQ(sm.currentState(), *def.findState("idle"));
}

// A one-shot leaves at exit time 1 on the update its head reaches the end, whatever
// lengths and ticks: the quotients of its steps summed can fall a rounding error short
// of 1 (0.6 s at 1/60 s sums to 0.99999999999999967).
TEST(StateMachine, AOneShotReachesExitTimeOneAtItsEndForAnyTick) {
    for (const float seconds : {0.3f, 0.6f, 0.7f, 1.1f, 2.0f}) {
        for (const double dt : {1.0 / 30, 1.0 / 60, 1.0 / 144, 0.07, 0.02}) {
            Clips clips = locomotionClips();
            clips.byName.emplace("hop", test::lineClip("hop", seconds));
            StateMachineDesc d;
            d.states = {clipState("idle", "idle"), clipState("hop", "hop", LoopMode::Clamp)};
            TransitionDesc back = transition("hop", "idle", 0.2f);
            back.exitTime = 1.0f;
            d.transitions = {back};
            d.defaultState = "hop";
            const auto def = define(d, clips);
            StateMachine sm(def);
            // The head reaches the end (a float duration: 0.3f is 0.30000001 s) on update
            // k, the first whose k x dt comes within a microsecond of it (nine ticks of
            // 1/30 s end 0.3f).
            const auto k = static_cast<int>(std::ceil((static_cast<double>(seconds) - 1e-6) / dt - 1e-9));
            for (int i = 1; i < k; ++i) {
                ASSERT_TRUE(sm.update(dt).ok());
                ASSERT_FALSE(sm.transitioning()) << seconds << " s, tick " << dt << ", update " << i;
            }
            for (int i = k; i <= k + 1 && !sm.transitioning(); ++i) ASSERT_TRUE(sm.update(dt).ok());
            EXPECT_TRUE(sm.transitioning()) << seconds << " s at ticks of " << dt;
            EXPECT_GE(sm.currentNormalizedTime(), 1.0);
        }
    }
}

TEST(StateMachine, NoInterruptionLetsTheFadeFinish) {
    const Clips clips = locomotionClips();
    const auto def = define(locomotionDesc(), clips);
    StateMachine sm(def);
    EXPECT_TRUE(sm.setFloat("speed", 1.0f).ok());
    tick(sm, 0.0);
    tick(sm, 0.1);
    EXPECT_TRUE(sm.setFloat("speed", 0.0f).ok());  // walk -> idle would hold, but idle -> walk is not interruptible
    tick(sm, 0.05);
    EXPECT_EQ(*sm.activeTransition(), 0u);
    EXPECT_NEAR(sm.blendFactor(), 0.75f, 1e-6f);
}

TEST(StateMachine, DestinationInterruptionDropsTheStateBeingLeft) {
    const Clips clips = locomotionClips();
    auto desc = locomotionDesc();
    desc.transitions[0].interruption = Interruption::Destination;
    const auto def = define(desc, clips);
    StateMachine sm(def);
    tick(sm, 0.3);
    EXPECT_TRUE(sm.setFloat("speed", 1.0f).ok());
    tick(sm, 0.0);
    tick(sm, 0.1);  // idle 0.5, walk 0.5
    EXPECT_TRUE(sm.setFloat("speed", 0.0f).ok());
    tick(sm, 0.0);  // walk -> idle interrupts: walk (fading in) now fades out
    ASSERT_TRUE(sm.transitioning());
    EXPECT_EQ(*sm.activeTransition(), 1u);
    EXPECT_EQ(sm.currentState(), *def.findState("walk"));
    EXPECT_EQ(*sm.targetState(), *def.findState("idle"));
    EXPECT_NEAR(sm.currentTime(), 0.1, 1e-12);  // walk keeps its time
    EXPECT_EQ(sm.targetTime(), 0.0);            // idle re-entered from its start
    EXPECT_EQ(weightOf(sm, "walk"), 1.0f);
}

TEST(StateMachine, SourceInterruptionTriesTheStateBeingLeft) {
    const Clips clips = locomotionClips();
    auto desc = locomotionDesc();
    // walk -> jump (from the source) may interrupt walk -> idle.
    desc.transitions[1].interruption = Interruption::Source;
    TransitionDesc walkJump = transition("walk", "jump", 0.1f);
    walkJump.conditions = {greater("speed", 5.0f)};
    desc.transitions.push_back(walkJump);
    const auto def = define(desc, clips);
    StateMachine sm(def);
    sm.forceState(*def.findState("walk"));
    tick(sm, 0.0);  // speed 0: walk -> idle starts
    ASSERT_EQ(*sm.targetState(), *def.findState("idle"));
    EXPECT_TRUE(sm.setFloat("speed", 6.0f).ok());
    tick(sm, 0.1);
    EXPECT_EQ(*sm.activeTransition(), 4u);
    EXPECT_EQ(sm.currentState(), *def.findState("idle"));
    EXPECT_EQ(*sm.targetState(), *def.findState("jump"));
}

TEST(StateMachine, CodePredicateGatesATransition) {
    const Clips clips = locomotionClips();
    auto desc = locomotionDesc();
    desc.transitions[0].predicate = "grounded";
    const auto def = define(desc, clips);
    ASSERT_EQ(def.predicates().size(), 1u);
    StateMachine sm(def);
    EXPECT_TRUE(sm.setFloat("speed", 1.0f).ok());
    tick(sm, 0.1);
    EXPECT_FALSE(sm.transitioning());  // unbound: false
    bool grounded = false;
    ASSERT_TRUE(sm.setPredicate(*def.findPredicate("grounded"), [&](const StateMachine&) { return grounded; }));
    tick(sm, 0.1);
    EXPECT_FALSE(sm.transitioning());
    grounded = true;
    tick(sm, 0.1);
    EXPECT_TRUE(sm.transitioning());
    EXPECT_FALSE(sm.setPredicate(7, {}));
}

TEST(StateMachine, SpeedParameterScalesTheStatesSpeed) {
    const Clips clips = locomotionClips();
    auto desc = locomotionDesc();
    desc.parameters.push_back({"rate", ParameterType::Float, 2.0f});
    desc.states[0].speed = 0.5f;
    desc.states[0].speedParameter = "rate";
    const auto def = define(desc, clips);
    StateMachine sm(def);
    tick(sm, 0.4);
    EXPECT_NEAR(sm.currentTime(), 0.4, 1e-12);  // 0.5 * 2
    EXPECT_TRUE(sm.setFloat("rate", 3.0f).ok());
    tick(sm, 0.4);
    EXPECT_NEAR(sm.currentTime(), 1.0, 1e-12);  // + 0.4 * 1.5
    EXPECT_NEAR(sm.currentNormalizedTime(), 0.5, 1e-12);
}

TEST(StateMachine, ForceStateCutsAtOnce) {
    const Clips clips = locomotionClips();
    const auto def = define(locomotionDesc(), clips);
    StateMachine sm(def);
    EXPECT_TRUE(sm.setFloat("speed", 1.0f).ok());
    tick(sm, 0.1);
    ASSERT_TRUE(sm.transitioning());
    ASSERT_TRUE(sm.forceState(*def.findState("jump")));
    EXPECT_FALSE(sm.transitioning());
    EXPECT_EQ(sm.currentState(), *def.findState("jump"));
    EXPECT_EQ(sm.currentTime(), 0.0);
    EXPECT_EQ(sm.blendFactor(), 0.0f);
    EXPECT_FALSE(sm.forceState(99));
}

TEST(StateMachine, BadElapsedTimeChangesNothing) {
    const Clips clips = locomotionClips();
    const auto def = define(locomotionDesc(), clips);
    StateMachine sm(def);
    EXPECT_TRUE(sm.setFloat("speed", 1.0f).ok());
    tick(sm, 0.0);
    tick(sm, 0.05);
    const std::string before = sm.describe();
    for (const double bad : {-0.1, std::nan(""), double(INFINITY)}) {
        EXPECT_FALSE(sm.update(bad).ok());
        EXPECT_EQ(sm.describe(), before);
    }
}

TEST(StateMachine, ParameterSettersRejectWrongTypesAndValues) {
    const Clips clips = locomotionClips();
    const auto def = define(locomotionDesc(), clips);
    StateMachine sm(def);
    const auto speed = *def.findParameter("speed");
    const auto jump = *def.findParameter("jump");
    EXPECT_FALSE(sm.setFloat(jump, 1.0f));
    EXPECT_FALSE(sm.setTrigger(speed));
    EXPECT_FALSE(sm.setBool(speed, true));
    EXPECT_FALSE(sm.setFloat(speed, std::nanf("")));
    EXPECT_FALSE(sm.setFloat("nope", 1.0f));
    EXPECT_FALSE(sm.setFloat(42u, 1.0f));
    EXPECT_EQ(sm.floatValue(speed), 0.0f);
}

TEST(StateMachine, MarkerEventsOfTheLastUpdateAreExact) {
    const Clips clips = locomotionClips();
    auto desc = locomotionDesc();
    desc.defaultState = "walk";
    const auto def = define(desc, clips);
    StateMachine sm(def);
    EXPECT_TRUE(sm.setFloat("speed", 1.0f).ok());
    // 3 s of walking at 1/64 s ticks: footR at 0.5, 1.5, 2.5; footL at 1, 2, 3 (not 0:
    // the head starts there and departure is open).
    int left = 0, right = 0;
    for (int i = 0; i < 192; ++i) {
        tick(sm, 1.0 / 64.0);
        for (const MotionEvent& e : sm.events()) {
            const std::string& name = e.clip->markers()[e.marker].name;
            (name == "footL" ? left : right)++;
            EXPECT_EQ(e.weight, 1.0f);
        }
    }
    EXPECT_EQ(left, 3);
    EXPECT_EQ(right, 3);
}

// An event's weight is its state's share of the pose the update leaves, as the
// samples give it: a linear 0.5 s fade from walk into run, run's markers at 0 and
// 0.25 s of its 0.5 s lap.
TEST(StateMachine, EventWeightsAreTheSharesOfThePoseTheUpdateLeaves) {
    const Clips clips = locomotionClips();
    StateMachineDesc d;
    d.parameters = {{"speed", ParameterType::Float, 0.0f}};
    d.states = {clipState("walk", "walk"), clipState("run", "run")};
    TransitionDesc go = transition("walk", "run", 0.5f);
    go.conditions = {greater("speed", 0.5f)};
    d.transitions = {go};
    const auto def = define(d, clips);
    StateMachine sm(def);
    ASSERT_TRUE(sm.setFloat("speed", 1.0f).ok());
    tick(sm, 0.0);  // the fade starts, run at 0
    ASSERT_TRUE(sm.transitioning());
    const auto eventWeight = [&](std::string_view state, std::string_view marker) {
        for (const MotionEvent& e : sm.events()) {
            if (e.state == *def.findState(state) && e.clip->markers()[e.marker].name == marker) return e.weight;
        }
        return -1.0f;
    };
    tick(sm, 0.25);  // run crosses footR at 0.25 s; half the fade gone
    EXPECT_FLOAT_EQ(eventWeight("run", "footR"), 0.5f);
    EXPECT_FLOAT_EQ(weightOf(sm, "run"), 0.5f);
    tick(sm, 0.25);  // the fade ends: run crosses footL at its lap's end, walk footR at 0.5 s
    EXPECT_FALSE(sm.transitioning());
    EXPECT_FLOAT_EQ(eventWeight("run", "footL"), 1.0f);
    EXPECT_FLOAT_EQ(eventWeight("walk", "footR"), 0.0f);
}

// A step that overflows a state's time at its speed is refused and changes nothing.
TEST(StateMachine, AnOverflowingStepIsRefusedAndChangesNothing) {
    const Clips clips = locomotionClips();
    auto desc = locomotionDesc();
    desc.states[1].speed = 3e38f;
    desc.defaultState = "walk";
    const auto def = define(desc, clips);
    StateMachine sm(def);
    ASSERT_TRUE(sm.setFloat("speed", 1.0f).ok());
    tick(sm, 0.25);
    const std::string before = sm.describe();
    const std::size_t events = sm.events().size();
    EXPECT_FALSE(sm.update(1e300).ok());  // 3e38 * 1e300 is not a double
    EXPECT_EQ(sm.describe(), before);
    EXPECT_EQ(sm.events().size(), events);
}

// A 1D blend space state: walk at speed 1, run at speed 3.
StateMachineDesc blendDesc(BlendSync sync) {
    StateMachineDesc d;
    d.parameters = {{"speed", ParameterType::Float, 0.0f}};
    StateDesc idle = clipState("idle", "idle");
    StateDesc move;  // a blend space, no clip
    move.name = "move";
    move.blendSpace = BlendSpaceDesc{1, "speed", "", sync, {{"walk", 1.0f, 0.0f}, {"run", 3.0f, 0.0f}}};
    d.states = {idle, move};
    TransitionDesc go = transition("idle", "move", 0.5f);
    go.conditions = {greater("speed", 0.1f)};
    d.transitions = {go};
    return d;
}

TEST(StateMachine, AMachineMovedFromRefusesAndTheOneMovedToCarriesOn) {
    const Clips clips = locomotionClips();
    auto desc = blendDesc(BlendSync::NormalizedTime);
    desc.defaultState = "move";  // a blend space state: its time reads a blend player
    desc.transitions = {transition("move", "idle", 0.5f)};
    desc.transitions[0].conditions = {less("speed", 0.5f)};
    const auto def = define(desc, clips);
    StateMachine a(def);
    ASSERT_TRUE(a.setFloat("speed", 2.0f).ok());
    tick(a, 0.25);
    ASSERT_TRUE(a.setFloat("speed", 0.0f).ok());
    tick(a, 0.1);
    ASSERT_TRUE(a.transitioning());
    const std::string before = a.describe();
    StateMachine b = std::move(a);
    EXPECT_EQ(b.describe(), before);
    EXPECT_EQ(a.update(0.1).code, StatusCode::NotReady);
    EXPECT_FALSE(a.forceState(0));
    EXPECT_EQ(a.setFloat("speed", 1.0f).code, StatusCode::NotReady);
    EXPECT_EQ(a.setFloat(0, 1.0f).code, StatusCode::NotReady);
    EXPECT_TRUE(a.samples().empty());
    EXPECT_TRUE(a.motion().empty());
    EXPECT_TRUE(a.events().empty());
    EXPECT_FALSE(a.transitioning());
    EXPECT_EQ(a.currentTime(), 0.0);
    EXPECT_EQ(&a.definition(), &def);
    EXPECT_EQ(a.describe(), "state machine moved from\n");
    // The machine moved to finishes the fade, which began as the last update ended.
    tick(b, 0.4);
    EXPECT_TRUE(b.transitioning());
    tick(b, 0.1);
    EXPECT_FALSE(b.transitioning());
    EXPECT_EQ(b.currentState(), *def.findState("idle"));
    // Assigned over, the moved-from machine is whole again.
    a = std::move(b);
    EXPECT_TRUE(a.update(0.1).ok());
    EXPECT_EQ(b.update(0.1).code, StatusCode::NotReady);
}

TEST(StateMachine, BlendSpaceStateWeighsItsClipsByParameter) {
    const Clips clips = locomotionClips();
    const auto def = define(blendDesc(BlendSync::NormalizedTime), clips);
    EXPECT_EQ(def.clips().size(), 3u);  // idle, walk, run
    StateMachine sm(def);
    EXPECT_TRUE(sm.setFloat("speed", 2.0f).ok());
    tick(sm, 0.0);
    tick(sm, 0.25);  // half way through the fade
    EXPECT_NEAR(weightOf(sm, "idle"), 0.5f, 1e-6f);
    EXPECT_NEAR(weightOf(sm, "walk"), 0.25f, 1e-6f);
    EXPECT_NEAR(weightOf(sm, "run"), 0.25f, 1e-6f);
    tick(sm, 0.25);
    EXPECT_EQ(sm.currentState(), 1u);
    EXPECT_TRUE(sm.setFloat("speed", 2.5f).ok());
    tick(sm, 0.0);
    EXPECT_NEAR(weightOf(sm, "walk"), 0.25f, 1e-6f);
    EXPECT_NEAR(weightOf(sm, "run"), 0.75f, 1e-6f);
    float sum = 0.0f;
    for (const MotionSample& s : sm.samples()) {
        sum += s.weight;
        EXPECT_EQ(def.clips()[s.clipSlot], s.clip);
    }
    EXPECT_NEAR(sum, 1.0f, 1e-6f);
}

TEST(StateMachine, BlendSpaceAnnouncesTheLeadingClipsMarkersOnce) {
    const Clips clips = locomotionClips();
    auto desc = blendDesc(BlendSync::Markers);
    desc.defaultState = "move";
    const auto def = define(desc, clips);
    StateMachine sm(def);
    EXPECT_TRUE(sm.setFloat("speed", 2.0f).ok());  // walk and run at 50 %: a cycle of 0.75 s
    int footsteps = 0;
    for (int i = 0; i < 263; ++i) {  // 1.315 s: 1.753 cycles
        tick(sm, 1.0 / 200.0);
        footsteps += static_cast<int>(sm.events().size());
    }
    EXPECT_EQ(footsteps, 3);  // footR at phase 0.5, footL at 1, footR at 1.5; one clip's markers only
}

TEST(StateMachine, DescribeNamesStatesAndParameters) {
    const Clips clips = locomotionClips();
    const auto def = define(locomotionDesc(), clips);
    StateMachine sm(def);
    EXPECT_TRUE(sm.setFloat("speed", 1.0f).ok());
    tick(sm, 0.0);
    const std::string text = sm.describe();
    EXPECT_NE(text.find("current idle"), std::string::npos) << text;
    EXPECT_NE(text.find("target  walk"), std::string::npos) << text;
    EXPECT_NE(text.find("speed=1"), std::string::npos) << text;
}

// After 1e300 s the normalised time (laps) is written out whole (300 digits), and each
// part stays on its own line.
TEST(StateMachine, DescribeWritesHugeTimesWhole) {
    const Clips clips = locomotionClips();
    const auto def = define(locomotionDesc(), clips);
    StateMachine sm(def);
    ASSERT_TRUE(sm.update(1e300).ok());
    const std::string text = sm.describe();
    char digits[400];
    std::snprintf(digits, sizeof digits, "normalised %.4f,", sm.currentNormalizedTime());
    ASSERT_GT(std::strlen(digits), 300u);
    EXPECT_NE(text.find(digits), std::string::npos) << text;
    EXPECT_NE(text.find("\nparameters: speed=0"), std::string::npos) << text;
}

// ---- validation

std::vector<std::string> faultPlaces(const StateMachineDesc& desc, const Clips& clips) {
    auto def = StateMachineDefinition::create(desc, clips.lookup());
    std::vector<std::string> places;
    for (const Fault& f : def.faults()) places.push_back(f.where);
    return places;
}

using Places = std::vector<std::string>;

TEST(StateMachineValidation, EveryFaultIsLocatedByItsPointer) {
    const Clips clips = locomotionClips();
    auto d = locomotionDesc();
    d.parameters.push_back({"speed", ParameterType::Float, 0.0f});  // /parameters/2/name: twice
    d.states[1].clip = "wlak";                                      // /states/1/clip
    d.states[2].speed = INFINITY;                                   // /states/2/speed
    d.transitions[0].conditions[0].parameter = "jump";              // a trigger compared with >
    d.transitions[1].to = "nowhere";                                // /transitions/1/to
    d.transitions[2].duration = -1.0f;                              // /transitions/2/duration
    d.transitions[3].offset = 1.0f;                                 // /transitions/3/offset
    d.defaultState = "sleep";
    d.parameters.push_back({"fire", ParameterType::Trigger, 1.0f});  // /parameters/3/default: a trigger starts unset
    EXPECT_EQ(faultPlaces(d, clips),
              (Places{"/parameters/2/name", "/parameters/3/default", "/states/1/clip", "/states/2/speed",
                      "/transitions/0/conditions/0/parameter", "/transitions/1/to", "/transitions/2/duration",
                      "/transitions/3/offset", "/defaultState"}));
}

// "*" means any state in a transition, so no state may be named so; a named source
// state may always transition into itself, so the flag there would say nothing.
TEST(StateMachineValidation, AStarStateAndASelfFlagOnANamedSourceAreRefused) {
    const Clips clips = locomotionClips();
    auto d = locomotionDesc();
    d.states[0].name = "*";
    d.defaultState = "walk";
    d.transitions[0].from = "walk";
    d.transitions[1].canTransitionToSelf = true;
    EXPECT_EQ(
        faultPlaces(d, clips),
        (Places{"/states/0/name", "/transitions/1/canTransitionToSelf", "/transitions/1/to", "/transitions/3/to"}));
}

// "<prefix><i>" (built by appending: GCC 12 misreads `"s" + std::to_string(i)` as an overlapping copy).
std::string numbered(const char* prefix, std::size_t i) {
    std::string out(prefix);
    out += std::to_string(i);
    return out;
}

// Many states and parameters: names resolve to their own index (the lookups are
// hashed, so this loads in time linear in the count), duplicates are reported at
// the later entry, and a ladder of transitions walks state to state.
TEST(StateMachineValidation, ManyStatesResolveByName) {
    const Clips clips = locomotionClips();
    constexpr std::size_t kStates = 20000;
    StateMachineDesc desc;
    desc.parameters.push_back({"go", ParameterType::Trigger, 0.0f});
    for (std::size_t i = 0; i < 500; ++i) desc.parameters.push_back({numbered("p", i), ParameterType::Float, 0.0f});
    for (std::size_t i = 0; i < kStates; ++i) desc.states.push_back(clipState(numbered("s", i), "idle"));
    for (std::size_t i = 0; i + 1 < kStates; ++i) {
        TransitionDesc t = transition(numbered("s", i), numbered("s", i + 1), 0.0f);
        t.conditions = {{"go", ConditionOp::IsTrue, 0.0f}};
        desc.transitions.push_back(std::move(t));
    }
    desc.defaultState = "s19990";
    const auto def = define(desc, clips);
    EXPECT_EQ(def.findState("s12345"), 12345u);
    EXPECT_EQ(def.findParameter("p499"), 500u);
    EXPECT_FALSE(def.findState("s20000").has_value());
    StateMachine sm(def);
    for (int step = 0; step < 3; ++step) {
        ASSERT_TRUE(sm.setTrigger(0).ok());
        tick(sm, 0.0);
    }
    EXPECT_EQ(sm.currentState(), 19993u);
    EXPECT_TRUE(sm.setFloat("p250", 2.0f).ok());
    EXPECT_EQ(sm.floatValue(251), 2.0f);

    desc.states[kStates - 1].name = "s7";
    desc.parameters.back().name = "go";
    EXPECT_EQ(faultPlaces(desc, clips),
              (Places{"/parameters/500/name", "/states/19999/name", "/transitions/19998/to"}));
}

// A description of many faults lists the first 500 and says more were found.
TEST(StateMachineValidation, AFloodOfFaultsIsCutShort) {
    const Clips clips = locomotionClips();
    StateMachineDesc desc;
    for (std::size_t i = 0; i < 2000; ++i) desc.states.push_back(clipState(numbered("s", i), "no such clip"));
    const auto def = StateMachineDefinition::create(desc, clips.lookup());
    ASSERT_FALSE(def.ok());
    ASSERT_EQ(def.faults().size(), kMaxListedFaults + 1);
    EXPECT_EQ(def.faults().front().where, "/states/0/clip");
    EXPECT_EQ(def.faults().back().what, "more faults not listed");
}

TEST(ClipsByName, FindsTheFirstClipOfANameOrNone) {
    std::vector<Clip> clips;
    for (const char* name : {"walk", "", "walk"}) clips.push_back(Clip::create(name, {}).value());
    const ClipLookup lookup = clipsByName(clips);
    EXPECT_EQ(lookup("walk"), &clips[0]);
    EXPECT_EQ(lookup(""), &clips[1]);
    EXPECT_EQ(lookup("run"), nullptr);
}

TEST(StateMachineValidation, StatesNeedExactlyOneMotion) {
    const Clips clips = locomotionClips();
    auto d = locomotionDesc();
    d.states[0].clip.reset();
    d.states[1].blendSpace = BlendSpaceDesc{1, "speed", "", BlendSync::NormalizedTime, {{"walk", 0.0f, 0.0f}}};
    EXPECT_EQ(faultPlaces(d, clips), (Places{"/states/0", "/states/1"}));
    d.states.clear();
    d.transitions.clear();
    d.defaultState.clear();
    EXPECT_EQ(faultPlaces(d, clips), (Places{"/states"}));
}

TEST(StateMachineValidation, BlendSpaceFaultsAreLocatedInsideTheState) {
    const Clips clips = locomotionClips();
    auto d = blendDesc(BlendSync::NormalizedTime);
    d.states[1].blendSpace->xParameter = "missing";
    d.states[1].blendSpace->clips[1].clip = "sprint";
    EXPECT_EQ(faultPlaces(d, clips), (Places{"/states/1/blendSpace/x", "/states/1/blendSpace/clips/1/clip"}));
    d = blendDesc(BlendSync::NormalizedTime);
    d.states[1].blendSpace->clips[1].x = 1.0f;  // two clips at one position: the blend space says where
    const auto places = faultPlaces(d, clips);
    ASSERT_FALSE(places.empty());
    EXPECT_EQ(places[0].rfind("/states/1/blendSpace/", 0), 0u) << places[0];
    d = blendDesc(BlendSync::NormalizedTime);
    d.states[1].mode = LoopMode::Clamp;
    EXPECT_EQ(faultPlaces(d, clips), (Places{"/states/1/mode"}));
}

TEST(StateMachineValidation, MarkerSyncFaultsPointAtTheEntryNamingTheClip) {
    // Markers come with the clips, not with the description: a fault about one points
    // at the blend space entry that names its clip and says which marker.
    Clips clips = locomotionClips();
    clips.byName.erase("run");
    clips.byName.emplace("run", makeClip("run", 0.5f, {{"footL", 0.0f}, {"footL", 0.25f}}));
    clips.byName.emplace("hop", makeClip("hop", 0.5f, {{"footL", 0.0f}}));
    auto d = blendDesc(BlendSync::Markers);
    d.states[1].blendSpace->clips.push_back({"idle", 5.0f, 0.0f});  // no markers
    d.states[1].blendSpace->clips.push_back({"hop", 7.0f, 0.0f});   // one marker of two
    const auto def = StateMachineDefinition::create(d, clips.lookup());
    ASSERT_FALSE(def.ok());
    const auto faults = def.faults();
    ASSERT_EQ(faults.size(), 3u) << def.message();
    EXPECT_EQ(faults[0].where, "/states/1/blendSpace/clips/1/clip");
    EXPECT_EQ(faults[0].what.rfind("the clip's marker 1 is \"footL\" where clips/0's marker 1 is \"footR\"", 0), 0u)
        << faults[0].what;
    EXPECT_EQ(faults[1].where, "/states/1/blendSpace/clips/2/clip");
    EXPECT_EQ(faults[1].what.rfind("clip \"idle\" has no markers", 0), 0u) << faults[1].what;
    EXPECT_EQ(faults[2].where, "/states/1/blendSpace/clips/3/clip");
    EXPECT_EQ(faults[2].what.rfind("the clip has 1 marker where clips/0 has 2", 0), 0u) << faults[2].what;
}

TEST(StateMachineValidation, ConditionOperatorsNeedTheirParameterTypes) {
    const Clips clips = locomotionClips();
    auto d = locomotionDesc();
    d.parameters.push_back({"armed", ParameterType::Bool, 1.0f});
    d.transitions[0].conditions = {{"armed", ConditionOp::Greater, 1.0f},         // bool compared
                                   {"jump", ConditionOp::IsFalse, 0.0f},          // trigger tested false
                                   {"speed", ConditionOp::IsTrue, 0.0f},          // float tested true
                                   {"armed", ConditionOp::IsFalse, 0.0f},         // fine
                                   {"speed", ConditionOp::Less, std::nanf("")}};  // value not finite
    EXPECT_EQ(faultPlaces(d, clips),
              (Places{"/transitions/0/conditions/0/parameter", "/transitions/0/conditions/1/parameter",
                      "/transitions/0/conditions/2/parameter", "/transitions/0/conditions/4/value"}));
}

}  // namespace

namespace {

using namespace kinema;

// walk -> run when speed > 2, optionally entering the run at the walk's marker phase.
StateMachineDesc walkToRun(bool sync, float offset = 0.0f) {
    StateMachineDesc d;
    d.parameters = {{"speed", ParameterType::Float, 0.0f}};
    d.states = {test::clipState("walk", "walk"), test::clipState("run", "run")};
    TransitionDesc t;
    t.from = "walk";
    t.to = "run";
    t.duration = 0.2f;
    t.conditions = {{"speed", ConditionOp::Greater, 2.0f}};
    t.syncMarkers = sync;
    t.offset = offset;
    d.transitions = {t};
    return d;
}

double runStartAfterWalking(const StateMachineDesc& desc, const std::map<std::string, Clip, std::less<>>& clips,
                            double walked) {
    auto def = StateMachineDefinition::create(desc, [&](std::string_view n) -> const Clip* {
        const auto it = clips.find(n);
        return it == clips.end() ? nullptr : &it->second;
    });
    EXPECT_TRUE(def.ok()) << def.message();
    StateMachine sm(*def);
    EXPECT_TRUE(sm.update(walked).ok());
    EXPECT_TRUE(sm.setFloat("speed", 3.0f).ok());
    EXPECT_TRUE(sm.update(0.0).ok());
    EXPECT_TRUE(sm.transitioning());
    return sm.targetTime();
}

TEST(StateMachineSync, ATransitionCanEnterAtTheSourcesMarkerPhase) {
    std::map<std::string, Clip, std::less<>> clips;
    clips.emplace("walk", test::lineClip("walk", 1.0f, {{"footL", 0.0f}, {"footR", 0.5f}}));
    clips.emplace("run", test::lineClip("run", 0.5f, {{"footL", 0.0f}, {"footR", 0.25f}}));
    // 0.6 s into the walk: 20 % of the way from footR to footL; the run's footR ->
    // footL gap is 0.25 -> 0.5, so it enters at 0.25 + 0.2 * 0.25 = 0.3 s.
    EXPECT_NEAR(runStartAfterWalking(walkToRun(true), clips, 0.6), 0.3, 1e-9);
    // 0.3 s in: 60 % of the way from footL to footR -> 0.15 s.
    EXPECT_NEAR(runStartAfterWalking(walkToRun(true), clips, 0.3), 0.15, 1e-9);
    // Without sync the run starts at its offset.
    EXPECT_NEAR(runStartAfterWalking(walkToRun(false, 0.5f), clips, 0.6), 0.25, 1e-9);
    // A destination without the source's marker falls back to the offset.
    clips.erase("run");
    clips.emplace("run", test::lineClip("run", 0.5f, {{"hit", 0.1f}}));
    EXPECT_NEAR(runStartAfterWalking(walkToRun(true, 0.5f), clips, 0.6), 0.25, 1e-9);
}

TEST(StateMachineSync, AOneShotPlayedBackwardsEntersAtTheSyncedPlaceOnItsTimeline) {
    std::map<std::string, Clip, std::less<>> clips;
    clips.emplace("walk", test::lineClip("walk", 1.0f, {{"footL", 0.1f}, {"footR", 0.6f}}));
    clips.emplace("run", test::lineClip("run", 0.5f, {{"footL", 0.2f}, {"footR", 0.4f}}));
    StateMachineDesc desc = walkToRun(true, 0.1f);
    desc.states[1].mode = LoopMode::Clamp;
    desc.states[1].speed = -1.0f;
    // 0.35 s into the walk is half way from footL to footR: the run enters half way
    // between its own, at 0.3 s, though it plays toward its start.
    EXPECT_NEAR(runStartAfterWalking(desc, clips, 0.35), 0.3, 1e-9);
    // An offset is measured along the way it plays: 0.1 of the way back from the end.
    desc.transitions[0].syncMarkers = false;
    EXPECT_NEAR(runStartAfterWalking(desc, clips, 0.35), 0.45, 1e-9);
}

}  // namespace
