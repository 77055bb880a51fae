// The marker sweep on a caller's own clock: steps past the first lap are wrapped
// onto the head's coordinate first, so they announce what a Player's steps would.
#include <gtest/gtest.h>

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
