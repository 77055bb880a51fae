// Internal: the threshold both two-bone solvers (the reference in ik.cpp, the lanes in
// ik_lanes.cpp) use to tell a direction from rounding noise, so both take the same
// branch on the same input.
#pragma once

#include <cmath>
#include <limits>

#include "kinema/math/vec3.hpp"

namespace kinema::detail {

// The rounding noise of a difference of two points with these coordinates: a vector
// between them no longer than this has no direction. (Points 1000 units from the
// origin carry about 6e-5 of it, so a target "at" a root placed there is 6e-5 away.)
// Branch-free, so that lane loops calling it stay vector code.
inline float pointNoise(Vec3 a, Vec3 b) noexcept {
    const auto most = [](float x, float y) { return x < y ? y : x; };
    const float m = most(most(most(std::abs(a.x), std::abs(a.y)), most(std::abs(a.z), std::abs(b.x))),
                         most(std::abs(b.y), std::abs(b.z)));
    return 16.0f * std::numeric_limits<float>::epsilon() * m;
}

}  // namespace kinema::detail
