// kinema/play: animation layers with their own playback heads.
//
// A LayerStack is one character's layers: each has a clip, its own Player (time,
// speed, loop / clamp / ping-pong, playing or paused), a weight, a blend mode
// (override or additive against a reference pose) and an optional per-joint mask.
// update() advances every layer by the same elapsed time at its own speed; fill()
// writes the layers into an InstanceRequest (runtime/instance.hpp), with each
// layer's step so the evaluation reports the markers it crossed. Layer 0 is the
// base and is always taken whole; layer k blends over layers 0..k-1.
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "kinema/core/status.hpp"
#include "kinema/play/player.hpp"
#include "kinema/runtime/instance.hpp"
#include "kinema/runtime/packed_clip.hpp"

namespace kinema {

struct LayerSettings {
    float weight = 1.0f;  // in [0, 1]
    LayerMode mode = LayerMode::Override;
    const JointMask* mask = nullptr;     // optional, shared, must outlive the stack's use
    const SoaPose* reference = nullptr;  // additive: the pose the delta is taken from (null: rest)
    bool announceMarkers = true;         // sweep this layer's markers in the evaluation
};

class LayerStack {
public:
    std::size_t size() const noexcept { return count_; }

    // Puts `clip` (and the PackedClip made from it) on layer `index` (< kMaxLayers,
    // at most size(): layers are contiguous), playing from time 0 in `mode`. The
    // clips must outlive the stack's use. Refused, changing nothing: an index past
    // size() (OutOfRange), a PackedClip of another clip (ForeignInput: its name or
    // duration differ), a weight outside [0, 1] (OutOfRange, NotFinite).
    Status setLayer(std::size_t index, const Clip& clip, const PackedClip& packed, LoopMode mode = LoopMode::Loop,
                    LayerSettings settings = {}) noexcept;
    // Drops the top layer.
    void pop() noexcept;

    // The layer's playback head: speed, seek, play / pause (index < size()).
    Player& player(std::size_t index) noexcept { return layers_[index].player; }
    const Player& player(std::size_t index) const noexcept { return layers_[index].player; }
    LayerSettings& settings(std::size_t index) noexcept { return layers_[index].settings; }
    const LayerSettings& settings(std::size_t index) const noexcept { return layers_[index].settings; }

    // Advances every layer by `elapsed` seconds (finite, >= 0) at its own speed. A
    // step that overflows a layer's clip time at its speed is refused (Status::layer
    // names the layer) and no layer changes.
    Status update(double elapsed) noexcept;

    // The layers as layer requests: each head's position and loop mode, weight,
    // mode, mask, reference, and the last update's step for the marker sweep. Other
    // fields of `out` are kept. A weight set through settings() outside [0, 1] is
    // refused (Status::layer names the layer) and `out` is left as it was.
    Status fill(InstanceRequest& out) const noexcept;

private:
    struct Layer {
        const Clip* clip = nullptr;
        const PackedClip* packed = nullptr;
        Player player;
        LayerSettings settings;
        PlaybackStep step;
    };
    std::array<Layer, kMaxLayers> layers_{};
    std::size_t count_ = 0;
};

}  // namespace kinema
