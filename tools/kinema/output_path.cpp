#include "output_path.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <cctype>
#include <filesystem>
#include <string>
#include <system_error>

#include "kinema/io/image_write.hpp"

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
    const auto target = writeTarget(path);
    if (!target) return std::vector<Fault>(target.faults().begin(), target.faults().end());
    fs::path folder = target->parent_path();
    if (folder.empty()) folder = ".";
    // Named as the user wrote it, and through a link as the folder it leads to.
    const std::string shown = *target == fs::path(path) ? folder.string() : folder.string() + " (through the link)";
    if (!fs::is_directory(folder, error)) {
        if (fs::exists(folder, error)) return Fault{path, shown + " is a file, not a folder"};
        return Fault{path, "its folder " + shown + " does not exist"};
    }
    if (::access(folder.c_str(), W_OK) != 0) return Fault{path, "its folder " + shown + " is not writable"};
    // Permission bits do not say everything (a read-only mount, /proc, a superuser's
    // access()): a file is made there and removed, as the writer will make one. Its
    // name is short, so that a long output name is not refused for the probe's.
    const fs::path probe = folder / (".kinema-probe." + std::to_string(::getpid()));
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0) {
        return Fault{path, "no file can be made in its folder " + shown + ": " + std::strerror(errno)};
    }
    ::close(fd);
    ::unlink(probe.c_str());
    return true;
}

std::string lowerExtension(const std::string& path) {
    const std::string name = std::filesystem::path(path).filename().string();
    const auto dot = name.rfind('.');
    std::string ext = dot == std::string::npos ? std::string() : name.substr(dot);
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

}  // namespace kinema::cli
