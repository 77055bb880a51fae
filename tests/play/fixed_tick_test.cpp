// The fixed-tick driver: whole ticks out of an accumulator, catch-up limit,
// pause, time scale, single step, the leftover fraction, and refused bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "kinema/play/fixed_tick.hpp"

namespace {

using kinema::FixedTickDriver;

std::uint32_t ticksFor(FixedTickDriver& d, double elapsed) {
    std::uint32_t n = 99;
    EXPECT_TRUE(d.advance(elapsed, n).ok());
    return n;
}

TEST(FixedTick, WholeTicksOutOfTheAccumulatorAndTheLeftoverFraction) {
    FixedTickDriver d(1.0 / 64.0);  // exact in binary
    EXPECT_TRUE(d.valid());
    EXPECT_EQ(ticksFor(d, 1.0 / 64.0), 1u);
    EXPECT_EQ(ticksFor(d, 1.0 / 32.0), 2u);
    EXPECT_EQ(ticksFor(d, 1.0 / 128.0), 0u);
    EXPECT_DOUBLE_EQ(d.alpha(), 0.5);
    EXPECT_EQ(ticksFor(d, 1.0 / 128.0), 1u);
    EXPECT_DOUBLE_EQ(d.alpha(), 0.0);
    // A long run at a frame rate that is not a multiple of the tick: 1000 frames of
    // 1/50 s are 20 s, i.e. 1280 ticks, whatever the rounding on the way.
    std::uint64_t total = 0;
    for (int i = 0; i < 1000; ++i) total += ticksFor(d, 1.0 / 50.0);
    EXPECT_NEAR(static_cast<double>(total), 1280.0, 1.0);
}

TEST(FixedTick, AHitchIsCappedAndTheRestIsDropped) {
    FixedTickDriver d(1.0 / 60.0, 5);
    EXPECT_EQ(ticksFor(d, 0.5), 5u);  // 30 due
    EXPECT_EQ(d.droppedTicks(), 25u);
    EXPECT_LT(d.alpha(), 1.0);
    EXPECT_EQ(ticksFor(d, 1.0 / 60.0), 1u) << "no debt carried into the next frame";
}

// Hitches past any tick count a 64-bit integer holds: still the limit, the rest
// dropped (counted up to the most a 64-bit count holds), the fraction in [0, 1).
TEST(FixedTick, AnyHitchHoweverLongIsCapped) {
    FixedTickDriver d(0.25, 5);
    EXPECT_EQ(ticksFor(d, 1e10), 5u);
    EXPECT_EQ(d.droppedTicks(), 4u * 10'000'000'000u - 5u);
    EXPECT_EQ(ticksFor(d, 1e30), 5u);  // 4e30 due
    EXPECT_GT(d.droppedTicks(), std::uint64_t{1} << 62);
    EXPECT_GE(d.alpha(), 0.0);
    EXPECT_LT(d.alpha(), 1.0);
    EXPECT_EQ(ticksFor(d, 0.25), 1u);
}

TEST(FixedTick, PauseHoldsTimeAndSingleStepsStillRun) {
    FixedTickDriver d(0.25);
    EXPECT_EQ(ticksFor(d, 0.125), 0u);
    d.setPaused(true);
    EXPECT_EQ(ticksFor(d, 10.0), 0u);
    EXPECT_DOUBLE_EQ(d.alpha(), 0.5) << "paused time does not accumulate";
    d.requestStep();
    EXPECT_EQ(ticksFor(d, 0.0), 1u);
    EXPECT_EQ(ticksFor(d, 0.0), 0u) << "one request, one tick";
    d.setPaused(false);
    EXPECT_EQ(ticksFor(d, 0.125), 1u);
}

TEST(FixedTick, TimeScaleSlowsAndStops) {
    FixedTickDriver d(0.25);
    ASSERT_TRUE(d.setTimeScale(0.5));
    EXPECT_EQ(ticksFor(d, 0.25), 0u);
    EXPECT_EQ(ticksFor(d, 0.25), 1u);
    ASSERT_TRUE(d.setTimeScale(0.0));
    EXPECT_EQ(ticksFor(d, 100.0), 0u);
    EXPECT_FALSE(d.setTimeScale(-1.0));
    EXPECT_FALSE(d.setTimeScale(NAN));
    EXPECT_EQ(d.timeScale(), 0.0);
}

TEST(FixedTick, BadInputIsRefusedAndChangesNothing) {
    FixedTickDriver d(0.25);
    EXPECT_EQ(ticksFor(d, 0.125), 0u);
    for (const double bad : {-0.01, static_cast<double>(NAN), static_cast<double>(INFINITY)}) {
        std::uint32_t n = 7;
        EXPECT_FALSE(d.advance(bad, n).ok());
        EXPECT_EQ(n, 7u) << "ticks is not written";
        EXPECT_DOUBLE_EQ(d.alpha(), 0.5);
    }
    // Finite, but times a scale of 1e300 past a double's range.
    ASSERT_TRUE(d.setTimeScale(1e300).ok());
    std::uint32_t n = 7;
    EXPECT_EQ(d.advance(1e10, n).code, kinema::StatusCode::OutOfRange);
    EXPECT_EQ(n, 7u);
    EXPECT_DOUBLE_EQ(d.alpha(), 0.5);
    ASSERT_TRUE(d.setTimeScale(1.0).ok());
    EXPECT_EQ(ticksFor(d, 0.125), 1u);
    EXPECT_DOUBLE_EQ(d.alpha(), 0.0);
    EXPECT_FALSE(FixedTickDriver(0.0).valid());
    EXPECT_FALSE(FixedTickDriver(-1.0).valid());
    EXPECT_DOUBLE_EQ(FixedTickDriver(NAN).tick(), 1.0 / 60.0);
}

}  // namespace
