#include "kinema/io/model_file.hpp"

#include "kinema/io/cooked.hpp"

#include <string>

namespace kinema {

Result<Model> loadModelFile(const std::filesystem::path& path, const ImportOptions& options, ModelFileFormat* format) {
    if (format != nullptr) *format = ModelFileFormat::Gltf;
    auto bytes = readFileBytes(path, options.memoryBudget);
    if (!bytes) return std::vector<Fault>(bytes.faults().begin(), bytes.faults().end());
    return loadModelBytes(std::move(*bytes), path, options, format);
}

Result<Model> loadModelBytes(std::shared_ptr<const std::vector<std::byte>> bytes, const std::filesystem::path& path,
                             const ImportOptions& options, ModelFileFormat* format) {
    const std::string name = path.filename().string();
    // A ".kinc" file is read as cooked whatever it starts with, so that a damaged one
    // is told its magic is wrong, not given a JSON syntax error.
    std::string extension = path.extension().string();
    for (char& c : extension) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    const bool cooked = looksCooked(*bytes) || extension == ".kinc";
    if (format != nullptr) *format = cooked ? ModelFileFormat::Cooked : ModelFileFormat::Gltf;
    if (cooked) return readCookedModel(*bytes, name);
    return importGltf(GltfSource{std::move(bytes), path.parent_path(), name}, options);
}

}  // namespace kinema
