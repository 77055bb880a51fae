#include "kinema/batch/pose_batch.hpp"

#include <cmath>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

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
      grain_(options.grainSize == 0 ? 1 : options.grainSize),
      kernels_(options.simd),
      arena_(std::make_unique<Arena>()) {
    instances_.reserve(instances);
    for (std::size_t i = 0; i < instances; ++i) instances_.push_back({rest_, rest_, {}});
    if (modelMatrices_) model_.resize(instances * joints_);
    if (skin_ != nullptr) palette_.resize(instances * skin_->joints.size());
    if (options.threads == 0) {
        arena_->arena.initialize();
    } else {
        arena_->arena.initialize(static_cast<int>(options.threads));
    }
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
        }
    }
    arena_->arena.execute([&] {
        tbb::parallel_for(
            tbb::blocked_range<std::size_t>(0, inputs.size(), grain_),
            [&](const tbb::blocked_range<std::size_t>& range) {
                for (std::size_t i = range.begin(); i != range.end(); ++i) evaluateOne(i, inputs[i]);
            },
            tbb::simple_partitioner());
    });
    return {};
}

void PoseBatch::evaluateOne(std::size_t i, const BatchInput& input) noexcept {
    Instance& inst = instances_[i];
    const std::size_t weights = rest_.weights().size();
    if (input.layerCount == 0) inst.pose.assign(rest_);
    for (std::uint32_t l = 0; l < input.layerCount; ++l) {
        const BatchLayer& layer = input.layers[l];
        const PackedClip& clip = *layer.clip;
        PackedClipCursor& cursor = inst.cursors[l];
        if (!cursor.isBoundTo(clip)) cursor.bind(clip);  // allocates only for a clip with more timelines
        const float t = clipTime(layer.time, clip.duration(), layer.loop);
        SoaPose& target = l == 0 ? inst.pose : inst.layer;
        if (!clip.coversPose(joints_, weights)) target.assign(rest_);
        kernels_.sample(clip, t, cursor, target);
        if (l == 0) continue;
        if (layer.mode == LayerMode::Additive) {
            kernels_.add(inst.pose, inst.layer, layer.reference != nullptr ? *layer.reference : rest_, layer.weight,
                         layer.mask, inst.pose);
        } else if (layer.mask != nullptr) {
            kernels_.blend(inst.pose, inst.layer, layer.weight, *layer.mask, inst.pose);
        } else {
            kernels_.blend(inst.pose, inst.layer, layer.weight, inst.pose);
        }
    }
    if (!modelMatrices_) return;
    const std::span<Mat4> model{model_.data() + i * joints_, joints_};
    kernels_.localToModel(parents_, inst.pose, model);
    if (skin_ == nullptr) return;
    const std::size_t n = skin_->joints.size();
    kernels_.skinPalette(*skin_, model, {palette_.data() + i * n, n});
}

}  // namespace kinema
