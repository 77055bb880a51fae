#include "kinema/play/external_pose.hpp"

#include <algorithm>
#include <cmath>
#include "elapsed.hpp"

namespace kinema {

void ExternalPoseBlend::rampTo(double target, double rampSeconds) noexcept {
    target_ = target;
    if (!(std::isfinite(rampSeconds) && rampSeconds > 0.0)) {
        weight_ = target;
        rampSeconds_ = 0.0;
        return;
    }
    rampSeconds_ = rampSeconds;
}

Status ExternalPoseBlend::update(double elapsed) noexcept {
    if (Status s = detail::checkElapsed(elapsed); !s) return s;
    if (weight_ == target_ || rampSeconds_ <= 0.0) return {};
    // elapsed / ramp rather than elapsed * (1 / ramp): a 0.1 s step of a 0.2 s
    // ramp is then exactly half way.
    const double step = elapsed / rampSeconds_;
    weight_ = target_ > weight_ ? std::min(weight_ + step, target_) : std::max(weight_ - step, target_);
    if (std::fabs(target_ - weight_) * rampSeconds_ <= detail::kEndSlackSeconds) weight_ = target_;
    return {};
}

}  // namespace kinema
