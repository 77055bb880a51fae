// kinema/runtime: how a playback time maps onto a clip's timeline.
#pragma once

#include <cstdint>

namespace kinema {

enum class LoopMode : std::uint8_t {
    Loop,   // wrap into [0, duration): exactly `duration` maps to 0, negatives wrap from the end
    Clamp,  // clamp into [0, duration] and hold the end pose
};

// Maps `time` (seconds, finite) onto a clip of `duration` seconds. A zero (or
// negative) duration always clamps, so there is no modulo by zero. The wrap is
// computed in double; the result never equals `duration` when looping, even when
// the float conversion would round up to it.
float clipTime(double time, float duration, LoopMode mode) noexcept;

}  // namespace kinema
