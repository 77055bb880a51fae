// Test helper: a joint track built in one call (width from the path).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "kinema/asset/clip.hpp"

namespace kinema::test {

inline Track makeTrack(std::uint32_t target, TrackPath path, std::vector<float> times, std::vector<float> values,
                       Interpolation interpolation = Interpolation::Linear) {
    Track t;
    t.target = target;
    t.path = path;
    t.interpolation = interpolation;
    t.width = path == TrackPath::Rotation ? 4u : 3u;
    t.times = std::move(times);
    t.values = std::move(values);
    return t;
}

}  // namespace kinema::test
