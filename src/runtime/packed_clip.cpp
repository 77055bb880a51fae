#include "kinema/runtime/packed_clip.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <tuple>

namespace kinema {

static_assert(static_cast<int>(TrackPath::Translation) == 0 && static_cast<int>(TrackPath::Rotation) == 1 &&
                  static_cast<int>(TrackPath::Scale) == 2 && static_cast<int>(TrackPath::Weights) == 3,
              "kernels/common.inl numbers the paths this way");
static_assert(static_cast<int>(Interpolation::Step) == 0 && static_cast<int>(Interpolation::Linear) == 1 &&
                  static_cast<int>(Interpolation::CubicSpline) == 2,
              "kernels/common.inl numbers the interpolations this way");

namespace {

std::size_t roundUpLanes(std::size_t n) { return (n + kSoaLanes - 1) / kSoaLanes * kSoaLanes; }

// One lane of a block: a track, and for weights which of its morph weights; for a
// quantized lane the compressed track whose samples it keeps.
struct Lane {
    std::uint32_t target;
    const Track* track;
    std::uint32_t element;
    const CompressedTrack* quantized = nullptr;
};

// A block's key: timeline, path, interpolation, and for quantized lanes the
// integer size and the rebuilt rotation component (kFloatLanes for float lanes).
constexpr int kFloatLanes = -1;
int quantizedKey(std::uint8_t bytes, std::uint8_t dropped) { return bytes * 4 + dropped; }
using BlockKey = std::tuple<std::uint32_t, TrackPath, Interpolation, int>;

// Component values of a Quantized track: per sample, kStoredComponents of `bits` bits.
constexpr std::uint32_t kStoredComponents = 3;

// The integer size a quantized track's samples take in memory.
std::uint8_t integerBytes(const CompressedTrack& t) {
    const auto widest =
        std::max_element(t.segments.begin(), t.segments.end(),
                         [](const QuantizedSegment& a, const QuantizedSegment& b) { return a.bits < b.bits; });
    return widest == t.segments.end() || widest->bits <= 16 ? 2 : 4;
}

// A block whose lanes are all one segment reads one scale per lane.
constexpr std::uint8_t kOneSegment = 31;

}  // namespace

PackedClip::PackedClip(const Clip& clip) : PackedClip(clip, nullptr) {}

Result<PackedClip> PackedClip::fromCompressed(const CompressedClip& compressed, const Clip& source) {
    if (compressed.tracks.empty()) return PackedClip(source);
    auto clip = decompressClip(compressed, source);
    if (!clip) return std::vector<Fault>(clip.faults().begin(), clip.faults().end());
    return PackedClip(*clip, &compressed);
}

PackedClip::PackedClip(const Clip& clip, const CompressedClip* compressed)
    : name_(clip.name()),
      markers_(clip.markers().begin(), clip.markers().end()),
      curves_(clip.curves().begin(), clip.curves().end()),
      skeleton_(clip.skeletonFingerprint()),
      duration_(clip.duration()),
      jointsNeeded_(clip.jointsNeeded()),
      weightsNeeded_(clip.weightsNeeded()),
      trackCount_(clip.tracks().size()) {
    std::vector<std::string> curveNames;
    curveNames.reserve(curves_.size());
    for (const CurveTrack& c : curves_) curveNames.push_back(c.name);
    curveNames_ = jointNamesFingerprint(curveNames);
    // Timelines: one per distinct key-time array.
    std::map<std::vector<float>, std::uint32_t> timelineOf;
    std::vector<std::uint32_t> trackTimeline(clip.tracks().size());
    for (std::size_t i = 0; i < clip.tracks().size(); ++i) {
        const Track& t = clip.tracks()[i];
        trackKeys_ += t.keyCount() * (t.path == TrackPath::Weights ? t.width : 1);
        auto [it, inserted] = timelineOf.try_emplace(t.times, static_cast<std::uint32_t>(timelines_.size()));
        trackTimeline[i] = it->second;
        if (!inserted) continue;
        PackedTimeline tl;
        tl.firstTime = static_cast<std::uint32_t>(times_.size());
        tl.keyCount = static_cast<std::uint32_t>(t.times.size());
        tl.firstBucket = static_cast<std::uint32_t>(seek_.size());
        times_.insert(times_.end(), t.times.begin(), t.times.end());
        times_.push_back(t.times.back());  // key n repeats key n - 1: key + 1 is always readable
        const std::size_t n = t.times.size();
        if (n >= 2) {
            // Bucket b covers [first + b / scale, first + (b + 1) / scale); it stores the
            // last interval starting at or before its start.
            const std::size_t buckets = n - 1;
            const double first = t.times.front(), span = static_cast<double>(t.times.back()) - first;
            tl.bucketScale = static_cast<float>(static_cast<double>(buckets) / span);
            std::size_t k = 0;
            for (std::size_t b = 0; b < buckets; ++b) {
                const double start = first + span * static_cast<double>(b) / static_cast<double>(buckets);
                while (k + 2 < n && static_cast<double>(t.times[k + 1]) <= start) ++k;
                seek_.push_back(static_cast<std::uint32_t>(k));
            }
        }
        timelines_.push_back(tl);
    }

    // The Quantized tracks of `compressed` by (target, path): `clip` holds them decoded.
    std::map<std::pair<std::uint32_t, TrackPath>, const CompressedTrack*> quantizedOf;
    if (compressed != nullptr) {
        for (const CompressedTrack& c : compressed->tracks) {
            if (c.form == TrackForm::Quantized) quantizedOf[{c.target, c.path}] = &c;
        }
    }

    // Blocks: lanes grouped by (timeline, path, interpolation, quantized), sorted by target.
    std::map<BlockKey, std::vector<Lane>> groups;
    for (std::size_t i = 0; i < clip.tracks().size(); ++i) {
        const Track& t = clip.tracks()[i];
        if (t.path == TrackPath::Weights) {
            auto& lanes = groups[{trackTimeline[i], t.path, t.interpolation, kFloatLanes}];
            for (std::uint32_t e = 0; e < t.width; ++e) lanes.push_back({t.weightOffset + e, &t, e});
            continue;
        }
        const auto q = quantizedOf.find({t.target, t.path});
        if (q == quantizedOf.end()) {
            groups[{trackTimeline[i], t.path, t.interpolation, kFloatLanes}].push_back({t.target, &t, 0});
        } else {
            const std::uint8_t dropped = t.path == TrackPath::Rotation ? q->second->dropped : 3;
            groups[{trackTimeline[i], t.path, t.interpolation, quantizedKey(integerBytes(*q->second), dropped)}]
                .push_back({t.target, &t, 0, q->second});
        }
    }
    std::size_t valueCount = 0, rowBytes = 0;
    for (auto& [key, lanes] : groups) {
        std::sort(lanes.begin(), lanes.end(), [](const Lane& a, const Lane& b) { return a.target < b.target; });
        const auto [timeline, path, interpolation, quantKey] = key;
        detail::PackedBlock block;
        block.timeline = timeline;
        block.path = static_cast<std::uint8_t>(path);
        block.interpolation = static_cast<std::uint8_t>(interpolation);
        block.components = static_cast<std::uint8_t>(path == TrackPath::Rotation      ? 4
                                                         : path == TrackPath::Weights ? 1
                                                                                      : 3);
        block.lanes = static_cast<std::uint32_t>(lanes.size());
        block.paddedLanes = static_cast<std::uint32_t>(roundUpLanes(lanes.size()));
        block.keyStride =
            block.components * block.paddedLanes * (interpolation == Interpolation::CubicSpline ? 3u : 1u);
        block.valueOffset = static_cast<std::uint32_t>(valueCount);
        block.targetOffset = static_cast<std::uint32_t>(targets_.size());
        block.contiguous = 1;
        for (std::size_t l = 0; l < lanes.size(); ++l) {
            targets_.push_back(lanes[l].target);
            if (lanes[l].target != lanes[0].target + l) block.contiguous = 0;
        }
        const std::size_t rows = timelines_[timeline].keyCount + 1;
        if (quantKey == kFloatLanes) {
            valueCount += rows * block.keyStride;
        } else {
            // Row layout: stored component after component, each paddedLanes integers.
            // Scales: per segment of rows (keys >> segmentShift), per stored component,
            // paddedLanes of them.
            block.quantized = static_cast<std::uint8_t>(quantKey / 4);
            block.dropped = static_cast<std::uint8_t>(quantKey % 4);
            block.quantOffset = static_cast<std::uint32_t>(quantSteps_.size());
            const bool segmented =
                std::any_of(lanes.begin(), lanes.end(), [](const Lane& l) { return l.quantized->segments.size() > 1; });
            block.segmentShift =
                segmented ? static_cast<std::uint8_t>(std::countr_zero(compressed->segmentKeys)) : kOneSegment;
            const std::size_t segments = (timelines_[timeline].keyCount >> block.segmentShift) + 1;
            const std::size_t padded = block.paddedLanes;
            quantSteps_.resize(quantSteps_.size() + segments * kStoredComponents * padded, 0.0f);
            quantMinimums_.resize(quantSteps_.size(), 0.0f);
            for (std::size_t m = 0; m < segments; ++m) {
                for (std::size_t l = 0; l < lanes.size(); ++l) {
                    const CompressedTrack& q = *lanes[l].quantized;
                    // The row after the last key repeats it, in the last segment's scale.
                    const std::size_t segment = std::min(m, q.segments.size() - 1);
                    const SegmentRange range = segmentRange(q, segment);
                    const auto top = static_cast<float>((1u << q.segments[segment].bits) - 1u);
                    for (std::uint32_t c = 0; c < kStoredComponents; ++c) {
                        const std::size_t i = block.quantOffset + (m * kStoredComponents + c) * padded + l;
                        quantSteps_[i] = range.extent[c] / top;
                        quantMinimums_[i] = range.minimum[c];
                    }
                }
            }
            block.keyStride = static_cast<std::uint32_t>(kStoredComponents * padded * block.quantized);
            block.valueOffset = static_cast<std::uint32_t>(rowBytes);
            rowBytes += rows * block.keyStride;
        }
        blocks_.push_back(block);
    }

    // Coverage: targets per path, each exactly 0..n-1 (duplicates are impossible:
    // Clip::create rejects two tracks on one (target, path)).
    std::size_t perPath[4] = {0, 0, 0, 0};
    std::size_t maxPlusOne[4] = {0, 0, 0, 0};
    for (const detail::PackedBlock& block : blocks_) {
        for (std::uint32_t l = 0; l < block.lanes; ++l) {
            perPath[block.path] += 1;
            maxPlusOne[block.path] =
                std::max<std::size_t>(maxPlusOne[block.path], targets_[block.targetOffset + l] + 1u);
        }
    }
    const bool trsComplete = perPath[0] == maxPlusOne[0] && perPath[1] == maxPlusOne[0] &&
        perPath[2] == maxPlusOne[0] && maxPlusOne[1] == maxPlusOne[0] && maxPlusOne[2] == maxPlusOne[0];
    coveredJoints_ = trsComplete ? maxPlusOne[0] : static_cast<std::size_t>(-1);
    coveredWeights_ = perPath[3] == maxPlusOne[3] ? maxPlusOne[3] : static_cast<std::size_t>(-1);

    quantRows_.assign(rowBytes, 0u);
    for (const detail::PackedBlock& block : blocks_) {
        if (block.quantized == 0) continue;
        const auto& lanes =
            groups[{block.timeline, static_cast<TrackPath>(block.path), static_cast<Interpolation>(block.interpolation),
                    quantizedKey(block.quantized, block.dropped)}];
        const std::size_t keys = timelines_[block.timeline].keyCount;
        std::vector<std::vector<std::uint32_t>> integers;
        for (const Lane& lane : lanes) integers.push_back(quantizedIntegers(*compressed, *lane.quantized));
        for (std::size_t k = 0; k <= keys; ++k) {
            const std::size_t src = std::min(k, keys - 1);
            std::uint8_t* row = quantRows_.data() + block.valueOffset + k * block.keyStride;
            for (std::uint32_t c = 0; c < kStoredComponents; ++c) {
                for (std::size_t l = 0; l < lanes.size(); ++l) {
                    const std::uint32_t value = integers[l][src * kStoredComponents + c];
                    std::uint8_t* at = row + (c * block.paddedLanes + l) * block.quantized;
                    if (block.quantized == 2) {
                        const auto narrow = static_cast<std::uint16_t>(value);
                        std::memcpy(at, &narrow, sizeof narrow);
                    } else {
                        std::memcpy(at, &value, sizeof value);
                    }
                }
            }
        }
    }

    values_.assign(valueCount, 0.0f);
    for (const detail::PackedBlock& block : blocks_) {
        if (block.quantized != 0) continue;
        const auto& lanes = groups[{block.timeline, static_cast<TrackPath>(block.path),
                                    static_cast<Interpolation>(block.interpolation), kFloatLanes}];
        const std::size_t keys = timelines_[block.timeline].keyCount;
        const bool cubic = block.interpolation == static_cast<std::uint8_t>(Interpolation::CubicSpline);
        const std::size_t parts = cubic ? 3 : 1;
        const std::size_t comps = block.components, padded = block.paddedLanes;
        const std::size_t valuePart = cubic ? 1 : 0;  // in-tangent, value, out-tangent
        for (std::size_t k = 0; k <= keys; ++k) {
            const std::size_t src = std::min(k, keys - 1);
            float* row = values_.data() + block.valueOffset + k * block.keyStride;
            for (std::size_t part = 0; part < parts; ++part) {
                for (std::size_t c = 0; c < comps; ++c) {
                    float* dst = row + (part * comps + c) * padded;
                    // Padding lanes hold the identity rotation so no kernel normalises a zero.
                    if (block.path == static_cast<std::uint8_t>(TrackPath::Rotation) && c == 3 && part == valuePart) {
                        std::fill(dst + lanes.size(), dst + padded, 1.0f);
                    }
                    for (std::size_t l = 0; l < lanes.size(); ++l) {
                        const Track& t = *lanes[l].track;
                        const std::size_t element = block.components == 1 ? lanes[l].element : c;
                        dst[l] = t.values[((cubic ? src * 3 + part : src) * t.width) + element];
                    }
                }
            }
        }
    }
}

std::size_t PackedClip::byteSize() const noexcept {
    return values_.size() * sizeof(float) + times_.size() * sizeof(float) + seek_.size() * sizeof(std::uint32_t) +
        targets_.size() * sizeof(std::uint32_t) + blocks_.size() * sizeof(detail::PackedBlock) +
        timelines_.size() * sizeof(PackedTimeline) + quantRows_.size() + quantSteps_.size() * 2 * sizeof(float);
}

double PackedClip::bytesPerKey() const noexcept {
    return trackKeys_ == 0 ? 0.0 : static_cast<double>(byteSize()) / static_cast<double>(trackKeys_);
}

void PackedClipCursor::bind(const PackedClip& clip) {
    clip_ = &clip;
    count_ = clip.timelines().size();
    reserve(count_);
    std::fill_n(hints_.begin(), count_, 0u);
}

void PackedClipCursor::reserve(std::size_t timelines) {
    if (hints_.size() < timelines) {
        hints_.resize(timelines);
        points_.resize(timelines);
    }
}

std::uint32_t findPackedInterval(const PackedClip& clip, const PackedTimeline& timeline, double time,
                                 std::uint32_t& hint) noexcept {
    const float* times = clip.times().data() + timeline.firstTime;
    const std::uint32_t n = timeline.keyCount;
    std::uint32_t k = hint;
    if (k + 1 < n && times[k] <= time) {
        if (time < times[k + 1]) return k;
        if (k + 2 < n && time < times[k + 2]) return hint = k + 1;
    }
    const std::uint32_t buckets = n - 1;
    const double scaled = (time - times[0]) * timeline.bucketScale;
    std::uint32_t b = scaled > 0.0 ? static_cast<std::uint32_t>(scaled) : 0u;
    b = std::min(b, buckets - 1);
    const std::uint32_t* seek = clip.seekIndex().data() + timeline.firstBucket;
    // The bucket's interval, or one of the next few: rounding in `scaled` may place
    // `time` a bucket early or late, so both directions are walked.
    std::uint32_t lo = seek[b];
    while (lo > 0 && times[lo] > time) --lo;
    const std::uint32_t hi = b + 1 < buckets ? seek[b + 1] + 1 : n - 2;
    if (hi > lo + 8) {
        // Uneven spacing: binary search between the two buckets' intervals.
        const float* it = std::upper_bound(times + lo, times + hi + 1, time);
        k = static_cast<std::uint32_t>(it - times) - 1;
    } else {
        k = lo;
    }
    while (k + 2 < n && times[k + 1] <= time) ++k;
    return hint = std::min(k, n - 2);
}

}  // namespace kinema
