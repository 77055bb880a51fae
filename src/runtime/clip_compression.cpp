#include "kinema/runtime/clip_compression.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "kinema/math/transform.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/sample.hpp"
#include "key_instants.hpp"

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
// other three is a large one in it). Where several come as near (a whole turn takes
// every component through 0), the one that also reaches farthest: never one that is
// 0 throughout, which would come back as the square root of rounding error.
std::uint8_t componentToDrop(std::span<const Transform> values) {
    float bestLeast = -1.0f, bestMost = -1.0f;
    std::uint8_t drop = 3;
    for (std::uint8_t i = 0; i < 4; ++i) {
        float least = 2.0f, most = 0.0f;
        for (const Transform& t : values) {
            const Quat q = normalize(t.rotation);
            const float c[4] = {q.x, q.y, q.z, q.w};
            least = std::min(least, std::abs(c[i]));
            most = std::max(most, std::abs(c[i]));
        }
        if (least > bestLeast || (least == bestLeast && most > bestMost)) {
            bestLeast = least;
            bestMost = most;
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

// The most grid samples a compressed clip may have: 9 hours at 30 Hz.
constexpr double kMostGridSamples = 1e6;

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

// Grid points 0, stride, 2 stride, ... and the last.
std::vector<float> stridedTimes(std::span<const float> grid, std::size_t stride) {
    std::vector<float> out;
    for (std::size_t k = 0; k < grid.size(); k += stride) out.push_back(grid[k]);
    if (!grid.empty() && out.back() != grid.back()) out.push_back(grid.back());
    return out;
}

std::vector<float> keyTimes(const CompressedTrack& c, const Grid& grid) {
    return c.times.empty() ? stridedTimes(grid.times, c.stride) : c.times;
}

// The keys segment `s` of a track of `keys` keys holds: [first, end).
std::pair<std::size_t, std::size_t> keysOfSegment(std::size_t segments, std::size_t keys, std::uint32_t perSegment,
                                                  std::size_t s) {
    if (segments == 1) return {0, keys};
    return {s * perSegment, std::min(keys, (s + 1) * perSegment)};
}

bool powerOfTwoIn(std::uint32_t v, std::uint32_t low, std::uint32_t high) {
    return v >= low && v <= high && std::has_single_bit(v);
}

// Segment sizes and strides: powers of two within these.
constexpr std::uint32_t kMinSegmentKeys = 2, kMaxSegmentKeys = 256, kMaxStride = 64;

std::size_t segmentsFor(std::size_t keys, std::uint32_t perSegment) {
    return perSegment == 0 ? 1 : (keys + perSegment - 1) / perSegment;
}

Transform sampleAt(const Track& track, const Transform& rest, double t) {
    Transform out = rest;
    float none = 0.0f;
    (void)reference::sampleTrack(track, t, out, std::span<float>(&none, 0));
    return out;
}

float worstLocalError(const Track& candidate, std::span<const Transform> reference, const Transform& rest,
                      const Grid& grid, float reach, std::size_t first = 0,
                      std::size_t end = static_cast<std::size_t>(-1)) {
    float worst = 0.0f;
    for (std::size_t i = first; i < std::min(end, grid.instants.size()); ++i) {
        worst = std::max(worst,
                         localError(sampleAt(candidate, rest, grid.instants[i]), reference[i], candidate.path, reach));
    }
    return worst;
}

using Stored = std::array<float, kStored>;

// A LINEAR track through decoded keys.
Track linearTrack(const CompressedTrack& c, std::span<const float> times, std::span<const Stored> values) {
    Track t;
    t.target = c.target;
    t.path = c.path;
    t.interpolation = Interpolation::Linear;
    t.width = c.path == TrackPath::Rotation ? 4u : 3u;
    t.times.assign(times.begin(), times.end());
    for (const Stored& v : values) appendValue(t.values, c.path, c.dropped, v);
    return t;
}

std::uint32_t topOf(int bits) { return (1u << bits) - 1u; }

SegmentRange rangeOf(const CompressedTrack& c, const QuantizedSegment& segment) {
    SegmentRange r;
    for (std::size_t i = 0; i < kStored; ++i) {
        r.minimum[i] = c.minimum[i] + c.extent[i] * (static_cast<float>(segment.low[i]) / 255.0f);
        r.extent[i] = c.extent[i] * (static_cast<float>(segment.span[i]) / 255.0f);
    }
    return r;
}

// The integers of a Quantized track of `keys` keys: key after key, its stored components.
std::vector<std::uint32_t> integersOf(const CompressedTrack& c, std::size_t keys, std::uint32_t perSegment) {
    std::vector<std::uint32_t> out;
    out.reserve(keys * kStored);
    std::size_t at = 0;
    for (std::size_t s = 0; s < c.segments.size(); ++s) {
        const int bits = c.segments[s].bits;
        const auto [first, end] = keysOfSegment(c.segments.size(), keys, perSegment, s);
        for (std::size_t i = 0; i < (end - first) * kStored; ++i, at += static_cast<std::size_t>(bits)) {
            out.push_back(readBits(c.packed, at, bits));
        }
    }
    return out;
}

// The decoded keys of a Quantized track.
std::vector<Stored> decodedKeys(const CompressedTrack& c, std::size_t keys, std::uint32_t perSegment) {
    const std::vector<std::uint32_t> integers = integersOf(c, keys, perSegment);
    std::vector<Stored> out(keys);
    for (std::size_t k = 0; k < keys; ++k) {
        const std::size_t s = c.segments.size() == 1 ? 0 : k / perSegment;
        const SegmentRange r = rangeOf(c, c.segments[s]);
        const float top = static_cast<float>(topOf(c.segments[s].bits));
        for (std::size_t i = 0; i < kStored; ++i) {
            out[k][i] = r.minimum[i] + r.extent[i] * (static_cast<float>(integers[k * kStored + i]) / top);
        }
    }
    return out;
}

// The Quantized form's track: dequantized keys on the grid (or its own keys), played
// linearly.
Track quantizedTrack(const CompressedTrack& c, const Grid& grid, std::uint32_t perSegment) {
    const std::vector<float> times = keyTimes(c, grid);
    return linearTrack(c, times, decodedKeys(c, times.size(), perSegment));
}

Track constantTrack(const CompressedTrack& c) {
    Track t;
    t.target = c.target;
    t.path = c.path;
    t.interpolation = Interpolation::Linear;
    t.width = c.path == TrackPath::Rotation ? 4u : 3u;
    t.times = {0.0f};
    appendValue(t.values, c.path, c.dropped, {c.constant[0], c.constant[1], c.constant[2]});
    return t;
}

// The lowest and highest value of component `i` over `samples`.
std::pair<float, float> boundsOf(std::span<const Stored> samples, std::size_t i) {
    float lo = samples[0][i], hi = samples[0][i];
    for (const Stored& v : samples) {
        lo = std::min(lo, v[i]);
        hi = std::max(hi, v[i]);
    }
    return {lo, hi};
}

// The segment covering `samples` within the track's range: the 255ths of it that
// hold their lowest and highest values.
QuantizedSegment fitSegment(const CompressedTrack& c, std::span<const Stored> samples, int bits) {
    QuantizedSegment segment;
    segment.bits = static_cast<std::uint8_t>(bits);
    for (std::size_t i = 0; i < kStored; ++i) {
        if (!(c.extent[i] > 0.0f)) continue;
        const auto [lo, hi] = boundsOf(samples, i);
        const float low = std::clamp(std::floor((lo - c.minimum[i]) / c.extent[i] * 255.0f), 0.0f, 255.0f);
        const float high = std::clamp(std::ceil((hi - c.minimum[i]) / c.extent[i] * 255.0f), low, 255.0f);
        segment.low[i] = static_cast<std::uint8_t>(low);
        segment.span[i] = static_cast<std::uint8_t>(high - low);
    }
    return segment;
}

// `samples` as integers of `segment`, and the values they decode to.
void quantizeSegment(const CompressedTrack& c, const QuantizedSegment& segment, std::span<const Stored> samples,
                     std::vector<std::uint32_t>& integers, std::span<Stored> decoded) {
    const SegmentRange r = rangeOf(c, segment);
    const std::uint32_t top = topOf(segment.bits);
    integers.clear();
    for (std::size_t k = 0; k < samples.size(); ++k) {
        for (std::size_t i = 0; i < kStored; ++i) {
            const float unit = r.extent[i] > 0.0f ? (samples[k][i] - r.minimum[i]) / r.extent[i] : 0.0f;
            const auto q = static_cast<std::uint32_t>(std::lround(std::clamp(unit, 0.0f, 1.0f) * float(top)));
            integers.push_back(q);
            decoded[k][i] = r.minimum[i] + r.extent[i] * (static_cast<float>(q) / static_cast<float>(top));
        }
    }
}

// The Quantized form of a track through `samples` at `times`: per segment the fewest
// bits that keep the local error within `budget` (segments are chosen in order, each
// judged with the keys before it as chosen), or nothing if 20 bits do not.
std::optional<CompressedTrack> quantizeTrack(const CompressedTrack& shape, std::span<const float> times,
                                             std::span<const Stored> samples, std::span<const Transform> reference,
                                             const Transform& rest, const Grid& grid, float reach, float budget,
                                             std::uint32_t perSegment, int minBits) {
    CompressedTrack c = shape;
    c.minimum.assign(kStored, 0.0f);
    c.extent.assign(kStored, 0.0f);
    for (std::size_t i = 0; i < kStored; ++i) {
        const auto [lo, hi] = boundsOf(samples, i);
        c.minimum[i] = lo;
        c.extent[i] = hi - lo;
        // Values spread wider than a float holds (3e38 and -3e38) have no range to
        // quantize within: the track stays exact.
        if (!std::isfinite(c.extent[i])) return std::nullopt;
    }
    const std::size_t segments = segmentsFor(samples.size(), perSegment);
    std::vector<Stored> decoded(samples.size());
    std::vector<std::uint32_t> integers;
    BitWriter writer;
    for (std::size_t s = 0; s < segments; ++s) {
        const auto [first, end] = keysOfSegment(segments, samples.size(), perSegment, s);
        // The instants this segment's keys reach: from the key before it (or the start)
        // to its last key (or the end).
        const std::size_t window = first == 0 ? 0 : first - 1;
        const auto instant = [&](float t) {
            return static_cast<std::size_t>(std::lower_bound(grid.instants.begin(), grid.instants.end(), double(t)) -
                                            grid.instants.begin());
        };
        const std::size_t from = first == 0 ? 0 : instant(times[window]);
        const std::size_t to = end == samples.size()
            ? grid.instants.size()
            : static_cast<std::size_t>(
                  std::upper_bound(grid.instants.begin(), grid.instants.end(), double(times[end - 1])) -
                  grid.instants.begin());
        const auto keys = samples.subspan(first, end - first);
        bool met = false;
        for (int bits = minBits; bits <= kMaxBits && !met; ++bits) {
            const QuantizedSegment segment = segments == 1
                ? QuantizedSegment{static_cast<std::uint8_t>(bits), {0, 0, 0}, {255, 255, 255}}
                : fitSegment(c, keys, bits);
            quantizeSegment(c, segment, keys, integers, std::span<Stored>(decoded).subspan(first, end - first));
            const Track part = linearTrack(c, times.subspan(window, end - window),
                                           std::span<const Stored>(decoded).subspan(window, end - window));
            if (worstLocalError(part, reference, rest, grid, reach, from, to) <= budget) {
                met = true;
                c.segments.push_back(segment);
                for (std::size_t k = 0; k < integers.size(); ++k) writer.write(integers[k], bits);
            }
        }
        if (!met) return std::nullopt;
    }
    c.packed = writer.take();
    return c;
}

// A segmented track's segments (a byte of bit width and 6 of range each; one
// segment's width fits the track header); the packed bits.
std::size_t quantizedBytes(const CompressedTrack& c) {
    return (c.segments.size() > 1 ? 7 * c.segments.size() : 0) + c.packed.size();
}

// The smallest form of `track` whose local error stays within `budget`.
CompressedTrack chooseForm(const Track& track, const Transform& rest, const Grid& grid, float reach, float budget,
                           const CompressionOptions& options) {
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
    // On the grid and its strides, and for a LINEAR track at its own keys; each as one
    // segment and in segments: of those that meet the budget, the smallest.
    std::optional<CompressedTrack> best;
    CompressedTrack shape;
    shape.target = track.target;
    shape.path = track.path;
    shape.form = TrackForm::Quantized;
    shape.dropped = dropped;
    const auto consider = [&](std::span<const float> times, bool own, std::uint8_t stride) {
        std::vector<Stored> samples;
        for (const float t : times) samples.push_back(stored(sampleAt(track, rest, t), track.path, dropped));
        shape.stride = stride;
        if (own) shape.times.assign(times.begin(), times.end());
        for (const std::uint32_t perSegment : {std::uint32_t{0}, options.segmentKeys}) {
            if (perSegment != 0 && segmentsFor(times.size(), perSegment) < 2) continue;
            auto c = quantizeTrack(shape, times, samples, reference, rest, grid, reach, budget, perSegment,
                                   perSegment == 0 ? kMinBits : 1);
            if (c && (!best || quantizedBytes(*c) < quantizedBytes(*best))) best = std::move(c);
        }
        shape.times.clear();
    };
    std::size_t previousKeys = 0;
    for (std::uint32_t stride = 1; stride <= options.maxStride; stride *= 2) {
        const std::vector<float> times = stridedTimes(grid.times, stride);
        if (times.size() >= 2 && times.size() != previousKeys)
            consider(times, false, static_cast<std::uint8_t>(stride));
        previousKeys = times.size();
    }
    if (track.interpolation == Interpolation::Linear && track.times.size() >= 2) consider(track.times, true, 1);
    return best ? std::move(*best) : exact;
}

Result<Clip> rebuild(const CompressedClip& compressed, const Clip& source, const Grid& grid) {
    std::vector<Track> tracks;
    for (const CompressedTrack& c : compressed.tracks) {
        switch (c.form) {
            case TrackForm::Default: break;
            case TrackForm::Constant: tracks.push_back(constantTrack(c)); break;
            case TrackForm::Quantized: tracks.push_back(quantizedTrack(c, grid, compressed.segmentKeys)); break;
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

std::vector<float> quantizedTimes(const CompressedClip& clip, const CompressedTrack& track) {
    return keyTimes(track, makeGrid(clip.duration, clip.sampleRate));
}

SegmentRange segmentRange(const CompressedTrack& track, std::size_t segment) noexcept {
    return rangeOf(track, track.segments[segment]);
}

std::size_t segmentOfKey(const CompressedClip& clip, const CompressedTrack& track, std::size_t key) noexcept {
    return track.segments.size() == 1 || clip.segmentKeys == 0 ? 0 : key / clip.segmentKeys;
}

std::vector<std::uint32_t> quantizedIntegers(const CompressedClip& clip, const CompressedTrack& track) {
    return integersOf(track, quantizedTimes(clip, track).size(), clip.segmentKeys);
}

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
            case TrackForm::Quantized: bytes += kStored * 2 * sizeof(float) + quantizedBytes(t); break;
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
    if (options.segmentKeys != 0 && !powerOfTwoIn(options.segmentKeys, kMinSegmentKeys, kMaxSegmentKeys))
        faults.push_back({"options/segmentKeys", "not 0 or a power of two from 2 to 256"});
    if (!powerOfTwoIn(options.maxStride, 1, kMaxStride))
        faults.push_back({"options/maxStride", "not a power of two from 1 to 64"});
    if (clip.jointsNeeded() > skeleton.jointCount()) faults.push_back({"clip", "animates joints the skeleton lacks"});
    if (!faults.empty()) return faults;

    float keysEnd = 0.0f;
    for (const Track& t : clip.tracks()) keysEnd = std::max(keysEnd, t.times.back());
    // decompressClip's limit on the grid, met here rather than found when reading back.
    if (double(keysEnd) * options.sampleRate > kMostGridSamples) {
        return Fault{"clip",
                     "lasts " + exactNumber(keysEnd) + " s: at " + exactNumber(options.sampleRate) +
                         " Hz its grid passes " + std::to_string(static_cast<long>(kMostGridSamples)) +
                         " samples (store it exact, or sample it less often)"};
    }
    Grid grid = makeGrid(keysEnd, options.sampleRate);
    // Each form is measured where the clip's own keys lie too, not only on the grid.
    detail::addInstants(grid.instants, detail::keyInstants(clip, keysEnd));
    const std::vector<float> reach = reachOfJoints(skeleton, options.vertexDistance);
    const ClipErrorOptions metric{options.vertexDistance, options.sampleRate};

    CompressedClip out;
    out.sampleRate = options.sampleRate;
    out.samples = grid.samples;
    out.duration = keysEnd;
    out.segmentKeys = options.segmentKeys;
    // Errors down a chain add up: start each track at half the bound, then halve.
    float budget = 0.5f * options.maxError;
    for (int attempt = 0; attempt <= kBudgetHalvings; ++attempt, budget *= 0.5f) {
        out.tracks.clear();
        for (const Track& t : clip.tracks()) {
            if (t.path == TrackPath::Weights) continue;
            out.tracks.push_back(chooseForm(t, skeleton.restPose()[t.target], grid, reach[t.target], budget, options));
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
        double(compressed.duration) * compressed.sampleRate > kMostGridSamples) {
        return Fault{"compressed", "sample rate or duration out of range"};
    }
    const std::uint32_t perSegment = compressed.segmentKeys;
    const bool segmented = powerOfTwoIn(perSegment, kMinSegmentKeys, kMaxSegmentKeys);
    if (perSegment != 0 && !segmented) return Fault{"compressed/segmentKeys", "not 0 or a power of two from 2 to 256"};
    const Grid grid = makeGrid(compressed.duration, compressed.sampleRate);
    if (grid.samples != compressed.samples) return Fault{"compressed", "grid does not match its sample count"};
    std::vector<Fault> faults;
    for (std::size_t i = 0; i < compressed.tracks.size(); ++i) {
        const CompressedTrack& c = compressed.tracks[i];
        const std::string at = "compressed/tracks/" + std::to_string(i);
        const auto finite = [](const std::vector<float>& v) {
            return std::all_of(v.begin(), v.end(), [](float x) { return std::isfinite(x); });
        };
        // With room for rounding in the range the compressor wrote.
        const auto withinUnit = [](float x) { return x >= -1.0f - 1e-5f && x <= 1.0f + 1e-5f; };
        if (c.path == TrackPath::Weights) faults.push_back({at + "/path", "morph weights are never compressed"});
        if (c.dropped > 3) faults.push_back({at + "/dropped", "not a quaternion component (0-3)"});
        switch (c.form) {
            case TrackForm::Default: break;
            case TrackForm::Constant:
                if (c.constant.size() != kStored || !finite(c.constant)) {
                    faults.push_back({at + "/constant", "not three finite values"});
                } else if (c.path == TrackPath::Rotation &&
                           !std::all_of(c.constant.begin(), c.constant.end(), withinUnit)) {
                    faults.push_back({at + "/constant", "a rotation's components lie within [-1, 1]"});
                }
                break;
            case TrackForm::Quantized: {
                if (c.minimum.size() != kStored || c.extent.size() != kStored || !finite(c.minimum) ||
                    !finite(c.extent)) {
                    faults.push_back({at + "/minimum", "minimum and extent are not three finite values each"});
                } else if (c.path == TrackPath::Rotation) {
                    // A unit quaternion's components lie within [-1, 1]: a range past it
                    // decodes to values whose squares overflow.
                    for (std::size_t k = 0; k < kStored; ++k) {
                        if (!withinUnit(c.minimum[k]) || !(c.extent[k] >= 0.0f) ||
                            !withinUnit(c.minimum[k] + c.extent[k])) {
                            faults.push_back({at + "/minimum", "a rotation's range reaches outside [-1, 1]"});
                            break;
                        }
                    }
                }
                if (!powerOfTwoIn(c.stride, 1, kMaxStride) || (!c.times.empty() && c.stride != 1)) {
                    faults.push_back({at + "/stride", "not a power of two from 1 to 64 (1 for own key times)"});
                    break;
                }
                const std::size_t keys = keyTimes(c, grid).size();
                if (keys == 0) {
                    faults.push_back({at + "/times", "no keys"});
                    break;
                }
                if (c.segments.size() != 1 &&
                    (!segmented || c.segments.size() != segmentsFor(keys, compressed.segmentKeys))) {
                    faults.push_back({at + "/segments",
                                      std::to_string(c.segments.size()) + " segments for " + std::to_string(keys) +
                                          " keys of " + std::to_string(compressed.segmentKeys) + " a segment"});
                    break;
                }
                std::size_t bits = 0;
                for (std::size_t s = 0; s < c.segments.size(); ++s) {
                    const QuantizedSegment& segment = c.segments[s];
                    const std::string where = at + "/segments/" + std::to_string(s);
                    if (segment.bits < 1 || segment.bits > kMaxBits)
                        faults.push_back({where + "/bits", "outside 1-20"});
                    for (std::size_t k = 0; k < kStored; ++k) {
                        if (segment.low[k] + segment.span[k] > 255)
                            faults.push_back({where + "/span", "reaches past the track's range"});
                    }
                    const auto [first, end] = keysOfSegment(c.segments.size(), keys, compressed.segmentKeys, s);
                    bits += (end - first) * kStored * segment.bits;
                }
                if (c.packed.size() * 8 < bits)
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
