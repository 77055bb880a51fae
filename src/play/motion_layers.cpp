#include "kinema/play/motion_layers.hpp"

#include <algorithm>
#include <array>

namespace kinema {

Status motionLayers(std::span<const MotionSample> samples, std::span<const PackedClip* const> packed,
                    InstanceRequest& out) noexcept {
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const MotionSample& s = samples[i];
        if (s.clipSlot >= packed.size() || packed[s.clipSlot] == nullptr) {
            return Status::failure(StatusCode::Missing, "motion sample's clip has no packed clip")
                .withIndex(static_cast<std::int64_t>(i));
        }
    }
    // Indices of the kept samples, heaviest first when some must go, then back in
    // their own order so the layer order (and so the result) does not depend on ties.
    std::array<std::size_t, kMaxLayers> kept{};
    std::size_t count = 0;
    if (samples.size() <= kMaxLayers) {
        for (std::size_t i = 0; i < samples.size(); ++i) kept[count++] = i;
    } else {
        while (count < kMaxLayers) {  // the heaviest not taken yet, the first of equals
            std::size_t best = samples.size();
            for (std::size_t i = 0; i < samples.size(); ++i) {
                if (std::find(kept.begin(), kept.begin() + static_cast<std::ptrdiff_t>(count), i) !=
                    kept.begin() + static_cast<std::ptrdiff_t>(count)) {
                    continue;
                }
                if (best == samples.size() || samples[i].weight > samples[best].weight) best = i;
            }
            kept[count++] = best;
        }
        std::sort(kept.begin(), kept.end());
    }
    InstanceRequest in = out;  // keeps what the caller set beyond the layers
    in.layerCount = static_cast<std::uint32_t>(count);
    float total = 0.0f;
    for (std::size_t l = 0; l < count; ++l) {
        const MotionSample& s = samples[kept[l]];
        total += s.weight;
        LayerRequest& layer = in.layers[l];
        layer = LayerRequest{};
        layer.clip = packed[s.clipSlot];
        layer.time = s.time;
        layer.loop = s.mode == LoopMode::Loop ? LoopMode::Loop : LoopMode::Clamp;
        layer.mode = LayerMode::Override;
        layer.weight = l == 0 || !(total > 0.0f) ? 1.0f : std::clamp(s.weight / total, 0.0f, 1.0f);
    }
    out = in;
    return Status::success();
}

}  // namespace kinema
