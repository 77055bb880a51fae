#include "kinema/batch/pose_batch.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "kinema/play/external_pose.hpp"

namespace kinema {

struct PoseBatch::Arena {
    tbb::task_arena arena;
};

PoseBatch::PoseBatch(const Skeleton& skeleton, std::span<const float> restWeights, std::size_t instances,
                     BatchOptions options)
    : joints_(skeleton.jointCount()),
      parents_(skeleton.parents().begin(), skeleton.parents().end()),
      rest_(skeleton.restPose(), restWeights),
      skin_(options.modelMatrices ? options.skin : nullptr),
      modelMatrices_(options.modelMatrices),
      localPoses_(options.localPoses || !options.modelMatrices),
      grain_(options.grainSize == 0 ? 1 : options.grainSize),
      kernels_(options.simd, options.kernels),
      arena_(std::make_unique<Arena>()) {
    instances_.resize(instances);
    if (modelMatrices_) model_.resize(instances * joints_);
    if (skin_ != nullptr) palette_.resize(instances * skin_->joints.size());
    if (options.threads == 0) {
        arena_->arena.initialize();
    } else {
        arena_->arena.initialize(static_cast<int>(options.threads));
    }
    if (!localPoses_) {
        threadPoses_.resize(static_cast<std::size_t>(arena_->arena.max_concurrency()));
        for (WorkPoses& w : threadPoses_) w = {rest_, rest_};
        return;
    }
    // All poses first, then all layer poses: allocated in that order, the poses that
    // every evaluation writes lie next to each other, not between layer buffers that
    // most evaluations never touch.
    for (Instance& inst : instances_) inst.pose = rest_;
    for (Instance& inst : instances_) inst.layer = rest_;
}

PoseBatch::~PoseBatch() = default;
PoseBatch::PoseBatch(PoseBatch&&) noexcept = default;
PoseBatch& PoseBatch::operator=(PoseBatch&&) noexcept = default;

std::size_t PoseBatch::threadCount() const noexcept {
    return static_cast<std::size_t>(arena_->arena.max_concurrency());
}

std::span<const Mat4> PoseBatch::model(std::size_t instance) const noexcept {
    if (!modelMatrices_) return {};
    return {model_.data() + instance * joints_, joints_};
}

std::span<const Mat4> PoseBatch::palette(std::size_t instance) const noexcept {
    if (skin_ == nullptr) return {};
    const std::size_t n = skin_->joints.size();
    return {palette_.data() + instance * n, n};
}

std::string PoseBatch::evaluate(std::span<const BatchInput> inputs) {
    if (inputs.size() != instances_.size()) {
        return "batch: " + std::to_string(inputs.size()) + " inputs for " + std::to_string(instances_.size()) +
               " instances";
    }
    if (skin_ != nullptr) {
        if (skin_->inverseBindMatrices.size() < skin_->joints.size()) {
            return "batch: the skin has " + std::to_string(skin_->inverseBindMatrices.size()) +
                   " inverse bind matrices for " + std::to_string(skin_->joints.size()) + " joints";
        }
        for (const std::uint32_t j : skin_->joints) {
            if (j >= joints_) return "batch: skin joint " + std::to_string(j) + " outside the skeleton";
        }
    }
    const std::size_t weights = rest_.weights().size();
    bool anyMarkers = false;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const BatchInput& in = inputs[i];
        const auto where = [&](std::size_t l) {
            return "batch: instance " + std::to_string(i) + " layer " + std::to_string(l) + ": ";
        };
        if (in.layerCount > kMaxBatchLayers) {
            return "batch: instance " + std::to_string(i) + ": " + std::to_string(in.layerCount) +
                   " layers, at most " + std::to_string(kMaxBatchLayers);
        }
        for (std::size_t l = 0; l < in.layerCount; ++l) {
            const BatchLayer& layer = in.layers[l];
            if (layer.clip == nullptr) return where(l) + "no clip";
            if (layer.clip->jointsNeeded() > joints_ || layer.clip->weightsNeeded() > weights) {
                return where(l) + "clip needs " + std::to_string(layer.clip->jointsNeeded()) + " joints and " +
                       std::to_string(layer.clip->weightsNeeded()) + " weights, the skeleton has " +
                       std::to_string(joints_) + " and " + std::to_string(weights);
            }
            if (!std::isfinite(layer.time)) return where(l) + "time is not finite";
            if (!(layer.weight >= 0.0f && layer.weight <= 1.0f)) return where(l) + "weight outside [0, 1]";
            if (layer.mask != nullptr && layer.mask->jointCount() != joints_) {
                return where(l) + "mask has " + std::to_string(layer.mask->jointCount()) + " joints, the skeleton " +
                       std::to_string(joints_);
            }
            if (layer.reference != nullptr &&
                (layer.reference->jointCount() != joints_ || layer.reference->weights().size() != weights)) {
                return where(l) + "reference pose does not fit the skeleton";
            }
            if (layer.markers != nullptr) {
                // PackedClip keeps no markers, so the pairing is the caller's; a
                // different duration means the step's coordinate is another clip's.
                if (layer.markers->duration() != layer.clip->duration()) {
                    return where(l) + "markers clip lasts " + std::to_string(layer.markers->duration()) +
                           " s, the layer's clip " + std::to_string(layer.clip->duration()) + " s";
                }
                const PlaybackStep& s = layer.step;
                if (!std::isfinite(s.from) || !std::isfinite(s.to) || !std::isfinite(s.travel)) {
                    return where(l) + "playback step is not finite";
                }
                anyMarkers = true;
            }
        }
        const auto at = [&] { return "batch: instance " + std::to_string(i) + ": "; };
        if (in.external != nullptr) {
            if (in.external->jointCount() != joints_ || in.external->weights().size() != weights) {
                return at() + "external pose does not fit the skeleton";
            }
            if (!(in.externalWeight >= 0.0f && in.externalWeight <= 1.0f)) {
                return at() + "external pose weight outside [0, 1]";
            }
            if (in.externalMask != nullptr && in.externalMask->jointCount() != joints_) {
                return at() + "external pose mask has " + std::to_string(in.externalMask->jointCount()) +
                       " joints, the skeleton " + std::to_string(joints_);
            }
        }
        if (std::string error = checkBoneAdjustments(in.adjustments, joints_); !error.empty()) return at() + error;
    }
    if (arena_->arena.max_concurrency() == 1) {
        // One thread: the same per-instance work without the arena and its tasks,
        // which cost W1a (256 instances of 64 joints) about 5 %.
        for (std::size_t i = 0; i < inputs.size(); ++i) evaluateOne(i, inputs[i], 0);
    } else {
        arena_->arena.execute([&] {
            tbb::parallel_for(
                tbb::blocked_range<std::size_t>(0, inputs.size(), grain_),
                [&](const tbb::blocked_range<std::size_t>& range) {
                    // The arena's slot of this thread, in [0, max_concurrency).
                    const auto thread = static_cast<std::size_t>(tbb::this_task_arena::current_thread_index());
                    for (std::size_t i = range.begin(); i != range.end(); ++i) evaluateOne(i, inputs[i], thread);
                },
                tbb::simple_partitioner());
        });
    }
    events_.clear();
    if (anyMarkers) {
        // Serial and in instance order, so the list does not depend on which
        // thread evaluated what. Reserved to the sum of the per-instance buffers,
        // which only grow when a larger marker clip appears.
        std::size_t capacity = 0;
        for (const Instance& inst : instances_) capacity += inst.events.size();
        if (events_.capacity() < capacity) events_.reserve(capacity);
        for (const Instance& inst : instances_) {
            events_.insert(events_.end(), inst.events.begin(),
                           inst.events.begin() + static_cast<std::ptrdiff_t>(inst.eventCount));
        }
    }
    return {};
}

void PoseBatch::evaluateOne(std::size_t i, const BatchInput& input, std::size_t thread) noexcept {
    Instance& inst = instances_[i];
    // A thread's scratch holds the previous instance's pose: every path below
    // writes the whole pose before reading it (a clip that does not cover it starts
    // from the rest pose), so nothing of that instance shows through.
    WorkPoses& work = localPoses_ ? static_cast<WorkPoses&>(inst) : threadPoses_[thread];
    const std::size_t weights = rest_.weights().size();
    if (input.layerCount == 0) work.pose.assign(rest_);
    sweepMarkers(i, input);
    for (std::uint32_t l = 0; l < input.layerCount; ++l) {
        const BatchLayer& layer = input.layers[l];
        const PackedClip& clip = *layer.clip;
        PackedClipCursor& cursor = inst.cursors[l];
        if (!cursor.isBoundTo(clip)) cursor.bind(clip);  // allocates only for a clip with more timelines
        const float t = clipTime(layer.time, clip.duration(), layer.loop);
        const bool covers = clip.coversPose(joints_, weights);
        if (l != 0 && layer.mode != LayerMode::Additive && covers) {
            // An override layer over the whole pose: sampled straight over it.
            kernels_.sampleOver(clip, t, cursor, layer.weight, layer.mask, work.pose);
            continue;
        }
        SoaPose& target = l == 0 ? work.pose : work.layer;
        if (!covers) target.assign(rest_);
        kernels_.sample(clip, t, cursor, target);
        if (l == 0) continue;
        if (layer.mode == LayerMode::Additive) {
            kernels_.add(work.pose, work.layer, layer.reference != nullptr ? *layer.reference : rest_, layer.weight,
                         layer.mask, work.pose);
        } else if (layer.mask != nullptr) {
            kernels_.blend(work.pose, work.layer, layer.weight, *layer.mask, work.pose);
        } else {
            kernels_.blend(work.pose, work.layer, layer.weight, work.pose);
        }
    }
    if (input.external != nullptr && input.externalWeight > 0.0f) {
        // The layer scratch is free now; blending into it and swapping keeps the
        // animated morph weights without a copy of them.
        blendExternalPose(kernels_, work.pose, *input.external, input.externalWeight, input.externalMask, work.layer);
        std::swap(work.pose, work.layer);
    }
    if (!input.adjustments.empty()) applyBoneAdjustments(parents_, work.pose, input.adjustments);
    if (!modelMatrices_) return;
    const std::span<Mat4> model{model_.data() + i * joints_, joints_};
    kernels_.localToModel(parents_, work.pose, model);
    if (skin_ == nullptr) return;
    const std::size_t n = skin_->joints.size();
    kernels_.skinPalette(*skin_, model, {palette_.data() + i * n, n});
}

void PoseBatch::sweepMarkers(std::size_t i, const BatchInput& input) {
    Instance& inst = instances_[i];
    inst.eventCount = 0;
    std::size_t total = 0, widest = 0;
    for (std::uint32_t l = 0; l < input.layerCount; ++l) {
        if (const Clip* c = input.layers[l].markers) {
            total += c->markers().size();
            widest = std::max(widest, c->markers().size());
        }
    }
    if (total == 0) return;
    // A step crosses each marker at most once, so these bound every later frame
    // with the same clips: they grow here, once, like a cursor binding.
    if (inst.events.size() < total) inst.events.resize(total);
    if (inst.crossed.size() < widest) inst.crossed.resize(widest);
    for (std::uint32_t l = 0; l < input.layerCount; ++l) {
        const BatchLayer& layer = input.layers[l];
        if (layer.markers == nullptr) continue;
        const std::size_t n = markersCrossed(*layer.markers, layer.playback, layer.step,
                                             {inst.crossed.data(), layer.markers->markers().size()});
        for (std::size_t k = 0; k < n; ++k) {
            inst.events[inst.eventCount++] = {static_cast<std::uint32_t>(i), l, inst.crossed[k], layer.markers};
        }
    }
}

}  // namespace kinema
