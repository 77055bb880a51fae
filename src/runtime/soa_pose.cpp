#include "kinema/runtime/soa_pose.hpp"

#include <algorithm>
#include <cmath>

#include "kinema/math/finite.hpp"

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

std::int64_t firstUnsoundJoint(const SoaPose& pose) noexcept {
    const std::size_t joints = pose.jointCount();
    std::int64_t first = -1;
    for (std::size_t c = 0; c < kSoaComponents; ++c) {
        const float* values = pose.component(static_cast<SoaComponent>(c));
        if (allFinite({values, joints})) continue;  // the common case, checked in vectors
        for (std::size_t j = 0; j < joints; ++j) {
            if (!std::isfinite(values[j]) && (first < 0 || static_cast<std::int64_t>(j) < first)) {
                first = static_cast<std::int64_t>(j);
                break;
            }
        }
    }
    const float* x = pose.component(SoaComponent::Rx);
    const float* y = pose.component(SoaComponent::Ry);
    const float* z = pose.component(SoaComponent::Rz);
    const float* w = pose.component(SoaComponent::Rw);
    for (std::size_t j = 0; j < joints && (first < 0 || static_cast<std::int64_t>(j) < first); ++j) {
        if (x[j] == 0.0f && y[j] == 0.0f && z[j] == 0.0f && w[j] == 0.0f) first = static_cast<std::int64_t>(j);
    }
    if (first >= 0) return first;
    return allFinite(pose.weights()) ? -1 : static_cast<std::int64_t>(joints);
}

}  // namespace kinema
