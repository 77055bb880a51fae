// The import options every command that reads a glTF file shares: how strict, where
// URIs may lead, how much memory one file may take.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include "kinema/core/result.hpp"
#include "kinema/io/gltf.hpp"

namespace CLI {
class App;
}

namespace kinema::cli {

struct ImportFlags {
    bool lenient = false;
    bool allowExternalPaths = false;
    std::vector<std::string> allowedFolders;
    std::uint64_t memoryBudget = std::uint64_t{1} << 30;
    std::uint64_t maxImagePixels = std::uint64_t{64} << 20;
};

// Whether a command decodes images, and so takes --max-image-pixels (a command that
// does not would accept the limit and never apply it).
enum class ImageLimit { Offered, NotOffered };

// Adds --lenient, --allow-external-paths, --allow-folder, --memory-budget and, where
// offered, --max-image-pixels to a command.
void addImportFlags(CLI::App& command, ImportFlags& flags, ImageLimit images);

ImportOptions toImportOptions(const ImportFlags& flags);

// "warning: <where>: <what>" per line.
void printWarnings(std::ostream& out, std::span<const Fault> warnings);

}  // namespace kinema::cli
