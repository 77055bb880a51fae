// kinema/asset: a Clip is reusable keyframe data (never a playback head).
// Each Track animates one property of one joint with its own key times and
// interpolation, exactly as a glTF animation channel + sampler does.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kinema/core/result.hpp"

namespace kinema {

class Skeleton;

enum class TrackPath : std::uint8_t { Translation, Rotation, Scale, Weights };
enum class Interpolation : std::uint8_t { Step, Linear, CubicSpline };

// Stable lower-case names as glTF spells them ("translation", "LINEAR", ...).
std::string_view toString(TrackPath path) noexcept;
std::string_view toString(Interpolation interpolation) noexcept;

struct Track {
    std::uint32_t target = 0;  // joint index in the skeleton the clip plays on
    TrackPath path = TrackPath::Translation;
    Interpolation interpolation = Interpolation::Linear;
    // Floats per value: 3 for translation and scale, 4 for rotation (x, y, z, w),
    // the morph target count for weights.
    std::uint32_t width = 3;
    // Weights only: index of this joint's first morph weight in the flat weight
    // array of a pose (see Model::weightOffsetOfJoint).
    std::uint32_t weightOffset = 0;
    std::vector<float> times;  // seconds; first >= 0; strictly increasing
    // keys * width floats, or for CUBICSPLINE keys * 3 * width laid out per key as
    // in-tangents, values, out-tangents (glTF's layout, also for weights).
    std::vector<float> values;

    std::size_t keyCount() const noexcept { return times.size(); }
};

// A named instant on a clip's timeline (footstep, hit frame, sync point).
struct Marker {
    std::string name;
    float time = 0.0f;  // seconds, finite, >= 0
};

// A user curve: a named float over the clip's timeline that is not a joint's
// property (a foot-IK weight, a blink, a footstep loudness). The evaluation blends
// curves of the same name across layers as it blends the pose.
struct CurveTrack {
    std::string name;                                     // non-empty, unique within a clip
    std::vector<float> times;                             // seconds; at least one; first >= 0; strictly increasing
    std::vector<float> values;                            // one per key, finite
    Interpolation interpolation = Interpolation::Linear;  // Step or Linear
};

// The curve's value at `time` seconds: held at its first and last keys outside
// them, linear or stepped between. `curve` must have been accepted by a Clip.
float sampleCurve(const CurveTrack& curve, double time) noexcept;

class Clip {
public:
    Clip() = default;

    // Validates every track (non-empty, finite strictly increasing times from >= 0,
    // value count matching keys * width (* 3 for cubic), finite values, rotation
    // values non-zero and then normalised, cubic needs >= 2 keys, no two tracks on
    // one (target, path)) and every marker (finite, >= 0). Markers are kept sorted
    // by time. Faults are located as "tracks/<i>/<field>" or "markers/<i>".
    //
    // `jointNames` (optional) names the joints of the skeleton the tracks were made
    // for, by joint index (at least jointsNeeded() of them; unnamed joints are empty
    // strings): then the clip is evaluated only on a skeleton of exactly those
    // names (skeletonFingerprint()), and bindClip() retargets it onto another by
    // name. Without names the clip binds by index (it fits any skeleton that has
    // the joints and weights it needs).
    // The names are shared, not copied: every clip of one file points at one list.
    static Result<Clip> create(std::string name, std::vector<Track> tracks, std::vector<Marker> markers = {},
                               std::shared_ptr<const std::vector<std::string>> jointNames = nullptr);

    std::string_view name() const noexcept { return name_; }
    // The same clip (tracks, joint names, curves, length) with `markers` instead of
    // its own; faults as create() gives for markers ("markers/<i>"), and a marker
    // past duration() (it would never be crossed).
    Result<Clip> withMarkers(std::vector<Marker> markers) const;
    // The same clip with `curves` instead of its own. Faults, at "curves/<i>": an
    // empty or repeated name, no key, times not finite, negative or not strictly
    // increasing, a value count other than the key count, a value not finite, an
    // interpolation other than Step or Linear, a last key past the clip's length()
    // (at "curves/<i>/times/<k>"); at "curves", curves that end the clip before a
    // marker that lay within it.
    Result<Clip> withCurves(std::vector<CurveTrack> curves) const;
    // The same clip held open until `seconds`: duration() becomes `seconds`, so a
    // loop wraps there and markers up to it are swept, while the pose holds the
    // values of the last keys past them. Faults ("length"): not finite, shorter
    // than the last key of any track or curve, or before the last marker.
    Result<Clip> withLength(float seconds) const;
    std::span<const Track> tracks() const noexcept { return tracks_; }
    std::span<const Marker> markers() const noexcept { return markers_; }
    std::span<const CurveTrack> curves() const noexcept { return curves_; }
    // The length given by withLength(), or 0 when the keys decide the duration.
    float length() const noexcept { return length_; }
    std::span<const std::string> jointNames() const noexcept {
        return jointNames_ ? std::span<const std::string>(*jointNames_) : std::span<const std::string>{};
    }
    // jointNamesFingerprint(jointNames()), or 0 for a clip without joint names.
    std::uint64_t skeletonFingerprint() const noexcept { return skeleton_; }
    // The last key time over all tracks and curves (0 for a clip without keys), or
    // the length when one is given. The clip is immutable after creation.
    float duration() const noexcept { return duration_; }
    // One past the highest joint any track targets: a pose needs at least this many joints.
    std::size_t jointsNeeded() const noexcept { return jointsNeeded_; }
    // One past the highest morph weight any weights track writes.
    std::size_t weightsNeeded() const noexcept { return weightsNeeded_; }

private:
    std::string name_;
    std::vector<Track> tracks_;
    std::vector<Marker> markers_;
    std::vector<CurveTrack> curves_;
    std::shared_ptr<const std::vector<std::string>> jointNames_;
    float keysDuration_ = 0.0f;  // the last key over tracks and curves
    float length_ = 0.0f;
    std::uint64_t skeleton_ = 0;
    float duration_ = 0.0f;
    std::size_t jointsNeeded_ = 0;
    std::size_t weightsNeeded_ = 0;
};

// `clip` retargeted onto `skeleton` by joint name: each track moves to the (first)
// joint of its name, tracks on unnamed joints or joints the skeleton lacks are
// left out (one warning each,
// "tracks/<i>"), and the result carries the skeleton's names. Morph weight tracks
// keep their weight offsets, so they survive only on joints that keep their index.
// Faults: a clip without joint names (there is nothing to bind by), or one that
// animates none of the skeleton's joints (it was made for another skeleton).
Result<Clip> bindClip(const Clip& clip, const Skeleton& skeleton);

// Faults where `clip` does not fit `skeleton` and a weight array of `weightCount`
// floats: a target outside the joint table, weights past the array's end.
std::vector<Fault> findClipFaults(const Clip& clip, const Skeleton& skeleton, std::size_t weightCount);

}  // namespace kinema
