#include "import_flags.hpp"

#include "arguments.hpp"

#include <CLI/CLI.hpp>

#include <limits>
#include <ostream>

namespace kinema::cli {

namespace {

// A count with an optional binary unit (512M, 2G). Sizes past 2^62 are refused rather
// than read as "no limit" (a negative number would otherwise wrap around to one).
void addSizeOption(CLI::App& command, const std::string& name, std::uint64_t& value, const std::string& help,
                   const std::string& unit) {
    constexpr std::uint64_t kLargest = std::uint64_t{1} << 62;
    command.add_option(name, value, help)->transform(sizeIn(1, kLargest, unit))->type_name("SIZE");
}

}  // namespace

void addImportFlags(CLI::App& command, ImportFlags& flags, ImageLimit images) {
    command.add_flag("--lenient", flags.lenient,
                     "accept the recoverable specification errors (rotations, normals and skin weights that are "
                     "not normalised, missing or wrong accessor min/max), repairing each with a warning");
    command.add_flag("--allow-external-paths", flags.allowExternalPaths,
                     "let buffer and image URIs reach files outside the file's folder (absolute paths, '..', "
                     "symbolic links); off by default, for files from untrusted sources");
    command
        .add_option("--allow-folder", flags.allowedFolders,
                    "a folder outside the file's own that its URIs may reach (repeatable)")
        ->type_name("DIR")
        ->check(existingFolder());
    addSizeOption(command, "--memory-budget", flags.memoryBudget,
                  "bytes one import may hold: the file, the parsed JSON, buffers, decoded data and images; a whole "
                  "number with an optional unit, e.g. 512M or 2G (powers of 1024; default 1G)",
                  "bytes");
    if (images == ImageLimit::Offered) {
        addSizeOption(command, "--max-image-pixels", flags.maxImagePixels,
                      "width x height allowed for one image, read from its header before decoding; a whole number "
                      "with an optional unit, e.g. 16M (default 64M = 67108864)",
                      "pixels");
    }
}

ImportOptions toImportOptions(const ImportFlags& flags) {
    ImportOptions options;
    options.conformance = flags.lenient ? Conformance::Lenient : Conformance::Strict;
    options.allowExternalPaths = flags.allowExternalPaths;
    options.allowedFolders.assign(flags.allowedFolders.begin(), flags.allowedFolders.end());
    options.memoryBudget =
        static_cast<std::size_t>(std::min<std::uint64_t>(flags.memoryBudget, std::numeric_limits<std::size_t>::max()));
    options.maxImagePixels = flags.maxImagePixels;
    return options;
}

void printWarnings(std::ostream& out, std::span<const Fault> warnings) {
    for (const Fault& w : warnings) out << "warning: " << describe(w) << '\n';
}

}  // namespace kinema::cli
