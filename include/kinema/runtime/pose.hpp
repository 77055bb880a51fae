// kinema/runtime: a pose of one model instance and the passes that turn it into
// model-space matrices: local TRS -> model matrices in one forward loop (parents
// come before children), then skin palettes (model * inverse bind).
#pragma once

#include <span>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/math/mat4.hpp"
#include "kinema/math/transform.hpp"

namespace kinema {

// Per-instance output buffers, sized once for a model and reused every frame.
struct Pose {
    std::vector<Transform> local;  // per joint, relative to its parent
    std::vector<float> weights;    // morph weights, laid out as Model::weightOffsetOfJoint says
    std::vector<Mat4> model;       // per joint, in model (scene root) space
};

// A pose sized for `model`, holding its rest pose (local, weights and matrices).
Pose makeRestPose(const Model& model);

// Copies the rest pose into `pose.local` and `pose.weights` (sizes must match).
void resetToRest(const Model& model, Pose& pose) noexcept;

// The reference path's composition passes (see sample.hpp: the same verbs and
// contracts as PoseKernels, sizes checked first, false and nothing written when they
// do not fit).
namespace reference {

// model[i] = model[parent[i]] * toMatrix(local[i]), roots as is; parents[i] < i.
// `local` has one transform per parent, `model` at least as many matrices.
bool localToModel(std::span<const std::int32_t> parents, std::span<const Transform> local,
                  std::span<Mat4> model) noexcept;

// palette[i] = model[skin.joints[i]] * skin.inverseBindMatrices[i]. `palette` and the
// inverse binds hold at least skin.joints.size() matrices. Like PoseKernels it trusts
// the skin's joint indices to be below model.size() (checked where the skin is made).
bool skinPalette(const Skin& skin, std::span<const Mat4> model, std::span<Mat4> palette) noexcept;

}  // namespace reference

}  // namespace kinema
