// Root motion: deltas across loop wraps, several laps, backwards, held at the
// end of a one-shot, a turning loop whose laps compose into a curve, ping-pong
// legs, per-axis masks, the heading taken apart from the lean, and the pose kept
// in place - against closed forms.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <utility>

#include "kinema/math/quat.hpp"
#include "kinema/play/root_motion.hpp"

namespace {

using namespace kinema;

// A 1 s walk: the root (joint 0) goes from (0, 0.9, 0) to (1, 1.1, 0) linearly,
// optionally turning `turn` radians about +Y over the clip.
Clip walk(float turn) {
    Track t;
    t.path = TrackPath::Translation;
    t.times = {0.0f, 1.0f};
    t.values = {0.0f, 0.9f, 0.0f, 1.0f, 1.1f, 0.0f};
    std::vector<Track> tracks{t};
    if (turn != 0.0f) {
        Track r;
        r.path = TrackPath::Rotation;
        r.width = 4;
        const int keys = 9;  // fine keys: slerp between them is the uniform turn
        for (int k = 0; k < keys; ++k) {
            const float u = static_cast<float>(k) / (keys - 1);
            r.times.push_back(u);
            const Quat q = fromAxisAngle({0.0f, 1.0f, 0.0f}, turn * u);
            r.values.insert(r.values.end(), {q.x, q.y, q.z, q.w});
        }
        tracks.push_back(r);
    }
    return Clip::create("walk", tracks).value();
}

RootMotion motionOf(const Clip& clip, RootMotionMask mask = {}) {
    auto r = RootMotion::create(clip, 0, Transform{}, mask);
    EXPECT_TRUE(r.ok()) << r.message();
    return std::move(r).value();
}

TEST(RootMotion, WithinALapAcrossAWrapOverSeveralLapsAndBackwards) {
    const Clip clip = walk(0.0f);
    const RootMotion m = motionOf(clip);
    EXPECT_NEAR(m.delta(LoopMode::Loop, {0.2, 0.5, 0.3}).translation.x, 0.3f, 1e-6f);
    EXPECT_NEAR(m.delta(LoopMode::Loop, {0.9, 0.1, 0.2}).translation.x, 0.2f, 1e-6f) << "across the wrap";
    EXPECT_NEAR(m.delta(LoopMode::Loop, {0.1, 0.6, 2.5}).translation.x, 2.5f, 1e-5f) << "two and a half laps";
    EXPECT_NEAR(m.delta(LoopMode::Loop, {0.5, 0.3, -0.2}).translation.x, -0.2f, 1e-6f) << "backwards";
    EXPECT_NEAR(m.delta(LoopMode::Loop, {0.1, 0.9, -0.2}).translation.x, -0.2f, 1e-6f) << "backwards over the wrap";
    EXPECT_EQ(m.delta(LoopMode::Loop, {0.4, 0.4, 0.0}).translation.x, 0.0f);
    // The vertical bob is not extracted by default.
    EXPECT_EQ(m.delta(LoopMode::Loop, {0.2, 0.5, 0.3}).translation.y, 0.0f);
    // A one-shot's step already stops at the end: the motion stops with it.
    EXPECT_NEAR(m.delta(LoopMode::Clamp, {0.8, 1.0, 0.2}).translation.x, 0.2f, 1e-6f);
    // Ping-pong: out to the end and back to 0.6 is 0.2 forward, then 0.4 backward.
    EXPECT_NEAR(m.delta(LoopMode::PingPong, {0.8, 1.4, 0.6}).translation.x, -0.2f, 1e-6f);
}

// Millions of laps in one step (a clip at a very high speed): every lap counts. The
// walk goes 1 m a lap; 2e6 and 1e7 m are whole floats, and so is every partial sum.
TEST(RootMotion, MillionsOfLapsInOneStepAllCount) {
    const Clip clip = walk(0.0f);
    const RootMotion m = motionOf(clip);
    EXPECT_EQ(m.delta(LoopMode::Loop, {0.0, 0.0, 2e6}).translation.x, 2e6f);
    EXPECT_EQ(m.delta(LoopMode::Loop, {0.0, 0.0, 1e7}).translation.x, 1e7f);
    EXPECT_EQ(m.delta(LoopMode::Loop, {0.0, 0.0, -1e7}).translation.x, -1e7f);
    EXPECT_EQ(m.delta(LoopMode::PingPong, {0.0, 0.0, 2e7}).translation.x, 0.0f);  // out and back, 1e7 times
}

// A caller's own clock counts on past the first lap (and may start below 0): the
// step's ends are wrapped first, so the walk's 1 m a second is found wherever the
// clock stands.
TEST(RootMotion, StepsFromACallersOwnClockAreWrappedFirst) {
    const Clip clip = walk(0.0f);
    const RootMotion m = motionOf(clip);
    EXPECT_NEAR(m.delta(LoopMode::Loop, {1.2, 1.4, 0.2}).translation.x, 0.2f, 1e-6f);
    EXPECT_NEAR(m.delta(LoopMode::Loop, {5.0, 7.0, 2.0}).translation.x, 2.0f, 1e-5f);
    EXPECT_NEAR(m.delta(LoopMode::Loop, {-0.3, -0.1, 0.2}).translation.x, 0.2f, 1e-6f);
    EXPECT_NEAR(m.delta(LoopMode::Loop, {3.9, 3.7, -0.2}).translation.x, -0.2f, 1e-6f);
    // Ping-pong phase 2.8 is phase 0.8 of the next round trip: out to the end, back to 0.6.
    EXPECT_NEAR(m.delta(LoopMode::PingPong, {2.8, 3.4, 0.6}).translation.x, -0.2f, 1e-6f);
}

// A step that is not finite moves nothing (it once walked laps forever).
TEST(RootMotion, AStepThatIsNotFiniteMovesNothing) {
    const RootMotion m = motionOf(walk(0.5f));
    const double inf = INFINITY;
    for (const LoopMode mode : {LoopMode::Loop, LoopMode::PingPong, LoopMode::Clamp}) {
        for (const PlaybackStep step : {PlaybackStep{0.0, 0.5, inf}, PlaybackStep{0.0, 0.5, -inf},
                                        PlaybackStep{NAN, 0.5, 0.5}, PlaybackStep{0.0, inf, 0.5}}) {
            const Transform d = m.delta(mode, step);
            EXPECT_EQ(d.translation.x, 0.0f);
            EXPECT_EQ(d.rotation.w, 1.0f);
        }
    }
}

// Laps of a clip whose length is no power of two: the part left after the whole laps
// is the exact remainder, so a step of 1e26 and more clip lengths takes as long as any
// other and moves the laps' distance (it once walked its rounding error lap by lap).
TEST(RootMotion, HugeStepsOfAnyClipLengthMoveTheirLaps) {
    for (const auto& [seconds, travel] : {std::pair{0.7f, 3e26}, std::pair{1.5f, 9e24}, std::pair{1.2f, 5e28}}) {
        Track t;
        t.path = TrackPath::Translation;
        t.times = {0.0f, seconds};
        t.values = {0.0f, 0.0f, 0.0f, 2.0f, 0.0f, 0.0f};  // 2 m along x a lap
        const Clip clip = Clip::create("walk", {t}).value();
        const RootMotion m = motionOf(clip);
        const double metres = travel / static_cast<double>(seconds) * 2.0;
        for (const double sign : {1.0, -1.0}) {
            const Transform d = m.delta(LoopMode::Loop, PlaybackStep{0.1, 0.1, sign * travel});
            EXPECT_NEAR(d.translation.x / metres, sign, 1e-4) << seconds << " s, " << travel;
        }
    }
}

// A straight walk of 1 unit along x a lap: 1e37 laps are 1e37 units, still a float;
// 1e39 and more are past a float's range, and move nothing rather than an infinite or
// NaN distance.
TEST(RootMotion, StepsPastAFloatsRangeMoveNothing) {
    const RootMotion m = motionOf(walk(0.0f));
    const Transform held = m.delta(LoopMode::Loop, PlaybackStep{0.0, 0.0, 1e37});
    EXPECT_NEAR(held.translation.x / 1e37f, 1.0f, 1e-3f);
    for (const double travel : {1e39, -1e39, 1e100, 1e300}) {
        for (const LoopMode mode : {LoopMode::Loop, LoopMode::PingPong}) {
            const Transform d = m.delta(mode, PlaybackStep{0.0, 0.0, travel});
            EXPECT_EQ(d.translation, Vec3{}) << travel;
            EXPECT_EQ(d.rotation, Quat{}) << travel;
        }
    }
}

TEST(RootMotion, ARestTransformThatIsNotFiniteOrHasNoRotationIsRefused) {
    const Clip clip = walk(0.0f);
    Transform nan;
    nan.translation.y = NAN;
    Transform zero;
    zero.rotation = {0.0f, 0.0f, 0.0f, 0.0f};
    for (const Transform& rest : {nan, zero}) {
        const auto r = RootMotion::create(clip, 0, rest);
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.faults().front().where, "rest");
    }
    Transform doubled;
    doubled.rotation = {0.0f, 0.0f, 0.0f, 2.0f};  // normalised: the identity
    EXPECT_TRUE(RootMotion::create(clip, 0, doubled).ok());
}

TEST(RootMotion, ATurningLoopCurvesLapAfterLap) {
    const float quarter = static_cast<float>(std::numbers::pi / 2.0);
    const Clip clip = walk(quarter);
    const RootMotion m = motionOf(clip);
    // One lap: the root moves from (0,0,0) with no turn to (1,0,0) turned 90 deg; in the
    // frame of the start that is a translation (1,0,0) and a quarter turn.
    const Transform one = m.delta(LoopMode::Loop, {0.0, 0.0, 1.0});
    EXPECT_NEAR(one.translation.x, 1.0f, 1e-5f);
    EXPECT_NEAR(one.translation.z, 0.0f, 1e-5f);
    // Two laps: the second lap's step of (1,0,0) is taken in the turned frame, where
    // +X points along -Z (a +90 deg turn about +Y maps x to -z): total (1, 0, -1), half a turn.
    const Transform two = m.delta(LoopMode::Loop, {0.0, 0.0, 2.0});
    EXPECT_NEAR(two.translation.x, 1.0f, 1e-5f);
    EXPECT_NEAR(two.translation.z, -1.0f, 1e-5f);
    const Vec3 forward = rotate(two.rotation, Vec3{1.0f, 0.0f, 0.0f});
    EXPECT_NEAR(forward.x, -1.0f, 1e-5f) << "facing back after two quarter turns";
    // Four laps close the square.
    const Transform four = m.delta(LoopMode::Loop, {0.25, 0.25, 4.0});
    EXPECT_NEAR(four.translation.x, 0.0f, 1e-4f);
    EXPECT_NEAR(four.translation.z, 0.0f, 1e-4f);
}

// The pose holds the root where it starts; the delta moves the character (the
// model's origin) so that the held root travels as the clip's root does.
TEST(RootMotion, ARootThatStartsTurnedOrOffTheOriginMovesAboutItself) {
    const float quarter = static_cast<float>(std::numbers::pi / 2.0);
    // Turned a quarter about +Y at rest, the clip sliding it along the model's +X.
    Track slide;
    slide.path = TrackPath::Translation;
    slide.times = {0.0f, 1.0f};
    slide.values = {0, 0, 0, 1, 0, 0};
    Transform turnedRest;
    turnedRest.rotation = fromAxisAngle({0.0f, 1.0f, 0.0f}, quarter);
    const Clip sliding = Clip::create("slide", {slide}).value();
    auto turned = RootMotion::create(sliding, 0, turnedRest);
    ASSERT_TRUE(turned.ok()) << turned.message();
    const Transform moved = turned->delta(LoopMode::Loop, {0.0, 0.5, 0.5});
    EXPECT_NEAR(moved.translation.x, 0.5f, 1e-6f);
    EXPECT_NEAR(moved.translation.z, 0.0f, 1e-6f);
    EXPECT_NEAR(std::abs(moved.rotation.w), 1.0f, 1e-6f);

    // Standing at (1, 0, 0), turning a quarter about +Y in place over the clip: the
    // character turns about the root, T(1,0,0) R T(-1,0,0), which moves its origin
    // by (1,0,0) - R (1,0,0) = (1, 0, 1); the held root, at delta x (1,0,0), stays.
    Track stand;
    stand.path = TrackPath::Translation;
    stand.times = {0.0f, 1.0f};
    stand.values = {1, 0, 0, 1, 0, 0};
    Track spin;
    spin.path = TrackPath::Rotation;
    spin.width = 4;
    for (int k = 0; k <= 8; ++k) {
        const float u = static_cast<float>(k) / 8.0f;
        const Quat q = fromAxisAngle({0.0f, 1.0f, 0.0f}, quarter * u);
        spin.times.push_back(u);
        spin.values.insert(spin.values.end(), {q.x, q.y, q.z, q.w});
    }
    const Clip spinning = Clip::create("spin", {stand, spin}).value();
    const RootMotion m = motionOf(spinning);
    const Transform d = m.delta(LoopMode::Clamp, {0.0, 1.0, 1.0});
    EXPECT_NEAR(d.translation.x, 1.0f, 1e-5f);
    EXPECT_NEAR(d.translation.z, 1.0f, 1e-5f);
    const Vec3 root = d.translation + rotate(d.rotation, Vec3{1.0f, 0.0f, 0.0f});
    EXPECT_NEAR(length(root - Vec3{1.0f, 0.0f, 0.0f}), 0.0f, 1e-5f);
}

// A lap that turns a quarter and walks 1 m, a million and one times in one step:
// still a rotation and a translation (1e6 + 1 is 1 modulo 4: one quarter turn).
TEST(RootMotion, MillionsOfTurningLapsStayARigidMotion) {
    const float quarter = static_cast<float>(std::numbers::pi / 2.0);
    const RootMotion m = motionOf(walk(quarter));
    const Transform d = m.delta(LoopMode::Loop, {0.0, 0.0, 1e6 + 1.0});
    EXPECT_EQ(d.scale, (Vec3{1.0f, 1.0f, 1.0f}));
    EXPECT_NEAR(dot(d.rotation, d.rotation), 1.0f, 1e-6f);
    const Vec3 forward = rotate(d.rotation, Vec3{1.0f, 0.0f, 0.0f});
    EXPECT_NEAR(forward.z, -1.0f, 1e-4f) << "a quarter turn: +X to -Z";
    EXPECT_NEAR(d.translation.x, 1.0f, 1e-5f) << "one lap's walk: the squares close";
    EXPECT_NEAR(d.translation.z, 0.0f, 1e-5f);
}

TEST(RootMotion, MasksChooseTheAxesAndThePoseIsKeptInPlace) {
    const Clip clip = walk(0.5f);
    RootMotionMask onlyY;
    onlyY.x = false;
    onlyY.y = true;
    onlyY.z = false;
    onlyY.rotation = RootRotation::None;
    const RootMotion m = motionOf(clip, onlyY);
    const Transform d = m.delta(LoopMode::Loop, {0.0, 0.5, 0.5});
    EXPECT_EQ(d.translation.x, 0.0f);
    EXPECT_NEAR(d.translation.y, 0.1f, 1e-6f);
    EXPECT_NEAR(d.rotation.w, 1.0f, 1e-7f) << "rotation not extracted";

    const RootMotion walkOnly = motionOf(clip);  // x, z and rotation
    Transform sampled;
    sampled.translation = {0.7f, 1.05f, 0.3f};
    sampled.rotation = fromAxisAngle({0.0f, 1.0f, 0.0f}, 0.4f);
    const Transform inPlace = walkOnly.anchored(sampled);
    EXPECT_EQ(inPlace.translation.x, 0.0f) << "the start's x";
    EXPECT_EQ(inPlace.translation.y, 1.05f) << "the bob stays";
    EXPECT_EQ(inPlace.translation.z, 0.0f);
    EXPECT_NEAR(inPlace.rotation.w, 1.0f, 1e-7f) << "the start's rotation";
}

// A root that turns about `up` at `turn` rad/s from a heading of `start` while it
// leans about `side` (perpendicular to up) by lean sin(2 pi t), walks along
// `forward` at 1 m/s and bobs along up: keys every 1/64 s, where the tests look
// (between keys slerp is not the closed form).
struct Leaning {
    Vec3 up, side, forward;
    float start, turn, lean;
};

double wave(double t) { return std::sin(2.0 * std::numbers::pi * t); }

Quat leaningRotation(const Leaning& c, double t) {
    return fromAxisAngle(c.up, static_cast<float>(c.start + c.turn * t)) *
        fromAxisAngle(c.side, static_cast<float>(c.lean * wave(t)));
}

Vec3 leaningPosition(const Leaning& c, double t) {
    return c.forward * static_cast<float>(t) + c.up * static_cast<float>(0.9 + 0.05 * wave(t));
}

Clip leaningWalk(const Leaning& c) {
    Track move, turn;
    move.path = TrackPath::Translation;
    turn.path = TrackPath::Rotation;
    turn.width = 4;
    for (int k = 0; k <= 64; ++k) {
        const double t = k / 64.0;
        const Vec3 p = leaningPosition(c, t);
        const Quat q = leaningRotation(c, t);
        move.times.push_back(static_cast<float>(t));
        move.values.insert(move.values.end(), {p.x, p.y, p.z});
        turn.times.push_back(static_cast<float>(t));
        turn.values.insert(turn.values.end(), {q.x, q.y, q.z, q.w});
    }
    return Clip::create("lean", {move, turn}).value();
}

// a then b: the character's transform composed with the pose's root (scale 1),
// kept at unit length as a game keeps its heading.
Transform composed(const Transform& a, const Transform& b) {
    Transform c;
    c.rotation = normalize(a.rotation * b.rotation);
    c.translation = a.translation + rotate(a.rotation, b.translation);
    return c;
}

// The heading goes to the delta, the lean and the bob stay in the pose, so the
// character's transform times the anchored root is where the clip puts the root:
// with Y up (ground x-z) and under a Z-up armature (ground x-y, up z).
TEST(RootMotion, HeadingTakesTheTurnAboutUpAndLeavesTheLeanInThePose) {
    const Leaning yUp{{0, 1, 0}, {1, 0, 0}, {0, 0, 1}, 0.3f, 1.2f, 0.35f};
    const Leaning zUp{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}, -0.8f, -2.0f, 0.5f};
    for (const Leaning& c : {yUp, zUp}) {
        RootMotionMask mask;
        mask.x = true;
        mask.y = c.up.y == 0.0f;
        mask.z = c.up.z == 0.0f;
        mask.rotation = RootRotation::Heading;
        mask.up = c.up * 3.0f;  // any length
        const RootMotion m = motionOf(leaningWalk(c), mask);
        Transform character;  // the identity at time 0
        for (int k = 1; k <= 64; ++k) {
            const double from = (k - 1) / 64.0, to = k / 64.0;
            const Transform d = m.delta(LoopMode::Clamp, {from, to, to - from});
            // Only a turn about up: the up axis stays, the turn is the heading's.
            EXPECT_NEAR(length(rotate(d.rotation, c.up) - c.up), 0.0f, 1e-6f) << k;
            const Quat step = fromAxisAngle(c.up, c.turn / 64.0f);
            EXPECT_NEAR(std::abs(dot(d.rotation, step)), 1.0f, 1e-6f) << k;
            character = composed(character, d);
            // The pose keeps the lean under the start's heading, and the bob.
            const Transform posed{leaningPosition(c, to), leaningRotation(c, to), {1, 1, 1}};
            const Transform anchored = m.anchored(posed);
            const Quat leanOnly =
                fromAxisAngle(c.up, c.start) * fromAxisAngle(c.side, static_cast<float>(c.lean * wave(to)));
            EXPECT_NEAR(std::abs(dot(anchored.rotation, leanOnly)), 1.0f, 1e-6f) << k;
            EXPECT_NEAR(dot(anchored.translation, c.up), 0.9 + 0.05 * wave(to), 1e-6) << k;
            EXPECT_NEAR(dot(anchored.translation, c.forward), 0.0f, 1e-7f) << k;
            // Together they are the clip's root.
            const Transform world = composed(character, anchored);
            EXPECT_NEAR(length(world.translation - posed.translation), 0.0f, 2e-5f) << k;
            EXPECT_NEAR(std::abs(dot(world.rotation, posed.rotation)), 1.0f, 1e-6f) << k;
        }
    }
}

// A root turned upside down (half a turn about a horizontal axis) has no heading:
// nothing turns, nothing is NaN. An up axis that is zero or not finite is refused.
TEST(RootMotion, AnUpsideDownRootHasNoHeadingAndAnUpAxisMustHaveADirection) {
    Track flip;
    flip.path = TrackPath::Rotation;
    flip.width = 4;
    flip.times = {0.0f, 1.0f};
    flip.values = {1, 0, 0, 0, 0.6f, 0, 0.8f, 0};  // half turns about x, then about 0.6 x + 0.8 z
    const Clip clip = Clip::create("flip", {flip}).value();
    const RootMotion m = motionOf(clip);
    const Transform d = m.delta(LoopMode::Loop, {0.0, 0.5, 0.5});
    EXPECT_TRUE(isFinite(d.rotation) && isFinite(d.translation));
    EXPECT_NEAR(std::abs(d.rotation.w), 1.0f, 1e-6f);
    const Transform anchored = m.anchored({{}, Quat{0.6f, 0.0f, 0.8f, 0.0f}, {1, 1, 1}});
    EXPECT_NEAR(std::abs(dot(anchored.rotation, Quat{0.6f, 0.0f, 0.8f, 0.0f})), 1.0f, 1e-6f);

    for (const Vec3 up : {Vec3{}, Vec3{0.0f, std::nanf(""), 0.0f}, Vec3{0.0f, INFINITY, 0.0f}}) {
        RootMotionMask mask;
        mask.up = up;
        auto refused = RootMotion::create(clip, 0, Transform{}, mask);
        ASSERT_FALSE(refused.ok());
        EXPECT_EQ(refused.faults()[0].where, "mask/up");
    }
}

}  // namespace
