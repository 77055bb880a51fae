#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

#include "arguments.hpp"
#include "commands.hpp"
#include "animation_choice.hpp"
#include "json_writer.hpp"
#include "kinema/core/counted.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/runtime/clip_time.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/sample.hpp"
#include "kinema/runtime/skinning.hpp"

namespace kinema::cli {

namespace {

// World-space positions of one primitive: morph, then skin (or the node's world matrix).
std::vector<Vec3> posedPositions(const Model& model, const Pose& pose, const MeshInstance& inst,
                                 const MeshPrimitive& prim) {
    const Mesh& mesh = model.meshes[inst.mesh];
    std::vector<Vec3> morphed(prim.vertexCount());
    const std::span<const float> weights(pose.weights.data() + inst.weightOffset,
                                         mesh.targetCount ? mesh.targetCount : 0);
    applyMorphTargets(prim, weights, morphed, {});
    std::vector<Vec3> out(prim.vertexCount());
    if (inst.skin >= 0) {
        const Skin& skin = model.skins[static_cast<std::size_t>(inst.skin)];
        std::vector<Mat4> palette(skin.joints.size());
        reference::skinPalette(skin, pose.model, palette);
        reference::skinVertices(prim, palette, morphed, {}, out, {});
    } else {
        const Mat4& world = pose.model[inst.joint];
        for (std::size_t v = 0; v < morphed.size(); ++v) out[v] = transformPoint(world, morphed[v]);
    }
    return out;
}

// The readable form of one time: a line per node (local TRS, world position), then a
// line per mesh node with its morph weights and, with `skinned`, each primitive's
// world-space vertex positions, one vertex a line.
void printText(const Model& model, const Pose& pose, double time, double clipT, bool skinned) {
    std::printf("t = %g s (clip time %g s)\n", time, clipT);
    // Columns as wide as the longest node name and index, so the transforms line up.
    std::size_t nameWidth = 20;
    for (std::size_t n = 0; n < model.nodeCount(); ++n)
        nameWidth = std::max(nameWidth, model.skeleton.name(model.jointOfNode[n]).size());
    const int indexWidth = int(std::to_string(model.nodeCount() == 0 ? 0 : model.nodeCount() - 1).size());
    for (std::size_t n = 0; n < model.nodeCount(); ++n) {
        const std::uint32_t j = model.jointOfNode[n];
        const Transform& l = pose.local[j];
        const Mat4& m = pose.model[j];
        const std::string_view name = model.skeleton.name(j);
        std::printf("  node %-*zu %-*.*s T(%g, %g, %g) R(%g, %g, %g, %g) S(%g, %g, %g) world pos (%g, %g, %g)\n",
                    indexWidth, n, int(nameWidth), int(name.size()), name.data(), double(l.translation.x),
                    double(l.translation.y), double(l.translation.z), double(l.rotation.x), double(l.rotation.y),
                    double(l.rotation.z), double(l.rotation.w), double(l.scale.x), double(l.scale.y), double(l.scale.z),
                    double(m.m[12]), double(m.m[13]), double(m.m[14]));
    }
    for (const MeshInstance& inst : model.meshInstances) {
        const Mesh& mesh = model.meshes[inst.mesh];
        std::printf("  mesh %u '%s' on node %u: ", inst.mesh, mesh.name.c_str(), model.nodeOfJoint[inst.joint]);
        if (mesh.targetCount == 0) {
            std::printf("no morph targets\n");
        } else {
            std::printf("morph weights (");
            for (std::uint32_t k = 0; k < mesh.targetCount; ++k) {
                std::printf("%s%g", k == 0 ? "" : ", ", double(pose.weights[inst.weightOffset + k]));
            }
            std::printf(")\n");
        }
        if (!skinned) continue;
        for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
            const auto positions = posedPositions(model, pose, inst, mesh.primitives[p]);
            std::printf("    primitive %zu: %s in world space\n", p,
                        counted(positions.size(), "vertex position", "vertex positions").c_str());
            for (std::size_t v = 0; v < positions.size(); ++v) {
                std::printf("      %zu (%g, %g, %g)\n", v, double(positions[v].x), double(positions[v].y),
                            double(positions[v].z));
            }
        }
    }
}

}  // namespace

int runSample(const SampleOptions& options) {
    bool cooked = false;
    auto loaded = loadModel(options.file, options.import, cooked);
    printWarnings(std::cerr, loaded.warnings());
    if (!loaded) {
        std::cerr << loaded.message() << '\n';
        return 1;
    }
    const Model& model = *loaded;
    const auto chosen = chooseAnimation(model, options.animation);
    if (!chosen) {
        std::cerr << "kinema sample: " << chosen.message() << '\n';
        return usageFailure("sample");
    }
    const std::size_t clipIndex = chosen->value_or(0);
    const Clip* clip = *chosen ? &model.clips[clipIndex] : nullptr;
    const LoopMode mode = options.clamp ? LoopMode::Clamp : LoopMode::Loop;

    Pose pose = makeRestPose(model);
    SamplingCursor cursor = clip ? SamplingCursor(*clip) : SamplingCursor();

    std::string out;
    JsonWriter w(out, false);
    w.beginObject();
    w.key("file").value(model.source);
    w.key("animation");
    if (clip) {
        w.beginObject();
        w.key("index").value(static_cast<std::uint64_t>(clipIndex));
        w.key("name").value(clip->name());
        w.key("duration").value(clip->duration());
        w.endObject();
    } else {
        w.null();
    }
    w.key("samples").beginArray();
    for (const double time : options.times) {
        resetToRest(model, pose);
        double clipT = 0.0;
        if (clip) {
            clipT = clipTime(time, clip->duration(), mode);
            reference::sample(*clip, clipT, cursor, pose.local, pose.weights);
        }
        reference::localToModel(model.skeleton.parents(), pose.local, pose.model);
        if (!options.json) {
            printText(model, pose, time, clipT, options.skinned);
            continue;
        }
        w.beginObject();
        w.key("time").value(time);
        w.key("nodes").beginArray();
        for (std::size_t n = 0; n < model.nodeCount(); ++n) {
            const std::uint32_t j = model.jointOfNode[n];
            const Transform& l = pose.local[j];
            w.beginObject();
            w.key("index").value(static_cast<std::uint64_t>(n));
            w.key("name").value(model.skeleton.name(j));
            w.key("translation").floats(std::array{l.translation.x, l.translation.y, l.translation.z});
            w.key("rotation").floats(std::array{l.rotation.x, l.rotation.y, l.rotation.z, l.rotation.w});
            w.key("scale").floats(std::array{l.scale.x, l.scale.y, l.scale.z});
            w.key("world").floats(pose.model[j].m);
            w.endObject();
        }
        w.endArray();
        w.key("meshes").beginArray();
        for (const MeshInstance& inst : model.meshInstances) {
            const Mesh& mesh = model.meshes[inst.mesh];
            for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
                w.beginObject();
                w.key("node").value(static_cast<std::uint64_t>(model.nodeOfJoint[inst.joint]));
                w.key("mesh").value(static_cast<std::uint64_t>(inst.mesh));
                w.key("primitive").value(static_cast<std::uint64_t>(p));
                w.key("weights").floats(
                    std::span<const float>(pose.weights.data() + inst.weightOffset, mesh.targetCount));
                if (options.skinned) {
                    const auto positions = posedPositions(model, pose, inst, mesh.primitives[p]);
                    w.key("positions").beginArray();
                    for (const Vec3& v : positions) w.floats(std::array{v.x, v.y, v.z});
                    w.endArray();
                }
                w.endObject();
            }
        }
        w.endArray();
        w.endObject();
    }
    w.endArray();
    w.endObject();
    if (options.json) std::cout << out << '\n';
    return 0;
}

}  // namespace kinema::cli
