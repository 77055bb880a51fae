// libFuzzer target: arbitrary bytes as the JSON file of user curves.
//
// Beyond "no crash, no sanitizer report", each run checks the reader's contract: a
// rejection carries faults located in the input and leaves the model unchanged; an
// accepted file gives the named clip curves whose samples are finite everywhere.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "kinema/io/curve_json.hpp"

namespace {

[[noreturn]] void contractBroken(const char* what, const std::string& detail) {
    std::fprintf(stderr, "kinema curve fuzz: %s: %s\n", what, detail.c_str());
    std::abort();
}

kinema::Model makeModel() {
    kinema::Model m;
    auto skeleton = kinema::Skeleton::create({{"root", kinema::kNoParent, {}}});
    if (!skeleton) contractBroken("fixture skeleton", skeleton.message());
    m.skeleton = std::move(*skeleton);
    kinema::Track t;
    t.times = {0.0f, 1.0f};
    t.values = {0, 0, 0, 1, 0, 0};
    for (const char* name : {"Walk", "Run"}) {
        auto clip = kinema::Clip::create(name, {t});
        if (!clip) contractBroken("fixture clip", clip.message());
        m.clips.push_back(std::move(*clip));
    }
    return m;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    kinema::Model model = makeModel();
    const auto applied = kinema::applyCurveJson(text, model, "fuzz.json");
    if (!applied) {
        for (const kinema::Fault& f : applied.faults()) {
            if (f.where.rfind("fuzz.json#", 0) != 0 && f.where.rfind("fuzz.json@byte ", 0) != 0) {
                contractBroken("fault not located in the input", f.where);
            }
        }
        for (const kinema::Clip& c : model.clips) {
            if (!c.curves().empty()) contractBroken("a refused file changed the model", std::string(c.name()));
        }
        return 0;
    }
    for (const kinema::Clip& c : model.clips) {
        for (const kinema::CurveTrack& curve : c.curves()) {
            if (curve.name.empty() || curve.times.empty()) contractBroken("an empty curve accepted", curve.name);
            for (const double t : {-1.0, 0.0, 0.37, 1.0, 1e6, static_cast<double>(curve.times.back())}) {
                if (!std::isfinite(kinema::sampleCurve(curve, t))) contractBroken("a non-finite sample", curve.name);
            }
        }
        if (!(c.duration() >= 1.0f) || !std::isfinite(c.duration())) {
            contractBroken("a clip duration off its keys", std::string(c.name()));
        }
    }
    return 0;
}
