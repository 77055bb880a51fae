// kinema/runtime: how far one clip's motion is from another's, measured the way
// animation compression is judged: by virtual vertices. Each joint carries three
// points at `vertexDistance` along its own x, y and z axes; both clips are sampled
// on the skeleton (the exact reference sampler, each clip's own interpolation,
// CUBICSPLINE included) and composed to model space, so an error near the root
// shows, amplified, at every joint below it. The points are compared at every
// sample of a `sampleRate` grid over the longer duration and at the midpoints
// between samples (resampling shows its errors between the grid's instants), and
// at every key time of either clip and the midpoints between keys (where motion
// shorter than the grid's step shows).
#pragma once

#include <cstdint>

#include "kinema/asset/clip.hpp"
#include "kinema/asset/skeleton.hpp"
#include "kinema/core/result.hpp"

namespace kinema {

struct ClipErrorOptions {
    float vertexDistance = 0.03f;  // model units (glTF: metres): 3 cm
    float sampleRate = 30.0f;      // Hz; midpoints are measured as well
};

struct ClipError {
    float max = 0.0f;  // the largest distance between a point's two positions
    float p99 = 0.0f;  // the 99th percentile of all distances (points x instants)
    std::uint32_t worstJoint = 0;
    float worstTime = 0.0f;          // seconds
    std::uint64_t measurements = 0;  // points x instants
};

// Faults: a clip that does not fit the skeleton (joints or morph weights it needs),
// a vertex distance or sample rate that is not finite and positive. Morph weight
// tracks are not measured (they move no joint).
Result<ClipError> measureClipError(const Skeleton& skeleton, const Clip& reference, const Clip& candidate,
                                   ClipErrorOptions options = {});

}  // namespace kinema
