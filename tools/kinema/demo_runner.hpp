// The demo's character, built entirely in code: a seven-joint runner (hips,
// spine, head, two legs with feet), a one-second looping stride clip with
// footstep markers, and a skinned stick-figure mesh bound to the rig.
#pragma once

#include "kinema/asset/model.hpp"
#include "kinema/core/result.hpp"

namespace kinema::cli {

Result<Model> buildRunner();

}  // namespace kinema::cli
