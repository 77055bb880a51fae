#include <algorithm>

#include "kinema/runtime/pose.hpp"

namespace kinema {

Pose makeRestPose(const Model& model) {
    Pose pose;
    pose.local.assign(model.skeleton.restPose().begin(), model.skeleton.restPose().end());
    pose.weights = model.restWeights;
    pose.model.resize(pose.local.size());
    (void)reference::localToModel(model.skeleton.parents(), pose.local, pose.model);  // sized above
    return pose;
}

void resetToRest(const Model& model, Pose& pose) noexcept {
    const auto rest = model.skeleton.restPose();
    std::copy(rest.begin(), rest.end(), pose.local.begin());
    std::copy(model.restWeights.begin(), model.restWeights.end(), pose.weights.begin());
}

bool reference::localToModel(std::span<const std::int32_t> parents, std::span<const Transform> local,
                             std::span<Mat4> model) noexcept {
    const std::size_t n = parents.size();
    if (local.size() != n || model.size() < n) return false;
    for (std::size_t i = 0; i < n; ++i) {
        const Mat4 m = toMatrix(local[i]);
        const std::int32_t p = parents[i];
        model[i] = p < 0 ? m : mulAffine(model[static_cast<std::size_t>(p)], m);
    }
    return true;
}

bool reference::skinPalette(const Skin& skin, std::span<const Mat4> model, std::span<Mat4> palette) noexcept {
    const std::size_t n = skin.joints.size();
    if (palette.size() < n || skin.inverseBindMatrices.size() < n) return false;
    if (n > 0 && model.empty()) return false;
    for (std::size_t i = 0; i < n; ++i) palette[i] = mulAffine(model[skin.joints[i]], skin.inverseBindMatrices[i]);
    return true;
}

}  // namespace kinema
