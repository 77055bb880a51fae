// kinema/play: root motion. The clip moves its root joint; the game
// wants that motion as a per-update delta to move the character itself, and the
// pose kept in place. RootMotion holds the root's own tracks (copied once from the
// clip, so evaluating them never touches the rest of the clip) and turns a
// PlaybackStep into the delta the head travelled: across loop wraps (whole laps
// included, composed, so a turning loop curves), backwards, and held at the end of
// a one-shot.
#pragma once

#include <cstdint>

#include "kinema/asset/clip.hpp"
#include "kinema/core/result.hpp"
#include "kinema/math/transform.hpp"
#include "kinema/play/player.hpp"

namespace kinema {

// Which parts of the root's motion are extracted (moved to the delta and removed
// from the pose). Axes are those of the root's parent space (glTF: Y up), so the
// default takes the walk over the ground and leaves the vertical bob in the pose.
struct RootMotionMask {
    bool x = true, y = false, z = true;
    bool rotation = true;
};

class RootMotion {
public:
    // The translation and rotation tracks of `rootJoint` in `clip`; `rest` is the
    // joint's rest transform (used where a track is missing).
    static Result<RootMotion> create(const Clip& clip, std::uint32_t rootJoint, const Transform& rest,
                                     RootMotionMask mask = {});

    // The motion over `step` (a step of a Player in `mode` on the same clip), as a
    // transform in the root's frame at the step's start: the character's transform
    // times this is where it is after the step. Identity for a zero step. PingPong
    // steps are composed leg by leg.
    Transform delta(LoopMode mode, const PlaybackStep& step) const noexcept;

    // `sampled` (the root's local transform at any time) with the extracted parts
    // replaced by their values at time 0, so the pose plays in place.
    Transform anchored(const Transform& sampled) const noexcept;

private:
    // The extracted part of the root at clip time t, as a matrix.
    Mat4 at(double t) const noexcept;
    // M(x)^-1 * M(y): the motion from clip time x to clip time y.
    Mat4 between(double x, double y) const noexcept;

    Clip tracks_;  // the root's translation and rotation tracks, retargeted to joint 0
    Transform rest_;
    Transform start_;  // the root at time 0
    RootMotionMask mask_;
    double duration_ = 0.0;
};

}  // namespace kinema
