// Internal: where a clip's own keys shape its motion, for measuring a clip against
// another between grid points as well as on them.
#pragma once

#include <algorithm>
#include <iterator>
#include <vector>

#include "kinema/asset/clip.hpp"

namespace kinema::detail {

// Every key time of the clip's tracks up to `end` and the midpoint between each two
// consecutive ones (where a spike between keys, or a spline's bulge, shows), sorted,
// each once.
inline std::vector<double> keyInstants(const Clip& clip, double end) {
    std::vector<double> keys;
    for (const Track& t : clip.tracks()) {
        for (const float x : t.times) {
            if (x <= end) keys.push_back(x);
        }
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    std::vector<double> out;
    out.reserve(2 * keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) {
        out.push_back(keys[i]);
        if (i + 1 < keys.size()) out.push_back(0.5 * (keys[i] + keys[i + 1]));
    }
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
