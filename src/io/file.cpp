#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>

#include "kinema/io/gltf.hpp"

namespace kinema {

namespace {

// Closes the descriptor on every path out.
struct FileDescriptor {
    int fd;
    ~FileDescriptor() {
        if (fd >= 0) ::close(fd);
    }
};

}  // namespace

// POSIX calls rather than stdio: open, fstat, read, close are the whole cost, where
// stdio adds two seeks and a buffer per file. A small .gltf model is mostly the
// reading of its few external buffers (measured in docs/PERFORMANCE.md: about 5.3
// us per file with stdio, 3.6 us this way, on the CI machine).
Result<std::shared_ptr<const std::vector<std::byte>>> readFileBytes(const std::filesystem::path& path) {
    const FileDescriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (file.fd < 0) return Fault{path.string(), "cannot open file"};
    // A folder (or a device, a pipe) opens fine but has no size to read.
    struct stat info {};
    if (::fstat(file.fd, &info) != 0 || !S_ISREG(info.st_mode)) return Fault{path.string(), "not a regular file"};
    if (info.st_size < 0) return Fault{path.string(), "cannot determine the file size"};
    auto bytes = std::make_shared<std::vector<std::byte>>(static_cast<std::size_t>(info.st_size));
    std::size_t done = 0;
    while (done < bytes->size()) {
        const ssize_t got = ::read(file.fd, bytes->data() + done, bytes->size() - done);
        if (got < 0 && errno == EINTR) continue;
        // A file that shrank while being read is as unreadable as one that failed.
        if (got <= 0) return Fault{path.string(), "read failed"};
        done += static_cast<std::size_t>(got);
    }
    return std::shared_ptr<const std::vector<std::byte>>(std::move(bytes));
}

}  // namespace kinema
