#include "kinema/play/layer_stack.hpp"

#include <algorithm>
#include <cmath>
#include "elapsed.hpp"

namespace kinema {

namespace {

Status checkLayerWeight(float w) noexcept {
    return checkUnitWeight(w, "layer weight outside [0, 1]", "layer weight not finite");
}

}  // namespace

Status LayerStack::setLayer(std::size_t index, const Clip& clip, const PackedClip& packed, LoopMode mode,
                            LayerSettings settings) noexcept {
    const auto at = static_cast<std::int64_t>(index);
    if (index > count_ || index >= kMaxLayers) {
        return Status::failure(StatusCode::OutOfRange, "layer past the top of the stack").at(-1, at);
    }
    if (packed.duration() != clip.duration() || packed.name() != clip.name()) {
        return Status::failure(StatusCode::ForeignInput, "packed clip was made from another clip").at(-1, at);
    }
    if (Status s = checkLayerWeight(settings.weight); !s) return s.at(-1, at);
    Layer& layer = layers_[index];
    layer.clip = &clip;
    layer.packed = &packed;
    layer.player = Player(clip, mode);
    layer.player.play();
    layer.settings = settings;
    layer.step = {};
    count_ = std::max(count_, index + 1);
    return Status::success();
}

void LayerStack::pop() noexcept {
    if (count_ > 0) layers_[--count_] = Layer{};
}

Status LayerStack::update(double elapsed) noexcept {
    if (Status s = detail::checkElapsed(elapsed); !s) return s;
    // Every head advances on a copy, kept only when all could: a head that refuses
    // (its speed overflows the step) changes nothing, and no layer repeats its last step.
    std::array<Layer, kMaxLayers> next = layers_;
    for (std::size_t l = 0; l < count_; ++l) {
        if (Status s = next[l].player.update(elapsed, next[l].step); !s) return s.at(-1, static_cast<std::int64_t>(l));
    }
    layers_ = next;
    return {};
}

Status LayerStack::fill(InstanceRequest& out) const noexcept {
    for (std::size_t l = 0; l < count_; ++l) {
        if (Status s = checkLayerWeight(layers_[l].settings.weight); !s) return s.at(-1, static_cast<std::int64_t>(l));
    }
    out.layerCount = static_cast<std::uint32_t>(count_);
    for (std::size_t l = 0; l < count_; ++l) {
        const Layer& layer = layers_[l];
        LayerRequest& b = out.layers[l];
        b = LayerRequest{};
        b.clip = layer.packed;
        b.time = layer.player.position();
        b.loop = layer.player.mode();
        b.weight = layer.settings.weight;
        b.mode = layer.settings.mode;
        b.mask = layer.settings.mask;
        b.reference = layer.settings.reference;
        if (layer.settings.announceMarkers) {
            b.sweep = true;
            b.step = layer.step;
        }
    }
    return Status::success();
}

}  // namespace kinema
