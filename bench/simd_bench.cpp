// The per-frame workloads on the SIMD path (PackedClip, PoseKernels, PoseBatch),
// beside their scalar counterparts in sampling_bench.cpp and skinning_bench.cpp;
// same units: ns per joint = time / (instances x joints), ns per vertex. Every case
// uses bestSimdLevel(), or the level named by the KINEMA_SIMD environment variable
// (portable, sse4.2, avx2, avx512) where this CPU runs it, with the per-CPU kernel
// choice (KernelMix::Tuned) unless KINEMA_KERNELS=uniform; PoseKernels::name() is the
// benchmark's label. One thread unless its name says otherwise. One iteration is one
// PoseBatch::evaluate of every instance.
//
//   SimdW1a/<joints>          W1, 256 instances, +1/60 s per frame, sample + local->model
//                             (the SIMD twin of W1/<joints>)
//   SimdW1aNoLocalPoses/<joints>  SimdW1a keeping no local poses (BatchOptions::localPoses)
//   SimdW1aCompressed/<joints>  SimdW1a on the W1 clip compressed at the default bound
//                             (compressClip, 0.01 cm) and packed with its bits
//                             (PackedClip::fromCompressed)
//   SimdW1aIk/<joints>/<tasks> SimdW1a on 1000 instances with the first 0, 2 or 3 of
//                             the IK workload's tasks (w1IkTasks: two two-bone, an aim)
//   SimdW1b/<joints>          W1b, every instance jumps to a random time every frame
//                             (twin of W1bSeek/<joints>)
//   SimdW1c/<joints>          two W1 clips sampled and blended 50/50, then local->model
//   SimdW1Layers3/<joints>    three layers: W1, a masked override, an additive one
//   SimdW1e/<joints>          SimdW1a on all threads of oneTBB's default arena (real
//                             time: CPU time of the calling thread says nothing here)
//   SimdCesiumMan/<instances> CesiumMan's clip, sample + local->model + palette
//   SimdW1aSample/<joints>, SimdW1aLocalToModel/<joints>  SimdW1a's two passes apart,
//                             straight on PoseKernels
//   SimdW1aSampleL2/<joints>, SimdW1aLocalToModelL2/<joints>  the same on 16 instances,
//                             whose poses and matrices stay in L2
//   SimdPalette/<joints>      PoseKernels::skinPalette for 256 W1 poses (twin of Palette)
//   SimdPaletteHotModel/<joints> the same 256 palettes from one pose's model matrices
//                             (cache-hot, as in PoseBatch's palette pass)
//   SimdPaletteL2/<joints>    SimdPalette on 16 instances, whose matrices and palettes
//                             stay in L2
//   SimdSkinVertices/normals:<0|1>  PoseKernels::skinVertices on the synthetic
//                             10,000-vertex mesh (twin of SkinVertices)
//   SimdSkinVerticesL2/normals:<0|1>  the same on 1,500 vertices, which stay in L2
//   SimdSkinVerticesUniform/normals:<0|1>  SimdSkinVertices with KernelMix::Uniform
//                             whatever KINEMA_KERNELS says: beside SimdSkinVertices
//                             under --benchmark_enable_random_interleaving, an
//                             in-process A/B of the two mixes' skinning kernels
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bench_common.hpp"
#include "kinema/batch/pose_batch.hpp"
#include "kinema/runtime/clip_compression.hpp"
#include "kinema/runtime/packed_clip.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "kinema/runtime/simd.hpp"
#include "workloads.hpp"

namespace kinema::bench {

namespace {

constexpr std::size_t kInstances = 256;
constexpr std::size_t kVertices = 10'000;
// Small enough that the mesh and its outputs (about 110 KB with normals) stay in any
// current core's L2: the kernel's own speed, without the memory system's.
constexpr std::size_t kL2Vertices = 1'500;
// Instances whose poses and model matrices (104 bytes per joint) stay in L2 at
// 128 joints: the passes' own speed.
constexpr std::size_t kL2Instances = 16;
constexpr double kFrameStep = 1.0 / 60.0;

void setPerJoint(benchmark::State& state, std::size_t instances, std::size_t joints) {
    state.counters["per_joint"] =
        benchmark::Counter(static_cast<double>(instances * joints),
                           benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    state.counters["joints"] = static_cast<double>(joints);
    state.counters["instances"] = static_cast<double>(instances);
}

const Model* w1Model(benchmark::State& state) {
    const Workload& w = w1(static_cast<std::size_t>(state.range(0)));
    if (!w.error.empty()) {
        state.SkipWithError(w.error.c_str());
        return nullptr;
    }
    return &w.model;
}

// KINEMA_SIMD picks a lower level to compare kernels on one machine; a name that
// does not parse, or a level this CPU cannot run, falls back to the best one.
SimdLevel benchSimdLevel() {
    const char* name = std::getenv("KINEMA_SIMD");
    if (name == nullptr) return bestSimdLevel();
    const std::optional<SimdLevel> level = parseSimdLevel(name);
    return level && isSupported(*level) ? *level : bestSimdLevel();
}

// KINEMA_KERNELS=uniform runs every pass with the level's own kernels (KernelMix).
KernelMix benchKernelMix() {
    const char* name = std::getenv("KINEMA_KERNELS");
    return name != nullptr && std::string_view(name) == "uniform" ? KernelMix::Uniform : KernelMix::Tuned;
}

BatchOptions options(std::size_t threads, const Skin* skin = nullptr) {
    BatchOptions o;
    o.threads = threads;
    o.simd = benchSimdLevel();
    o.kernels = benchKernelMix();
    if (skin != nullptr) o.skins = {skin, 1};
    return o;
}

// One untimed evaluation (binds the cursors); false and the benchmark skipped when
// the batch rejects the inputs, so the loop never times an early return.
bool prime(benchmark::State& state, PoseBatch& batch, std::span<const InstanceRequest> inputs) {
    const Status status = batch.evaluate(inputs);
    if (!status) {
        state.SkipWithError(status.message().c_str());
        return false;
    }
    state.SetLabel(std::string(batch.kernels().name()));
    return true;
}

// Sequential playback of `inputs` (every layer advances 1/60 s per frame, in the
// batch's parallel pass).
void playForward(benchmark::State& state, PoseBatch& batch, std::vector<InstanceRequest>& inputs) {
    if (!prime(state, batch, inputs)) return;
    const auto advance = [](std::size_t, InstanceRequest& in) {
        for (std::uint32_t l = 0; l < in.layerCount; ++l) in.layers[l].time += kFrameStep;
    };
    for (auto _ : state) {
        benchmark::DoNotOptimize(batch.evaluate(inputs, advance));
        benchmark::ClobberMemory();
    }
}

void BM_SimdW1a(benchmark::State& state) {
    const Model* model = w1Model(state);
    if (model == nullptr) return;
    const PackedClip clip(model->clips.front());
    PoseBatch batch = bench::makeBatch(*model, kInstances, options(1));
    auto inputs = staggeredInputs(clip, kInstances);
    playForward(state, batch, inputs);
    setPerJoint(state, kInstances, model->skeleton.jointCount());
    state.counters["bytes_per_key"] = clip.bytesPerKey();
}
BENCHMARK(BM_SimdW1a)->Name("SimdW1a")->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);

void BM_SimdW1aIk(benchmark::State& state) {
    const Model* model = w1Model(state);
    if (model == nullptr) return;
    constexpr std::size_t kIkInstances = 1000;
    const PackedClip clip(model->clips.front());
    PoseBatch batch = bench::makeBatch(*model, kIkInstances, options(1));
    auto inputs = staggeredInputs(clip, kIkInstances);
    const auto tasks = w1IkTasks(model->skeleton, kIkInstances);
    const auto count = static_cast<std::size_t>(state.range(1));
    for (std::size_t i = 0; i < kIkInstances; ++i) inputs[i].ik = std::span<const IkTask>(tasks[i].data(), count);
    playForward(state, batch, inputs);
    setPerJoint(state, kIkInstances, model->skeleton.jointCount());
}
BENCHMARK(BM_SimdW1aIk)->Name("SimdW1aIk")->ArgsProduct({{64, 128}, {0, 2, 3}})->Unit(benchmark::kMicrosecond);

void BM_SimdW1aCompressed(benchmark::State& state) {
    const Model* model = w1Model(state);
    if (model == nullptr) return;
    auto compressed = compressClip(model->skeleton, model->clips.front());
    if (!compressed) {
        state.SkipWithError(compressed.message().c_str());
        return;
    }
    auto clip = PackedClip::fromCompressed(*compressed, model->clips.front());
    if (!clip) {
        state.SkipWithError(clip.message().c_str());
        return;
    }
    PoseBatch batch = bench::makeBatch(*model, kInstances, options(1));
    auto inputs = staggeredInputs(*clip, kInstances);
    playForward(state, batch, inputs);
    setPerJoint(state, kInstances, model->skeleton.jointCount());
    state.counters["bytes_per_key"] = clip->bytesPerKey();
}
BENCHMARK(BM_SimdW1aCompressed)->Name("SimdW1aCompressed")->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);

// SimdW1a with BatchOptions::localPoses off: model matrices only, each thread
// evaluating in one scratch pose (256 poses' writes fewer per frame).
void BM_SimdW1aNoLocalPoses(benchmark::State& state) {
    const Model* model = w1Model(state);
    if (model == nullptr) return;
    const PackedClip clip(model->clips.front());
    BatchOptions o = options(1);
    o.localPoses = false;
    PoseBatch batch = bench::makeBatch(*model, kInstances, o);
    auto inputs = staggeredInputs(clip, kInstances);
    playForward(state, batch, inputs);
    setPerJoint(state, kInstances, model->skeleton.jointCount());
    state.counters["bytes_per_key"] = clip.bytesPerKey();
}
BENCHMARK(BM_SimdW1aNoLocalPoses)->Name("SimdW1aNoLocalPoses")->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);

// SimdW1a's two passes apart, straight on PoseKernels over `instances` instances' own
// poses: sampling alone (cursors, packed clip -> SoA pose, +1/60 s each time), and
// local->model alone (SoA pose -> model matrices, of poses sampled once before).
void runSimdW1aPass(benchmark::State& state, bool compose, std::size_t instances) {
    const Model* model = w1Model(state);
    if (model == nullptr) return;
    const PackedClip clip(model->clips.front());
    const std::size_t joints = model->skeleton.jointCount();
    const PoseKernels kernels(benchSimdLevel(), benchKernelMix());
    state.SetLabel(std::string(kernels.name()));
    std::vector<SoaPose> poses(instances, SoaPose(joints, 0));
    std::vector<PackedClipCursor> cursors(instances, PackedClipCursor(clip));
    std::vector<float> times(instances);
    std::vector<Mat4> matrices(instances * joints);
    for (std::size_t i = 0; i < instances; ++i) {
        times[i] = clip.duration() * static_cast<float>(i) / static_cast<float>(instances);
        kernels.sample(clip, times[i], cursors[i], poses[i]);
    }
    const auto parents = model->skeleton.parents();
    for (auto _ : state) {
        for (std::size_t i = 0; i < instances; ++i) {
            if (compose) {
                kernels.localToModel(parents, poses[i], {matrices.data() + i * joints, joints});
                continue;
            }
            times[i] += 1.0f / 60.0f;
            if (times[i] >= clip.duration()) times[i] -= clip.duration();
            kernels.sample(clip, times[i], cursors[i], poses[i]);
        }
        benchmark::ClobberMemory();
    }
    setPerJoint(state, instances, joints);
}
void BM_SimdW1aSample(benchmark::State& state) { runSimdW1aPass(state, false, kInstances); }
void BM_SimdW1aLocalToModel(benchmark::State& state) { runSimdW1aPass(state, true, kInstances); }
void BM_SimdW1aLocalToModelL2(benchmark::State& state) { runSimdW1aPass(state, true, kL2Instances); }
void BM_SimdW1aSampleL2(benchmark::State& state) { runSimdW1aPass(state, false, kL2Instances); }
BENCHMARK(BM_SimdW1aSample)->Name("SimdW1aSample")->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SimdW1aLocalToModel)->Name("SimdW1aLocalToModel")->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SimdW1aSampleL2)->Name("SimdW1aSampleL2")->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SimdW1aLocalToModelL2)->Name("SimdW1aLocalToModelL2")->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);

void BM_SimdW1b(benchmark::State& state) {
    const Model* model = w1Model(state);
    if (model == nullptr) return;
    const PackedClip clip(model->clips.front());
    PoseBatch batch = bench::makeBatch(*model, kInstances, options(1));
    auto inputs = staggeredInputs(clip, kInstances);
    if (!prime(state, batch, inputs)) return;
    // The same random times as W1bSeek (sampling_bench.cpp).
    std::vector<double> times(16411);
    Random rng(mix(kSeed + 1));
    for (double& t : times) t = 8.0 * static_cast<double>(clip.duration()) * rng.uniform();
    std::size_t next = 0;
    for (auto _ : state) {
        for (InstanceRequest& in : inputs) {
            in.layers[0].time = times[next];
            next = next + 1 == times.size() ? 0 : next + 1;
        }
        benchmark::DoNotOptimize(batch.evaluate(inputs));
        benchmark::ClobberMemory();
    }
    setPerJoint(state, kInstances, model->skeleton.jointCount());
}
BENCHMARK(BM_SimdW1b)->Name("SimdW1b")->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);

void BM_SimdW1c(benchmark::State& state) {
    const Model* model = w1Model(state);
    if (model == nullptr) return;
    const ClipWorkload& second = w1SecondClip(static_cast<std::size_t>(state.range(0)));
    if (!second.error.empty()) {
        state.SkipWithError(second.error.c_str());
        return;
    }
    const PackedClip clipA(model->clips.front());
    const PackedClip clipB(second.clip);
    PoseBatch batch = bench::makeBatch(*model, kInstances, options(1));
    auto inputs = blendedInputs(clipA, clipB, kInstances);
    playForward(state, batch, inputs);
    setPerJoint(state, kInstances, model->skeleton.jointCount());
}
BENCHMARK(BM_SimdW1c)->Name("SimdW1c")->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);

// Three layers: the W1 clip, the second W1 clip over it at 0.5
// masked to the subtree of joint 1 (about half the heap), and the first clip again
// as an additive layer at 0.3 against the rest pose; then local->model.
void BM_SimdW1Layers3(benchmark::State& state) {
    const Model* model = w1Model(state);
    if (model == nullptr) return;
    const ClipWorkload& second = w1SecondClip(static_cast<std::size_t>(state.range(0)));
    if (!second.error.empty()) {
        state.SkipWithError(second.error.c_str());
        return;
    }
    const PackedClip clipA(model->clips.front());
    const PackedClip clipB(second.clip);
    JointMask upper(model->skeleton.jointCount());
    if (!upper.setSubtree(model->skeleton.parents(), 1, 1.0f)) {
        state.SkipWithError("JointMask::setSubtree refused the W1 skeleton");
        return;
    }
    PoseBatch batch = bench::makeBatch(*model, kInstances, options(1));
    auto inputs = blendedInputs(clipA, clipB, kInstances);
    for (InstanceRequest& in : inputs) {
        in.layerCount = 3;
        in.layers[1].mask = &upper;
        in.layers[2] = in.layers[0];
        in.layers[2].weight = 0.3f;
        in.layers[2].mode = LayerMode::Additive;
    }
    playForward(state, batch, inputs);
    setPerJoint(state, kInstances, model->skeleton.jointCount());
}
BENCHMARK(BM_SimdW1Layers3)->Name("SimdW1Layers3")->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);

void BM_SimdW1e(benchmark::State& state) {
    const Model* model = w1Model(state);
    if (model == nullptr) return;
    const PackedClip clip(model->clips.front());
    PoseBatch batch = bench::makeBatch(*model, kInstances, options(0));
    auto inputs = staggeredInputs(clip, kInstances);
    playForward(state, batch, inputs);
    setPerJoint(state, kInstances, model->skeleton.jointCount());
    state.counters["threads"] = static_cast<double>(batch.threadCount());
}
BENCHMARK(BM_SimdW1e)->Name("SimdW1e")->Arg(64)->Arg(128)->UseRealTime()->Unit(benchmark::kMicrosecond);

void BM_SimdCesiumMan(benchmark::State& state) {
    std::string error;
    const Model* model = sharedModel("CesiumMan", error);
    if (model == nullptr) {
        state.SkipWithError(error.c_str());
        return;
    }
    if (model->clips.empty()) {
        state.SkipWithError("CesiumMan has no clip");
        return;
    }
    const auto count = static_cast<std::size_t>(state.range(0));
    const PackedClip clip(model->clips.front());
    const Skin* skin = model->skins.empty() ? nullptr : &model->skins.front();
    PoseBatch batch = bench::makeBatch(*model, count, options(1, skin));
    auto inputs = staggeredInputs(clip, count);
    playForward(state, batch, inputs);
    setPerJoint(state, count, model->skeleton.jointCount());
}
BENCHMARK(BM_SimdCesiumMan)->Name("SimdCesiumMan")->Arg(1)->Arg(1000)->Unit(benchmark::kMicrosecond);

// Model matrices of 256 W1 instances at staggered times, from one batch evaluation.
bool w1ModelMatrices(benchmark::State& state, const Model& model, std::vector<Mat4>& out) {
    const std::size_t joints = model.skeleton.jointCount();
    const PackedClip clip(model.clips.front());
    PoseBatch batch = bench::makeBatch(model, kInstances, options(1));
    if (!prime(state, batch, staggeredInputs(clip, kInstances))) return false;
    out.resize(kInstances * joints);
    for (std::size_t i = 0; i < kInstances; ++i) {
        const auto m = batch.model(i);
        std::copy(m.begin(), m.end(), out.begin() + static_cast<std::ptrdiff_t>(i * joints));
    }
    return true;
}

// The palettes of 256 instances: from each instance's own model matrices
// (SimdPalette: 256 poses' matrices stream through the caches), or from one pose's
// matrices, which stay in L1 (SimdPaletteHotModel: the access pattern of PoseBatch,
// whose palette pass reads the matrices local->model has just written). The outputs
// stream in both; SimdPaletteL2 is SimdPalette on 16 instances, whose matrices and
// palettes stay in L2.
void runSimdPalette(benchmark::State& state, bool hotModel, std::size_t instances) {
    const Model* model = w1Model(state);
    if (model == nullptr) return;
    const Skin& skin = model->skins.front();
    const std::size_t joints = model->skeleton.jointCount();
    const std::size_t n = skin.joints.size();
    std::vector<Mat4> models, palettes(instances * n);
    if (!w1ModelMatrices(state, *model, models)) return;
    const PoseKernels kernels(benchSimdLevel(), benchKernelMix());
    state.SetLabel(std::string(kernels.name()));
    if (!kernels.skinPalette(skin, {models.data(), joints}, {palettes.data(), n})) {
        state.SkipWithError("PoseKernels::skinPalette rejected its buffers");
        return;
    }
    for (auto _ : state) {
        for (std::size_t i = 0; i < instances; ++i) {
            const std::size_t from = hotModel ? 0 : i;
            kernels.skinPalette(skin, {models.data() + from * joints, joints}, {palettes.data() + i * n, n});
        }
        benchmark::ClobberMemory();
    }
    state.counters["per_joint"] =
        benchmark::Counter(static_cast<double>(instances * n),
                           benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
void BM_SimdPalette(benchmark::State& state) { runSimdPalette(state, false, kInstances); }
void BM_SimdPaletteHotModel(benchmark::State& state) { runSimdPalette(state, true, kInstances); }
void BM_SimdPaletteL2(benchmark::State& state) { runSimdPalette(state, false, kL2Instances); }
BENCHMARK(BM_SimdPalette)->Name("SimdPalette")->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SimdPaletteHotModel)->Name("SimdPaletteHotModel")->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SimdPaletteL2)->Name("SimdPaletteL2")->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);

void runSimdSkinVertices(benchmark::State& state, std::size_t vertices, KernelMix mix = benchKernelMix()) {
    constexpr std::size_t kJoints = 64;
    const Workload& w = w1(kJoints);
    if (!w.error.empty()) {
        state.SkipWithError(w.error.c_str());
        return;
    }
    const Model& model = w.model;
    const Skin& skin = model.skins.front();
    std::vector<Mat4> models;
    if (!w1ModelMatrices(state, model, models)) return;
    const PoseKernels kernels(benchSimdLevel(), mix);
    state.SetLabel(std::string(kernels.name()));
    std::vector<Mat4> palette(skin.joints.size());
    kernels.skinPalette(skin, {models.data(), kJoints}, palette);

    const MeshPrimitive primitive = makeSkinnedPrimitive(vertices, kJoints);
    const bool withNormals = state.range(0) != 0;
    std::vector<Vec3> outPositions(vertices), outNormals(withNormals ? vertices : 0);
    const std::span<const Vec3> normals =
        withNormals ? std::span<const Vec3>(primitive.normals) : std::span<const Vec3>();
    if (!kernels.skinVertices(primitive, palette, primitive.positions, normals, outPositions, outNormals)) {
        state.SkipWithError("PoseKernels::skinVertices rejected its buffers");
        return;
    }
    for (auto _ : state) {
        kernels.skinVertices(primitive, palette, primitive.positions, normals, outPositions, outNormals);
        benchmark::ClobberMemory();
    }
    state.counters["per_vertex"] = benchmark::Counter(
        static_cast<double>(vertices), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
void BM_SimdSkinVertices(benchmark::State& state) { runSimdSkinVertices(state, kVertices); }
void BM_SimdSkinVerticesL2(benchmark::State& state) { runSimdSkinVertices(state, kL2Vertices); }
void BM_SimdSkinVerticesUniform(benchmark::State& state) { runSimdSkinVertices(state, kVertices, KernelMix::Uniform); }
BENCHMARK(BM_SimdSkinVertices)
    ->Name("SimdSkinVertices")
    ->ArgName("normals")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SimdSkinVerticesL2)
    ->Name("SimdSkinVerticesL2")
    ->ArgName("normals")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SimdSkinVerticesUniform)
    ->Name("SimdSkinVerticesUniform")
    ->ArgName("normals")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMicrosecond);

}  // namespace

}  // namespace kinema::bench
