#include "output_path.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <filesystem>
#include <string>
#include <system_error>

namespace kinema::cli {

Result<bool> checkOutputName(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code error;
    if (path.empty()) return Fault{"out", "the output path is empty"};
    if (fs::is_directory(path, error)) return Fault{path, "is a folder, not a file name"};
    if (fs::exists(path, error) && !fs::is_regular_file(path, error))
        return Fault{path, "is not a regular file (a FIFO or a device): the output goes to a file"};
    return true;
}

Result<bool> checkOutputPath(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code error;
    if (auto name = checkOutputName(path); !name) return name;
    fs::path folder = fs::path(path).parent_path();
    if (folder.empty()) folder = ".";
    if (!fs::is_directory(folder, error)) {
        if (fs::exists(folder, error)) return Fault{path, folder.string() + " is a file, not a folder"};
        return Fault{path, "its folder " + folder.string() + " does not exist"};
    }
    if (::access(folder.c_str(), W_OK) != 0) return Fault{path, "its folder " + folder.string() + " is not writable"};
    // Permission bits do not say everything (a read-only mount, /proc, a superuser's
    // access()): a file is made there and removed, as the writer will make one.
    std::string probe = path;
    probe.append(".").append(std::to_string(::getpid())).append(".probe");
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0) {
        return Fault{path, "no file can be made in its folder " + folder.string() + ": " + std::strerror(errno)};
    }
    ::close(fd);
    ::unlink(probe.c_str());
    return true;
}

}  // namespace kinema::cli
