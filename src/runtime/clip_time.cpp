#include "kinema/runtime/clip_time.hpp"

#include <algorithm>
#include <cmath>

namespace kinema {

float clipTime(double time, float duration, LoopMode mode) noexcept {
    const double d = duration;
    if (mode == LoopMode::Loop && d > 0.0) {
        // fmod costs about 30 ns (glibc reduces bit by bit); a batch pays it per
        // layer per instance. For time >= 0 and fewer than 2^29 laps, q d is exact
        // (a float's 24-bit duration times a 29-bit integer) and so is time - q d,
        // the remainder fmod returns; a quotient rounded to the next lap shows as a
        // remainder outside [0, d) and takes fmod.
        const double q = std::floor(time / d);
        double r = time - q * d;
        if (!(time >= 0.0 && q < 536870912.0 && r >= 0.0 && r < d)) {
            r = std::fmod(time, d);
            if (r < 0.0) r += d;
        }
        const float f = static_cast<float>(r);
        return (f >= duration || f < 0.0f) ? 0.0f : f;
    }
    return static_cast<float>(std::clamp(time, 0.0, std::max(d, 0.0)));
}

}  // namespace kinema
