// kinema/play: a playback head on one clip, and the exact marker sweep of each of
// its steps.
//
// A Player owns time (double precision), speed, playback mode and the playing /
// playOnStart pair; the clip it plays stays shared and immutable. update() moves
// the head and returns a PlaybackStep: where the head was, where it is now, and how
// far it travelled (signed). The `to` of a step is the exact value the player now
// holds, so it is bit for bit the `from` of the next step, and the sweep rules below
// can never announce a marker twice or lose one across a frame boundary:
//
// | the head...                                   | announces              |
// |-----------------------------------------------|------------------------|
// | lands exactly on a marker                     | yes (arrival closed)   |
// | moves off it again, either direction          | no (departure open)    |
// | wraps past the end of a looping clip          | yes, on the lap it wraps into |
// | runs backwards over it (negative speed)       | yes, once              |
// | steps over several whole loops in one update  | once, not once per lap |
//
// Nothing is announced by a step of zero travel, by seek() (a jump is not a
// sweep), or by a clamped head resting at its end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "kinema/asset/clip.hpp"

namespace kinema {

enum class PlaybackMode : std::uint8_t {
    Loop,      // wrap into [0, duration)
    Clamp,     // one-shot: hold the end (or the start, playing backwards)
    PingPong,  // forward to the end, back to the start, and again
};

// One update of a playback head, in the head's own coordinate: clip time for Loop
// and Clamp; for PingPong the phase in [0, 2 * duration) (clip time is
// duration - |duration - phase|).
struct PlaybackStep {
    double from = 0.0;
    double to = 0.0;
    double travel = 0.0;  // signed distance moved, before wrapping
};

// Markers of `clip` the step crossed, as indices into clip.markers(), in the order
// the head met them, each at most once. Writes at most out.size() and returns how
// many it wrote (a clip has few markers: size `out` to clip.markers().size()).
std::size_t markersCrossed(const Clip& clip, PlaybackMode mode, const PlaybackStep& step,
                           std::span<std::uint32_t> out) noexcept;

class Player {
public:
    Player() = default;
    explicit Player(const Clip& clip, PlaybackMode mode = PlaybackMode::Loop) noexcept : clip_(&clip), mode_(mode) {}

    const Clip* clip() const noexcept { return clip_; }
    PlaybackMode mode() const noexcept { return mode_; }

    // Authored: start playing on the first update with non-zero elapsed time. It is
    // latched once: a one-shot that ended is not restarted by it.
    bool playOnStart = true;

    bool playing() const noexcept { return playing_; }
    void play() noexcept { playing_ = true; started_ = true; }
    void pause() noexcept { playing_ = false; started_ = true; }

    double speed() const noexcept { return speed_; }
    // Any finite value; negative plays backwards. Returns false (and keeps the old
    // speed) for a non-finite one.
    bool setSpeed(double speed) noexcept;

    // The head in its own coordinate (see PlaybackStep), and as clip time.
    double position() const noexcept { return position_; }
    double clipTime() const noexcept;

    // Jumps to clip time `time` (clamped into the clip; for PingPong onto the
    // forward leg). Announces nothing. False for a non-finite time.
    bool seek(double time) noexcept;

    // Advances by `elapsed` seconds times speed() when playing. `elapsed` must be
    // finite and >= 0: otherwise returns an error message and changes nothing.
    // A paused player returns a step of zero travel (its pose can be re-evaluated).
    std::string update(double elapsed, PlaybackStep& step) noexcept;

    // Moves a paused or playing head by `delta` seconds of clip time, either
    // direction, as a sweep (markers on the way are announced). Errors as update().
    std::string scrub(double delta, PlaybackStep& step) noexcept;

private:
    PlaybackStep move(double travel) noexcept;

    const Clip* clip_ = nullptr;
    PlaybackMode mode_ = PlaybackMode::Loop;
    double position_ = 0.0;
    double speed_ = 1.0;
    bool playing_ = false;
    bool started_ = false;
};

}  // namespace kinema
