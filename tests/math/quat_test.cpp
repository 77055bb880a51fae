// Quaternions: the Hamilton product and rotate() against Rodrigues' formula,
// robust normalisation, slerp against an exact long double geodesic, nlerp's
// known deviation from slerp, the twist about an axis against products built from
// it.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "kinema/math/quat.hpp"
#include "math/reference.hpp"

namespace {

using kinema::Quat;
using kinema::Vec3;
constexpr double kPi = std::numbers::pi;

void expectVecNear(kref::D3 want, Vec3 got, double tol) {
    EXPECT_NEAR(got.x, want.x, tol);
    EXPECT_NEAR(got.y, want.y, tol);
    EXPECT_NEAR(got.z, want.z, tol);
}

// ---- Hamilton product and rotate ----------------------------------------

TEST(QuatProduct, BasisUnitsFollowHamiltonsTable) {
    const Quat i{1, 0, 0, 0}, j{0, 1, 0, 0}, k{0, 0, 1, 0}, one{0, 0, 0, 1};
    EXPECT_EQ(i * j, k);
    EXPECT_EQ(j * k, i);
    EXPECT_EQ(k * i, j);
    EXPECT_EQ(j * i, -k);
    EXPECT_EQ(k * j, -i);
    EXPECT_EQ(i * k, -j);
    EXPECT_EQ(i * i, -one);
    EXPECT_EQ(j * j, -one);
    EXPECT_EQ(k * k, -one);
    EXPECT_EQ(i * j * k, -one);  // i j k = -1
}

TEST(QuatRotate, QuarterTurnAboutZTakesXToY) {
    const Quat q = kref::quatOf({0, 0, 1}, kPi / 2);
    const Vec3 r = kinema::rotate(q, {1, 0, 0});
    EXPECT_NEAR(r.x, 0.0, 1e-7);
    EXPECT_NEAR(r.y, 1.0, 1e-7);
    EXPECT_NEAR(r.z, 0.0, 1e-7);
}

TEST(QuatRotate, MatchesRodriguesFormulaForRandomAxesAndAngles) {
    std::mt19937 rng(101);
    std::uniform_real_distribution<double> angle(-2 * kPi, 2 * kPi);
    std::uniform_real_distribution<double> coord(-10, 10);
    for (int n = 0; n < 2000; ++n) {
        const kref::D3 axis = kref::randomUnitVector(rng);
        const double a = angle(rng);
        const kref::D3 v{coord(rng), coord(rng), coord(rng)};
        const Vec3 fv{static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)};
        const kref::D3 want = kref::apply(kref::rodrigues(axis, a), {fv.x, fv.y, fv.z});
        expectVecNear(want, kinema::rotate(kref::quatOf(axis, a), fv), 1e-5);
    }
}

TEST(QuatProduct, ComposesRotationsRightFirstAsRodriguesMatricesDo) {
    std::mt19937 rng(102);
    std::uniform_real_distribution<double> angle(-kPi, kPi);
    for (int n = 0; n < 2000; ++n) {
        const kref::D3 a1 = kref::randomUnitVector(rng), a2 = kref::randomUnitVector(rng);
        const double t1 = angle(rng), t2 = angle(rng);
        const kref::D3 v = kref::randomUnitVector(rng);
        const Quat q = kref::quatOf(a1, t1) * kref::quatOf(a2, t2);
        // (q1 * q2) rotates by q2 first, then by q1: R1 R2 v.
        const kref::D3 want = kref::apply(kref::mul3(kref::rodrigues(a1, t1), kref::rodrigues(a2, t2)), v);
        expectVecNear(want, kinema::rotate(q, {float(v.x), float(v.y), float(v.z)}), 1e-6);
        // and the product of unit quaternions stays unit
        EXPECT_NEAR(kinema::dot(q, q), 1.0, 1e-6);
    }
}

TEST(QuatFromAxisAngle, MatchesRodriguesFormula) {
    std::mt19937 rng(103);
    std::uniform_real_distribution<double> angle(-2 * kPi, 2 * kPi);
    for (int n = 0; n < 1000; ++n) {
        const kref::D3 axis = kref::randomUnitVector(rng);
        const float a = static_cast<float>(angle(rng));
        const Quat q = kinema::fromAxisAngle({float(axis.x), float(axis.y), float(axis.z)}, a);
        const kref::D3 v = kref::randomUnitVector(rng);
        expectVecNear(kref::apply(kref::rodrigues(axis, a), v), kinema::rotate(q, {float(v.x), float(v.y), float(v.z)}),
                      1e-6);
    }
}

TEST(QuatConjugate, UndoesTheRotation) {
    const Quat q = kref::quatOf({1, 2, 3}, 1.1);
    const Vec3 v{0.3f, -0.7f, 2.0f};
    const Vec3 back = kinema::rotate(kinema::conjugate(q), kinema::rotate(q, v));
    expectVecNear({v.x, v.y, v.z}, back, 1e-6);
}

// ---- tryNormalize ----------------------------------------------------------

TEST(QuatTryNormalize, RejectsZero) {
    EXPECT_FALSE(kinema::tryNormalize({0, 0, 0, 0}).has_value());
    EXPECT_FALSE(kinema::tryNormalize({-0.0f, -0.0f, -0.0f, -0.0f}).has_value());
}

TEST(QuatTryNormalize, RejectsNaNInAnyComponent) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_FALSE(kinema::tryNormalize({nan, 0, 0, 1}).has_value());
    EXPECT_FALSE(kinema::tryNormalize({0, nan, 0, 1}).has_value());
    EXPECT_FALSE(kinema::tryNormalize({0, 0, nan, 1}).has_value());
    EXPECT_FALSE(kinema::tryNormalize({0, 0, 0, nan}).has_value());
}

TEST(QuatTryNormalize, RejectsInfinity) {
    const float inf = std::numeric_limits<float>::infinity();
    EXPECT_FALSE(kinema::tryNormalize({inf, 0, 0, 1}).has_value());
    EXPECT_FALSE(kinema::tryNormalize({0, -inf, 0, 1}).has_value());
    EXPECT_FALSE(kinema::tryNormalize({0, 0, inf, 1}).has_value());
    EXPECT_FALSE(kinema::tryNormalize({0, 0, 0, -inf}).has_value());
}

// (1, 2, 2, 4) has length exactly 5, so the expected unit quaternion is (0.2, 0.4, 0.4, 0.8).
void expectOneTwoTwoFour(std::optional<Quat> q) {
    ASSERT_TRUE(q.has_value());
    EXPECT_NEAR(q->x, 0.2, 1e-7);
    EXPECT_NEAR(q->y, 0.4, 1e-7);
    EXPECT_NEAR(q->z, 0.4, 1e-7);
    EXPECT_NEAR(q->w, 0.8, 1e-7);
}

TEST(QuatTryNormalize, NormalisesTinyComponents1em30) {
    expectOneTwoTwoFour(kinema::tryNormalize({1e-30f, 2e-30f, 2e-30f, 4e-30f}));
}

TEST(QuatTryNormalize, NormalisesSubnormalComponents) {
    // 1e-40 is below FLT_MIN: a float dot product would be zero.
    const float d = 1e-40f;
    const auto q = kinema::tryNormalize({0, 0, 0, d});
    ASSERT_TRUE(q.has_value());
    EXPECT_EQ(*q, (Quat{0, 0, 0, 1}));
}

TEST(QuatTryNormalize, NormalisesHugeComponents1e30) {
    expectOneTwoTwoFour(kinema::tryNormalize({1e30f, 2e30f, 2e30f, 4e30f}));
}

TEST(QuatTryNormalize, NormalisesComponentsNearFloatMax) {
    const float big = std::numeric_limits<float>::max();
    const auto q = kinema::tryNormalize({big, big, big, big});
    ASSERT_TRUE(q.has_value());
    EXPECT_NEAR(q->x, 0.5, 1e-7);
    EXPECT_NEAR(q->w, 0.5, 1e-7);
}

TEST(QuatTryNormalize, KeepsDirectionOfAnOrdinaryQuaternion) {
    const auto q = kinema::tryNormalize({0, 3, 0, -4});
    ASSERT_TRUE(q.has_value());
    EXPECT_NEAR(q->y, 0.6, 1e-7);
    EXPECT_NEAR(q->w, -0.8, 1e-7);
    EXPECT_EQ(q->x, 0.0f);
    EXPECT_EQ(q->z, 0.0f);
}

// ---- slerp -------------------------------------------------------------------

// A random rotation of angle `angle` (radians, 3D rotation angle) composed onto a.
Quat nearby(Quat a, std::mt19937& rng, double angle) { return kref::quatOf(kref::randomUnitVector(rng), angle) * a; }

long double checkSlerpPair(Quat a, Quat b, float t) {
    return kref::signAlignedError(kinema::slerp(a, b, t), kref::slerpL(a, b, t));
}

TEST(QuatSlerp, WithinOneMillionthOfExactSlerpOverTheWholeSphere) {
    std::mt19937 rng(201);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::uniform_real_distribution<double> logAngle(-9.0, 0.0);
    const float fixedT[] = {0.0f, 1e-7f, 1e-3f, 0.25f, 0.5f, 0.75f, 1.0f - 1e-7f, 1.0f};
    long double worst = 0;
    int pairs = 0;
    auto run = [&](Quat a, Quat b) {
        ++pairs;
        for (float t : fixedT) worst = std::max(worst, checkSlerpPair(a, b, t));
        for (int k = 0; k < 4; ++k) worst = std::max(worst, checkSlerpPair(a, b, unit(rng)));
    };
    for (int n = 0; n < 4000; ++n) {
        const Quat a = kref::randomUnitQuat(rng);
        run(a, kref::randomUnitQuat(rng));                                // anywhere on the sphere
        run(a, nearby(a, rng, std::pow(10.0, logAngle(rng))));            // nearly identical (1e-9..1 rad)
        run(a, -nearby(a, rng, std::pow(10.0, logAngle(rng))));           // nearly opposite (dot near -1)
        run(a, nearby(a, rng, kPi - std::pow(10.0, logAngle(rng) / 2)));  // rotations nearly 180 deg apart (dot near 0)
    }
    // identical and exactly opposite quaternions
    for (int n = 0; n < 200; ++n) {
        const Quat a = kref::randomUnitQuat(rng);
        run(a, a);
        run(a, -a);
    }
    EXPECT_GT(pairs, 16000);
    EXPECT_LE(static_cast<double>(worst), 1e-6) << "worst component error over " << pairs << " pairs";
}

TEST(QuatSlerp, TakesTheShorterArcWhenDotIsNegative) {
    const Quat a{0, 0, 0, 1};
    const Quat b = -kref::quatOf({0, 0, 1}, kPi / 2);  // the same 90 deg rotation about z, dot(a, b) < 0
    ASSERT_LT(kinema::dot(a, b), 0.0f);
    const Vec3 r = kinema::rotate(kinema::slerp(a, b, 0.5f), {1, 0, 0});
    // Halfway along the short arc is 45 deg about +z, not 135 deg about -z.
    EXPECT_NEAR(r.x, std::cos(kPi / 4), 1e-6);
    EXPECT_NEAR(r.y, std::sin(kPi / 4), 1e-6);
    EXPECT_NEAR(r.z, 0.0, 1e-6);
    const Vec3 q = kinema::rotate(kinema::slerp(a, b, 0.25f), {1, 0, 0});
    EXPECT_NEAR(q.x, std::cos(kPi / 8), 1e-6);
    EXPECT_NEAR(q.y, std::sin(kPi / 8), 1e-6);
}

TEST(QuatSlerp, TZeroReturnsAExactly) {
    std::mt19937 rng(202);
    for (int n = 0; n < 1000; ++n) {
        const Quat a = kref::randomUnitQuat(rng);
        const Quat b = n % 2 ? kref::randomUnitQuat(rng) : -a;
        EXPECT_EQ(kinema::slerp(a, b, 0.0f), a);
    }
    // also for a quaternion that is not exactly unit
    const Quat a{0.1f, 0.2f, 0.3f, 0.9f};
    EXPECT_EQ(kinema::slerp(a, Quat{0, 1, 0, 0}, 0.0f), a);
}

TEST(QuatSlerp, TOneReturnsBUpToSignAndRounding) {
    std::mt19937 rng(203);
    for (int n = 0; n < 1000; ++n) {
        const Quat a = kref::randomUnitQuat(rng), b = kref::randomUnitQuat(rng);
        const Quat r = kinema::slerp(a, b, 1.0f);
        const float s = kinema::dot(r, b) < 0 ? -1.0f : 1.0f;
        EXPECT_NEAR(s * r.x, b.x, 2e-7);
        EXPECT_NEAR(s * r.y, b.y, 2e-7);
        EXPECT_NEAR(s * r.z, b.z, 2e-7);
        EXPECT_NEAR(s * r.w, b.w, 2e-7);
    }
}

TEST(QuatSlerp, ConstantAngularSpeed) {
    // 170 deg about x: at t the rotation angle is exactly t * 170 deg.
    const double total = 170.0 * kPi / 180.0;
    const Quat b = kref::quatOf({1, 0, 0}, total);
    for (float t : {0.1f, 0.3f, 0.5f, 0.9f}) {
        const Vec3 r = kinema::rotate(kinema::slerp(Quat{}, b, t), {0, 1, 0});
        EXPECT_NEAR(std::atan2(r.z, r.y), t * total, 1e-6) << "t = " << t;
    }
}

// ---- nlerp -------------------------------------------------------------------

// The GLTF-NOTES example: keys 85 degrees apart about one axis.
struct Keys85 {
    double total = 85.0 * kPi / 180.0;
    Quat a{0, 0, 0, 1};
    Quat b = kref::quatOf({0, 0, 1}, 85.0 * kPi / 180.0);
    // nlerp's rotation angle, closed form: the chord point (1 - t) a + t b has the
    // half angle atan2(t sin(h), (1 - t) + t cos(h)) with h = total / 2.
    double nlerpAngle(double t) const {
        const double h = total / 2;
        return 2 * std::atan2(t * std::sin(h), (1 - t) + t * std::cos(h));
    }
};

double angleAboutZ(Quat q) {
    const Vec3 r = kinema::rotate(q, {1, 0, 0});
    return std::atan2(r.y, r.x);
}

TEST(QuatNlerp, FollowsTheChordWithinItsClosedFormAngle) {
    const Keys85 k;
    for (int i = 0; i <= 20; ++i) {
        const float t = static_cast<float>(i) / 20.0f;
        EXPECT_NEAR(angleAboutZ(kinema::nlerp(k.a, k.b, t)), k.nlerpAngle(t), 1e-6) << "t = " << t;
    }
}

TEST(QuatNlerp, Keys85DegreesApartDifferFromSlerpAtAQuarter) {
    const Keys85 k;
    const double slerpAt = angleAboutZ(kinema::slerp(k.a, k.b, 0.25f));
    const double nlerpAt = angleAboutZ(kinema::nlerp(k.a, k.b, 0.25f));
    EXPECT_NEAR(slerpAt, 0.25 * k.total, 1e-6);
    // closed form: 0.25 * 85 deg = 21.25 deg for slerp, 20.505 deg for nlerp
    EXPECT_NEAR(slerpAt - nlerpAt, 0.25 * k.total - k.nlerpAngle(0.25), 1e-6);
    EXPECT_GT(std::fabs(slerpAt - nlerpAt), 0.01);
    EXPECT_NE(kinema::nlerp(k.a, k.b, 0.25f), kinema::slerp(k.a, k.b, 0.25f));
}

TEST(QuatNlerp, Keys85DegreesApartAgreeWithSlerpAtHalfBySymmetry) {
    // normalize(a + b) is the exact midpoint of the arc: nlerp and slerp differ at
    // t = 0.5 only by rounding (the difference is largest near t = 0.22 and 0.78).
    const Keys85 k;
    const Quat n = kinema::nlerp(k.a, k.b, 0.5f), s = kinema::slerp(k.a, k.b, 0.5f);
    EXPECT_NEAR(n.z, s.z, 1e-6);
    EXPECT_NEAR(n.w, s.w, 1e-6);
    EXPECT_NEAR(angleAboutZ(n), k.total / 2, 1e-6);
}

TEST(QuatNlerp, Keys85DegreesApartMoveAPoint3cmFromTheJointByAbout0p4mm) {
    const Keys85 k;
    double worst = 0;
    for (int i = 0; i <= 1000; ++i) {
        const float t = static_cast<float>(i) / 1000.0f;
        const Vec3 p{0.03f, 0, 0};  // 3 cm from the joint, metres
        const Vec3 d = kinema::rotate(kinema::nlerp(k.a, k.b, t), p) - kinema::rotate(kinema::slerp(k.a, k.b, t), p);
        worst = std::max(worst, static_cast<double>(kinema::length(d)));
    }
    // closed form: 0.03 * max_t |t * total - nlerpAngle(t)| (chord of a small angle)
    double want = 0;
    for (int i = 0; i <= 100000; ++i) {
        const double t = i / 100000.0;
        want = std::max(want, 2 * 0.03 * std::sin(std::fabs(t * k.total - k.nlerpAngle(t)) / 2));
    }
    EXPECT_NEAR(worst, want, 2e-6);
    EXPECT_GT(worst, 0.35e-3);
    EXPECT_LT(worst, 0.45e-3);
}

TEST(QuatNlerp, TakesTheShorterArc) {
    const Quat a{0, 0, 0, 1};
    const Quat b = -kref::quatOf({0, 0, 1}, kPi / 2);
    EXPECT_NEAR(angleAboutZ(kinema::nlerp(a, b, 0.5f)), kPi / 4, 1e-6);
}

// ---- twistAbout ------------------------------------------------------------

kref::LQ quatL(kref::D3 axis, long double angle) {
    const long double s = std::sin(angle / 2);
    return {axis.x * s, axis.y * s, axis.z * s, std::cos(angle / 2)};
}

kinema::Quat narrowed(kref::LQ q) {
    return {static_cast<float>(q.x), static_cast<float>(q.y), static_cast<float>(q.z), static_cast<float>(q.w)};
}

// A turn about `up` composed with a tilt about an axis perpendicular to it, in either
// order: the twist is that turn (w >= 0), whichever side the tilt is on.
TEST(QuatTwistAbout, IsTheTurnAboutTheAxisWhicheverSideTheTiltIsOn) {
    std::mt19937 rng(29);
    std::uniform_real_distribution<double> angle(-0.999 * kPi, 0.999 * kPi);
    for (int i = 0; i < 2000; ++i) {
        const kref::D3 up = kref::randomUnitVector(rng);
        const kref::D3 r = kref::randomUnitVector(rng);
        // r x up, normalised: perpendicular to up.
        kref::D3 side{r.y * up.z - r.z * up.y, r.z * up.x - r.x * up.z, r.x * up.y - r.y * up.x};
        const double n = std::sqrt(side.x * side.x + side.y * side.y + side.z * side.z);
        if (n < 1e-3) continue;
        side = {side.x / n, side.y / n, side.z / n};
        const double heading = angle(rng), tilt = angle(rng);
        const kref::LQ turn = quatL(up, heading), lean = quatL(side, tilt);
        const Vec3 axis{static_cast<float>(up.x), static_cast<float>(up.y), static_cast<float>(up.z)};
        for (const kref::LQ& q : {kref::hamilton(turn, lean), kref::hamilton(lean, turn)}) {
            for (const float sign : {1.0f, -1.0f}) {
                const kinema::Quat given = narrowed({sign * q.x, sign * q.y, sign * q.z, sign * q.w});
                const kinema::Quat twist = kinema::twistAbout(given, axis);
                EXPECT_GE(twist.w, 0.0f);
                // The tilt's half angle near a half turn leaves little of q along the
                // axis: the float input's rounding is divided by cos(tilt / 2).
                const double tolerance = 2e-6 / std::max(std::abs(std::cos(tilt / 2)), 1e-3);
                EXPECT_LE(kref::signAlignedError(twist, turn), tolerance) << i << " " << heading << " " << tilt;
            }
        }
    }
}

TEST(QuatTwistAbout, AxisLengthDoesNotMatterAndUndefinedTwistsAreTheIdentity) {
    const kinema::Quat q = kref::quatOf({0, 1, 0}, 0.7) * kref::quatOf({1, 0, 0}, 0.4);
    const kinema::Quat unit = kinema::twistAbout(q, {0.0f, 1.0f, 0.0f});
    EXPECT_EQ(kinema::twistAbout(q, {0.0f, 5.0f, 0.0f}), unit);
    EXPECT_EQ(kinema::twistAbout(q, {0.0f, 1e-30f, 0.0f}), unit);
    EXPECT_NEAR(2.0 * std::atan2(unit.y, unit.w), 0.7, 1e-6);
    // A half turn about an axis perpendicular to the twist axis has no twist.
    EXPECT_EQ(kinema::twistAbout({1.0f, 0.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}), (kinema::Quat{}));
    EXPECT_EQ(kinema::twistAbout({0.6f, 0.0f, 0.8f, 0.0f}, {0.0f, 1.0f, 0.0f}), (kinema::Quat{}));
    // Nor has anything about a zero or non-finite axis.
    EXPECT_EQ(kinema::twistAbout(q, {0.0f, 0.0f, 0.0f}), (kinema::Quat{}));
    EXPECT_EQ(kinema::twistAbout(q, {std::nanf(""), 1.0f, 0.0f}), (kinema::Quat{}));
    // A turn about the axis itself is all twist.
    const kinema::Quat yaw = kref::quatOf({0, 0, 1}, -2.5);
    EXPECT_LE(kref::signAlignedError(kinema::twistAbout(yaw, {0.0f, 0.0f, 2.0f}), kref::widenL(yaw)), 1e-7);
}

}  // namespace
