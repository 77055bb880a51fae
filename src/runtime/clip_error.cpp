#include "kinema/runtime/clip_error.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kinema/math/transform.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/sample.hpp"
#include "key_instants.hpp"

namespace kinema {
namespace {

// The skeleton's model matrices with `clip` sampled at `time` over the rest pose.
void composeAt(const Skeleton& skeleton, const Clip& clip, double time, std::vector<Transform>& local,
               std::vector<float>& weights, std::vector<Mat4>& model) {
    std::copy(skeleton.restPose().begin(), skeleton.restPose().end(), local.begin());
    (void)reference::sample(clip, time, local, weights);
    (void)reference::localToModel(skeleton.parents(), local, model);
}

}  // namespace

Result<ClipError> measureClipError(const Skeleton& skeleton, const Clip& referenceClip, const Clip& candidate,
                                   ClipErrorOptions options) {
    std::vector<Fault> faults;
    const std::size_t joints = skeleton.jointCount();
    for (const Clip* clip : {&referenceClip, &candidate}) {
        const char* which = clip == &referenceClip ? "reference" : "candidate";
        if (clip->jointsNeeded() > joints) {
            faults.push_back({which,
                              "clip \"" + std::string(clip->name()) + "\" animates joint " +
                                  std::to_string(clip->jointsNeeded() - 1) + " of a skeleton of " +
                                  std::to_string(joints)});
        }
    }
    if (!(std::isfinite(options.vertexDistance) && options.vertexDistance > 0.0f)) {
        faults.push_back({"options/vertexDistance", "not finite and positive"});
    }
    if (!(std::isfinite(options.sampleRate) && options.sampleRate > 0.0f)) {
        faults.push_back({"options/sampleRate", "not finite and positive"});
    }
    if (!faults.empty()) return faults;

    const double duration = std::max(referenceClip.duration(), candidate.duration());
    const double step = 1.0 / static_cast<double>(options.sampleRate);
    // Grid instants 0, step, ... up to the duration (the last one at the duration
    // itself), and the midpoint of each interval between them.
    const auto intervals = static_cast<std::size_t>(std::ceil(duration * options.sampleRate - 1e-9));
    std::vector<double> times;
    times.reserve(2 * intervals + 1);
    for (std::size_t k = 0; k <= intervals; ++k) {
        times.push_back(std::min(duration, static_cast<double>(k) * step));
        if (k < intervals) times.push_back(std::min(duration, (static_cast<double>(k) + 0.5) * step));
    }
    // And where either clip's own keys lie, and between them: motion shorter than the
    // grid's step (a spike, a shake faster than the grid) shows only there.
    detail::addInstants(times, detail::keyInstants(referenceClip, duration));
    detail::addInstants(times, detail::keyInstants(candidate, duration));

    const std::size_t weightCount = std::max(referenceClip.weightsNeeded(), candidate.weightsNeeded());
    std::vector<Transform> local(joints);
    std::vector<float> weights(weightCount);
    std::vector<Mat4> a(joints), b(joints);
    std::vector<float> distances;
    distances.reserve(times.size() * joints * 3);
    ClipError out;
    const float d = options.vertexDistance;
    const Vec3 points[] = {{d, 0.0f, 0.0f}, {0.0f, d, 0.0f}, {0.0f, 0.0f, d}};
    for (const double t : times) {
        composeAt(skeleton, referenceClip, t, local, weights, a);
        composeAt(skeleton, candidate, t, local, weights, b);
        for (std::size_t j = 0; j < joints; ++j) {
            for (const Vec3& p : points) {
                const float e = length(transformPoint(a[j], p) - transformPoint(b[j], p));
                distances.push_back(e);
                if (e > out.max || !std::isfinite(e)) {
                    out.max = std::isfinite(e) ? e : std::numeric_limits<float>::infinity();
                    out.worstJoint = static_cast<std::uint32_t>(j);
                    out.worstTime = static_cast<float>(t);
                }
            }
        }
    }
    out.measurements = distances.size();
    if (!distances.empty()) {
        // The smallest distance at or above 99 % of all of them.
        const auto rank = static_cast<std::size_t>(std::ceil(0.99 * static_cast<double>(distances.size()))) - 1;
        std::nth_element(distances.begin(), distances.begin() + static_cast<std::ptrdiff_t>(rank), distances.end());
        out.p99 = distances[rank];
    }
    return out;
}

}  // namespace kinema
