#include "kinema/play/fixed_tick.hpp"

#include <cmath>
#include <cstdint>
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
    const double gained = paused_ ? 0.0 : elapsed * timeScale_;
    if (!std::isfinite(gained)) {
        return Status::failure(StatusCode::OutOfRange, "elapsed time at this time scale overflows");
    }
    std::uint64_t due = 0;
    if (!paused_) {
        const double total = accumulator_ + gained;
        // fmod is exact: the remainder is in [0, tick) however many ticks are due.
        accumulator_ = std::fmod(total, tick_);
        const double whole = std::round((total - accumulator_) / tick_);
        constexpr double kMostDue = 0x1p63;  // more than any frame runs: the rest is dropped anyway
        due = whole < kMostDue ? static_cast<std::uint64_t>(whole) : static_cast<std::uint64_t>(kMostDue);
    }
    due += requested_;
    requested_ = 0;
    if (due > maxTicks_) {
        const std::uint64_t extra = due - maxTicks_;
        dropped_ = extra > UINT64_MAX - dropped_ ? UINT64_MAX : dropped_ + extra;  // saturates
        due = maxTicks_;
    }
    ticks = static_cast<std::uint32_t>(due);
    return {};
}

}  // namespace kinema
