#include "kinema/runtime/joint_mask.hpp"

#include <vector>

namespace kinema {

namespace {
float clamp01(float w) noexcept { return w > 0.0f ? (w < 1.0f ? w : 1.0f) : 0.0f; }  // NaN -> 0
}  // namespace

JointMask::JointMask(std::size_t joints, float weight)
    : joints_(joints), weights_((joints + kSoaLanes - 1) / kSoaLanes * kSoaLanes, 0.0f) {
    for (std::size_t i = 0; i < joints; ++i) weights_[i] = clamp01(weight);
}

JointMask::JointMask(const Skeleton& skeleton, float weight) : JointMask(skeleton.jointCount(), weight) {
    skeleton_ = skeleton.fingerprint();
}

void JointMask::set(std::size_t joint, float weight) noexcept {
    if (joint < joints_) weights_[joint] = clamp01(weight);
}

void JointMask::setSubtree(std::span<const std::int32_t> parents, std::size_t root, float weight) noexcept {
    const std::size_t n = parents.size() < joints_ ? parents.size() : joints_;
    if (root >= n) return;
    // Parents come before children, so one forward pass marks whole subtrees.
    std::vector<bool> inside(n, false);
    inside[root] = true;
    weights_[root] = clamp01(weight);
    for (std::size_t i = root + 1; i < n; ++i) {
        const std::int32_t p = parents[i];
        if (p >= 0 && inside[static_cast<std::size_t>(p)]) {
            inside[i] = true;
            weights_[i] = clamp01(weight);
        }
    }
}

}  // namespace kinema
