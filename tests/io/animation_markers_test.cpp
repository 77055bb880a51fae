// Markers from animations[i].extras.markers: an array of {"name": string, "time":
// seconds}, read into the clip (sorted by time); a malformed marker is a fault at its
// JSON pointer, or when lenient a warning and the marker is skipped.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "io_fixtures.hpp"
#include "kinema/io/gltf.hpp"

namespace kinema::test {
namespace {

Json marker(Json name, Json time) {
    Json m = Json::object();
    m["name"] = std::move(name);
    m["time"] = std::move(time);
    return m;
}

// One node moved by two animations of one second each (keys at 0 and 1 s); `extras`
// becomes animations[animation].extras.
GltfWriter animated(Json extras, std::size_t animation = 0) {
    GltfWriter w;
    const auto times = w.addFloats("SCALAR", {0.0f, 1.0f});
    const auto moves = w.addFloats("VEC3", {0, 0, 0, 1, 2, 3});
    const auto node = w.addNode({.name = "box"});
    w.addScene({node});
    for (const char* name : {"walk", "run"}) {
        w.addAnimation({{.input = times, .output = moves}}, {{.sampler = 0, .node = node, .path = "translation"}},
                       name);
    }
    w.json()["animations"][animation]["extras"] = std::move(extras);
    return w;
}

GltfWriter withMarkers(Json markers, std::size_t animation = 0) {
    Json extras = Json::object();
    extras["markers"] = std::move(markers);
    return animated(std::move(extras), animation);
}

ImportOptions lenient() {
    ImportOptions options;
    options.conformance = Conformance::Lenient;
    return options;
}

std::vector<std::pair<std::string, float>> markersOf(const Clip& clip) {
    std::vector<std::pair<std::string, float>> out;
    for (const Marker& m : clip.markers()) out.emplace_back(m.name, m.time);
    return out;
}

std::vector<std::string> whereOf(std::span<const Fault> faults) {
    std::vector<std::string> out;
    for (const Fault& f : faults) out.push_back(f.where);
    return out;
}

using Markers = std::vector<std::pair<std::string, float>>;

TEST(AnimationMarkers, AreReadSortedByTimeWithUnknownMembersIgnored) {
    Json footstep = marker("footstep", 0.25);
    footstep["side"] = "left";  // extras are free-form: ignored
    footstep["extras"]["note"] = 1;
    const Json markers = Json::array({marker("land", 0.75), std::move(footstep), marker("footstep", 0.5)});
    for (const bool glb : {false, true}) {
        const GltfWriter w = withMarkers(markers);
        const auto r = importGltf(glb ? w.glbSource("m.glb") : w.gltfSource("m.gltf"));
        ASSERT_TRUE(imported(r)) << glb;
        EXPECT_TRUE(r.warnings().empty());
        ASSERT_EQ(r->clips.size(), 2u);
        EXPECT_EQ(markersOf(r->clips[0]), (Markers{{"footstep", 0.25f}, {"footstep", 0.5f}, {"land", 0.75f}}));
        EXPECT_TRUE(r->clips[1].markers().empty());
    }
}

TEST(AnimationMarkers, IntegerZeroAndLateTimesAreKept) {
    // 0 and 2 written as JSON integers; 2 s lies past the clip's last key (1 s) and is
    // kept as written; -0 becomes 0; equal times keep the file's order.
    const auto r = importGltf(withMarkers(Json::array({marker("end", 2), marker("b", Json::raw("-0")), marker("a", 0),
                                                       marker("mid", Json::raw("5e-1"))}))
                                  .gltfSource());
    ASSERT_TRUE(imported(r));
    EXPECT_EQ(markersOf(r->clips[0]), (Markers{{"b", 0.0f}, {"a", 0.0f}, {"mid", 0.5f}, {"end", 2.0f}}));
    EXPECT_FALSE(std::signbit(r->clips[0].markers()[0].time));
    EXPECT_EQ(r->clips[0].duration(), 1.0f);
}

TEST(AnimationMarkers, AbsentMarkersOrExtrasGiveNone) {
    Json other = Json::object();
    other["author"] = "someone";
    for (Json extras : {Json::object(), std::move(other), Json(5), Json("markers"), Json::array({marker("x", 0)})}) {
        const auto r = importGltf(animated(std::move(extras)).gltfSource());
        ASSERT_TRUE(imported(r));
        EXPECT_TRUE(r->clips[0].markers().empty());
        EXPECT_TRUE(r.warnings().empty());
    }
    const auto empty = importGltf(withMarkers(Json::array()).gltfSource());
    ASSERT_TRUE(imported(empty));
    EXPECT_TRUE(empty->clips[0].markers().empty());
    EXPECT_TRUE(empty.warnings().empty());
}

// A marker list whose entry 1 is `bad` (entries 0 and 2 are valid).
Json withBadSecond(Json bad) { return Json::array({marker("start", 0.0), std::move(bad), marker("end", 1.0)}); }

struct BadMarker {
    const char* name;
    Json entry;
    std::vector<std::string> where;  // under test.gltf#/animations/0/extras/markers/1
};

std::vector<BadMarker> badMarkers() {
    Json noName = Json::object();
    noName["time"] = 0.5;
    Json noTime = Json::object();
    noTime["name"] = "step";
    return {
        {"NegativeTime", marker("step", -0.5), {"/time"}},
        {"TimeAsString", marker("step", "0.5"), {"/time"}},
        {"TimeNull", marker("step", nullptr), {"/time"}},
        {"TimeBeyondFloat", marker("step", Json::raw("1e39")), {"/time"}},
        {"TimeMissing", noTime, {"/time"}},
        {"NameMissing", noName, {"/name"}},
        {"NameEmpty", marker("", 0.5), {"/name"}},
        {"NameNumber", marker(7, 0.5), {"/name"}},
        {"NameAndTimeBad", marker(Json::array(), -1), {"/name", "/time"}},
        {"NotAnObject", Json(0.5), {""}},
        {"Array", Json::array({"step", 0.5}), {""}},
    };
}

TEST(AnimationMarkers, StrictFaultsAtTheMalformedMember) {
    const std::string prefix = "test.gltf#/animations/0/extras/markers/1";
    for (BadMarker& bad : badMarkers()) {
        const auto r = importGltf(withMarkers(withBadSecond(std::move(bad.entry))).gltfSource());
        ASSERT_FALSE(r.ok()) << bad.name;
        std::vector<std::string> expected;
        for (const std::string& w : bad.where) expected.push_back(prefix + w);
        EXPECT_EQ(whereOf(r.faults()), expected) << bad.name << faultList(r);
    }
}

TEST(AnimationMarkers, LenientSkipsTheMalformedMarkerWithOneWarning) {
    const std::string prefix = "test.gltf#/animations/0/extras/markers/1";
    for (BadMarker& bad : badMarkers()) {
        const auto r = importGltf(withMarkers(withBadSecond(std::move(bad.entry))).gltfSource(), lenient());
        ASSERT_TRUE(imported(r)) << bad.name;
        EXPECT_EQ(markersOf(r->clips[0]), (Markers{{"start", 0.0f}, {"end", 1.0f}})) << bad.name;
        ASSERT_EQ(r.warnings().size(), 1u) << bad.name;
        EXPECT_EQ(r.warnings()[0].where, prefix + bad.where[0]) << bad.name;
        EXPECT_NE(r.warnings()[0].what.find("the marker is skipped"), std::string::npos) << r.warnings()[0].what;
    }
}

TEST(AnimationMarkers, FaultMessagesSayWhatIsWrong) {
    const auto negative = importGltf(withMarkers(withBadSecond(marker("step", -0.5))).gltfSource());
    ASSERT_EQ(negative.faults().size(), 1u);
    EXPECT_EQ(negative.faults()[0].what, "is -0.5; a marker time must be >= 0");
    const auto lenientNegative = importGltf(withMarkers(withBadSecond(marker("step", -0.5))).gltfSource(), lenient());
    ASSERT_EQ(lenientNegative.warnings().size(), 1u);
    EXPECT_EQ(lenientNegative.warnings()[0].what, "is -0.5; a marker time must be >= 0; the marker is skipped");
}

TEST(AnimationMarkers, MarkersThatAreNotAnArray) {
    for (Json markers : {Json("footstep"), Json(1), marker("footstep", 0.5)}) {
        const auto strict = importGltf(withMarkers(markers).gltfSource());
        EXPECT_EQ(whereOf(strict.faults()), std::vector<std::string>{"test.gltf#/animations/0/extras/markers"})
            << faultList(strict);
        const auto r = importGltf(withMarkers(markers).gltfSource(), lenient());
        ASSERT_TRUE(imported(r));
        EXPECT_TRUE(r->clips[0].markers().empty());
        ASSERT_EQ(r.warnings().size(), 1u);
        EXPECT_EQ(r.warnings()[0].where, "test.gltf#/animations/0/extras/markers");
        EXPECT_EQ(r.warnings()[0].what, "must be an array of markers; ignored");
    }
}

TEST(AnimationMarkers, EveryMalformedMarkerOfEveryAnimationIsListed) {
    // Animation 1 (the second): markers 0 and 2 bad, 1 good.
    const Json markers = Json::array({marker("a", -1), marker("b", 0.5), marker("", 0.25)});
    const auto strict = importGltf(withMarkers(markers, 1).gltfSource("two.gltf"));
    EXPECT_EQ(whereOf(strict.faults()),
              (std::vector<std::string>{"two.gltf#/animations/1/extras/markers/0/time",
                                        "two.gltf#/animations/1/extras/markers/2/name"}));
    const auto r = importGltf(withMarkers(markers, 1).gltfSource("two.gltf"), lenient());
    ASSERT_TRUE(imported(r));
    EXPECT_TRUE(r->clips[0].markers().empty());
    EXPECT_EQ(markersOf(r->clips[1]), (Markers{{"b", 0.5f}}));
    EXPECT_EQ(whereOf(r.warnings()),
              (std::vector<std::string>{"two.gltf#/animations/1/extras/markers/0/time",
                                        "two.gltf#/animations/1/extras/markers/2/name"}));
}

TEST(AnimationMarkers, AreChargedToTheMemoryBudget) {
    // On the last animation, the markers are the last thing the import charges: the
    // smallest budget that imports the file is one that holds them, and one byte less
    // is a fault at the markers.
    std::vector<Json> many;
    for (int i = 0; i < 1000; ++i) many.push_back(marker("m", i * 0.001));
    const GltfSource source = withMarkers(Json::array(std::move(many)), 1).gltfSource();
    ImportOptions options;
    std::size_t fails = 0, fits = options.memoryBudget;
    while (fits - fails > 1) {
        options.memoryBudget = fails + (fits - fails) / 2;
        (importGltf(source, options).ok() ? fits : fails) = options.memoryBudget;
    }
    options.memoryBudget = fits;
    const auto r = importGltf(source, options);
    ASSERT_TRUE(imported(r));
    EXPECT_EQ(r->clips[1].markers().size(), 1000u);
    options.memoryBudget = fits - 1;
    const auto over = importGltf(source, options);
    EXPECT_EQ(whereOf(over.faults()), std::vector<std::string>{"test.gltf#/animations/1/extras/markers"})
        << faultList(over);
    EXPECT_NE(over.faults()[0].what.find("the markers needs"), std::string::npos) << over.faults()[0].what;
}

}  // namespace
}  // namespace kinema::test
