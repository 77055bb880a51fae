// The one rule every update of play/ applies to the time it is given.
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

}  // namespace kinema::detail
