// Helpers shared by the character tests: tracks built in code.
#pragma once

#include <cstdint>

#include "kinema/asset/clip.hpp"

namespace kinema::test {

// Joint `target` slides along x from 0 to `distance` over `seconds`.
inline Track slide(std::uint32_t target, float distance, float seconds = 1.0f) {
    Track t;
    t.target = target;
    t.times = {0.0f, seconds};
    t.values = {0, 0, 0, distance, 0, 0};
    return t;
}

}  // namespace kinema::test
