#include "kinema/asset/retarget.hpp"

#include "kinema/core/quoted.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "kinema/math/mat4.hpp"
#include "kinema/math/quat.hpp"
#include "kinema/math/transform.hpp"

namespace kinema {

namespace {

constexpr std::int32_t kNone = -1;
constexpr std::size_t kUnused = std::numeric_limits<std::size_t>::max();
constexpr std::uint32_t kNoJoint = std::numeric_limits<std::uint32_t>::max();

std::string quoted(std::string_view s) { return kinema::inQuotes(s, '"'); }

std::size_t index(std::int32_t joint) { return static_cast<std::size_t>(joint); }

// Rest model rotations (products of local rest rotations) and model matrices.
struct RestModel {
    std::vector<Quat> rotation;
    std::vector<Mat4> matrix;
};

RestModel restModel(const Skeleton& s) {
    RestModel r;
    r.rotation.resize(s.jointCount());
    r.matrix.resize(s.jointCount());
    for (std::size_t j = 0; j < s.jointCount(); ++j) {
        const Transform& rest = s.restPose()[j];
        const std::int32_t p = s.parents()[j];
        r.rotation[j] = p == kNoParent ? rest.rotation : normalize(r.rotation[index(p)] * rest.rotation);
        r.matrix[j] = p == kNoParent ? toMatrix(rest) : mulAffine(r.matrix[index(p)], toMatrix(rest));
    }
    return r;
}

struct Correspondence {
    std::vector<std::int32_t> sourceOf;  // per target joint: the source joint driving it, or kNone
    std::vector<std::int32_t> targetOf;  // per source joint: the (first) target joint it drives, or kNone
};

// Where map entry `i` was given: "map/joints/<i>[/side]", or its JSON pointer in the
// map's file ("rig.json#/joints/<source name>") when the map has an origin.
std::string entryAt(const RetargetMap& map, std::size_t i, std::string_view side) {
    if (map.origin.empty()) {
        std::string at = "map/joints/" + std::to_string(i);
        if (!side.empty()) at.append("/").append(side);
        return at;
    }
    std::string at = map.origin + "#/joints/";
    appendPointerToken(at, map.joints[i].source);
    return at;
}

// Where a reference joint was given ("source" or "target").
std::string referenceAt(const RetargetMap& map, std::string_view side) {
    if (map.origin.empty()) return std::string(side == "source" ? "map/sourceReference" : "map/targetReference");
    return map.origin + "#/reference/" + std::string(side);
}

Result<Correspondence> correspond(const Skeleton& source, const Skeleton& target, const RetargetMap& map) {
    Correspondence c;
    c.sourceOf.assign(target.jointCount(), kNone);
    c.targetOf.assign(source.jointCount(), kNone);
    if (map.joints.empty()) {
        // Joints without names pair by index, where the two skeletons are one hierarchy
        // (a rig with other proportions, or the same one): a name is all a map can give.
        const bool oneHierarchy = std::ranges::equal(source.parents(), target.parents());
        for (std::size_t j = 0; j < target.jointCount(); ++j) {
            if (target.name(j).empty()) {
                if (oneHierarchy && source.name(j).empty()) {
                    c.sourceOf[j] = static_cast<std::int32_t>(j);
                    if (c.targetOf[j] == kNone) c.targetOf[j] = static_cast<std::int32_t>(j);
                }
                continue;
            }
            if (const auto s = source.findJoint(target.name(j))) {
                c.sourceOf[j] = static_cast<std::int32_t>(*s);
                if (c.targetOf[*s] == kNone) c.targetOf[*s] = static_cast<std::int32_t>(j);
            }
        }
        return c;
    }
    std::vector<Fault> faults;
    std::vector<std::size_t> sourceEntry(source.jointCount(), kUnused);
    std::vector<std::size_t> targetEntry(target.jointCount(), kUnused);
    for (std::size_t i = 0; i < map.joints.size(); ++i) {
        const JointPair& pair = map.joints[i];
        const std::size_t before = faults.size();
        // Plain indices (kUnused: not found) rather than optionals, read after the checks.
        const std::size_t s = pair.source.empty() ? kUnused : source.findJoint(pair.source).value_or(kNoJoint);
        const std::size_t t = pair.target.empty() ? kUnused : target.findJoint(pair.target).value_or(kNoJoint);
        if (pair.source.empty()) {
            faults.push_back({entryAt(map, i, "source"), "the source joint name is empty"});
        } else if (s == kNoJoint) {
            faults.push_back(
                {entryAt(map, i, "source"), "source joint " + quoted(pair.source) + " is not in the source skeleton"});
        } else if (sourceEntry[s] != kUnused) {
            faults.push_back(
                {entryAt(map, i, "source"),
                 "source joint " + quoted(pair.source) + " is mapped already by " + entryAt(map, sourceEntry[s], "")});
        }
        if (pair.target.empty()) {
            faults.push_back({entryAt(map, i, "target"), "the target joint name is empty"});
        } else if (t == kNoJoint) {
            faults.push_back(
                {entryAt(map, i, "target"), "target joint " + quoted(pair.target) + " is not in the target skeleton"});
        } else if (targetEntry[t] != kUnused) {
            faults.push_back({entryAt(map, i, "target"),
                              "target joint " + quoted(pair.target) + " is driven already by " +
                                  entryAt(map, targetEntry[t], "") + " (" + quoted(map.joints[targetEntry[t]].source) +
                                  ")"});
        }
        if (faults.size() != before) continue;
        sourceEntry[s] = i;
        targetEntry[t] = i;
        c.sourceOf[t] = static_cast<std::int32_t>(s);
        c.targetOf[s] = static_cast<std::int32_t>(t);
    }
    if (!faults.empty()) return faults;
    return c;
}

std::vector<Fault> clipFaults(const Clip& clip, const Skeleton& source) {
    if (!clip.jointNames().empty() && clip.skeletonFingerprint() != source.fingerprint()) {
        return {{"clip",
                 "clip " + quoted(clip.name()) +
                     " was made for a skeleton with other joint names than the source: bindClip it to the "
                     "source first"}};
    }
    return findClipFaults(clip, source, std::numeric_limits<std::size_t>::max());
}

// The joints of both skeletons' references, resolved through the map where one is left out.
struct References {
    std::int32_t source = kNone;
    std::int32_t target = kNone;
};

Result<References> references(const Skeleton& source, const Skeleton& target, const RetargetMap& map,
                              const Correspondence& c) {
    std::vector<Fault> faults;
    References r;
    if (!map.sourceReference.empty()) {
        if (const auto s = source.findJoint(map.sourceReference)) {
            r.source = static_cast<std::int32_t>(*s);
        } else {
            faults.push_back({referenceAt(map, "source"),
                              "source joint " + quoted(map.sourceReference) + " is not in the source skeleton"});
        }
    }
    if (!map.targetReference.empty()) {
        if (const auto t = target.findJoint(map.targetReference)) {
            r.target = static_cast<std::int32_t>(*t);
        } else {
            faults.push_back({referenceAt(map, "target"),
                              "target joint " + quoted(map.targetReference) + " is not in the target skeleton"});
        }
    }
    if (!faults.empty()) return faults;
    if (r.source != kNone && map.targetReference.empty()) {
        r.target = c.targetOf[index(r.source)];
        if (r.target == kNone) {
            return Fault{referenceAt(map, "source"),
                         "source joint " + quoted(map.sourceReference) +
                             " drives no target joint; name the target reference too"};
        }
    }
    if (r.target != kNone && map.sourceReference.empty()) {
        r.source = c.sourceOf[index(r.target)];
        if (r.source == kNone) {
            return Fault{referenceAt(map, "target"),
                         "no source joint drives target joint " + quoted(map.targetReference) +
                             "; name the source reference too"};
        }
    }
    return r;
}

// The determinant of an affine matrix's linear part, in double: 0 where it flattens an axis.
double linearDeterminant(const Mat4& a) {
    const double m00 = a(0, 0), m01 = a(0, 1), m02 = a(0, 2);
    const double m10 = a(1, 0), m11 = a(1, 1), m12 = a(1, 2);
    const double m20 = a(2, 0), m21 = a(2, 1), m22 = a(2, 2);
    return m00 * (m11 * m22 - m12 * m21) - m01 * (m10 * m22 - m12 * m20) + m02 * (m10 * m21 - m11 * m20);
}

std::vector<Fault> optionFaults(const RetargetOptions& o) {
    std::vector<Fault> faults;
    if (!std::isfinite(o.translationScale) || o.translationScale < 0.0f) {
        faults.push_back(
            {"translationScale", "must be finite and >= 0 (0: measured), not " + exactNumber(o.translationScale)});
    }
    if (!isFinite(o.up) || (o.up.x == 0.0f && o.up.y == 0.0f && o.up.z == 0.0f))
        faults.push_back({"up", "must be a finite non-zero direction"});
    if (!std::isfinite(o.sampleRate) || o.sampleRate < 0.0f) {
        faults.push_back(
            {"sampleRate", "must be finite and >= 0 (0: key times only), not " + exactNumber(o.sampleRate)});
    }
    return faults;
}

Result<float> translationScale(const Skeleton& source, const Skeleton& target, const RetargetOptions& o,
                               const References& refs) {
    if (o.translationScale > 0.0f) return o.translationScale;
    if (refs.source == kNone) return 1.0f;
    // Measured in double: a direction of 1e30 or 1e-30 would overflow or vanish when
    // squared in float.
    const double x = o.up.x, y = o.up.y, z = o.up.z;
    const double inv = 1.0 / std::sqrt(x * x + y * y + z * z);
    const Vec3 up{static_cast<float>(x * inv), static_cast<float>(y * inv), static_cast<float>(z * inv)};
    const auto height = [&](const Skeleton& s, std::int32_t joint) {
        const Mat4 m = restModel(s).matrix[index(joint)];
        return dot(Vec3{m.m[12], m.m[13], m.m[14]}, up);
    };
    const float hs = height(source, refs.source);
    const float ht = height(target, refs.target);
    std::vector<Fault> faults;
    if (!(hs > 0.0f) || !std::isfinite(hs)) {
        faults.push_back({referenceAt(o.map, "source"),
                          "source joint " + quoted(source.name(index(refs.source))) + " rests at height " +
                              exactNumber(hs) + "; the translation ratio needs a height > 0 (or translationScale)"});
    }
    if (!(ht > 0.0f) || !std::isfinite(ht)) {
        faults.push_back({referenceAt(o.map, "target"),
                          "target joint " + quoted(target.name(index(refs.target))) + " rests at height " +
                              exactNumber(ht) + "; the translation ratio needs a height > 0 (or translationScale)"});
    }
    if (!faults.empty()) return faults;
    return ht / hs;
}

// ------------------------------------------------------------ sampling the source
// The rules of runtime/sample.hpp (the asset module sits below runtime): before the
// first key the first value, after the last the last, LINEAR rotation as slerp,
// CUBICSPLINE as the Hermite spline with tangents scaled by the interval, normalised.

const float* keyValue(const Track& t, std::size_t k) {
    return t.interpolation == Interpolation::CubicSpline ? &t.values[(k * 3 + 1) * t.width] : &t.values[k * t.width];
}

void store(const Track& t, const float* v, Transform& out) {
    switch (t.path) {
        case TrackPath::Translation: out.translation = {v[0], v[1], v[2]}; break;
        case TrackPath::Scale: out.scale = {v[0], v[1], v[2]}; break;
        case TrackPath::Rotation: out.rotation = {v[0], v[1], v[2], v[3]}; break;
        case TrackPath::Weights: break;
    }
}

void sampleTrack(const Track& t, double time, Transform& out) {
    const std::size_t n = t.times.size();
    if (n == 1 || time <= t.times.front()) return store(t, keyValue(t, 0), out);
    if (time >= t.times.back()) return store(t, keyValue(t, n - 1), out);
    const auto it = std::upper_bound(t.times.begin(), t.times.end(), time,
                                     [](double x, float key) { return x < static_cast<double>(key); });
    const std::size_t k = static_cast<std::size_t>(it - t.times.begin()) - 1;
    const double t0 = t.times[k];
    if (time == t0) return store(t, keyValue(t, k), out);
    const float u = static_cast<float>(std::min((time - t0) / (static_cast<double>(t.times[k + 1]) - t0), 1.0));
    float tmp[4] = {0, 0, 0, 0};
    const std::size_t w = t.width;
    switch (t.interpolation) {
        case Interpolation::Step: return store(t, keyValue(t, k), out);
        case Interpolation::Linear: {
            const float* a = keyValue(t, k);
            const float* b = keyValue(t, k + 1);
            if (t.path == TrackPath::Rotation) {
                out.rotation = slerp({a[0], a[1], a[2], a[3]}, {b[0], b[1], b[2], b[3]}, u);
                return;
            }
            for (std::size_t i = 0; i < w; ++i) tmp[i] = a[i] + (b[i] - a[i]) * u;
            return store(t, tmp, out);
        }
        case Interpolation::CubicSpline: {
            const float td = t.times[k + 1] - t.times[k];
            const float u2 = u * u, u3 = u2 * u;
            const float h00 = 2.0f * u3 - 3.0f * u2 + 1.0f, h10 = (u3 - 2.0f * u2 + u) * td;
            const float h01 = -2.0f * u3 + 3.0f * u2, h11 = (u3 - u2) * td;
            const float* v0 = &t.values[(k * 3 + 1) * w];
            const float* b0 = &t.values[(k * 3 + 2) * w];
            const float* a1 = &t.values[(k * 3 + 3) * w];
            const float* v1 = &t.values[(k * 3 + 4) * w];
            for (std::size_t i = 0; i < w; ++i) tmp[i] = h00 * v0[i] + h10 * b0[i] + h01 * v1[i] + h11 * a1[i];
            if (t.path == TrackPath::Rotation) {
                const auto q = tryNormalize({tmp[0], tmp[1], tmp[2], tmp[3]});
                out.rotation = q ? *q : Quat{v0[0], v0[1], v0[2], v0[3]};
                return;
            }
            return store(t, tmp, out);
        }
    }
}

// ------------------------------------------------------------ the retargeting

class Retargeter {
public:
    Retargeter(const Clip& clip, const Skeleton& source, const Skeleton& target, const Correspondence& c,
               References refs, float ratio, const RetargetOptions& options)
        : clip_(clip),
          source_(source),
          target_(target),
          c_(c),
          ratio_(ratio),
          options_(options),
          restS_(restModel(source)),
          restT_(restModel(target)) {
        const std::size_t none = kUnused;
        trackOf_.assign(source.jointCount(), {none, none, none});
        for (std::size_t i = 0; i < clip.tracks().size(); ++i) {
            const Track& t = clip.tracks()[i];
            if (t.path != TrackPath::Weights) trackOf_[t.target][static_cast<std::size_t>(t.path)] = i;
        }
        // The translation of joint j is transferred (drivenTranslation_) where its
        // source has a translation track and the options pick the joint: with Root,
        // the reference, and each joint no transferred moving translation lies above
        // (the root motion; the hips too where the joints above them do not move).
        drivenAncestor_.assign(target.jointCount(), kNone);
        drivenTranslation_.assign(target.jointCount(), false);
        std::vector<bool> movedAbove(target.jointCount(), false);  // a transferred, moving translation above j
        for (std::size_t j = 0; j < target.jointCount(); ++j) {
            const std::int32_t p = target.parents()[j];
            if (p != kNoParent) {
                drivenAncestor_[j] = c.sourceOf[index(p)] != kNone ? p : drivenAncestor_[index(p)];
                movedAbove[j] = movedAbove[index(p)] ||
                    (drivenTranslation_[index(p)] && translationTravel(index(c.sourceOf[index(p)])) > 0.0f);
            }
            const std::int32_t s = c.sourceOf[j];
            if (s == kNone || trackOf_[index(s)][0] == none) continue;
            drivenTranslation_[j] = options.translations == TranslationTransfer::All ||
                static_cast<std::int32_t>(j) == refs.target || !movedAbove[j];
        }
    }

    Result<Clip> run() {
        std::vector<Track> tracks;
        std::vector<Fault> warnings;
        const auto sourceTracks = clip_.tracks();
        for (std::size_t i = 0; i < sourceTracks.size(); ++i) {
            const Track& t = sourceTracks[i];
            const std::int32_t driven = c_.targetOf[t.target];
            if (driven == kNone) {
                warnings.push_back({"tracks/" + std::to_string(i),
                                    "joint " + quoted(source_.name(t.target)) + " drives no target joint; its " +
                                        std::string(toString(t.path)) + " track is left out"});
            } else if (t.path == TrackPath::Weights && index(driven) != t.target) {
                warnings.push_back({"tracks/" + std::to_string(i),
                                    "morph weights of joint " + quoted(source_.name(t.target)) +
                                        " move to another joint index; the track is left out"});
            }
        }
        std::vector<Fault> faults;
        for (std::size_t j = 0; j < target_.jointCount(); ++j) {
            const std::int32_t s = c_.sourceOf[j];
            if (s == kNone) continue;
            const auto& own = trackOf_[index(s)];
            // A parent flattening an axis has no frame to express the offset in (a
            // target parent), or shows the offset in model space with that axis lost (a
            // source parent).
            const auto flattened = [&](std::string_view whose, std::string_view parent) {
                faults.push_back({"tracks/" + std::to_string(own[0]),
                                  "the translation of joint " + quoted(source_.name(index(s))) +
                                      " cannot be carried to " + quoted(target_.name(j)) + ": its " +
                                      std::string(whose) + quoted(parent) + " rests with a scale of 0 on an axis"});
            };
            const std::int32_t p = target_.parents()[j];
            const std::int32_t sp = sourceParent(s);
            if (drivenTranslation_[j] && p != kNoParent && linearDeterminant(restT_.matrix[index(p)]) == 0.0) {
                flattened("parent ", target_.name(index(p)));
                continue;
            }
            if (drivenTranslation_[j] && sp != kNone && linearDeterminant(restS_.matrix[index(sp)]) == 0.0) {
                flattened("source parent ", source_.name(index(sp)));
                continue;
            }
            if (drivenTranslation_[j]) {
                tracks.push_back(translation(j));
                // Finite keys scaled by the ratio and carried into the target's frame can
                // overflow: said of the source track, not of the clip being made.
                const auto& values = tracks.back().values;
                if (!std::all_of(values.begin(), values.end(), [](float v) { return std::isfinite(v); })) {
                    faults.push_back({"tracks/" + std::to_string(own[0]),
                                      "the translation of joint " + quoted(source_.name(index(s))) + ", scaled by " +
                                          exactNumber(ratio_) + " and carried to " + quoted(target_.name(j)) +
                                          ", is past the largest float"});
                }
            } else if (const float travel = translationTravel(index(s)); travel > 0.0f) {
                warnings.push_back({"tracks/" + std::to_string(own[0]),
                                    "the translation of joint " + quoted(source_.name(index(s))) + " moves (up to " +
                                        exactNumber(travel) +
                                        " from its first key) and is not carried: " + quoted(target_.name(j)) +
                                        " keeps its rest translation (TranslationTransfer::All carries it)"});
            }
            if (auto r = rotation(j)) tracks.push_back(std::move(*r));
            if (own[2] != kUnused) {
                tracks.push_back(clip_.tracks()[own[2]]);
                tracks.back().target = static_cast<std::uint32_t>(j);
            }
        }
        for (const Track& t : sourceTracks) {
            if (t.path == TrackPath::Weights && c_.targetOf[t.target] == static_cast<std::int32_t>(t.target)) {
                tracks.push_back(t);
            }
        }
        if (!faults.empty()) return faults;
        const auto names = target_.names();
        Result<Clip> out =
            Clip::create(std::string(clip_.name()), std::move(tracks), {clip_.markers().begin(), clip_.markers().end()},
                         std::make_shared<const std::vector<std::string>>(names.begin(), names.end()));
        // Curves and the length belong to the timeline, not the skeleton: carried as they are.
        if (out && !clip_.curves().empty()) out = out->withCurves({clip_.curves().begin(), clip_.curves().end()});
        if (out && clip_.length() > 0.0f) out = out->withLength(clip_.length());
        out.addWarnings(warnings);
        return out;
    }

private:
    std::int32_t sourceParent(std::int32_t s) const { return s == kNone ? kNone : source_.parents()[index(s)]; }

    // How far source joint s's translation track moves from its first key's value:
    // 0 without a track, for one that holds still, and for one whose keys differ by
    // no more than the rounding of an exporter's arithmetic (1e-5 of the largest
    // translation among them: 2e-7 m on a 2 cm offset is no motion).
    float translationTravel(std::size_t s) const {
        const std::size_t i = trackOf_[s][0];
        if (i == kUnused) return 0.0f;
        const Track& t = clip_.tracks()[i];
        const bool cubic = t.interpolation == Interpolation::CubicSpline;
        const std::size_t stride = cubic ? 9 : 3, at = cubic ? 3 : 0;
        const Vec3 first{t.values[at], t.values[at + 1], t.values[at + 2]};
        float most = 0.0f, largest = 0.0f;
        for (std::size_t k = 0; k < t.keyCount(); ++k) {
            const Vec3 v{t.values[k * stride + at], t.values[k * stride + at + 1], t.values[k * stride + at + 2]};
            most = std::max(most, length(v - first));
            largest = std::max(largest, length(v));
        }
        return most > 1e-5f * largest ? most : 0.0f;
    }

    // The source joints below the lowest common ancestor of a and b down to a and to
    // b (kNone stands for the root above every joint): the joints whose animation
    // does not cancel out of inverse(model(a)) * model(b).
    std::vector<std::int32_t> between(std::int32_t a, std::int32_t b) const {
        std::vector<std::int32_t> up;
        for (std::int32_t x = a; x != kNone; x = sourceParent(x)) up.push_back(x);
        std::vector<std::int32_t> out;
        std::int32_t x = b;
        for (; x != kNone && std::find(up.begin(), up.end(), x) == up.end(); x = sourceParent(x)) out.push_back(x);
        for (const std::int32_t y : up) {
            if (y == x) break;
            out.push_back(y);
        }
        return out;
    }

    bool animates(std::int32_t s, TrackPath path) const {
        return trackOf_[index(s)][static_cast<std::size_t>(path)] != kUnused;
    }
    const Track* track(std::int32_t s, TrackPath path) const {
        const std::size_t i = trackOf_[index(s)][static_cast<std::size_t>(path)];
        return i == kUnused ? nullptr : &clip_.tracks()[i];
    }
    std::int32_t drivenSourceAbove(std::size_t j) const {
        return drivenAncestor_[j] == kNone ? kNone : c_.sourceOf[index(drivenAncestor_[j])];
    }

    std::optional<Track> rotation(std::size_t j) {
        const std::int32_t s = c_.sourceOf[j];
        const std::int32_t sp = sourceParent(s);
        const Track* own = track(s, TrackPath::Rotation);
        std::vector<const Track*> involved;
        for (const std::int32_t x : between(drivenSourceAbove(j), sp)) {
            if (const Track* t = track(x, TrackPath::Rotation)) involved.push_back(t);
        }
        if (involved.empty()) {
            if (!own) return std::nullopt;  // rest against rest: the target keeps its rest rotation
            // local(t) = A * own(t) * B with constant A, B: a linear map of R^4 that keeps
            // lengths and angles, so slerp, the Hermite spline and normalisation commute with it.
            const std::int32_t p = target_.parents()[j];
            const Quat parentT = p == kNoParent ? Quat{} : restT_.rotation[index(p)];
            const Quat parentS = sp == kNone ? Quat{} : restS_.rotation[index(sp)];
            const Quat a = conjugate(parentT) * parentS;
            const Quat b = conjugate(restS_.rotation[index(s)]) * restT_.rotation[j];
            Track t = *own;
            t.target = static_cast<std::uint32_t>(j);
            for (std::size_t k = 0; k + 3 < t.values.size(); k += 4) {
                const Quat q = a * Quat{t.values[k], t.values[k + 1], t.values[k + 2], t.values[k + 3]} * b;
                t.values[k] = q.x;
                t.values[k + 1] = q.y;
                t.values[k + 2] = q.z;
                t.values[k + 3] = q.w;
            }
            return t;
        }
        if (own) involved.push_back(own);
        Track t = resampled(j, TrackPath::Rotation, involved);
        return t;
    }

    Track translation(std::size_t j) {
        const std::int32_t s = c_.sourceOf[j];
        const std::int32_t sp = sourceParent(s);
        const Track* own = track(s, TrackPath::Translation);
        std::vector<const Track*> involved;
        for (const std::int32_t x : between(drivenSourceAbove(j), sp)) {
            if (const Track* t = track(x, TrackPath::Rotation)) involved.push_back(t);
            if (const Track* t = track(x, TrackPath::Scale)) involved.push_back(t);
        }
        // Animated scale above either end changes the frames' lengths apart.
        for (const std::int32_t top : {drivenSourceAbove(j), sp}) {
            for (std::int32_t x = top; x != kNone; x = sourceParent(x)) {
                const Track* t = track(x, TrackPath::Scale);
                if (t && std::find(involved.begin(), involved.end(), t) == involved.end()) involved.push_back(t);
            }
        }
        if (involved.empty()) {
            // The model-space offset of the source joint from its parent, scaled, in the
            // target parent's frame: a constant linear map, so keys and tangents map exactly.
            const std::int32_t p = target_.parents()[j];
            const Mat4 toModel = sp == kNone ? Mat4{} : restS_.matrix[index(sp)];
            const Mat4 fromModel = p == kNoParent ? Mat4{} : inverseAffine(restT_.matrix[index(p)]);
            const Mat4 f = mulAffine(fromModel, toModel);
            Track t = *own;
            t.target = static_cast<std::uint32_t>(j);
            for (std::size_t k = 0; k + 2 < t.values.size(); k += 3) {
                const Vec3 v = transformDirection(f, {t.values[k], t.values[k + 1], t.values[k + 2]}) * ratio_;
                t.values[k] = v.x;
                t.values[k + 1] = v.y;
                t.values[k + 2] = v.z;
            }
            return t;
        }
        involved.push_back(own);
        return resampled(j, TrackPath::Translation, involved);
    }

    // The track of target joint j's `path` sampled from evaluate() at the key times of
    // `involved` (and in between per sampleRate).
    Track resampled(std::size_t j, TrackPath path, const std::vector<const Track*>& involved) {
        bool allStep = true;
        std::vector<float> times;
        for (const Track* t : involved) {
            allStep = allStep && t->interpolation == Interpolation::Step;
            times.insert(times.end(), t->times.begin(), t->times.end());
        }
        if (!allStep) {
            // A STEP key jumps: a sample just before it keeps the LINEAR result from
            // smearing the jump over the interval before.
            for (const Track* t : involved) {
                if (t->interpolation != Interpolation::Step) continue;
                for (std::size_t k = 1; k < t->times.size(); ++k) {
                    times.push_back(std::nextafter(t->times[k], -std::numeric_limits<float>::infinity()));
                }
            }
        }
        std::sort(times.begin(), times.end());
        times.erase(std::unique(times.begin(), times.end()), times.end());
        if (!allStep && options_.sampleRate > 0.0f && times.size() > 1) {
            std::vector<float> dense;
            const double step = 1.0 / static_cast<double>(options_.sampleRate);
            for (std::size_t k = 0; k + 1 < times.size(); ++k) {
                const double a = times[k], b = times[k + 1];
                dense.push_back(times[k]);
                const double n = std::ceil((b - a) / step);
                for (double i = 1; i < n; ++i) {
                    const float x = static_cast<float>(a + (b - a) * i / n);
                    if (x > dense.back() && x < times[k + 1]) dense.push_back(x);
                }
            }
            dense.push_back(times.back());
            times = std::move(dense);
        }
        Track t;
        t.target = static_cast<std::uint32_t>(j);
        t.path = path;
        t.interpolation = allStep ? Interpolation::Step : Interpolation::Linear;
        t.width = path == TrackPath::Rotation ? 4 : 3;
        t.times = times;
        t.values.reserve(times.size() * t.width);
        Quat previous{};
        for (const float time : times) {
            const Transform& local = evaluate(time)[j];
            if (path == TrackPath::Rotation) {
                // Keep neighbouring keys in one hemisphere, as an authored track would be.
                const Quat q = dot(local.rotation, previous) < 0.0f ? -local.rotation : local.rotation;
                t.values.insert(t.values.end(), {q.x, q.y, q.z, q.w});
                previous = q;
            } else {
                t.values.insert(t.values.end(), {local.translation.x, local.translation.y, local.translation.z});
            }
        }
        return t;
    }

    // The retargeted target local pose at `time`, from the source sampled there: the
    // definition every carried track is an exact rewriting of.
    const std::vector<Transform>& evaluate(float time) {
        auto found = evaluated_.find(time);
        if (found != evaluated_.end()) return found->second;
        const std::size_t ns = source_.jointCount(), nt = target_.jointCount();
        std::vector<Transform> src(source_.restPose().begin(), source_.restPose().end());
        for (const Track& t : clip_.tracks()) {
            if (t.path != TrackPath::Weights) sampleTrack(t, time, src[t.target]);
        }
        std::vector<Quat> srcRot(ns);
        std::vector<Mat4> srcModel(ns);
        for (std::size_t i = 0; i < ns; ++i) {
            const std::int32_t p = source_.parents()[i];
            srcRot[i] = p == kNoParent ? src[i].rotation : srcRot[index(p)] * src[i].rotation;
            srcModel[i] = p == kNoParent ? toMatrix(src[i]) : mulAffine(srcModel[index(p)], toMatrix(src[i]));
        }
        std::vector<Transform> out(target_.restPose().begin(), target_.restPose().end());
        std::vector<Quat> tgtRot(nt);
        std::vector<Mat4> tgtModel(nt);
        for (std::size_t j = 0; j < nt; ++j) {
            const std::int32_t p = target_.parents()[j];
            const Quat parentRot = p == kNoParent ? Quat{} : tgtRot[index(p)];
            const std::int32_t s = c_.sourceOf[j];
            Transform& local = out[j];
            if (s != kNone) {
                const std::size_t si = index(s);
                const Quat model = srcRot[si] * conjugate(restS_.rotation[si]) * restT_.rotation[j];
                local.rotation = normalize(conjugate(parentRot) * model);
                if (drivenTranslation_[j]) {
                    const std::int32_t sp = source_.parents()[si];
                    const Vec3 offset = sp == kNoParent ? src[si].translation
                                                        : transformDirection(srcModel[index(sp)], src[si].translation);
                    local.translation =
                        (p == kNoParent ? offset : transformDirection(inverseAffine(tgtModel[index(p)]), offset)) *
                        ratio_;
                }
                if (animates(s, TrackPath::Scale)) local.scale = src[si].scale;
            }
            tgtRot[j] = parentRot * local.rotation;
            tgtModel[j] = p == kNoParent ? toMatrix(local) : mulAffine(tgtModel[index(p)], toMatrix(local));
        }
        return evaluated_.emplace(time, std::move(out)).first->second;
    }

    const Clip& clip_;
    const Skeleton& source_;
    const Skeleton& target_;
    const Correspondence& c_;
    float ratio_;
    const RetargetOptions& options_;
    RestModel restS_, restT_;
    std::vector<std::array<std::size_t, 3>> trackOf_;  // per source joint: translation, rotation, scale track
    std::vector<std::int32_t> drivenAncestor_;         // per target joint: nearest driven ancestor, or kNone
    std::vector<bool> drivenTranslation_;
    std::map<float, std::vector<Transform>> evaluated_;
};

}  // namespace

Result<RetargetReport> checkRetarget(const Clip& clip, const Skeleton& source, const Skeleton& target,
                                     const RetargetMap& map) {
    std::vector<Fault> faults = clipFaults(clip, source);
    auto c = correspond(source, target, map);
    if (!c) faults.insert(faults.end(), c.faults().begin(), c.faults().end());
    if (!faults.empty()) return faults;
    // The reference joints are the map's too.
    if (auto refs = references(source, target, map, *c); !refs) {
        return std::vector<Fault>(refs.faults().begin(), refs.faults().end());
    }
    std::vector<bool> animated(source.jointCount(), false);
    for (const Track& t : clip.tracks()) animated[t.target] = true;
    RetargetReport report;
    for (std::size_t s = 0; s < source.jointCount(); ++s) {
        if (animated[s] && c->targetOf[s] == kNone) {
            report.unmappedSource.emplace_back(source.name(s));
            report.unmappedSourceJoints.push_back(static_cast<std::uint32_t>(s));
        }
    }
    for (std::size_t j = 0; j < target.jointCount(); ++j) {
        if (c->sourceOf[j] == kNone) {
            report.unmappedTarget.emplace_back(target.name(j));
            report.unmappedTargetJoints.push_back(static_cast<std::uint32_t>(j));
        }
    }
    return report;
}

Result<float> retargetTranslationScale(const Skeleton& source, const Skeleton& target, const RetargetOptions& options) {
    std::vector<Fault> faults = optionFaults(options);
    auto c = correspond(source, target, options.map);
    if (!c) faults.insert(faults.end(), c.faults().begin(), c.faults().end());
    if (!faults.empty()) return faults;
    auto refs = references(source, target, options.map, *c);
    if (!refs) return std::vector<Fault>(refs.faults().begin(), refs.faults().end());
    return translationScale(source, target, options, *refs);
}

Result<Clip> retargetClip(const Clip& clip, const Skeleton& source, const Skeleton& target,
                          const RetargetOptions& options) {
    std::vector<Fault> faults = optionFaults(options);
    // Resampling is linear in the keys it makes: a rate beyond any use would run for
    // hours (or, past float's resolution, forever) rather than fail.
    constexpr double kMostKeys = 100'000;
    const double keys = static_cast<double>(clip.duration()) * static_cast<double>(options.sampleRate);
    if (faults.empty() && keys > kMostKeys) {
        faults.push_back({"sampleRate",
                          "gives " + exactNumber(static_cast<float>(keys)) + " keys a track over the clip's " +
                              exactNumber(clip.duration()) + " s; at most 100000 (lower the rate)"});
    }
    const std::vector<Fault> fit = clipFaults(clip, source);
    faults.insert(faults.end(), fit.begin(), fit.end());
    auto c = correspond(source, target, options.map);
    if (!c) faults.insert(faults.end(), c.faults().begin(), c.faults().end());
    if (!faults.empty()) return faults;
    // A clip none of whose joints drives a target joint would come out still: the
    // skeletons do not correspond (as bindClip refuses a clip for another skeleton).
    const auto tracks = clip.tracks();
    if (!tracks.empty() &&
        std::none_of(tracks.begin(), tracks.end(), [&](const Track& t) { return c->targetOf[t.target] != kNone; })) {
        const auto names = target.names();
        const bool unnamed = std::ranges::any_of(names, [](const std::string& n) { return n.empty(); });
        return Fault{"map/joints",
                     !options.map.joints.empty()
                         ? "no joint the clip animates is paired with a target joint: nothing would move"
                         : std::string("no joint the clip animates has a namesake in the target skeleton: nothing "
                                       "would move (pair the joints in map.joints") +
                             (unnamed ? "; joints without names pair by index, and only between skeletons of one "
                                        "hierarchy)"
                                      : ")")};
    }
    auto refs = references(source, target, options.map, *c);
    if (!refs) return std::vector<Fault>(refs.faults().begin(), refs.faults().end());
    auto ratio = translationScale(source, target, options, *refs);
    if (!ratio) return std::vector<Fault>(ratio.faults().begin(), ratio.faults().end());
    return Retargeter(clip, source, target, *c, *refs, *ratio, options).run();
}

}  // namespace kinema
