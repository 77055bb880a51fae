// kinema: inspect, validate and sample glTF animation; cook it into kinema's binary form; run the
// built-in demo; time the workloads.
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arguments.hpp"
#include "commands.hpp"
#include "kinema/core/version.hpp"

namespace {

// A parse error before any command was recognised: name what was not understood
// (CLI11 would only say that a subcommand is required).
// `firstArgument` is what came right after `kinema`: an option there that kinema
// itself does not take belongs after a command.
int noCommand(const CLI::App& app, const CLI::ParseError& error, std::string_view firstArgument) {
    std::string commands;
    for (const CLI::App* command : std::as_const(app).get_subcommands({})) {
        if (!commands.empty()) commands += ", ";
        commands += command->get_name();
    }
    const std::vector<std::string> rest = app.remaining();
    if (!app.get_subcommands().empty())
        std::cerr << "kinema: option '" << firstArgument << "' given before the command (options follow it)";
    else if (rest.empty())
        std::cerr << "kinema: a command is required";
    else if (rest.front().starts_with('-'))
        std::cerr << "kinema: unknown option '" << rest.front() << "'";
    else
        std::cerr << "kinema: unknown command '" << rest.front() << "'";
    std::cerr << "; commands: " << commands << "\nRun with --help for more information.\n";
    return error.get_exit_code() == 0 ? 0 : 2;
}

// What CLI11 says of an option that takes one value given more than once.
constexpr const char* kGivenTwice = ": At Most 1 required but received ";

// A parse error after the command: what was wrong, with the command's name, as the
// commands' own checks say it. Every bad argument exits 2, whichever check found it.
int badArgument(const CLI::App& command, const CLI::ParseError& error) {
    const std::string name = "kinema " + command.get_name();
    std::cerr << name << ": ";
    if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr && !command.remaining().empty()) {
        // CLI11 lists the extra arguments last first; the first one is what to fix.
        const std::string first = command.remaining().front();
        std::cerr << (first.starts_with('-') ? "unknown option '" : "unexpected argument '") << first << "'";
    } else if (const std::string said = error.what(); said.find(kGivenTwice) != std::string::npos) {
        // CLI11's words for an option repeated: said as the other checks say things.
        const std::size_t at = said.find(kGivenTwice);
        std::cerr << said.substr(0, at) << ": given " << said.substr(at + std::string_view(kGivenTwice).size())
                  << " times; give it once";
    } else {
        std::cerr << error.what();
    }
    std::cerr << '\n';
    return kinema::cli::usageFailure(command.get_name());
}

// `code`, unless what went to stdout (results, help) did not get there (a full disk, a
// device that refuses it): that is a failure, not a success.
int withOutputWritten(int code) {
    std::cout.flush();
    const bool flushed = std::fflush(stdout) == 0;
    if (!std::cout || !flushed || std::ferror(stdout) != 0) {
        std::cerr << "kinema: standard output could not be written; the results are lost\n";
        return code == 0 ? 1 : code;
    }
    return code;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace kinema::cli;
    CLI::App app{
        "kinema: an engine-agnostic animation runtime.\n"
        "Reads glTF 2.0 (.gltf, .glb) and its own cooked files (.kinc), evaluates poses, skin palettes, skinned "
        "vertices and morph weights."};
    app.require_subcommand(1);
    app.set_version_flag("--version", "kinema " + std::string(kinema::version()));

    InfoOptions info;
    auto* infoCmd = app.add_subcommand(
        "info",
        "Summarise a glTF file or a cooked file (.kinc, from `kinema cook`): nodes, skins, animations, meshes, "
        "materials, images.");
    infoCmd->add_option("FILE", info.file, "a .gltf or .glb file, or a cooked file")->required()->check(notEmpty());
    infoCmd->add_flag("--json", info.json, "print JSON instead of text");
    addImportFlags(*infoCmd, info.import, ImageLimit::NotOffered);

    ValidateOptions validate;
    auto* validateCmd = app.add_subcommand(
        "validate",
        "Check a glTF file the way import does: the glTF 2.0 specification's errors, with the Khronos "
        "glTF-Validator's tolerances; every image is decoded too. Exit 0 when valid (printing any "
        "warnings); exit 1 listing every fault with its location (JSON pointer or byte offset). A cooked file "
        "(.kinc) is checked by the cooked reader.");
    validateCmd->add_option("FILE", validate.file, "a .gltf or .glb file, or a cooked file")
        ->required()
        ->check(notEmpty());
    addImportFlags(*validateCmd, validate.import, ImageLimit::Offered);

    SampleOptions sample;
    auto* sampleCmd = app.add_subcommand(
        "sample",
        "Evaluate an animation at given times: every node's local TRS and world matrix, and each mesh "
        "primitive's morph weights (and, with --skinned, its world-space vertex positions). A cooked file "
        "(.kinc) samples as the file it was cooked from (exactly when cooked with --exact).");
    sampleCmd->add_option("FILE", sample.file, "a .gltf or .glb file, or a cooked file")->required()->check(notEmpty());
    sampleCmd->add_option("--animation", sample.animation,
                          "animation index or name, or 'none' for the rest pose (default 0; a file without "
                          "animations samples the rest pose)");
    std::string times;  // parsed after the command line, so empty items are seen
    sampleCmd->add_option("--times", times, "one comma-separated list of finite times in seconds, e.g. 0,0.5,1.25")
        ->type_name("T0,T1,...")
        ->required();
    sampleCmd->add_flag("--clamp", sample.clamp, "clamp times to [0, duration] instead of looping");
    sampleCmd->add_flag("--skinned", sample.skinned, "also output morphed and skinned vertex positions");
    sampleCmd->add_flag("--json", sample.json,
                        "print JSON (the documented comparison format) instead of readable text");
    addImportFlags(*sampleCmd, sample.import, ImageLimit::NotOffered);

    DemoOptions demo;
    auto* demoCmd = app.add_subcommand(
        "demo",
        "Run the built-in demo: a humanoid built in code (21 joints; body and clothes skinned from one pose; a "
        "sword on a hand socket) walks over uneven ground, driven by a state machine (idle, walk, run by a "
        "scripted speed) with crossfades and root motion; foot IK plants its feet on the ground and its head "
        "follows a moving point. Prints state changes and footstep events as they fire, the root's path and "
        "each planted foot's distance from the ground with and without foot IK; exit 1 when a target is missed "
        "(planted ankles within 1 mm of the ground with foot IK and over 10 mm off without, the sword within "
        "1e-4 m of its socket).");
    decimalIn(demoCmd->add_option("--seconds", demo.seconds, "seconds to play, in ticks of 1/60 s (default 8)"), 0.0,
              3600.0);
    decimalIn(demoCmd->add_option("--step", demo.step, "seconds between printed poses (default 0.25)"), 0.001, 10.0);
    demoCmd->add_flag("--json", demo.json,
                      "print the run as one JSON object: events, states, rootMotion, footGroundErrorMm "
                      "(withIk, withoutIk), socketDrift, pass");
    auto* gifOption =
        demoCmd->add_option("--gif", demo.gif, "also draw the humanoid into this animated GIF (30 fps, 480x360)")
            ->check(notEmpty());
    demoCmd->add_option("--gpu", demo.gpu, "Vulkan device for --gif: lavapipe, an index or part of a name")
        ->needs(gifOption)
        ->check(notEmpty());

    RenderOptions render;
    auto* renderCmd = app.add_subcommand(
        "render",
        "Draw frames of a glTF file's animation with the Vulkan renderer, headless (no window or display), "
        "into a PNG or an animated GIF. Skinning and morphing run on the GPU; a GPU-less machine uses Mesa's "
        "CPU driver (lavapipe).");
    renderCmd->add_option("FILE", render.file, "a .gltf or .glb file, or a cooked file")->required()->check(notEmpty());
    renderCmd->add_option("--animation", render.animation,
                          "animation index or name, or none for the rest pose (default: the first)");
    decimalIn(
        renderCmd->add_option("--time", render.time, "seconds into the animation of the (first) frame (default 0)"),
        0.0, 1e6);
    wholeNumberIn(
        renderCmd->add_option(
            "--frames", render.frames,
            "frames to draw, 1/fps apart (default 1; a GIF given neither --frames nor --time plays the whole clip)"),
        1, 100'000);
    decimalIn(renderCmd->add_option("--fps", render.fps,
                                    "frames per second of --frames and the GIF (default 30; a GIF: at most 50)"),
              0.1, 1000.0);
    renderCmd->add_option("--size", render.size, "image size WIDTHxHEIGHT, 1..16384 a side (default 640x480)");
    renderCmd->add_flag("--skeleton", render.skeleton,
                        "draw the rig over the mesh: bones, joints and axis triads (X red, Y green, Z blue)");
    renderCmd
        ->add_option("--camera", render.camera,
                     "auto (frames the animated bounds of the whole clip), file (the file's first camera) or "
                     "\"eye=X,Y,Z target=X,Y,Z up=X,Y,Z fov=DEG near=N far=F\" (right-handed, glTF axes, "
                     "vertical field of view; up, fov, near and far optional) (default auto)")
        ->check(notEmpty());
    renderCmd->add_option("--background", render.background,
                          "RRGGBB or RRGGBBAA (sRGB hex) or transparent: then a PNG's alpha is the coverage "
                          "(default 2b2f36)");
    renderCmd
        ->add_option("--out", render.out, "output .png (several frames: NAME-0000.png, NAME-0001.png, ...) or .gif")
        ->required();
    renderCmd
        ->add_option("--gpu", render.gpu,
                     "Vulkan device: lavapipe (Mesa's CPU driver), an index or part of a name (default: the "
                     "first GPU, else any device)")
        ->check(notEmpty());
    renderCmd->add_flag("--validation", render.validation,
                        "run with the Vulkan validation layers (synchronisation included); any message fails");
    addImportFlags(*renderCmd, render.import, ImageLimit::Offered);

    ViewOptions view;
    auto* viewCmd = app.add_subcommand(
        "view",
        "Play a glTF file's animations in a window: Space play/pause, Left/Right scrub, Up/Down speed, N/P "
        "next/previous animation, S skeleton, drag to orbit, wheel to zoom, R reset the camera, H help, Esc or Q quit. "
        "Needs a display; `kinema render` draws images without one.");
    viewCmd->add_option("FILE", view.file, "a .gltf or .glb file, or a cooked file")->required()->check(notEmpty());
    viewCmd->add_option("--animation", view.animation, "animation index or name to start with (default: the first)");
    viewCmd->add_option("--size", view.size, "window size WIDTHxHEIGHT (default 1280x720)");
    viewCmd
        ->add_option("--gpu", view.gpu, "Vulkan device: lavapipe, an index or part of a name (default: the first GPU)")
        ->check(notEmpty());
    viewCmd->add_flag("--validation", view.validation,
                      "run with the Vulkan validation layers (synchronisation included); any message fails");
    wholeNumberIn(viewCmd->add_option("--frames", view.frames, "close after this many frames (for scripts and tests)"),
                  1, 1'000'000'000);
    addImportFlags(*viewCmd, view.import, ImageLimit::Offered);

    BenchOptions bench;
    auto* benchCmd = app.add_subcommand(
        "bench",
        "Time the per-frame workloads on the SIMD path (PoseBatch, PoseKernels, PackedClip): W1 "
        "(64 and 128 joints, 256 instances) sequential (w1a), w1a on the clip exact and compressed within 0.01 cm "
        "(compressed), seeking (w1b), blending two clips (w1c), "
        "palettes and CPU skinning of 10k vertices (w1d), w1a on all threads (w1e), w1a with 10,000 "
        "instances on 1 and on all threads (w1f), the stages alone: sample, local->model, blend (w1s), "
        "w1a, then with two two-bone IK tasks, then with an aim as well, per instance, 1000 instances (ik), "
        "CesiumMan on 1000 instances (w2), and one frame of scene work for 10,000 rigid animated nodes and 1000 "
        "skinned characters, with a GPU the GPU time of a frame of 10,000 GPU-skinned CesiumMan at 1920x1080 "
        "(render). Prints a table, or JSON with --json.");
    std::vector<std::string> workloads;  // one comma-separated list per --workload, split after parsing
    benchCmd
        ->add_option("--workload", workloads,
                     "comma-separated workloads: w1a, compressed, w1b, w1c, w1d, w1e, w1f, w1s, ik, w2, render or all "
                     "(default all; may be repeated)")
        ->allow_extra_args(false)
        ->check(notEmpty());
    wholeNumberIn(benchCmd->add_option("--threads", bench.threads,
                                       "threads for w1e and w1f (default 0: as many as the hardware has)"),
                  0, 1024);
    wholeNumberIn(benchCmd->add_option("--instances", bench.instances,
                                       "instances of every workload (default 0: each its own, 256 for W1, 10,000 for "
                                       "w1f, 1000 for w2; 1 times one instance whose data stays in cache)"),
                  0, 100'000);
    benchCmd
        ->add_option("--clip", bench.clip,
                     "W1 clip definition: smooth (rotations turn at most 3.6 degrees per key) or wide (at "
                     "most 21 degrees per key; docs/PERFORMANCE.md defines both) (default smooth)")
        ->check(CLI::IsMember({"smooth", "wide"}));
    benchCmd->add_flag("--json", bench.json,
                       "print only a JSON array of rows (workload, joints, instances, threads, ns_per_joint, "
                       "instances_per_s, bytes_per_key, ...)");
    benchCmd
        ->add_option("--simd", bench.simd,
                     "SIMD level: portable, sse4.2, avx2, avx512 (default: the best "
                     "this CPU runs)")
        ->check(notEmpty());
    benchCmd->add_flag("--uniform-kernels", bench.uniformKernels,
                       "run every pass with the --simd level's own kernels (default: per CPU; at avx512, AMD "
                       "Zen 4 takes the avx2 local->model and palette kernels and skins blending in 256-bit "
                       "halves, Intel Ice Lake takes the avx2 kernels of every pass but skinning, docs/SIMD.md)");
    wholeNumberIn(benchCmd->add_option("--repetitions", bench.repetitions,
                                       "repetitions per row; the median is reported (default 5)"),
                  1, 1000);
    decimalIn(benchCmd->add_option("--min-time", bench.minTime, "seconds each repetition runs at least (default 0.2)"),
              0.0, 600.0);
    benchCmd
        ->add_option("--gpu", bench.gpu,
                     "Vulkan device of the render workload's GPU rows: lavapipe, an index or part of a name, "
                     "or none (default: the first GPU; skipped when the only device is a CPU driver)")
        ->check(notEmpty());
    benchCmd
        ->add_option("--assets", bench.assets,
                     "glTF sample models folder holding CesiumMan for w2 (default $KINEMA_ASSETS, else "
                     "../shared/assets/gltf); w2 is skipped with a message when it is missing")
        ->check(notEmpty());

    CookOptions cook;
    auto* cookCmd = app.add_subcommand(
        "cook",
        "Cook glTF files into kinema's binary animation format: DIR/<name>.kinc per input, holding the "
        "skeleton, skins, clips, meshes, materials, decoded images, scenes and cameras, loaded without parsing. "
        "Each clip's "
        "joint tracks are compressed within --error-cm (unless --exact). Files are cooked in parallel. Prints a "
        "row per clip: file, clip, raw bytes (the animated joints sampled at 30 Hz, 10 floats each), cooked "
        "bytes (the clip's compressed data, or its key data when exact), their ratio, and the largest and 99th "
        "percentile error in cm of points 3 cm from each joint, measured on the file as written (0: keys "
        "are stored exactly). Exit 1 when any file fails, after the others are cooked.");
    cookCmd->add_option("IN", cook.inputs, ".gltf or .glb files")->required()->check(notEmpty());
    cookCmd->add_option("--out", cook.out, "folder for the .kinc files (created when missing)")
        ->type_name("DIR")
        ->required();
    wholeNumberIn(
        cookCmd->add_option("--jobs", cook.jobs, "files cooked at once, 1..1024 (default: the hardware's threads)"), 1,
        1024);
    decimalIn(
        cookCmd->add_option("--error-cm", cook.errorCm,
                            "largest error a point 3 cm from a joint may show, in cm, for files in metres, 1e-6..1e6 "
                            "(default 0.01)"),
        1e-6, 1e6);
    auto* exactFlag = cookCmd->add_flag("--exact", cook.exact, "store every clip's keys as given, without compression")
                          ->excludes("--error-cm");
    cookCmd
        ->add_option("--segment-keys", cook.segmentKeys,
                     "keys a segment of a compressed track holds, each segment with its own range and bit width: "
                     "a power of two from 2 to 256, or 0 for one segment a track (default 16)")
        ->transform(powerOfTwoIn(2, 256, true))
        ->type_name("INT")
        ->excludes(exactFlag);
    cookCmd
        ->add_option("--max-stride", cook.maxStride,
                     "key reduction: the largest stride of the 30 Hz grid a smooth track may keep (2: 15 keys a "
                     "second...), a power of two from 1 (none) to 64 (default 8)")
        ->transform(powerOfTwoIn(1, 64, false))
        ->type_name("INT")
        ->excludes(exactFlag);
    cookCmd
        ->add_option(
            "--markers", cook.markers,
            "a marker JSON file (docs/STATE-MACHINES.md, Marker files) applied to every input's clips before cooking")
        ->type_name("FILE")
        ->check(notEmpty());
    cookCmd
        ->add_option("--curves", cook.curves,
                     "a user-curve JSON file (docs/CLI.md, cook) applied to every input's clips by clip name before "
                     "cooking")
        ->type_name("FILE")
        ->check(notEmpty());
    cookCmd
        ->add_option("--state-machine", cook.stateMachines,
                     "a state-machine JSON file stored in every cooked file, named by its file name without "
                     "extension and checked against the input's clips (repeat for several)")
        ->type_name("FILE")
        ->allow_extra_args(false)
        ->check(notEmpty());
    cookCmd->add_flag("--json", cook.json,
                      "print only a JSON array, an object per clip: file, clip, rawBytes, bytes, ratio, maxErrorCm, "
                      "p99ErrorCm");
    addImportFlags(*cookCmd, cook.import, ImageLimit::Offered);
    // One folder per --allow-folder, so that the input files after it are not read as folders.
    cookCmd->get_option("--allow-folder")->allow_extra_args(false);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const std::string_view first = argc > 1 ? argv[1] : "";
        if (e.get_exit_code() != 0 && (app.get_subcommands().empty() || first.starts_with('-')))
            return noCommand(app, e, first);
        if (e.get_exit_code() == 0) return withOutputWritten(app.exit(e));  // --help, --version
        return badArgument(*app.get_subcommands().front(), e);
    }

    const auto run = [&]() -> int {
        if (infoCmd->parsed()) return runInfo(info);
        if (validateCmd->parsed()) return runValidate(validate);
        if (sampleCmd->parsed()) {
            std::string error;
            auto parsed = parseTimes(times, error);
            if (!parsed) {
                std::cerr << "kinema sample: --times: " << error << '\n';
                return usageFailure("sample");
            }
            sample.times = std::move(*parsed);
            return runSample(sample);
        }
        if (demoCmd->parsed()) return runDemo(demo);
        if (renderCmd->parsed()) return runRender(render);
        if (viewCmd->parsed()) return runView(view);
        if (benchCmd->parsed()) {
            for (const std::string& list : workloads) {
                std::string error;
                const auto names = splitList(list, "w1a,ik", error);
                if (!names) {
                    std::cerr << "kinema bench: --workload: " << error << '\n';
                    return usageFailure("bench");
                }
                bench.workloads.insert(bench.workloads.end(), names->begin(), names->end());
            }
            return runBench(bench);
        }
        if (cookCmd->parsed()) return runCook(cook);
        return 2;
    };
    int code = 0;
    try {
        code = run();
    } catch (const std::exception& e) {
        std::cerr << "kinema: " << e.what() << '\n';
        return 3;
    }
    return withOutputWritten(code);
}
