#include "kinema/runtime/soa_pose.hpp"

#include <algorithm>

namespace kinema {

namespace {
std::size_t roundUp(std::size_t n) { return (n + kSoaLanes - 1) / kSoaLanes * kSoaLanes; }
}  // namespace

SoaPose::SoaPose(std::size_t joints, std::size_t weights)
    : joints_(joints), lanes_(roundUp(joints)), data_(kSoaComponents * lanes_, 0.0f), weights_(weights, 0.0f) {
    std::fill_n(component(SoaComponent::Rw), lanes_, 1.0f);
    for (const SoaComponent c : {SoaComponent::Sx, SoaComponent::Sy, SoaComponent::Sz}) {
        std::fill_n(component(c), lanes_, 1.0f);
    }
}

SoaPose::SoaPose(std::span<const Transform> local, std::span<const float> weights)
    : SoaPose(local.size(), weights.size()) {
    for (std::size_t i = 0; i < local.size(); ++i) setJoint(i, local[i]);
    std::copy(weights.begin(), weights.end(), weights_.begin());
}

Transform SoaPose::joint(std::size_t i) const noexcept {
    auto at = [&](SoaComponent c) { return component(c)[i]; };
    return {{at(SoaComponent::Tx), at(SoaComponent::Ty), at(SoaComponent::Tz)},
            {at(SoaComponent::Rx), at(SoaComponent::Ry), at(SoaComponent::Rz), at(SoaComponent::Rw)},
            {at(SoaComponent::Sx), at(SoaComponent::Sy), at(SoaComponent::Sz)}};
}

void SoaPose::setJoint(std::size_t i, const Transform& t) noexcept {
    const float v[kSoaComponents] = {t.translation.x, t.translation.y, t.translation.z, t.rotation.x, t.rotation.y,
                                     t.rotation.z,    t.rotation.w,    t.scale.x,       t.scale.y,    t.scale.z};
    for (std::size_t c = 0; c < kSoaComponents; ++c) data_[c * lanes_ + i] = v[c];
}

bool SoaPose::assign(const SoaPose& other) noexcept {
    if (other.joints_ != joints_ || other.weights_.size() != weights_.size()) return false;
    if (&other == this) return true;
    std::copy(other.data_.begin(), other.data_.end(), data_.begin());
    std::copy(other.weights_.begin(), other.weights_.end(), weights_.begin());
    return true;
}

void SoaPose::toTransforms(std::span<Transform> out) const noexcept {
    const std::size_t n = std::min(out.size(), joints_);
    for (std::size_t i = 0; i < n; ++i) out[i] = joint(i);
}

}  // namespace kinema
