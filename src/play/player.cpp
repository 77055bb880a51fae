#include "kinema/play/player.hpp"

#include <algorithm>
#include <cmath>
#include "elapsed.hpp"

namespace kinema {

Status Player::setSpeed(double speed) noexcept {
    if (!std::isfinite(speed)) return Status::failure(StatusCode::NotFinite, "speed is not finite");
    speed_ = speed;
    return Status::success();
}

double Player::clipTime() const noexcept {
    if (mode_ != LoopMode::PingPong || clip_ == nullptr) return position_;
    const double d = clip_->duration();
    return d - std::fabs(d - position_);
}

Status Player::seek(double time) noexcept {
    if (!std::isfinite(time)) return Status::failure(StatusCode::NotFinite, "seek time is not finite");
    const double d = clip_ != nullptr ? std::max(static_cast<double>(clip_->duration()), 0.0) : 0.0;
    position_ = mode_ == LoopMode::Loop && d > 0.0 ? wrapPosition(time, d) : std::clamp(time, 0.0, d);
    return Status::success();
}

PlaybackStep Player::move(double travel) noexcept {
    const double d = clip_ != nullptr ? static_cast<double>(clip_->duration()) : 0.0;
    if (d <= 0.0) {
        // A one-shot of no length is at both its ends: any travel finishes it.
        if (mode_ == LoopMode::Clamp && travel != 0.0) playing_ = false;
        return {position_, position_, 0.0};
    }
    PlaybackStep step{position_, position_, travel};
    const double period = loopPeriod(mode_, d);
    // Ticks rarely add up to a clip's length exactly (120 steps of 1/60 s come to
    // 1.9999999999999996 s): a head a rounding short of the end it runs towards has
    // reached it, so a lap or a one-shot ends on the tick that reaches it.
    constexpr double slack = detail::kEndSlackSeconds;
    if (period > 0.0) {
        step.to = wrapPosition(position_ + travel, period);
        if (travel > 0.0 && period - step.to <= slack) step.to = 0.0;
    } else {
        double to = position_ + travel;
        if (travel > 0.0 && d - to <= slack) to = d;
        if (travel < 0.0 && to <= slack) to = 0.0;
        step.to = std::clamp(to, 0.0, d);
        step.travel = step.to - step.from;  // a held end travels nothing
        // A one-shot that reached the end it runs towards has finished.
        if ((travel > 0.0 && step.to >= d) || (travel < 0.0 && step.to <= 0.0)) playing_ = false;
    }
    position_ = step.to;
    return step;
}

Status Player::update(double elapsed, PlaybackStep& step) noexcept {
    if (Status s = detail::checkElapsed(elapsed); !s) return s;
    const bool starts = !started_ && elapsed > 0.0;
    const double travel = elapsed * speed_;
    if ((playing_ || (starts && playOnStart)) && !std::isfinite(travel)) {
        return Status::failure(StatusCode::OutOfRange, "elapsed time at this speed overflows the clip time");
    }
    if (starts) {
        started_ = true;
        if (playOnStart) playing_ = true;
    }
    reachedEnd_ = false;
    if (!playing_) {
        step = {position_, position_, 0.0};
        return {};
    }
    step = move(travel);
    reachedEnd_ = !playing_;
    return {};
}

Status Player::scrub(double delta, PlaybackStep& step) noexcept {
    if (!std::isfinite(delta)) return Status::failure(StatusCode::NotFinite, "scrub distance is not finite");
    const bool wasPlaying = playing_;
    step = move(delta);
    playing_ = wasPlaying;  // scrubbing never starts or stops playback
    reachedEnd_ = false;
    return {};
}

}  // namespace kinema
