#include "model_view.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <cmath>
#include <iostream>
#include <variant>

#include "animation_choice.hpp"
#include "kinema/core/counted.hpp"
#include "kinema/io/model_file.hpp"
#include "kinema/scene/posed_vertices.hpp"

namespace kinema::cli {
namespace {

constexpr int kBoundsSamples = 32;

void grow(Vec3 p, Vec3& lo, Vec3& hi) {
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
}

}  // namespace

std::optional<Model> importForDrawing(const std::string& file, const ImportFlags& flags, const char* command) {
    ImportOptions options = toImportOptions(flags);
    options.decodeImages = true;
    // A cooked file holds its images decoded already.
    auto loaded = loadModelFile(file, options);
    printWarnings(std::cerr, loaded.warnings());
    if (!loaded) {
        std::cerr << "kinema " << command << ": " << loaded.message() << '\n';
        return std::nullopt;
    }
    return std::move(*loaded);
}

Result<ModelScene> modelSceneFor(const Model& model, const std::optional<std::string>& spec) {
    ModelSceneOptions options;
    if (!spec) return buildModelScene(model, options);
    const auto chosen = chooseAnimation(model, *spec);
    if (!chosen) return std::vector<Fault>(chosen.faults().begin(), chosen.faults().end());
    if (*chosen) {
        options.animationIndex = static_cast<std::int32_t>(**chosen);
    } else {
        options.bindAnimation = false;
    }
    return buildModelScene(model, options);
}

std::vector<NodeId> rigJoints(const Scene& scene) {
    std::vector<NodeId> joints;
    for (const SceneSkin& skin : scene.skins()) joints.insert(joints.end(), skin.joints.begin(), skin.joints.end());
    if (joints.empty()) {
        for (std::uint32_t n = 0; n < scene.nodeCount(); ++n)
            if (!std::holds_alternative<RenderableRole>(scene.role(NodeId{n}))) joints.push_back(NodeId{n});
    }
    std::sort(joints.begin(), joints.end(), [](NodeId a, NodeId b) { return a.value < b.value; });
    joints.erase(std::unique(joints.begin(), joints.end()), joints.end());
    return joints;
}

double boundDuration(const ModelScene& built) {
    if (!built.boundAnimation.valid()) return 0.0;
    return static_cast<double>(built.scene.animations()[built.boundAnimation.value].duration());
}

bool animatedBounds(const ModelScene& built, std::span<const NodeId> rig, std::span<const double> moreTimes, Vec3& lo,
                    Vec3& hi) {
    const double duration = boundDuration(built);
    std::vector<double> times(moreTimes.begin(), moreTimes.end());
    for (int i = 0; i <= kBoundsSamples; ++i) times.push_back(duration * i / kBoundsSamples);
    std::sort(times.begin(), times.end());
    Scene probe = built.scene;
    for (std::uint32_t n = 0; n < probe.nodeCount(); ++n) (void)probe.setPlaybackTime(NodeId{n}, 0.0);
    lo = {INFINITY, INFINITY, INFINITY};
    hi = {-INFINITY, -INFINITY, -INFINITY};
    DrawList draws;
    double now = 0.0;
    for (double t : times) {
        (void)probe.advance(std::max(0.0, t - now));
        now = std::max(now, t);
        probe.updateWorldTransforms();
        probe.fillDrawList(draws);
        Vec3 a, b;
        if (posedBounds(built.catalogue, draws, a, b)) {
            grow(a, lo, hi);
            grow(b, lo, hi);
        }
        for (NodeId j : rig) {
            const Mat4& w = probe.world(j);
            grow({w.m[12], w.m[13], w.m[14]}, lo, hi);
        }
    }
    return lo.x <= hi.x;
}

std::string oneLine(std::string text) {
    for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + 2))
        text.replace(at, 1, "; ");
    return text;
}

}  // namespace kinema::cli
