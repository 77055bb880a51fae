#include "kinema/asset/clip.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "kinema/asset/skeleton.hpp"
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

void checkTrack(Track& t, const std::string& at, std::vector<Fault>& faults) {
    const std::size_t before = faults.size();
    if (t.width == 0 || t.width != requiredWidth(t)) {
        faults.push_back({at + "/width", "width " + std::to_string(t.width) + " does not fit path " +
                                             std::string(toString(t.path))});
    }
    if (t.times.empty()) faults.push_back({at + "/times", "track has no keys"});
    for (std::size_t k = 0; k < t.times.size(); ++k) {
        const float v = t.times[k];
        if (!std::isfinite(v)) {
            faults.push_back({at + "/times/" + std::to_string(k), "time is not finite"});
            break;
        }
        if (k == 0 && v < 0.0f) {
            faults.push_back({at + "/times/0", "first key time " + std::to_string(v) + " is negative"});
        }
        if (k > 0 && !(v > t.times[k - 1])) {
            faults.push_back({at + "/times/" + std::to_string(k), "key times are not strictly increasing (" +
                                                                      std::to_string(t.times[k - 1]) + " then " +
                                                                      std::to_string(v) + ")"});
            break;
        }
    }
    const bool cubic = t.interpolation == Interpolation::CubicSpline;
    if (cubic && t.times.size() < 2) faults.push_back({at + "/times", "CUBICSPLINE needs at least 2 keys"});
    const std::size_t expected = t.times.size() * t.width * (cubic ? 3u : 1u);
    if (t.values.size() != expected) {
        faults.push_back({at + "/values", "holds " + std::to_string(t.values.size()) + " floats, " +
                                              std::to_string(expected) + " expected"});
    }
    if (faults.size() != before) return;
    for (std::size_t i = 0; i < t.values.size(); ++i) {
        if (!std::isfinite(t.values[i])) {
            faults.push_back({at + "/values/" + std::to_string(i), "value is not finite"});
            return;
        }
    }
    if (t.path == TrackPath::Rotation) {
        const std::size_t stride = cubic ? 12 : 4;
        const std::size_t first = cubic ? 4 : 0;  // the value, not the tangents
        for (std::size_t k = 0; k < t.times.size(); ++k) {
            float* v = &t.values[k * stride + first];
            const auto q = tryNormalize(Quat{v[0], v[1], v[2], v[3]});
            if (!q) {
                faults.push_back({at + "/values/" + std::to_string(k), "rotation key is a zero quaternion"});
                return;
            }
            v[0] = q->x; v[1] = q->y; v[2] = q->z; v[3] = q->w;
        }
    }
}

}  // namespace

Result<Clip> Clip::create(std::string name, std::vector<Track> tracks, std::vector<Marker> markers) {
    std::vector<Fault> faults;
    std::set<std::pair<std::uint32_t, TrackPath>> seen;
    float duration = 0.0f;
    for (std::size_t i = 0; i < tracks.size(); ++i) {
        Track& t = tracks[i];
        const std::string at = "tracks/" + std::to_string(i);
        checkTrack(t, at, faults);
        if (!seen.insert({t.target, t.path}).second) {
            faults.push_back({at, "a second track on joint " + std::to_string(t.target) + " " +
                                      std::string(toString(t.path))});
        }
        if (!t.times.empty() && std::isfinite(t.times.back())) duration = std::max(duration, t.times.back());
    }
    for (std::size_t i = 0; i < markers.size(); ++i) {
        if (!std::isfinite(markers[i].time) || markers[i].time < 0.0f) {
            faults.push_back({"markers/" + std::to_string(i), "marker time must be finite and >= 0"});
        }
    }
    if (!faults.empty()) return faults;
    std::stable_sort(markers.begin(), markers.end(), [](const Marker& a, const Marker& b) { return a.time < b.time; });
    Clip c;
    c.name_ = std::move(name);
    c.tracks_ = std::move(tracks);
    c.markers_ = std::move(markers);
    c.duration_ = duration;
    for (const Track& t : c.tracks_) {
        c.jointsNeeded_ = std::max<std::size_t>(c.jointsNeeded_, std::size_t{t.target} + 1);
        if (t.path == TrackPath::Weights) {
            c.weightsNeeded_ = std::max<std::size_t>(c.weightsNeeded_, std::size_t{t.weightOffset} + t.width);
        }
    }
    return c;
}

std::vector<Fault> findClipFaults(const Clip& clip, const Skeleton& skeleton, std::size_t weightCount) {
    std::vector<Fault> faults;
    const auto tracks = clip.tracks();
    for (std::size_t i = 0; i < tracks.size(); ++i) {
        const Track& t = tracks[i];
        const std::string at = "tracks/" + std::to_string(i);
        if (t.target >= skeleton.jointCount()) {
            faults.push_back({at + "/target", "joint " + std::to_string(t.target) + " is outside the skeleton's " +
                                                  std::to_string(skeleton.jointCount()) + " joints"});
        }
        if (t.path == TrackPath::Weights && std::size_t{t.weightOffset} + t.width > weightCount) {
            faults.push_back({at + "/weightOffset", "weights " + std::to_string(t.weightOffset) + ".." +
                                                        std::to_string(t.weightOffset + t.width) +
                                                        " pass the end of " + std::to_string(weightCount) +
                                                        " morph weights"});
        }
    }
    return faults;
}

}  // namespace kinema
