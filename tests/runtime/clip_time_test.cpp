// clipTime: the loop/clamp table of docs/DECISIONS.md for a clip ending at 2 s,
// row by row, then
// the policy's edges (negative times, zero duration, times just below the loop
// boundary) and the double result's resolution on long clips.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kinema/runtime/clip_time.hpp"
#include "kinema/runtime/marker_sweep.hpp"

namespace {

using kinema::clipTime;
using kinema::LoopMode;

constexpr float kTwoSeconds = 2.0f;

// Stored time = clipTime(starting time + elapsed, duration, policy).
double stored(double start, double elapsed, LoopMode mode) { return clipTime(start + elapsed, kTwoSeconds, mode); }

// ---- the loop/clamp table: channel ending at 2 s ---------------------------------

TEST(ClipTimeTable, Start0Elapsed0p5LoopingStores0p5) { EXPECT_EQ(stored(0.0, 0.5, LoopMode::Loop), 0.5f); }

TEST(ClipTimeTable, Start0Elapsed2LoopingStores0) { EXPECT_EQ(stored(0.0, 2.0, LoopMode::Loop), 0.0f); }

TEST(ClipTimeTable, Start0Elapsed2p5LoopingStores0p5) { EXPECT_EQ(stored(0.0, 2.5, LoopMode::Loop), 0.5f); }

TEST(ClipTimeTable, Start0Elapsed3NotLoopingStores2) { EXPECT_EQ(stored(0.0, 3.0, LoopMode::Clamp), 2.0f); }

// ---- the policy around the table ------------------------------------------------------

TEST(ClipTimeLoop, ManyLapsWrapIntoTheFirstLap) {
    EXPECT_EQ(clipTime(2000.5, kTwoSeconds, LoopMode::Loop), 0.5f);
    EXPECT_EQ(clipTime(4.0, kTwoSeconds, LoopMode::Loop), 0.0f);
    EXPECT_EQ(clipTime(1.75, kTwoSeconds, LoopMode::Loop), 1.75f);
}

TEST(ClipTimeLoop, NegativeTimesWrapFromTheEnd) {
    EXPECT_EQ(clipTime(-0.5, kTwoSeconds, LoopMode::Loop), 1.5f);
    EXPECT_EQ(clipTime(-2.5, kTwoSeconds, LoopMode::Loop), 1.5f);
    EXPECT_EQ(clipTime(-0.25, kTwoSeconds, LoopMode::Loop), 1.75f);
}

TEST(ClipTimeLoop, NegativeWholeLapsMapToZero) {
    EXPECT_EQ(clipTime(-2.0, kTwoSeconds, LoopMode::Loop), 0.0f);
    EXPECT_EQ(clipTime(-4.0, kTwoSeconds, LoopMode::Loop), 0.0f);
    // +0, not -0 (which prints as "-0").
    EXPECT_FALSE(std::signbit(clipTime(-2.0, kTwoSeconds, LoopMode::Loop)));
    EXPECT_FALSE(std::signbit(clipTime(-4.0, kTwoSeconds, LoopMode::Loop)));
}

TEST(ClipTimeLoop, TinyNegativeTimeNeverReturnsDuration) {
    // -1e-20 wraps to 2 - 1e-20, which is 2.0 in double: must still be in [0, 2).
    const double t = clipTime(-1e-20, kTwoSeconds, LoopMode::Loop);
    EXPECT_GE(t, 0.0);
    EXPECT_LT(t, 2.0);
    // It is the lap's end, not its start: the last double below 2.
    EXPECT_EQ(t, std::nextafter(2.0, 0.0));
    EXPECT_EQ(clipTime(-1e-300, kTwoSeconds, LoopMode::Loop), std::nextafter(2.0, 0.0));
    EXPECT_EQ(kinema::wrapPosition(-1e-17, 2.0), std::nextafter(2.0, 0.0));
}

TEST(ClipTimeLoop, DoubleJustBelowDurationStaysBelowIt) {
    const double below = std::nextafter(2.0, 0.0);  // 2 - 2^-52
    ASSERT_EQ(static_cast<float>(below), 2.0f);     // a float result would be the duration
    EXPECT_EQ(clipTime(below, kTwoSeconds, LoopMode::Loop), below);
}

TEST(ClipTimeLoop, InexactDurationJustBelowStaysBelowIt) {
    const float d = 0.1f;  // not exact in binary
    const double below = static_cast<double>(d) - 1e-12;
    ASSERT_EQ(static_cast<float>(below), d);
    EXPECT_EQ(clipTime(below, d, LoopMode::Loop), below);
    const double later = clipTime(below + 3.0 * d, d, LoopMode::Loop);  // a few laps later
    EXPECT_NEAR(later, below, 1e-15);
    EXPECT_LT(later, static_cast<double>(d));
}

TEST(ClipTimeLoop, ResultIsAlwaysInZeroToDurationHalfOpen) {
    std::mt19937 rng(401);
    std::uniform_real_distribution<double> time(-1000.0, 1000.0);
    std::uniform_real_distribution<float> dur(0.01f, 10.0f);
    for (int n = 0; n < 20000; ++n) {
        const float d = dur(rng);
        const double t = clipTime(time(rng), d, LoopMode::Loop);
        ASSERT_GE(t, 0.0);
        ASSERT_LT(t, static_cast<double>(d));
    }
}

// The definition: fmod, wrapped into [0, d), a round-up to d taken as 0.
// clipTime skips fmod where it can; it must agree to the bit.
double loopedByFmod(double time, float duration) {
    double r = std::fmod(time, static_cast<double>(duration));
    if (r < 0.0) r += duration;
    return (r >= duration || r < 0.0) ? 0.0 : r;
}

TEST(ClipTimeLoop, AgreesWithFmodBitForBitOverManyLaps) {
    std::mt19937 rng(4021);
    std::uniform_real_distribution<float> dur(0.01f, 10.0f);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::uniform_int_distribution<long long> laps(0, 2'000'000'000LL);
    for (int n = 0; n < 200000; ++n) {
        const float d = dur(rng);
        const double k = static_cast<double>(laps(rng) >> (n % 31));  // 0 laps up to 2e9 (beyond 2^29)
        double t = 0.0;
        switch (n % 4) {
            case 0: t = (k + unit(rng)) * d; break;
            case 1: t = k * d; break;                                            // whole laps (rounded)
            case 2: t = std::nextafter(k * static_cast<double>(d), 0.0); break;  // just below one
            default: t = -(k + unit(rng)) * d; break;                            // negative: fmod's path
        }
        const double got = clipTime(t, d, LoopMode::Loop), want = loopedByFmod(t, d);
        ASSERT_EQ(std::signbit(got), std::signbit(want)) << "time " << t << " duration " << d;
        ASSERT_EQ(got, want) << "time " << t << " duration " << d;
    }
}

// The result is double: a time late in a long clip is not rounded to float
// spacing (122 us at one hour) before sampling, in every mode.
TEST(ClipTimeDouble, LongClipKeepsTheTimeUnrounded) {
    const float hour = 3600.0f;
    const double t = 3599.987;
    ASSERT_NE(static_cast<double>(static_cast<float>(t)), t);
    EXPECT_EQ(clipTime(t, hour, LoopMode::Clamp), t);
    EXPECT_EQ(clipTime(t, hour, LoopMode::Loop), t);
    EXPECT_NEAR(clipTime(t + 1000.0 * hour, hour, LoopMode::Loop), t, 1e-9);   // 1000 laps later
    EXPECT_NEAR(clipTime(2.0 * hour - t, hour, LoopMode::PingPong), t, 1e-9);  // on the way back
}

TEST(ClipTimeClamp, NegativeTimeClampsToZero) {
    EXPECT_EQ(clipTime(-0.5, kTwoSeconds, LoopMode::Clamp), 0.0f);
    EXPECT_EQ(clipTime(-1e9, kTwoSeconds, LoopMode::Clamp), 0.0f);
}

TEST(ClipTimeClamp, TimesInsideAreKept) {
    EXPECT_EQ(clipTime(0.0, kTwoSeconds, LoopMode::Clamp), 0.0f);
    EXPECT_EQ(clipTime(1.25, kTwoSeconds, LoopMode::Clamp), 1.25f);
    EXPECT_EQ(clipTime(2.0, kTwoSeconds, LoopMode::Clamp), 2.0f);  // holds the end pose, not 0
}

TEST(ClipTimeZeroDuration, LoopingClampsToZero) {
    for (double t : {0.0, 0.5, 3.0, -1.0, 1e9}) EXPECT_EQ(clipTime(t, 0.0f, LoopMode::Loop), 0.0f) << "time " << t;
}

TEST(ClipTimeZeroDuration, ClampingClampsToZero) {
    for (double t : {0.0, 0.5, 3.0, -1.0}) EXPECT_EQ(clipTime(t, 0.0f, LoopMode::Clamp), 0.0f) << "time " << t;
}

TEST(ClipTimeZeroDuration, NegativeDurationClampsToZero) {
    EXPECT_EQ(clipTime(1.0, -1.0f, LoopMode::Loop), 0.0f);
    EXPECT_EQ(clipTime(1.0, -1.0f, LoopMode::Clamp), 0.0f);
}

}  // namespace
