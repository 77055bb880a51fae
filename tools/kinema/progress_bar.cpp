#include "progress_bar.hpp"

#include <unistd.h>

#include <cstdio>

namespace kinema::cli {

ProgressBar::ProgressBar(std::string label, std::size_t total)
    : label_(std::move(label)),
      total_(total),
      terminal_(isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()) {}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::finish() {
    if (shown_) std::fputs("\r\033[K", stderr);
    shown_ = false;
    terminal_ = false;  // nothing more after the end
}

void ProgressBar::update(std::size_t done) {
    if (!terminal_ || total_ == 0) return;
    if (!shown_ && std::chrono::steady_clock::now() - start_ < std::chrono::seconds(1)) return;
    shown_ = true;
    constexpr std::size_t kWidth = 30;
    const std::size_t filled = done * kWidth / total_;
    std::string bar(filled, '#');
    bar.append(kWidth - filled, '.');
    std::fprintf(stderr, "\r%s [%s] %zu/%zu", label_.c_str(), bar.c_str(), done, total_);
    std::fflush(stderr);
}

}  // namespace kinema::cli
