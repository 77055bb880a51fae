#include "kinema/play/player.hpp"

#include <algorithm>
#include <cmath>

namespace kinema {

namespace {

// Length of the head's coordinate before it repeats (0: it does not repeat).
double periodOf(PlaybackMode mode, double duration) noexcept {
    switch (mode) {
        case PlaybackMode::Loop: return duration;
        case PlaybackMode::PingPong: return 2.0 * duration;
        case PlaybackMode::Clamp: return 0.0;
    }
    return 0.0;
}

double wrap(double x, double period) noexcept {
    double r = std::fmod(x, period);
    if (r < 0.0) r += period;
    return r >= period ? 0.0 : r;  // fmod of a tiny negative can round up to the period
}

// Whether the sweep of `step` covers point q of the head's coordinate. For a
// repeating coordinate q is in [0, period). The arrival end is closed, the
// departure end open; everything is decided on the step's own `to`, which is the
// next step's `from`, so the two sweeps meet without a gap or an overlap.
bool covers(const PlaybackStep& s, double period, double q) noexcept {
    if (s.travel == 0.0) return false;
    const bool forward = s.travel > 0.0;
    if (period <= 0.0) return forward ? (s.from < q && q <= s.to) : (s.to <= q && q < s.from);
    if (std::fabs(s.travel) >= period) return true;  // a whole lap or more: every point, once
    if (forward) return s.to >= s.from ? (s.from < q && q <= s.to) : (q > s.from || q <= s.to);
    return s.to <= s.from ? (s.to <= q && q < s.from) : (q < s.from || q >= s.to);
}

// How far along the sweep the head first meets q (for ordering only).
double distanceTo(const PlaybackStep& s, double period, double q) noexcept {
    double d = s.travel > 0.0 ? q - s.from : s.from - q;
    if (period > 0.0 && d <= 0.0) d += period;
    return d;
}

// The points of the head's coordinate where marker time m lies: one for Loop and
// Clamp, two for PingPong (the forward and the backward leg; one at either end).
int markerPoints(PlaybackMode mode, double duration, double m, double (&points)[2]) noexcept {
    if (mode == PlaybackMode::Loop) {
        points[0] = m >= duration ? 0.0 : m;  // the end of a loop is its start
        return 1;
    }
    points[0] = m;
    if (mode == PlaybackMode::PingPong) {
        if (m <= 0.0) {
            points[0] = 0.0;
            return 1;
        }
        if (m >= duration) return 1;
        points[1] = 2.0 * duration - m;
        return 2;
    }
    return 1;
}

}  // namespace

std::size_t markersCrossed(const Clip& clip, PlaybackMode mode, const PlaybackStep& step,
                           std::span<std::uint32_t> out) noexcept {
    const double duration = clip.duration();
    const double period = periodOf(mode, duration);
    if (step.travel == 0.0 || duration <= 0.0) return 0;
    const auto markers = clip.markers();
    // First-meeting distance of marker i, or a negative value when it is not crossed.
    auto firstMet = [&](std::size_t i) {
        double points[2];
        const int n = markerPoints(mode, duration, static_cast<double>(markers[i].time), points);
        double best = -1.0;
        for (int p = 0; p < n; ++p) {
            if (!covers(step, period, points[p])) continue;
            const double d = distanceTo(step, period, points[p]);
            if (best < 0.0 || d < best) best = d;
        }
        return best;
    };
    std::size_t count = 0;
    for (std::size_t i = 0; i < markers.size() && count < out.size(); ++i) {
        const double d = firstMet(i);
        if (d < 0.0) continue;
        // Insertion by meeting order (ties keep marker order); markers are few.
        std::size_t at = count;
        while (at > 0 && firstMet(out[at - 1]) > d) {
            out[at] = out[at - 1];
            --at;
        }
        out[at] = static_cast<std::uint32_t>(i);
        ++count;
    }
    return count;
}

bool Player::setSpeed(double speed) noexcept {
    if (!std::isfinite(speed)) return false;
    speed_ = speed;
    return true;
}

double Player::clipTime() const noexcept {
    if (mode_ != PlaybackMode::PingPong || clip_ == nullptr) return position_;
    const double d = clip_->duration();
    return d - std::fabs(d - position_);
}

bool Player::seek(double time) noexcept {
    if (!std::isfinite(time)) return false;
    const double d = clip_ != nullptr ? std::max(static_cast<double>(clip_->duration()), 0.0) : 0.0;
    position_ = mode_ == PlaybackMode::Loop && d > 0.0 ? wrap(time, d) : std::clamp(time, 0.0, d);
    return true;
}

PlaybackStep Player::move(double travel) noexcept {
    const double d = clip_ != nullptr ? static_cast<double>(clip_->duration()) : 0.0;
    if (d <= 0.0) return {position_, position_, 0.0};
    PlaybackStep step{position_, position_, travel};
    const double period = periodOf(mode_, d);
    if (period > 0.0) {
        step.to = wrap(position_ + travel, period);
    } else {
        step.to = std::clamp(position_ + travel, 0.0, d);
        step.travel = step.to - step.from;  // a held end travels nothing
        // A one-shot that reached the end it runs towards has finished.
        if ((travel > 0.0 && step.to >= d) || (travel < 0.0 && step.to <= 0.0)) playing_ = false;
    }
    position_ = step.to;
    return step;
}

std::string Player::update(double elapsed, PlaybackStep& step) noexcept {
    if (!std::isfinite(elapsed) || elapsed < 0.0) {
        return "player: elapsed time must be finite and >= 0, got " + std::to_string(elapsed);
    }
    if (!started_ && elapsed > 0.0) {
        started_ = true;
        if (playOnStart) playing_ = true;
    }
    if (!playing_) {
        step = {position_, position_, 0.0};
        return {};
    }
    step = move(elapsed * speed_);
    return {};
}

std::string Player::scrub(double delta, PlaybackStep& step) noexcept {
    if (!std::isfinite(delta)) return "player: scrub distance must be finite, got " + std::to_string(delta);
    const bool wasPlaying = playing_;
    step = move(delta);
    playing_ = wasPlaying;  // scrubbing never starts or stops playback
    return {};
}

}  // namespace kinema
