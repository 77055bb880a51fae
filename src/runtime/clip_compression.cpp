#include "kinema/runtime/clip_compression.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "kinema/math/transform.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/sample.hpp"

namespace kinema {
namespace {

constexpr int kMinBits = 3;
constexpr int kMaxBits = 20;
constexpr int kBudgetHalvings = 8;
constexpr std::size_t kTrackHeaderBytes = 4;
constexpr std::size_t kClipHeaderBytes = 12;

// The components a form stores: three of a rotation's four (the `dropped` one, made
// >= 0 by the quaternion's sign, is rebuilt from unit length), else all three.
constexpr std::size_t kStored = 3;

std::array<float, kStored> stored(const Transform& t, TrackPath path, std::uint8_t dropped) {
    switch (path) {
        case TrackPath::Translation: return {t.translation.x, t.translation.y, t.translation.z};
        case TrackPath::Scale: return {t.scale.x, t.scale.y, t.scale.z};
        case TrackPath::Rotation: {
            const float c[4] = {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w};
            const float sign = c[dropped] < 0.0f ? -1.0f : 1.0f;
            std::array<float, kStored> out{};
            for (std::size_t i = 0, k = 0; i < 4; ++i) {
                if (i != dropped) out[k++] = sign * c[i];
            }
            return out;
        }
        case TrackPath::Weights: break;
    }
    return {};
}

// Track values for a key: the stored components as the track's own layout wants them.
void appendValue(std::vector<float>& values, TrackPath path, std::uint8_t dropped,
                 const std::array<float, kStored>& v) {
    if (path != TrackPath::Rotation) {
        values.insert(values.end(), v.begin(), v.end());
        return;
    }
    const float rebuilt = std::sqrt(std::max(0.0f, 1.0f - v[0] * v[0] - v[1] * v[1] - v[2] * v[2]));
    for (std::size_t i = 0, k = 0; i < 4; ++i) values.push_back(i == dropped ? rebuilt : v[k++]);
}

// The rotation component to rebuild: the one farthest from 0 over the whole track,
// where rebuilding from unit length loses the least (near 0 a small error in the
// other three is a large one in it).
std::uint8_t componentToDrop(std::span<const Transform> values) {
    float best = -1.0f;
    std::uint8_t drop = 3;
    for (std::uint8_t i = 0; i < 4; ++i) {
        float least = 2.0f;
        for (const Transform& t : values) {
            const Quat q = normalize(t.rotation);
            const float c[4] = {q.x, q.y, q.z, q.w};
            least = std::min(least, std::abs(c[i]));
        }
        if (least > best) {
            best = least;
            drop = i;
        }
    }
    return drop;
}

// How far a change of one joint's property moves the virtual vertices it carries:
// the farthest one among the joint's and its descendants' (rest pose, model space).
std::vector<float> reachOfJoints(const Skeleton& skeleton, float vertexDistance) {
    const std::size_t n = skeleton.jointCount();
    std::vector<Mat4> model(n);
    (void)reference::localToModel(skeleton.parents(), skeleton.restPose(), model);
    std::vector<float> reach(n, vertexDistance);
    for (std::size_t k = 0; k < n; ++k) {
        const Vec3 pk{model[k].m[12], model[k].m[13], model[k].m[14]};
        for (std::int64_t j = static_cast<std::int64_t>(k); j >= 0;
             j = skeleton.parents()[static_cast<std::size_t>(j)]) {
            const auto ju = static_cast<std::size_t>(j);
            const Vec3 pj{model[ju].m[12], model[ju].m[13], model[ju].m[14]};
            reach[ju] = std::max(reach[ju], length(pk - pj) + vertexDistance);
        }
    }
    return reach;
}

// A local estimate of the virtual vertex error between two values of one property.
float localError(const Transform& a, const Transform& b, TrackPath path, float reach) {
    switch (path) {
        case TrackPath::Translation: return length(a.translation - b.translation);
        case TrackPath::Scale: {
            const Vec3 d = a.scale - b.scale;
            return std::max({std::abs(d.x), std::abs(d.y), std::abs(d.z)}) * reach;
        }
        case TrackPath::Rotation: {
            // The angle from the chord between the unit quaternions (on one side):
            // |qa - qb| = 2 sin(angle / 4), well conditioned where acos(dot) is not.
            const Quat qa = normalize(a.rotation);
            Quat qb = normalize(b.rotation);
            if (dot(qa, qb) < 0.0f) qb = -qb;
            const float chord = std::sqrt(dot(Quat{qa.x - qb.x, qa.y - qb.y, qa.z - qb.z, qa.w - qb.w},
                                              Quat{qa.x - qb.x, qa.y - qb.y, qa.z - qb.z, qa.w - qb.w}));
            return 4.0f * std::asin(std::min(1.0f, 0.5f * chord)) * reach;
        }
        case TrackPath::Weights: break;
    }
    return 0.0f;
}

class BitWriter {
public:
    void write(std::uint32_t value, int bits) {
        for (int b = 0; b < bits; ++b, ++count_) {
            if (count_ % 8 == 0) bytes_.push_back(0);
            if ((value >> b) & 1u) bytes_.back() = static_cast<std::uint8_t>(bytes_.back() | (1u << (count_ % 8)));
        }
    }
    std::vector<std::uint8_t> take() { return std::move(bytes_); }

private:
    std::vector<std::uint8_t> bytes_;
    std::size_t count_ = 0;
};

std::uint32_t readBits(std::span<const std::uint8_t> bytes, std::size_t at, int bits) {
    std::uint32_t v = 0;
    for (int b = 0; b < bits; ++b, ++at) v |= static_cast<std::uint32_t>((bytes[at / 8] >> (at % 8)) & 1u) << b;
    return v;
}

struct Grid {
    std::uint32_t samples = 0;
    std::vector<float> times;      // the Quantized form's key times
    std::vector<double> instants;  // where errors are measured: each grid time and each midpoint
};

Grid makeGrid(float duration, float rate) {
    Grid g;
    const auto intervals = static_cast<std::uint32_t>(std::ceil(double(duration) * rate - 1e-9));
    g.samples = intervals + 1;
    for (std::uint32_t k = 0; k <= intervals; ++k) {
        g.times.push_back(std::min(duration, static_cast<float>(double(k) / rate)));
    }
    // A duration just past a grid time can round onto it: keep times increasing.
    while (g.times.size() > 1 && !(g.times.back() > g.times[g.times.size() - 2])) {
        g.times.erase(g.times.end() - 2);
        --g.samples;
    }
    for (std::size_t k = 0; k < g.times.size(); ++k) {
        g.instants.push_back(g.times[k]);
        if (k + 1 < g.times.size()) g.instants.push_back(0.5 * (double(g.times[k]) + double(g.times[k + 1])));
    }
    return g;
}

Transform sampleAt(const Track& track, const Transform& rest, double t) {
    Transform out = rest;
    float none = 0.0f;
    (void)reference::sampleTrack(track, t, out, std::span<float>(&none, 0));
    return out;
}

float worstLocalError(const Track& candidate, std::span<const Transform> reference, const Transform& rest,
                      const Grid& grid, float reach) {
    float worst = 0.0f;
    for (std::size_t i = 0; i < grid.instants.size(); ++i) {
        worst = std::max(worst,
                         localError(sampleAt(candidate, rest, grid.instants[i]), reference[i], candidate.path, reach));
    }
    return worst;
}

// The Quantized form's track: dequantized samples on the grid (or its own keys),
// played linearly.
Track quantizedTrack(const CompressedTrack& c, const Grid& grid) {
    Track t;
    t.target = c.target;
    t.path = c.path;
    t.interpolation = Interpolation::Linear;
    t.width = c.path == TrackPath::Rotation ? 4u : 3u;
    t.times = c.times.empty() ? grid.times : c.times;
    const float top = static_cast<float>((1u << c.bits) - 1u);
    std::size_t at = 0;
    for (std::size_t k = 0; k < t.times.size(); ++k) {
        std::array<float, kStored> v{};
        for (std::size_t i = 0; i < kStored; ++i, at += c.bits) {
            v[i] = c.minimum[i] + c.extent[i] * (static_cast<float>(readBits(c.packed, at, c.bits)) / top);
        }
        appendValue(t.values, c.path, c.dropped, v);
    }
    return t;
}

Track constantTrack(const CompressedTrack& c) {
    Track t;
    t.target = c.target;
    t.path = c.path;
    t.interpolation = Interpolation::Step;
    t.width = c.path == TrackPath::Rotation ? 4u : 3u;
    t.times = {0.0f};
    appendValue(t.values, c.path, c.dropped, {c.constant[0], c.constant[1], c.constant[2]});
    return t;
}

CompressedTrack quantize(const Track& source, std::span<const std::array<float, kStored>> samples, int bits) {
    CompressedTrack c;
    c.target = source.target;
    c.path = source.path;
    c.form = TrackForm::Quantized;
    c.bits = static_cast<std::uint8_t>(bits);
    c.minimum.assign(kStored, 0.0f);
    c.extent.assign(kStored, 0.0f);
    for (std::size_t i = 0; i < kStored; ++i) {
        float lo = samples[0][i], hi = samples[0][i];
        for (const auto& s : samples) {
            lo = std::min(lo, s[i]);
            hi = std::max(hi, s[i]);
        }
        c.minimum[i] = lo;
        c.extent[i] = hi - lo;
    }
    const std::uint32_t top = (1u << bits) - 1u;
    BitWriter w;
    for (const auto& s : samples) {
        for (std::size_t i = 0; i < kStored; ++i) {
            const float unit = c.extent[i] > 0.0f ? (s[i] - c.minimum[i]) / c.extent[i] : 0.0f;
            w.write(static_cast<std::uint32_t>(std::lround(std::clamp(unit, 0.0f, 1.0f) * float(top))), bits);
        }
    }
    c.packed = w.take();
    return c;
}

// The smallest form of `track` whose local error stays within `budget`.
CompressedTrack chooseForm(const Track& track, const Transform& rest, const Grid& grid, float reach, float budget) {
    CompressedTrack exact;
    exact.target = track.target;
    exact.path = track.path;
    exact.form = TrackForm::Exact;
    exact.exact = track;

    std::vector<Transform> reference(grid.instants.size());
    for (std::size_t i = 0; i < grid.instants.size(); ++i) reference[i] = sampleAt(track, rest, grid.instants[i]);
    float fromRest = 0.0f;
    for (const Transform& r : reference) fromRest = std::max(fromRest, localError(r, rest, track.path, reach));
    if (fromRest <= budget) {
        CompressedTrack c;
        c.target = track.target;
        c.path = track.path;
        c.form = TrackForm::Default;
        return c;
    }
    const std::uint8_t dropped = track.path == TrackPath::Rotation ? componentToDrop(reference) : 3;
    CompressedTrack constant;
    constant.target = track.target;
    constant.path = track.path;
    constant.form = TrackForm::Constant;
    constant.dropped = dropped;
    const auto first = stored(reference.front(), track.path, dropped);
    constant.constant.assign(first.begin(), first.end());
    if (worstLocalError(constantTrack(constant), reference, rest, grid, reach) <= budget) return constant;

    if (track.interpolation == Interpolation::Step) return exact;
    // On the grid, and for a LINEAR track at its own keys: the first width that
    // meets the budget for each, and of the two the smaller.
    std::optional<CompressedTrack> best;
    const auto consider = [&](std::span<const float> times) {
        std::vector<std::array<float, kStored>> samples;
        for (const float t : times) samples.push_back(stored(sampleAt(track, rest, t), track.path, dropped));
        for (int bits = kMinBits; bits <= kMaxBits; ++bits) {
            CompressedTrack c = quantize(track, samples, bits);
            c.dropped = dropped;
            if (times.data() != grid.times.data()) c.times.assign(times.begin(), times.end());
            if (worstLocalError(quantizedTrack(c, grid), reference, rest, grid, reach) <= budget) {
                if (!best || c.packed.size() < best->packed.size()) best = std::move(c);
                return;
            }
        }
    };
    if (grid.samples >= 2) consider(grid.times);
    if (track.interpolation == Interpolation::Linear && track.times.size() >= 2) consider(track.times);
    return best ? std::move(*best) : exact;
}

Result<Clip> rebuild(const CompressedClip& compressed, const Clip& source, const Grid& grid) {
    std::vector<Track> tracks;
    for (const CompressedTrack& c : compressed.tracks) {
        switch (c.form) {
            case TrackForm::Default: break;
            case TrackForm::Constant: tracks.push_back(constantTrack(c)); break;
            case TrackForm::Quantized: tracks.push_back(quantizedTrack(c, grid)); break;
            case TrackForm::Exact: tracks.push_back(c.exact); break;
        }
    }
    for (const Track& t : source.tracks()) {
        if (t.path == TrackPath::Weights) tracks.push_back(t);
    }
    const auto names = source.jointNames();
    auto clip = Clip::create(
        std::string(source.name()), std::move(tracks), {source.markers().begin(), source.markers().end()},
        names.empty() ? nullptr : std::make_shared<const std::vector<std::string>>(names.begin(), names.end()));
    if (clip && !source.curves().empty()) clip = clip->withCurves({source.curves().begin(), source.curves().end()});
    // The source's length, or its duration (joint keys included) whatever the rebuilt
    // keys end at.
    const float duration = std::max(source.duration(), compressed.duration);
    if (clip && source.length() != 0.0f) {
        clip = clip->withLength(source.length());
    } else if (clip && duration > clip->duration()) {
        clip = clip->withLength(duration);
    }
    return clip;
}

}  // namespace

std::size_t CompressedClip::byteSize() const noexcept {
    std::size_t bytes = kClipHeaderBytes;
    std::vector<const std::vector<float>*> timelines;
    for (const CompressedTrack& t : tracks) {
        if (t.form == TrackForm::Quantized && !t.times.empty() &&
            std::none_of(timelines.begin(), timelines.end(), [&](const auto* seen) { return *seen == t.times; })) {
            timelines.push_back(&t.times);
            bytes += 4 + t.times.size() * sizeof(float);
        }
        bytes += kTrackHeaderBytes;
        switch (t.form) {
            case TrackForm::Default: break;
            case TrackForm::Constant: bytes += kStored * sizeof(float); break;
            case TrackForm::Quantized: bytes += kStored * 2 * sizeof(float) + t.packed.size(); break;
            case TrackForm::Exact: bytes += 8 + (t.exact.times.size() + t.exact.values.size()) * sizeof(float); break;
        }
    }
    return bytes;
}

Result<CompressedClip> compressClip(const Skeleton& skeleton, const Clip& clip, CompressionOptions options) {
    std::vector<Fault> faults;
    if (!(std::isfinite(options.maxError) && options.maxError > 0.0f))
        faults.push_back({"options/maxError", "not finite and positive"});
    if (!(std::isfinite(options.vertexDistance) && options.vertexDistance > 0.0f))
        faults.push_back({"options/vertexDistance", "not finite and positive"});
    if (!(std::isfinite(options.sampleRate) && options.sampleRate > 0.0f))
        faults.push_back({"options/sampleRate", "not finite and positive"});
    if (clip.jointsNeeded() > skeleton.jointCount()) faults.push_back({"clip", "animates joints the skeleton lacks"});
    if (!faults.empty()) return faults;

    float keysEnd = 0.0f;
    for (const Track& t : clip.tracks()) keysEnd = std::max(keysEnd, t.times.back());
    const Grid grid = makeGrid(keysEnd, options.sampleRate);
    const std::vector<float> reach = reachOfJoints(skeleton, options.vertexDistance);
    const ClipErrorOptions metric{options.vertexDistance, options.sampleRate};

    CompressedClip out;
    out.sampleRate = options.sampleRate;
    out.samples = grid.samples;
    out.duration = keysEnd;
    // Errors down a chain add up: start each track at half the bound, then halve.
    float budget = 0.5f * options.maxError;
    for (int attempt = 0; attempt <= kBudgetHalvings; ++attempt, budget *= 0.5f) {
        out.tracks.clear();
        for (const Track& t : clip.tracks()) {
            if (t.path == TrackPath::Weights) continue;
            out.tracks.push_back(chooseForm(t, skeleton.restPose()[t.target], grid, reach[t.target], budget));
        }
        auto rebuilt = rebuild(out, clip, grid);
        if (!rebuilt) return std::vector<Fault>(rebuilt.faults().begin(), rebuilt.faults().end());
        auto error = measureClipError(skeleton, clip, *rebuilt, metric);
        if (!error) return std::vector<Fault>(error.faults().begin(), error.faults().end());
        out.error = *error;
        if (error->max <= options.maxError) return out;
    }
    // Never met: every joint track exact (error 0).
    out.tracks.clear();
    for (const Track& t : clip.tracks()) {
        if (t.path == TrackPath::Weights) continue;
        CompressedTrack c;
        c.target = t.target;
        c.path = t.path;
        c.form = TrackForm::Exact;
        c.exact = t;
        out.tracks.push_back(std::move(c));
    }
    out.error = ClipError{};
    return out;
}

Result<Clip> decompressClip(const CompressedClip& compressed, const Clip& source) {
    if (!(std::isfinite(compressed.sampleRate) && compressed.sampleRate > 0.0f) ||
        !(std::isfinite(compressed.duration) && compressed.duration >= 0.0f) ||
        double(compressed.duration) * compressed.sampleRate > 1e6) {
        return Fault{"compressed", "sample rate or duration out of range"};
    }
    const Grid grid = makeGrid(compressed.duration, compressed.sampleRate);
    if (grid.samples != compressed.samples) return Fault{"compressed", "grid does not match its sample count"};
    std::vector<Fault> faults;
    for (std::size_t i = 0; i < compressed.tracks.size(); ++i) {
        const CompressedTrack& c = compressed.tracks[i];
        const std::string at = "compressed/tracks/" + std::to_string(i);
        const auto finite = [](const std::vector<float>& v) {
            return std::all_of(v.begin(), v.end(), [](float x) { return std::isfinite(x); });
        };
        if (c.path == TrackPath::Weights) faults.push_back({at + "/path", "morph weights are never compressed"});
        if (c.dropped > 3) faults.push_back({at + "/dropped", "not a quaternion component (0-3)"});
        switch (c.form) {
            case TrackForm::Default: break;
            case TrackForm::Constant:
                if (c.constant.size() != kStored || !finite(c.constant))
                    faults.push_back({at + "/constant", "not three finite values"});
                break;
            case TrackForm::Quantized: {
                if (c.bits < 1 || c.bits > kMaxBits) faults.push_back({at + "/bits", "outside 1-20"});
                if (c.minimum.size() != kStored || c.extent.size() != kStored || !finite(c.minimum) ||
                    !finite(c.extent)) {
                    faults.push_back({at + "/minimum", "minimum and extent are not three finite values each"});
                }
                const std::size_t keys = c.times.empty() ? grid.times.size() : c.times.size();
                if (c.bits <= kMaxBits && c.packed.size() * 8 < keys * kStored * c.bits)
                    faults.push_back({at + "/packed", "holds fewer bits than its samples need"});
                break;
            }
            case TrackForm::Exact:
                if (c.exact.target != c.target || c.exact.path != c.path)
                    faults.push_back({at + "/exact", "drives another target or path than the track"});
                break;
        }
    }
    if (!faults.empty()) return faults;
    return rebuild(compressed, source, grid);
}

}  // namespace kinema
