#include "kinema/play/layer_stack.hpp"

#include <algorithm>
#include <cmath>
#include "elapsed.hpp"

namespace kinema {

bool LayerStack::setLayer(std::size_t index, const Clip& clip, const PackedClip& packed, LoopMode mode,
                          LayerSettings settings) noexcept {
    if (index > count_ || index >= kMaxLayers || packed.duration() != clip.duration()) return false;
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

Status LayerStack::update(double elapsed) noexcept {
    if (Status s = detail::checkElapsed(elapsed); !s) return s;
    for (std::size_t l = 0; l < count_; ++l) (void)layers_[l].player.update(elapsed, layers_[l].step);
    return {};
}

void LayerStack::fill(InstanceRequest& out) const noexcept {
    out.layerCount = static_cast<std::uint32_t>(count_);
    for (std::size_t l = 0; l < count_; ++l) {
        const Layer& layer = layers_[l];
        LayerRequest& b = out.layers[l];
        b = LayerRequest{};
        b.clip = layer.packed;
        b.time = layer.player.position();
        b.loop = layer.player.mode();
        const float w = layer.settings.weight;
        b.weight = std::isnan(w) ? 0.0f : std::clamp(w, 0.0f, 1.0f);
        b.mode = layer.settings.mode;
        b.mask = layer.settings.mask;
        b.reference = layer.settings.reference;
        if (layer.settings.announceMarkers) {
            b.sweep = true;
            b.step = layer.step;
        }
    }
}

}  // namespace kinema
