#include "kinema/play/cross_fade.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include "elapsed.hpp"

namespace kinema {

namespace {

Player startedPlayer(const Clip& clip, LoopMode mode) noexcept {
    Player p(clip, mode);
    p.play();
    return p;
}

}  // namespace

void CrossFade::crossFadeTo(const Clip* clip, double seconds, LoopMode mode, Easing easing) noexcept {
    const bool hasCurrent = current_.clip() != nullptr;
    if (clip != nullptr && hasCurrent && current_.clip() == clip && current_.playing()) return;  // row 1
    if (clip == nullptr || !hasCurrent || !(seconds > 0.0) || !std::isfinite(seconds)) {         // row 4: a cut
        current_ = clip != nullptr ? startedPlayer(*clip, mode) : Player();
        outgoing_.reset();
        remaining_ = duration_ = 0.0;
        return;
    }
    // Rows 2, 3, 5 and the ordinary case: what is on screen now fades out. A stopped
    // current clip is still a pose (its held frame), and it advances as it fades;
    // mid-fade, the clip already on its way out is dropped.
    Player leaving = current_;
    leaving.play();
    outgoing_ = leaving;
    current_ = startedPlayer(*clip, mode);
    duration_ = remaining_ = seconds;
    easing_ = easing;
}

Status CrossFade::update(double elapsed, CrossFadeStep& step) noexcept {
    if (Status checked = detail::checkElapsed(elapsed); !checked) return checked;
    // Both players advance on copies, kept only when both could: a failure changes nothing.
    CrossFadeStep s;
    Player current = current_;
    if (current.clip() != nullptr) {
        if (Status moved = current.update(elapsed, s.current); !moved) return moved;
    } else {
        s.current = {current.position(), current.position(), 0.0};
    }
    std::optional<Player> outgoing = outgoing_;
    if (outgoing) {
        PlaybackStep out;
        if (Status moved = outgoing->update(elapsed, out); !moved) return moved;
        s.outgoing = out;
    }
    current_ = current;
    outgoing_ = outgoing;
    if (outgoing_) {
        remaining_ -= elapsed;
        if (remaining_ <= detail::kEndSlackSeconds) {
            outgoing_.reset();
            remaining_ = 0.0;
        }
    }
    step = s;
    return {};
}

float CrossFade::currentWeight() const noexcept {
    if (!outgoing_ || duration_ <= 0.0) return 1.0f;
    // Back and Elastic overshoot [0, 1] on purpose; a blend weight past it would
    // extrapolate the two poses (and PoseBatch refuses it), so it is clamped.
    return std::clamp(ease(easing_, static_cast<float>(1.0 - remaining_ / duration_)), 0.0f, 1.0f);
}

}  // namespace kinema
