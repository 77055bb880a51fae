// kinema/play: turning a state machine's weighted clip samples into the layers of
// one instance's request (runtime/instance.hpp).
//
// A StateMachine (play/) says what to show as a list of clips with absolute weights
// that sum to 1. The evaluation blends layer by layer, each layer over the ones before
// it, so absolute weights w_0..w_n become layer weights w_k / (w_0 + ... + w_k):
// blending layer k in at that weight leaves every earlier layer's share scaled by
// the same factor, and the final shares are the w_k again (up to the nlerp of
// rotations, which is what any pose blend of more than two clips approximates).
#pragma once

#include <span>

#include "kinema/play/state_machine.hpp"
#include "kinema/runtime/instance.hpp"
#include "kinema/runtime/packed_clip.hpp"

namespace kinema {

// Fills `out` with override layers for `samples` (e.g. StateMachine::samples()).
// `packed[s]` is the PackedClip of StateMachineDefinition::clips()[s]. At most
// kMaxLayers samples fit: beyond that the heaviest are kept (the weights of
// the rest are left out, so the kept ones share the whole pose). Clamp and
// ping-pong states give clip times inside [0, duration], sampled without wrapping.
// Refused (Missing, Status::index = the sample), leaving `out` untouched, when a
// sample's clip slot has no packed clip. Allocates nothing.
Status motionLayers(std::span<const MotionSample> samples, std::span<const PackedClip* const> packed,
                    InstanceRequest& out) noexcept;

}  // namespace kinema
