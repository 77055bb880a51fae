#include "model_view.hpp"

#include <algorithm>
#include <limits>
#include <charconv>
#include <cmath>
#include <iostream>
#include <variant>

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

std::optional<std::int64_t> animationIndex(const Model& model, const std::string& spec) {
    std::int64_t i = 0;
    const auto r = std::from_chars(spec.data(), spec.data() + spec.size(), i);
    if (spec.empty() || r.ptr != spec.data() + spec.size()) return std::nullopt;
    if (r.ec == std::errc::result_out_of_range)
        i = spec.front() == '-' ? -1 : std::numeric_limits<std::int64_t>::max();
    else if (r.ec != std::errc{})
        return std::nullopt;
    // A clip may be named "1": a name wins over an index.
    for (const Clip& c : model.clips)
        if (c.name() == spec) return std::nullopt;
    return i;
}

Result<ModelScene> modelSceneFor(const Model& model, const std::string& spec) {
    ModelSceneOptions options;
    // "none", or "0" on a file without animations: the rest pose, as `kinema sample` reads them.
    if (spec == "none" || (model.clips.empty() && spec == "0")) {
        options.bindAnimation = false;
        return buildModelScene(model, options);
    }
    if (const auto index = animationIndex(model, spec)) {
        if (*index < 0 || *index >= static_cast<std::int64_t>(model.clips.size())) {
            return Fault{
                model.source + "#/animations",
                "animation " + spec + " is out of range: the file has " + counted(model.clips.size(), "animation")};
        }
        options.animationIndex = static_cast<std::int32_t>(*index);
    } else {
        options.animation = spec;
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
