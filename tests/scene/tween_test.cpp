// Tweens: sorted insertion, the sampling rule at every boundary, easing applied to
// the fraction between keys (checked against the curves' closed forms), rotation by
// shortest-arc slerp (checked against axis-angle), the derived duration, apply()
// writing only keyed tracks, and refused edits that change nothing.
//
// Every expected value is worked out here by hand or from a closed form.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "kinema/scene/tween.hpp"

namespace {

using namespace kinema;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr float kNaNf = std::numeric_limits<float>::quiet_NaN();
constexpr float kInff = std::numeric_limits<float>::infinity();

// Rotation of `radians` about the unit `axis`, written out here: (axis sin(a/2), cos(a/2)).
Quat axisAngle(Vec3 axis, double radians) {
    const double s = std::sin(radians / 2.0);
    return {static_cast<float>(axis.x * s), static_cast<float>(axis.y * s), static_cast<float>(axis.z * s),
            static_cast<float>(std::cos(radians / 2.0))};
}

// q and -q are one rotation: compare on w >= 0.
Quat canonical(Quat q) { return q.w < 0.0f ? Quat{-q.x, -q.y, -q.z, -q.w} : q; }

void expectRotation(Quat actual, Quat expected, float tolerance = 2e-6f) {
    actual = canonical(actual);
    expected = canonical(expected);
    EXPECT_NEAR(actual.x, expected.x, tolerance);
    EXPECT_NEAR(actual.y, expected.y, tolerance);
    EXPECT_NEAR(actual.z, expected.z, tolerance);
    EXPECT_NEAR(actual.w, expected.w, tolerance);
}

void expectVec(Vec3 actual, Vec3 expected, float tolerance = 1e-6f) {
    EXPECT_NEAR(actual.x, expected.x, tolerance);
    EXPECT_NEAR(actual.y, expected.y, tolerance);
    EXPECT_NEAR(actual.z, expected.z, tolerance);
}

float norm(Quat q) { return std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w); }

PositionTrack line(std::initializer_list<std::pair<double, Vec3>> keys, Easing easing = Easing::Linear) {
    PositionTrack t;
    t.setEasing(easing);
    for (const auto& [time, value] : keys) EXPECT_TRUE(t.insert(time, value).ok());
    return t;
}

// ---- insertion

TEST(TweenTrack, KeysAreSortedWhateverTheInsertionOrder) {
    // Every order of four keys gives the same sorted track.
    std::array<int, 4> order{0, 1, 2, 3};
    const double times[] = {0.0, 0.5, 1.5, 2.0};
    do {
        PositionTrack t;
        for (const int i : order) {
            ASSERT_TRUE(t.insert(times[i], Vec3{float(i), 0.0f, 0.0f}).ok());
        }
        ASSERT_EQ(t.size(), 4u);
        for (std::size_t k = 0; k < 4; ++k) {
            EXPECT_EQ(t.keys()[k].time, times[k]);
            EXPECT_EQ(t.keys()[k].value, (Vec3{float(k), 0.0f, 0.0f}));
        }
    } while (std::next_permutation(order.begin(), order.end()));
}

TEST(TweenTrack, AKeyAtAnExistingTimeReplacesThatKeysValue) {
    PositionTrack t = line({{0.0, {0, 0, 0}}, {1.0, {1, 1, 1}}, {2.0, {2, 2, 2}}});
    ASSERT_TRUE(t.insert(1.0, Vec3{5, 6, 7}).ok());
    ASSERT_EQ(t.size(), 3u);
    EXPECT_EQ(t.keys()[1].time, 1.0);
    EXPECT_EQ(t.keys()[1].value, (Vec3{5, 6, 7}));
    // -0 and +0 are one time.
    ASSERT_TRUE(t.insert(-0.0, Vec3{9, 9, 9}).ok());
    ASSERT_EQ(t.size(), 3u);
    EXPECT_EQ(t.keys()[0].value, (Vec3{9, 9, 9}));
    EXPECT_FALSE(std::signbit(t.keys()[0].time));
}

TEST(TweenTrack, RemoveTakesOutOneKey) {
    PositionTrack t = line({{0.0, {0, 0, 0}}, {1.0, {1, 1, 1}}, {2.0, {2, 2, 2}}});
    ASSERT_TRUE(t.remove(1).ok());
    ASSERT_EQ(t.size(), 2u);
    EXPECT_EQ(t.keys()[0].time, 0.0);
    EXPECT_EQ(t.keys()[1].time, 2.0);
    ASSERT_TRUE(t.remove(0).ok());
    ASSERT_TRUE(t.remove(0).ok());
    EXPECT_TRUE(t.empty());
    EXPECT_FALSE(t.sample(1.0).has_value());  // an empty track animates nothing
}

TEST(TweenTrack, ANonUnitRotationIsNormalisedAndAUnitOneKeptAsGiven) {
    RotationTrack t;
    ASSERT_TRUE(t.insert(0.0, Quat{0.0f, 0.0f, 2.0f, 0.0f}).ok());
    EXPECT_EQ(t.keys()[0].value, (Quat{0.0f, 0.0f, 1.0f, 0.0f}));
    ASSERT_TRUE(t.insert(1.0, Quat{3.0f, 0.0f, 0.0f, 4.0f}).ok());  // length 5
    expectRotation(t.keys()[1].value, Quat{0.6f, 0.0f, 0.0f, 0.8f}, 1e-7f);
    // A quaternion of length 1 to float precision is stored bit for bit.
    const Quat unit = axisAngle({0.0f, 0.6f, 0.8f}, 1.234);
    ASSERT_TRUE(t.insert(2.0, unit).ok());
    EXPECT_EQ(t.keys()[2].value, unit);
}

// ---- refused edits change nothing

TEST(TweenTrack, RefusedInsertsChangeNothing) {
    const PositionTrack before = line({{0.0, {0, 0, 0}}, {1.0, {1, 1, 1}}});
    PositionTrack t = before;
    struct Case {
        double time;
        Vec3 value;
        StatusCode code;
    };
    const Case cases[] = {
        {kNaN, {0, 0, 0}, StatusCode::NotFinite},     {kInf, {0, 0, 0}, StatusCode::NotFinite},
        {-kInf, {0, 0, 0}, StatusCode::NotFinite},    {-1e-9, {0, 0, 0}, StatusCode::OutOfRange},
        {0.5, {kNaNf, 0, 0}, StatusCode::NotFinite},  {0.5, {0, kInff, 0}, StatusCode::NotFinite},
        {1.0, {0, 0, -kInff}, StatusCode::NotFinite},  // a replacement is refused as well
    };
    for (const Case& c : cases) {
        const Status s = t.insert(c.time, c.value);
        EXPECT_EQ(s.code, c.code) << c.time;
        EXPECT_EQ(t, before);
    }
    const Status s = t.remove(2);
    EXPECT_EQ(s.code, StatusCode::OutOfRange);
    EXPECT_EQ(s.index, 2);
    EXPECT_EQ(t, before);
}

TEST(TweenTrack, RefusedRotationsChangeNothing) {
    RotationTrack t;
    ASSERT_TRUE(t.insert(0.0, Quat{}).ok());
    const RotationTrack before = t;
    EXPECT_EQ(t.insert(1.0, Quat{0, 0, 0, 0}).code, StatusCode::OutOfRange);
    EXPECT_EQ(t.insert(0.0, Quat{0, 0, 0, 0}).code, StatusCode::OutOfRange);
    EXPECT_EQ(t.insert(1.0, Quat{0, kNaNf, 0, 1}).code, StatusCode::NotFinite);
    EXPECT_EQ(t.insert(1.0, Quat{0, 0, 0, kInff}).code, StatusCode::NotFinite);
    EXPECT_EQ(t, before);
}

TEST(Tween, ARefusedLengthChangesNothing) {
    Tween tw;
    ASSERT_TRUE(tw.setLength(2.0).ok());
    EXPECT_EQ(tw.setLength(kNaN).code, StatusCode::NotFinite);
    EXPECT_EQ(tw.setLength(kInf).code, StatusCode::NotFinite);
    EXPECT_EQ(tw.setLength(-0.5).code, StatusCode::OutOfRange);
    EXPECT_EQ(tw.length(), 2.0);
}

// ---- the sampling rule at the boundaries

TEST(TweenTrack, SamplingAtEveryBoundary) {
    // Keys at 1, 2 and 4 s; linear.
    const Vec3 a{1, 0, 0}, b{3, -2, 0}, c{-1, 2, 8};
    const PositionTrack t = line({{1.0, a}, {2.0, b}, {4.0, c}});
    EXPECT_EQ(*t.sample(0.0), a);    // before the first key
    EXPECT_EQ(*t.sample(-5.0), a);   // negative times as well
    EXPECT_EQ(*t.sample(1.0), a);    // exactly the first
    EXPECT_EQ(*t.sample(2.0), b);    // exactly an internal key: that key's value
    EXPECT_EQ(*t.sample(4.0), c);    // exactly the last
    EXPECT_EQ(*t.sample(4.5), c);    // after the last
    EXPECT_EQ(*t.sample(kInf), c);   // infinitely after
    EXPECT_EQ(*t.sample(-kInf), a);  // infinitely before
    EXPECT_EQ(*t.sample(kNaN), a);   // NaN counts as before
    // Between: 1.5 s is halfway from a to b; 3.5 s is 3/4 of the way from b to c.
    expectVec(*t.sample(1.5), Vec3{2, -1, 0});
    expectVec(*t.sample(3.5), Vec3{0, 1, 6});
    // Just after an internal key the next interval has begun.
    expectVec(*t.sample(2.0 + 1e-9), b, 1e-6f);
}

TEST(TweenTrack, OneKeyHoldsItsValueEverywhere) {
    const PositionTrack t = line({{0.75, {4, 5, 6}}});
    for (const double time : {-1.0, 0.0, 0.75, 1.0, 1e9}) EXPECT_EQ(*t.sample(time), (Vec3{4, 5, 6}));
}

// ---- easing

TEST(TweenTrack, InQuadHalfwayIsAQuarterOfTheWay) {
    // Keys at 1 s and 3 s: 2 s is u = 1/2, inQuad gives u^2 = 1/4.
    const Vec3 a{2, 4, -8}, b{10, 0, 8};
    const PositionTrack t = line({{1.0, a}, {3.0, b}}, Easing::InQuad);
    expectVec(*t.sample(2.0), Vec3{2 + 0.25f * 8, 4 + 0.25f * -4, -8 + 0.25f * 16});
    // u = 1/4: u^2 = 1/16.
    expectVec(*t.sample(1.5), Vec3{2 + 8.0f / 16, 4 - 4.0f / 16, -8 + 16.0f / 16});
}

TEST(TweenTrack, OutBounceAtKnownPoints) {
    // outBounce(u) = 7.5625 u^2 for u < 1/2.75, then parabolas through 0.75, 0.9375,
    // 0.984375. By hand: u = 0.2 -> 7.5625 * 0.04 = 0.3025; u = 0.5 -> (121/16)(1/22)^2
    // + 0.75 = 1/64 + 0.75 = 0.765625; u = 0.9 -> (121/16)(9/110)^2 + 0.9375 = 81/1600
    // + 0.9375 = 0.988125. Keys 0 -> 100 over [0, 1] s.
    const PositionTrack t = line({{0.0, {0, 0, 0}}, {1.0, {100, 0, 0}}}, Easing::OutBounce);
    EXPECT_NEAR(t.sample(0.2)->x, 30.25f, 2e-5f);
    EXPECT_NEAR(t.sample(0.5)->x, 76.5625f, 2e-5f);
    EXPECT_NEAR(t.sample(0.9)->x, 98.8125f, 2e-5f);
}

TEST(TweenTrack, BackOvershootsPastTheKeys) {
    // outBack(u) = 1 + s^2 ((k + 1) s + k), s = u - 1, k = 1.70158. At u = 1/2:
    // 1 + 0.25 (-1.35079 + 1.70158) = 1.0876975.
    const PositionTrack t = line({{0.0, {0, 0, 0}}, {2.0, {0, 10, 0}}}, Easing::OutBack);
    EXPECT_NEAR(t.sample(1.0)->y, 10.876975f, 1e-5f);
    // inBack(u) = u^2 ((k + 1) u - k). At u = 1/4: 0.0625 (0.675395 - 1.70158) = -0.0641365625.
    const PositionTrack in = line({{0.0, {0, 0, 0}}, {2.0, {0, 10, 0}}}, Easing::InBack);
    EXPECT_NEAR(in.sample(0.5)->y, -0.641365625f, 1e-5f);
}

TEST(TweenTrack, LargeValuesNeitherOverflowNorTurnNaN) {
    const float big = std::numeric_limits<float>::max();
    const PositionTrack t = line({{0.0, {-big, big, 0}}, {1.0, {big, -big, 0}}}, Easing::OutBack);
    // The difference 2 max is beyond the float range, halfway it is still 0.
    const PositionTrack lin = line({{0.0, {-big, big, 0}}, {1.0, {big, -big, 0}}});
    expectVec(*lin.sample(0.5), Vec3{0, 0, 0});
    // An overshoot past the largest float is held there.
    const Vec3 over = *t.sample(0.5);
    EXPECT_EQ(over.x, big);
    EXPECT_EQ(over.y, -big);
}

// ---- rotation

const Vec3 kAxis{1.0f / 3.0f, 2.0f / 3.0f, 2.0f / 3.0f};  // unit: (1 + 4 + 4) / 9

TEST(TweenTrack, RotationTakesTheShorterArc) {
    // 0 and 90 degrees about z, the second key stored as its negation (the same
    // rotation, on the far hemisphere): halfway is 45 degrees, not the long way round.
    RotationTrack t;
    const Quat quarter = axisAngle({0, 0, 1}, std::numbers::pi / 2);
    ASSERT_TRUE(t.insert(0.0, Quat{}).ok());
    ASSERT_TRUE(t.insert(1.0, -quarter).ok());
    expectRotation(*t.sample(0.5), axisAngle({0, 0, 1}, std::numbers::pi / 4));
}

TEST(TweenTrack, RotationSlerpsByTheEasedFraction) {
    // Both keys about one axis, at 0.3 and 1.9 rad. inQuad at u = 1/2 gives e = 1/4:
    // 0.3 + 1.6 / 4 = 0.7 rad; at u = 3/4, e = 9/16: 0.3 + 0.9 = 1.2 rad.
    RotationTrack t;
    t.setEasing(Easing::InQuad);
    ASSERT_TRUE(t.insert(2.0, axisAngle(kAxis, 0.3)).ok());
    ASSERT_TRUE(t.insert(4.0, axisAngle(kAxis, 1.9)).ok());
    expectRotation(*t.sample(3.0), axisAngle(kAxis, 0.7));
    expectRotation(*t.sample(3.5), axisAngle(kAxis, 1.2));
    EXPECT_EQ(*t.sample(2.0), axisAngle(kAxis, 0.3));
    EXPECT_EQ(*t.sample(4.0), axisAngle(kAxis, 1.9));
}

TEST(TweenTrack, RotationOvershootFollowsTheGreatCircleAndStaysUnit) {
    // 0 -> 1 rad about the axis. outBack at u = 1/2 is 1.0876975 (past the end);
    // inBack at u = 1/4 is -0.0641365625 (before the start).
    RotationTrack out;
    out.setEasing(Easing::OutBack);
    ASSERT_TRUE(out.insert(0.0, Quat{}).ok());
    ASSERT_TRUE(out.insert(1.0, axisAngle(kAxis, 1.0)).ok());
    expectRotation(*out.sample(0.5), axisAngle(kAxis, 1.0876975));
    RotationTrack in = out;
    in.setEasing(Easing::InBack);
    expectRotation(*in.sample(0.25), axisAngle(kAxis, -0.0641365625));
    // Every overshooting curve, sampled densely: unit length, finite.
    for (const Easing e : {Easing::InBack, Easing::OutBack, Easing::InOutBack, Easing::InElastic, Easing::OutElastic,
                           Easing::InOutElastic}) {
        in.setEasing(e);
        for (int i = 0; i <= 1000; ++i) {
            const Quat q = *in.sample(i / 1000.0);
            ASSERT_TRUE(isFinite(q));
            EXPECT_NEAR(norm(q), 1.0f, 1e-6f) << toString(e) << " " << i;
        }
    }
}

TEST(TweenTrack, NearlyEqualAndOppositeRotationsGiveNoNaN) {
    const Quat q = axisAngle(kAxis, 0.8);
    const Quat nudged = axisAngle(kAxis, 0.8 + 1e-7);
    for (const Quat other : {q, -q, nudged, -nudged}) {
        RotationTrack t;
        t.setEasing(Easing::OutElastic);
        ASSERT_TRUE(t.insert(0.0, q).ok());
        ASSERT_TRUE(t.insert(1.0, other).ok());
        for (int i = 0; i <= 100; ++i) {
            const Quat r = *t.sample(i / 100.0);
            ASSERT_TRUE(isFinite(r));
            expectRotation(r, q, 1e-6f);
        }
    }
}

// ---- duration and length

TEST(Tween, DurationIsDerivedFromTheKeysAndTheLength) {
    Tween tw;
    EXPECT_EQ(tw.duration(), 0.0);
    ASSERT_TRUE(tw.position.insert(2.0, Vec3{}).ok());
    EXPECT_EQ(tw.duration(), 2.0);
    ASSERT_TRUE(tw.rotation.insert(3.0, Quat{}).ok());
    ASSERT_TRUE(tw.scale.insert(0.5, Vec3{1, 1, 1}).ok());
    EXPECT_EQ(tw.duration(), 3.0);
    // A longer length holds the tween open; a shorter one changes nothing.
    ASSERT_TRUE(tw.setLength(5.0).ok());
    EXPECT_EQ(tw.duration(), 5.0);
    ASSERT_TRUE(tw.setLength(1.0).ok());
    EXPECT_EQ(tw.duration(), 3.0);
    tw.clearLength();
    EXPECT_FALSE(tw.length().has_value());
    // Removing the latest key shortens it: nothing is stored to go stale.
    ASSERT_TRUE(tw.rotation.remove(0).ok());
    EXPECT_EQ(tw.duration(), 2.0);
    // A length alone is a duration.
    Tween empty;
    ASSERT_TRUE(empty.setLength(1.5).ok());
    EXPECT_EQ(empty.duration(), 1.5);
}

TEST(Tween, PastTheLastKeyTheLengthHoldsTheLastValue) {
    Tween tw;
    ASSERT_TRUE(tw.position.insert(0.0, Vec3{0, 0, 0}).ok());
    ASSERT_TRUE(tw.position.insert(1.0, Vec3{4, 0, 0}).ok());
    ASSERT_TRUE(tw.setLength(3.0).ok());
    Transform local;
    apply(tw, 2.5, local);
    EXPECT_EQ(local.translation, (Vec3{4, 0, 0}));
}

// ---- apply

TEST(Tween, ApplyWritesOnlyTheKeyedTracks) {
    const Transform start{{1, 2, 3}, axisAngle({1, 0, 0}, 0.5), {2, 2, 2}};
    Tween tw;
    Transform local = start;
    apply(tw, 0.5, local);  // nothing keyed: nothing written
    EXPECT_EQ(local, start);

    ASSERT_TRUE(tw.rotation.insert(0.0, Quat{}).ok());
    ASSERT_TRUE(tw.rotation.insert(1.0, axisAngle({0, 1, 0}, 1.0)).ok());
    apply(tw, 0.5, local);
    EXPECT_EQ(local.translation, start.translation);
    EXPECT_EQ(local.scale, start.scale);
    expectRotation(local.rotation, axisAngle({0, 1, 0}, 0.5));

    ASSERT_TRUE(tw.scale.insert(0.0, Vec3{1, 1, 1}).ok());
    ASSERT_TRUE(tw.scale.insert(2.0, Vec3{3, 5, 1}).ok());
    apply(tw, 0.5, local);  // the scale is a quarter of the way
    EXPECT_EQ(local.translation, start.translation);
    expectVec(local.scale, Vec3{1.5f, 2.0f, 1.0f});

    ASSERT_TRUE(tw.position.insert(0.0, Vec3{-1, -1, -1}).ok());
    apply(tw, 7.0, local);  // after every track's end: each holds its own last key
    EXPECT_EQ(local.translation, (Vec3{-1, -1, -1}));
    EXPECT_EQ(local.scale, (Vec3{3, 5, 1}));
    EXPECT_EQ(local.rotation, axisAngle({0, 1, 0}, 1.0));
}

TEST(Tween, TweensAreComparableValues) {
    Tween a;
    ASSERT_TRUE(a.position.insert(1.0, Vec3{1, 2, 3}).ok());
    Tween b = a;
    EXPECT_EQ(a, b);
    b.position.setEasing(Easing::InOutSine);
    EXPECT_NE(a, b);
    b = a;
    ASSERT_TRUE(b.setLength(1.0).ok());
    EXPECT_NE(a, b);
}

}  // namespace
