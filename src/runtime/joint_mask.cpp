#include "kinema/runtime/joint_mask.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace kinema {

namespace {

Status checkWeight(float w) noexcept {
    return checkUnitWeight(w, "mask weight outside [0, 1]", "mask weight not finite");
}

}  // namespace

JointMask::JointMask(std::size_t joints)
    : joints_(joints), weights_((joints + kSoaLanes - 1) / kSoaLanes * kSoaLanes, 0.0f) {}

JointMask::JointMask(const Skeleton& skeleton) : JointMask(skeleton.jointCount()) {
    skeleton_ = skeleton.fingerprint();
}

Status JointMask::set(std::size_t joint, float weight) noexcept {
    if (Status s = checkWeight(weight); !s) return s;
    if (joint >= joints_) {
        return Status::failure(StatusCode::OutOfRange, "mask joint past the end")
            .withIndex(static_cast<std::int64_t>(joint));
    }
    weights_[joint] = weight;
    return Status::success();
}

Status JointMask::setAll(float weight) noexcept {
    if (Status s = checkWeight(weight); !s) return s;
    std::fill(weights_.begin(), weights_.begin() + static_cast<std::ptrdiff_t>(joints_), weight);
    return Status::success();
}

Status JointMask::setSubtree(std::span<const std::int32_t> parents, std::size_t root, float weight) {
    if (Status s = checkWeight(weight); !s) return s;
    if (parents.size() != joints_)
        return Status::failure(StatusCode::WrongCount, "mask parents: one per joint of the mask");
    if (root >= joints_) {
        return Status::failure(StatusCode::OutOfRange, "mask joint past the end")
            .withIndex(static_cast<std::int64_t>(root));
    }
    // Parents come before children, so one forward pass marks whole subtrees.
    std::vector<bool> inside(joints_, false);
    inside[root] = true;
    weights_[root] = weight;
    for (std::size_t i = root + 1; i < joints_; ++i) {
        const std::int32_t p = parents[i];
        if (p >= 0 && static_cast<std::size_t>(p) < i && inside[static_cast<std::size_t>(p)]) {
            inside[i] = true;
            weights_[i] = weight;
        }
    }
    return Status::success();
}

}  // namespace kinema
