// Internal to kinema/io: turning the URI of a buffer or image into bytes without
// letting an untrusted file reach anything outside its own folder.
//
// A URI is checked lexically first (scheme, absolute path, percent-escapes, NUL,
// '..' segments), so a refused path is never touched on disk; a path that passes
// is opened so that no symbolic link along it may lead out of the folder either,
// and only a regular file is read (a FIFO or a device is refused without blocking).
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kinema::gltf {

// A URI reference as a path: percent-decoded, '.' and empty segments removed, '..'
// applied lexically.
struct UriPath {
    std::string path;       // '/'-separated; starts with '/' when the URI was absolute
    bool absolute = false;  // the URI was an absolute path ("/etc/passwd", "//host/x")
    bool leaves = false;    // absolute, or a '..' climbs above the folder it is relative to
};

// The URI as a path, or an empty `error` saying why it cannot be one (a scheme other
// than data:, a malformed or NUL percent-escape, a backslash, a query or fragment).
UriPath parseUriPath(std::string_view uri, std::string& error);

// Where a URI may lead when it leaves its file's folder.
struct PathPolicy {
    bool anyPath = false;                        // any absolute path or '..' is allowed
    std::vector<std::filesystem::path> folders;  // other folders whose files may be read
};

// An open, regular, readable file; closes itself.
class OpenFile {
public:
    OpenFile() = default;
    explicit OpenFile(int fd, std::size_t size) noexcept : fd_(fd), size_(size) {}
    OpenFile(OpenFile&& other) noexcept : fd_(other.fd_), size_(other.size_) { other.fd_ = -1; }
    OpenFile& operator=(OpenFile&& other) noexcept;
    OpenFile(const OpenFile&) = delete;
    OpenFile& operator=(const OpenFile&) = delete;
    ~OpenFile();

    bool isOpen() const noexcept { return fd_ >= 0; }
    std::size_t size() const noexcept { return size_; }
    // The first `count` bytes (count <= size()); empty `error` on success.
    std::vector<std::byte> readPrefix(std::size_t count, std::string& error) const;

private:
    int fd_ = -1;
    std::size_t size_ = 0;
};

// Opens `path` (a file given by the user: no folder confinement) for reading: without
// blocking on a FIFO, and only when it is a regular file. On failure `error` says why,
// naming the path unless `pathInError` is false (where the fault's location is the path).
OpenFile openRegularFile(const std::filesystem::path& path, std::string& error, bool pathInError = true);

// Where a checked URI leads: a path relative to a folder it may not leave, or (with
// an empty folder) a path to open as it is, when the policy allows any path.
struct ResourceLocation {
    std::string folder;
    std::string path;
    // Other folders a symbolic link below `folder` may lead into (the policy's folders).
    std::vector<std::string> alsoInside;
};

// The location of `uri` relative to `folder` (empty: the current folder): inside the
// folder, or, when the URI leaves it, inside one of the policy's folders or anywhere
// if the policy allows any path; else an `error` and nothing is touched on disk.
ResourceLocation locateResource(const std::filesystem::path& folder, const UriPath& uri, const PathPolicy& policy,
                                std::string& error);

// Opens a located file: below its folder no component, symbolic links included, may
// resolve outside that folder (or the location's other folders). On failure `error` says why.
OpenFile openLocated(const ResourceLocation& location, std::string& error);

}  // namespace kinema::gltf
