// kinema/runtime: sampling a clip at a time into a local pose.
//
// Boundaries follow glTF: before the first key a track holds its first value,
// after the last key its last value, and at an exact key time the stored value is
// returned unchanged. LINEAR rotation is shortest-arc slerp; CUBICSPLINE is the
// Hermite spline with tangents scaled by the key interval, rotations normalised.
// Properties no track animates are left as they were in the output (fill it with
// the rest pose first: see pose.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "kinema/asset/clip.hpp"
#include "kinema/math/transform.hpp"

namespace kinema {

// Per-instance keyframe cursors for one clip: the key interval each track used
// last. Forward (or slightly backward) playback then finds the next interval in
// O(1); a jump falls back to a binary search. Bind a cursor to one clip.
class SamplingCursor {
public:
    SamplingCursor() = default;
    explicit SamplingCursor(const Clip& clip) : keys_(clip.tracks().size(), 0u) {}

    // Forget the cached intervals. Never needed for correctness (a stale interval
    // only costs a binary search); useful to start a measurement from a known state.
    void reset() noexcept { std::fill(keys_.begin(), keys_.end(), 0u); }
    std::size_t trackCount() const noexcept { return keys_.size(); }
    std::span<std::uint32_t> keys() noexcept { return keys_; }

private:
    std::vector<std::uint32_t> keys_;
};

// The reference path (namespace reference): the passes of PoseKernels with the same
// verbs and contracts, scalar and on array-of-structures poses, written for
// exactness and clarity; the SIMD path is tested against it (docs/SIMD.md bounds the
// differences). Like PoseKernels, each checks its sizes first (O(1)) and returns
// false without writing anything when they do not fit.
namespace reference {

// Samples every track of `clip` at `time` (seconds on the clip's timeline: apply
// clipTime() first for loop/clamp policy) into `local` (indexed by joint) and
// `weights` (indexed by Track::weightOffset). Returns false and writes nothing when
// the outputs are too small for the clip or the cursor is bound to a different
// track count (O(1) checks). `time` stays double through the key search and the
// interpolation factor: key times are floats, compared with it exactly, so a time
// just before a key is never rounded onto that key (float spacing at 35 s is 3.8 us).
bool sample(const Clip& clip, double time, SamplingCursor& cursor, std::span<Transform> local,
            std::span<float> weights) noexcept;

// The same without a cursor: every track binary-searches its interval.
bool sample(const Clip& clip, double time, std::span<Transform> local, std::span<float> weights) noexcept;

// One track at `time`, whatever joint it targets: translation, rotation or scale
// into `local` (its other properties untouched), weights into the first
// `track.width` floats of `weights`. Returns false and writes nothing for a track
// without keys or a weights span shorter than the track's width.
bool sampleTrack(const Track& track, double time, Transform& local, std::span<float> weights) noexcept;
// The same, trying the key interval `keyHint` (and the one after it) before a binary
// search, and leaving the interval used in it: sequential playback finds its keys in
// O(1). Any hint value gives the same result.
bool sampleTrack(const Track& track, double time, std::uint32_t& keyHint, Transform& local,
                 std::span<float> weights) noexcept;

}  // namespace reference

// Index k of the key interval [times[k], times[k+1]) holding `time`, for
// times[0] <= time < times.back(); `hint` is tried first and then updated.
std::uint32_t findKeyInterval(std::span<const float> times, double time, std::uint32_t& hint) noexcept;

}  // namespace kinema
