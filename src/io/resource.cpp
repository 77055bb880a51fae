#include "resource.hpp"

#include "container.hpp"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <climits>
#include <cstring>

namespace kinema::gltf {

namespace {

bool isSchemeChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' || c == '-' ||
        c == '.';
}

// Closes a descriptor on every path out unless released.
struct Descriptor {
    int fd = -1;
    ~Descriptor() {
        if (fd >= 0) ::close(fd);
    }
    int release() noexcept {
        const int f = fd;
        fd = -1;
        return f;
    }
};

// Why an open failed; `path` names the file, or is empty where the fault's location
// names it already.
std::string errnoText(int error, std::string_view path) {
    const auto named = [&](std::string_view text, std::string_view joint) {
        std::string out(text);
        if (!path.empty()) out.append(joint).append(path);
        return out;
    };
    switch (error) {
        case ENOENT: return named("no such file", ": ");
        case EACCES:
        case EPERM: return named("permission denied", ": ");
        case ELOOP: return named("too many symbolic links (or a loop) on the way", " to ");
        case ENOTDIR: return named("a part of the path is not a folder", ": ");
        case EXDEV: return named("a symbolic link on the way", " to ").append(" leads outside the file's folder");
        default: return named("cannot open", " ").append(": ").append(std::strerror(error));
    }
}

constexpr int kReadFlags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;

// The descriptor as a regular file, or an error: a FIFO, a device or a folder has
// no byte count to trust (and a FIFO would block the read).
OpenFile asRegularFile(Descriptor& file, std::string_view shown, std::string& error) {
    struct stat info {};
    if (::fstat(file.fd, &info) != 0) {
        error = "cannot inspect";
        if (!shown.empty()) error.append(" ").append(shown);
        error.append(": ").append(std::strerror(errno));
        return {};
    }
    if (!S_ISREG(info.st_mode)) {
        const char* kind = S_ISDIR(info.st_mode)             ? "a folder"
            : S_ISFIFO(info.st_mode)                         ? "a FIFO"
            : S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode) ? "a device"
            : S_ISSOCK(info.st_mode)                         ? "a socket"
                                                             : "not a regular file";
        error.clear();
        if (!shown.empty()) error.append(shown).append(" is ");
        error.append(kind).append(", not a regular file");
        return {};
    }
    if (info.st_size < 0) {
        error = "cannot determine the size";
        if (!shown.empty()) error.append(" of ").append(shown);
        return {};
    }
    return OpenFile(file.release(), static_cast<std::size_t>(info.st_size));
}

// The path the descriptor is open on, as the kernel resolved it ("" when unknown).
std::string openedPath(int fd) {
    const std::string link = "/proc/self/fd/" + std::to_string(fd);
    std::array<char, PATH_MAX + 1> buffer{};
    const ssize_t n = ::readlink(link.c_str(), buffer.data(), buffer.size() - 1);
    if (n <= 0 || static_cast<std::size_t>(n) >= buffer.size() - 1) return {};
    return std::string(buffer.data(), static_cast<std::size_t>(n));
}

// The real path of a folder, with a trailing '/', for prefix tests ("" when unknown).
std::string realFolder(const std::string& folder) {
    std::error_code ec;
    const std::filesystem::path real = std::filesystem::canonical(folder.empty() ? "." : folder, ec);
    if (ec) return {};
    const std::string text = real.string();
    return text == "/" ? text : text + "/";
}

// Opens `relative` below `folder`; every component, symbolic links included, must
// resolve inside the folder or inside one of `alsoInside`. openat2's RESOLVE_BENEATH
// decides the common case in the kernel, with no window between a check and the open.
// It refuses every absolute link and every link into another allowed folder, and it
// is missing on kernels before 5.6 and in some sandboxes; then the path is opened with
// O_PATH (which reads nothing and cannot block or touch a device), the path the kernel
// resolved is compared with the folders' real paths, and only a file found inside is
// reopened for reading through that same descriptor.
OpenFile openBeneath(const std::filesystem::path& folder, const std::string& relative,
                     const std::vector<std::string>& alsoInside, std::string_view shown, std::string& error) {
    Descriptor dir{::open(folder.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC)};
    if (dir.fd < 0) {
        error = "cannot open the folder " + folder.string() + ": " + std::strerror(errno);
        return {};
    }
    open_how how{};
    how.flags = static_cast<std::uint64_t>(kReadFlags);
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    Descriptor file{static_cast<int>(::syscall(SYS_openat2, dir.fd, relative.c_str(), &how, sizeof how))};
    if (file.fd < 0 && (errno == EXDEV || errno == ENOSYS || errno == EPERM)) {
        Descriptor path{::openat(dir.fd, relative.c_str(), O_PATH | O_CLOEXEC)};
        if (path.fd < 0) {
            error = errnoText(errno, shown);
            return {};
        }
        const std::string opened = openedPath(path.fd);
        bool inside = false;
        std::vector<std::string> roots{openedPath(dir.fd)};
        for (const std::string& other : alsoInside) roots.push_back(realFolder(other));
        for (std::string root : roots) {
            if (root.empty()) continue;
            if (root.back() != '/') root += '/';
            inside |= !opened.empty() && opened.compare(0, root.size(), root) == 0;
        }
        if (!inside) {
            error = opened.empty()
                ? "cannot confirm that " + std::string(shown) + " lies inside the file's folder"
                : "a symbolic link on the way to " + std::string(shown) + " leads outside the file's folder";
            return {};
        }
        const std::string reopen = "/proc/self/fd/" + std::to_string(path.fd);
        file.fd = ::open(reopen.c_str(), kReadFlags);
    }
    if (file.fd < 0) {
        error = errnoText(errno, shown);
        return {};
    }
    return asRegularFile(file, shown, error);
}

}  // namespace

UriPath parseUriPath(std::string_view uri, std::string& error) {
    error.clear();
    UriPath out;
    if (uri.empty()) {
        error = "the URI is empty";
        return out;
    }
    // A scheme is letters, digits, '+', '-', '.' up to the first ':', before any '/'.
    if ((uri[0] >= 'a' && uri[0] <= 'z') || (uri[0] >= 'A' && uri[0] <= 'Z')) {
        std::size_t i = 1;
        while (i < uri.size() && isSchemeChar(uri[i])) ++i;
        if (i < uri.size() && uri[i] == ':') {
            error = "URI scheme '" + std::string(uri.substr(0, i)) +
                ":' is not supported (only data: URIs and relative paths)";
            return out;
        }
    }
    std::string decoded;
    decoded.reserve(uri.size());
    for (std::size_t i = 0; i < uri.size(); ++i) {
        const char c = uri[i];
        if (c == '?' || c == '#') {
            error = std::string("a file URI may not have a ") + (c == '?' ? "query ('?')" : "fragment ('#')") +
                " (character " + std::to_string(i) + ")";
            return out;
        }
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
            error = "control character in the URI (character " + std::to_string(i) + ")";
            return out;
        }
        if (c != '%') {
            decoded.push_back(c);
            continue;
        }
        if (i + 2 >= uri.size() || hexDigit(uri[i + 1]) < 0 || hexDigit(uri[i + 2]) < 0) {
            error = "malformed percent-escape at character " + std::to_string(i) + " (two hex digits must follow '%')";
            return out;
        }
        const char byte = static_cast<char>(hexDigit(uri[i + 1]) * 16 + hexDigit(uri[i + 2]));
        if (byte == '\0') {
            error = "'%00' (a NUL byte) at character " + std::to_string(i) + " would cut the path short";
            return out;
        }
        if (static_cast<unsigned char>(byte) < 0x20 || byte == 0x7F) {
            error = "a percent-encoded control character at character " + std::to_string(i);
            return out;
        }
        decoded.push_back(byte);
        i += 2;
    }
    if (decoded.find('\\') != std::string::npos) {
        error = "a backslash is not a URI path separator (use '/')";
        return out;
    }
    out.absolute = decoded.front() == '/';
    out.leaves = out.absolute;
    // Segments, with '.' and empty ones dropped and '..' applied; a '..' with nothing
    // left to remove climbs out of the folder (kept, for a policy that allows it).
    std::vector<std::string_view> segments;
    std::size_t climbs = 0;
    std::string_view rest(decoded);
    while (!rest.empty()) {
        const std::size_t slash = rest.find('/');
        const std::string_view segment = rest.substr(0, slash);
        rest = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash + 1);
        if (segment.empty() || segment == ".") continue;
        if (segment == "..") {
            if (!segments.empty())
                segments.pop_back();
            else if (!out.absolute)
                ++climbs;
            continue;
        }
        segments.push_back(segment);
    }
    if (climbs > 0) out.leaves = true;
    std::vector<std::string_view> parts(climbs, std::string_view(".."));
    parts.insert(parts.end(), segments.begin(), segments.end());
    std::size_t length = out.absolute ? 1 : 0;
    for (const std::string_view part : parts) length += part.size() + 1;
    out.path.reserve(length);
    if (out.absolute) out.path.push_back('/');
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i > 0) out.path.push_back('/');
        out.path.append(parts[i].data(), parts[i].size());
    }
    if (segments.empty()) error = "the URI names a folder, not a file";
    return out;
}

OpenFile& OpenFile::operator=(OpenFile&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = other.fd_;
        size_ = other.size_;
        other.fd_ = -1;
    }
    return *this;
}

OpenFile::~OpenFile() {
    if (fd_ >= 0) ::close(fd_);
}

std::vector<std::byte> OpenFile::readPrefix(std::size_t count, std::string& error) const {
    error.clear();
    std::vector<std::byte> bytes(count);
    std::size_t done = 0;
    while (done < count) {
        const ssize_t got = ::pread(fd_, bytes.data() + done, count - done, static_cast<off_t>(done));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            error = std::string("read failed: ") + std::strerror(errno);
            return {};
        }
        // A file that shrank while being read is as unreadable as one that failed.
        if (got == 0) {
            error = "the file ended after " + std::to_string(done) + " of " + std::to_string(count) + " bytes";
            return {};
        }
        done += static_cast<std::size_t>(got);
    }
    return bytes;
}

OpenFile openRegularFile(const std::filesystem::path& path, std::string& error, bool pathInError) {
    error.clear();
    const std::string shown = pathInError ? path.string() : std::string();
    Descriptor file{::open(path.c_str(), kReadFlags)};
    if (file.fd < 0) {
        error = errnoText(errno, shown);
        return {};
    }
    return asRegularFile(file, shown, error);
}

ResourceLocation locateResource(const std::filesystem::path& folder, const UriPath& uri, const PathPolicy& policy,
                                std::string& error) {
    error.clear();
    const std::filesystem::path base = folder.empty() ? std::filesystem::path(".") : folder;
    std::vector<std::string> others;
    for (const std::filesystem::path& allowed : policy.folders) others.push_back(allowed.string());
    // Any path allowed: the file is opened as named, links followed wherever they go.
    if (policy.anyPath) {
        return {"", uri.absolute ? uri.path : (base / uri.path).lexically_normal().string(), {}};
    }
    if (!uri.leaves) return {base.string(), uri.path, std::move(others)};
    std::error_code ec;
    const std::filesystem::path target = (std::filesystem::absolute(base, ec) / uri.path).lexically_normal();
    if (ec) {
        error = "cannot resolve the folder " + base.string() + ": " + ec.message();
        return {};
    }
    for (const std::filesystem::path& allowed : policy.folders) {
        const std::filesystem::path root = std::filesystem::absolute(allowed, ec).lexically_normal();
        if (ec) continue;
        const std::filesystem::path inside = target.lexically_relative(root);
        if (inside.empty() || *inside.begin() == ".." || inside == ".") continue;
        return {root.string(), inside.string(), std::move(others)};
    }
    error = uri.absolute ? "an absolute path leads outside the file's folder, which this import does not allow"
                         : "'..' leads outside the file's folder, which this import does not allow";
    return {};
}

OpenFile openLocated(const ResourceLocation& location, std::string& error) {
    error.clear();
    if (location.folder.empty()) return openRegularFile(location.path, error);
    return openBeneath(location.folder, location.path, location.alsoInside, location.path, error);
}

}  // namespace kinema::gltf
