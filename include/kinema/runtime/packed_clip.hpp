// kinema/runtime: a Clip laid out for the SIMD sampler.
//
// Tracks are grouped by timeline (tracks whose key times are equal share one),
// interpolation and path; each group is a block of lanes whose values are stored
// key after key, component after component, lanes contiguous. Sampling finds the
// key interval once per timeline, then reads two consecutive key rows of each
// block: forward playback walks the value array front to back.
//
// Random access uses a seek index per timeline: the timeline's span is cut into as
// many equal buckets as it has keys, each remembering the first interval that
// overlaps it, so a seek costs one multiply, one table read and (for evenly spaced
// keys) at most a step or two. A per-instance PackedClipCursor remembers the last
// interval of every timeline and is tried first.
//
// Values are stored exactly (full float), except in a packed compressed clip
// (fromCompressed): there each Quantized track keeps its integer samples (16 bits
// each, 32 for a track wider than 16 bits), which the kernels decode as they
// interpolate. bytesPerKey() reports the cost.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kinema/asset/clip.hpp"
#include "kinema/core/result.hpp"
#include "kinema/runtime/clip_compression.hpp"
#include "kinema/runtime/detail/kernel_abi.hpp"
#include "kinema/runtime/soa_pose.hpp"

namespace kinema {

struct PackedTimeline {
    std::uint32_t firstTime = 0;  // index of key 0 in the clip's time array (keyCount + 1 entries, last repeated)
    std::uint32_t keyCount = 0;
    std::uint32_t firstBucket = 0;  // index of bucket 0 in the seek index (keyCount entries)
    float bucketScale = 0.0f;       // buckets per second
};

class PackedClip {
public:
    PackedClip() = default;
    // Lays out `clip` (already validated by Clip::create).
    explicit PackedClip(const Clip& clip);
    // Lays out the clip decompressClip(compressed, source) gives, with its Quantized
    // tracks kept as integers: samples the same values (to float rounding of the
    // decoding) from a fraction of the memory. Faults: those of decompressClip.
    // `compressed` without tracks (a clip of morph weights only, or one a cooked file
    // stores exact) compresses nothing: `source` is laid out as it is.
    static Result<PackedClip> fromCompressed(const CompressedClip& compressed, const Clip& source);

    // The source clip's name and markers (sorted by time), so that sampling and the
    // marker sweep need nothing but the packed clip.
    std::string_view name() const noexcept { return name_; }
    std::span<const Marker> markers() const noexcept { return markers_; }
    // The source clip's user curves, sampled and blended by the evaluation.
    std::span<const CurveTrack> curves() const noexcept { return curves_; }
    // The curves' names as jointNamesFingerprint digests a name list: what an
    // evaluation's mapping of curves to outputs was made for (another clip built at
    // the same address may name its curves otherwise).
    std::uint64_t curveNamesFingerprint() const noexcept { return curveNames_; }
    // The source clip's Clip::skeletonFingerprint(): 0 binds by index, anything else
    // is evaluated only on the skeleton of that fingerprint.
    std::uint64_t skeletonFingerprint() const noexcept { return skeleton_; }
    float duration() const noexcept { return duration_; }
    std::size_t jointsNeeded() const noexcept { return jointsNeeded_; }
    std::size_t weightsNeeded() const noexcept { return weightsNeeded_; }
    std::size_t trackCount() const noexcept { return trackCount_; }
    // True when sampling writes every TRS component of joints [0, joints) and every
    // weight of [0, weights) and nothing else: then no rest pose is needed under it.
    bool coversPose(std::size_t joints, std::size_t weights) const noexcept {
        return coveredJoints_ == joints && coveredWeights_ == weights;
    }

    std::span<const PackedTimeline> timelines() const noexcept { return timelines_; }
    std::span<const detail::PackedBlock> blocks() const noexcept { return blocks_; }
    std::span<const float> times() const noexcept { return times_; }
    std::span<const std::uint32_t> seekIndex() const noexcept { return seek_; }
    std::span<const float> values() const noexcept { return values_; }
    std::span<const std::uint32_t> targets() const noexcept { return targets_; }
    // The quantized blocks' rows and per-lane scales (detail::PackedBlock).
    detail::QuantizedLanes quantizedLanes() const noexcept {
        return {quantRows_.data(), quantSteps_.data(), quantMinimums_.data()};
    }

    // (track, key) pairs of the source clip: what one "key" in bytesPerKey() is.
    std::size_t trackKeyCount() const noexcept { return trackKeys_; }
    // Bytes of everything the sampler reads (values with padding and repeated last
    // keys, times, seek index, block and timeline tables, targets) per track key.
    double bytesPerKey() const noexcept;
    std::size_t byteSize() const noexcept;

private:
    PackedClip(const Clip& clip, const CompressedClip* compressed);

    std::string name_;
    std::vector<Marker> markers_;
    std::vector<CurveTrack> curves_;
    std::uint64_t curveNames_ = jointNamesFingerprint({});
    std::uint64_t skeleton_ = 0;
    float duration_ = 0.0f;
    std::size_t jointsNeeded_ = 0;
    std::size_t weightsNeeded_ = 0;
    std::size_t trackCount_ = 0;
    std::size_t trackKeys_ = 0;
    std::size_t coveredJoints_ = 0;
    std::size_t coveredWeights_ = 0;
    std::vector<PackedTimeline> timelines_;
    std::vector<detail::PackedBlock> blocks_;
    std::vector<float> times_;
    std::vector<std::uint32_t> seek_;
    SimdVector<float> values_;
    std::vector<std::uint32_t> targets_;
    SimdVector<std::uint8_t> quantRows_;
    std::vector<float> quantSteps_;
    std::vector<float> quantMinimums_;
};

// Per-instance sampling state for one PackedClip: the last interval of each
// timeline, and the per-timeline sample points the kernels read. Sized once when
// bound; binding to a clip with no more timelines than before never allocates.
class PackedClipCursor {
public:
    PackedClipCursor() = default;
    explicit PackedClipCursor(const PackedClip& clip) { bind(clip); }
    PackedClipCursor(const PackedClipCursor&) = default;
    PackedClipCursor& operator=(const PackedClipCursor&) = default;
    // A cursor moved from is bound to nothing (its hints went with the move), so the
    // next sample binds it afresh.
    PackedClipCursor(PackedClipCursor&& other) noexcept { *this = std::move(other); }
    PackedClipCursor& operator=(PackedClipCursor&& other) noexcept {
        if (this == &other) return *this;
        clip_ = std::exchange(other.clip_, nullptr);
        count_ = std::exchange(other.count_, 0);
        hints_ = std::move(other.hints_);
        points_ = std::move(other.points_);
        return *this;
    }
    ~PackedClipCursor() = default;
    void bind(const PackedClip& clip);
    // Room for a clip of `timelines` timelines, so that binding one allocates nothing.
    void reserve(std::size_t timelines);
    std::size_t capacity() const noexcept { return hints_.size(); }
    // Bound to this clip: its address, and as many timelines (another clip built at
    // the same address, after the first was destroyed, is bound afresh: its
    // timelines would overrun this cursor's).
    bool isBoundTo(const PackedClip& clip) const noexcept {
        return clip_ == &clip && count_ == clip.timelines().size();
    }

    // Internal to the sampler.
    std::span<std::uint32_t> hints() noexcept { return {hints_.data(), count_}; }
    std::span<detail::TimelinePoint> points() noexcept { return {points_.data(), count_}; }

private:
    const PackedClip* clip_ = nullptr;
    std::size_t count_ = 0;
    std::vector<std::uint32_t> hints_;
    std::vector<detail::TimelinePoint> points_;
};

// Index k of the interval [times[k], times[k+1]) that holds `time`, for a timeline
// with at least two keys and times[0] < time < times[last]. Tries `hint` and the
// next interval first, then the seek index. `time` is compared with the float key
// times exactly, in double.
std::uint32_t findPackedInterval(const PackedClip& clip, const PackedTimeline& timeline, double time,
                                 std::uint32_t& hint) noexcept;

}  // namespace kinema
