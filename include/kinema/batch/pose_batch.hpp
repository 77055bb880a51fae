// kinema/batch: evaluating many instances of one skeleton in one call.
//
// A PoseBatch owns the per-instance outputs (local SoA pose unless
// BatchOptions::localPoses is off, model matrices, skin palette) and sampling state
// (a cursor per layer slot), all sized when it is made. evaluate() samples, blends, composes and builds palettes for every
// instance, split across threads with oneTBB. Instances share nothing writable,
// so there are no locks and the results are bit-for-bit the same whatever the
// thread count. After the first evaluation with a given set of clips, evaluate()
// allocates nothing.
//
// Per instance, in order: layer 0 is sampled, further layers are blended or added
// over it, an external pose (a ragdoll) is blended over the result, bone
// adjustments are applied, then the pose is composed and the palette built. Layers
// that carry a PlaybackStep also sweep their clip's markers during the same
// parallel pass; events() hands the crossings out afterwards, in a fixed order.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/asset/skeleton.hpp"
#include "kinema/math/mat4.hpp"
#include "kinema/play/player.hpp"
#include "kinema/runtime/bone_adjust.hpp"
#include "kinema/runtime/clip_time.hpp"
#include "kinema/runtime/joint_mask.hpp"
#include "kinema/runtime/packed_clip.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "kinema/runtime/soa_pose.hpp"

namespace kinema {

inline constexpr std::size_t kMaxBatchLayers = 4;

enum class LayerMode : std::uint8_t {
    Override,  // blend toward this layer's pose by weight (x mask)
    Additive,  // add this layer's difference from `reference` by weight (x mask)
};

// One clip playing on an instance. `time` is the playback time in seconds (mapped
// onto the clip with clipTime() and `loop`); `weight` in [0, 1] applies this layer
// over the layers before it (layer 0 is always taken at full weight, as an
// override). `mask` (optional) scales the weight per joint; `reference` is the pose
// an additive layer is measured against (null: the rest pose). Masks and
// references are shared, read-only, and must outlive the evaluation.
//
// Marker sweep (optional): when `markers` is set (the Clip `clip` was packed from:
// PackedClip keeps no markers; a different duration is refused), the markers
// `step` crossed under `playback` are reported by PoseBatch::events(), by the
// rules of markersCrossed() (player.hpp). `step` is what Player::update() returned
// for this frame, finite. A layer reports whatever its weight: what a faded-out
// layer's footstep means is the caller's to judge.
struct BatchLayer {
    const PackedClip* clip = nullptr;
    double time = 0.0;
    float weight = 1.0f;
    LoopMode loop = LoopMode::Loop;
    LayerMode mode = LayerMode::Override;
    const JointMask* mask = nullptr;
    const SoaPose* reference = nullptr;
    const Clip* markers = nullptr;
    PlaybackStep step{};
    PlaybackMode playback = PlaybackMode::Loop;
};

// What one instance plays in this evaluation. Everything pointed to is shared,
// read-only, and must outlive the evaluation.
struct BatchInput {
    std::array<BatchLayer, kMaxBatchLayers> layers{};
    std::uint32_t layerCount = 0;  // 0: the instance shows its rest pose
    // Blended over the layers by `externalWeight` in [0, 1] (times `externalMask`
    // per joint when given), joints only: see blendExternalPose() (play/
    // external_pose.hpp). Null: none. The pose has the skeleton's joint and morph
    // weight counts.
    const SoaPose* external = nullptr;
    float externalWeight = 0.0f;
    const JointMask* externalMask = nullptr;
    // Applied after the external pose and before composition (runtime/
    // bone_adjust.hpp), also when modelMatrices is off (local(i), where the batch
    // keeps local poses, holds the adjusted pose either way).
    std::span<const BoneAdjustment> adjustments{};
};

// One marker a layer's step crossed in the last evaluation.
struct BatchEvent {
    std::uint32_t instance = 0;
    std::uint32_t layer = 0;
    std::uint32_t marker = 0;    // index into clip->markers()
    const Clip* clip = nullptr;  // the layer's `markers` clip
    friend constexpr bool operator==(const BatchEvent&, const BatchEvent&) = default;
};

struct BatchOptions {
    std::size_t threads = 0;          // 0: as many as oneTBB's default arena has
    SimdLevel simd = bestSimdLevel();
    KernelMix kernels = KernelMix::Tuned;  // per-pass kernel choice (simd.hpp)
    bool modelMatrices = true;        // compose local -> model (needed for palettes)
    const Skin* skin = nullptr;       // build this skin's palette per instance (needs modelMatrices)
    std::size_t grainSize = 4;        // instances per task
    // Keep each instance's local pose for local(). False (with modelMatrices): each
    // thread evaluates in a scratch pose of its own, so that an evaluation writes
    // only model matrices and palettes; local() is then an empty pose. The outputs
    // are bit for bit the same either way.
    bool localPoses = true;
};

class PoseBatch {
public:
    PoseBatch(const Skeleton& skeleton, std::span<const float> restWeights, std::size_t instances,
              BatchOptions options = {});
    ~PoseBatch();
    PoseBatch(PoseBatch&&) noexcept;
    PoseBatch& operator=(PoseBatch&&) noexcept;

    std::size_t size() const noexcept { return instances_.size(); }
    std::size_t jointCount() const noexcept { return joints_; }
    std::size_t threadCount() const noexcept;
    const PoseKernels& kernels() const noexcept { return kernels_; }

    // Checks every input first (one per instance; clips fit the skeleton and weight
    // count; finite times and steps; weights in [0, 1]; external poses, masks and
    // references fit the skeleton; bone adjustments as checkBoneAdjustments) and
    // returns a message naming the first bad one without changing any instance or
    // the events; an empty string on success.
    std::string evaluate(std::span<const BatchInput> inputs);

    // Markers crossed in the last successful evaluate(), ordered by instance, then
    // layer, then the order the head met them: the same whatever the thread count.
    // Valid until the next evaluate(). Buffers are sized when a layer's marker clip
    // is first seen, so the steady state allocates nothing for them either.
    std::span<const BatchEvent> events() const noexcept { return events_; }

    // An empty pose (no joints) when the batch keeps no local poses (BatchOptions::localPoses).
    const SoaPose& local(std::size_t instance) const noexcept {
        return localPoses_ ? instances_[instance].pose : noPose_;
    }
    std::span<const Mat4> model(std::size_t instance) const noexcept;
    std::span<const Mat4> palette(std::size_t instance) const noexcept;

private:
    // A pose and the scratch for its further layers: per instance, or per thread
    // when the batch keeps no local poses.
    struct WorkPoses {
        SoaPose pose;
        SoaPose layer;  // a further layer is sampled here, then blended into `pose`
    };
    struct Instance : WorkPoses {
        std::array<PackedClipCursor, kMaxBatchLayers> cursors;
        std::vector<std::uint32_t> crossed;  // markersCrossed() output, the largest marker clip's size
        std::vector<BatchEvent> events;      // this evaluation's crossings, first `eventCount`
        std::size_t eventCount = 0;
    };
    void evaluateOne(std::size_t i, const BatchInput& input, std::size_t thread) noexcept;
    void sweepMarkers(std::size_t i, const BatchInput& input);

    std::size_t joints_ = 0;
    std::vector<std::int32_t> parents_;
    SoaPose rest_;
    std::vector<Instance> instances_;
    std::vector<WorkPoses> threadPoses_;  // one per arena slot, when !localPoses_
    SoaPose noPose_;
    std::vector<Mat4> model_;    // instance after instance, joints_ each
    std::vector<Mat4> palette_;  // instance after instance, skin joints each
    std::vector<BatchEvent> events_;
    const Skin* skin_ = nullptr;
    bool modelMatrices_ = true;
    bool localPoses_ = true;
    std::size_t grain_ = 4;
    PoseKernels kernels_;
    struct Arena;
    std::unique_ptr<Arena> arena_;
};

}  // namespace kinema
