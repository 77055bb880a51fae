// libFuzzer target: arbitrary bytes into the glTF importer. One call covers both
// containers, since a GLB is recognised by its magic and anything else is read
// as .gltf JSON. Untrusted-input settings: no file system access, and memory and
// pixel budgets small enough that a hostile declared size is a fault, not an OOM;
// embedded images are decoded, so the PNG and JPEG decoders are fuzzed through import.
//
// Beyond "no crash, no sanitizer report", each run checks the importer's
// contract: a rejection carries faults located in this file; an accepted model
// is internally consistent (findModelFaults) and its clips can be sampled.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/runtime/sample.hpp"

namespace {

[[noreturn]] void contractBroken(const char* what, const std::string& detail) {
    std::fprintf(stderr, "kinema fuzz: %s: %s\n", what, detail.c_str());
    std::abort();
}

void exercise(const kinema::Model& model) {
    const auto modelFaults = kinema::findModelFaults(model);
    if (!modelFaults.empty()) contractBroken("accepted model is inconsistent", kinema::describe(modelFaults));
    for (const kinema::Clip& clip : model.clips) {
        std::vector<kinema::Transform> local(model.skeleton.restPose().begin(), model.skeleton.restPose().end());
        std::vector<float> weights(model.restWeights);
        kinema::SamplingCursor cursor(clip);
        const float d = clip.duration();
        for (const float t : {-1.0f, 0.0f, d * 0.37f, d * 0.5f, d, d + 1.0f}) {
            if (!kinema::reference::sample(clip, t, cursor, local, weights)) {
                contractBroken("reference::sample refused an accepted clip", std::string(clip.name()));
            }
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto bytes = std::make_shared<std::vector<std::byte>>(size);
    if (size > 0) std::memcpy(bytes->data(), data, size);
    const kinema::GltfSource source{std::move(bytes), {}, "fuzz"};
    // Three imports: strict and full with images decoded (within small pixel and byte
    // budgets), strict and animation-only, lenient and full.
    struct Mode {
        bool render;
        bool images;
        kinema::Conformance conformance;
    };
    constexpr Mode kModes[] = {{true, true, kinema::Conformance::Strict},
                               {false, false, kinema::Conformance::Strict},
                               {true, false, kinema::Conformance::Lenient}};
    bool accepted[3] = {false, false, false};
    for (std::size_t m = 0; m < 3; ++m) {
        kinema::ImportOptions options;
        options.allowExternalFiles = false;
        options.memoryBudget = std::size_t{64} << 20;
        options.maxImagePixels = std::uint64_t{1} << 20;
        options.decodeRenderAttributes = kModes[m].render;
        options.decodeImages = kModes[m].images;
        options.conformance = kModes[m].conformance;
        const auto result = kinema::importGltf(source, options);
        accepted[m] = result.ok();
        for (const kinema::Fault& w : result.warnings()) {
            if (w.where.rfind("fuzz", 0) != 0 || w.what.empty())
                contractBroken("badly located warning", kinema::describe(w));
        }
        if (result.ok()) {
            if (kModes[m].images && result->decodedImages.size() != result->images.size()) {
                contractBroken("images accepted but not all decoded", "");
            }
            exercise(result.value());
            continue;
        }
        if (result.faults().empty()) contractBroken("rejected without a fault", "");
        for (const kinema::Fault& f : result.faults()) {
            if (f.where.rfind("fuzz", 0) != 0 || f.what.empty()) {
                contractBroken("badly located fault", kinema::describe(f));
            }
        }
    }
    // Skipping the render attributes' values must not change what is valid... except
    // that the byte budget is smaller without them, so only "full accepted" is binding.
    if (accepted[0] && !accepted[1]) contractBroken("accepted in full but rejected animation-only", "");
    // Lenient accepts everything strict accepts (images aside: the lenient run decodes none).
    if (accepted[0] && !accepted[2]) contractBroken("accepted strictly but rejected leniently", "");
    return 0;
}
