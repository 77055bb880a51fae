// Crossfade: one test per row of the call table in cross_fade.hpp (and
// docs/DECISIONS.md), the outgoing clip keeps advancing with its own loop policy,
// the countdown runs in unscaled seconds and is gated on elapsed time (not on
// playing), and the easing shapes the weight.
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

#include "kinema/asset/clip.hpp"
#include "kinema/play/cross_fade.hpp"

namespace {

using namespace kinema;

Clip clipOf(const char* name, float duration) {
    Track t;
    t.path = TrackPath::Translation;
    t.times = {0.0f, duration};
    t.values = {0, 0, 0, 1, 0, 0};
    return Clip::create(name, {t}).value();
}

CrossFadeStep advance(CrossFade& f, double elapsed) {
    CrossFadeStep s;
    EXPECT_TRUE(f.update(elapsed, s).ok());
    return s;
}

// Steps that add up to the duration in decimals sum a rounding error short of it in
// binary (ten of 0.1 s make 0.9999999999999999): the fade ends on that update, not
// one later at an outgoing weight of 1e-16.
TEST(CrossFade, StepsThatAddUpToTheDurationEndTheFade) {
    const Clip walk = clipOf("walk", 1.0f), run = clipOf("run", 0.5f);
    for (const auto& [seconds, step, updates] : {std::tuple{1.0, 0.1, 10}, std::tuple{0.5, 1.0 / 60.0, 30}}) {
        CrossFade f;
        f.crossFadeTo(&walk, 0.0);
        f.crossFadeTo(&run, seconds);
        for (int i = 0; i < updates; ++i) {
            EXPECT_TRUE(f.fading()) << seconds << " s, update " << i;
            advance(f, step);
        }
        EXPECT_FALSE(f.fading()) << seconds << " s in steps of " << step;
        EXPECT_EQ(f.currentWeight(), 1.0f);
    }
}

TEST(CrossFade, TheClipAlreadyPlayingIsLeftAlone) {
    const Clip walk = clipOf("walk", 1.0f);
    CrossFade f;
    f.crossFadeTo(&walk, 0.0);
    advance(f, 0.4);
    f.crossFadeTo(&walk, 0.3);
    EXPECT_FALSE(f.fading());
    EXPECT_NEAR(f.current().position(), 0.4, 1e-12) << "not restarted";
}

TEST(CrossFade, TheSameClipStoppedPlaysAgainFromItsStart) {
    const Clip flinch = clipOf("flinch", 0.5f);
    CrossFade f;
    f.crossFadeTo(&flinch, 0.0, LoopMode::Clamp);
    advance(f, 1.0);
    ASSERT_FALSE(f.current().playing()) << "the one-shot ran out";
    f.crossFadeTo(&flinch, 0.2, LoopMode::Clamp);
    EXPECT_TRUE(f.current().playing());
    EXPECT_EQ(f.current().position(), 0.0);
    ASSERT_TRUE(f.fading()) << "blended out of the held last frame";
    EXPECT_EQ(f.outgoing()->position(), 0.5);
}

TEST(CrossFade, AnyClipWhileTheCurrentIsStoppedBlendsOutOfTheHeldFrameWhichAdvances) {
    const Clip run = clipOf("run", 1.0f), walk = clipOf("walk", 1.0f);
    CrossFade f;
    f.crossFadeTo(&run, 0.0);
    advance(f, 0.3);
    f.current().pause();
    f.crossFadeTo(&walk, 0.5);
    ASSERT_TRUE(f.fading());
    EXPECT_EQ(f.outgoing()->clip(), &run);
    EXPECT_NEAR(f.outgoing()->position(), 0.3, 1e-12);
    const CrossFadeStep s = advance(f, 0.1);
    ASSERT_TRUE(s.outgoing.has_value());
    EXPECT_NEAR(s.outgoing->travel, 0.1, 1e-12) << "stopped is not frozen: it advances as it fades";
    EXPECT_NEAR(f.currentWeight(), 0.2f, 1e-6f);
}

TEST(CrossFade, NoCurrentClipOrNoTimeIsACut) {
    const Clip run = clipOf("run", 1.0f), walk = clipOf("walk", 1.0f);
    CrossFade f;
    f.crossFadeTo(&run, 0.5);
    EXPECT_FALSE(f.fading()) << "nothing to blend out of";
    EXPECT_EQ(f.current().clip(), &run);
    EXPECT_EQ(f.currentWeight(), 1.0f);
    advance(f, 0.2);
    f.crossFadeTo(&walk, 0.0);
    EXPECT_FALSE(f.fading()) << "no time to blend in";
    EXPECT_EQ(f.current().clip(), &walk);
    f.crossFadeTo(&run, -1.0);
    EXPECT_FALSE(f.fading());
    f.crossFadeTo(nullptr, 0.5);
    EXPECT_EQ(f.current().clip(), nullptr);
    EXPECT_FALSE(f.fading());
}

TEST(CrossFade, AgainMidFadeDropsTheOutgoingClip) {
    const Clip a = clipOf("a", 1.0f), b = clipOf("b", 1.0f), c = clipOf("c", 1.0f);
    CrossFade f;
    f.crossFadeTo(&a, 0.0);
    advance(f, 0.1);
    f.crossFadeTo(&b, 0.4);
    advance(f, 0.1);
    ASSERT_EQ(f.outgoing()->clip(), &a);
    f.crossFadeTo(&c, 0.4);
    ASSERT_TRUE(f.fading());
    EXPECT_EQ(f.outgoing()->clip(), &b) << "the fade now runs from the clip that was fading in";
    EXPECT_NEAR(f.outgoing()->position(), 0.1, 1e-12) << "b keeps its own head";
    EXPECT_EQ(f.current().clip(), &c);
    EXPECT_EQ(f.currentWeight(), 0.0f);
}

TEST(CrossFade, OutgoingKeepsItsOwnLoopPolicyAndTheCountdownIsUnscaledAndUngated) {
    const Clip death = clipOf("death", 1.0f), walk = clipOf("walk", 0.25f);
    CrossFade f;
    f.crossFadeTo(&walk, 0.0, LoopMode::Loop);
    advance(f, 0.1);
    EXPECT_TRUE(f.current().setSpeed(4.0).ok());
    f.crossFadeTo(&death, 0.5, LoopMode::Clamp);
    // The outgoing walk keeps looping at its own speed while the death plays once.
    const CrossFadeStep s = advance(f, 0.1);
    ASSERT_TRUE(s.outgoing.has_value());
    EXPECT_NEAR(s.outgoing->travel, 0.4, 1e-12) << "outgoing keeps its speed";
    EXPECT_LT(s.outgoing->to, s.outgoing->from) << "and wraps: it loops";
    // Speed does not shorten the fade: 0.5 s of elapsed time, whatever the clips do.
    EXPECT_TRUE(f.current().setSpeed(10.0).ok());
    advance(f, 0.2);
    EXPECT_TRUE(f.fading());
    EXPECT_NEAR(f.remaining(), 0.2, 1e-12);
    EXPECT_FALSE(f.current().playing()) << "the one-shot already ended (10x speed)";
    advance(f, 0.2);
    EXPECT_FALSE(f.fading()) << "the fade finishes although the incoming clip stopped";
    EXPECT_EQ(f.currentWeight(), 1.0f);
    EXPECT_EQ(f.current().position(), 1.0) << "settled on the target clip's last frame";
}

TEST(CrossFade, EasingShapesTheWeightAndBadTimeChangesNothing) {
    const Clip a = clipOf("a", 1.0f), b = clipOf("b", 1.0f);
    CrossFade f;
    f.crossFadeTo(&a, 0.0);
    f.crossFadeTo(&b, 1.0, LoopMode::Loop, Easing::InQuad);
    advance(f, 0.5);
    EXPECT_NEAR(f.currentWeight(), 0.25f, 1e-6f);
    CrossFadeStep s;
    EXPECT_FALSE(f.update(-1.0, s).ok());
    EXPECT_FALSE(f.update(NAN, s).ok());
    EXPECT_NEAR(f.remaining(), 0.5, 1e-12);
    EXPECT_NEAR(f.current().position(), 0.5, 1e-12);
}

TEST(CrossFade, OvershootingEasingsStayWithinZeroAndOne) {
    // inBack dips below 0 early in the fade (t^2 (2.70158 t - 1.70158) < 0 for t < 0.63)
    // and outBack rises above 1 late; a weight is a share of the pose, so it is clamped.
    const Clip a = clipOf("a", 1.0f), b = clipOf("b", 1.0f);
    for (const Easing e : {Easing::InBack, Easing::OutBack, Easing::InOutElastic}) {
        CrossFade f;
        f.crossFadeTo(&a, 0.0);
        f.crossFadeTo(&b, 1.0, LoopMode::Loop, e);
        bool outside = false;
        for (int i = 0; i < 20; ++i) {
            const float raw = ease(e, static_cast<float>(1.0 - f.remaining()));
            outside = outside || raw < 0.0f || raw > 1.0f;
            EXPECT_GE(f.currentWeight(), 0.0f) << toString(e);
            EXPECT_LE(f.currentWeight(), 1.0f) << toString(e);
            advance(f, 0.05);
        }
        EXPECT_TRUE(outside) << toString(e) << " was meant to overshoot";
    }
}

}  // namespace
