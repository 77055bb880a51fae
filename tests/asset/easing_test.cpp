// Easing curves: the one list yields 31 curves whose names round-trip; every
// curve is pinned at 0 and 1; values at interior points are checked against closed
// forms worked out by hand (not by calling the same formula), plus properties that
// hold by construction of each family: Out(t) = 1 - In(1 - t), InOut symmetric about
// (0.5, 0.5), continuity at the InOut seam.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "kinema/asset/easing.hpp"

namespace {

using kinema::ease;
using kinema::Easing;

TEST(Easing, ThirtyOneCurvesWithUniqueNamesThatRoundTrip) {
    EXPECT_EQ(kinema::kEasingCount, 31u);
    EXPECT_EQ(kinema::allEasings().size(), 31u);
    std::set<std::string> names;
    for (const Easing e : kinema::allEasings()) {
        const std::string_view name = kinema::toString(e);
        EXPECT_TRUE(names.insert(std::string(name)).second) << "duplicate name " << name;
        EXPECT_EQ(kinema::parseEasing(name), e) << name;
    }
    EXPECT_FALSE(kinema::parseEasing("InQuad").has_value()) << "names are case-sensitive";
    EXPECT_FALSE(kinema::parseEasing("").has_value());
    EXPECT_EQ(kinema::toString(Easing::InOutBounce), "inOutBounce");
}

TEST(Easing, EveryCurveStartsAtZeroEndsAtOneAndClampsItsInput) {
    for (const Easing e : kinema::allEasings()) {
        EXPECT_EQ(ease(e, 0.0f), 0.0f) << kinema::toString(e);  // exactly, as the docs say
        EXPECT_EQ(ease(e, 1.0f), 1.0f) << kinema::toString(e);
        EXPECT_EQ(ease(e, -3.0f), ease(e, 0.0f)) << kinema::toString(e);
        EXPECT_EQ(ease(e, 7.0f), ease(e, 1.0f)) << kinema::toString(e);
        EXPECT_EQ(ease(e, std::nanf("")), ease(e, 0.0f)) << kinema::toString(e);
        for (int i = 0; i <= 1000; ++i) EXPECT_TRUE(std::isfinite(ease(e, static_cast<float>(i) / 1000.0f)));
    }
}

TEST(Easing, InteriorValuesMatchHandWorkedClosedForms) {
    // Polynomials: 0.5^n and its mirror images.
    EXPECT_FLOAT_EQ(ease(Easing::InQuad, 0.5f), 0.25f);
    EXPECT_FLOAT_EQ(ease(Easing::OutQuad, 0.5f), 0.75f);
    EXPECT_FLOAT_EQ(ease(Easing::InOutQuad, 0.25f), 0.125f);  // 2 * 0.25^2
    EXPECT_FLOAT_EQ(ease(Easing::InCubic, 0.5f), 0.125f);
    EXPECT_FLOAT_EQ(ease(Easing::InOutCubic, 0.75f), 0.9375f);  // 1 - 0.5^3 / 2
    EXPECT_FLOAT_EQ(ease(Easing::InQuart, 0.5f), 0.0625f);
    EXPECT_FLOAT_EQ(ease(Easing::OutQuint, 0.5f), 0.96875f);      // 1 - 1/32
    EXPECT_FLOAT_EQ(ease(Easing::InOutQuint, 0.25f), 0.015625f);  // 16 * 0.25^5 = 16/1024
    // Sine: 1 - cos(pi/4), sin(pi/6), (1 - cos(pi/4)) / 2.
    EXPECT_NEAR(ease(Easing::InSine, 0.5f), 1.0 - std::sqrt(0.5), 1e-7);
    EXPECT_NEAR(ease(Easing::OutSine, 1.0f / 3.0f), 0.5, 1e-7);
    EXPECT_NEAR(ease(Easing::InOutSine, 0.25f), (1.0 - std::sqrt(0.5)) / 2.0, 1e-7);
    // Expo: 2^-5 and 1 - 2^-5.
    EXPECT_FLOAT_EQ(ease(Easing::InExpo, 0.5f), 0.03125f);
    EXPECT_FLOAT_EQ(ease(Easing::OutExpo, 0.5f), 0.96875f);
    EXPECT_FLOAT_EQ(ease(Easing::InOutExpo, 0.25f), 0.015625f);  // 2^(5 - 10) / 2
    // Circ: a 3-4-5 triangle: 1 - sqrt(1 - 0.36) = 0.2.
    EXPECT_NEAR(ease(Easing::InCirc, 0.6f), 0.2, 1e-6);
    EXPECT_NEAR(ease(Easing::OutCirc, 0.4f), 0.8, 1e-6);  // sqrt(1 - 0.36)
    // Back: the In curve dips to exactly -10 %: the minimum of (c+1)t^3 - c t^2 is
    // -4c^3 / (27 (c+1)^2) = -0.1000 for c = 1.70158, at t = 2c / (3 (c+1)).
    const double c = 1.70158;
    const float tMin = static_cast<float>(2.0 * c / (3.0 * (c + 1.0)));
    EXPECT_NEAR(ease(Easing::InBack, tMin), -4.0 * c * c * c / (27.0 * (c + 1.0) * (c + 1.0)), 1e-6);
    EXPECT_NEAR(ease(Easing::InBack, tMin), -0.1, 1e-4);
    EXPECT_NEAR(ease(Easing::OutBack, 1.0f - tMin), 1.1, 1e-4);
    // Elastic: 1 + 2^-5 sin(4.25 * 2pi/3) = 1 + sin(150 deg) / 32 = 1.015625.
    EXPECT_NEAR(ease(Easing::OutElastic, 0.5f), 1.015625, 1e-6);
    EXPECT_NEAR(ease(Easing::InElastic, 0.5f), -0.015625, 1e-6);
    // Bounce: second arc at t = 0.5: 7.5625 * (0.5 - 1.5/2.75)^2 + 0.75 = 7.5625/484 + 0.75.
    EXPECT_NEAR(ease(Easing::OutBounce, 0.5f), 0.765625, 1e-6);
    EXPECT_NEAR(ease(Easing::OutBounce, 1.0f / 2.75f), 1.0, 1e-6);  // first landing
    EXPECT_NEAR(ease(Easing::InBounce, 0.5f), 1.0 - 0.765625, 1e-6);
}

TEST(Easing, OutMirrorsInAndInOutIsPointSymmetric) {
    const Easing families[][3] = {
        {Easing::InQuad, Easing::OutQuad, Easing::InOutQuad},
        {Easing::InCubic, Easing::OutCubic, Easing::InOutCubic},
        {Easing::InQuart, Easing::OutQuart, Easing::InOutQuart},
        {Easing::InQuint, Easing::OutQuint, Easing::InOutQuint},
        {Easing::InSine, Easing::OutSine, Easing::InOutSine},
        {Easing::InExpo, Easing::OutExpo, Easing::InOutExpo},
        {Easing::InCirc, Easing::OutCirc, Easing::InOutCirc},
        {Easing::InBack, Easing::OutBack, Easing::InOutBack},
        {Easing::InElastic, Easing::OutElastic, Easing::InOutElastic},
        {Easing::InBounce, Easing::OutBounce, Easing::InOutBounce},
    };
    for (const auto& f : families) {
        for (int i = 0; i <= 64; ++i) {
            const float t = static_cast<float>(i) / 64.0f;  // exact in float, so 1 - t is too
            EXPECT_NEAR(ease(f[1], t), 1.0f - ease(f[0], 1.0f - t), 2e-6f) << kinema::toString(f[1]) << " t " << t;
            EXPECT_NEAR(ease(f[2], t), 1.0f - ease(f[2], 1.0f - t), 2e-6f) << kinema::toString(f[2]) << " t " << t;
        }
        // No jump at the seam of InOut.
        EXPECT_NEAR(ease(f[2], 0.5f - 1e-4f), ease(f[2], 0.5f + 1e-4f), 2e-2f) << kinema::toString(f[2]);
        EXPECT_NEAR(ease(f[2], 0.5f), 0.5f, 1e-6f) << kinema::toString(f[2]);
    }
}

}  // namespace
