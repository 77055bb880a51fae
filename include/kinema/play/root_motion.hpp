// kinema/play: root motion. The clip moves its root joint; the game
// wants that motion as a per-update delta to move the character itself, and the
// pose kept in place. RootMotion holds the root's own tracks (copied once from the
// clip, so evaluating them never touches the rest of the clip) and turns a
// PlaybackStep into the delta the head travelled: across loop wraps (whole laps
// included, composed, so a turning loop curves), backwards, and held at the end of
// a one-shot.
#pragma once

#include <cstdint>
#include <span>

#include "kinema/asset/clip.hpp"
#include "kinema/core/result.hpp"
#include "kinema/math/transform.hpp"
#include "kinema/play/blend_space.hpp"
#include "kinema/play/cross_fade.hpp"
#include "kinema/play/player.hpp"
#include "kinema/play/state_machine.hpp"
#include "kinema/runtime/instance.hpp"

namespace kinema {

// Which parts of the root's motion are extracted (moved to the delta and removed
// from the pose). Axes are those of the root's parent space (glTF: Y up), so the
// default takes the walk over the ground and the turns about the vertical (the
// character's heading), and leaves the vertical bob and the hips' sway and lean in
// the pose. Under a Z-up armature the ground is x and y and `up` is z.
struct RootMotionMask {
    bool x = true, y = false, z = true;
    RootRotation rotation = RootRotation::Heading;
    Vec3 up{0.0f, 1.0f, 0.0f};  // for Heading: finite, non-zero; its length does not matter
};

class RootMotion {
public:
    // The translation and rotation tracks of `rootJoint` in `clip`; `rest` is the
    // joint's rest transform (used where a track is missing): finite, with a non-zero
    // rotation (normalised here), or a fault at "rest"; a mask whose up axis is zero
    // or not finite is a fault at "mask/up".
    static Result<RootMotion> create(const Clip& clip, std::uint32_t rootJoint, const Transform& rest,
                                     RootMotionMask mask = {});

    // The motion over `step` (a step of a Player in `mode` on the same clip), as a
    // transform in the character's frame (the model's origin) at the step's start:
    // the character's transform times this is where it is after the step, while the
    // pose holds the root at its start (anchored(), anchor()). It is the root's motion
    // in its own frame, M(from)^-1 M(to), seen from where the anchor holds the root,
    // so a root that starts turned or off the origin moves, and turns, about itself.
    // Identity for a zero step and for a step that is not finite. PingPong steps are
    // composed leg by leg. The step's ends may lie past the first lap or before 0 (a
    // caller's own clock): Loop and PingPong wrap them into the head's coordinate first.
    Transform delta(LoopMode mode, const PlaybackStep& step) const noexcept;

    // `sampled` (the root's local transform at any time) with the extracted parts
    // replaced by their values at time 0, so the pose plays in place.
    Transform anchored(const Transform& sampled) const noexcept;

    // The root's local transform at clip time 0, and what is extracted: together
    // the RootAnchor that makes an evaluated pose play in place.
    const Transform& start() const noexcept { return start_; }
    const RootMotionMask& mask() const noexcept { return mask_; }
    RootAnchor anchor(std::uint32_t rootJoint) const noexcept;

private:
    // The extracted part of the root at clip time t: a rigid motion (scale 1).
    Transform at(double t) const noexcept;
    // M(x)^-1 * M(y): the motion from clip time x to clip time y.
    Transform between(double x, double y) const noexcept;

    Clip tracks_;  // the root's translation and rotation tracks, retargeted to joint 0
    Transform rest_;
    Transform start_;  // the root at time 0
    Transform held_;   // its extracted part, at(0): where the anchor holds the root
    RootMotionMask mask_;
    double duration_ = 0.0;
};

// ------------------------------------------------------------ blended root motion
//
// A blend moves the character by the weighted blend of what each playing clip's
// root did over its own step of the update: translations averaged by weight,
// rotations by the normalised weighted sum of their quaternions (signs aligned
// with the heaviest), so one clip at weight 1 gives exactly RootMotion::delta.
// Each clip's delta is exact across loop wraps and in reverse; the blend is taken
// once per update, of deltas over the same elapsed time. A clip without root motion
// (a null RootMotion) takes its share as standing still.

struct RootMotionShare {
    const RootMotion* motion = nullptr;  // null: this share stands still
    LoopMode mode = LoopMode::Loop;
    PlaybackStep step;
    float weight = 0.0f;  // >= 0; the shares need not sum to 1 (they are normalised)
};

// The blended delta of `shares`; identity when no share has a positive weight. A
// weight that is NaN, negative or infinite counts as 0: that share moves nothing.
Transform blendRootMotion(std::span<const RootMotionShare> shares) noexcept;

// A state machine's last update (StateMachine::motion(), which the first form
// reads): `bySlot[s]` is the root motion of StateMachineDefinition::clips()[s]
// (null or missing: none). During a fade both states' clips move the character by
// their shares of the pose; in the update a cut fires, the state it leaves moves it.
Transform rootMotionDelta(const StateMachine& machine, std::span<const RootMotion* const> bySlot) noexcept;
Transform rootMotionDelta(std::span<const MotionSample> samples, std::span<const RootMotion* const> bySlot) noexcept;

// A blend space's update (BlendSpacePlayer::samples()): `byClip[c]` is the root
// motion of BlendSpace::clips()[c]. Its clips loop.
Transform rootMotionDelta(std::span<const BlendSample> samples, std::span<const RootMotion* const> byClip) noexcept;

// A crossfade's update: the current clip's step by currentWeight(), the outgoing
// one's by the rest.
Transform rootMotionDelta(const CrossFade& fade, const CrossFadeStep& step, const RootMotion* current,
                          const RootMotion* outgoing) noexcept;

// The layers of a request (LayerStack::fill() writes each layer's step):
// `byLayer[k]` is the root motion of layer k's clip. Override layers take the
// shares their pose blend gives them (layer k's weight, times its mask's weight on
// `rootJoint`, scales every layer below by one minus itself); additive layers add
// detail to the pose and leave the motion to the layers below.
Transform rootMotionDelta(const InstanceRequest& request, std::span<const RootMotion* const> byLayer,
                          std::uint32_t rootJoint) noexcept;

}  // namespace kinema
