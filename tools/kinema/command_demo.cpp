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
#include "demo_humanoid.hpp"
#include "json_writer.hpp"
#include "output_path.hpp"
#ifdef KINEMA_WITH_GPU
#include "demo_gif.hpp"
#include "kinema/gpu/gpu_context.hpp"
#endif
#include "kinema/core/counted.hpp"
#include "kinema/batch/pose_batch.hpp"
#include "kinema/io/state_machine_json.hpp"
#include "kinema/play/motion_layers.hpp"
#include "kinema/play/root_motion.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/socket.hpp"

namespace kinema::cli {

namespace {

// The humanoid's state machine, in the JSON form a tool would save
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
     "conditions": [{"parameter": "speed", "op": ">", "value": 2.0}]},
    {"from": "run", "to": "walk", "duration": 0.25,
     "conditions": [{"parameter": "speed", "op": "<=", "value": 2.0}]},
    {"from": "walk", "to": "idle", "duration": 0.4,
     "conditions": [{"parameter": "speed", "op": "<=", "value": 0.5}]}
  ],
  "defaultState": "idle"
})";

// What the demo's player does: speed (m/s) from a time on. The walk and run speeds
// are those the clips travel at, so the root motion covers the script's distance
// (less half of each crossfade's change of speed times its length).
struct SpeedKey {
    double from;
    float speed;
};
constexpr SpeedKey kScript[] = {{0.0, 0.0f}, {1.0, 1.2f}, {3.0, 2.8f}, {5.0, 1.2f}, {6.5, 0.0f}};

constexpr double kTick = 1.0 / 60.0;
constexpr std::uint32_t kGifWidth = 480, kGifHeight = 360;  // --gif's frame size
constexpr float kMaxLookAngle = 0.7f;                       // radians the head may turn toward the point it follows
// Targets the run must meet (the exit code says whether it did).
constexpr float kMaxErrorWithIkMm = 1.0f;
constexpr float kMinErrorWithoutIkMm = 10.0f;
constexpr float kMaxSocketDrift = 1e-4f;

float scriptedSpeed(double t) {
    float speed = 0.0f;
    for (const SpeedKey& k : kScript) {
        if (t >= k.from) speed = k.speed;
    }
    return speed;
}

Vec3 origin(const Mat4& m) { return {m.m[12], m.m[13], m.m[14]}; }

std::string triple(Vec3 v) {
    char buf[64];
    // + 0.0 turns a negative zero into zero, so the log never prints "-0.000".
    std::snprintf(buf, sizeof buf, "(%6.3f, %6.3f, %6.3f)", double(v.x) + 0.0, double(v.y) + 0.0, double(v.z) + 0.0);
    return buf;
}

// Times in the log and the JSON, to the millisecond (ticks are 1/60 s).
double millis(double t) { return std::round(t * 1000.0) / 1000.0; }

struct DemoEvent {
    double time;
    std::string name;
    std::string state;
};

struct StateReached {
    double time;
    std::string state;
};

// What one run of the script measured.
struct DemoRun {
    std::vector<DemoEvent> events;
    std::vector<StateReached> states;
    Vec3 travelled{};            // root motion deltas summed in the world, metres
    float worstGroundError = 0;  // metres: a planted ankle's distance from ground + ankle height
    float worstSocketDrift = 0;  // metres
    // Metres a planted ankle moved over the ground in one tick, while one clip plays
    // alone (a crossfade blends two clips' feet, which need not agree).
    float worstFootSlide = 0;
    std::size_t plantedSamples = 0;
    std::size_t fades = 0;
    std::vector<float> footErrorByTick;  // per tick and foot (left, right): the error, or -1 when in the air
};

// Everything the runs share: the character, the state machine, the clips laid out for
// the SIMD sampler and their root motion, by clip slot.
struct DemoSetup {
    const Humanoid& humanoid;
    const StateMachineDefinition& definition;
    std::vector<PackedClip> packed;
    std::vector<const PackedClip*> packedBySlot;
    std::vector<std::optional<RootMotion>> rootMotion;
    std::vector<const RootMotion*> rootBySlot;  // null: the clip stays in place (idle)
    std::vector<const Gait*> gaitBySlot;
    RootAnchor anchor;
};

// What a run prints as it goes (the text mode's run with foot IK); null for a silent run.
struct DemoLog {
    long printEvery = 1;
    const DemoRun* withoutIk = nullptr;  // the other run's errors, printed beside this run's
};

// The character's world matrix: at `at`, turned by `heading`.
Mat4 placement(Vec3 at, Quat heading) {
    Transform t;
    t.translation = at;
    t.rotation = heading;
    return toMatrix(t);
}

#ifdef KINEMA_WITH_GPU
using Recorder = DemoGifRecorder;
#else
struct Recorder {};
#endif

// Plays the script for `ticks` ticks. With `footIk` false the foot IK tasks run at
// weight 0 (the pose as the clips have it over flat ground). Returns false after
// writing the failure to stderr.
bool playScript(const DemoSetup& setup, long ticks, bool footIk, const DemoLog* log, Recorder* recorder, DemoRun& out) {
    const Humanoid& h = setup.humanoid;
    const Model& model = h.model;
    const StateMachineDefinition& definition = setup.definition;
    const auto fail = [](const std::string& message) {
        std::cerr << "kinema demo: " << message << '\n';
        return false;
    };

    BatchOptions batchOptions;
    batchOptions.threads = 1;
    batchOptions.skins = model.skins;
    batchOptions.curves = kFootIkCurves;
    Result<PoseBatch> made = PoseBatch::create(model.skeleton, model.restWeights, 1, batchOptions);
    if (!made) return fail(made.message());
    PoseBatch batch = std::move(made).value();

    std::vector<InstanceRequest> requests(1);
    InstanceRequest& request = requests[0];
    StateMachine machine(definition);
    const auto stateName = [&](std::uint32_t s) { return definition.desc().states[s].name.c_str(); };
    Socket socket(std::string(model.skeleton.name(h.rightHand)), h.propOffset);
    const std::uint32_t lookChain[] = {h.neck, h.head};
    // Skinned vertices of every primitive of both meshes, each by its own skin's palette.
    std::vector<std::vector<Vec3>> skinned;
    // The hand's socket point composed by the scalar reference path, apart from the batch.
    std::vector<Transform> referenceLocal(model.skeleton.jointCount());
    std::vector<Mat4> referenceModel(model.skeleton.jointCount());
    for (const Mesh& mesh : model.meshes) {
        for (const MeshPrimitive& p : mesh.primitives) skinned.emplace_back(p.vertexCount());
    }

    Vec3 place{};  // the character's position on the ground plane (x, z); y follows the ground
    Quat heading{};
    std::optional<Vec3> lastPlanted[2];  // where each planted ankle stood at the last tick
    out.footErrorByTick.assign(2 * (static_cast<std::size_t>(ticks) + 1), -1.0f);
    out.states.push_back({0.0, stateName(machine.currentState())});
    if (log) std::printf("  %6s  %s\n  %6.3f  state %s\n", "time", "what", 0.0, stateName(machine.currentState()));
    float speed = 0.0f;
    std::uint32_t settled = machine.currentState();
    std::optional<std::uint32_t> shownFade;
    for (long n = 1; n <= ticks; ++n) {
        const double time = static_cast<double>(n) * kTick;
        if (scriptedSpeed(time) != speed) {
            speed = scriptedSpeed(time);
            if (const Status s = machine.setFloat("speed", speed); !s) return fail(s.message());
            if (log) std::printf("  %6.3f  speed %g m/s\n", time, double(speed));
        }
        if (const Status s = machine.update(kTick); !s) return fail(s.message());
        for (const MotionEvent& e : machine.events()) {
            // During a fade both states announce; the one showing more of the pose speaks.
            if (e.weight < 0.5f) continue;
            const std::string& name = e.clip->markers()[e.marker].name;
            out.events.push_back({millis(time), name, stateName(e.state)});
            if (log) std::printf("  %6.3f  %-15s (%s)\n", time, name.c_str(), stateName(e.state));
        }
        if (machine.activeTransition() != shownFade) {
            shownFade = machine.activeTransition();
            if (shownFade) {
                ++out.fades;
                if (log)
                    std::printf("  %6.3f  fade %s -> %s over %g s\n", time, stateName(machine.currentState()),
                                stateName(*machine.targetState()),
                                double(definition.desc().transitions[*shownFade].duration));
            }
        }
        if (!machine.transitioning() && machine.currentState() != settled) {
            settled = machine.currentState();
            out.states.push_back({millis(time), stateName(settled)});
            if (log) std::printf("  %6.3f  state %s\n", time, stateName(settled));
        }

        // Root motion: the blend of each playing clip's root delta over its own step
        // moves the character; the pose plays in place (the request's root anchor).
        const Transform delta = rootMotionDelta(machine, setup.rootBySlot);
        const Vec3 moved = rotate(heading, delta.translation);
        place = place + moved;
        heading = normalize(heading * delta.rotation);
        out.travelled = out.travelled + moved;

        // The pose as the clips have it, to find where the feet come down.
        if (const Status s = motionLayers(machine.samples(), setup.packedBySlot, request); !s) return fail(s.message());
        request.rootAnchor = setup.anchor;
        request.ik = {};
        if (const Status s = batch.evaluate(requests); !s) return fail(s.message());
        Vec3 animatedAnkle[2];
        float groundUnder[2];
        for (int f = 0; f < 2; ++f) {
            animatedAnkle[f] = origin(batch.model(0)[h.foot[f]]);
            const Vec3 over = place + rotate(heading, animatedAnkle[f]);
            groundUnder[f] = groundHeight(over.x, over.z);
        }
        // The root stands on the lower foot's ground, so that both legs can reach theirs.
        const Vec3 rootAt{place.x, std::min(groundUnder[0], groundUnder[1]), place.z};
        const Mat4 world = placement(rootAt, heading);
        const Mat4 toModel = inverseAffine(world);

        // Foot IK: each ankle at its ground height plus the ankle's height above the
        // sole, at its world xz; in the swing, the clip's lift over that ground.
        IkTask tasks[3];
        bool planted[2];
        for (int f = 0; f < 2; ++f) {
            // The weight is the clips' foot IK curve, blended by the evaluation.
            const float weight = std::clamp(batch.curves(0)[static_cast<std::size_t>(f)], 0.0f, 1.0f);
            planted[f] = true;
            for (const MotionSample& s : machine.samples()) {
                const Gait& gait = *setup.gaitBySlot[s.clipSlot];
                if (s.weight > 0.0f && !footPlanted(gait, s.time, Side(f))) planted[f] = false;
            }
            const Vec3 ankleWorld = transformPoint(world, animatedAnkle[f]);
            const float lift = ankleWorld.y - rootAt.y - h.ankleHeight;
            const Vec3 target{ankleWorld.x, groundUnder[f] + h.ankleHeight + lift * (1.0f - weight), ankleWorld.z};
            const Mat4& hips = batch.model(0)[h.hips];
            const Vec3 pole = origin(batch.model(0)[h.shin[f]]) + transformDirection(hips, {0.0f, 0.0f, 0.5f});
            TwoBoneIk leg{h.thigh[f], h.shin[f], h.foot[f], transformPoint(toModel, target), pole};
            leg.weight = footIk ? weight : 0.0f;
            tasks[f] = leg;
        }
        // The head follows a point drifting about ahead of the character.
        const Vec3 lookAt{1.6f * std::sin(0.8f * static_cast<float>(time)),
                          rootAt.y + 1.5f + 0.3f * std::sin(1.9f * static_cast<float>(time)),
                          place.z + 2.0f + 0.8f * std::cos(0.6f * static_cast<float>(time))};
        AimIk look;
        look.joints = lookChain;
        look.target = transformPoint(toModel, lookAt);
        look.upVector = Vec3{0.0f, 1.0f, 0.0f};
        look.maxAngle = kMaxLookAngle;
        tasks[2] = look;
        request.ik = tasks;
        if (const Status s = batch.evaluate(requests); !s) return fail(s.message());
        const auto pose = batch.model(0);

        // How far each planted ankle is from where it should stand, and how far it slid.
        const bool oneClip = machine.samples().size() == 1;
        for (int f = 0; f < 2; ++f) {
            if (!planted[f]) {
                lastPlanted[f].reset();
                continue;
            }
            const Vec3 ankle = transformPoint(world, origin(pose[h.foot[f]]));
            const float error = std::abs(ankle.y - (groundHeight(ankle.x, ankle.z) + h.ankleHeight));
            ++out.plantedSamples;
            out.worstGroundError = std::max(out.worstGroundError, error);
            out.footErrorByTick[2 * static_cast<std::size_t>(n) + static_cast<std::size_t>(f)] = error;
            if (oneClip && lastPlanted[f]) {
                const Vec3 slide = ankle - *lastPlanted[f];
                out.worstFootSlide = std::max(out.worstFootSlide, std::hypot(slide.x, slide.z));
            }
            lastPlanted[f] = oneClip ? std::optional<Vec3>(ankle) : std::nullopt;
        }
        // The prop, placed by the socket from the batch's model matrices; checked against
        // the hand's socket point composed apart, by the scalar reference path from the
        // same local pose (IK included).
        SocketPlacement prop;
        if (const SocketReport r = socket.place(model.skeleton, pose, prop); !r.status) return fail(r.status.message());
        const SoaPose& local = batch.local(0);
        for (std::size_t j = 0; j < referenceLocal.size(); ++j) referenceLocal[j] = local.joint(j);
        (void)reference::localToModel(model.skeleton.parents(), referenceLocal, referenceModel);
        const Vec3 held = transformPoint(referenceModel[h.rightHand], h.propOffset.translation);
        out.worstSocketDrift = std::max(out.worstSocketDrift, length(origin(prop.matrix) - held));

        // Both meshes skinned from the one instance's palettes, each by its own skin.
        std::size_t k = 0;
        for (std::size_t m = 0; m < model.meshes.size(); ++m) {
            for (const MeshPrimitive& p : model.meshes[m].primitives) {
                batch.kernels().skinVertices(p, batch.palette(0, m), p.positions, {}, skinned[k++], {});
            }
        }
#ifdef KINEMA_WITH_GPU
        // Every other tick: a 30 fps GIF.
        if (recorder && n % 2 == 0) {
            if (auto captured =
                    recorder->capture(world, batch.palette(0, 0), batch.palette(0, 1), world * prop.matrix, lookAt);
                !captured)
                return fail(std::string("--gif: ").append(captured.message()));
        }
#else
        (void)recorder;
#endif
        if (log && n % log->printEvery == 0) {
            std::string blend;
            for (const MotionSample& s : machine.samples()) {
                char buf[48];
                std::snprintf(buf, sizeof buf, "%s%.*s %.2f", blend.empty() ? "" : " + ", int(s.clip->name().size()),
                              s.clip->name().data(), double(s.weight));
                blend += buf;
            }
            std::string feet;
            for (int f = 0; f < 2; ++f) {
                const std::size_t at = 2 * static_cast<std::size_t>(n) + static_cast<std::size_t>(f);
                char buf[64];
                if (!planted[f])
                    std::snprintf(buf, sizeof buf, "  %s in the air       ", f == 0 ? "L" : "R");
                else
                    std::snprintf(buf, sizeof buf, "  %s %5.2f mm (%5.1f)", f == 0 ? "L" : "R",
                                  double(out.footErrorByTick[at]) * 1000.0,
                                  double(log->withoutIk->footErrorByTick[at]) * 1000.0);
                feet += buf;
            }
            std::printf("  %6.3f  pose %-22s  root %s%s\n", time, blend.c_str(), triple(rootAt).c_str(), feet.c_str());
        }
    }
    return true;
}

void writeJson(const DemoOptions& options, long ticks, const DemoRun& withIk, const DemoRun& withoutIk, bool pass,
               const std::string& gifLine) {
    std::string text;
    JsonWriter w(text, true);
    w.beginObject();
    w.key("seconds").value(options.seconds + 0.0);  // -0 given prints as 0
    w.key("ticks").value(static_cast<std::int64_t>(ticks));
    w.key("tick").value(kTick);
    w.key("script").beginArray();
    for (const SpeedKey& k : kScript) w.beginObject().key("from").value(k.from).key("speed").value(k.speed).endObject();
    w.endArray();
    w.key("states").beginArray();
    for (const StateReached& s : withIk.states)
        w.beginObject().key("time").value(s.time).key("state").value(s.state).endObject();
    w.endArray();
    w.key("events").beginArray();
    for (const DemoEvent& e : withIk.events)
        w.beginObject().key("time").value(e.time).key("name").value(e.name).key("state").value(e.state).endObject();
    w.endArray();
    w.key("fades").value(static_cast<std::uint64_t>(withIk.fades));
    const Vec3 t = withIk.travelled;
    w.key("rootMotion").beginArray().value(t.x).value(t.y).value(t.z).endArray();
    w.key("rootMotionDistance").value(length(t));
    w.key("plantedFootSamples").value(static_cast<std::uint64_t>(withIk.plantedSamples));
    w.key("footGroundErrorMm")
        .beginObject()
        .key("withIk")
        .value(withIk.worstGroundError * 1000.0f)
        .key("withoutIk")
        .value(withoutIk.worstGroundError * 1000.0f)
        .endObject();
    w.key("footSlideMm").value(withIk.worstFootSlide * 1000.0f);
    w.key("socketDrift").value(withIk.worstSocketDrift);
    w.key("targets")
        .beginObject()
        .key("footGroundErrorMmWithIkBelow")
        .value(kMaxErrorWithIkMm)
        .key("footGroundErrorMmWithoutIkAbove")
        .value(kMinErrorWithoutIkMm)
        .key("socketDriftBelow")
        .value(kMaxSocketDrift)
        .endObject();
    w.key("pass").value(pass);
    if (!gifLine.empty()) w.key("gif").value(gifLine);
    w.endObject();
    std::printf("%s\n", text.c_str());
}

}  // namespace

int runDemo(const DemoOptions& options) {
    if (!options.gif.empty()) {
        if (lowerExtension(options.gif) != ".gif") {
            std::cerr << "kinema demo: --gif: '" << options.gif << "' must end in .gif\n";
            return usageFailure("demo");
        }
        if (auto writable = checkOutputPath(options.gif); !writable) {
            std::cerr << "kinema demo: --gif: " << writable.message() << '\n';
            return usageFailure("demo");
        }
        if (options.seconds < 1.0 / 30.0) {
            std::cerr << "kinema demo: --gif: --seconds " << options.seconds
                      << " is too short for one frame (1/30 s)\n";
            return usageFailure("demo");
        }
        // One frame every other tick, all kept until the GIF is written.
        const auto frames = static_cast<std::uint64_t>((std::lround(options.seconds / kTick) + 1) / 2);
        constexpr std::uint64_t kFrameBytes = std::uint64_t{kGifWidth} * kGifHeight * 4;
        if (frames * kFrameBytes > kGifFrameBytesLimit) {
            std::cerr << "kinema demo: --gif: --seconds " << options.seconds << " makes " << frames << " frames of "
                      << kGifWidth << "x" << kGifHeight << ", more than 2 GiB held before the GIF is written; at most "
                      << kGifFrameBytesLimit / kFrameBytes / 30 << " s with --gif\n";
            return usageFailure("demo");
        }
    }
    auto built = buildHumanoid();
    if (!built) {
        std::cerr << "kinema demo: the built-in humanoid is invalid:\n" << built.message() << '\n';
        return 1;
    }
    const Humanoid& humanoid = *built;
    const Model& model = humanoid.model;
    auto loaded = loadStateMachineJson(kLocomotion, clipsByName(model.clips), "built-in locomotion.json");
    if (!loaded) {
        std::cerr << "kinema demo: the built-in state machine is invalid:\n" << loaded.message() << '\n';
        return 1;
    }
    const StateMachineDefinition& definition = *loaded;

    DemoSetup setup{humanoid, definition, {}, {}, {}, {}, {}, {}};
    const std::size_t slots = definition.clips().size();
    setup.packed.reserve(slots);
    setup.rootMotion.reserve(slots);
    // Root motion takes the hips' travel over the ground (x, z); the bob and the
    // pelvis' turns stay in the pose.
    RootMotionMask mask;
    mask.rotation = RootRotation::None;
    const Transform hipsRest = model.skeleton.restPose()[humanoid.hips];
    for (const Clip* c : definition.clips()) {
        setup.packed.emplace_back(*c);
        const Gait& gait = humanoid.gaits[static_cast<std::size_t>(c - model.clips.data())];
        setup.gaitBySlot.push_back(&gait);
        setup.rootMotion.emplace_back();
        if (gait.speed > 0.0f) {
            auto motion = RootMotion::create(*c, humanoid.hips, hipsRest, mask);
            if (!motion) {
                std::cerr << "kinema demo: " << motion.message() << '\n';
                return 1;
            }
            setup.rootMotion.back().emplace(std::move(*motion));
        }
    }
    for (std::size_t s = 0; s < slots; ++s) {
        setup.packedBySlot.push_back(&setup.packed[s]);
        setup.rootBySlot.push_back(setup.rootMotion[s] ? &*setup.rootMotion[s] : nullptr);
    }
    // Every travelling clip starts with the hips over the origin: any one's start anchors them all.
    for (const auto& motion : setup.rootMotion) {
        if (motion) setup.anchor = motion->anchor(humanoid.hips);
    }

    // The recorder opens before anything is printed: a --gpu naming no device is a
    // usage error, said alone.
    Recorder* recorderPointer = nullptr;
#ifdef KINEMA_WITH_GPU
    std::optional<DemoGifRecorder> recorder;
    if (!options.gif.empty()) {
        auto opened = DemoGifRecorder::create(humanoid, kGifWidth, kGifHeight, options.gpu);
        if (!opened) {
            std::cerr << "kinema demo: --gif: " << opened.message() << '\n';
            return asksForMissingDevice(opened.faults()) ? usageFailure("demo") : 1;
        }
        recorder.emplace(std::move(*opened));
        recorderPointer = &*recorder;
    }
#else
    if (!options.gif.empty()) {
        std::cerr << "kinema demo: --gif: this kinema was built without the Vulkan renderer (KINEMA_BUILD_GPU=OFF)\n";
        return 1;
    }
#endif
    const long ticks = std::lround(options.seconds / kTick);
    const bool text = !options.json;
    std::size_t vertices = 0;
    for (const Mesh& mesh : model.meshes) {
        for (const MeshPrimitive& p : mesh.primitives) vertices += p.vertexCount();
    }
    if (text) {
        std::printf("kinema demo: a humanoid built in code walks over uneven ground\n");
        std::printf("  rig: %s:", counted(model.skeleton.jointCount(), "joint").c_str());
        for (std::size_t j = 0; j < model.skeleton.jointCount(); ++j) {
            const auto name = model.skeleton.name(j);
            std::printf(" %.*s", int(name.size()), name.data());
        }
        std::printf("\n  clips (generated):");
        for (std::size_t c = 0; c < model.clips.size(); ++c) {
            const Clip& clip = model.clips[c];
            std::printf(" %.*s %.3g s", int(clip.name().size()), clip.name().data(), double(clip.duration()));
            if (humanoid.gaits[c].speed > 0.0f) std::printf(" at %.3g m/s", double(humanoid.gaits[c].speed));
            for (const Marker& m : clip.markers()) std::printf(" %s@%.3gs", m.name.c_str(), double(m.time));
            std::printf(";");
        }
        std::printf("\n  state machine (read from its JSON form): %s, %s on 'speed'\n",
                    counted(definition.stateCount(), "state").c_str(),
                    counted(definition.desc().transitions.size(), "transition").c_str());
        std::printf("  meshes:");
        for (std::size_t m = 0; m < model.meshes.size(); ++m) {
            std::size_t n = 0;
            for (const MeshPrimitive& p : model.meshes[m].primitives) n += p.vertexCount();
            std::printf("%s %s (%s, skin '%s' of %s)", m == 0 ? "" : ",", model.meshes[m].name.c_str(),
                        counted(n, "vertex", "vertices").c_str(), model.skins[m].name.c_str(),
                        counted(model.skins[m].joints.size(), "joint").c_str());
        }
        std::printf(", skinned from one pose's palettes; a sword on the %s socket\n",
                    std::string(model.skeleton.name(humanoid.rightHand)).c_str());
        std::printf(
            "  ground: h(x, z) = 0.06 sin(1.7 x) cos(1.3 z) + 0.04 sin(2.9 z + 0.5) m; root motion moves the "
            "character, its height on the lower foot's ground\n");
        std::printf(
            "  IK: two-bone foot IK puts each planted ankle %.3g m above the ground; look-at on neck and head, at "
            "most %.0f degrees\n",
            double(humanoid.ankleHeight), double(kMaxLookAngle) * 180.0 / 3.14159265358979);
        std::printf("  script: speed");
        for (const SpeedKey& k : kScript) std::printf(" %g from %gs", double(k.speed), k.from);
        std::printf("; ticks of 1/60 s\n");
        std::printf("  printed feet: a planted ankle's distance from its ground height, with IK (without)\n\n");
    }

    // The same script without foot IK first: its errors are printed beside the run with it.
    DemoRun withoutIk, withIk;
    if (!playScript(setup, ticks, false, nullptr, nullptr, withoutIk)) return 1;

    DemoLog log{std::max(1L, std::lround(options.step / kTick)), &withoutIk};
    if (!playScript(setup, ticks, true, text ? &log : nullptr, recorderPointer, withIk)) return 1;

    const float withMm = withIk.worstGroundError * 1000.0f, withoutMm = withoutIk.worstGroundError * 1000.0f;
    // With nothing planted (no ticks) there is nothing to measure.
    const bool measured = withIk.plantedSamples > 0;
    const bool pass = withMm < kMaxErrorWithIkMm && (!measured || withoutMm > kMinErrorWithoutIkMm) &&
        withIk.worstSocketDrift < kMaxSocketDrift;
    std::string gifLine;
#ifdef KINEMA_WITH_GPU
    if (recorder) {
        auto written = recorder->write(options.gif, 30.0);
        if (!written) {
            std::cerr << "kinema demo: --gif: " << written.message() << '\n';
            return 1;
        }
        char buf[512];
        std::snprintf(buf, sizeof buf, "wrote %s: %s at 30 fps, %ux%u, rendered on %s", options.gif.c_str(),
                      counted(recorder->frames(), "frame").c_str(), kGifWidth, kGifHeight,
                      recorder->deviceName().c_str());
        gifLine = buf;
    }
#endif
    if (options.json) {
        writeJson(options, ticks, withIk, withoutIk, pass, gifLine);
    } else {
        const Vec3 t = withIk.travelled;
        std::printf(
            "\n  evaluated %s twice (with foot IK, and at IK weight 0 for comparison): state machine -> layers -> "
            "sample, blend, root anchor -> foot IK, look-at -> local-to-model -> 2 skins' palettes -> skinning of "
            "%s\n",
            counted(static_cast<std::size_t>(ticks), "tick").c_str(), counted(vertices, "vertex", "vertices").c_str());
        std::printf("  %s, %s\n", counted(withIk.fades, "fade").c_str(),
                    counted(withIk.events.size(), "footstep").c_str());
        std::printf("  root motion travelled %s m in the world, %.3f m\n", triple(t).c_str(), double(length(t)));
        std::printf(
            "  planted ankles off the ground: at most %.4f mm with foot IK, %.1f mm without (targets: under %g "
            "mm with, over %g mm without)\n",
            double(withMm), double(withoutMm), double(kMaxErrorWithIkMm), double(kMinErrorWithoutIkMm));
        std::printf("  planted ankles slid at most %.3f mm over the ground in a tick (while one clip plays)\n",
                    double(withIk.worstFootSlide) * 1000.0);
        std::printf(
            "  sword on the socket: at most %.2g m from the hand's socket point composed apart (target: under %g m)\n",
            double(withIk.worstSocketDrift), double(kMaxSocketDrift));
        if (!gifLine.empty()) std::printf("  %s\n", gifLine.c_str());
        if (!pass) std::printf("  a target was missed\n");
    }
    return pass ? 0 : 1;
}

}  // namespace kinema::cli
