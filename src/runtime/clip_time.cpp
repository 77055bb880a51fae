#include "kinema/runtime/clip_time.hpp"

#include <algorithm>
#include <cmath>

namespace kinema {

namespace {

// time mod period, in [0, period), for period > 0.
double wrapInto(double time, double period) noexcept {
    // fmod costs about 30 ns (glibc reduces bit by bit); a batch pays it per
    // layer per instance. For time >= 0 and fewer than 2^29 laps, q p is exact
    // (a float's 24-bit duration, or twice it, times a 29-bit integer) and so is
    // time - q p, the remainder fmod returns; a quotient rounded to the next lap
    // shows as a remainder outside [0, p) and takes fmod.
    const double q = std::floor(time / period);
    double r = time - q * period;
    if (!(time >= 0.0 && q < 536870912.0 && r >= 0.0 && r < period)) {
        r = std::fmod(time, period);
        if (!(r > 0.0)) r = r < 0.0 ? r + period : 0.0;  // -0 (a whole number of laps back) is 0
        // A tiny negative remainder can round up to the period: the time just before a
        // lap's end is the last representable one below it, not the lap's start.
        if (r >= period) r = std::nextafter(period, 0.0);
    }
    return r;
}

}  // namespace

double clipTime(double time, float duration, LoopMode mode) noexcept {
    const double d = duration;
    if (mode == LoopMode::PingPong && d > 0.0) {
        const double phase = wrapInto(time, 2.0 * d);
        return d - std::fabs(d - phase);
    }
    if (mode == LoopMode::Loop && d > 0.0) {
        const double r = wrapInto(time, d);
        return (r >= d || r < 0.0) ? 0.0 : r;
    }
    return std::clamp(time, 0.0, std::max(d, 0.0));
}

}  // namespace kinema
