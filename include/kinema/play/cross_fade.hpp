// kinema/play: a crossfade between clips with two slots.
//
// The clip being left moves to the outgoing slot and keeps advancing with its own
// playback mode, so a run fading into a walk does not freeze a foot. The countdown
// runs in unscaled elapsed seconds (the duration the caller asked for, whatever the
// clips' speeds) and is gated on elapsed time, not on either clip playing, so a
// fade always finishes; within a microsecond of its end it has finished (ten steps
// of 0.1 s end a 1 s fade, though they sum to 0.9999999999999999). What crossFadeTo
// does, by case:
//
// | call                                      | result                                                   |
// |-------------------------------------------|----------------------------------------------------------|
// | the clip already playing                  | left alone (the caller means "keep going")               |
// | the same clip, stopped                    | played again from its start, blended out of its held frame |
// | any clip while the current one is stopped | blended out of the held frame, which advances as it fades |
// | no current clip; seconds <= 0, NaN or inf | a cut                                                    |
// | again, mid-fade                           | the outgoing clip is dropped; the fade runs from the clip that was fading in |
//
// To pose it: sample outgoing() (if any) and current(), and blend the current one
// over the outgoing one by currentWeight() (e.g. PoseBatch layers 0 and 1).
#pragma once

#include <optional>
#include <string>

#include "kinema/core/status.hpp"
#include "kinema/asset/easing.hpp"
#include "kinema/play/player.hpp"

namespace kinema {

struct CrossFadeStep {
    PlaybackStep current;
    std::optional<PlaybackStep> outgoing;  // while a fade runs
};

class CrossFade {
public:
    const Player& current() const noexcept { return current_; }
    Player& current() noexcept { return current_; }
    const Player* outgoing() const noexcept { return outgoing_ ? &*outgoing_ : nullptr; }

    // Starts `clip` (or handles the cases of the table above) with a fade of
    // `seconds`, shaped by `easing`. `clip` may be null: then it is a cut to nothing.
    void crossFadeTo(const Clip* clip, double seconds, LoopMode mode = LoopMode::Loop,
                     Easing easing = Easing::Linear) noexcept;

    // Advances both slots by `elapsed` seconds (finite, >= 0; otherwise a message and
    // nothing changes) and the countdown by the same unscaled seconds.
    Status update(double elapsed, CrossFadeStep& step) noexcept;

    bool fading() const noexcept { return outgoing_.has_value(); }
    // Weight of current() over outgoing(), eased: 0 at the start of a fade, 1 at its
    // end and whenever no fade runs; curves that overshoot (Back, Elastic) are
    // clamped to [0, 1].
    float currentWeight() const noexcept;
    double remaining() const noexcept { return remaining_; }

private:
    Player current_;
    std::optional<Player> outgoing_;
    double duration_ = 0.0;
    double remaining_ = 0.0;
    Easing easing_ = Easing::Linear;
};

}  // namespace kinema
