// The demo's character, built entirely in code: a seven-joint runner (hips,
// spine, head, two legs with feet), three looping clips (idle 2 s; walk 1 s and
// run 0.6 s, each with footstep markers) and a skinned stick-figure mesh bound to
// the rig.
#pragma once

#include "kinema/asset/model.hpp"
#include "kinema/core/result.hpp"

namespace kinema::cli {

Result<Model> buildRunner();

}  // namespace kinema::cli
