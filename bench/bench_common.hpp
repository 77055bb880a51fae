// Helpers shared by the kinema_bench programs: where the sample models are, and
// models loaded once per process for the benchmarks that play them.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "kinema/asset/model.hpp"
#include "kinema/io/gltf.hpp"

#ifndef KINEMA_BENCH_DEFAULT_ASSETS
#define KINEMA_BENCH_DEFAULT_ASSETS "../shared/assets/gltf"
#endif

namespace kinema::bench {

// The folder holding one sub-folder per sample model: $KINEMA_ASSETS when set and
// non-empty, else the folder configured at build time.
inline std::filesystem::path assetsDir() {
    const char* env = std::getenv("KINEMA_ASSETS");
    if (env != nullptr && *env != '\0') return std::filesystem::path(env);
    return std::filesystem::path(KINEMA_BENCH_DEFAULT_ASSETS);
}

// The model file of a model folder: <folder>/<name>.glb, else <name>.gltf, else the
// first .glb/.gltf in name order; nullopt when the folder holds none.
inline std::optional<std::filesystem::path> findModelFile(const std::filesystem::path& folder) {
    const std::string name = folder.filename().string();
    for (const char* ext : {".glb", ".gltf"}) {
        std::filesystem::path p = folder / (name + ext);
        std::error_code ec;
        if (std::filesystem::is_regular_file(p, ec)) return p;
    }
    std::optional<std::filesystem::path> best;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
        const auto ext = entry.path().extension();
        if (entry.is_regular_file(ec) && (ext == ".glb" || ext == ".gltf") && (!best || entry.path() < *best)) {
            best = entry.path();
        }
    }
    return best;
}

// What a benchmark says when it skips for lack of a model.
inline std::string missingModelMessage(std::string_view model) {
    return "sample model '" + std::string(model) + "' not found under " + (assetsDir() / model).string() +
        " (set KINEMA_ASSETS to the shared glTF assets folder)";
}

// The named sample model, imported once per process; nullptr with `error` set when
// it is missing or does not import.
inline const Model* sharedModel(const std::string& name, std::string& error) {
    static std::map<std::string, Model> cache;
    if (auto it = cache.find(name); it != cache.end()) return &it->second;
    const auto file = findModelFile(assetsDir() / name);
    if (!file) {
        error = missingModelMessage(name);
        return nullptr;
    }
    auto model = importGltfFile(*file);
    if (!model) {
        error = "importing " + file->string() + " failed: " + model.message();
        return nullptr;
    }
    return &cache.emplace(name, std::move(*model)).first->second;
}

// Registers the import benchmarks (one per model folder found at run time, plus
// the reference models even when missing, so their absence shows). Defined in
// import_bench.cpp, called from main before the benchmarks run.
void registerImportBenchmarks();

}  // namespace kinema::bench
