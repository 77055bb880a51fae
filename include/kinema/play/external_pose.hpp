// kinema/play: handing a skeleton to a pose computed outside the animation system:
// a ragdoll, a physics-driven hit reaction, a replicated pose.
//
// The animation keeps producing its pose; the caller produces its own (SoaPose,
// local TRS like every other pose); ExternalPoseBlend ramps a weight and blends
// the animated pose toward the external one in local TRS, before composition, as
// every blend here is. Switching abruptly would snap the character into whatever
// the physics computed as its first state.
//
// At the hand-off the caller places its bodies from the current pose, so the blend
// starts from near-zero difference: modelTransforms() turns the composed model
// matrices (PoseKernels::localToModel, or PoseBatch::model(i)) into one TRS per
// joint; multiply by the character's world matrix for world-space bodies. While the
// bodies drive the skeleton, localFromModel() turns their model-space matrices back
// into the local pose the blend wants.
//
// Typical frame, one instance:
//   blend.update(dt);                                  // the ramp
//   kernels.sample(clip, t, cursor, animated);         // the animation as usual
//   localFromModel(parents, bodiesInModelSpace, ragdoll);
//   blend.apply(kernels, animated, ragdoll, out);      // then compose `out`
// In a PoseBatch: InstanceRequest::external = &ragdoll, externalWeight = blend.weight().
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "kinema/core/status.hpp"
#include "kinema/runtime/external_pose.hpp"
#include "kinema/runtime/joint_mask.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "kinema/runtime/soa_pose.hpp"

namespace kinema {

// The weight ramp of a hand-off to (start) or back from (stop) an external pose.
// The weight moves toward its target at 1 / rampSeconds per second of update()'s
// elapsed time, from wherever it is: a stop() halfway up a ramp comes back down
// from there, without a jump. Within a microsecond of its end the ramp has ended
// (steps that add up to its length in decimals sum a rounding error short of it).
class ExternalPoseBlend {
public:
    // Ramps the weight toward 1 over `rampSeconds` (from 0; proportionally less
    // from part way). rampSeconds <= 0 or not finite: a cut, the weight is 1 now.
    void start(double rampSeconds) noexcept { rampTo(1.0, rampSeconds); }
    // Ramps the weight toward 0 the same way (back to the animation).
    void stop(double rampSeconds) noexcept { rampTo(0.0, rampSeconds); }

    // Advances the ramp by `elapsed` seconds (finite, >= 0; otherwise returns a
    // message and changes nothing); the weight stops at its target.
    Status update(double elapsed) noexcept;

    // In [0, 1]: 0 fully animated, 1 fully external.
    float weight() const noexcept { return static_cast<float>(weight_); }
    // 1 after start(), 0 after stop() (and initially).
    float target() const noexcept { return static_cast<float>(target_); }
    // The external pose has an effect (weight > 0): the caller must provide it.
    bool active() const noexcept { return weight_ > 0.0; }
    bool ramping() const noexcept { return weight_ != target_; }

    // blendExternalPose(kernels, animated, external, weight(), mask, out).
    bool apply(const PoseKernels& kernels, const SoaPose& animated, const SoaPose& external, SoaPose& out,
               const JointMask* mask = nullptr) const noexcept {
        return blendExternalPose(kernels, animated, external, weight(), mask, out);
    }

private:
    void rampTo(double target, double rampSeconds) noexcept;

    double weight_ = 0.0;
    double target_ = 0.0;
    double rampSeconds_ = 0.0;
};

}  // namespace kinema
