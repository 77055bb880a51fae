#include <sys/stat.h>

#include <cstdio>
#include <memory>

#include "kinema/io/gltf.hpp"

namespace kinema {

Result<std::shared_ptr<const std::vector<std::byte>>> readFileBytes(const std::filesystem::path& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return Fault{path.string(), "cannot open file"};
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> closer(f, &std::fclose);
    // A folder (or a device, a pipe) opens fine but has no size to read.
    struct stat info {};
    if (fstat(fileno(f), &info) != 0 || !S_ISREG(info.st_mode)) return Fault{path.string(), "not a regular file"};
    if (std::fseek(f, 0, SEEK_END) != 0) return Fault{path.string(), "cannot seek"};
    const long size = std::ftell(f);
    if (size < 0 || std::fseek(f, 0, SEEK_SET) != 0) return Fault{path.string(), "cannot determine the file size"};
    auto bytes = std::make_shared<std::vector<std::byte>>(static_cast<std::size_t>(size));
    if (size > 0 && std::fread(bytes->data(), 1, bytes->size(), f) != bytes->size()) {
        return Fault{path.string(), "read failed"};
    }
    return std::shared_ptr<const std::vector<std::byte>>(std::move(bytes));
}

}  // namespace kinema
