// kinema/asset: retargeting. A clip authored on one skeleton becomes a clip for
// another skeleton with other proportions, other rest poses or other joint names.
// It is done once, offline (when a clip is bound to a character), never per frame:
// the result is an ordinary Clip for the target skeleton (docs/RETARGETING.md).
//
// What is transferred, per target joint driven by a source joint:
// - rotation, relative to the rest poses in model space: the source joint's
//   model-space change from its rest, delta(t) = Qsrc_model(t) * inverse(Qsrc_rest_model),
//   is applied to the target joint's model-space rest, Qtgt_model(t) = delta(t) *
//   Qtgt_rest_model, and turned back into a local rotation through the target
//   parent's animated model rotation. A joint whose local axes differ (an A-pose
//   against a T-pose, bones along another axis) still moves the same way in model
//   space. Model rotations are products of local rotations (scale is not part of them);
// - translation of the reference (hips) joint and of every driven joint with no
//   carried, moving translation above it (the root motion; the hips under still
//   armature nodes), as the same model-space offset scaled by a length ratio; every
//   other joint keeps the target's rest translation (the proportions belong to the
//   target; a warning names each whose source translation moves) unless
//   TranslationTransfer::All;
// - scale tracks, unchanged, onto the driven joint;
// - morph weight tracks where the driven joint has the source joint's index (the
//   weight offsets index the source model's weight array); others are left out with a
//   warning, as bindClip does.
// A target joint no source joint drives keeps its rest local transform.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kinema/asset/clip.hpp"
#include "kinema/asset/skeleton.hpp"
#include "kinema/core/result.hpp"
#include "kinema/math/vec3.hpp"

namespace kinema {

// The source joint named `source` drives the target joint named `target`.
struct JointPair {
    std::string source;
    std::string target;
};

// Which joints correspond, and which pair measures the translation ratio.
struct RetargetMap {
    // Empty: every target joint with a name is driven by the first source joint of the
    // same name, and one without a name by the unnamed source joint of its index where
    // both skeletons are one hierarchy (the same parent, joint for joint). Otherwise
    // exactly these pairs: a name the skeleton lacks, a source
    // named twice or a target named twice is a fault naming the entry ("map/joints/<i>").
    std::vector<JointPair> joints;
    // The hips (pelvis) joint of each skeleton: the ratio of their rest heights scales
    // translations. One may be left empty: its counterpart through the map is used.
    // Both empty: no measured ratio (1, or RetargetOptions::translationScale).
    std::string sourceReference;
    std::string targetReference;
    // Where the map was read from (a file name, as loadJointMapFile sets it), or
    // empty. Given, faults about an entry name its place in that file as a JSON
    // pointer ("rig.json#/joints/mixamorig:Hips", "rig.json#/reference/source")
    // instead of "map/joints/<i>/source" or "map/sourceReference".
    std::string origin;
};

enum class TranslationTransfer : std::uint8_t {
    // The reference joint and the driven joints with no carried, moving translation
    // above them take the source's animated translation, scaled; the rest keep the
    // target's rest translation.
    Root,
    // Every driven joint whose source joint has a translation track takes it, scaled.
    All,
};

struct RetargetOptions {
    RetargetMap map;
    // The factor translations are scaled by. 0: measured as target reference height /
    // source reference height (1 without reference joints). Else finite and > 0.
    float translationScale = 0.0f;
    // Heights are measured along this model-space direction (glTF: +Y up). Finite, non-zero.
    Vec3 up{0.0f, 1.0f, 0.0f};
    TranslationTransfer translations = TranslationTransfer::Root;
    // Hz. Tracks that cannot be carried key for key (see below) are resampled on the
    // union of the key times they depend on, with extra samples so that no interval
    // is longer than 1 / sampleRate seconds. 0: the union of key times only.
    // Finite and >= 0, and at most 100,000 samples over the clip's length.
    float sampleRate = 60.0f;
};

// What a correspondence leaves out, by name, in skeleton order.
struct RetargetReport {
    std::vector<std::string> unmappedSource;  // source joints the clip animates that drive no target joint
    std::vector<std::string> unmappedTarget;  // target joints no source joint drives
    // The same joints by index, in the same order (a joint of no name shows as "").
    std::vector<std::uint32_t> unmappedSourceJoints;
    std::vector<std::uint32_t> unmappedTargetJoints;
};

// The unmapped joints of `map` for `clip` (made for `source`) and `target`, without
// retargeting anything. Faults: those of the map (as retargetClip gives them: its
// joint pairs and its reference joints) and a clip that does not fit `source`.
Result<RetargetReport> checkRetarget(const Clip& clip, const Skeleton& source, const Skeleton& target,
                                     const RetargetMap& map);

// The factor translations are scaled by (see RetargetOptions::translationScale).
// Faults: "translationScale" not finite or negative, "up" zero or not finite, a
// reference joint that is missing or unmapped ("map/sourceReference",
// "map/targetReference"), a reference joint whose rest height is not > 0.
Result<float> retargetTranslationScale(const Skeleton& source, const Skeleton& target, const RetargetOptions& options);

// `clip`, made for `source` (its joint names, when it has them, must be the source's:
// bindClip it first otherwise; without names its targets index `source`), as a clip
// for `target`: it carries the target's joint names, keeps its name and markers.
//
// Key times: a track is carried key for key (same times, same interpolation, values
// and CUBICSPLINE tangents mapped by a constant rotation or linear map) when nothing
// between the driving joints animates, which holds whenever the driven joints keep
// the source's parent relations; the result then equals the source's model-space
// motion at every time, not only at keys. Otherwise (the target lacks or adds an
// animated joint in between, or a parent maps to a non-ancestor) the track is
// resampled: exact at the union of the key times it depends on, LINEAR in between
// (STEP when all of those are STEP; a STEP jump is kept by a sample just before it).
//
// Warnings ("tracks/<i>"): a track on a source joint that drives no target joint, a
// weights track whose joint changes index, a moving translation left to the target's
// rest. Faults: those of checkRetarget and retargetTranslationScale, a negative or
// non-finite sampleRate or one giving more than 100,000 samples over the clip, a
// clip none of whose animated joints drives a target joint ("map/joints").
Result<Clip> retargetClip(const Clip& clip, const Skeleton& source, const Skeleton& target,
                          const RetargetOptions& options = {});

}  // namespace kinema
