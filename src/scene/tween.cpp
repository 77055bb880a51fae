#include "kinema/scene/tween.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>

namespace kinema {

namespace {

// A value as a track stores it, or the refusal.
Status accepted(Vec3& value) noexcept {
    if (!isFinite(value)) return Status::failure(StatusCode::NotFinite, "tween key value is not finite");
    return Status::success();
}

Status accepted(Quat& value) noexcept {
    if (!isFinite(value)) return Status::failure(StatusCode::NotFinite, "tween key rotation is not finite");
    const double x = value.x, y = value.y, z = value.z, w = value.w;
    const double length2 = x * x + y * y + z * z + w * w;
    if (length2 == 0.0) return Status::failure(StatusCode::OutOfRange, "tween key rotation is a zero quaternion");
    // Normalising an already normalised float quaternion may move its last bits, so
    // one that is unit to float precision is kept: a written key reads back as stored.
    if (std::fabs(length2 - 1.0) > 1e-6) value = *tryNormalize(value);
    return Status::success();
}

// a + (b - a) e in double, so neither the difference nor an overshoot of large
// values overflows before the end; held within the float range.
float mix(float a, float b, double e) noexcept {
    constexpr double kMax = std::numeric_limits<float>::max();
    const double r = double(a) + (double(b) - double(a)) * e;
    return static_cast<float>(std::clamp(r, -kMax, kMax));
}

Vec3 interpolate(Vec3 a, Vec3 b, float e) noexcept { return {mix(a.x, b.x, e), mix(a.y, b.y, e), mix(a.z, b.z, e)}; }

// math's slerp flips b onto a's hemisphere, falls back to linear weights for
// nearly equal keys, and its sine weights extrapolate along the great circle for e
// outside [0, 1]; its result is normalised.
Quat interpolate(Quat a, Quat b, float e) noexcept { return slerp(a, b, e); }

}  // namespace

template <class T>
Status TweenTrack<T>::insert(double time, T value) {
    if (!std::isfinite(time)) return Status::failure(StatusCode::NotFinite, "tween key time is not finite");
    if (time < 0.0) return Status::failure(StatusCode::OutOfRange, "tween key time is negative");
    if (const Status s = accepted(value); !s) return s;
    time += 0.0;  // -0 becomes +0: one representation of the start
    const auto at =
        std::lower_bound(keys_.begin(), keys_.end(), time, [](const Key& k, double t) { return k.time < t; });
    if (at != keys_.end() && at->time == time) {
        at->value = value;
    } else {
        keys_.insert(at, Key{time, value});
    }
    return Status::success();
}

template <class T>
Status TweenTrack<T>::remove(std::size_t index) noexcept {
    if (index >= keys_.size()) {
        return Status::failure(StatusCode::OutOfRange, "no tween key at that index")
            .withIndex(static_cast<std::int64_t>(
                std::min(index, static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max()))));
    }
    keys_.erase(keys_.begin() + static_cast<std::ptrdiff_t>(index));
    return Status::success();
}

template <class T>
std::optional<T> TweenTrack<T>::sample(double time) const noexcept {
    if (keys_.empty()) return std::nullopt;
    // Written so that NaN takes the first branch.
    if (!(time > keys_.front().time)) return keys_.front().value;
    if (time >= keys_.back().time) return keys_.back().value;
    // The first key after `time`: an exact key time lands on that key with u = 0.
    const auto next =
        std::upper_bound(keys_.begin(), keys_.end(), time, [](double t, const Key& k) { return t < k.time; });
    const Key& a = *std::prev(next);
    const Key& b = *next;
    const double u = std::clamp((time - a.time) / (b.time - a.time), 0.0, 1.0);
    const float e = ease(easing_, static_cast<float>(u));
    if (e == 0.0f) return a.value;
    return interpolate(a.value, b.value, e);
}

template class TweenTrack<Vec3>;
template class TweenTrack<Quat>;

Status Tween::setLength(double seconds) noexcept {
    if (!std::isfinite(seconds)) return Status::failure(StatusCode::NotFinite, "tween length is not finite");
    if (seconds < 0.0) return Status::failure(StatusCode::OutOfRange, "tween length is negative");
    length_ = seconds + 0.0;
    return Status::success();
}

double Tween::duration() const noexcept {
    double d = length_.value_or(0.0);
    d = std::max(d, position.lastTime());
    d = std::max(d, rotation.lastTime());
    return std::max(d, scale.lastTime());
}

void apply(const Tween& tween, double time, Transform& local) noexcept {
    if (const auto p = tween.position.sample(time)) local.translation = *p;
    if (const auto r = tween.rotation.sample(time)) local.rotation = *r;
    if (const auto s = tween.scale.sample(time)) local.scale = *s;
}

}  // namespace kinema
