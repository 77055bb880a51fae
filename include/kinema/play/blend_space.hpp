// kinema/play: blend spaces, clips placed on a line (1D) or a plane (2D) and
// blended by where a parameter point lies among them.
//
// A BlendSpace is authored data, immutable and shareable like the clips it places
// (it keeps pointers to them: the clips must outlive it). A BlendSpacePlayer is the
// per-instance state: parameters, speed and one normalised phase that every clip
// follows, so a blend of a walk and a run plays as one gait whose cycle length is
// the weighted mean of the clips' lengths.
//
// How the phase becomes each clip's time (BlendSync):
//
// | sync           | clip time at phase p                                                    |
// |----------------|-------------------------------------------------------------------------|
// | NormalizedTime | p * duration                                                            |
// | Markers        | piecewise linear between the clip's own markers; clip 0 sets the layout |
//
// Markers in detail: clip 0's markers, each divided by clip 0's duration, are the
// reference phases r_0 < r_1 < ... < r_{M-1} in [0, 1). Segment k is the phase
// interval [r_k, r_{k+1}) (the last one wraps: [r_{M-1}, r_0 + 1)). At fraction f
// of segment k every clip is at fraction f of its own interval from its marker k to
// its marker k+1 (the last one wrapping past its end). So clip 0 is at p * duration
// (up to rounding), and at phase r_k every clip is exactly on its marker k. The
// layout depends on nothing but the phase, never on the weights, so changing the
// parameters moves no clip: only the phase moves clips, all forwards together.
// Put the clip whose marker spacing is most typical first.
//
// The 2D space is a Delaunay triangulation of the clip positions (built once in
// create2D); a parameter point is blended with the barycentric weights of the
// triangle it falls in (at most three clips), and a point outside the triangulated
// hull is first moved to the nearest point of the hull (at most two clips, the ends
// of that hull edge). Barycentric weights reproduce position: the weighted mean of
// the blended clips' positions is the parameter point itself.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kinema/core/status.hpp"
#include "kinema/asset/clip.hpp"
#include "kinema/core/result.hpp"
#include "kinema/play/player.hpp"

namespace kinema {

enum class BlendSync : std::uint8_t {
    NormalizedTime,  // every clip at the same fraction of its own duration
    Markers,         // clips aligned piecewise on their sync markers (same names, same order in every clip)
};

struct BlendSpaceClip {
    const Clip* clip = nullptr;
    float x = 0.0f;  // position on the first parameter axis
    float y = 0.0f;  // position on the second axis (ignored by a 1D space)
};

// The most clips one blend space places: authored spaces hold tens; checking and
// triangulating grows faster than the count, so a larger one is refused.
inline constexpr std::size_t kMaxBlendSpaceClips = 1024;

class BlendSpace {
public:
    // An empty space: no clips, dimensions() == 1. Only useful as a placeholder.
    BlendSpace() = default;

    // 1D: clips placed on x (y ignored). Every fault is reported, located as
    // "clips" (no clip at all, or more than kMaxBlendSpaceClips), "clips/<i>/clip" (null, or zero duration: a blend
    // space loops), "clips/<i>/x" (not finite), "clips/<i>" (the same x as an earlier
    // clip, which it names). With BlendSync::Markers
    // also "clips/<i>/markers[/<k>]": every clip needs >= 1 marker, the same names in
    // the same order as clip 0, at strictly increasing times before its duration.
    static Result<BlendSpace> create1D(std::vector<BlendSpaceClip> clips, BlendSync sync = BlendSync::NormalizedTime);
    // 2D: clips placed on (x, y), Delaunay-triangulated. Faults as create1D (with
    // "/y" too, and duplicates meaning the same (x, y)); besides, "clips" when there
    // are fewer than 3 clips or all positions lie on one line (within 1e-9 of the
    // positions' extent): such a space is 1D, build it with create1D.
    static Result<BlendSpace> create2D(std::vector<BlendSpaceClip> clips, BlendSync sync = BlendSync::NormalizedTime);

    std::size_t dimensions() const noexcept { return dimensions_; }  // 1 or 2
    BlendSync sync() const noexcept { return sync_; }
    // In the order they were given; indices into this span name clips everywhere.
    std::span<const BlendSpaceClip> clips() const noexcept { return clips_; }
    // 2D: the triangles, as clip indices in counter-clockwise order. Empty in 1D.
    std::span<const std::array<std::uint32_t, 3>> triangles() const noexcept { return triangles_; }
    // Markers only: how many sync markers each clip has (0 with NormalizedTime).
    std::size_t syncMarkerCount() const noexcept { return markerCount_; }

    // Weight of each clip at parameter point (x, y), written to out (out.size() must
    // be clips().size(); otherwise nothing is written). Weights are >= 0 and sum to 1
    // (up to float rounding). 1D: y is ignored; between two neighbouring positions
    // the two are interpolated linearly, before the first or past the last position
    // that end clip has weight 1. 2D: barycentric in the triangle containing the
    // point (at most 3 non-zero), or on the nearest hull edge for a point outside
    // (at most 2). A non-finite coordinate the space uses (x in 1D, x or y in 2D)
    // makes the point clip 0's position, so clip 0 gets weight 1. Allocates nothing.
    void weights(float x, float y, std::span<float> out) const noexcept;

    // Time in seconds, in [0, duration), of clip `clip` (< clips().size()) at
    // normalised phase `phase` (in [0, 1)), by the sync mode (see the table at the
    // top of this header). Out-of-range arguments return 0.
    double clipTimeAt(std::size_t clip, double phase) const noexcept;

    // As clipTimeAt, but continuous over the whole phase cycle: the result starts at
    // the clip's time at phase 0 and grows by exactly one duration over [0, 1), so it
    // may lie outside [0, duration). The difference of two of them (plus whole laps)
    // is the clip time travelled between two phases.
    double unwrappedTimeAt(std::size_t clip, double phase) const noexcept;

private:
    static Result<BlendSpace> create(std::vector<BlendSpaceClip> clips, BlendSync sync, std::size_t dimensions);

    std::vector<BlendSpaceClip> clips_;
    std::size_t dimensions_ = 1;
    BlendSync sync_ = BlendSync::NormalizedTime;
    // 1D: clip indices by increasing x.
    std::vector<std::uint32_t> order_;
    // 2D: positions moved and scaled into the unit square (the predicates' tolerances
    // are then independent of the authored units), the triangles, and the hull edges.
    std::vector<std::array<double, 2>> unit_;
    double originX_ = 0.0;
    double originY_ = 0.0;
    double scale_ = 1.0;
    std::vector<std::array<std::uint32_t, 3>> triangles_;
    std::vector<std::array<std::uint32_t, 2>> hull_;
    // Markers: marker times (seconds), markerCount_ per clip, clip after clip; and
    // the reference phases of the segments (from clip 0).
    std::size_t markerCount_ = 0;
    std::vector<double> markerTimes_;
    std::vector<double> referencePhases_;
};

struct BlendSample {
    std::uint32_t clip = 0;  // index into BlendSpace::clips()
    float weight = 0.0f;     // > 0; the weights of one update's samples sum to 1
    double time = 0.0;       // clip time in seconds, in [0, duration)
    // This update's sweep on that clip, for markersCrossed(clip, LoopMode::Loop,
    // step, ...): from where the clip was after the previous update (or seekPhase) to
    // `time`, with the clip time travelled (signed, whole laps included).
    PlaybackStep step;
};

// Plays a BlendSpace. Its clips all follow one phase, so every clip has a time at
// every moment, weighted or not: a clip entering the blend continues from where the
// phase has carried it, and its first step sweeps from there. samples() lists only
// the clips with non-zero weight after the update, so a clip whose weight became
// zero in an update reports nothing for it (its markers are not heard).
//
// With BlendSync::Markers all clips cross their k-th marker in the same update (the
// one whose phase sweep reaches r_k, up to rounding in the last bits), so the
// markers of any one sample (e.g. the heaviest) stand for the blend.
class BlendSpacePlayer {
public:
    BlendSpacePlayer() = default;
    // Plays `space` (which must outlive the player) from phase 0, parameters (0, 0),
    // speed 1. Allocates its buffers here, never in update(). samples() starts as the
    // clips weighted at (0, 0) with steps of zero travel.
    explicit BlendSpacePlayer(const BlendSpace& space);
    BlendSpacePlayer(const BlendSpacePlayer&) = default;
    BlendSpacePlayer& operator=(const BlendSpacePlayer&) = default;
    // A player moved from is as one default-constructed: no space, no samples.
    BlendSpacePlayer(BlendSpacePlayer&& other) noexcept { takeFrom(other); }
    BlendSpacePlayer& operator=(BlendSpacePlayer&& other) noexcept {
        if (this != &other) takeFrom(other);
        return *this;
    }
    ~BlendSpacePlayer() = default;

    const BlendSpace* space() const noexcept { return space_; }

    // The parameter point (units of the clips' positions). Any finite values: the
    // weights are recomputed now (cycleDuration() follows at once; samples() at the
    // next update). Fails (NotFinite) and keeps the old point when either is not finite.
    Status setParameters(float x, float y = 0.0f) noexcept;
    float x() const noexcept { return x_; }
    float y() const noexcept { return y_; }
    // Every clip's current weight (clips().size() of them, zeros included).
    std::span<const float> weights() const noexcept { return weights_; }

    // Any finite value; negative plays backwards, 0 holds. A non-finite one fails
    // (NotFinite) and the old speed stays.
    Status setSpeed(double speed) noexcept;
    double speed() const noexcept { return speed_; }

    // The normalised phase in [0, 1) that all clips follow.
    double phase() const noexcept { return phase_; }
    // Jumps to `phase` (any finite value, wrapped into [0, 1)); the clips' times jump
    // with it and the next update sweeps from there. Announces nothing; samples()
    // still describe the last update. False (nothing changes) for a non-finite phase.
    Status seekPhase(double phase) noexcept;
    // A clip's current time in seconds, in [0, duration) (0 for an index out of range).
    double clipTime(std::size_t clip) const noexcept;

    // Seconds one phase cycle lasts at speed 1 and the current parameters: the
    // weighted mean of the clips' durations. 0 without a space.
    double cycleDuration() const noexcept;

    // Advances the phase by elapsed * speed() / cycleDuration() (wrapping), moves
    // every clip to its time at the new phase, and refills samples(). `elapsed` is
    // in seconds, finite and >= 0; otherwise returns an error message and changes
    // nothing. Without a space (or with an empty one) it does nothing. Each step's
    // `to` is the clip's time now, bit for bit the `from` of its next step; a step's
    // travel is zero for elapsed 0 or speed 0. Allocates nothing.
    Status update(double elapsed) noexcept;

    // After the last update: one sample per clip with non-zero weight, ordered by
    // clip index. The storage never moves after construction.
    std::span<const BlendSample> samples() const noexcept { return {samples_.data(), sampleCount_}; }

private:
    void refreshSamples(double travelPhase, double laps) noexcept;
    // Takes `other`'s space, state and buffers, leaving it default-constructed.
    void takeFrom(BlendSpacePlayer& other) noexcept;

    const BlendSpace* space_ = nullptr;
    float x_ = 0.0f;
    float y_ = 0.0f;
    double speed_ = 1.0;
    double phase_ = 0.0;
    std::vector<float> weights_;
    std::vector<double> times_;      // each clip's time, in [0, duration)
    std::vector<double> unwrapped_;  // the same, continuous over the phase cycle
    std::vector<BlendSample> samples_;
    std::size_t sampleCount_ = 0;
};

}  // namespace kinema
