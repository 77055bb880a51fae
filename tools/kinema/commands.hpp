// The kinema command-line tool's commands. Each returns the process exit code
// and writes results to stdout, problems to stderr.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "import_flags.hpp"
#include "kinema/asset/model.hpp"
#include "kinema/core/result.hpp"

namespace kinema::cli {

// The model in `file`: a cooked file (.kinc, told by its first bytes, whatever its
// name) or else a glTF file imported with `flags`. The import flags do not apply to a
// cooked file, except that it too must fit the memory budget. `cooked` says which.
Result<Model> loadModel(const std::string& file, const ImportFlags& flags, bool& cooked);

struct InfoOptions {
    std::string file;
    bool json = false;
    ImportFlags import;
};
int runInfo(const InfoOptions& options);

struct ValidateOptions {
    std::string file;
    ImportFlags import;
};
int runValidate(const ValidateOptions& options);

struct SampleOptions {
    std::string file;
    std::string animation = "0";  // index, name, or "none"
    std::vector<double> times;
    bool clamp = false;
    bool skinned = false;
    bool json = false;
    ImportFlags import;
};
int runSample(const SampleOptions& options);

struct DemoOptions {
    double seconds = 8.0;  // played in ticks of 1/60 s
    double step = 0.25;    // seconds between printed poses
    bool json = false;     // print the run as one JSON object instead of the log
    std::string gif;       // also write an animated GIF of the humanoid here (needs the Vulkan renderer)
    std::string gpu;       // the GIF's Vulkan device (GpuOptions::device)
};
int runDemo(const DemoOptions& options);

struct RenderOptions {
    std::string file;
    std::optional<std::string> animation;  // index, name or "none" (animation_choice.hpp); not given: the first
    std::optional<double> time;            // seconds of the first frame (default 0)
    std::optional<std::int64_t> frames;    // default 1, or the whole clip for a GIF without --time
    double fps = 30.0;
    std::string size = "640x480";
    bool skeleton = false;
    std::string camera = "auto";        // auto, file, or "eye=... target=... up=... fov=..."
    std::string background = "2b2f36";  // RRGGBB[AA] or transparent
    std::string out;
    std::string gpu;  // device choice (GpuOptions::device)
    bool validation = false;
    ImportFlags import;
};
int runRender(const RenderOptions& options);

struct ViewOptions {
    std::string file;
    std::optional<std::string> animation;  // index or name (animation_choice.hpp); not given: the first
    std::string size = "1280x720";
    std::string gpu;
    bool validation = false;
    std::optional<std::int64_t> frames;  // quit after this many frames (scripts and tests)
    ImportFlags import;
};
int runView(const ViewOptions& options);

struct BenchOptions {
    std::vector<std::string> workloads;  // empty: all (w1a, w1b, w1c, w1d, w1e, w1f, w1s, w2, render)
    std::size_t threads = 0;             // threads of w1e and w1f; 0: the hardware's
    std::size_t instances = 0;           // 0: each workload's own count (256, w1f 10,000, w2 1000)
    std::string clip = "smooth";         // the W1 clip definition: smooth or wide
    bool json = false;
    std::string simd;             // empty: the best level this CPU runs
    bool uniformKernels = false;  // every pass at the level's own kernels (KernelMix::Uniform)
    int repetitions = 5;
    double minTime = 0.2;  // seconds per repetition, at least
    std::string assets;    // empty: $KINEMA_ASSETS, else ../shared/assets/gltf
    std::string gpu;       // render's GPU rows: device (GpuOptions::device), or "none"
};
int runBench(const BenchOptions& options);

struct CookOptions {
    std::vector<std::string> inputs;         // .gltf and .glb files
    std::string out;                         // folder of the .kinc files, created when missing
    std::optional<std::size_t> jobs;         // files cooked at once; default the hardware's threads
    double errorCm = 0.01;                   // the compression bound: virtual vertex error in cm
    bool exact = false;                      // store the clips' keys as given, uncompressed
    std::uint32_t segmentKeys = 16;          // keys a compressed segment holds (0: one segment a track)
    std::uint32_t maxStride = 8;             // the largest key-reduction stride tried (1: none)
    std::string markers;                     // a marker JSON file applied to every input (empty: none)
    std::string curves;                      // a user-curve JSON file applied to every input (empty: none)
    std::vector<std::string> stateMachines;  // state-machine JSON files stored in every output
    bool json = false;
    ImportFlags import;
};
int runCook(const CookOptions& options);

}  // namespace kinema::cli
