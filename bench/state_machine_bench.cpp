// A state machine with 8 states, on the W1 skeleton.
//
// States s0..s6 play W1 clip variants 0..6 and form a speed ladder: s_k -> s_k+1
// when speed > k + 0.5, back when speed < k + 0.5 (0.2 s fades); s7 is a one-shot
// "hit" (clip variant 7, clamped) entered from any state by a trigger (0.1 s fade)
// and left for s0 at 90 % of it. Each of 256 instances drives speed along its own
// sine (period 4 s, phases spread over the crowd), so the ladder is climbed and
// descended all the time, and is hit every 3 s (staggered). Each frame is 1/60 s.
//
// SM8Update times the machines alone (per instance); SM8Frame times a whole frame:
// machines, their samples turned into batch layers (motionLayers), and the batch
// evaluation (sampling up to 4 clips, blending, local->model), per joint.
#include <benchmark/benchmark.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "kinema/play/motion_layers.hpp"
#include "kinema/play/state_machine.hpp"
#include "workloads.hpp"

namespace kinema::bench {

namespace {

constexpr std::size_t kInstances = 256;
constexpr double kFrameStep = 1.0 / 60.0;
constexpr int kStates = 8;

struct Crowd {
    std::vector<Clip> clips;
    std::vector<PackedClip> packed;
    std::vector<const PackedClip*> packedBySlot;
    std::optional<StateMachineDefinition> definition;
    std::vector<StateMachine> machines;
    std::uint32_t speed = 0, hit = 0;
    double time = 0.0;
    std::string error;
};

// "s3", "clip3": appended rather than `"s" + std::to_string(k)`, on which g++ 12 at -O3
// warns about an overlapping memcpy (a false positive of -Wrestrict) depending on
// what else the file inlines.
std::string numbered(const char* prefix, int k) {
    std::string name = prefix;
    name += std::to_string(k);
    return name;
}

StateMachineDesc ladderDesc() {
    StateMachineDesc d;
    d.parameters = {{"speed", ParameterType::Float, 0.0f}, {"hit", ParameterType::Trigger, 0.0f}};
    for (int k = 0; k < kStates; ++k) {
        StateDesc s;
        s.name = numbered("s", k);
        s.clip = numbered("clip", k);
        s.mode = k == kStates - 1 ? LoopMode::Clamp : LoopMode::Loop;
        d.states.push_back(s);
    }
    const auto transition = [](int from, int to, float duration) {
        TransitionDesc t;
        t.from = from < 0 ? "*" : numbered("s", from);
        t.to = numbered("s", to);
        t.duration = duration;
        return t;
    };
    for (int k = 0; k + 1 < kStates - 1; ++k) {
        TransitionDesc up = transition(k, k + 1, 0.2f);
        up.conditions = {{"speed", ConditionOp::Greater, static_cast<float>(k) + 0.5f}};
        TransitionDesc down = transition(k + 1, k, 0.2f);
        down.conditions = {{"speed", ConditionOp::Less, static_cast<float>(k) + 0.5f}};
        d.transitions.push_back(up);
        d.transitions.push_back(down);
    }
    TransitionDesc hit = transition(-1, kStates - 1, 0.1f);
    hit.conditions = {{"hit", ConditionOp::IsTrue, 0.0f}};
    TransitionDesc recover = transition(kStates - 1, 0, 0.2f);
    recover.exitTime = 0.9f;
    d.transitions.push_back(hit);
    d.transitions.push_back(recover);
    return d;
}

Crowd buildCrowd(std::size_t joints) {
    Crowd c;
    const Workload& w = w1(joints);
    if (!w.error.empty()) {
        c.error = w.error;
        return c;
    }
    std::vector<Vec3> rest(joints);
    for (std::size_t k = 0; k < joints; ++k) rest[k] = w.model.skeleton.restPose()[k].translation;
    for (int k = 0; k < kStates; ++k) {
        auto clip = buildW1Clip(rest, static_cast<std::uint64_t>(k), W1Clip::Smooth, c.error);
        if (!clip) return c;
        c.clips.push_back(std::move(*clip));
    }
    auto def = StateMachineDefinition::create(ladderDesc(), [&](std::string_view name) -> const Clip* {
        const int k = std::stoi(std::string(name.substr(4)));
        return &c.clips[static_cast<std::size_t>(k)];
    });
    if (!def) {
        c.error = def.message();
        return c;
    }
    c.definition.emplace(std::move(*def));
    for (const Clip* clip : c.definition->clips()) c.packed.emplace_back(*clip);
    for (const PackedClip& p : c.packed) c.packedBySlot.push_back(&p);
    c.speed = *c.definition->findParameter("speed");
    c.hit = *c.definition->findParameter("hit");
    c.machines.reserve(kInstances);
    for (std::size_t i = 0; i < kInstances; ++i) c.machines.emplace_back(*c.definition);
    return c;
}

// One frame of parameters and updates for every instance.
void stepMachines(Crowd& c) {
    const double t = c.time;
    c.time += kFrameStep;
    constexpr double kTwoPi = 2.0 * std::numbers::pi;
    for (std::size_t i = 0; i < c.machines.size(); ++i) {
        StateMachine& m = c.machines[i];
        const double phase = kTwoPi * static_cast<double>(i) / static_cast<double>(c.machines.size());
        (void)m.setFloat(c.speed, static_cast<float>(3.5 + 3.5 * std::sin(kTwoPi * t / 4.0 + phase)));
        // Every 3 s, each instance at its own frame of the 180.
        const auto frame = static_cast<std::size_t>(std::llround(t / kFrameStep));
        if (frame % 180 == i % 180) (void)m.setTrigger(c.hit);
        benchmark::DoNotOptimize(m.update(kFrameStep));
    }
}

void BM_SM8Update(benchmark::State& state) {
    Crowd c = buildCrowd(64);
    if (!c.error.empty()) {
        state.SkipWithError(c.error.c_str());
        return;
    }
    for (auto _ : state) {
        stepMachines(c);
        benchmark::ClobberMemory();
    }
    state.counters["per_instance"] = benchmark::Counter(
        static_cast<double>(kInstances), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_SM8Update)->Name("SM8Update")->Unit(benchmark::kMicrosecond);

void BM_SM8Frame(benchmark::State& state) {
    const auto joints = static_cast<std::size_t>(state.range(0));
    Crowd c = buildCrowd(joints);
    if (!c.error.empty()) {
        state.SkipWithError(c.error.c_str());
        return;
    }
    const Model& model = w1(joints).model;
    BatchOptions options;
    options.threads = 1;
    PoseBatch batch = bench::makeBatch(model, kInstances, options);
    std::vector<InstanceRequest> inputs(kInstances);
    std::size_t layers = 0, frames = 0;
    for (auto _ : state) {
        stepMachines(c);
        for (std::size_t i = 0; i < kInstances; ++i) {
            if (const Status status = motionLayers(c.machines[i].samples(), c.packedBySlot, inputs[i]); !status) {
                state.SkipWithError(status.message().c_str());
                return;
            }
            layers += inputs[i].layerCount;
        }
        ++frames;
        const Status status = batch.evaluate(inputs);
        if (!status) {
            state.SkipWithError(status.message().c_str());
            return;
        }
        benchmark::ClobberMemory();
    }
    state.counters["per_joint"] =
        benchmark::Counter(static_cast<double>(kInstances * joints),
                           benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    state.counters["per_instance"] = benchmark::Counter(
        static_cast<double>(kInstances), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    // How many clips an instance samples on average: > 1 while fades run.
    state.counters["layers"] =
        frames == 0 ? 0.0 : static_cast<double>(layers) / static_cast<double>(frames * kInstances);
    state.SetLabel(std::string(toString(batch.kernels().level())));
}
BENCHMARK(BM_SM8Frame)->Name("SM8Frame")->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);

}  // namespace

}  // namespace kinema::bench
