// kinema/runtime: error-bounded compression of a clip's joint tracks.
//
// Each joint track takes the smallest of four forms that keeps the clip within the
// error bound, judged as measureClipError judges (virtual vertices in model space,
// at a grid and its midpoints and at the clip's key times and theirs, against the
// exact curves):
//   - Default: the joint's rest value throughout; nothing stored.
//   - Constant: one value (a rotation as three components, the fourth rebuilt).
//   - Quantized: the track resampled on a uniform grid (`sampleRate`), on every
//     `stride`-th point of it (key reduction: a smooth track keeps 15, 7.5 or 3.75
//     keys a second), or a LINEAR track at its own key times (a timeline several
//     tracks share is counted once). Each component is an unsigned integer within a
//     range; the keys are split into segments of `segmentKeys` keys, each with its
//     own bit width and its own range inside the track's (segmenting), or kept as
//     one segment over the track's range, whichever is smaller. Played back linearly.
//   - Exact: the track as given (STEP tracks, and tracks the grid cannot follow).
// Forms, strides and bit widths are chosen per track (and segment) from a local
// estimate (a joint's error times the farthest virtual vertex it moves); the whole
// clip is then measured, and the tracks' budget halved until the clip meets the bound
// (or every track is exact). Morph weight tracks are kept exact (they move no joint
// the metric sees).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kinema/asset/clip.hpp"
#include "kinema/asset/skeleton.hpp"
#include "kinema/core/result.hpp"
#include "kinema/runtime/clip_error.hpp"

namespace kinema {

struct CompressionOptions {
    float maxError = 1e-4f;        // model units: 0.01 cm for a file in metres
    float vertexDistance = 0.03f;  // model units: 3 cm
    float sampleRate = 30.0f;      // Hz of the Quantized form's grid
    // Keys a segment holds: a power of two from 2 to 256, or 0 for one segment a track.
    std::uint32_t segmentKeys = 16;
    // The largest stride key reduction tries: a power of two from 1 (no reduction) to 64.
    std::uint32_t maxStride = 8;
};

enum class TrackForm : std::uint8_t { Default, Constant, Quantized, Exact };

// One segment of a Quantized track: its bit width and its range, per stored
// component c the values minimum[c] + extent[c] * low[c] / 255 to minimum[c] +
// extent[c] * (low[c] + span[c]) / 255 of the track's range (segmentRange). The one
// segment of an unsegmented track spans it all (low 0, span 255).
struct QuantizedSegment {
    std::uint8_t bits = 0;  // per component value, 1-20
    std::array<std::uint8_t, 3> low{};
    std::array<std::uint8_t, 3> span{};
};

struct CompressedTrack {
    std::uint32_t target = 0;
    TrackPath path = TrackPath::Translation;
    TrackForm form = TrackForm::Exact;
    std::uint8_t stride = 1;             // Quantized on the grid: keeps grid points 0, stride, 2 stride... and the last
    std::uint8_t dropped = 3;            // a rotation's component not stored (x, y, z, w: 0-3), rebuilt >= 0
    std::vector<float> constant;         // Constant: 3 floats (a rotation's components but `dropped`)
    std::vector<float> minimum, extent;  // Quantized: the track's range per stored component
    // Quantized: one segment over all keys, or one per CompressedClip::segmentKeys keys.
    std::vector<QuantizedSegment> segments;
    // Quantized: segment after segment, key after key, component after component, each
    // value in its segment's bits, LSB first.
    std::vector<std::uint8_t> packed;
    std::vector<float> times;  // Quantized: the track's own key times, or empty for the grid
    Track exact;               // Exact: the track as given
};

struct CompressedClip {
    std::vector<CompressedTrack> tracks;
    float sampleRate = 30.0f;
    std::uint32_t samples = 0;      // grid samples of a Quantized track: ceil(duration x rate) + 1
    float duration = 0.0f;          // the source clip's key duration
    std::uint32_t segmentKeys = 0;  // keys a segment of a segmented track holds (a power of two), or 0
    ClipError error;                // the compressed clip against the source, as measured

    // The compressed data, without names or metadata: per track a 4-byte header
    // (target, path, form, dropped component, stride, and an unsegmented track's bit
    // width), then its values (Constant: 12 bytes; Quantized: 8 bytes a component,
    // 7 a segment when there are several (bit width and range), and the packed bits;
    // Exact: 8 bytes of counts and the floats), 12 bytes
    // a clip, and each distinct own-key timeline of Quantized tracks once (4 bytes a
    // key and 4 of count).
    std::size_t byteSize() const noexcept;
};

// The key times of a Quantized track: its own, or its points of the clip's grid.
std::vector<float> quantizedTimes(const CompressedClip& clip, const CompressedTrack& track);

// Segment `segment`'s range of a Quantized track: per stored component its lowest
// value and its extent (the value of the integer 2^bits - 1 less the lowest).
struct SegmentRange {
    std::array<float, 3> minimum{}, extent{};
};
SegmentRange segmentRange(const CompressedTrack& track, std::size_t segment) noexcept;

// The segment that holds `key` of a Quantized track.
std::size_t segmentOfKey(const CompressedClip& clip, const CompressedTrack& track, std::size_t key) noexcept;

// The integers a Quantized track stores: key after key, its three stored components
// (the track must have passed decompressClip's checks).
std::vector<std::uint32_t> quantizedIntegers(const CompressedClip& clip, const CompressedTrack& track);

// Faults: a clip that does not fit the skeleton, options that are not finite and
// positive.
Result<CompressedClip> compressClip(const Skeleton& skeleton, const Clip& clip, CompressionOptions options = {});

// The clip that plays the compressed tracks: `source`'s name, markers, curves, length,
// joint names and morph weight tracks, with the joint tracks rebuilt from `compressed`
// (Default tracks omitted: the pose keeps the rest value).
Result<Clip> decompressClip(const CompressedClip& compressed, const Clip& source);

}  // namespace kinema
