#include <iostream>

#include "commands.hpp"
#include "kinema/io/gltf.hpp"

namespace kinema::cli {

int runValidate(const ValidateOptions& options) {
    auto model = importGltfFile(options.file);
    if (!model) {
        std::cout << options.file << ": invalid, " << model.faults().size() << " fault"
                  << (model.faults().size() == 1 ? "" : "s") << '\n';
        for (const Fault& f : model.faults()) std::cout << "  " << describe(f) << '\n';
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
              << " animations, " << model->meshes.size() << " meshes, " << model->skins.size() << " skins)\n";
    return 0;
}

}  // namespace kinema::cli
