// libFuzzer target: arbitrary bytes as the JSON joint map of retargeting.
//
// Beyond "no crash, no sanitizer report", each run checks the reader's contract: a
// rejection carries faults located in the input; an accepted map has non-empty names,
// no source and no target twice; and retargeting a small clip with it either works
// (a clip for the target skeleton) or is refused with located faults.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <string_view>

#include "kinema/asset/retarget.hpp"
#include "kinema/io/joint_map_json.hpp"

namespace {

[[noreturn]] void contractBroken(const char* what, const std::string& detail) {
    std::fprintf(stderr, "kinema joint map fuzz: %s: %s\n", what, detail.c_str());
    std::abort();
}

kinema::Skeleton makeSkeleton(const char* prefix) {
    const std::string p(prefix);
    auto s = kinema::Skeleton::create({{p + "Hips", kinema::kNoParent, {{0, 1, 0}, {}, {1, 1, 1}}},
                                       {p + "Spine", 0, {{0, 0.2f, 0}, {}, {1, 1, 1}}},
                                       {p + "LeftUpLeg", 0, {{0.1f, 0, 0}, {}, {1, 1, 1}}},
                                       {p + "LeftLeg", 2, {{0, -0.45f, 0}, {}, {1, 1, 1}}}});
    if (!s) contractBroken("fixture skeleton", s.message());
    return std::move(*s);
}

const kinema::Skeleton& source() {
    static const kinema::Skeleton s = makeSkeleton("mixamorig:");
    return s;
}
const kinema::Skeleton& target() {
    static const kinema::Skeleton s = makeSkeleton("");
    return s;
}

const kinema::Clip& clip() {
    static const kinema::Clip c = [] {
        kinema::Track hips;
        hips.target = 0;
        hips.times = {0.0f, 1.0f};
        hips.values = {0, 1, 0, 0, 1, 1};
        kinema::Track leg;
        leg.target = 3;
        leg.path = kinema::TrackPath::Rotation;
        leg.width = 4;
        leg.times = {0.0f, 0.5f};
        leg.values = {0, 0, 0, 1, 0.5f, 0, 0, 0.8660254f};
        const auto names = source().names();
        auto made = kinema::Clip::create("walk", {hips, leg}, {},
                                         std::make_shared<const std::vector<std::string>>(names.begin(), names.end()));
        if (!made) contractBroken("fixture clip", made.message());
        return std::move(*made);
    }();
    return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto map = kinema::parseJointMapJson(text, "fuzz.json");
    if (!map) {
        for (const kinema::Fault& f : map.faults()) {
            // A JSON pointer, or for a syntax error the byte (line, column).
            if (f.where.rfind("fuzz.json#", 0) != 0 && f.where.rfind("fuzz.json@byte ", 0) != 0) {
                contractBroken("fault not located in the input", f.where);
            }
        }
        return 0;
    }
    if (map->joints.empty()) contractBroken("a map without joints accepted", std::string(text));
    std::set<std::string> sources, targets;
    for (const kinema::JointPair& p : map->joints) {
        if (p.source.empty() || p.target.empty()) contractBroken("an empty name accepted", std::string(text));
        if (!sources.insert(p.source).second) contractBroken("a source named twice", p.source);
        if (!targets.insert(p.target).second) contractBroken("a target named twice", p.target);
    }
    kinema::RetargetOptions options;
    options.map = std::move(*map);
    const auto report = kinema::checkRetarget(clip(), source(), target(), options.map);
    const auto out = kinema::retargetClip(clip(), source(), target(), options);
    if (out.ok()) {
        if (!report.ok()) contractBroken("checked faults but retargeted", report.message());
        if (out->skeletonFingerprint() != target().fingerprint()) contractBroken("not a clip for the target", "");
    } else {
        for (const kinema::Fault& f : out.faults()) {
            // The map as a whole ("map/joints"), or an entry at its place in the file.
            if (f.where.rfind("map/", 0) != 0 && f.where.rfind("fuzz.json#/", 0) != 0)
                contractBroken("retarget fault not in the map", kinema::describe(f));
        }
    }
    return 0;
}
