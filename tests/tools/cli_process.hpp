// Running the kinema command as a user does, from the tools tests: a child process
// whose exit code, standard output and standard error come back.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace kinema::test {

struct CliRun {
    int exitCode = -1;
    std::string out;  // stdout
    std::string err;  // stderr
};

// The prefix of a command that loads a Vulkan driver, which the loader unloads at
// exit, before LeakSanitizer looks: it could not name the driver's frames to suppress
// its process-lifetime allocations, so leak checking is off for these processes (the
// renderer's own leaks are checked in-process by tests/gpu). No effect without ASan.
inline constexpr const char* kDriverProcess = "ASAN_OPTIONS=detect_leaks=0 ";

// `kinema` with `args` (shell words), after `prefix` (environment changes such as
// kDriverProcess, or a wrapper command; may be empty).
inline CliRun runCli(const std::string& prefix, const std::string& args) {
    // ctest runs test cases as parallel processes: each call needs its own file.
    static int calls = 0;
    const std::string errFile =
        testing::TempDir() + "kinema_cli_stderr_" + std::to_string(::getpid()) + "_" + std::to_string(calls++) + ".txt";
    std::string cmd = prefix;
    cmd.append(" ").append(KINEMA_CLI_PATH).append(" ").append(args).append(" 2>").append(errFile);
    CliRun r;
    FILE* p = popen(cmd.c_str(), "r");
    if (p == nullptr) return r;
    std::array<char, 4096> buf{};
    std::size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    const int status = pclose(p);
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream e(errFile);
    r.err.assign(std::istreambuf_iterator<char>(e), {});
    e.close();
    std::remove(errFile.c_str());
    return r;
}

// A path as one shell word (single quotes; the test paths hold none).
inline std::string quoted(const std::filesystem::path& p) {
    std::string q(1, '\'');
    q.append(p.string());
    q.push_back('\'');
    return q;
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace kinema::test
