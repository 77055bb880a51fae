// kinema/io: glTF 2.0 import (.gltf with external or data: buffers, and .glb),
// fail-closed. Any fault rejects the whole file; every fault found is returned,
// each located by JSON pointer ("file.gltf#/accessors/3/count") or byte offset
// ("file.glb@byte 20"). Every accessor the model needs is decoded once, bounds-
// checked, during import; nothing later reads the file's buffers unchecked.
// Images are not decoded here (see image.hpp): that costs far more than the
// animation data and is only done on request.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/core/result.hpp"

namespace kinema {

struct ImportOptions {
    // Read buffers named by relative URIs from the file's folder. Off: such a
    // buffer is a fault (for untrusted input that must not touch the file system).
    bool allowExternalFiles = true;
    // Upper bound on the bytes of decoded data (floats, indices) one import may
    // allocate; a hostile file declaring huge accessors fails instead of exhausting memory.
    std::size_t maxDecodedBytes = std::size_t{1} << 30;
    // Decode what only drawing needs: NORMAL, TEXCOORD_0 and indices. Off: those
    // accessors are still range-checked but left empty in the Model (an animation-
    // only import: poses, palettes, skinned and morphed positions all still work).
    bool decodeRenderAttributes = true;
};

// The bytes of a .gltf or .glb file and where its relative URIs point.
struct GltfSource {
    std::shared_ptr<const std::vector<std::byte>> bytes;
    std::filesystem::path baseDir;  // folder for relative URIs
    std::string name;               // used in fault locations (usually the file name)
};

// Reusable importer: keeps its JSON parser's memory between imports. Not thread
// safe; use one per thread. Stateless between calls otherwise.
class GltfImporter {
public:
    GltfImporter();
    ~GltfImporter();
    GltfImporter(GltfImporter&&) noexcept;
    GltfImporter& operator=(GltfImporter&&) noexcept;

    Result<Model> import(const GltfSource& source, const ImportOptions& options = {});
    Result<Model> importFile(const std::filesystem::path& path, const ImportOptions& options = {});

private:
    struct Parser;
    std::unique_ptr<Parser> parser_;
};

// One-shot conveniences.
Result<Model> importGltf(const GltfSource& source, const ImportOptions& options = {});
Result<Model> importGltfFile(const std::filesystem::path& path, const ImportOptions& options = {});

// Reads a whole file. Fault names the path when it cannot be read.
Result<std::shared_ptr<const std::vector<std::byte>>> readFileBytes(const std::filesystem::path& path);

}  // namespace kinema
