// The rules every update of play/ applies to the time it is given.
#pragma once

#include <cmath>

#include "kinema/core/status.hpp"

namespace kinema::detail {

// Elapsed time must be finite and >= 0.
inline Status checkElapsed(double elapsed) noexcept {
    if (!std::isfinite(elapsed)) return Status::failure(StatusCode::NotFinite, "elapsed time is not finite");
    if (elapsed < 0.0) return Status::failure(StatusCode::OutOfRange, "elapsed time is negative");
    return Status::success();
}

// Tick lengths rarely add up to a duration exactly (ten steps of 0.1 s sum to
// 0.9999999999999999 s): a fade or ramp within this many seconds of its end has
// ended, rather than lingering one more update at a weight of 0.999999.
inline constexpr double kEndSlackSeconds = 1e-6;

}  // namespace kinema::detail
