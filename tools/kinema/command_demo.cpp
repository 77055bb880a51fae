#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "commands.hpp"
#include "demo_runner.hpp"
#include "output_path.hpp"
#ifdef KINEMA_WITH_GPU
#include "demo_gif.hpp"
#endif
#include "kinema/play/motion_layers.hpp"
#include "kinema/batch/pose_batch.hpp"
#include "kinema/io/state_machine_json.hpp"

namespace kinema::cli {

namespace {

// The runner's state machine, in the JSON form a tool would save
// (docs/STATE-MACHINES.md): idle, walk and run chosen by a speed parameter.
constexpr const char* kLocomotion = R"({
  "parameters": [{"name": "speed", "type": "float", "default": 0}],
  "states": [
    {"name": "idle", "clip": "idle"},
    {"name": "walk", "clip": "walk"},
    {"name": "run", "clip": "run"}
  ],
  "transitions": [
    {"from": "idle", "to": "walk", "duration": 0.3, "easing": "inOutSine",
     "conditions": [{"parameter": "speed", "op": ">", "value": 0.5}]},
    {"from": "walk", "to": "run", "duration": 0.25,
     "conditions": [{"parameter": "speed", "op": ">", "value": 2.5}]},
    {"from": "run", "to": "walk", "duration": 0.25,
     "conditions": [{"parameter": "speed", "op": "<=", "value": 2.5}]},
    {"from": "walk", "to": "idle", "duration": 0.4,
     "conditions": [{"parameter": "speed", "op": "<=", "value": 0.5}]}
  ],
  "defaultState": "idle"
})";

// What the demo's player does with the stick: speed (m/s) from a time on.
struct SpeedKey {
    double from;
    float speed;
};
constexpr SpeedKey kScript[] = {{0.0, 0.0f}, {1.0, 1.5f}, {3.0, 4.0f}, {5.0, 0.0f}};

float scriptedSpeed(double t) {
    float speed = 0.0f;
    for (const SpeedKey& k : kScript) {
        if (t >= k.from) speed = k.speed;
    }
    return speed;
}

std::string position(const Mat4& m) {
    char buf[64];
    // + 0.0 turns a negative zero into zero, so the table never prints "-0.000".
    std::snprintf(buf, sizeof buf, "(%6.3f, %6.3f, %6.3f)", double(m.m[12]) + 0.0, double(m.m[13]) + 0.0,
                  double(m.m[14]) + 0.0);
    return buf;
}

}  // namespace

int runDemo(const DemoOptions& options) {
    if (!options.gif.empty()) {
        const std::string name = std::filesystem::path(options.gif).filename().string();
        if (name.size() < 4 || name.substr(name.size() - 4) != ".gif") {
            std::cerr << "kinema demo: --gif: '" << options.gif << "' must end in .gif\n";
            return 2;
        }
        if (auto writable = checkOutputPath(options.gif); !writable) {
            std::cerr << "kinema demo: --gif: " << writable.message() << '\n';
            return 2;
        }
        if (options.seconds < 1.0 / 30.0) {
            std::cerr << "kinema demo: --gif: --seconds " << options.seconds
                      << " is too short for one frame (1/30 s)\n";
            return 2;
        }
    }
    auto built = buildRunner();
    if (!built) {
        std::cerr << "kinema demo: the built-in runner is invalid:\n" << built.message() << '\n';
        return 1;
    }
    const Model& model = *built;
    const auto clipNamed = [&](std::string_view name) -> const Clip* {
        for (const Clip& c : model.clips) {
            if (c.name() == name) return &c;
        }
        return nullptr;
    };
    auto loaded = loadStateMachineJson(kLocomotion, clipNamed, "built-in locomotion.json");
    if (!loaded) {
        std::cerr << "kinema demo: the built-in state machine is invalid:\n" << loaded.message() << '\n';
        return 1;
    }
    const StateMachineDefinition& definition = *loaded;
    const Skin& skin = model.skins[0];
    const MeshPrimitive& mesh = model.meshes[0].primitives[0];

    std::printf("kinema demo: a runner built in code, driven by a state machine\n");
    std::printf("  rig: %s:", counted(model.skeleton.jointCount(), "joint").c_str());
    for (std::size_t j = 0; j < model.skeleton.jointCount(); ++j) {
        const auto name = model.skeleton.name(j);
        std::printf(" %.*s", int(name.size()), name.data());
    }
    std::printf("\n  clips:");
    for (const Clip& c : model.clips) {
        std::printf(" %.*s %.3g s", int(c.name().size()), c.name().data(), double(c.duration()));
        for (const Marker& m : c.markers()) std::printf(" %s@%.3gs", m.name.c_str(), double(m.time));
        std::printf(";");
    }
    std::printf("\n  state machine (read from its JSON form): %s, %s on 'speed'\n",
                counted(definition.stateCount(), "state").c_str(),
                counted(definition.desc().transitions.size(), "transition").c_str());
    std::printf("  script: speed");
    for (const SpeedKey& k : kScript) std::printf(" %g from %gs", double(k.speed), k.from);
    std::printf("; ticks of 1/60 s\n");
    std::printf("  skin: %s; mesh: %s with up to 2 influences\n\n", counted(skin.joints.size(), "joint").c_str(),
                counted(mesh.vertexCount(), "vertex", "vertices").c_str());

    // The clips laid out for the SIMD sampler, one per clip slot of the definition.
    std::vector<PackedClip> packed;
    packed.reserve(definition.clips().size());
    for (const Clip* c : definition.clips()) packed.emplace_back(*c);
    std::vector<const PackedClip*> packedBySlot;
    for (const PackedClip& p : packed) packedBySlot.push_back(&p);

    BatchOptions batchOptions;
    batchOptions.threads = 1;
    batchOptions.skins = {&skin, 1};
    Result<PoseBatch> made = PoseBatch::create(model.skeleton, model.restWeights, 1, batchOptions);
    if (!made) {
        std::cerr << "kinema demo: " << made.message() << '\n';
        return 1;
    }
    PoseBatch batch = std::move(made).value();
#ifdef KINEMA_WITH_GPU
    std::optional<DemoGifRecorder> recorder;
    if (!options.gif.empty()) {
        auto opened = DemoGifRecorder::create(model, 480, 360, options.gpu);
        if (!opened) {
            std::cerr << "kinema demo: --gif: " << opened.message() << '\n';
            return 1;
        }
        recorder.emplace(std::move(*opened));
    }
#else
    if (!options.gif.empty()) {
        std::cerr << "kinema demo: --gif: this kinema was built without the Vulkan renderer (KINEMA_BUILD_GPU=OFF)\n";
        return 1;
    }
#endif
    std::vector<InstanceRequest> inputs(1);
    std::vector<Vec3> skinned(mesh.vertexCount());
    StateMachine machine(definition);
    const auto stateName = [&](std::uint32_t s) { return definition.desc().states[s].name.c_str(); };
    const auto leftFoot = *model.skeleton.findJoint("leftFoot");
    const auto rightFoot = *model.skeleton.findJoint("rightFoot");
    const auto head = *model.skeleton.findJoint("head");

    std::printf("  %6s  %s\n", "time", "what");
    std::printf("  %6.3f  state %s\n", 0.0, stateName(machine.currentState()));
    constexpr double kTick = 1.0 / 60.0;
    const long ticks = std::lround(options.seconds / kTick);
    const long printEvery = std::max(1L, std::lround(options.step / kTick));
    float speed = 0.0f;
    std::uint32_t settled = machine.currentState();  // the last state printed as reached
    std::optional<std::uint32_t> shownFade;
    int footsteps = 0, fades = 0;
    float worstSkinError = 0.0f;
    for (long n = 1; n <= ticks; ++n) {
        const double time = static_cast<double>(n) * kTick;
        if (scriptedSpeed(time) != speed) {
            speed = scriptedSpeed(time);
            if (const Status status = machine.setFloat("speed", speed); !status) {
                std::cerr << "kinema demo: " << status.message() << '\n';
                return 1;
            }
            std::printf("  %6.3f  speed %g\n", time, double(speed));
        }
        if (const Status status = machine.update(kTick); !status) {
            std::cerr << "kinema demo: " << status.message() << '\n';
            return 1;
        }
        for (const MotionEvent& e : machine.events()) {
            // During a fade both states announce; the one showing more of the pose speaks.
            if (e.weight < 0.5f) continue;
            ++footsteps;
            std::printf("  %6.3f  %-15s (%s)\n", time, e.clip->markers()[e.marker].name.c_str(), stateName(e.state));
        }
        if (machine.activeTransition() != shownFade) {
            shownFade = machine.activeTransition();
            if (shownFade) {
                ++fades;
                std::printf("  %6.3f  fade %s -> %s over %g s\n", time, stateName(machine.currentState()),
                            stateName(*machine.targetState()),
                            double(definition.desc().transitions[*shownFade].duration));
            }
        }
        if (!machine.transitioning() && machine.currentState() != settled) {
            settled = machine.currentState();
            std::printf("  %6.3f  state %s\n", time, stateName(settled));
        }

        if (const Status status = motionLayers(machine.samples(), packedBySlot, inputs[0]); !status) {
            std::cerr << "kinema demo: " << status.message() << '\n';
            return 1;
        }
        if (const Status status = batch.evaluate(inputs); !status) {
            std::cerr << "kinema demo: " << status.message() << '\n';
            return 1;
        }
        const auto pose = batch.model(0);
        batch.kernels().skinVertices(mesh, batch.palette(0), mesh.positions, {}, skinned, {});
        // Vertices bound rigidly to a joint must land exactly on that joint.
        for (std::size_t j = 0; j < model.skeleton.jointCount(); ++j) {
            const Mat4& m = pose[j];
            worstSkinError = std::max(worstSkinError, length(skinned[j] - Vec3{m.m[12], m.m[13], m.m[14]}));
        }
#ifdef KINEMA_WITH_GPU
        // Every other tick: a 30 fps GIF.
        if (recorder && n % 2 == 0) {
            if (auto captured = recorder->capture(batch.palette(0)); !captured) {
                std::cerr << "kinema demo: --gif: " << captured.message() << '\n';
                return 1;
            }
        }
#endif
        if (n % printEvery == 0) {
            std::string blend;
            for (const MotionSample& s : machine.samples()) {
                char buf[48];
                std::snprintf(buf, sizeof buf, "%s%.*s %.2f", blend.empty() ? "" : " + ", int(s.clip->name().size()),
                              s.clip->name().data(), double(s.weight));
                blend += buf;
            }
            std::printf("  %6.3f  pose %-22s  left foot %s  right foot %s  head %s\n", time, blend.c_str(),
                        position(pose[leftFoot]).c_str(), position(pose[rightFoot]).c_str(),
                        position(pose[head]).c_str());
        }
    }
    std::printf(
        "\n  evaluated %s: state machine -> layers -> sample and blend -> local-to-model -> palette "
        "-> skinning of %s\n",
        counted(static_cast<std::size_t>(ticks), "tick").c_str(),
        counted(mesh.vertexCount(), "vertex", "vertices").c_str());
    std::printf("  %s, %s\n", counted(static_cast<std::size_t>(fades), "fade").c_str(),
                counted(static_cast<std::size_t>(footsteps), "footstep").c_str());
    std::printf("  check: rigidly bound vertices are within %.2g m of their joints\n", double(worstSkinError));
#ifdef KINEMA_WITH_GPU
    if (recorder) {
        auto written = recorder->write(options.gif, 30.0);
        if (!written) {
            std::cerr << "kinema demo: --gif: " << written.message() << '\n';
            return 1;
        }
        std::printf("  wrote %s: %s at 30 fps, 480x360, rendered on %s\n", options.gif.c_str(),
                    counted(recorder->frames(), "frame").c_str(), recorder->deviceName().c_str());
    }
#endif
    return worstSkinError < 1e-4f ? 0 : 1;
}

}  // namespace kinema::cli
