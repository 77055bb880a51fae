#include "kinema/play/root_motion.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kinema/math/mat4.hpp"
#include "kinema/runtime/marker_sweep.hpp"
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
    if (!isFinite(rest)) return Fault{"rest", "the root's rest transform holds a value that is not finite"};
    const Quat& q = rest.rotation;
    const float q2 = dot(q, q);
    if (!(q2 > 0.0f) || !std::isfinite(q2)) return Fault{"rest", "the root's rest rotation is zero"};
    if (!isFinite(mask.up) || mask.up == Vec3{}) return Fault{"mask/up", "the up axis is zero or not finite"};
    if (mask.rotation != RootRotation::None && mask.rotation != RootRotation::Heading &&
        mask.rotation != RootRotation::Full) {
        return Fault{"mask/rotation", "not a RootRotation"};
    }
    auto tracks = Clip::create(std::string(clip.name()) + " root", std::move(own));
    if (!tracks) return std::vector<Fault>(tracks.faults().begin(), tracks.faults().end());
    RootMotion r;
    r.tracks_ = std::move(tracks).value();
    r.rest_ = rest;
    r.rest_.rotation = normalize(q);
    r.mask_ = mask;
    r.duration_ = clip.duration();
    r.start_ = rest;
    (void)reference::sample(r.tracks_, 0.0f, {&r.start_, 1}, {});
    r.held_ = r.at(0.0);
    return r;
}

namespace {

// Rigid motions (a rotation, then a translation; scale 1) composed with their
// rotations kept at unit length, so that a motion raised to a power of millions stays
// a rotation and a translation.
Transform then(const Transform& a, const Transform& b) noexcept {
    Transform c;
    c.rotation = normalize(a.rotation * b.rotation);
    c.translation = a.translation + rotate(a.rotation, b.translation);
    return c;
}

Transform inverseOf(const Transform& a) noexcept {
    Transform c;
    c.rotation = conjugate(a.rotation);
    c.translation = rotate(c.rotation, a.translation) * -1.0f;
    return c;
}

}  // namespace

Transform RootMotion::at(double t) const noexcept {
    Transform x = rest_;
    (void)reference::sample(tracks_, t, {&x, 1}, {});
    Transform part;  // identity
    part.translation = {mask_.x ? x.translation.x : 0.0f, mask_.y ? x.translation.y : 0.0f,
                        mask_.z ? x.translation.z : 0.0f};
    if (mask_.rotation == RootRotation::Full) part.rotation = normalize(x.rotation);
    if (mask_.rotation == RootRotation::Heading) part.rotation = twistAbout(normalize(x.rotation), mask_.up);
    return part;
}

Transform RootMotion::between(double x, double y) const noexcept { return then(inverseOf(at(x)), at(y)); }

Transform RootMotion::delta(LoopMode mode, const PlaybackStep& step) const noexcept {
    const double d = duration_;
    if (step.travel == 0.0 || !(d > 0.0)) return Transform{};
    if (!std::isfinite(step.travel) || !std::isfinite(step.from) || !std::isfinite(step.to)) return Transform{};
    // The root's motion in its own frame, seen from where the anchor holds it.
    const auto fromTheModel = [&](const Transform& motion) { return then(then(held_, motion), inverseOf(held_)); };
    if (mode == LoopMode::Clamp) return fromTheModel(between(step.from, step.to));
    // Walk the head's coordinate in pieces over which clip time is monotonic: a
    // loop restarts at its end (the root snaps back, the motion carries on), a
    // ping-pong turns at both ends.
    const bool pingPong = mode == LoopMode::PingPong;
    const double period = pingPong ? 2.0 * d : d;
    const bool forward = step.travel > 0.0;
    const auto clipTimeOf = [&](double phase) { return pingPong ? d - std::fabs(d - phase) : phase; };
    const auto walk = [&](double p, double length) {
        Transform m;  // identity
        while (length > 0.0) {
            const double next = forward ? (pingPong && p < d ? d : period) : (pingPong && p > d ? d : 0.0);
            const double take = std::min(std::fabs(next - p), length);
            const double q = forward ? p + take : p - take;
            m = then(m, between(clipTimeOf(p), clipTimeOf(q)));
            length -= take;
            p = q;
            if (forward && p >= period) p = 0.0;
            if (!forward && p <= 0.0) p = period;
        }
        return m;
    };
    // A caller's own clock may count past the first lap: the walk starts in the
    // head's repeating coordinate (a Player's steps are in it already).
    const double from = wrapPosition(step.from, period);
    const double distance = std::fabs(step.travel);
    // What is left after the whole laps, exactly (distance - laps * period would round
    // the product: for a travel of 1e26 periods the rest could be billions of laps).
    const double rest = std::fmod(distance, period);
    const double laps = std::round((distance - rest) / period);
    Transform total;
    if (laps > 0.0) {
        // Whole laps are one motion repeated (from `from` round to `from`): its
        // power by squaring, one product per bit of the lap count.
        Transform power = walk(from, period);
        for (double n = laps; n >= 1.0; n = std::floor(n / 2.0)) {
            if (std::fmod(n, 2.0) == 1.0) total = then(total, power);
            power = then(power, power);
        }
    }
    total = fromTheModel(then(total, walk(from, rest)));
    // Laps beyond a float's range (a step of 1e39 clip lengths) have no motion a
    // Transform can hold: such a step moves nothing, as one that is not finite.
    if (!isFinite(total)) return Transform{};
    return total;
}

Transform RootMotion::anchored(const Transform& sampled) const noexcept {
    return anchoredTransform(anchor(0), sampled);
}

RootAnchor RootMotion::anchor(std::uint32_t rootJoint) const noexcept {
    RootAnchor a;
    a.joint = rootJoint;
    a.x = mask_.x;
    a.y = mask_.y;
    a.z = mask_.z;
    a.rotation = mask_.rotation;
    a.up = mask_.up;
    a.value = start_;
    return a;
}

namespace {

// A share counts when its weight is positive and finite: NaN, negative and infinite
// weights blend in nothing (an infinite one would turn every other share's part into
// 0 and its own into NaN).
bool counts(const RootMotionShare& share) noexcept {
    return share.weight > 0.0f && share.weight <= std::numeric_limits<float>::max();
}

}  // namespace

Transform blendRootMotion(std::span<const RootMotionShare> shares) noexcept {
    // The heaviest share sets the quaternion hemisphere; with one share the sums
    // reduce to its own delta (translation / 1, rotation normalised).
    std::size_t heaviest = shares.size();
    double total = 0.0;
    for (std::size_t i = 0; i < shares.size(); ++i) {
        if (!counts(shares[i])) continue;
        total += shares[i].weight;
        if (heaviest == shares.size() || shares[i].weight > shares[heaviest].weight) heaviest = i;
    }
    if (heaviest == shares.size()) return Transform{};
    if (shares[heaviest].weight == total && shares[heaviest].motion != nullptr) {
        return shares[heaviest].motion->delta(shares[heaviest].mode, shares[heaviest].step);
    }
    Quat lead{};  // identity
    double tx = 0.0, ty = 0.0, tz = 0.0, qx = 0.0, qy = 0.0, qz = 0.0, qw = 0.0;
    bool first = true;
    for (std::size_t i = heaviest; first || i != heaviest; i = (i + 1) % shares.size()) {
        first = false;
        const RootMotionShare& share = shares[i];
        if (!counts(share)) continue;
        const Transform d = share.motion != nullptr ? share.motion->delta(share.mode, share.step) : Transform{};
        if (i == heaviest) lead = d.rotation;
        const double w = share.weight / total;
        const double sign = dot(d.rotation, lead) < 0.0f ? -w : w;
        tx += w * d.translation.x;
        ty += w * d.translation.y;
        tz += w * d.translation.z;
        qx += sign * d.rotation.x;
        qy += sign * d.rotation.y;
        qz += sign * d.rotation.z;
        qw += sign * d.rotation.w;
    }
    Transform out;
    out.translation = {static_cast<float>(tx), static_cast<float>(ty), static_cast<float>(tz)};
    const double n = std::sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    // Opposite turns of equal weight cancel: no turn is the only fair answer.
    if (n > 1e-12) {
        out.rotation = {static_cast<float>(qx / n), static_cast<float>(qy / n), static_cast<float>(qz / n),
                        static_cast<float>(qw / n)};
    }
    return out;
}

namespace {

const RootMotion* motionAt(std::span<const RootMotion* const> table, std::size_t index) noexcept {
    return index < table.size() ? table[index] : nullptr;
}

// Few clips play at once; beyond this many shares the lightest are left out.
constexpr std::size_t kMaxShares = 16;

}  // namespace

Transform rootMotionDelta(const StateMachine& machine, std::span<const RootMotion* const> bySlot) noexcept {
    return rootMotionDelta(machine.motion(), bySlot);
}

Transform rootMotionDelta(std::span<const MotionSample> samples, std::span<const RootMotion* const> bySlot) noexcept {
    std::array<RootMotionShare, kMaxShares> shares{};
    std::size_t n = 0;
    for (const MotionSample& s : samples) {
        const RootMotionShare share{motionAt(bySlot, s.clipSlot), s.mode, s.step, s.weight};
        if (n < kMaxShares) {
            shares[n++] = share;
            continue;
        }
        auto lightest = std::min_element(shares.begin(), shares.end(),
                                         [](const auto& a, const auto& b) { return a.weight < b.weight; });
        if (lightest->weight < share.weight) *lightest = share;
    }
    return blendRootMotion({shares.data(), n});
}

Transform rootMotionDelta(std::span<const BlendSample> samples, std::span<const RootMotion* const> byClip) noexcept {
    std::array<RootMotionShare, kMaxShares> shares{};
    std::size_t n = 0;
    for (const BlendSample& s : samples) {
        const RootMotionShare share{motionAt(byClip, s.clip), LoopMode::Loop, s.step, s.weight};
        if (n < kMaxShares) {
            shares[n++] = share;
            continue;
        }
        auto lightest = std::min_element(shares.begin(), shares.end(),
                                         [](const auto& a, const auto& b) { return a.weight < b.weight; });
        if (lightest->weight < share.weight) *lightest = share;
    }
    return blendRootMotion({shares.data(), n});
}

Transform rootMotionDelta(const CrossFade& fade, const CrossFadeStep& step, const RootMotion* current,
                          const RootMotion* outgoing) noexcept {
    const float w = step.outgoing && fade.outgoing() != nullptr ? fade.currentWeight() : 1.0f;
    std::array<RootMotionShare, 2> shares{};
    shares[0] = {current, fade.current().mode(), step.current, w};
    std::size_t n = 1;
    if (step.outgoing && fade.outgoing() != nullptr)
        shares[n++] = {outgoing, fade.outgoing()->mode(), *step.outgoing, 1.0f - w};
    return blendRootMotion({shares.data(), n});
}

Transform rootMotionDelta(const InstanceRequest& request, std::span<const RootMotion* const> byLayer,
                          std::uint32_t rootJoint) noexcept {
    std::array<RootMotionShare, kMaxLayers> shares{};
    const std::size_t layers = std::min<std::size_t>(request.layerCount, kMaxLayers);
    for (std::size_t k = 0; k < layers; ++k) {
        const LayerRequest& layer = request.layers[k];
        if (k != 0 && layer.mode == LayerMode::Additive) continue;
        float w = k == 0 ? 1.0f : layer.weight;
        if (k != 0 && layer.mask != nullptr) w *= layer.mask->weight(rootJoint);
        w = std::clamp(w, 0.0f, 1.0f);
        for (std::size_t j = 0; j < k; ++j) shares[j].weight *= 1.0f - w;
        shares[k] = {motionAt(byLayer, k), layer.loop, layer.step, w};
    }
    return blendRootMotion({shares.data(), layers});
}

}  // namespace kinema
