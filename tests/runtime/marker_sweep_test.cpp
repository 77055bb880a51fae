// The marker sweep on a caller's own clock: steps past the first lap are wrapped
// onto the head's coordinate first, so they announce what a Player's steps would.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kinema/runtime/marker_sweep.hpp"

namespace kinema {
namespace {

std::vector<std::uint32_t> crossed(LoopMode mode, PlaybackStep step) {
    const std::array<Marker, 2> markers{Marker{"a", 0.25f}, Marker{"b", 0.5f}};
    std::array<std::uint32_t, 2> out{};
    const std::size_t n = markersCrossed(markers, 1.0, mode, step, out);
    return {out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n)};
}

TEST(MarkerSweep, StepsOfAnUnwrappedClockAnnounceAsOnTheFirstLap) {
    using V = std::vector<std::uint32_t>;
    EXPECT_EQ(crossed(LoopMode::Loop, {0.2, 0.6, 0.4}), (V{0, 1}));
    EXPECT_EQ(crossed(LoopMode::Loop, {1.2, 1.6, 0.4}), (V{0, 1}));  // the second lap
    EXPECT_EQ(crossed(LoopMode::Loop, {7.4, 8.3, 0.9}), (V{1, 0}));  // over the wrap: b, then a
    EXPECT_EQ(crossed(LoopMode::Loop, {-0.8, -0.6, 0.2}), (V{0}));   // before zero: 0.2 -> 0.4
    // Ping-pong phase 2.2 -> 2.6 is 0.2 -> 0.6 of the next round trip: forward over a and b.
    EXPECT_EQ(crossed(LoopMode::PingPong, {2.2, 2.6, 0.4}), (V{0, 1}));
    // Clamp has no laps: nothing to wrap, a step past the end crosses nothing.
    EXPECT_EQ(crossed(LoopMode::Clamp, {1.2, 1.6, 0.4}), V{});
}

// A head that adds up ticks of 1/60 s reaches a marker's instant one rounding short of
// it (thirty ticks sum to 0.49999999999999994): it still announces the marker on that
// tick, and on no other. Over ten laps of a 1 s loop, forward and backward, and once
// on a clamped clip, each marker comes on exactly the ticks where the exact head n/60
// meets it.
TEST(MarkerSweep, AHeadTickingOntoAMarkerAnnouncesItOnThatTick) {
    const std::array<Marker, 3> markers{Marker{"l", 0.0f}, Marker{"q", 0.25f}, Marker{"r", 0.5f}};
    struct Run {
        LoopMode mode;
        double direction;
    };
    for (const Run run : {Run{LoopMode::Loop, 1.0}, Run{LoopMode::Loop, -1.0}, Run{LoopMode::Clamp, 1.0}}) {
        std::array<std::vector<long>, 3> announced;
        double head = 0.0;
        for (long n = 1; n <= 600; ++n) {
            const double tick = run.direction / 60.0;
            PlaybackStep step{head, head + tick, tick};
            head += tick;  // summed, as a Player sums its updates
            if (run.mode == LoopMode::Clamp && step.to > 1.0) step = {step.from, 1.0, 1.0 - step.from};
            std::array<std::uint32_t, 3> out{};
            const std::size_t k = markersCrossed(markers, 1.0, run.mode, step, out);
            for (std::size_t i = 0; i < k; ++i) announced[out[i]].push_back(n);
        }
        for (std::size_t m = 0; m < markers.size(); ++m) {
            // The first tick at the marker: n/60 = its time ahead, or 1 - its time behind
            // (a marker at 0, where the head starts, a whole lap later); then every 60.
            const double ahead = run.direction > 0.0 ? markers[m].time : 1.0 - markers[m].time;
            long first = std::lround(ahead * 60.0);
            if (first == 0) first = 60;
            std::vector<long> expected;
            for (long n = first; n <= 600; n += 60) {
                expected.push_back(n);
                if (run.mode == LoopMode::Clamp) break;
            }
            if (run.mode == LoopMode::Clamp && markers[m].time == 0.0f) expected.clear();  // never reached again
            EXPECT_EQ(announced[m], expected) << "marker " << markers[m].name << ", mode " << static_cast<int>(run.mode)
                                              << ", direction " << run.direction;
        }
    }
}

// Markers within 1 us of the end a head starts from are still ahead of it: met half
// way there, so the first pass announces them, once.
TEST(MarkerSweep, AMarkerJustPastTheStartIsAnnouncedOnTheFirstPass) {
    const std::array<Marker, 2> markers{Marker{"soon", 5e-7f}, Marker{"late", 1.0f - 5e-7f}};
    std::array<std::uint32_t, 2> out{};
    const auto count = [&](LoopMode mode, PlaybackStep step) { return markersCrossed(markers, 1.0, mode, step, out); };
    // Forward from 0: "soon" on the first step, for a one-shot and a loop alike.
    ASSERT_EQ(count(LoopMode::Clamp, {0.0, 0.1, 0.1}), 1u);
    EXPECT_EQ(out[0], 0u);
    ASSERT_EQ(count(LoopMode::Loop, {0.0, 0.1, 0.1}), 1u);
    EXPECT_EQ(out[0], 0u);
    // Backward from the end: "late" on the first step.
    ASSERT_EQ(count(LoopMode::Clamp, {1.0, 0.9, -0.1}), 1u);
    EXPECT_EQ(out[0], 1u);
    // A head a rounding short of a marker 1 us in still meets it.
    EXPECT_EQ(count(LoopMode::Clamp, {0.0, 5e-7 - 1e-18, 5e-7 - 1e-18}), 1u);
    // A loop's laps: each marker once a lap, ten laps of 1/10 s ticks.
    std::array<int, 2> seen{};
    double head = 0.0;
    for (int n = 0; n < 100; ++n) {
        const PlaybackStep step{head, head + 0.1, 0.1};
        head += 0.1;
        const std::size_t k = count(LoopMode::Loop, step);
        for (std::size_t i = 0; i < k; ++i) ++seen[out[i]];
    }
    EXPECT_EQ(seen[0], 10);
    EXPECT_EQ(seen[1], 10);
}

}  // namespace
}  // namespace kinema

namespace {

using kinema::Marker;
using kinema::syncedMarkerTime;

TEST(SyncedMarkerTime, MatchesTheFractionBetweenLikeNamedMarkers) {
    const std::vector<Marker> walk{{"footL", 0.0f}, {"footR", 0.5f}};
    const std::vector<Marker> run{{"footL", 0.1f}, {"footR", 0.35f}};
    // 0.1 s past footR of a 0.5 s gap: 20 % of the way; the run's gap footR -> footL
    // is 0.35 -> 0.6 + 0.1 (wrapping at 0.5 s): 0.35 + 0.2 * 0.25 = 0.4.
    EXPECT_NEAR(*syncedMarkerTime(walk, 1.0, 0.6, run, 0.5), 0.4, 1e-6);  // float marker times
    // Before the first marker of a lap: the last marker of the previous lap leads.
    const std::vector<Marker> late{{"footL", 0.2f}, {"footR", 0.7f}};
    // At 0.1: 0.4 s past footR (0.7 - 1.0 = -0.3) of its 0.5 s gap: 80 %, so
    // 0.35 + 0.8 * 0.25 = 0.55, wrapped into the run's 0.5 s: 0.05.
    EXPECT_NEAR(*syncedMarkerTime(late, 1.0, 0.1, run, 0.5), 0.05, 1e-6);
    // A time past the clip wraps first; one marker spans a whole lap.
    EXPECT_NEAR(*syncedMarkerTime(walk, 1.0, 2.25, run, 0.5), 0.1 + 0.5 * 0.25, 1e-6);
    const std::vector<Marker> one{{"footL", 0.25f}};
    EXPECT_NEAR(*syncedMarkerTime(one, 1.0, 0.5, one, 2.0), 0.25 + 0.25 * 2.0, 1e-6);
}

TEST(SyncedMarkerTime, IsEmptyWhenTheMarkersCannotBeMatched) {
    const std::vector<Marker> walk{{"footL", 0.0f}, {"footR", 0.5f}};
    const std::vector<Marker> other{{"hit", 0.2f}};
    EXPECT_FALSE(syncedMarkerTime(walk, 1.0, 0.3, other, 1.0));
    EXPECT_FALSE(syncedMarkerTime({}, 1.0, 0.3, walk, 1.0));
    EXPECT_FALSE(syncedMarkerTime(walk, 1.0, 0.3, {}, 1.0));
    EXPECT_FALSE(syncedMarkerTime(walk, 0.0, 0.3, walk, 1.0));
    EXPECT_FALSE(syncedMarkerTime(walk, 1.0, NAN, walk, 1.0));
}

}  // namespace
