// kinema/runtime: blending toward a pose computed outside the animation system (a
// ragdoll, a physics-driven hit reaction, a replicated pose), and converting
// between composed model matrices and the local poses a blend wants.
//
// The ramp that moves the blend weight over time is control and lives in play/
// (ExternalPoseBlend); a request to InstanceEvaluator or PoseBatch carries the
// external pose and its weight, and the evaluation blends it after the layers.
#pragma once

#include <cstdint>
#include <span>

#include "kinema/math/mat4.hpp"
#include "kinema/math/transform.hpp"
#include "kinema/runtime/joint_mask.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "kinema/runtime/soa_pose.hpp"

namespace kinema {

// out = animated blended toward external by `weight` in local TRS (translation and
// scale lerp, rotation nlerp; times `mask` per joint when given). Morph weights are
// the animated pose's: a ragdoll has no opinion about a face. Weight 0 copies
// `animated`, weight 1 without a mask copies external's joints exactly. All three
// poses have the same joint and morph weight counts, `mask` (if any) the joint
// count, `out` is neither input, and weight is in [0, 1]: otherwise returns false
// and writes nothing. Allocates nothing.
bool blendExternalPose(const PoseKernels& kernels, const SoaPose& animated, const SoaPose& external, float weight,
                       const JointMask* mask, SoaPose& out) noexcept;

// One model-space TRS per joint, decomposed from composed model matrices (see
// decompose() for mirrored and collapsed axes): where to place each body at the
// hand-off. `out` holds model.size() transforms: otherwise returns false and
// writes nothing. Allocates nothing.
bool modelTransforms(std::span<const Mat4> model, std::span<Transform> out) noexcept;

// The inverse of composition: out joint i = decompose(inverse(model[parents[i]]) *
// model[i]) (roots: decompose(model[i])), for model-space matrices that came from
// outside (physics bodies). `model` and `parents` have out.jointCount() entries;
// otherwise returns false and writes nothing. Out's morph weights are left alone.
// A parent with a collapsed (zero) axis has no inverse there; its children get zero
// translation and scale along it rather than infinities. Allocates nothing.
bool localFromModel(std::span<const std::int32_t> parents, std::span<const Mat4> model, SoaPose& out) noexcept;

}  // namespace kinema
