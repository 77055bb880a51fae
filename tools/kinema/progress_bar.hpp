// A progress bar on stderr for long runs: shown only when stderr is a terminal and
// the run has lasted a second, so quick runs and redirected output stay clean.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace kinema::cli {

class ProgressBar {
public:
    ProgressBar(std::string label, std::size_t total);
    ~ProgressBar();
    ProgressBar(const ProgressBar&) = delete;
    ProgressBar& operator=(const ProgressBar&) = delete;

    // `done` of `total` steps are complete.
    void update(std::size_t done);
    // Erases the bar (the command prints its own summary next).
    void finish();

private:
    std::string label_;
    std::size_t total_;
    bool terminal_;
    bool shown_ = false;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace kinema::cli
