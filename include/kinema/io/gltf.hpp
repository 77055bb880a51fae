// kinema/io: glTF 2.0 import (.gltf with external or data: buffers, and .glb),
// fail-closed. Any fault rejects the whole file; every fault found is returned,
// each located by JSON pointer ("file.gltf#/accessors/3/count") or byte offset
// ("file.glb@byte 20"). Every accessor the model needs is decoded once, bounds-
// checked, during import; nothing later reads the file's buffers unchecked.
// Input is untrusted by default: URIs stay inside the file's folder, only regular
// files are read, and everything one import holds fits a memory budget
// (ImportOptions). Images are decoded only on request (image.hpp) or with
// ImportOptions::decodeImages: that costs far more than the animation data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/core/result.hpp"

namespace kinema {

// How strictly import holds a file to the glTF 2.0 specification.
enum class Conformance : std::uint8_t {
    // Every error the specification names is a fault, with the Khronos glTF-Validator's
    // thresholds (unit length of rotations and normals within 0.00769 and 0.00674, skin
    // weights summing to 1 within 2e-7 per non-zero weight, exact accessor min/max).
    Strict,
    // The recoverable errors are repaired and each repair is reported as a warning:
    // rotations, normals and skin weights renormalised, missing or wrong accessor
    // min/max replaced by the data's own bounds. Everything else is still a fault.
    Lenient,
};

// A request for the bytes behind a buffer or image URI (any URI but a data: URI).
struct ResourceRequest {
    std::string_view uri;  // as written in the file
    // The URI as a path: percent-decoded, '.' segments dropped, '..' applied. Relative
    // and inside the file's folder unless ImportOptions allows otherwise.
    std::string_view path;
    // For a buffer, its byteLength: only that many bytes are used, and they are charged
    // to the memory budget before the request is made. For an image, what is left of
    // the budget: more is a fault.
    std::size_t bytesWanted = 0;
};

// The bytes of a resource, or a fault whose `what` says why not (import fills in `where`).
// Bytes may be shared with the engine's own cache; import keeps the pointer, never copies.
using ResourceBytes = std::shared_ptr<const std::vector<std::byte>>;
using ResourceResolver = std::function<Result<ResourceBytes>(const ResourceRequest&)>;

struct ImportOptions {
    // Read buffers and images named by URIs other than data: URIs. Off: such a
    // resource is a fault (untrusted input that must not touch any storage).
    bool allowExternalFiles = true;
    // Where such URIs may lead. By default only to regular files inside the folder
    // of the file being imported: absolute paths, '..' that climbs out, and symbolic
    // links that point out are faults, so a downloaded file cannot read the rest of
    // the machine. allowedFolders lists other folders a URI may reach (a shared
    // texture folder); allowExternalPaths lets it reach anywhere.
    std::vector<std::filesystem::path> allowedFolders;
    bool allowExternalPaths = false;
    // When set, every such URI that passes the checks above is handed to the
    // resolver (virtual file system, archive, network cache) instead of the file system.
    ResourceResolver resolver;
    // Every byte one import may hold for the file's data: the file itself, buffers,
    // decoded accessors and (with decodeImages) decoded images; checked before each
    // allocation, so a hostile size is a fault that prints the numbers, not an
    // exhausted machine.
    std::size_t memoryBudget = std::size_t{1} << 30;
    // Width x height of one image, read from its header before decoding.
    std::uint64_t maxImagePixels = std::uint64_t{64} << 20;
    // Decode every image to RGBA8 during import (Model::decodedImages). Off (the
    // default): images are only located, and decoded on request by decodeImage.
    bool decodeImages = false;
    // Decode what only drawing needs: NORMAL, TEXCOORD_0 and indices. Off: those
    // accessors are still range-checked but left empty in the Model (an animation-
    // only import: poses, palettes, skinned and morphed positions all still work).
    bool decodeRenderAttributes = true;
    Conformance conformance = Conformance::Strict;
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

// Whether an import's faults say it stopped because ImportOptions::memoryBudget ran
// out, not because the file breaks a rule: within that budget the file is neither
// valid nor invalid (`kinema validate` says it cannot check it).
bool outOfMemoryBudget(std::span<const Fault> faults) noexcept;

// Reads a whole regular file of at most `maxBytes` bytes. A FIFO, a device or a
// folder is refused without blocking; the fault names the path and the reason (an
// empty path: "path: is empty: no file to read").
Result<std::shared_ptr<const std::vector<std::byte>>> readFileBytes(const std::filesystem::path& path,
                                                                    std::size_t maxBytes = SIZE_MAX);

}  // namespace kinema
