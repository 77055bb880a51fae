#include "kinema/runtime/marker_sweep.hpp"

#include <algorithm>
#include <cmath>

namespace kinema {

double loopPeriod(LoopMode mode, double duration) noexcept {
    switch (mode) {
        case LoopMode::Loop: return duration;
        case LoopMode::PingPong: return 2.0 * duration;
        case LoopMode::Clamp: return 0.0;
    }
    return 0.0;
}

double wrapPosition(double x, double period) noexcept {
    double r = std::fmod(x, period);
    if (r < 0.0) r += period;
    // A tiny negative remainder can round up to the period: a head just before a lap's
    // end stands at the last position below it, not at the lap's start.
    return r >= period ? std::nextafter(period, 0.0) : r;
}

namespace {

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
int markerPoints(LoopMode mode, double duration, double m, double (&points)[2]) noexcept {
    if (mode == LoopMode::Loop) {
        points[0] = m >= duration ? 0.0 : m;  // the end of a loop is its start
        return 1;
    }
    points[0] = m;
    if (mode == LoopMode::PingPong) {
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

std::size_t markersCrossed(std::span<const Marker> markers, double duration, LoopMode mode,
                           const PlaybackStep& unwrapped, std::span<std::uint32_t> out) noexcept {
    const double period = loopPeriod(mode, duration);
    if (unwrapped.travel == 0.0 || duration <= 0.0) return 0;
    // A caller's own clock may count on past the first lap: the sweep works on the
    // head's repeating coordinate (a Player's steps are in it already, unchanged here).
    PlaybackStep step = unwrapped;
    if (period > 0.0) {
        step.from = wrapPosition(step.from, period);
        step.to = wrapPosition(step.to, period);
    }
    // The coordinate's far end (its near end is 0).
    const double end = period > 0.0 ? period : duration;
    // First-meeting distance of marker i, or a negative value when it is not crossed.
    auto firstMet = [&](std::size_t i) {
        double points[2];
        const int n = markerPoints(mode, duration, static_cast<double>(markers[i].time), points);
        double best = -1.0;
        for (int p = 0; p < n; ++p) {
            // Met kMarkerSlack early in the direction of travel (marker_sweep.hpp), or
            // half way from the end the head comes from where that is nearer: a
            // marker 0.5 us into the clip is still ahead of a head starting at 0.
            if (step.travel > 0.0) {
                points[p] -= points[p] > 0.0 ? std::min(kMarkerSlack, points[p] / 2.0) : kMarkerSlack;
            } else {
                points[p] += points[p] < end ? std::min(kMarkerSlack, (end - points[p]) / 2.0) : kMarkerSlack;
            }
            if (period > 0.0) points[p] = wrapPosition(points[p], period);
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

std::optional<double> syncedMarkerTime(std::span<const Marker> from, double fromDuration, double t,
                                       std::span<const Marker> to, double toDuration) noexcept {
    if (from.empty() || to.empty() || !(fromDuration > 0.0) || !(toDuration > 0.0) || !std::isfinite(t)) {
        return std::nullopt;
    }
    t = wrapPosition(t, fromDuration);
    // p: the last source marker at or before t, a lap back when t precedes them all.
    const std::size_t n = from.size();
    std::size_t p = n - 1;
    double pTime = from[p].time - fromDuration;
    for (std::size_t i = 0; i < n; ++i) {
        if (from[i].time <= t) {
            p = i;
            pTime = from[i].time;
        }
    }
    const std::size_t q = (p + 1) % n;
    double qTime = from[q].time;
    while (qTime <= pTime) qTime += fromDuration;
    const double u = qTime > pTime ? (t - pTime) / (qTime - pTime) : 0.0;

    std::size_t a = to.size();
    for (std::size_t i = 0; i < to.size(); ++i) {
        if (to[i].name == from[p].name) {
            a = i;
            break;
        }
    }
    if (a == to.size()) return std::nullopt;
    // The next destination marker named as q, cyclically after a; else simply the next one.
    std::size_t b = (a + 1) % to.size();
    for (std::size_t k = 1; k <= to.size(); ++k) {
        const std::size_t i = (a + k) % to.size();
        if (to[i].name == from[q].name) {
            b = i;
            break;
        }
    }
    const double aTime = to[a].time;
    double bTime = to[b].time;
    while (bTime <= aTime) bTime += toDuration;
    return wrapPosition(aTime + u * (bTime - aTime), toDuration);
}

}  // namespace kinema
