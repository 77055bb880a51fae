// Helpers shared by the play tests: clips and state descriptions built in code.
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kinema/asset/clip.hpp"
#include "kinema/play/state_machine.hpp"

namespace kinema::test {

// A clip of `seconds` (one translation track on joint 0, x from 0 to 1) with `markers`.
inline Clip lineClip(const std::string& name, float seconds, std::vector<Marker> markers = {}) {
    Track t;
    t.path = TrackPath::Translation;
    t.times = {0.0f, seconds};
    t.values = {0, 0, 0, 1, 0, 0};
    auto clip = Clip::create(name, {t}, std::move(markers));
    EXPECT_TRUE(clip.ok()) << clip.message();
    return std::move(clip).value();
}

inline StateDesc clipState(std::string name, std::string clip, LoopMode mode = LoopMode::Loop) {
    StateDesc s;
    s.name = std::move(name);
    s.clip = std::move(clip);
    s.mode = mode;
    return s;
}

}  // namespace kinema::test
