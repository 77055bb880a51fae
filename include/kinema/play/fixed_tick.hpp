// kinema/play: a fixed-tick driver. The caller owns the clock;
// this helper turns the frame's elapsed time into a whole number of fixed ticks
// through an accumulator, with a catch-up limit (a hitch drops ticks instead of
// spiralling), pause, time scale, single stepping, and the leftover fraction a
// renderer uses to interpolate between the last two ticks. It is offered, not
// imposed: nothing else in kinema depends on it.
#pragma once

#include <cstdint>
#include <string>

#include "kinema/core/status.hpp"

namespace kinema {

class FixedTickDriver {
public:
    // `tick` seconds per tick (finite, > 0; otherwise 1/60 is used and valid() is
    // false); at most `maxTicksPerFrame` (>= 1) ticks per advance().
    explicit FixedTickDriver(double tick = 1.0 / 60.0, std::uint32_t maxTicksPerFrame = 5) noexcept;

    bool valid() const noexcept { return valid_; }
    double tick() const noexcept { return tick_; }

    // Adds `elapsed` real seconds (finite, >= 0) times the time scale and sets
    // `ticks` to the number of ticks to run now. While paused the accumulator does
    // not move and only requested single steps are returned. A bad `elapsed`, or one
    // whose scaled time overflows a double, returns a message and changes nothing.
    Status advance(double elapsed, std::uint32_t& ticks) noexcept;

    bool paused() const noexcept { return paused_; }
    void setPaused(bool paused) noexcept { paused_ = paused; }
    double timeScale() const noexcept { return timeScale_; }
    // Finite and >= 0; otherwise fails and keeps the old scale.
    Status setTimeScale(double scale) noexcept;
    // One more tick on the next advance(), paused or not.
    void requestStep() noexcept { ++requested_; }

    // Simulation time waiting for the next tick, as a fraction of a tick in [0, 1).
    double alpha() const noexcept { return accumulator_ / tick_; }
    // Whole ticks dropped by the catch-up limit so far.
    std::uint64_t droppedTicks() const noexcept { return dropped_; }

private:
    double tick_;
    std::uint32_t maxTicks_;
    bool valid_;
    bool paused_ = false;
    double timeScale_ = 1.0;
    double accumulator_ = 0.0;
    std::uint32_t requested_ = 0;
    std::uint64_t dropped_ = 0;
};

}  // namespace kinema
