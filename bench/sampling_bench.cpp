// Per-frame cost of playing clips on many instances: reference::sample (keyframe
// interpolation into local TRS) + localToModel (local -> model matrices), in
// nanoseconds per joint = total time / (instances * joints per skeleton).
//
// One benchmark iteration is one evaluation ("frame") of every instance. Each
// instance owns its time (double seconds), a SamplingCursor and a Pose; instances
// start staggered evenly over the clip. Per instance and frame the timed work is:
//   time += 1/60; t = clipTime(time, duration, Loop); reference::sample(cursor); localToModel.
// resetToRest is not included: nothing else writes the local pose, so joints the
// clip does not animate keep their rest values from makeRestPose (every W1 joint
// is animated on all three paths; CesiumMan leaves 3 of its 22 nodes at rest).
//
//   CesiumMan/<instances>       the sample model's only clip (19 joints x T/R/S, 22 nodes)
//   W1/<joints>                 reference workload W1 (workloads/workloads.hpp), 256 instances
//   W1Sample/<joints>           W1 with reference::sample only (no localToModel)
//   W1LocalToModel/<joints>     W1 with localToModel only (poses sampled once before)
//   W1bSeek/<joints>            W1b: every instance jumps to a random time every frame
//                               (the cursor misses and binary-searches)
//   W1bSeekNoCursor/<joints>    W1b through the cursorless reference::sample overload
#include <benchmark/benchmark.h>

#include <span>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "kinema/runtime/clip_time.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/sample.hpp"
#include "workloads.hpp"

namespace kinema::bench {

namespace {

constexpr std::size_t kInstances = 256;
constexpr double kFrameStep = 1.0 / 60.0;

struct Instance {
    double time = 0.0;
    SamplingCursor cursor;
    Pose pose;
};

std::vector<Instance> makeInstances(const Model& model, const Clip& clip, std::size_t count) {
    std::vector<Instance> instances(count);
    for (std::size_t i = 0; i < count; ++i) {
        instances[i].time = static_cast<double>(clip.duration()) * static_cast<double>(i) / static_cast<double>(count);
        instances[i].cursor = SamplingCursor(clip);
        instances[i].pose = makeRestPose(model);
    }
    return instances;
}

// Samples every instance once at its current time; false (and the benchmark
// skipped) when reference::sample rejects the outputs, so the timed loop never measures
// an early return.
bool primeInstances(benchmark::State& state, const Model& model, const Clip& clip, std::vector<Instance>& instances) {
    for (Instance& in : instances) {
        const double t = clipTime(in.time, clip.duration(), LoopMode::Loop);
        if (!reference::sample(clip, t, in.cursor, in.pose.local, in.pose.weights)) {
            state.SkipWithError("reference::sample rejected the pose buffers");
            return false;
        }
        reference::localToModel(model.skeleton.parents(), in.pose.local, in.pose.model);
    }
    return true;
}

void setPerJoint(benchmark::State& state, std::size_t instances, std::size_t joints) {
    state.counters["per_joint"] =
        benchmark::Counter(static_cast<double>(instances * joints),
                           benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    state.counters["joints"] = static_cast<double>(joints);
    state.counters["instances"] = static_cast<double>(instances);
}

// The frame loop shared by CesiumMan and W1.
void playForward(benchmark::State& state, const Model& model, const Clip& clip, std::size_t count) {
    auto instances = makeInstances(model, clip, count);
    if (!primeInstances(state, model, clip, instances)) return;
    const auto parents = model.skeleton.parents();
    const float duration = clip.duration();
    for (auto _ : state) {
        for (Instance& in : instances) {
            in.time += kFrameStep;
            const double t = clipTime(in.time, duration, LoopMode::Loop);
            reference::sample(clip, t, in.cursor, in.pose.local, in.pose.weights);
            reference::localToModel(parents, in.pose.local, in.pose.model);
        }
        benchmark::ClobberMemory();
    }
    setPerJoint(state, count, model.skeleton.jointCount());
}

const Model* w1Model(benchmark::State& state) {
    const Workload& w = w1(static_cast<std::size_t>(state.range(0)));
    if (!w.error.empty()) {
        state.SkipWithError(w.error.c_str());
        return nullptr;
    }
    return &w.model;
}

void BM_CesiumMan(benchmark::State& state) {
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
    playForward(state, *model, model->clips.front(), static_cast<std::size_t>(state.range(0)));
}
BENCHMARK(BM_CesiumMan)->Name("CesiumMan")->Arg(1)->Arg(256)->Unit(benchmark::kMicrosecond);

void BM_W1(benchmark::State& state) {
    const Model* model = w1Model(state);
    if (model == nullptr) return;
    playForward(state, *model, model->clips.front(), kInstances);
}
BENCHMARK(BM_W1)->Name("W1")->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);

void BM_W1Sample(benchmark::State& state) {
    const Model* model = w1Model(state);
    if (model == nullptr) return;
    const Clip& clip = model->clips.front();
    auto instances = makeInstances(*model, clip, kInstances);
    if (!primeInstances(state, *model, clip, instances)) return;
    for (auto _ : state) {
        for (Instance& in : instances) {
            in.time += kFrameStep;
            reference::sample(clip, clipTime(in.time, clip.duration(), LoopMode::Loop), in.cursor, in.pose.local,
                              in.pose.weights);
        }
        benchmark::ClobberMemory();
    }
    setPerJoint(state, kInstances, model->skeleton.jointCount());
}
BENCHMARK(BM_W1Sample)->Name("W1Sample")->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);

void BM_W1LocalToModel(benchmark::State& state) {
    const Model* model = w1Model(state);
    if (model == nullptr) return;
    const Clip& clip = model->clips.front();
    auto instances = makeInstances(*model, clip, kInstances);
    if (!primeInstances(state, *model, clip, instances)) return;
    const auto parents = model->skeleton.parents();
    for (auto _ : state) {
        for (Instance& in : instances) reference::localToModel(parents, in.pose.local, in.pose.model);
        benchmark::ClobberMemory();
    }
    setPerJoint(state, kInstances, model->skeleton.jointCount());
}
BENCHMARK(BM_W1LocalToModel)->Name("W1LocalToModel")->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);

// Random playback times, several laps long so clipTime wraps as in play; a prime
// count so consecutive frames of one instance do not repeat a pattern.
std::vector<double> randomTimes(float duration) {
    constexpr std::size_t kCount = 16411;
    Random rng(mix(kSeed + 1));
    std::vector<double> times(kCount);
    for (double& t : times) t = 8.0 * static_cast<double>(duration) * rng.uniform();
    return times;
}

template <bool UseCursor>
void seekEveryFrame(benchmark::State& state) {
    const Model* model = w1Model(state);
    if (model == nullptr) return;
    const Clip& clip = model->clips.front();
    auto instances = makeInstances(*model, clip, kInstances);
    if (!primeInstances(state, *model, clip, instances)) return;
    const auto times = randomTimes(clip.duration());
    const auto parents = model->skeleton.parents();
    const float duration = clip.duration();
    std::size_t next = 0;
    for (auto _ : state) {
        for (Instance& in : instances) {
            in.time = times[next];
            next = next + 1 == times.size() ? 0 : next + 1;
            const double t = clipTime(in.time, duration, LoopMode::Loop);
            if constexpr (UseCursor) {
                reference::sample(clip, t, in.cursor, in.pose.local, in.pose.weights);
            } else {
                reference::sample(clip, t, in.pose.local, in.pose.weights);
            }
            reference::localToModel(parents, in.pose.local, in.pose.model);
        }
        benchmark::ClobberMemory();
    }
    setPerJoint(state, kInstances, model->skeleton.jointCount());
}
BENCHMARK_TEMPLATE(seekEveryFrame, true)->Name("W1bSeek")->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(seekEveryFrame, false)->Name("W1bSeekNoCursor")->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);

}  // namespace

}  // namespace kinema::bench
