// The kinema command-line tool's commands. Each returns the process exit code
// and writes results to stdout, problems to stderr.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "import_flags.hpp"

namespace kinema::cli {

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
    double seconds = 6.0;  // played in ticks of 1/60 s
    double step = 0.25;    // seconds between printed poses
};
int runDemo(const DemoOptions& options);

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
};
int runBench(const BenchOptions& options);

}  // namespace kinema::cli
