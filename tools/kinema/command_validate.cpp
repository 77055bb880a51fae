#include <iostream>

#include "commands.hpp"
#include "kinema/io/gltf.hpp"

namespace kinema::cli {

int runValidate(const ValidateOptions& options) {
    // A validator checks that every image decodes, within the image budgets.
    ImportOptions importOptions = toImportOptions(options.import);
    importOptions.decodeImages = true;
    auto model = importGltfFile(options.file, importOptions);
    const auto warnings = model.warnings();
    const std::string warned =
        warnings.empty() ? "" : ", " + std::to_string(warnings.size()) + " warning" + (warnings.size() == 1 ? "" : "s");
    if (!model) {
        std::cout << options.file << ": invalid, " << model.faults().size() << " fault"
                  << (model.faults().size() == 1 ? "" : "s") << warned << '\n';
        for (const Fault& f : model.faults()) std::cout << "  " << describe(f) << '\n';
        for (const Fault& w : warnings) std::cout << "  warning: " << describe(w) << '\n';
        return 1;
    }
    // Import guarantees these; checking again guards the guarantee itself.
    const auto faults = findModelFaults(*model);
    if (!faults.empty()) {
        std::cout << options.file << ": invalid, " << faults.size() << " inconsistencies\n";
        for (const Fault& f : faults) std::cout << "  " << describe(f) << '\n';
        return 1;
    }
    std::cout << options.file << ": valid (" << model->nodeCount() << " nodes, " << model->clips.size()
              << " animations, " << model->meshes.size() << " meshes, " << model->skins.size() << " skins)" << warned
              << '\n';
    for (const Fault& w : warnings) std::cout << "  warning: " << describe(w) << '\n';
    return 0;
}

}  // namespace kinema::cli
