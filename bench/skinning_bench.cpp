// Skin palettes and CPU linear-blend skinning, as baselines for later work.
//
//   Palette/<joints>         reference::skinPalette for 256 W1 instances (skin over every
//                            joint), ns per joint; the poses are sampled once before.
//   SkinVertices/<normals>   reference::skinVertices on a synthetic 10,000-vertex primitive with
//                            4 influences per vertex (random joints of a 64-joint W1
//                            palette, all weights non-zero), ns per vertex;
//                            normals = 0: positions only, 1: positions and normals.
#include <benchmark/benchmark.h>

#include <span>
#include <vector>

#include "kinema/runtime/clip_time.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/sample.hpp"
#include "kinema/runtime/skinning.hpp"
#include "workloads.hpp"

namespace kinema::bench {

namespace {

constexpr std::size_t kInstances = 256;
constexpr std::size_t kVertices = 10'000;

// A pose of W1 sampled at `time` seconds (looped).
bool sampledPose(const Model& model, double time, Pose& pose) {
    const Clip& clip = model.clips.front();
    pose = makeRestPose(model);
    SamplingCursor cursor(clip);
    if (!reference::sample(clip, clipTime(time, clip.duration(), LoopMode::Loop), cursor, pose.local, pose.weights)) {
        return false;
    }
    reference::localToModel(model.skeleton.parents(), pose.local, pose.model);
    return true;
}

void BM_Palette(benchmark::State& state) {
    const Workload& w = w1(static_cast<std::size_t>(state.range(0)));
    if (!w.error.empty()) {
        state.SkipWithError(w.error.c_str());
        return;
    }
    const Model& model = w.model;
    const Skin& skin = model.skins.front();
    std::vector<Pose> poses(kInstances);
    std::vector<std::vector<Mat4>> palettes(kInstances, std::vector<Mat4>(skin.joints.size()));
    for (std::size_t i = 0; i < kInstances; ++i) {
        if (!sampledPose(model, 2.0 * static_cast<double>(i) / kInstances, poses[i])) {
            state.SkipWithError("reference::sample rejected the pose buffers");
            return;
        }
    }
    for (auto _ : state) {
        for (std::size_t i = 0; i < kInstances; ++i) reference::skinPalette(skin, poses[i].model, palettes[i]);
        benchmark::ClobberMemory();
    }
    state.counters["per_joint"] =
        benchmark::Counter(static_cast<double>(kInstances * skin.joints.size()),
                           benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_Palette)->Name("Palette")->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);

void BM_SkinVertices(benchmark::State& state) {
    constexpr std::size_t kJoints = 64;
    const Workload& w = w1(kJoints);
    if (!w.error.empty()) {
        state.SkipWithError(w.error.c_str());
        return;
    }
    const Model& model = w.model;
    const Skin& skin = model.skins.front();
    Pose pose;
    if (!sampledPose(model, 0.7, pose)) {
        state.SkipWithError("reference::sample rejected the pose buffers");
        return;
    }
    std::vector<Mat4> palette(skin.joints.size());
    reference::skinPalette(skin, pose.model, palette);

    const MeshPrimitive primitive = makeSkinnedPrimitive(kVertices, kJoints);
    const bool withNormals = state.range(0) != 0;
    std::vector<Vec3> outPositions(kVertices), outNormals(withNormals ? kVertices : 0);
    for (auto _ : state) {
        reference::skinVertices(primitive, palette, primitive.positions, primitive.normals, outPositions, outNormals);
        benchmark::ClobberMemory();
    }
    state.counters["per_vertex"] = benchmark::Counter(
        static_cast<double>(kVertices), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_SkinVertices)->Name("SkinVertices")->ArgName("normals")->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

}  // namespace kinema::bench
