#include "kinema/runtime/clip_time.hpp"

#include <algorithm>
#include <cmath>

namespace kinema {

float clipTime(double time, float duration, LoopMode mode) noexcept {
    const double d = duration;
    if (mode == LoopMode::Loop && d > 0.0) {
        double r = std::fmod(time, d);
        if (r < 0.0) r += d;
        const float f = static_cast<float>(r);
        return (f >= duration || f < 0.0f) ? 0.0f : f;
    }
    return static_cast<float>(std::clamp(time, 0.0, std::max(d, 0.0)));
}

}  // namespace kinema
