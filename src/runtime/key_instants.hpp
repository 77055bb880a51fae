// Internal: where a clip's own keys shape its motion, for measuring a clip against
// another between grid points as well as on them.
#pragma once

#include <algorithm>
#include <cmath>
#include <iterator>
#include <vector>

#include "kinema/asset/clip.hpp"

namespace kinema::detail {

// Where each component of a CUBICSPLINE track turns inside an interval: the roots in
// (0, 1) of the Hermite's derivative, a s^2 + b s + c, as times up to `end`. A spline
// can swing away and back between its keys (an S between two equal values), which
// neither the keys nor their midpoints show.
inline void splineTurns(const Track& t, double end, std::vector<double>& out) {
    const std::size_t w = t.width;
    for (std::size_t k = 0; k + 1 < t.times.size(); ++k) {
        const double t0 = t.times[k], dt = double{t.times[k + 1]} - t0;
        if (!(t0 < end) || !(dt > 0.0)) continue;
        for (std::size_t i = 0; i < w; ++i) {
            const double v0 = t.values[(3 * k + 1) * w + i], m0 = dt * t.values[(3 * k + 2) * w + i];
            const double v1 = t.values[(3 * k + 4) * w + i], m1 = dt * t.values[(3 * k + 3) * w + i];
            const double a = 6.0 * (v0 - v1) + 3.0 * (m0 + m1);
            const double b = 6.0 * (v1 - v0) - 4.0 * m0 - 2.0 * m1;
            const double c = m0;
            double roots[2];
            int n = 0;
            if (std::fabs(a) < 1e-12 * (std::fabs(b) + std::fabs(c))) {
                if (b != 0.0) roots[n++] = -c / b;
            } else {
                const double disc = b * b - 4.0 * a * c;
                if (disc >= 0.0) {
                    const double root = std::sqrt(disc);
                    roots[n++] = (-b - root) / (2.0 * a);
                    roots[n++] = (-b + root) / (2.0 * a);
                }
            }
            for (int r = 0; r < n; ++r) {
                const double at = t0 + roots[r] * dt;
                if (roots[r] > 0.0 && roots[r] < 1.0 && at <= end) out.push_back(at);
            }
        }
    }
}

// Every key time of the clip's tracks up to `end`, the midpoint between each two
// consecutive ones (where a spike between keys, or a spline's bulge, shows) and where
// a spline's components turn between keys, sorted, each once.
inline std::vector<double> keyInstants(const Clip& clip, double end) {
    std::vector<double> keys;
    std::vector<double> turns;
    for (const Track& t : clip.tracks()) {
        for (const float x : t.times) {
            if (x <= end) keys.push_back(x);
        }
        if (t.interpolation == Interpolation::CubicSpline) splineTurns(t, end, turns);
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    std::vector<double> out;
    out.reserve(2 * keys.size() + turns.size());
    for (std::size_t i = 0; i < keys.size(); ++i) {
        out.push_back(keys[i]);
        if (i + 1 < keys.size()) out.push_back(0.5 * (keys[i] + keys[i + 1]));
    }
    out.insert(out.end(), turns.begin(), turns.end());
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// `into` with the instants of `more` added, sorted, each once.
inline void addInstants(std::vector<double>& into, const std::vector<double>& more) {
    std::vector<double> merged;
    merged.reserve(into.size() + more.size());
    std::merge(into.begin(), into.end(), more.begin(), more.end(), std::back_inserter(merged));
    merged.erase(std::unique(merged.begin(), merged.end()), merged.end());
    into = std::move(merged);
}

}  // namespace kinema::detail
