// kinema/runtime: evaluating one animated instance from a plain request.
//
// This is the one seam between control (play/: players, crossfades, blend spaces,
// state machines, layer stacks fill requests) and evaluation. A request names up
// to kMaxLayers clip layers, an external pose and bone adjustments; evaluate()
// turns it into a pose, model matrices and skin palettes:
//
//   sample layer 0 -> blend or add layers 1.. (weight x mask) -> root anchor ->
//   blend the external pose -> bone adjustments -> IK tasks -> local to model ->
//   one palette per skin
//
// and sweeps each layer's markers over the step its head took (marker_sweep.hpp).
// An InstanceEvaluator holds what every instance of one skeleton shares (parents,
// rest pose, skins, kernels); an InstanceState holds what one instance keeps
// between frames (sampling cursors, marker buffers). PoseBatch (batch/) runs the
// same evaluate() over many instances in parallel; one character needs nothing
// more than an evaluator and a state.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/asset/skeleton.hpp"
#include "kinema/core/result.hpp"
#include "kinema/core/status.hpp"
#include "kinema/math/mat4.hpp"
#include "kinema/math/transform.hpp"
#include "kinema/runtime/bone_adjust.hpp"
#include "kinema/runtime/clip_time.hpp"
#include "kinema/runtime/ik.hpp"
#include "kinema/runtime/joint_mask.hpp"
#include "kinema/runtime/marker_sweep.hpp"
#include "kinema/runtime/packed_clip.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "kinema/runtime/soa_pose.hpp"

namespace kinema {

inline constexpr std::size_t kMaxLayers = 4;

enum class LayerMode : std::uint8_t {
    Override,  // blend toward this layer's pose by weight (x mask)
    Additive,  // add this layer's difference from `reference` by weight (x mask)
};

// One clip playing on an instance. `time` is the head's position (seconds, finite),
// mapped onto the clip by clipTime(time, duration, loop); `weight` in [0, 1]
// applies this layer over the layers before it (layer 0 is always taken whole, as
// an override). `mask` (optional) scales the weight per joint; `reference` is the
// pose an additive layer is measured against (null: the rest pose).
//
// Marker sweep (optional): with `sweep` set, the markers of `clip` that `step`
// crossed under `loop` are reported (InstanceState::events()), by the rules of
// markersCrossed(). `step` is what the head's last update returned (a Player's, or
// {previous time, time, time - previous} of the caller's own clock). A layer reports whatever its weight: what a faded-out
// layer's footstep means is the caller's to judge.
struct LayerRequest {
    const PackedClip* clip = nullptr;
    double time = 0.0;
    float weight = 1.0f;
    LoopMode loop = LoopMode::Loop;
    LayerMode mode = LayerMode::Override;
    const JointMask* mask = nullptr;
    const SoaPose* reference = nullptr;
    bool sweep = false;
    PlaybackStep step{};
};

// How much of the root's rotation root motion takes (RootAnchor, RootMotionMask).
enum class RootRotation : std::uint8_t {
    None,     // all of it stays in the pose
    Heading,  // its turn about the up axis (where the character faces); tilts and
              // rolls stay in the pose (twistAbout, math/quat.hpp)
    Full,     // all of it
};

// Root motion extraction on the pose: the flagged parts of `joint`'s local
// transform (translation components in its parent's frame, the rotation as
// `rotation` says, about `up` in that frame) are replaced by `value`'s after the
// layers are blended, so a clip that travels plays in place while the game moves the
// character by the root delta (play/root_motion.hpp: RootMotion::start() is the
// usual value, the flags those of its RootMotionMask). With Heading, the pose's
// turn about `up` is replaced by the value's and its tilt kept.
struct RootAnchor {
    std::uint32_t joint = 0;
    bool x = true, y = false, z = true;
    RootRotation rotation = RootRotation::Heading;
    Vec3 up{0.0f, 1.0f, 0.0f};  // finite, non-zero; its length does not matter
    Transform value{};
};

// `posed` (the joint's local transform) with the anchor's flagged parts replaced.
// The anchor is one evaluate() accepts; `posed` has a non-zero rotation.
Transform anchoredTransform(const RootAnchor& anchor, const Transform& posed) noexcept;

// What one instance shows in this evaluation. Everything pointed to is shared,
// read-only, and must outlive the evaluation.
struct InstanceRequest {
    std::array<LayerRequest, kMaxLayers> layers{};
    std::uint32_t layerCount = 0;  // 0: the instance shows its rest pose
    // Blended over the layers by `externalWeight` in [0, 1] (times `externalMask`
    // per joint when given), joints only: see blendExternalPose() (external_pose.hpp).
    // Null: none. The pose has the skeleton's joint and morph weight counts.
    const SoaPose* external = nullptr;
    float externalWeight = 0.0f;
    const JointMask* externalMask = nullptr;
    // Applied to the blended layers, before the external pose (see RootAnchor).
    std::optional<RootAnchor> rootAnchor{};
    // Applied after the external pose and before composition (bone_adjust.hpp).
    std::span<const BoneAdjustment> adjustments{};
    // Solved after the adjustments, in list order, before the final composition
    // (ik.hpp); each task's outcome is in InstanceState::ikOutcomes().
    std::span<const IkTask> ik{};
};

// One marker a layer's step crossed.
struct MarkerEvent {
    std::uint32_t layer = 0;
    std::uint32_t marker = 0;          // index into clip->markers()
    const PackedClip* clip = nullptr;  // the layer's clip
    friend constexpr bool operator==(const MarkerEvent&, const MarkerEvent&) = default;
};

struct EvaluatorOptions {
    SimdLevel simd = bestSimdLevel();
    KernelMix kernels = KernelMix::Tuned;  // per-pass kernel choice (simd.hpp)
    bool modelMatrices = true;             // compose local -> model (needed for palettes)
    // A palette per skin, skin after skin (Model::skins, for instance). Each skin's
    // joints index this skeleton and it has one inverse bind matrix per joint. The
    // skins must outlive the evaluator.
    std::span<const Skin> skins{};
    // The user curves to blend (CurveTrack::name), one output value each, in this
    // order (InstanceState::curves()). Each layer moves every curve toward its
    // clip's value as it moves the pose, by the layer's weight (joint masks do not
    // apply: a curve is no joint); a clip without a curve of that name gives it 0;
    // an additive layer adds weight x its clip's value. Names must be unique.
    std::span<const std::string> curves{};
};

// The two poses an evaluation works in: the result, and the scratch a further
// layer is sampled into before it is blended. Per instance, or per thread when
// the caller keeps no local poses.
struct WorkPoses {
    SoaPose pose;
    SoaPose layer;
};

class InstanceEvaluator;

// How many instances' IK tasks InstanceEvaluator::evaluateGroup solves side by side.
inline constexpr std::size_t kIkGroup = 16;

// What one instance keeps between evaluations: a sampling cursor per layer and the
// marker buffers. Buffers grow when a larger clip first appears, like a cursor
// binding; after that an evaluation allocates nothing.
class InstanceState {
public:
    InstanceState() = default;
    InstanceState(const InstanceState&) = default;
    InstanceState& operator=(const InstanceState&) = default;
    // A state moved from reports no events, outcomes or curves, and its next
    // evaluation binds its clips afresh.
    InstanceState(InstanceState&& other) noexcept;
    InstanceState& operator=(InstanceState&& other) noexcept;
    ~InstanceState() = default;

    // Markers crossed in the last evaluation, by layer, then in the order the head
    // met them.
    std::span<const MarkerEvent> events() const noexcept { return {events_.data(), eventCount_}; }
    // The most events one evaluation can report with the clips seen so far.
    std::size_t eventBound() const noexcept { return events_.size(); }
    // One outcome per IK task of the last evaluation's request, in its order.
    std::span<const IkOutcome> ikOutcomes() const noexcept { return {ikOutcomes_.data(), ikCount_}; }
    // The blended user curves of the last evaluation, in EvaluatorOptions::curves order.
    std::span<const float> curves() const noexcept { return {curves_.data(), curveCount_}; }

private:
    friend class InstanceEvaluator;
    void forgetMoved() noexcept;  // what a move leaves behind
    std::array<PackedClipCursor, kMaxLayers> cursors_;
    std::vector<std::uint32_t> crossed_;  // markersCrossed() output, the largest clip's marker count
    std::vector<MarkerEvent> events_;
    std::size_t eventCount_ = 0;
    std::vector<IkOutcome> ikOutcomes_;  // grows to the most tasks a request has had
    std::size_t ikCount_ = 0;
    std::vector<float> curves_;
    std::vector<float> curveLayer_;  // one layer's curve values, before blending
    std::size_t curveCount_ = 0;
    // Per layer: the clip whose curves were last mapped, its curve names' fingerprint,
    // and each of its curves' output (-1: not asked for).
    std::array<const PackedClip*, kMaxLayers> curveClips_{};
    std::array<std::uint64_t, kMaxLayers> curveNames_{};
    std::array<std::vector<std::int32_t>, kMaxLayers> curveOutputs_;
};

class InstanceEvaluator {
public:
    InstanceEvaluator() = default;
    // Faults: a skin made for another skeleton (by fingerprint, or joints past the
    // end), one without an inverse bind matrix per joint, skins without model
    // matrices, a rest weight that is not finite.
    static Result<InstanceEvaluator> create(const Skeleton& skeleton, std::span<const float> restWeights,
                                            EvaluatorOptions options = {});

    std::size_t jointCount() const noexcept { return parents_.size(); }
    std::size_t weightCount() const noexcept { return rest_.weights().size(); }
    std::span<const std::string> curveNames() const noexcept { return curveNames_; }
    std::span<const std::int32_t> parents() const noexcept { return parents_; }
    const SoaPose& restPose() const noexcept { return rest_; }
    const PoseKernels& kernels() const noexcept { return kernels_; }
    bool modelMatrices() const noexcept { return modelMatrices_; }
    std::span<const Skin> skins() const noexcept { return skins_; }
    // Matrices of all palettes together, and where skin k's palette starts among them.
    std::size_t paletteSize() const noexcept { return paletteOffsets_.empty() ? 0 : paletteOffsets_.back(); }
    // (paletteSize() for a skin past the last.)
    std::size_t paletteOffset(std::size_t skin) const noexcept {
        return skin < paletteOffsets_.size() ? paletteOffsets_[skin] : paletteSize();
    }

    // Two rest poses of this skeleton, to evaluate in.
    WorkPoses makeWorkPoses() const { return {rest_, rest_}; }

    // Whether `request` can be evaluated: at most kMaxLayers layers, each with a
    // clip made for this skeleton (ForeignInput: see Clip::skeletonFingerprint and
    // bindClip) that fits it, a finite time, a weight in [0, 1], a mask and a
    // reference of this skeleton, a finite step when it sweeps; an external pose
    // and mask that fit, its weight in [0, 1]; a root anchor on a joint of the
    // skeleton with a finite value and a non-zero rotation; bone adjustments as
    // checkBoneAdjustments(), IK tasks as checkIkTasks(). The failure names the layer
    // (Status::layer) or the entry (Status::index). Allocates nothing.
    Status check(const InstanceRequest& request) const noexcept;

    // Evaluates a request check() accepted: `work.pose` ends up holding the local
    // pose (after the external pose, adjustments and IK), `model` (jointCount()
    // matrices, when modelMatrices()) the composed pose, `palettes` (paletteSize()
    // matrices) every skin's palette, `state` the markers crossed and the IK
    // outcomes and the blended curves. Allocates only when a request has more IK
    // tasks than any before, when a clip with more timelines than any before
    // appears on any layer, when the layers' marker counts add up to more than
    // before, or when a layer's clip with curves changes. WrongCount, and
    // nothing written, when `work` holds poses of another joint or weight count
    // (makeWorkPoses() makes them) or `model` or `palettes` is too short.
    Status evaluate(const InstanceRequest& request, InstanceState& state, WorkPoses& work, std::span<Mat4> model,
                    std::span<Mat4> palettes) const;

    // evaluate() for requests[k], states[k], work[k], model matrices k * jointCount()
    // onward and palettes k * paletteSize() onward, for every k: the same results,
    // with the two-bone and aim IK tasks that several requests hold at the same
    // position on the same joints solved side by side, kIkGroup at a time, in SIMD
    // lanes (docs/IK.md).
    // PoseBatch evaluates its instances with IK tasks this way. WrongCount, and
    // nothing written, as evaluate() or when the three lists differ in length.
    Status evaluateGroup(std::span<const InstanceRequest> requests, std::span<InstanceState> states,
                         std::span<WorkPoses> work, std::span<Mat4> model, std::span<Mat4> palettes) const;

    // Whether `mask` may be used on this skeleton: as many joints, and made for it
    // (or for no skeleton in particular).
    bool fits(const JointMask& mask) const noexcept;

private:
    // Sample, blend, anchor, external pose, adjustments: `work.pose` before IK.
    void blendPose(const InstanceRequest& request, InstanceState& state, WorkPoses& work) const;
    void solveIk(std::span<const InstanceRequest> requests, std::span<InstanceState> states,
                 std::span<WorkPoses> work) const;
    void sweepMarkers(const InstanceRequest& request, InstanceState& state) const;
    void blendCurves(const InstanceRequest& request, InstanceState& state) const;

    std::vector<std::int32_t> parents_;
    std::vector<std::string> curveNames_;
    std::uint64_t skeleton_ = 0;  // Skeleton::fingerprint()
    SoaPose rest_;
    PoseKernels kernels_;
    bool modelMatrices_ = true;
    std::span<const Skin> skins_;
    std::vector<std::size_t> paletteOffsets_;  // skins_.size() + 1 entries
};

}  // namespace kinema
