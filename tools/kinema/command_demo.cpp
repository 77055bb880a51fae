#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "demo_runner.hpp"
#include "kinema/runtime/clip_time.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/sample.hpp"
#include "kinema/runtime/skinning.hpp"

namespace kinema::cli {

int runDemo(const DemoOptions& options) {
    auto built = buildRunner();
    if (!built) {
        std::cerr << "kinema demo: the built-in runner is invalid:\n" << built.message() << '\n';
        return 1;
    }
    const Model& model = *built;
    const Clip& clip = model.clips[0];
    const Skin& skin = model.skins[0];
    const MeshPrimitive& mesh = model.meshes[0].primitives[0];

    std::printf("kinema demo: a runner built in code\n");
    std::printf("  rig: %zu joints:", model.skeleton.jointCount());
    for (std::size_t j = 0; j < model.skeleton.jointCount(); ++j) {
        const auto name = model.skeleton.name(j);
        std::printf(" %.*s", int(name.size()), name.data());
    }
    std::printf("\n  clip '%.*s': %.3g s, %zu tracks, looping; markers:", int(clip.name().size()), clip.name().data(),
                double(clip.duration()), clip.tracks().size());
    for (const Marker& m : clip.markers()) std::printf(" %s@%.3gs", m.name.c_str(), double(m.time));
    std::printf("\n  skin: %zu joints; mesh: %zu vertices with up to 2 influences\n\n", skin.joints.size(),
                mesh.vertexCount());

    Pose pose = makeRestPose(model);
    SamplingCursor cursor(clip);
    std::vector<Mat4> palette(skin.joints.size());
    std::vector<Vec3> skinned(mesh.vertexCount());
    const auto leftFoot = *model.skeleton.findJoint("leftFoot");
    const auto rightFoot = *model.skeleton.findJoint("rightFoot");
    const auto head = *model.skeleton.findJoint("head");

    std::printf("  %6s  %6s  %24s  %24s  %24s\n", "time", "clip t", "left foot (x, y, z)", "right foot (x, y, z)",
                "head (x, y, z)");
    float worstSkinError = 0.0f;
    const int frames = static_cast<int>(std::floor(options.seconds / options.step + 1e-9)) + 1;
    for (int f = 0; f < frames; ++f) {
        const double time = f * options.step;
        const float t = clipTime(time, clip.duration(), LoopMode::Loop);
        sampleClip(clip, t, cursor, pose.local, pose.weights);
        localToModel(model.skeleton.parents(), pose.local, pose.model);
        buildSkinPalette(skin, pose.model, palette);
        skinVertices(mesh, palette, mesh.positions, {}, skinned, {});
        // Vertices bound rigidly to a joint must land exactly on that joint.
        for (std::size_t j = 0; j < model.skeleton.jointCount(); ++j) {
            const Mat4& m = pose.model[j];
            const Vec3 d = skinned[j] - Vec3{m.m[12], m.m[13], m.m[14]};
            worstSkinError = std::max(worstSkinError, length(d));
        }
        auto pos = [&](std::uint32_t j) {
            const Mat4& m = pose.model[j];
            char buf[64];
            // + 0.0 turns a negative zero into zero, so the table never prints "-0.000".
            std::snprintf(buf, sizeof buf, "(%6.3f, %6.3f, %6.3f)", double(m.m[12]) + 0.0, double(m.m[13]) + 0.0,
                          double(m.m[14]) + 0.0);
            return std::string(buf);
        };
        std::printf("  %6.3f  %6.3f  %24s  %24s  %24s\n", time, double(t), pos(leftFoot).c_str(),
                    pos(rightFoot).c_str(), pos(head).c_str());
    }
    std::printf("\n  evaluated %d frames: sample -> local-to-model -> palette -> skinning of %zu vertices\n", frames,
                mesh.vertexCount());
    std::printf("  check: rigidly bound vertices are within %.2g m of their joints\n", double(worstSkinError));
    return worstSkinError < 1e-4f ? 0 : 1;
}

}  // namespace kinema::cli
