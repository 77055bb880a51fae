// libFuzzer target: arbitrary bytes as the JSON form of a state machine, and as a
// marker file (the other JSON format of kinema, read by the same reader).
//
// Beyond "no crash, no sanitizer report", each run checks the reader's contract: a
// rejection carries located faults; an accepted description writes back to text
// that reads as the same description; a description whose names resolve runs
// (updates with changing parameters and triggers, force state) and keeps its
// outputs in range: sample weights sum to 1, events name real markers.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "kinema/io/marker_json.hpp"
#include "kinema/io/state_machine_json.hpp"

namespace {

[[noreturn]] void contractBroken(const char* what, const std::string& detail) {
    std::fprintf(stderr, "kinema state machine fuzz: %s: %s\n", what, detail.c_str());
    std::abort();
}

kinema::Clip makeClip(const char* name, float seconds, bool markers) {
    kinema::Track t;
    t.path = kinema::TrackPath::Translation;
    t.times = {0.0f, seconds};
    t.values = {0, 0, 0, 1, 0, 0};
    std::vector<kinema::Marker> m;
    if (markers) m = {{"footL", 0.1f * seconds}, {"footR", 0.6f * seconds}};
    auto clip = kinema::Clip::create(name, {t}, m);
    if (!clip) contractBroken("fixture clip", clip.message());
    return std::move(*clip);
}

const kinema::Clip& clipA() {
    static const kinema::Clip c = makeClip("a", 1.0f, true);
    return c;
}
const kinema::Clip& clipB() {
    static const kinema::Clip c = makeClip("b", 0.6f, true);
    return c;
}
const kinema::Clip& clipC() {
    static const kinema::Clip c = makeClip("c", 2.0f, false);
    return c;
}

const kinema::Clip* lookup(std::string_view name) {
    if (name == "a") return &clipA();
    if (name == "b") return &clipB();
    if (name == "c") return &clipC();
    return nullptr;
}

void run(const kinema::StateMachineDefinition& def, const std::uint8_t* data, std::size_t size) {
    kinema::StateMachine sm(def);
    for (std::size_t i = 0; i < 64; ++i) {
        const std::uint8_t b = size > 0 ? data[i % size] : 0;
        if (def.parameterCount() > 0) {
            const auto p = static_cast<std::uint32_t>(b % def.parameterCount());
            (void)sm.setFloat(p, static_cast<float>(b) / 16.0f - 4.0f);
            (void)sm.setBool(p, (b & 1) != 0);
            if ((b & 6) == 6) (void)sm.setTrigger(p);
        }
        if (b == 0xff) (void)sm.forceState(static_cast<std::uint32_t>(i % def.stateCount()));
        const kinema::Status status = sm.update(static_cast<double>(b % 17) / 60.0);
        if (!status) contractBroken("update refused a valid elapsed time", status.message());
        float sum = 0.0f;
        for (const kinema::MotionSample& s : sm.samples()) {
            if (!(s.weight > 0.0f) || !std::isfinite(s.time))
                contractBroken("bad sample", def.desc().states[s.state].name);
            sum += s.weight;
        }
        if (!sm.samples().empty() && std::fabs(sum - 1.0f) > 1e-4f)
            contractBroken("weights do not sum to 1", sm.describe());
        for (const kinema::MotionEvent& e : sm.events()) {
            if (e.clip == nullptr || e.marker >= e.clip->markers().size()) contractBroken("bad event", sm.describe());
        }
    }
    (void)sm.describe();
}

}  // namespace

// A marker file: located faults, or markers that apply to a model holding the
// clips the file names (each finite, >= 0, with a name).
void markers(std::string_view text) {
    auto parsed = kinema::parseMarkerJson(text, "fuzz.json");
    if (!parsed) {
        for (const kinema::Fault& f : parsed.faults()) {
            if (f.where.rfind("fuzz.json#", 0) != 0 && f.where.rfind("fuzz.json@byte ", 0) != 0) {
                contractBroken("marker fault not located in the input", f.where);
            }
        }
        return;
    }
    kinema::Model model;
    for (const kinema::ClipMarkers& c : *parsed) {
        for (const kinema::Marker& m : c.markers) {
            if (m.name.empty() || !std::isfinite(m.time) || m.time < 0.0f)
                contractBroken("bad marker accepted", m.name);
        }
        model.clips.push_back(makeClip("a", 1.0f, false));
    }
    // Names other than "a" are faults; a file naming only "a" applies.
    (void)kinema::applyMarkerJson(text, model, "fuzz.json");
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    markers(text);
    auto desc = kinema::parseStateMachineJson(text, "fuzz.json");
    if (!desc) {
        for (const kinema::Fault& f : desc.faults()) {
            // A JSON pointer, or for a syntax error the byte (line, column).
            if (f.where.rfind("fuzz.json#", 0) != 0 && f.where.rfind("fuzz.json@byte ", 0) != 0) {
                contractBroken("fault not located in the input", f.where);
            }
        }
        return 0;
    }
    const std::string written = kinema::toJson(*desc);
    auto again = kinema::parseStateMachineJson(written, "written");
    if (!again) contractBroken("written JSON does not read", again.message() + "\n" + written);
    if (!(*again == *desc)) contractBroken("round trip changed the description", written);
    auto def = kinema::StateMachineDefinition::create(std::move(*desc), lookup);
    if (def) run(*def, data, size);
    return 0;
}
