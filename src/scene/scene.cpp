#include "kinema/scene/scene.hpp"

#include <algorithm>
#include <cmath>

#include "kinema/core/counted.hpp"
#include "kinema/runtime/sample.hpp"

namespace kinema {

namespace {

bool finiteTransform(const Transform& t) noexcept {
    const float v[] = {t.translation.x, t.translation.y, t.translation.z, t.rotation.x, t.rotation.y,
                       t.rotation.z,    t.rotation.w,    t.scale.x,       t.scale.y,    t.scale.z};
    return std::all_of(std::begin(v), std::end(v), [](float x) { return std::isfinite(x); });
}

// An id as a fault names it: its number, or that it is the invalid (default) id.
template <class Id>
std::string idText(std::string_view kind, Id id) {
    if (!id.valid()) return "the invalid " + std::string(kind) + " id";
    return std::string(kind) + " " + std::to_string(id.value);
}

// A local transform as setup and setLocal accept it: finite, rotation normalised.
std::optional<Transform> acceptedLocal(const Transform& local) noexcept {
    if (!finiteTransform(local)) return std::nullopt;
    const auto q = tryNormalize(local.rotation);
    if (!q) return std::nullopt;
    Transform t = local;
    t.rotation = *q;
    return t;
}

// A playback time on a timeline of `duration` seconds: wrapped into [0, duration)
// when looping, clamped into [0, duration] otherwise. Kept there, a time plus any
// finite elapsed time stays finite.
// The wrap is the exact remainder (as fmod) for any double duration: a tween's is
// not a float, and rounding it to one would move the loop point a little every lap.
// With the quotient q right, time - q * duration is exactly representable, so one
// fused multiply-add gives it; a quotient rounded to the next lap shows as a
// remainder outside [0, duration) and takes fmod, as do quotients past 2^52.
double placeOnTimeline(double time, double duration, bool loop) noexcept {
    if (!(loop && duration > 0.0)) return std::clamp(time, 0.0, std::max(duration, 0.0));
    const double q = std::floor(time / duration);
    double r = std::fma(-q, duration, time);
    if (!(std::abs(q) < 4503599627370496.0 && r >= 0.0 && r < duration)) {
        r = std::fmod(time, duration);
        if (r < 0.0) r += duration;
        // A tiny negative remainder can round up to the duration: the time just before
        // a lap's end is the last one below it, not the lap's start.
        if (!(r < duration)) r = std::nextafter(duration, 0.0);
    }
    return r == 0.0 ? 0.0 : r;  // -0 (a whole number of laps back) is 0
}

}  // namespace

AnimationId Scene::addAnimation(Clip clip) {
    animations_.push_back(std::move(clip));
    return AnimationId{static_cast<std::uint32_t>(animations_.size() - 1)};
}

TweenId Scene::addTween(Tween tween) {
    tweens_.push_back(std::move(tween));
    return TweenId{static_cast<std::uint32_t>(tweens_.size() - 1)};
}

Result<SkinId> Scene::addSkin(SceneSkin skin) {
    const std::string at = "skins/" + std::to_string(skins_.size());
    std::vector<Fault> faults;
    if (skin.joints.empty()) faults.push_back({at + "/joints", "a skin needs at least one joint"});
    for (std::size_t j = 0; j < skin.joints.size(); ++j) {
        if (!isNode(skin.joints[j])) {
            faults.push_back({at + "/joints/" + std::to_string(j),
                              idText("joint", skin.joints[j]) + " is not a node of this scene (" +
                                  counted(nodeCount(), "node") + ")"});
        }
    }
    if (skin.inverseBindMatrices.size() != skin.joints.size()) {
        faults.push_back({at + "/inverseBindMatrices",
                          counted(skin.inverseBindMatrices.size(), "matrix", "matrices") + " for " +
                              counted(skin.joints.size(), "joint")});
    }
    for (std::size_t j = 0; j < skin.inverseBindMatrices.size(); ++j) {
        const auto& m = skin.inverseBindMatrices[j].m;
        if (!std::all_of(std::begin(m), std::end(m), [](float x) { return std::isfinite(x); })) {
            faults.push_back({at + "/inverseBindMatrices/" + std::to_string(j), "matrix is not finite"});
        }
    }
    if (!faults.empty()) return faults;
    skins_.push_back(std::move(skin));
    skinOffsets_.push_back(kUnused);
    return SkinId{static_cast<std::uint32_t>(skins_.size() - 1)};
}

void Scene::checkAnimator(AnimatorRole& role, const std::string& at, std::vector<Fault>& faults) const {
    bool driven[4] = {false, false, false, false};
    for (std::size_t b = 0; b < role.bindings.size(); ++b) {
        AnimatorBinding& binding = role.bindings[b];
        const std::string bat = at + "/bindings/" + std::to_string(b);
        if (!binding.animation.valid() || binding.animation.value >= animations_.size()) {
            faults.push_back({bat + "/animation",
                              idText("animation", binding.animation) + " is out of range: the scene has " +
                                  counted(animations_.size(), "animation")});
            continue;
        }
        const Clip& clip = animations_[binding.animation.value];
        const auto tracks = clip.tracks();
        if (binding.channel >= tracks.size()) {
            faults.push_back({bat + "/channel",
                              "channel " + std::to_string(binding.channel) + " is out of range: animation '" +
                                  std::string(clip.name()) + "' has " + counted(tracks.size(), "channel")});
            continue;
        }
        const Track& track = tracks[binding.channel];
        if (track.path != binding.path) {
            faults.push_back({bat + "/path",
                              "the binding drives " + std::string(toString(binding.path)) + " but channel " +
                                  std::to_string(binding.channel) + " of animation '" + std::string(clip.name()) +
                                  "' animates " + std::string(toString(track.path))});
            continue;
        }
        const auto slot = static_cast<std::size_t>(binding.path);
        if (driven[slot]) {
            faults.push_back({bat + "/path",
                              "a second binding drives " + std::string(toString(binding.path)) + " of the same node"});
            continue;
        }
        driven[slot] = true;
        if (binding.path == TrackPath::Weights && track.width != role.weights.size()) {
            faults.push_back({bat + "/channel",
                              "the channel animates " + std::to_string(track.width) + " morph weights; the node has " +
                                  std::to_string(role.weights.size())});
        }
        if (!std::isfinite(binding.time)) {
            faults.push_back({bat + "/time", "playback time is not finite"});
            continue;
        }
        binding.time = placeOnTimeline(binding.time, clip.duration(), binding.loop);
    }
    if (role.tween) {
        TweenPlayback& tp = *role.tween;
        if (!tp.tween.valid() || tp.tween.value >= tweens_.size()) {
            faults.push_back(
                {at + "/tween",
                 idText("tween", tp.tween) + " is out of range: the scene has " + counted(tweens_.size(), "tween")});
        } else if (!std::isfinite(tp.time)) {
            faults.push_back({at + "/tween/time", "playback time is not finite"});
        } else {
            tp.time = placeOnTimeline(tp.time, tweens_[tp.tween.value].duration(), tp.loop);
        }
    }
    for (std::size_t w = 0; w < role.weights.size(); ++w) {
        if (!std::isfinite(role.weights[w])) {
            faults.push_back({at + "/weights/" + std::to_string(w), "morph weight is not finite"});
        }
    }
}

Result<NodeId> Scene::addNode(NodeId parent, std::string name, const Transform& local, NodeRole role) {
    const std::string at = "nodes/" + std::to_string(nodeCount());
    std::vector<Fault> faults;
    if (parent.valid() && !isNode(parent)) {
        faults.push_back({at + "/parent",
                          "parent " + std::to_string(parent.value) + " is not a node of this scene (" +
                              counted(nodeCount(), "node") + ")"});
    }
    const auto accepted = acceptedLocal(local);
    if (!accepted) faults.push_back({at + "/local", "local transform is not finite or its rotation is zero"});
    if (auto* animator = std::get_if<AnimatorRole>(&role)) checkAnimator(*animator, at, faults);
    if (const auto* renderable = std::get_if<RenderableRole>(&role)) {
        if (!renderable->object.valid()) faults.push_back({at + "/object", "a renderable needs a render object"});
        if (renderable->skin.valid() && renderable->skin.value >= skins_.size()) {
            faults.push_back({at + "/skin",
                              "skin " + std::to_string(renderable->skin.value) + " is out of range: the scene has " +
                                  counted(skins_.size(), "skin")});
        }
        if (renderable->weightsFrom.valid()) {
            const auto* source = isNode(renderable->weightsFrom)
                ? std::get_if<AnimatorRole>(&roles_[renderable->weightsFrom.value])
                : nullptr;
            if (!source || source->weights.empty()) {
                faults.push_back({at + "/weightsFrom",
                                  "node " + std::to_string(renderable->weightsFrom.value) +
                                      " is not an animator node with morph weights"});
            }
        }
    }
    if (!faults.empty()) return faults;

    const NodeId id{static_cast<std::uint32_t>(nodeCount())};
    parents_.push_back(parent);
    names_.push_back(std::move(name));
    locals_.push_back(*accepted);
    worlds_.push_back(parent.valid() ? worlds_[parent.value] * toMatrix(*accepted) : toMatrix(*accepted));
    if (!parent.valid()) roots_.push_back(id);
    if (std::holds_alternative<AnimatorRole>(role)) animators_.push_back(id);
    if (const auto* renderable = std::get_if<RenderableRole>(&role)) {
        renderables_.push_back(id);
        // A skin's palette is written once per frame however many draws share it.
        if (renderable->skin.valid() && skinOffsets_[renderable->skin.value] == kUnused) {
            skinOffsets_[renderable->skin.value] = paletteSize_;
            paletteSize_ += static_cast<std::uint32_t>(skins_[renderable->skin.value].joints.size());
        }
    }
    roles_.push_back(std::move(role));
    return id;
}

Status Scene::advance(double elapsed) noexcept {
    if (!std::isfinite(elapsed)) return Status::failure(StatusCode::NotFinite, "elapsed time is not finite");
    if (elapsed < 0.0) return Status::failure(StatusCode::OutOfRange, "elapsed time is negative");
    for (const NodeId node : animators_) advanceAnimator(node, elapsed);
    return Status::success();
}

void Scene::advanceAnimator(NodeId node, double elapsed) noexcept {
    auto& role = std::get<AnimatorRole>(roles_[node.value]);
    Transform& local = locals_[node.value];
    for (AnimatorBinding& b : role.bindings) {
        const Clip& clip = animations_[b.animation.value];
        b.time = placeOnTimeline(b.time + elapsed, clip.duration(), b.loop);
        // Setup checked the channel, its path and the weights' width.
        static_cast<void>(reference::sampleTrack(clip.tracks()[b.channel], b.time, b.keyHint, local, role.weights));
    }
    if (role.tween) {
        TweenPlayback& tp = *role.tween;
        const Tween& tween = tweens_[tp.tween.value];
        tp.time = placeOnTimeline(tp.time + elapsed, tween.duration(), tp.loop);
        apply(tween, tp.time, local);
    }
}

void Scene::updateWorldTransforms() noexcept {
    for (std::size_t i = 0; i < parents_.size(); ++i) {
        const NodeId p = parents_[i];
        worlds_[i] = p.valid() ? worlds_[p.value] * toMatrix(locals_[i]) : toMatrix(locals_[i]);
    }
}

void Scene::fillDrawList(DrawList& out) const {
    out.clear();
    out.palettes.resize(paletteSize_);
    for (std::size_t s = 0; s < skins_.size(); ++s) {
        if (skinOffsets_[s] == kUnused) continue;
        const SceneSkin& skin = skins_[s];
        Mat4* palette = out.palettes.data() + skinOffsets_[s];
        for (std::size_t j = 0; j < skin.joints.size(); ++j) {
            palette[j] = worlds_[skin.joints[j].value] * skin.inverseBindMatrices[j];
        }
    }
    for (const NodeId node : renderables_) {
        const auto& r = std::get<RenderableRole>(roles_[node.value]);
        DrawItem item;
        item.object = r.object;
        item.node = node;
        if (r.skin.valid()) {
            item.paletteOffset = skinOffsets_[r.skin.value];
            item.paletteCount = static_cast<std::uint32_t>(skins_[r.skin.value].joints.size());
            item.world = Mat4::identity();
        } else {
            item.world = worlds_[node.value];
        }
        if (r.weightsFrom.valid()) {
            const auto& weights = std::get<AnimatorRole>(roles_[r.weightsFrom.value]).weights;
            item.weightOffset = static_cast<std::uint32_t>(out.weights.size());
            item.weightCount = static_cast<std::uint32_t>(weights.size());
            out.weights.insert(out.weights.end(), weights.begin(), weights.end());
        }
        out.items.push_back(item);
    }
}

Status Scene::setLocal(NodeId node, const Transform& local) noexcept {
    if (!isNode(node)) return Status::failure(StatusCode::OutOfRange, "not a node of this scene").withIndex(node.value);
    if (!finiteTransform(local)) {
        return Status::failure(StatusCode::NotFinite, "local transform is not finite").withIndex(node.value);
    }
    const auto accepted = acceptedLocal(local);
    if (!accepted) return Status::failure(StatusCode::OutOfRange, "local rotation is zero").withIndex(node.value);
    locals_[node.value] = *accepted;
    return Status::success();
}

Status Scene::setPlaybackTime(NodeId node, double time) noexcept {
    if (!isNode(node)) return Status::failure(StatusCode::OutOfRange, "not a node of this scene").withIndex(node.value);
    auto* role = std::get_if<AnimatorRole>(&roles_[node.value]);
    if (!role) return Status::failure(StatusCode::WrongType, "not an animator node").withIndex(node.value);
    if (!std::isfinite(time))
        return Status::failure(StatusCode::NotFinite, "playback time is not finite").withIndex(node.value);
    for (AnimatorBinding& b : role->bindings) {
        b.time = placeOnTimeline(time, animations_[b.animation.value].duration(), b.loop);
    }
    if (role->tween) {
        role->tween->time = placeOnTimeline(time, tweens_[role->tween->tween.value].duration(), role->tween->loop);
    }
    advanceAnimator(node, 0.0);  // posed at once: a seek then a draw shows the new time
    return Status::success();
}

Status Scene::setLooping(NodeId node, bool loop) noexcept {
    if (!isNode(node)) return Status::failure(StatusCode::OutOfRange, "not a node of this scene").withIndex(node.value);
    auto* role = std::get_if<AnimatorRole>(&roles_[node.value]);
    if (!role) return Status::failure(StatusCode::WrongType, "not an animator node").withIndex(node.value);
    // The stored times move onto the new timeline at once: a one-shot held at its end
    // that starts looping stands at the lap's start.
    for (AnimatorBinding& b : role->bindings) {
        b.loop = loop;
        b.time = placeOnTimeline(b.time, animations_[b.animation.value].duration(), loop);
    }
    if (role->tween) {
        role->tween->loop = loop;
        role->tween->time = placeOnTimeline(role->tween->time, tweens_[role->tween->tween.value].duration(), loop);
    }
    return Status::success();
}

NodeId Scene::find(std::string_view name) const noexcept {
    const auto it = std::find(names_.begin(), names_.end(), name);
    return it == names_.end() ? NodeId{} : NodeId{static_cast<std::uint32_t>(it - names_.begin())};
}

}  // namespace kinema
