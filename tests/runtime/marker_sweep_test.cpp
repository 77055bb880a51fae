// The marker sweep on a caller's own clock: steps past the first lap are wrapped
// onto the head's coordinate first, so they announce what a Player's steps would.
#include <gtest/gtest.h>

#include <array>
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
