#include "kinema/io/model_file.hpp"

#include "kinema/io/cooked.hpp"

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
    const bool cooked = looksCooked(*bytes);
    if (format != nullptr) *format = cooked ? ModelFileFormat::Cooked : ModelFileFormat::Gltf;
    if (cooked) return readCookedModel(*bytes, name);
    return importGltf(GltfSource{std::move(bytes), path.parent_path(), name}, options);
}

}  // namespace kinema
