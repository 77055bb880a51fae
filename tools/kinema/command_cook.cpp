#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <set>
#include <span>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "arguments.hpp"
#include "commands.hpp"
#include "json_writer.hpp"
#include "kinema/core/counted.hpp"
#include "kinema/io/cooked.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/io/image_write.hpp"
#include "kinema/io/curve_json.hpp"
#include "kinema/io/marker_json.hpp"
#include "kinema/io/model_file.hpp"
#include "kinema/io/state_machine_json.hpp"
#include "kinema/play/state_machine.hpp"
#include "kinema/runtime/clip_compression.hpp"
#include "kinema/runtime/clip_error.hpp"
#include "progress_bar.hpp"

namespace kinema::cli {

namespace fs = std::filesystem;

Result<Model> loadModel(const std::string& file, const ImportFlags& flags, bool& cooked) {
    ModelFileFormat format = ModelFileFormat::Gltf;
    auto model = loadModelFile(file, toImportOptions(flags), &format);
    cooked = format == ModelFileFormat::Cooked;
    return model;
}

namespace {

constexpr double kRawRateHz = 30.0;
constexpr std::uint64_t kRawFloatsPerJoint = 10;  // translation 3, rotation 4, scale 3
constexpr std::uint64_t kTrackHeaderBytes = 24;

struct ClipRow {
    std::string clip;
    std::uint64_t rawBytes = 0;
    std::uint64_t bytes = 0;
    double maxErrorCm = 0.0;
    double p99ErrorCm = 0.0;
};

struct FileResult {
    std::vector<ClipRow> rows;
    std::vector<Fault> faults;
    std::vector<Fault> warnings;
};

// The clip as every distinct joint it animates sampled at 30 Hz, 10 floats a joint.
std::uint64_t rawBytes(const Clip& clip) {
    std::set<std::uint32_t> joints;
    for (const Track& t : clip.tracks()) joints.insert(t.target);
    const auto samples = static_cast<std::uint64_t>(std::ceil(double(clip.duration()) * kRawRateHz)) + 1;
    return joints.size() * samples * kRawFloatsPerJoint * sizeof(float);
}

// The clip's key data as the cooked file stores it: times and values, and each
// track's fixed header; names, markers and curves are not counted.
std::uint64_t cookedBytes(const Clip& clip) {
    std::uint64_t bytes = 0;
    for (const Track& t : clip.tracks())
        bytes += (t.times.size() + t.values.size()) * sizeof(float) + kTrackHeaderBytes;
    return bytes;
}

// A compressed clip as the cooked file stores it: the compressed joint tracks
// (CompressedClip::byteSize) and the morph weight tracks kept exact.
std::uint64_t compressedBytes(const CompressedClip& compressed, const Clip& clip) {
    std::uint64_t bytes = compressed.byteSize();
    for (const Track& t : clip.tracks()) {
        if (t.path == TrackPath::Weights)
            bytes += (t.times.size() + t.values.size()) * sizeof(float) + kTrackHeaderBytes;
    }
    return bytes;
}

bool hasGltfExtension(const fs::path& path) {
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext == ".gltf" || ext == ".glb";
}

// A JSON file applied to every input's clips by name (markers, curves): its text and
// its file name, which its faults name.
struct Sidecar {
    std::string json;
    std::string source;  // empty: none given
};

// What every input gets beside its own model: marker and curve files, and state machines.
struct Extras {
    Sidecar markers;
    Sidecar curves;
    std::vector<CookedStateMachine> stateMachines;
    std::vector<std::string> stateMachineSources;  // each machine's file name, for its faults
};

FileResult cookOne(const std::string& input, const fs::path& output, const ImportOptions& options,
                   const CookOptions& cook, const Extras& extras) {
    FileResult result;
    const fs::path path(input);
    auto bytes = readFileBytes(path, options.memoryBudget);
    if (!bytes) {
        result.faults.assign(bytes.faults().begin(), bytes.faults().end());
        return result;
    }
    // The hash is of the very bytes imported, so a file edited meanwhile cannot be
    // recorded as the source of a model it did not produce.
    const std::uint64_t hash = sourceHash(**bytes);
    // Images are decoded here, once, so that a cooked file draws without decoding.
    ImportOptions withImages = options;
    withImages.decodeImages = true;
    auto model = importGltf(GltfSource{std::move(*bytes), path.parent_path(), path.filename().string()}, withImages);
    result.warnings.assign(model.warnings().begin(), model.warnings().end());
    if (!model) {
        result.faults.assign(model.faults().begin(), model.faults().end());
        return result;
    }
    // A sidecar's faults are located in its file: each says which input it is about.
    const auto apply = [&](const Sidecar& sidecar, auto applyJson) {
        if (sidecar.source.empty()) return true;
        auto applied = applyJson(sidecar.json, *model, sidecar.source);
        if (!applied) {
            result.faults.assign(applied.faults().begin(), applied.faults().end());
            for (Fault& f : result.faults) f.what += " (applied to " + input + ")";
            return false;
        }
        result.warnings.insert(result.warnings.end(), applied.warnings().begin(), applied.warnings().end());
        return true;
    };
    if (!apply(extras.markers,
               [](std::string_view j, Model& m, std::string_view s) { return applyMarkerJson(j, m, s); }) ||
        !apply(extras.curves,
               [](std::string_view j, Model& m, std::string_view s) { return applyCurveJson(j, m, s); })) {
        return result;
    }
    // Each state machine against this input's clips, its faults located in its own
    // file (the cooked file's reader would check it too, but place them in the output).
    const ClipLookup lookup = clipsByName(model->clips);
    for (std::size_t m = 0; m < extras.stateMachines.size(); ++m) {
        auto checked = StateMachineDefinition::create(extras.stateMachines[m].desc, lookup);
        if (checked) continue;
        for (const Fault& f : checked.faults())
            result.faults.push_back(
                {extras.stateMachineSources[m] + "#" + f.where, f.what + " (applied to " + input + ")"});
    }
    if (!result.faults.empty()) return result;
    // glTF is in metres: the bound and the 3 cm points in model units are cm / 100.
    std::vector<CompressedClip> compressed;
    if (!cook.exact) {
        CompressionOptions compression;
        compression.maxError = static_cast<float>(cook.errorCm / 100.0);
        compression.segmentKeys = cook.segmentKeys;
        compression.maxStride = cook.maxStride;
        for (const Clip& clip : model->clips) {
            auto c = compressClip(model->skeleton, clip, compression);
            if (!c) {
                result.faults.assign(c.faults().begin(), c.faults().end());
                for (Fault& f : result.faults) f.where = input + "#clips/" + std::string(clip.name()) + "/" + f.where;
                return result;
            }
            compressed.push_back(std::move(c).value());
        }
    }
    const std::vector<std::byte> cooked = cookModel(CookedModel{*model, compressed, extras.stateMachines}, hash);
    // What a reader will get (the state machines checked against the clips),
    // measured against the source clips by virtual vertices, before the file is put
    // in place.
    auto readBack = readCookedModel(cooked, output.filename().string());
    if (!readBack) {
        result.faults.assign(readBack.faults().begin(), readBack.faults().end());
        return result;
    }
    std::vector<ClipRow> rows;
    for (std::size_t c = 0; c < model->clips.size(); ++c) {
        const Clip& clip = model->clips[c];
        auto error = measureClipError(model->skeleton, clip, readBack->clips[c]);
        if (!error) {
            result.faults.assign(error.faults().begin(), error.faults().end());
            return result;
        }
        const std::uint64_t clipBytes = compressed.empty() ? cookedBytes(clip) : compressedBytes(compressed[c], clip);
        rows.push_back({std::string(clip.name()), rawBytes(clip), clipBytes, 100.0 * double(error->max),
                        100.0 * double(error->p99)});
    }
    auto written = writeFileBytes(output, cooked);  // through a temporary file: no half-written output
    if (!written) {
        result.faults.assign(written.faults().begin(), written.faults().end());
        return result;
    }
    result.rows = std::move(rows);
    return result;
}

// A clip as the table names it: an unnamed clip by its index, so every row names its clip.
std::string clipLabel(const ClipRow& row, std::size_t index) {
    if (!row.clip.empty()) return row.clip;
    char label[32];
    std::snprintf(label, sizeof label, "#%zu", index);
    return label;
}

void printTable(const std::vector<std::string>& inputs, const std::vector<FileResult>& results) {
    // Columns as wide as their longest entry, so long paths keep the numbers aligned.
    int fileWidth = 4, clipWidth = 4;
    bool anyRow = false;
    for (std::size_t f = 0; f < inputs.size(); ++f) {
        if (results[f].rows.empty()) continue;
        anyRow = true;
        fileWidth = std::max(fileWidth, static_cast<int>(inputs[f].size()));
        for (std::size_t c = 0; c < results[f].rows.size(); ++c) {
            clipWidth = std::max(clipWidth, static_cast<int>(clipLabel(results[f].rows[c], c).size()));
        }
    }
    if (!anyRow) return;  // nothing cooked has clips: no table, only the summary line
    std::printf("%-*s  %-*s %12s %12s %8s %11s %11s\n", fileWidth, "file", clipWidth, "clip", "raw bytes",
                "cooked bytes", "ratio", "max err cm", "p99 err cm");
    for (std::size_t f = 0; f < inputs.size(); ++f) {
        for (std::size_t c = 0; c < results[f].rows.size(); ++c) {
            const ClipRow& row = results[f].rows[c];
            char ratio[32] = "-";
            if (row.bytes != 0) std::snprintf(ratio, sizeof ratio, "%.2f", double(row.rawBytes) / double(row.bytes));
            std::printf("%-*s  %-*s %12llu %12llu %8s %11.3f %11.3f\n", fileWidth, inputs[f].c_str(), clipWidth,
                        clipLabel(row, c).c_str(), static_cast<unsigned long long>(row.rawBytes),
                        static_cast<unsigned long long>(row.bytes), ratio, row.maxErrorCm, row.p99ErrorCm);
        }
    }
}

void printJson(const std::vector<std::string>& inputs, const std::vector<FileResult>& results) {
    std::string out;
    JsonWriter w(out, false);
    w.beginArray();
    for (std::size_t f = 0; f < inputs.size(); ++f) {
        for (const ClipRow& row : results[f].rows) {
            w.beginObject();
            w.key("file").value(inputs[f]);
            w.key("clip").value(row.clip);
            w.key("rawBytes").value(row.rawBytes);
            w.key("bytes").value(row.bytes);
            w.key("ratio");
            if (row.bytes == 0)
                w.null();
            else
                w.value(double(row.rawBytes) / double(row.bytes));
            w.key("maxErrorCm").value(row.maxErrorCm);
            w.key("p99ErrorCm").value(row.p99ErrorCm);
            w.endObject();
        }
    }
    w.endArray();
    std::cout << out << '\n';
}

}  // namespace

int runCook(const CookOptions& options) {
    const auto fail = [](const std::string& message) {
        std::cerr << "kinema cook: " << message << '\n';
        return usageFailure("cook");
    };
    // Every fault of an argument file on its own line, each with the command's prefix.
    // (The file's faults locate themselves: no pointer to the options after them.)
    const auto failAll = [](std::span<const Fault> faults) {
        for (const Fault& fault : faults) std::cerr << "kinema cook: " << describe(fault) << '\n';
        return 2;
    };
    // A file that cannot be read is an argument to change: the hint follows.
    const auto failRead = [&](std::span<const Fault> faults) {
        (void)failAll(faults);
        return usageFailure("cook");
    };
    if (options.out.empty()) return fail("--out: the output folder is empty");
    const fs::path folder(options.out);

    // Every argument is checked before any file is written.
    std::vector<fs::path> outputs;
    for (const std::string& input : options.inputs) {
        const fs::path path(input);
        if (!hasGltfExtension(path)) return fail(input + ": not a .gltf or .glb file");
        outputs.push_back(folder / path.stem().concat(".kinc"));
    }
    for (std::size_t a = 0; a < outputs.size(); ++a) {
        for (std::size_t b = a + 1; b < outputs.size(); ++b) {
            if (outputs[a] == outputs[b]) {
                return fail(options.inputs[a] + " and " + options.inputs[b] + " would both be cooked to " +
                            outputs[a].string());
            }
        }
    }
    // The marker and state-machine files, read and parsed once, before the folder is made.
    Extras extras;
    const auto readText = [](const std::string& file) -> Result<std::string> {
        auto bytes = readFileBytes(file, 64u << 20);
        if (!bytes) return std::vector<Fault>(bytes.faults().begin(), bytes.faults().end());
        return std::string(reinterpret_cast<const char*>((*bytes)->data()), (*bytes)->size());
    };
    // A sidecar read and checked by `parse`: 0, or the exit code of its refusal.
    const auto readSidecar = [&](const std::string& file, auto parse, Sidecar& out) {
        if (file.empty()) return 0;
        auto text = readText(file);
        if (!text) return failRead(text.faults());
        out.source = fs::path(file).filename().string();
        auto parsed = parse(*text, out.source);
        if (!parsed) return failAll(parsed.faults());
        out.json = std::move(*text);
        return 0;
    };
    if (const int refused = readSidecar(
            options.markers, [](std::string_view t, std::string_view s) { return parseMarkerJson(t, s); },
            extras.markers))
        return refused;
    if (const int refused = readSidecar(
            options.curves, [](std::string_view t, std::string_view s) { return parseCurveJson(t, s); }, extras.curves))
        return refused;
    for (const std::string& file : options.stateMachines) {
        auto text = readText(file);
        if (!text) return failRead(text.faults());
        auto desc = parseStateMachineJson(*text, fs::path(file).filename().string());
        if (!desc) return failAll(desc.faults());
        const std::string name = fs::path(file).stem().string();
        for (const CookedStateMachine& other : extras.stateMachines) {
            if (other.name == name) return fail("--state-machine: two state machines named '" + name + "'");
        }
        extras.stateMachines.push_back({name, std::move(*desc)});
        extras.stateMachineSources.push_back(fs::path(file).filename().string());
    }

    std::error_code error, ignored;
    if (fs::exists(folder, ignored) && !fs::is_directory(folder, ignored)) {
        return fail("--out: " + options.out + ": is not a folder");
    }
    fs::create_directories(folder, error);
    if (error || !fs::is_directory(folder, ignored)) {
        return fail("--out: " + options.out + ": cannot create the folder" +
                    (error ? ": " + error.message() : std::string()));
    }
    if (::access(folder.c_str(), W_OK) != 0) return fail("--out: " + options.out + ": the folder is not writable");
    // An output that already is one of the inputs (a link, or the same file by another
    // name) would be replaced by the cooked form of itself.
    for (const fs::path& output : outputs) {
        for (const std::string& input : options.inputs) {
            if (fs::equivalent(output, input, ignored)) return fail(output.string() + " is the input " + input);
        }
        if (fs::is_directory(output, ignored))
            return fail(output.string() + " is a folder: the cooked file cannot go there");
    }

    const ImportOptions importOptions = toImportOptions(options.import);
    const std::size_t jobs =
        options.jobs.value_or(static_cast<std::size_t>(std::max(1, tbb::info::default_concurrency())));
    std::vector<FileResult> results(options.inputs.size());
    ProgressBar progress("cooking", options.inputs.size());
    std::mutex progressMutex;
    std::size_t done = 0;
    tbb::task_arena arena(static_cast<int>(jobs));
    arena.execute([&] {
        // One file a task: files differ in size by orders of magnitude.
        tbb::parallel_for(
            tbb::blocked_range<std::size_t>(0, options.inputs.size(), 1),
            [&](const tbb::blocked_range<std::size_t>& range) {
                for (std::size_t i = range.begin(); i != range.end(); ++i) {
                    results[i] = cookOne(options.inputs[i], outputs[i], importOptions, options, extras);
                    const std::lock_guard lock(progressMutex);
                    progress.update(++done);
                }
            },
            tbb::simple_partitioner());
    });
    progress.finish();

    int exitCode = 0;
    for (const FileResult& result : results) {
        printWarnings(std::cerr, result.warnings);
        for (const Fault& fault : result.faults) std::cerr << "kinema cook: " << describe(fault) << '\n';
        if (!result.faults.empty()) exitCode = 1;
    }
    if (options.json) {
        printJson(options.inputs, results);
    } else {
        printTable(options.inputs, results);
        const auto cooked = static_cast<std::size_t>(
            std::count_if(results.begin(), results.end(), [](const FileResult& r) { return r.faults.empty(); }));
        std::printf("cooked %s of %zu into %s\n", counted(cooked, "file").c_str(), options.inputs.size(),
                    options.out.c_str());
    }
    return exitCode;
}

}  // namespace kinema::cli
