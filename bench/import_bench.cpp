// Import time of every shared sample model, from bytes already in memory.
//
// The model file is read once with readFileBytes outside the timed loop; the loop
// times GltfImporter::import (parse, validate, decode every accessor, build the
// Model) and the destruction of the returned Model. External buffers of .gltf
// models (.bin files) are read from disk by the importer inside the loop, as a
// real import does; images are never decoded by import.
//
//   Import/<model>                one GltfImporter reused for every iteration (keeps
//                                 its JSON parser's memory, the intended use)
//   ImportFreshImporter/<model>   importGltf(): a new importer per iteration
//   ImportAnimationPath/<model>   reused importer, decodeRenderAttributes = false:
//                                 NORMAL, TEXCOORD_0 and indices range-checked but
//                                 not decoded. This is the workload of the fastgltf
//                                 reference figures (parse + node transforms, inverse
//                                 bind matrices, sampler inputs/outputs, POSITION,
//                                 JOINTS_0, WEIGHTS_0 decoded), validation included.
#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "kinema/io/gltf.hpp"

namespace kinema::bench {

namespace {

// Models with published reference figures (fastgltf on this machine class); they
// are registered even when missing so a broken assets folder is visible.
constexpr const char* kReferenceModels[] = {"CesiumMan", "RiggedFigure", "InterpolationTest", "RiggedSimple"};

// Minor page faults of this process so far. Memory handed back to the OS at the end
// of one import and touched again by the next shows up here, not in instruction
// counts; "faults" per import is reported beside the time.
long minorFaults() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

void reportFaults(benchmark::State& state, long faultsBefore) {
    state.counters["faults"] =
        benchmark::Counter(static_cast<double>(minorFaults() - faultsBefore), benchmark::Counter::kAvgIterations);
}

// Reads the model's bytes and checks that it imports; on failure the benchmark is
// skipped with the reason and false is returned.
bool prepare(benchmark::State& state, const std::string& model, GltfSource& source) {
    const auto file = findModelFile(assetsDir() / model);
    if (!file) {
        state.SkipWithError(missingModelMessage(model).c_str());
        return false;
    }
    auto bytes = readFileBytes(*file);
    if (!bytes) {
        state.SkipWithError(bytes.message().c_str());
        return false;
    }
    source = GltfSource{std::move(*bytes), file->parent_path(), file->filename().string()};
    auto check = importGltf(source);
    if (!check) {
        const std::string message = "import of " + file->string() + " failed: " + check.message();
        state.SkipWithError(message.c_str());
        return false;
    }
    state.SetLabel(file->filename().string() + ", " + std::to_string(source.bytes->size() / 1024) + " KiB, " +
                   std::to_string(check->nodeCount()) + " nodes");
    return true;
}

void importReused(benchmark::State& state, const std::string& model) {
    GltfSource source;
    if (!prepare(state, model, source)) return;
    GltfImporter importer;
    const long faults = minorFaults();
    for (auto _ : state) {
        auto result = importer.import(source);
        benchmark::DoNotOptimize(result);
    }
    reportFaults(state, faults);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                            static_cast<std::int64_t>(source.bytes->size()));
}

void importAnimationPath(benchmark::State& state, const std::string& model) {
    GltfSource source;
    if (!prepare(state, model, source)) return;
    GltfImporter importer;
    ImportOptions options;
    options.decodeRenderAttributes = false;
    const long faults = minorFaults();
    for (auto _ : state) {
        auto result = importer.import(source, options);
        benchmark::DoNotOptimize(result);
    }
    reportFaults(state, faults);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                            static_cast<std::int64_t>(source.bytes->size()));
}

void importFresh(benchmark::State& state, const std::string& model) {
    GltfSource source;
    if (!prepare(state, model, source)) return;
    const long faults = minorFaults();
    for (auto _ : state) {
        auto result = importGltf(source);
        benchmark::DoNotOptimize(result);
    }
    reportFaults(state, faults);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                            static_cast<std::int64_t>(source.bytes->size()));
}

// Every sub-folder of the assets folder that holds a .glb or .gltf, plus the
// reference models, sorted and without duplicates.
std::vector<std::string> modelNames() {
    std::vector<std::string> names(std::begin(kReferenceModels), std::end(kReferenceModels));
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(assetsDir(), ec)) {
        if (entry.is_directory(ec) && findModelFile(entry.path())) names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

}  // namespace

void registerImportBenchmarks() {
    const auto names = modelNames();
    for (const auto& name : names) {
        benchmark::RegisterBenchmark(("Import/" + name).c_str(), importReused, name)->Unit(benchmark::kMicrosecond);
    }
    for (const auto& name : names) {
        benchmark::RegisterBenchmark(("ImportAnimationPath/" + name).c_str(), importAnimationPath, name)
            ->Unit(benchmark::kMicrosecond);
    }
    for (const auto& name : names) {
        benchmark::RegisterBenchmark(("ImportFreshImporter/" + name).c_str(), importFresh, name)
            ->Unit(benchmark::kMicrosecond);
    }
}

}  // namespace kinema::bench
