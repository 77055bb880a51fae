// libFuzzer target: arbitrary bytes as the URI of a buffer, resolved the way import
// resolves it, against a sandbox folder that holds a file, a subfolder, a symbolic
// link that stays inside and one that points out of it.
//
// The contract checked on every input: a URI either is refused with a reason, or
// leads to a path that stays inside the sandbox (lexically, and as the kernel
// actually opened it); nothing outside the sandbox is ever opened.
#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "io/resource.hpp"

namespace {

std::filesystem::path sandbox;
std::string sandboxReal;

[[noreturn]] void contractBroken(const char* what, std::string_view uri) {
    std::fprintf(stderr, "kinema uri fuzz: %s (uri '%.*s')\n", what, static_cast<int>(uri.size()), uri.data());
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    char pattern[] = "/tmp/kinema-uri-fuzz-XXXXXX";
    if (!::mkdtemp(pattern)) std::abort();
    sandbox = pattern;
    std::filesystem::create_directories(sandbox / "sub" / "deeper");
    for (const char* name : {"a.bin", "sub/b.bin", "sub/deeper/c.bin"}) {
        const int fd = ::open((sandbox / name).c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || ::write(fd, "12345678", 8) != 8) std::abort();
        ::close(fd);
    }
    std::filesystem::create_symlink("b.bin", sandbox / "sub" / "inside.bin");
    std::filesystem::create_symlink("/etc/hostname", sandbox / "out.bin");
    std::filesystem::create_directory_symlink("/etc", sandbox / "etc");
    sandboxReal = std::filesystem::canonical(sandbox).string() + "/";
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view uri(reinterpret_cast<const char*>(data), size);
    std::string error;
    const kinema::gltf::UriPath path = kinema::gltf::parseUriPath(uri, error);
    if (!error.empty()) return 0;
    if (path.path.find('\0') != std::string::npos || path.path.find('\\') != std::string::npos) {
        contractBroken("a checked path holds NUL or a backslash", uri);
    }
    if (!path.leaves) {
        if (path.absolute || path.path.empty() || path.path.front() == '/')
            contractBroken("a relative path starts with '/'", uri);
        for (std::size_t start = 0; start <= path.path.size();) {
            const std::size_t slash = std::min(path.path.find('/', start), path.path.size());
            const std::string_view segment = std::string_view(path.path).substr(start, slash - start);
            if (segment == ".." || segment == "." || segment.empty())
                contractBroken("a checked path keeps a dot or empty segment", uri);
            start = slash + 1;
        }
    }
    const kinema::gltf::ResourceLocation location =
        kinema::gltf::locateResource(sandbox, path, kinema::gltf::PathPolicy{}, error);
    if (!error.empty()) {
        if (!path.leaves) contractBroken("a path inside the folder was refused by the policy", uri);
        return 0;
    }
    if (path.leaves) contractBroken("a path leaving the folder was located without a policy allowing it", uri);
    if (location.folder != sandbox.string()) contractBroken("located in another folder", uri);
    const kinema::gltf::OpenFile file = kinema::gltf::openLocated(location, error);
    if (!file.isOpen()) return 0;
    // What was opened must be below the sandbox, whatever links were on the way.
    const std::string resolved = std::filesystem::canonical(sandbox / location.path).string();
    if (resolved.compare(0, sandboxReal.size(), sandboxReal) != 0)
        contractBroken("opened a file outside the folder", uri);
    return 0;
}
