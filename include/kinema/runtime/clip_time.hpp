// kinema/runtime: how a playback position maps onto a clip's timeline.
#pragma once

#include <cstdint>

namespace kinema {

// How a playback head treats the ends of its clip. The same enum drives sampling
// (clipTime), the marker sweep (markersCrossed) and the players of play/.
enum class LoopMode : std::uint8_t {
    Loop,      // wrap into [0, duration): exactly `duration` maps to 0, negatives wrap from the end
    Clamp,     // clamp into [0, duration] and hold the end pose (a one-shot)
    PingPong,  // forward to the end, back to the start, and again
};

// Maps a playback position `time` (seconds, finite) onto a clip of `duration`
// seconds. For Loop and Clamp the position is clip time; for PingPong it is the
// phase of the round trip, wrapped into [0, 2 * duration), and the clip time is
// duration - |duration - phase|. A zero (or negative) duration always clamps, so
// there is no modulo by zero. The wrap and the result are double, so a long clip
// keeps its sub-microsecond resolution up to the sampler (reference::sample and
// PoseKernels::sample take the double); when looping the result is in [0, duration).
double clipTime(double time, float duration, LoopMode mode) noexcept;

}  // namespace kinema
