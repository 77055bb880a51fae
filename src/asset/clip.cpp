#include "kinema/asset/clip.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>
#include <utility>

#include "kinema/asset/skeleton.hpp"
#include "kinema/core/counted.hpp"
#include "kinema/core/name_index.hpp"
#include "kinema/core/quoted.hpp"
#include "kinema/math/finite.hpp"
#include "kinema/math/quat.hpp"

namespace kinema {

std::string_view toString(TrackPath path) noexcept {
    switch (path) {
        case TrackPath::Translation: return "translation";
        case TrackPath::Rotation: return "rotation";
        case TrackPath::Scale: return "scale";
        case TrackPath::Weights: return "weights";
    }
    return "?";
}

std::string_view toString(Interpolation interpolation) noexcept {
    switch (interpolation) {
        case Interpolation::Step: return "STEP";
        case Interpolation::Linear: return "LINEAR";
        case Interpolation::CubicSpline: return "CUBICSPLINE";
    }
    return "?";
}

namespace {

std::uint32_t requiredWidth(const Track& t) {
    switch (t.path) {
        case TrackPath::Translation:
        case TrackPath::Scale: return 3;
        case TrackPath::Rotation: return 4;
        case TrackPath::Weights: return t.width;  // any positive count
    }
    return 0;
}

// Keys within this of unit length are kept bit for bit (so an exact key time
// returns exactly what the file stored); others are normalised.
constexpr float kUnitTolerance = 1e-6f;

// "tracks/<i>": built for every track, but small enough for the short-string buffer.
std::string faultPrefix(std::size_t index) {
    char buf[32];
    const int n = std::snprintf(buf, sizeof buf, "tracks/%zu", index);
    return std::string(buf, static_cast<std::size_t>(n));
}

void checkTrack(Track& t, std::size_t index, std::vector<Fault>& faults) {
    const std::size_t before = faults.size();
    // The location prefix is built only when a fault is recorded.
    struct Prefix {
        std::size_t index;
        std::string operator+(const char* suffix) const { return faultPrefix(index) + suffix; }
    } const at{index};
    if (t.width == 0 || t.width != requiredWidth(t)) {
        faults.push_back({at + "/width",
                          "width " + std::to_string(t.width) + " does not fit path " + std::string(toString(t.path))});
    }
    if (t.times.empty()) faults.push_back({at + "/times", "track has no keys"});
    // Strictly increasing from a finite, non-negative first key: then every key is
    // finite too unless the last one is +inf.
    bool ordered = !t.times.empty() && t.times.front() >= 0.0f && std::isfinite(t.times.back());
    for (std::size_t k = 1; k < t.times.size(); ++k) ordered &= t.times[k] > t.times[k - 1];
    for (std::size_t k = 0; !ordered && k < t.times.size(); ++k) {
        const float v = t.times[k];
        if (!std::isfinite(v)) {
            faults.push_back({at + "/times/" + std::to_string(k), "time is not finite"});
            break;
        }
        if (k == 0 && v < 0.0f) {
            faults.push_back({at + "/times/0", "first key time " + exactNumber(v) + " is negative"});
        }
        if (k > 0 && !(v > t.times[k - 1])) {
            faults.push_back({at + "/times/" + std::to_string(k),
                              "key times are not strictly increasing (" + exactNumber(t.times[k - 1]) + " then " +
                                  exactNumber(v) + ")"});
            break;
        }
    }
    const bool cubic = t.interpolation == Interpolation::CubicSpline;
    if (cubic && t.times.size() < 2) faults.push_back({at + "/times", "CUBICSPLINE needs at least 2 keys"});
    const std::size_t expected = t.times.size() * t.width * (cubic ? 3u : 1u);
    if (t.values.size() != expected) {
        faults.push_back(
            {at + "/values",
             "holds " + std::to_string(t.values.size()) + " floats, " + std::to_string(expected) + " expected"});
    }
    if (faults.size() != before) return;
    if (!allFinite(t.values)) {
        for (std::size_t i = 0; i < t.values.size(); ++i) {
            if (!std::isfinite(t.values[i])) {
                faults.push_back({at + "/values/" + std::to_string(i), "value is not finite"});
                return;
            }
        }
    }
    if (t.path == TrackPath::Rotation) {
        const std::size_t stride = cubic ? 12 : 4;
        const std::size_t first = cubic ? 4 : 0;  // the value, not the tangents
        for (std::size_t k = 0; k < t.times.size(); ++k) {
            float* v = &t.values[k * stride + first];
            const float len2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3];
            if (std::fabs(len2 - 1.0f) <= kUnitTolerance) continue;
            const auto q = tryNormalize(Quat{v[0], v[1], v[2], v[3]});
            if (!q) {
                faults.push_back({at + "/values/" + std::to_string(k * stride + first),
                                  "rotation key " + std::to_string(k) + " is a zero quaternion"});
                return;
            }
            v[0] = q->x;
            v[1] = q->y;
            v[2] = q->z;
            v[3] = q->w;
        }
    }
}

}  // namespace

Result<Clip> Clip::create(std::string name, std::vector<Track> tracks, std::vector<Marker> markers,
                          std::shared_ptr<const std::vector<std::string>> names) {
    if (names && names->empty()) names.reset();
    const std::span<const std::string> jointNames =
        names ? std::span<const std::string>(*names) : std::span<const std::string>{};
    std::vector<Fault> faults;
    // (target, path, track) sorted: two tracks on one (target, path) end up adjacent.
    std::vector<std::tuple<std::uint32_t, TrackPath, std::size_t>> keys;
    keys.reserve(tracks.size());
    float duration = 0.0f;
    for (std::size_t i = 0; i < tracks.size(); ++i) {
        Track& t = tracks[i];
        checkTrack(t, i, faults);
        keys.emplace_back(t.target, t.path, i);
        if (!t.times.empty() && std::isfinite(t.times.back())) duration = std::max(duration, t.times.back());
    }
    std::sort(keys.begin(), keys.end());
    for (std::size_t k = 1; k < keys.size(); ++k) {
        const auto& [target, path, index] = keys[k];
        if (std::get<0>(keys[k - 1]) == target && std::get<1>(keys[k - 1]) == path) {
            faults.push_back({faultPrefix(index),
                              "a second track on joint " + std::to_string(target) + " " + std::string(toString(path)) +
                                  " (track " + std::to_string(std::get<2>(keys[k - 1])) + " has it)"});
        }
    }
    for (std::size_t i = 0; i < markers.size(); ++i) {
        if (!std::isfinite(markers[i].time) || markers[i].time < 0.0f) {
            faults.push_back({"markers/" + std::to_string(i), "marker time must be finite and >= 0"});
        }
    }
    if (!jointNames.empty()) {
        for (std::size_t i = 0; i < tracks.size(); ++i) {
            const std::uint32_t target = tracks[i].target;
            if (target >= jointNames.size()) {
                faults.push_back({faultPrefix(i) + "/target",
                                  "joint " + std::to_string(target) + " is past the end of jointNames (" +
                                      std::to_string(jointNames.size()) + " names)"});
            }
        }
    }
    if (!faults.empty()) return faults;
    std::stable_sort(markers.begin(), markers.end(), [](const Marker& a, const Marker& b) { return a.time < b.time; });
    Clip c;
    c.name_ = std::move(name);
    c.tracks_ = std::move(tracks);
    c.markers_ = std::move(markers);
    c.skeleton_ = jointNames.empty() ? 0 : jointNamesFingerprint(jointNames);
    c.jointNames_ = std::move(names);
    c.keysDuration_ = duration;
    c.duration_ = duration;
    for (const Track& t : c.tracks_) {
        c.jointsNeeded_ = std::max<std::size_t>(c.jointsNeeded_, std::size_t{t.target} + 1);
        if (t.path == TrackPath::Weights) {
            c.weightsNeeded_ = std::max<std::size_t>(c.weightsNeeded_, std::size_t{t.weightOffset} + t.width);
        }
    }
    return c;
}

Result<Clip> Clip::withMarkers(std::vector<Marker> markers) const {
    // A marker past the end would never be crossed: a mistake, not a marker.
    std::vector<Fault> late;
    for (std::size_t i = 0; i < markers.size(); ++i) {
        if (std::isfinite(markers[i].time) && markers[i].time > duration_) {
            late.push_back({"markers/" + std::to_string(i),
                            "marker \"" + markers[i].name + "\" at " + exactNumber(markers[i].time) +
                                " s is past the clip's end (" + exactNumber(duration_) +
                                " s): it would never be crossed"});
        }
    }
    auto made = create(name_, tracks_, std::move(markers), jointNames_);
    if (!made) {
        std::vector<Fault> faults(made.faults().begin(), made.faults().end());
        faults.insert(faults.end(), late.begin(), late.end());
        return faults;
    }
    if (!late.empty()) return late;
    Clip& c = made.value();
    c.curves_ = curves_;
    c.keysDuration_ = keysDuration_;
    c.length_ = length_;
    c.duration_ = duration_;
    return made;
}

Result<Clip> Clip::withCurves(std::vector<CurveTrack> curves) const {
    std::vector<Fault> faults;
    NameIndex names;  // each name's first curve
    float last = 0.0f;
    for (std::size_t i = 0; i < curves.size(); ++i) {
        const CurveTrack& c = curves[i];
        const std::string at = "curves/" + std::to_string(i);
        const auto fault = [&](const std::string& what) { faults.push_back({at, what}); };
        // A key's fault points at the key: "curves/<i>/times/<k>" or ".../values/<k>".
        const auto keyFault = [&](const char* list, std::size_t k, const std::string& what) {
            std::string where = at;
            where.append("/").append(list).append("/").append(std::to_string(k));
            faults.push_back({std::move(where), what});
        };
        if (c.name.empty()) fault("a curve needs a name");
        if (const auto [first, added] = names.emplace(c.name, static_cast<std::uint32_t>(i)); !added && !c.name.empty())
            fault("a second curve named " + inQuotes(c.name, '"') + " (curve " + std::to_string(first->second) +
                  " has it)");
        if (c.interpolation != Interpolation::Step && c.interpolation != Interpolation::Linear)
            fault("a curve interpolates Step or Linear");
        if (c.times.empty()) fault("a curve needs at least one key");
        if (c.values.size() != c.times.size()) {
            faults.push_back(
                {at + "/values",
                 std::to_string(c.values.size()) + " values for " + std::to_string(c.times.size()) + " keys"});
        }
        for (std::size_t k = 0; k < c.times.size(); ++k) {
            const float t = c.times[k];
            const std::string key = "key " + std::to_string(k) + ": time " + exactNumber(t);
            if (!std::isfinite(t) || t < 0.0f) {
                keyFault("times", k, key + " is not a finite number >= 0");
                break;
            }
            if (k > 0 && !(t > c.times[k - 1])) {
                // Times a float cannot tell apart (1 and 1.00000001) are equal here.
                keyFault(
                    "times", k,
                    key + " is not after the earlier key's " + exactNumber(c.times[k - 1]) + " (as 32-bit floats)");
                break;
            }
        }
        for (std::size_t k = 0; k < c.values.size(); ++k) {
            if (!std::isfinite(c.values[k])) {
                keyFault("values", k, "key " + std::to_string(k) + ": value is not finite");
                break;
            }
        }
        if (!c.times.empty() && std::isfinite(c.times.back())) {
            last = std::max(last, c.times.back());
            // A length holds the clip open; it does not cut a curve short.
            if (length_ > 0.0f && c.times.back() > length_) {
                keyFault("times", c.times.size() - 1,
                         "key " + std::to_string(c.times.size() - 1) + ": time " + exactNumber(c.times.back()) +
                             " s is past the clip's length " + exactNumber(length_) + " s");
            }
        }
    }
    if (!faults.empty()) return faults;
    Clip c = *this;
    c.curves_ = std::move(curves);
    // The tracks' own last key is kept apart so that replacing the curves can shorten the clip again.
    float tracksEnd = 0.0f;
    for (const Track& t : c.tracks_) {
        if (!t.times.empty()) tracksEnd = std::max(tracksEnd, t.times.back());
    }
    c.keysDuration_ = std::max(tracksEnd, last);
    c.duration_ = std::max(c.keysDuration_, c.length_);
    // As withMarkers: a marker past the end would never be crossed. Curves that
    // lengthened the clip may be replaced by shorter ones; a marker create() took
    // past the keys (for a length to come) is the caller's to cover.
    if (!c.markers_.empty() && c.markers_.back().time > c.duration_ && !(c.markers_.back().time > duration_)) {
        return Fault{"curves",
                     "with these curves the clip ends at " + exactNumber(c.duration_) + " s, before its marker " +
                         inQuotes(c.markers_.back().name, '"') + " at " + exactNumber(c.markers_.back().time) + " s"};
    }
    Result<Clip> out = std::move(c);
    // A curve that outlasts the tracks (and any length) makes the clip longer: the
    // pose holds its last keys while the curve goes on, and a loop waits for it.
    const float end = std::max(tracksEnd, length_);
    const std::vector<CurveTrack>& given = out->curves_;
    for (std::size_t i = 0; i < given.size(); ++i) {
        if (given[i].times.back() <= end) continue;
        out.addWarning({"curves/" + std::to_string(i),
                        "curve " + inQuotes(given[i].name, '"') + " ends at " + exactNumber(given[i].times.back()) +
                            " s, past the tracks' last key (" + exactNumber(end) + " s): the clip now lasts " +
                            exactNumber(out->duration_) + " s"});
    }
    return out;
}

Result<Clip> Clip::withLength(float seconds) const {
    if (!std::isfinite(seconds) || seconds < keysDuration_) {
        return Fault{"length",
                     exactNumber(seconds) + " s: must be finite and at least the last key (" +
                         exactNumber(keysDuration_) + " s)"};
    }
    // As withMarkers: a marker past the end would never be crossed.
    if (!markers_.empty() && markers_.back().time > std::max(keysDuration_, seconds)) {
        return Fault{"length",
                     exactNumber(seconds) + " s ends the clip before its marker " +
                         inQuotes(markers_.back().name, '"') + " at " + exactNumber(markers_.back().time) + " s"};
    }
    Clip c = *this;
    c.length_ = seconds;
    c.duration_ = std::max(c.keysDuration_, seconds);
    return c;
}

float sampleCurve(const CurveTrack& curve, double time) noexcept {
    const auto& times = curve.times;
    if (times.empty()) return 0.0f;
    if (!(time > times.front())) return curve.values.front();
    if (time >= times.back()) return curve.values.back();
    const auto next = static_cast<std::size_t>(std::upper_bound(times.begin(), times.end(), time) - times.begin());
    const std::size_t k = next - 1;
    if (curve.interpolation == Interpolation::Step) return curve.values[k];
    const double u = (time - times[k]) / (static_cast<double>(times[next]) - times[k]);
    return static_cast<float>(curve.values[k] + u * (static_cast<double>(curve.values[next]) - curve.values[k]));
}

Result<Clip> bindClip(const Clip& clip, const Skeleton& skeleton) {
    const auto names = clip.jointNames();
    const std::string who = "clip " + inQuotes(clip.name(), '"');
    if (names.empty()) return Fault{"jointNames", who + " has no joint names to bind by (it binds by index)"};
    if (clip.skeletonFingerprint() == skeleton.fingerprint()) return clip;  // made for this skeleton already
    std::vector<Track> tracks;
    std::vector<Fault> warnings;
    tracks.reserve(clip.tracks().size());
    for (std::size_t i = 0; i < clip.tracks().size(); ++i) {
        const Track& t = clip.tracks()[i];
        const std::string& joint = names[t.target];
        if (joint.empty()) {
            warnings.push_back(
                {faultPrefix(i),
                 "joint " + std::to_string(t.target) + " has no name to find it by; the track is left out"});
            continue;
        }
        const auto found = skeleton.findJoint(joint);
        if (!found) {
            warnings.push_back(
                {faultPrefix(i), "joint \"" + joint + "\" is not in the skeleton; the track is left out"});
            continue;
        }
        if (t.path == TrackPath::Weights && *found != t.target) {
            warnings.push_back(
                {faultPrefix(i),
                 "morph weights of joint \"" + joint + "\" move to another joint index; the track is left out"});
            continue;
        }
        tracks.push_back(t);
        tracks.back().target = *found;
    }
    if (tracks.empty() && !clip.tracks().empty()) {
        return Fault{"jointNames", who + " animates none of the skeleton's joints: it was made for another skeleton"};
    }
    const auto skeletonNames = skeleton.names();
    Result<Clip> bound =
        Clip::create(std::string(clip.name()), std::move(tracks), {clip.markers().begin(), clip.markers().end()},
                     std::make_shared<const std::vector<std::string>>(skeletonNames.begin(), skeletonNames.end()));
    if (bound && !clip.curves().empty()) {
        bound = bound->withCurves({clip.curves().begin(), clip.curves().end()});
    }
    if (bound && clip.length() > 0.0f) bound = bound->withLength(clip.length());
    bound.addWarnings(warnings);
    return bound;
}

std::vector<Fault> findClipFaults(const Clip& clip, const Skeleton& skeleton, std::size_t weightCount) {
    std::vector<Fault> faults;
    const auto tracks = clip.tracks();
    for (std::size_t i = 0; i < tracks.size(); ++i) {
        const Track& t = tracks[i];
        const std::string at = "tracks/" + std::to_string(i);
        if (t.target >= skeleton.jointCount()) {
            faults.push_back({at + "/target",
                              "joint " + std::to_string(t.target) + " is outside the skeleton's " +
                                  counted(skeleton.jointCount(), "joint")});
        }
        if (t.path == TrackPath::Weights && std::size_t{t.weightOffset} + t.width > weightCount) {
            faults.push_back({at + "/weightOffset",
                              "weights " + std::to_string(t.weightOffset) + ".." +
                                  std::to_string(std::uint64_t{t.weightOffset} + t.width) + " pass the end of " +
                                  std::to_string(weightCount) + " morph weights"});
        }
    }
    return faults;
}

}  // namespace kinema
