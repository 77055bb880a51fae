#include "kinema/play/fixed_tick.hpp"

#include <cmath>
#include "elapsed.hpp"

namespace kinema {

FixedTickDriver::FixedTickDriver(double tick, std::uint32_t maxTicksPerFrame) noexcept
    : tick_(std::isfinite(tick) && tick > 0.0 ? tick : 1.0 / 60.0),
      maxTicks_(maxTicksPerFrame == 0 ? 1 : maxTicksPerFrame),
      valid_(std::isfinite(tick) && tick > 0.0 && maxTicksPerFrame > 0) {}

Status FixedTickDriver::setTimeScale(double scale) noexcept {
    if (!std::isfinite(scale)) return Status::failure(StatusCode::NotFinite, "time scale is not finite");
    if (scale < 0.0) return Status::failure(StatusCode::OutOfRange, "time scale is negative");
    timeScale_ = scale;
    return Status::success();
}

Status FixedTickDriver::advance(double elapsed, std::uint32_t& ticks) noexcept {
    if (Status s = detail::checkElapsed(elapsed); !s) return s;
    std::uint64_t due = 0;
    if (!paused_) {
        accumulator_ += elapsed * timeScale_;
        const double whole = std::floor(accumulator_ / tick_);
        due = static_cast<std::uint64_t>(whole);
        accumulator_ -= whole * tick_;
        // Rounding can leave the remainder a hair below 0 or at a full tick.
        if (accumulator_ < 0.0) accumulator_ = 0.0;
        if (accumulator_ >= tick_) {
            accumulator_ -= tick_;
            ++due;
        }
    }
    due += requested_;
    requested_ = 0;
    if (due > maxTicks_) {
        dropped_ += due - maxTicks_;
        due = maxTicks_;
    }
    ticks = static_cast<std::uint32_t>(due);
    return {};
}

}  // namespace kinema
