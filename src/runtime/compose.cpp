#include <algorithm>

#include "kinema/runtime/pose.hpp"

namespace kinema {

Pose makeRestPose(const Model& model) {
    Pose pose;
    pose.local.assign(model.skeleton.restPose().begin(), model.skeleton.restPose().end());
    pose.weights = model.restWeights;
    pose.model.resize(pose.local.size());
    localToModel(model.skeleton.parents(), pose.local, pose.model);
    return pose;
}

void resetToRest(const Model& model, Pose& pose) noexcept {
    const auto rest = model.skeleton.restPose();
    std::copy(rest.begin(), rest.end(), pose.local.begin());
    std::copy(model.restWeights.begin(), model.restWeights.end(), pose.weights.begin());
}

void localToModel(std::span<const std::int32_t> parents, std::span<const Transform> local,
                  std::span<Mat4> model) noexcept {
    const std::size_t n = std::min({parents.size(), local.size(), model.size()});
    for (std::size_t i = 0; i < n; ++i) {
        const Mat4 m = toMatrix(local[i]);
        const std::int32_t p = parents[i];
        model[i] = p < 0 ? m : mulAffine(model[static_cast<std::size_t>(p)], m);
    }
}

void buildSkinPalette(const Skin& skin, std::span<const Mat4> model, std::span<Mat4> palette) noexcept {
    const std::size_t n = std::min(skin.joints.size(), palette.size());
    for (std::size_t i = 0; i < n; ++i) palette[i] = mulAffine(model[skin.joints[i]], skin.inverseBindMatrices[i]);
}

}  // namespace kinema
