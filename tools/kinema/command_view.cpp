// `kinema view`: a glTF file's animation in a window, played, scrubbed and orbited.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <numbers>

#include "arguments.hpp"
#include "commands.hpp"
#include "import_flags.hpp"
#include "kinema/gpu/gpu_context.hpp"
#include "kinema/gpu/window_view.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/runtime/marker_sweep.hpp"
#include "kinema/scene/skeleton_overlay.hpp"
#include "model_view.hpp"
#include "render_arguments.hpp"

namespace kinema::cli {
namespace {

constexpr double kScrubStep = 1.0 / 30.0;
constexpr float kFovDegrees = 40.0f;

constexpr const char* kHelp =
    "Space         play / pause\n"
    "Left / Right  step 1/30 s back / forward (pauses)\n"
    "Up / Down     faster / slower\n"
    "N / P         next / previous animation\n"
    "S             skeleton on / off\n"
    "R             reset the camera\n"
    "Drag          orbit the camera\n"
    "Wheel         zoom\n"
    "H             this help\n"
    "Esc / Q       quit";

// A camera circling a point: yaw about +Y, pitch above the horizon, distance.
struct Orbit {
    Vec3 centre;
    float yaw = 0.0f;
    float pitch = 0.0f;
    float distance = 1.0f;
    float radius = 1.0f;  // of the framed bounds: near and far planes follow it
};

Orbit framedOrbit(Vec3 lo, Vec3 hi, float aspect) {
    const PerspectiveCamera framed = frameBounds(lo, hi, aspect, kFovDegrees);
    const Vec3 d{framed.eye.x - framed.target.x, framed.eye.y - framed.target.y, framed.eye.z - framed.target.z};
    Orbit o;
    o.centre = framed.target;
    o.distance = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    o.yaw = std::atan2(d.x, d.z);
    o.pitch = std::asin(std::clamp(d.y / std::max(o.distance, 1e-6f), -1.0f, 1.0f));
    const Vec3 e{hi.x - lo.x, hi.y - lo.y, hi.z - lo.z};
    o.radius = std::max(0.5f * std::sqrt(e.x * e.x + e.y * e.y + e.z * e.z), 1e-4f);
    return o;
}

// Fails where the orbit is beyond what float can frame (bounds near float's range).
Result<CameraMatrices> orbitCamera(const Orbit& o, float aspect) {
    PerspectiveCamera c;
    c.target = o.centre;
    c.eye = {o.centre.x + o.distance * std::cos(o.pitch) * std::sin(o.yaw), o.centre.y + o.distance * std::sin(o.pitch),
             o.centre.z + o.distance * std::cos(o.pitch) * std::cos(o.yaw)};
    c.fovYDegrees = kFovDegrees;
    c.znear = std::max(1e-4f, 0.01f * std::min(o.distance, o.radius));
    c.zfar = 4.0f * (o.distance + o.radius);
    return cameraMatrices(c, aspect);
}

// Every binding and tween of the scene at `time`.
void seek(Scene& scene, double time) {
    for (std::uint32_t n = 0; n < scene.nodeCount(); ++n) (void)scene.setPlaybackTime(NodeId{n}, time);
    (void)scene.advance(0.0);
}

}  // namespace

int runView(const ViewOptions& options) {
    if (options.frames && *options.frames < 1) {
        std::cerr << "kinema view: --frames: " << *options.frames << " is not a positive count\n";
        return usageFailure("view");
    }
    std::string error;
    const auto size = parseImageSize(options.size, error);
    if (!size) {
        std::cerr << "kinema view: --size: " << error << '\n';
        return usageFailure("view");
    }
    if (!options.gpu.empty()) {
        // A device named with --gpu that is not there is a usage error, found before a
        // display is looked for (the window's device is chosen only once it opens).
        GpuOptions probe;
        probe.device = options.gpu;
        if (auto context = GpuContext::create(probe); !context && asksForMissingDevice(context.faults())) {
            std::cerr << "kinema view: " << gpuFaultText(context.faults()) << '\n';
            return usageFailure("view");
        }
    }
    const auto loaded = importForDrawing(options.file, options.import, "view");
    if (!loaded) return 1;
    const Model& model = *loaded;
    auto first = modelSceneFor(model, options.animation);
    printWarnings(std::cerr, first.warnings());
    if (!first) {
        std::cerr << "kinema view: " << first.message() << '\n';
        return usageFailure("view");
    }
    ModelScene built = std::move(*first);
    if (built.scene.nodeCount() == 0) {
        std::cerr << "kinema view: " << options.file << " has nothing to draw: no nodes in its scene\n";
        return 1;
    }
    std::int32_t clip = built.boundAnimation.valid() ? static_cast<std::int32_t>(built.boundAnimation.value) : -1;

    WindowOptions windowOptions;
    windowOptions.gpu.device = options.gpu;
    windowOptions.gpu.validation = options.validation;
    windowOptions.gpu.synchronizationValidation = options.validation;
    windowOptions.width = size->width;
    windowOptions.height = size->height;
    windowOptions.title = "kinema view: " + options.file;
    auto opened = WindowView::open(windowOptions);
    if (!opened) {
        std::cerr << "kinema view: " << opened.message() << '\n';
        return asksForMissingDevice(opened.faults()) ? usageFailure("view") : 1;
    }
    WindowView& window = *opened;

    DrawList draws;
    built.scene.updateWorldTransforms();
    built.scene.fillDrawList(draws);
    const bool noMeshes = draws.items.empty();
    std::vector<NodeId> rig = rigJoints(built.scene);
    if (noMeshes && rig.empty()) {
        std::cerr << "kinema view: " << options.file << " has nothing to draw: no meshes and no nodes\n";
        return 1;
    }
    auto aspectNow = [&] {
        return window.height() > 0 ? static_cast<float>(window.width()) / static_cast<float>(window.height()) : 1.0f;
    };
    auto frameAll = [&] {
        Vec3 lo{0, 0, 0}, hi{0, 0, 0};
        animatedBounds(built, noMeshes ? std::span<const NodeId>(rig) : std::span<const NodeId>{}, {}, lo, hi);
        return framedOrbit(lo, hi, aspectNow());
    };
    Orbit orbit = frameAll();
    if (auto framed = orbitCamera(orbit, aspectNow()); !framed) {
        std::cerr << "kinema view: " << options.file << ": its bounds are too large to frame a camera around ("
                  << oneLine(framed.message()) << ")\n";
        return 1;
    }
    Orbit lastFramed = orbit;  // the last orbit a camera could be made for

    bool playing = true;
    bool skeleton = noMeshes;
    bool help = false;
    double speed = 1.0;
    double time = 0.0;
    std::size_t frames = 0;
    Overlay overlay;
    const SkeletonOverlayStyle style;
    auto last = std::chrono::steady_clock::now();
    for (;;) {
        const ViewEvents events = window.poll();
        bool quit = events.closeRequested;
        bool sought = false;
        for (ViewKey key : events.keys) {
            switch (key) {
                case ViewKey::Space: playing = !playing; break;
                case ViewKey::Left:
                case ViewKey::Right:
                    playing = false;
                    time += key == ViewKey::Left ? -kScrubStep : kScrubStep;
                    sought = true;
                    break;
                case ViewKey::Up: speed = std::min(speed * 1.25, 16.0); break;
                case ViewKey::Down: speed = std::max(speed / 1.25, 1.0 / 64.0); break;
                case ViewKey::Next:
                case ViewKey::Previous: {
                    if (model.clips.size() < 2) break;
                    const auto count = static_cast<std::int32_t>(model.clips.size());
                    clip = ((clip + (key == ViewKey::Next ? 1 : -1)) % count + count) % count;
                    auto next = modelSceneFor(model, std::to_string(clip));
                    if (next) {
                        built = std::move(*next);
                        rig = rigJoints(built.scene);
                        time = 0.0;
                    }
                    break;
                }
                case ViewKey::Skeleton: skeleton = !skeleton || noMeshes; break;
                case ViewKey::Help: help = !help; break;
                case ViewKey::Reset: orbit = frameAll(); break;
                case ViewKey::Quit: quit = true; break;
            }
        }
        if (quit) break;
        orbit.yaw -= static_cast<float>(events.orbitX) * 0.01f;
        orbit.pitch = std::clamp(orbit.pitch + static_cast<float>(events.orbitY) * 0.01f, -1.5f, 1.5f);
        orbit.distance *= static_cast<float>(std::pow(0.9, events.zoom));

        const auto now = std::chrono::steady_clock::now();
        const double elapsed = std::min(std::chrono::duration<double>(now - last).count(), 0.25);
        last = now;
        const double duration = boundDuration(built);
        if (playing) {
            time += elapsed * speed;
            (void)built.scene.advance(elapsed * speed);
        }
        if (duration > 0.0) time = wrapPosition(time, duration);  // just before 0 is the lap's end
        if (sought) seek(built.scene, time);
        built.scene.updateWorldTransforms();
        built.scene.fillDrawList(draws);

        overlay.clear();
        if (skeleton) appendSkeletonOverlay(built.scene, rig, style, overlay);
        char status[256];
        const std::string clipName = clip >= 0 ? std::string(model.clips[static_cast<std::size_t>(clip)].name()) : "";
        std::snprintf(status, sizeof status, "%s %d/%zu '%s'  t = %.2f / %.2f s  x%.2f  %s   (H: help)",
                      clip >= 0 ? "animation" : "no animation", clip + 1, model.clips.size(), clipName.c_str(), time,
                      duration, speed, playing ? "playing" : "paused");
        overlay.texts.push_back({10.0f, 10.0f, status});
        if (help) overlay.texts.push_back({10.0f, 44.0f, kHelp});

        auto framedNow = orbitCamera(orbit, aspectNow());
        if (!framedNow) {
            orbit = lastFramed;  // zoomed or resized past what float can frame: stay where it could
            framedNow = orbitCamera(orbit, aspectNow());
        }
        if (!framedNow) break;
        lastFramed = orbit;
        const CameraMatrices camera = *framedNow;
        FrameDesc frame;
        frame.catalogue = &built.catalogue;
        frame.draws = &draws;
        frame.viewProjection = camera.viewProjection;
        frame.eye = camera.eye;
        frame.background = {0.024f, 0.028f, 0.036f, 1.0f};
        frame.overlay = &overlay;
        auto shown = window.present(frame);
        if (!shown) {
            std::cerr << "kinema view: " << shown.message() << '\n';
            return 1;
        }
        ++frames;
        if (options.frames && static_cast<std::int64_t>(frames) >= *options.frames) break;
    }
    if (options.validation && window.context().validationMessageCount() > 0) {
        for (const std::string& m : window.context().validationMessages()) std::cerr << "validation: " << m << '\n';
        std::cerr << "kinema view: " << window.context().validationMessageCount() << " validation message(s)\n";
        return 1;
    }
    std::printf("kinema view: %zu frames on %s\n", frames, window.context().device().name.c_str());
    return 0;
}

}  // namespace kinema::cli
