// kinema/runtime: per-joint weights in [0, 1] for masked blending and additive
// layers ("only the upper body", "the left arm at half strength").
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "kinema/asset/skeleton.hpp"
#include "kinema/runtime/soa_pose.hpp"

namespace kinema {

class JointMask {
public:
    JointMask() = default;
    // `joints` weights, all `weight` (clamped to [0, 1]).
    explicit JointMask(std::size_t joints, float weight = 0.0f);
    // One weight per joint of `skeleton`, all `weight`; the mask is then refused on
    // any other skeleton (skeletonFingerprint()).
    explicit JointMask(const Skeleton& skeleton, float weight = 0.0f);

    // Skeleton::fingerprint() of the skeleton it was made for, or 0 (any skeleton of
    // jointCount() joints).
    std::uint64_t skeletonFingerprint() const noexcept { return skeleton_; }

    std::size_t jointCount() const noexcept { return joints_; }
    float weight(std::size_t joint) const noexcept { return joint < joints_ ? weights_[joint] : 0.0f; }
    // Clamped to [0, 1]; NaN counts as 0. Joints past the end are ignored.
    void set(std::size_t joint, float weight) noexcept;
    // Sets `root` and every joint below it (parents[i] < i, as a Skeleton has them).
    void setSubtree(std::span<const std::int32_t> parents, std::size_t root, float weight) noexcept;

    // Padded to kSoaLanes with zeros, for the kernels.
    const float* lanes() const noexcept { return weights_.data(); }

private:
    std::size_t joints_ = 0;
    std::uint64_t skeleton_ = 0;
    SimdVector<float> weights_;
};

}  // namespace kinema
