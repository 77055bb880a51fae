#include "kinema/play/root_motion.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kinema/math/mat4.hpp"
#include "kinema/runtime/sample.hpp"

namespace kinema {

Result<RootMotion> RootMotion::create(const Clip& clip, std::uint32_t rootJoint, const Transform& rest,
                                      RootMotionMask mask) {
    std::vector<Track> own;
    for (const Track& t : clip.tracks()) {
        if (t.target != rootJoint || (t.path != TrackPath::Translation && t.path != TrackPath::Rotation)) continue;
        Track copy = t;
        copy.target = 0;
        own.push_back(std::move(copy));
    }
    auto tracks = Clip::create(std::string(clip.name()) + " root", std::move(own));
    if (!tracks) return std::vector<Fault>(tracks.faults().begin(), tracks.faults().end());
    RootMotion r;
    r.tracks_ = std::move(tracks).value();
    r.rest_ = rest;
    r.mask_ = mask;
    r.duration_ = clip.duration();
    r.start_ = rest;
    (void)reference::sample(r.tracks_, 0.0f, {&r.start_, 1}, {});
    return r;
}

Mat4 RootMotion::at(double t) const noexcept {
    Transform x = rest_;
    (void)reference::sample(tracks_, t, {&x, 1}, {});
    Transform part;  // identity
    part.translation = {mask_.x ? x.translation.x : 0.0f, mask_.y ? x.translation.y : 0.0f,
                        mask_.z ? x.translation.z : 0.0f};
    if (mask_.rotation) part.rotation = x.rotation;
    return toMatrix(part);
}

Mat4 RootMotion::between(double x, double y) const noexcept { return mulAffine(inverseAffine(at(x)), at(y)); }

Transform RootMotion::delta(LoopMode mode, const PlaybackStep& step) const noexcept {
    const double d = duration_;
    if (step.travel == 0.0 || !(d > 0.0)) return Transform{};
    if (mode == LoopMode::Clamp) return decompose(between(step.from, step.to));
    // Walk the head's coordinate in pieces over which clip time is monotonic: a
    // loop restarts at its end (the root snaps back, the motion carries on), a
    // ping-pong turns at both ends.
    const bool pingPong = mode == LoopMode::PingPong;
    const double period = pingPong ? 2.0 * d : d;
    const bool forward = step.travel > 0.0;
    const auto clipTimeOf = [&](double phase) { return pingPong ? d - std::fabs(d - phase) : phase; };
    const auto walk = [&](double p, double length) {
        Mat4 m;  // identity
        while (length > 0.0) {
            const double next = forward ? (pingPong && p < d ? d : period) : (pingPong && p > d ? d : 0.0);
            const double take = std::min(std::fabs(next - p), length);
            const double q = forward ? p + take : p - take;
            m = mulAffine(m, between(clipTimeOf(p), clipTimeOf(q)));
            length -= take;
            p = q;
            if (forward && p >= period) p = 0.0;
            if (!forward && p <= 0.0) p = period;
        }
        return m;
    };
    const double distance = std::fabs(step.travel);
    const double laps = std::floor(distance / period);
    Mat4 total;
    if (laps > 0.0) {
        // Whole laps are one motion repeated (from `from` round to `from`).
        const Mat4 lap = walk(step.from, period);
        for (double i = 0.0; i < laps && i < 1.0e6; i += 1.0) total = mulAffine(total, lap);
    }
    total = mulAffine(total, walk(step.from, distance - laps * period));
    return decompose(total);
}

Transform RootMotion::anchored(const Transform& sampled) const noexcept {
    Transform t = sampled;
    if (mask_.x) t.translation.x = start_.translation.x;
    if (mask_.y) t.translation.y = start_.translation.y;
    if (mask_.z) t.translation.z = start_.translation.z;
    if (mask_.rotation) t.rotation = start_.rotation;
    return t;
}

}  // namespace kinema
