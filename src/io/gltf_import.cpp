// glTF 2.0 import. One pass per top-level array in dependency order (buffers,
// views, accessors, nodes, materials, cameras, meshes, skins, animations); each
// pass records every fault it finds and carries on where that is safe, so
// `kinema validate` can list them all; a model is returned only when no fault was found. The passes live in
// one source file per job (gltf_importer.hpp lists them); this one runs them and
// holds the public API.
#include "gltf_importer.hpp"

#include <algorithm>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace kinema {
namespace gltf_import {

Result<Model> Importer::run() {
    if (!src_.bytes) return Fault{src_.name, "no bytes to import"};
    try {
        return runChecked();
    } catch (const std::bad_alloc&) {
        // The budget is checked before each large allocation; what is left is
        // the machine running out first. A fault, never an exception out of import.
        Result<Model> failed(Fault{
            src_.name,
            "out of memory while importing (" + std::to_string(usedBytes_) + " bytes of the memory budget in use)"});
        failed.addWarnings(warnings_);
        return failed;
    }
}

Result<Model> Importer::runChecked() {
    model_.source = src_.name;
    if (!charge(src_.bytes->size(), "", "the file")) return finish();
    if (!parseContainer()) return finish();
    // A pass that ran out of budget stops the import: later passes index the
    // tables it could not build.
    for (void (Importer::*pass)() : {&Importer::readAsset, &Importer::readBuffers, &Importer::readViews,
                                     &Importer::readAccessors, &Importer::readNodes}) {
        (this->*pass)();
        if (stopped_) return finish();
    }
    if (nodesOk_) buildSkeleton();
    for (void (Importer::*pass)() :
         {&Importer::readImagesTexturesMaterials, &Importer::readCameras, &Importer::readMeshes}) {
        (this->*pass)();
        if (stopped_) return finish();
    }
    if (skeletonOk_) {
        for (void (Importer::*pass)() :
             {&Importer::readSkins, &Importer::bindNodes, &Importer::readScenes, &Importer::readAnimations}) {
            (this->*pass)();
            if (stopped_) return finish();
        }
    }
    if (opt_.decodeImages && faults_.empty()) decodeImages();
    return finish();
}

Result<Model> Importer::finish() {
    Result<Model> result = faults_.empty() ? Result<Model>(std::move(model_)) : Result<Model>(std::move(faults_));
    result.addWarnings(warnings_);
    return result;
}

}  // namespace gltf_import

namespace {

std::string fileName(const std::filesystem::path& path) { return path.filename().string(); }

}  // namespace

struct GltfImporter::Parser {
    simdjson::dom::parser parser;
};

GltfImporter::GltfImporter() : parser_(std::make_unique<Parser>()) {}
GltfImporter::~GltfImporter() = default;
GltfImporter::GltfImporter(GltfImporter&&) noexcept = default;
GltfImporter& GltfImporter::operator=(GltfImporter&&) noexcept = default;

Result<Model> GltfImporter::import(const GltfSource& source, const ImportOptions& options) {
    gltf_import::Importer importer(parser_->parser, source, options);
    return importer.run();
}

Result<Model> GltfImporter::importFile(const std::filesystem::path& path, const ImportOptions& options) {
    // The file is the first thing charged to the budget: one larger is not read at all.
    auto bytes = readFileBytes(path, options.memoryBudget);
    if (!bytes) return std::vector<Fault>(bytes.faults().begin(), bytes.faults().end());
    GltfSource source{std::move(*bytes), path.parent_path(), fileName(path)};
    return import(source, options);
}

Result<Model> importGltf(const GltfSource& source, const ImportOptions& options) {
    GltfImporter importer;
    return importer.import(source, options);
}

Result<Model> importGltfFile(const std::filesystem::path& path, const ImportOptions& options) {
    GltfImporter importer;
    return importer.importFile(path, options);
}

bool outOfMemoryBudget(std::span<const Fault> faults) noexcept {
    return std::any_of(faults.begin(), faults.end(),
                       [](const Fault& f) { return f.what.find(gltf_import::kBudgetWords) != std::string::npos; });
}

}  // namespace kinema
