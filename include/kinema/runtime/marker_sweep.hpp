// kinema/runtime: the exact marker sweep of one step of a playback head.
//
// A head (a Player of play/, or any caller's own clock) moves from one position to
// the next; the step records where it was, where it is, and how far it travelled
// (signed). The `to` of a step is the value the head now holds, bit for bit the
// `from` of its next step, so the rules below can never announce a marker twice or
// lose one across a frame boundary:
//
// | the head...                                   | announces              |
// |-----------------------------------------------|------------------------|
// | lands exactly on a marker, or short of it by   | yes (arrival closed)   |
// | no more than kMarkerSlack                      |                        |
// | moves off it again, either direction          | no (departure open)    |
// | wraps past the end of a looping clip          | yes, on the lap it wraps into |
// | runs backwards over it (negative speed)       | yes, once              |
// | steps over several whole loops in one update  | once, not once per lap |
//
// Nothing is announced by a step of zero travel, or by a clamped head resting at
// its end.
//
// Tick lengths rarely add up to a marker's instant exactly (thirty steps of 1/60 s sum
// to 0.49999999999999994 s): each marker is met kMarkerSlack early, in the direction the
// head moves, so a head ticking onto it announces it on that tick, not the next. The
// sweeps still meet without a gap or an overlap: the shift is the same for every step.
// A marker nearer than twice kMarkerSlack to the end of the coordinate the head comes
// from (0 going forward; the clip's end, or the loop's period, going backward) is met
// half way to that end instead, so a head starting there still has it ahead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "kinema/asset/clip.hpp"
#include "kinema/runtime/clip_time.hpp"

namespace kinema {

// One update of a playback head, in the head's own coordinate: clip time for Loop
// and Clamp; for PingPong the phase in [0, 2 * duration) (clip time is
// duration - |duration - phase|, see clipTime()).
struct PlaybackStep {
    double from = 0.0;
    double to = 0.0;
    double travel = 0.0;  // signed distance moved, before wrapping
};

// How early (seconds of the head's coordinate) a step meets a marker.
inline constexpr double kMarkerSlack = 1e-6;

// Length of the head's coordinate before it repeats: the duration for Loop, twice
// it for PingPong, 0 (no repeat) for Clamp.
double loopPeriod(LoopMode mode, double duration) noexcept;

// x wrapped into [0, period), for period > 0.
double wrapPosition(double x, double period) noexcept;

// Markers of a clip of `duration` seconds (sorted by time, as Clip and PackedClip
// keep them) that the step crossed (for Loop and PingPong its ends may lie past the
// first lap, as a caller's own clock gives them: they are wrapped first), as indices into `markers`, in the order the
// head met them, each at most once. Writes at most out.size() and returns how many
// it wrote (a clip has few markers: size `out` to markers.size()).
std::size_t markersCrossed(std::span<const Marker> markers, double duration, LoopMode mode, const PlaybackStep& step,
                           std::span<std::uint32_t> out) noexcept;

// Marker-synchronised time: where a looping clip `to` stands at the point of its
// marker cycle that time `t` of the looping clip `from` has reached. With p and n
// the markers of `from` at or before t and after it (cyclically) and u the fraction
// of the way from p to n, the result lies the same fraction u of the way from `to`'s
// first marker named as p to its next marker named as n (or its next marker, when
// no later one has that name), wrapped into [0, toDuration). Empty when either
// clip has no markers or no positive duration, or `to` has no marker named as p.
std::optional<double> syncedMarkerTime(std::span<const Marker> from, double fromDuration, double t,
                                       std::span<const Marker> to, double toDuration) noexcept;

inline std::size_t markersCrossed(const Clip& clip, LoopMode mode, const PlaybackStep& step,
                                  std::span<std::uint32_t> out) noexcept {
    return markersCrossed(clip.markers(), clip.duration(), mode, step, out);
}

}  // namespace kinema
