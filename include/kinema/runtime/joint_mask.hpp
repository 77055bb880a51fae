// kinema/runtime: per-joint weights in [0, 1] for masked blending and additive
// layers ("only the upper body", "the left arm at half strength").
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "kinema/asset/skeleton.hpp"
#include "kinema/core/status.hpp"
#include "kinema/runtime/soa_pose.hpp"

namespace kinema {

class JointMask {
public:
    JointMask() = default;
    // `joints` weights, all 0 (setAll() for another start).
    explicit JointMask(std::size_t joints);
    // One weight per joint of `skeleton`, all 0; the mask is then refused on any
    // other skeleton (skeletonFingerprint()).
    explicit JointMask(const Skeleton& skeleton);

    // Skeleton::fingerprint() of the skeleton it was made for, or 0 (any skeleton of
    // jointCount() joints).
    std::uint64_t skeletonFingerprint() const noexcept { return skeleton_; }

    std::size_t jointCount() const noexcept { return joints_; }
    float weight(std::size_t joint) const noexcept { return joint < joints_ ? weights_[joint] : 0.0f; }
    // The setters take a weight in [0, 1]; NaN, infinities and values outside are
    // refused (NotFinite, OutOfRange) as the evaluation refuses a layer weight, and
    // so is a joint past the end (OutOfRange, index = the joint). A refused call
    // changes nothing.
    Status set(std::size_t joint, float weight) noexcept;
    Status setAll(float weight) noexcept;
    // Sets `root` and every joint below it; `parents` is the skeleton's (one per
    // joint of the mask, parents[i] < i, as a Skeleton has them).
    Status setSubtree(std::span<const std::int32_t> parents, std::size_t root, float weight);

    // Padded to kSoaLanes with zeros, for the kernels.
    const float* lanes() const noexcept { return weights_.data(); }

private:
    std::size_t joints_ = 0;
    std::uint64_t skeleton_ = 0;
    SimdVector<float> weights_;
};

}  // namespace kinema
