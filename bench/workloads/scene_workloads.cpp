#include "scene_workloads.hpp"

#include <cmath>
#include <numbers>

#include "workloads.hpp"

namespace kinema::bench {

namespace {

template <class T>
bool take(Result<T> result, T& out, std::string& error) {
    if (!result) {
        error = result.message();
        return false;
    }
    out = *result;
    return true;
}

}  // namespace

SceneWorkload rigidNodes(std::size_t nodes) {
    SceneWorkload w;
    w.nodes = nodes;
    Track spin;
    spin.path = TrackPath::Rotation;
    spin.width = 4;
    for (int f = 0; f <= kW1Frames; ++f) {
        const double angle = std::numbers::pi * f / kW1Frames;  // half a turn over 2 s, then back to 0
        spin.times.push_back(static_cast<float>(f / kW1FrameRate));
        const auto half = static_cast<float>(std::sin(angle) * 0.5);
        spin.values.insert(spin.values.end(), {0.0f, std::sin(half), 0.0f, std::cos(half)});
    }
    auto clip = Clip::create("spin", {spin});
    if (!clip) {
        w.error = clip.message();
        return w;
    }
    const AnimationId anim = w.scene.addAnimation(std::move(*clip));
    Random random(kSeed);
    NodeId group;
    for (std::size_t i = 0; i < nodes; ++i) {
        if (i % 100 == 0 && !take(w.scene.addNode({}, "group", {}), group, w.error)) return w;
        Transform local;
        local.translation = {static_cast<float>(i % 100), 0.0f, 0.0f};
        AnimatorRole role;
        role.bindings.push_back({anim, 0, TrackPath::Rotation, 2.0 * random.uniform(), true});
        NodeId node;
        if (!take(w.scene.addNode(group, "spinner", local, std::move(role)), node, w.error)) return w;
        NodeId draw;
        if (!take(w.scene.addNode(node, "draw", {}, RenderableRole{RenderObjectId{0}, {}, {}}), draw, w.error)) {
            return w;
        }
    }
    return w;
}

SceneWorkload skinnedCharacters(std::size_t characters, std::size_t joints) {
    SceneWorkload w;
    w.nodes = characters;
    const Workload& base = w1(joints);
    if (!base.error.empty()) {
        w.error = base.error;
        return w;
    }
    const Model& model = base.model;
    const AnimationId anim = w.scene.addAnimation(model.clips.front());
    const auto tracks = model.clips.front().tracks();
    Random random(kSeed);
    std::vector<NodeId> nodes(joints);
    for (std::size_t c = 0; c < characters; ++c) {
        const double start = 2.0 * random.uniform();
        std::vector<AnimatorRole> roles(joints);
        for (std::size_t t = 0; t < tracks.size(); ++t) {
            roles[tracks[t].target].bindings.push_back(
                {anim, static_cast<std::uint32_t>(t), tracks[t].path, start, true});
        }
        for (std::size_t j = 0; j < joints; ++j) {
            const std::int32_t p = model.skeleton.parents()[j];
            const NodeId parent = p >= 0 ? nodes[static_cast<std::size_t>(p)] : NodeId{};
            if (!take(w.scene.addNode(parent, "joint", model.skeleton.restPose()[j], std::move(roles[j])), nodes[j],
                      w.error)) {
                return w;
            }
        }
        SkinId skin;
        if (!take(w.scene.addSkin({nodes, model.skins.front().inverseBindMatrices}), skin, w.error)) return w;
        NodeId draw;
        if (!take(w.scene.addNode({}, "body", {}, RenderableRole{RenderObjectId{0}, skin, {}}), draw, w.error)) {
            return w;
        }
    }
    return w;
}

}  // namespace kinema::bench
