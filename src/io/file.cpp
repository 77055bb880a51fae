#include <memory>
#include <new>

#include "kinema/io/gltf.hpp"
#include "resource.hpp"

namespace kinema {

// POSIX calls rather than stdio: open, fstat, read, close are the whole cost, where
// stdio adds two seeks and a buffer per file. The open does not block (a FIFO named
// by mistake or malice is refused by the regular-file check instead of hanging).
Result<std::shared_ptr<const std::vector<std::byte>>> readFileBytes(const std::filesystem::path& path,
                                                                    std::size_t maxBytes) {
    if (path.empty()) return Fault{"path", "is empty: no file to read"};
    std::string error;
    const gltf::OpenFile file = gltf::openRegularFile(path, error, false);  // the fault's location is the path
    if (!file.isOpen()) return Fault{path.string(), error};
    if (file.size() > maxBytes) {
        return Fault{path.string(),
                     "the file has " + std::to_string(file.size()) + " bytes, more than the memory budget of " +
                         std::to_string(maxBytes) + " bytes"};
    }
    try {
        auto bytes = std::make_shared<std::vector<std::byte>>(file.readPrefix(file.size(), error));
        if (!error.empty()) return Fault{path.string(), error};
        return std::shared_ptr<const std::vector<std::byte>>(std::move(bytes));
    } catch (const std::bad_alloc&) {
        return Fault{path.string(), "out of memory reading " + std::to_string(file.size()) + " bytes"};
    }
}

}  // namespace kinema
