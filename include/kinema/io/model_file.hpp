// kinema/io: a model from a file of either form kinema reads, a glTF file (.gltf or
// .glb) or a cooked file (io/cooked.hpp), told apart by the file's first bytes
// rather than its name; a file named .kinc is read as cooked whatever it starts
// with (a damaged one is told its magic is wrong). The file is read once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/core/result.hpp"
#include "kinema/io/gltf.hpp"

namespace kinema {

enum class ModelFileFormat : std::uint8_t { Gltf, Cooked };

// `options.memoryBudget` bounds the file's size either way; the other import
// options apply to glTF files only (a cooked file was validated when it was cooked
// and is validated again as it is read). Faults name the file by its file name.
// `format`, when given, gets the form the file's bytes have (also when it fails).
Result<Model> loadModelFile(const std::filesystem::path& path, const ImportOptions& options = {},
                            ModelFileFormat* format = nullptr);

// The same for a file already read (readFileBytes), for a caller that tells a file it
// cannot read from one that is invalid: `path` names it and locates its resources.
Result<Model> loadModelBytes(std::shared_ptr<const std::vector<std::byte>> bytes, const std::filesystem::path& path,
                             const ImportOptions& options = {}, ModelFileFormat* format = nullptr);

}  // namespace kinema
