// kinema/scene: a scene of nodes, each with one role, animated by bindings and
// tweens, resolved to world transforms and a draw list.
//
// A node has a local transform, a parent (or none: the scene is a forest) and
// exactly one role:
//   - a group only places its children;
//   - an animator drives its own local transform (and morph weights) from
//     animation tracks (AnimatorBinding) and an optional tween;
//   - a renderable draws one render object of a RenderCatalogue with its world
//     matrix, skinned by a scene skin and with morph weights when it has them.
// Nodes are only appended, and a parent must exist before its child, so every
// parent index is below its child's: world transforms resolve in one forward pass.
//
// Setup (adding nodes, animations, tweens, skins) is validated and returns Result:
// a binding to a missing animation or channel, or to a property its track does not
// animate, is refused there with its location. The per-frame calls (advance,
// updateWorldTransforms, fillDrawList) trust what setup accepted, check their own
// arguments first, return a Status and change nothing when they refuse.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "kinema/asset/clip.hpp"
#include "kinema/core/result.hpp"
#include "kinema/core/status.hpp"
#include "kinema/core/typed_id.hpp"
#include "kinema/math/mat4.hpp"
#include "kinema/math/transform.hpp"
#include "kinema/render/ids.hpp"
#include "kinema/scene/tween.hpp"

namespace kinema {

using NodeId = TypedId<struct NodeIdTag>;
using AnimationId = TypedId<struct AnimationIdTag>;
using TweenId = TypedId<struct TweenIdTag>;
using SkinId = TypedId<struct SceneSkinIdTag>;

// One property of an animator node driven by one track ("channel") of one of the
// scene's animations. Many bindings may share a channel; each keeps its own time.
struct AnimatorBinding {
    AnimationId animation;
    std::uint32_t channel = 0;             // track index within the animation
    TrackPath path = TrackPath::Rotation;  // the property driven: must be the track's own
    double time = 0.0;                     // playback time, seconds, finite
    bool loop = true;                      // wrap over the animation's duration, or hold its end
    std::uint32_t keyHint = 0;             // the key interval sampled last: a hint, any value is correct
};

// A tween played on an animator node.
struct TweenPlayback {
    TweenId tween;
    double time = 0.0;  // seconds, finite
    bool loop = false;  // wrap over the tween's duration, or hold its end
};

struct GroupRole {};

struct AnimatorRole {
    std::vector<AnimatorBinding> bindings;  // at most one per property
    std::optional<TweenPlayback> tween;     // applied after the bindings
    std::vector<float> weights;             // the node's morph weights (rest values), driven by a weights binding
};

struct RenderableRole {
    RenderObjectId object;
    SkinId skin;         // invalid: rigid, drawn with the node's world matrix
    NodeId weightsFrom;  // invalid: no morph weights; else an animator node (this one's ancestor, usually)
};

using NodeRole = std::variant<GroupRole, AnimatorRole, RenderableRole>;

// Joints of a skinned renderable: scene nodes and their inverse bind matrices.
struct SceneSkin {
    std::vector<NodeId> joints;
    std::vector<Mat4> inverseBindMatrices;  // one per joint
};

// One draw of a frame. A skinned draw's vertices go through its palette slice
// (joint world matrix x inverse bind matrix, in world space), so its `world` is
// the identity; a rigid draw has no palette and is placed by `world`.
struct DrawItem {
    RenderObjectId object;
    NodeId node;
    Mat4 world;
    std::uint32_t paletteOffset = 0;  // into DrawList::palettes
    std::uint32_t paletteCount = 0;   // 0: rigid
    std::uint32_t weightOffset = 0;   // into DrawList::weights
    std::uint32_t weightCount = 0;    // 0: no morph targets
};

// What a frame draws: items in node order, the palettes of the skins they use
// (each skin once, however many draws share it) and their morph weights.
struct DrawList {
    std::vector<DrawItem> items;
    std::vector<Mat4> palettes;
    std::vector<float> weights;

    void clear() noexcept {
        items.clear();
        palettes.clear();
        weights.clear();
    }
};

class Scene {
public:
    // ---- setup ----
    AnimationId addAnimation(Clip clip);
    TweenId addTween(Tween tween);
    // Refused: a joint that is not a node of this scene, a count of inverse bind
    // matrices other than the joints', a non-finite matrix.
    Result<SkinId> addSkin(SceneSkin skin);

    // `parent` invalid for a root. Refused: a parent that is not a node, a local
    // transform that is not finite or has a zero rotation (a non-unit rotation is
    // normalised), and for the roles: a binding to a missing animation or channel,
    // a path other than its track's, two bindings on one property, a weights
    // binding whose width differs from the node's weight count, a non-finite time,
    // a missing tween; a renderable whose object id is invalid, whose skin is not
    // a skin of this scene or whose weights come from a node that is not an
    // animator with weights.
    Result<NodeId> addNode(NodeId parent, std::string name, const Transform& local, NodeRole role = GroupRole{});

    // ---- per frame ----
    // Advances every binding and tween by `elapsed` seconds (finite, >= 0) and
    // writes the properties they drive into their nodes' local transforms and
    // weights; nothing else changes. A looping binding wraps over its animation's
    // duration into [0, duration) (exactly the duration is 0); a one-shot holds at
    // the duration. Bindings of one animation wrap together, whatever their own
    // tracks' last keys. Refused (NotFinite, OutOfRange) before anything changes.
    Status advance(double elapsed) noexcept;

    // World transforms of every node from the local ones, parents first.
    void updateWorldTransforms() noexcept;

    // Replaces `out` with this frame's draws (its capacity is reused: no allocation
    // once it has grown to the scene's size). Call after updateWorldTransforms().
    void fillDrawList(DrawList& out) const;

    // ---- control ----
    // A node's local transform (finite, non-zero rotation); the next advance
    // overwrites only what bindings drive.
    Status setLocal(NodeId node, const Transform& local) noexcept;
    // Every binding and the tween of an animator node: time (finite) and loop flag.
    // A new time poses the node at once, as advance(0) would (its world transform
    // follows at the next updateWorldTransforms()).
    Status setPlaybackTime(NodeId node, double time) noexcept;
    Status setLooping(NodeId node, bool loop) noexcept;

    // ---- reading ----
    // The accessors below take a node of this scene: one that contains() holds. The
    // invalid id (what find() gives for a name not there) is not one, and reading it
    // is out of bounds.
    bool contains(NodeId node) const noexcept { return isNode(node); }
    std::size_t nodeCount() const noexcept { return parents_.size(); }
    NodeId parent(NodeId node) const noexcept { return parents_[node.value]; }
    std::string_view name(NodeId node) const noexcept { return names_[node.value]; }
    const Transform& local(NodeId node) const noexcept { return locals_[node.value]; }
    const Mat4& world(NodeId node) const noexcept { return worlds_[node.value]; }
    const NodeRole& role(NodeId node) const noexcept { return roles_[node.value]; }
    std::span<const NodeId> roots() const noexcept { return roots_; }
    // The first node of that name, or an invalid id.
    NodeId find(std::string_view name) const noexcept;
    std::span<const Clip> animations() const noexcept { return animations_; }
    std::span<const Tween> tweens() const noexcept { return tweens_; }
    std::span<const SceneSkin> skins() const noexcept { return skins_; }

private:
    bool isNode(NodeId node) const noexcept { return node.valid() && node.value < parents_.size(); }
    void checkAnimator(AnimatorRole& role, const std::string& at, std::vector<Fault>& faults) const;
    // Moves an animator node's heads on by `elapsed` and samples its local transform.
    void advanceAnimator(NodeId node, double elapsed) noexcept;

    std::vector<Clip> animations_;
    std::vector<Tween> tweens_;
    std::vector<SceneSkin> skins_;
    std::vector<NodeId> parents_;
    std::vector<std::string> names_;
    std::vector<Transform> locals_;
    std::vector<Mat4> worlds_;
    std::vector<NodeRole> roles_;
    std::vector<NodeId> roots_;
    std::vector<NodeId> animators_;    // nodes with an animator role, in node order
    std::vector<NodeId> renderables_;  // nodes with a renderable role, in node order
    // Per skin: where its palette starts in a DrawList, or kUnused when no draw uses it.
    static constexpr std::uint32_t kUnused = 0xFFFFFFFFu;
    std::vector<std::uint32_t> skinOffsets_;
    std::uint32_t paletteSize_ = 0;
};

}  // namespace kinema
