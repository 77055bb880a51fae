// kinema/runtime: error-bounded compression of a clip's joint tracks.
//
// Each joint track takes the smallest of four forms that keeps the clip within the
// error bound, judged as measureClipError judges (virtual vertices in model space,
// at a grid and its midpoints, against the exact curves):
//   - Default: the joint's rest value throughout; nothing stored.
//   - Constant: one value (a rotation as three components, the fourth rebuilt).
//   - Quantized: the track resampled on a uniform grid (`sampleRate`), or a LINEAR
//     track at its own key times (a timeline several tracks share is counted once),
//     each component as an unsigned integer of `bits` bits between the component's
//     minimum and maximum over the track, played back linearly.
//   - Exact: the track as given (STEP tracks, and tracks the grid cannot follow).
// Bit widths are chosen per track from a local estimate (a joint's error times the
// farthest virtual vertex it moves); the whole clip is then measured, and the
// tracks' budget halved until the clip meets the bound (or every track is exact).
// Morph weight tracks are kept exact (they move no joint the metric sees).
#pragma once

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
};

enum class TrackForm : std::uint8_t { Default, Constant, Quantized, Exact };

struct CompressedTrack {
    std::uint32_t target = 0;
    TrackPath path = TrackPath::Translation;
    TrackForm form = TrackForm::Exact;
    std::uint8_t bits = 0;               // Quantized: bits per component value
    std::uint8_t dropped = 3;            // a rotation's component not stored (x, y, z, w: 0-3), rebuilt >= 0
    std::vector<float> constant;         // Constant: 3 floats (a rotation's components but `dropped`)
    std::vector<float> minimum, extent;  // Quantized: per stored component
    std::vector<std::uint8_t> packed;    // Quantized: sample after sample, component after component, LSB first
    std::vector<float> times;            // Quantized: the track's own key times, or empty for the grid
    Track exact;                         // Exact: the track as given
};

struct CompressedClip {
    std::vector<CompressedTrack> tracks;
    float sampleRate = 30.0f;
    std::uint32_t samples = 0;  // grid samples of a Quantized track: ceil(duration x rate) + 1
    float duration = 0.0f;      // the source clip's key duration
    ClipError error;            // the compressed clip against the source, as measured

    // The compressed data, without names or metadata: per track a 4-byte header,
    // then its values (Constant: 12 bytes; Quantized: 8 bytes a component and the
    // packed bits; Exact: 8 bytes of counts and the floats), 12 bytes a clip, and
    // each distinct own-key timeline of Quantized tracks once (4 bytes a key and 4
    // of count).
    std::size_t byteSize() const noexcept;
};

// Faults: a clip that does not fit the skeleton, options that are not finite and
// positive.
Result<CompressedClip> compressClip(const Skeleton& skeleton, const Clip& clip, CompressionOptions options = {});

// The clip that plays the compressed tracks: `source`'s name, markers, curves, length,
// joint names and morph weight tracks, with the joint tracks rebuilt from `compressed`
// (Default tracks omitted: the pose keeps the rest value).
Result<Clip> decompressClip(const CompressedClip& compressed, const Clip& source);

}  // namespace kinema
