#include "kinema/batch/layer_stack.hpp"

#include <algorithm>
#include <cmath>

namespace kinema {

bool LayerStack::setLayer(std::size_t index, const Clip& clip, const PackedClip& packed, PlaybackMode mode,
                          LayerSettings settings) noexcept {
    if (index > count_ || index >= kMaxBatchLayers || packed.duration() != clip.duration()) return false;
    Layer& layer = layers_[index];
    layer.clip = &clip;
    layer.packed = &packed;
    layer.player = Player(clip, mode);
    layer.player.play();
    layer.settings = settings;
    layer.step = {};
    count_ = std::max(count_, index + 1);
    return true;
}

void LayerStack::pop() noexcept {
    if (count_ > 0) layers_[--count_] = Layer{};
}

std::string LayerStack::update(double elapsed) noexcept {
    if (!std::isfinite(elapsed) || elapsed < 0.0) {
        return "layers: elapsed time must be finite and >= 0, got " + std::to_string(elapsed);
    }
    for (std::size_t l = 0; l < count_; ++l) (void)layers_[l].player.update(elapsed, layers_[l].step);
    return {};
}

void LayerStack::fill(BatchInput& out) const noexcept {
    out.layerCount = static_cast<std::uint32_t>(count_);
    for (std::size_t l = 0; l < count_; ++l) {
        const Layer& layer = layers_[l];
        BatchLayer& b = out.layers[l];
        b = BatchLayer{};
        b.clip = layer.packed;
        b.time = layer.player.clipTime();
        b.loop = layer.player.mode() == PlaybackMode::Loop ? LoopMode::Loop : LoopMode::Clamp;
        const float w = layer.settings.weight;
        b.weight = std::isnan(w) ? 0.0f : std::clamp(w, 0.0f, 1.0f);
        b.mode = layer.settings.mode;
        b.mask = layer.settings.mask;
        b.reference = layer.settings.reference;
        if (layer.settings.announceMarkers) {
            b.markers = layer.clip;
            b.step = layer.step;
            b.playback = layer.player.mode();
        }
    }
}

}  // namespace kinema
