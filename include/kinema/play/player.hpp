// kinema/play: a playback head on one clip.
//
// A Player owns time (double precision), speed, loop mode and the playing /
// playOnStart pair; the clip it plays stays shared and immutable. update() moves
// the head and returns a PlaybackStep (runtime/marker_sweep.hpp): where the head
// was, where it is now, and how far it travelled. The step's `to` is the exact
// value the player now holds, so markersCrossed() over successive steps announces
// every marker exactly once. seek() is a jump, not a sweep: it announces nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "kinema/core/status.hpp"
#include "kinema/asset/clip.hpp"
#include "kinema/runtime/clip_time.hpp"
#include "kinema/runtime/marker_sweep.hpp"

namespace kinema {

class Player {
public:
    Player() = default;
    explicit Player(const Clip& clip, LoopMode mode = LoopMode::Loop) noexcept : clip_(&clip), mode_(mode) {}

    const Clip* clip() const noexcept { return clip_; }
    LoopMode mode() const noexcept { return mode_; }

    // Authored: start playing on the first update with non-zero elapsed time. It is
    // latched once: a one-shot that ended is not restarted by it.
    bool playOnStart = true;

    bool playing() const noexcept { return playing_; }
    // The last update() stopped this one-shot (Clamp) at the end it runs towards: its
    // head reached it, or was there already (a clip of no length, a head started
    // backwards from its start). False after anything else.
    bool reachedEnd() const noexcept { return reachedEnd_; }
    void play() noexcept {
        playing_ = true;
        started_ = true;
    }
    void pause() noexcept {
        playing_ = false;
        started_ = true;
    }

    double speed() const noexcept { return speed_; }
    // Any finite value; negative plays backwards. A non-finite one fails (NotFinite)
    // and keeps the old speed.
    Status setSpeed(double speed) noexcept;

    // The head in its own coordinate (see PlaybackStep), and as clip time.
    double position() const noexcept { return position_; }
    double clipTime() const noexcept;

    // Jumps to clip time `time` (clamped into the clip; for PingPong onto the
    // forward leg). Announces nothing. False for a non-finite time.
    Status seek(double time) noexcept;

    // Advances by `elapsed` seconds times speed() when playing. `elapsed` must be
    // finite and >= 0: otherwise returns an error message and changes nothing.
    // A paused player returns a step of zero travel (its pose can be re-evaluated).
    Status update(double elapsed, PlaybackStep& step) noexcept;

    // Moves a paused or playing head by `delta` seconds of clip time, either
    // direction, as a sweep (markers on the way are announced). Errors as update().
    Status scrub(double delta, PlaybackStep& step) noexcept;

private:
    PlaybackStep move(double travel) noexcept;

    const Clip* clip_ = nullptr;
    LoopMode mode_ = LoopMode::Loop;
    double position_ = 0.0;
    double speed_ = 1.0;
    bool playing_ = false;
    bool started_ = false;
    bool reachedEnd_ = false;
};

}  // namespace kinema
