// The kinema command-line tool's commands. Each returns the process exit code
// and writes results to stdout, problems to stderr.
#pragma once

#include <string>
#include <vector>

namespace kinema::cli {

struct InfoOptions {
    std::string file;
    bool json = false;
};
int runInfo(const InfoOptions& options);

struct ValidateOptions {
    std::string file;
};
int runValidate(const ValidateOptions& options);

struct SampleOptions {
    std::string file;
    std::string animation = "0";  // index, name, or "none"
    std::vector<double> times;
    bool clamp = false;
    bool skinned = false;
    bool json = false;
};
int runSample(const SampleOptions& options);

struct DemoOptions {
    double seconds = 2.0;
    double step = 0.125;
};
int runDemo(const DemoOptions& options);

}  // namespace kinema::cli
