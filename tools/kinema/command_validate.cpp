#include <filesystem>
#include <iostream>

#include "arguments.hpp"
#include "commands.hpp"
#include "kinema/core/counted.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/io/model_file.hpp"

namespace kinema::cli {

// The verdict is one line on stdout; every fault and warning goes to stderr.
int runValidate(const ValidateOptions& options) {
    // A validator checks that every image decodes, within the image budgets.
    ImportOptions importOptions = toImportOptions(options.import);
    importOptions.decodeImages = true;
    // The file is read first, apart from the import, so that a file that cannot be
    // read (missing, a folder, a FIFO, over the memory budget) is not called invalid;
    // nor is one whose import runs out of the budget.
    const std::filesystem::path path(options.file);
    auto bytes = readFileBytes(path, importOptions.memoryBudget);
    if (!bytes) {
        for (const Fault& f : bytes.faults()) std::cerr << options.file << ": cannot read: " << f.what << '\n';
        return 1;
    }
    // A cooked file (known by its first bytes, as every command knows it) is checked
    // by its own reader, which validates as much as the import does.
    ModelFileFormat format = ModelFileFormat::Gltf;
    auto model = loadModelBytes(std::move(*bytes), path, importOptions, &format);
    const bool cooked = format == ModelFileFormat::Cooked;
    const auto warnings = model.warnings();
    const std::string warned = warnings.empty() ? "" : ", " + counted(warnings.size(), "warning");
    if (!model && outOfMemoryBudget(model.faults())) {
        // Neither valid nor invalid: the import could not hold the file within the budget.
        for (const Fault& f : model.faults()) {
            std::cerr << options.file << ": cannot check within --memory-budget: " << describe(f) << '\n';
        }
        return 1;
    }
    if (!model) {
        std::cout << options.file << ": invalid, " << counted(model.faults().size(), "fault") << warned << '\n';
        for (const Fault& f : model.faults()) std::cerr << "  " << describe(f) << '\n';
        for (const Fault& w : warnings) std::cerr << "  warning: " << describe(w) << '\n';
        return 1;
    }
    // Import guarantees these; checking again guards the guarantee itself.
    const auto faults = findModelFaults(*model);
    if (!faults.empty()) {
        std::cout << options.file << ": invalid, " << counted(faults.size(), "inconsistency", "inconsistencies")
                  << '\n';
        for (const Fault& f : faults) std::cerr << "  " << describe(f) << '\n';
        return 1;
    }
    std::cout << options.file << ": valid (" << (cooked ? "cooked, " : "") << counted(model->nodeCount(), "node")
              << ", " << counted(model->clips.size(), "animation") << ", " << counted(model->meshes.size(), "mesh")
              << ", " << counted(model->skins.size(), "skin") << ")" << warned << '\n';
    for (const Fault& w : warnings) std::cerr << "  warning: " << describe(w) << '\n';
    return 0;
}

}  // namespace kinema::cli
