// Markers as data: a JSON file gives clips their markers by name; a state machine
// playing the clips then reports them, with no code.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kinema/io/marker_json.hpp"
#include "kinema/io/state_machine_json.hpp"
#include "kinema/play/state_machine.hpp"

namespace kinema {
namespace {

Model twoClips() {
    Model m;
    m.skeleton = Skeleton::create({{"root", kNoParent, {}}}).value();
    Track t;
    t.times = {0.0f, 1.0f};
    t.values = {0, 0, 0, 1, 0, 0};
    m.clips.push_back(Clip::create("Walk", {t}, {{"old", 0.3f}}).value());
    m.clips.push_back(Clip::create("Run", {t}).value());
    return m;
}

TEST(MarkerJson, GivesNamedClipsTheirMarkersSortedByTime) {
    Model m = twoClips();
    const auto applied = applyMarkerJson(R"({"clips": {"Walk": [{"name": "right", "time": 0.75},
                                                              {"name": "left", "time": 0.25}]}})",
                                         m, "steps.json");
    ASSERT_TRUE(applied.ok()) << applied.message();
    EXPECT_EQ(*applied, 1u);
    ASSERT_EQ(m.clips[0].markers().size(), 2u);  // the file's replace the clip's own
    EXPECT_EQ(m.clips[0].markers()[0].name, "left");
    EXPECT_EQ(m.clips[0].markers()[0].time, 0.25f);
    EXPECT_EQ(m.clips[0].markers()[1].name, "right");
    EXPECT_TRUE(m.clips[1].markers().empty());  // not named: unchanged
    EXPECT_EQ(m.clips[0].tracks().size(), 1u);
}

TEST(MarkerJson, EveryFaultIsLocatedAndNothingIsApplied) {
    Model m = twoClips();
    const auto refused =
        applyMarkerJson(R"({"clips": {"Walk": [{"name": "x", "time": -1}], "Swim": []}})", m, "steps.json");
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.message(), "steps.json#/clips/Walk/0/time: must be >= 0");
    EXPECT_EQ(m.clips[0].markers().size(), 1u);

    const auto unknownClip = applyMarkerJson(R"({"clips": {"Walk": [], "Swim": []}})", m, "steps.json");
    ASSERT_FALSE(unknownClip.ok());
    EXPECT_EQ(unknownClip.message(), "steps.json#/clips/Swim: the model has no clip named \"Swim\"");
    EXPECT_EQ(m.clips[0].markers().size(), 1u);  // Walk's change was not applied either

    const std::vector<std::pair<std::string, std::string>> cases{
        {R"({"clips": {"Walk": [{"name": "a"}]}})", "f#/clips/Walk/0/time: missing"},
        {R"({"clips": {"Walk": [{"name": "", "time": 1}]}})", "f#/clips/Walk/0/name: must not be empty"},
        {R"({"clips": {"Walk": [{"name": 5, "time": 1}]}})", "f#/clips/Walk/0/name: must be a string"},
        {R"({"clips": {"Walk": [{"name": "a", "time": 1, "frame": 3}]}})", "f#/clips/Walk/0/frame: unknown key"},
        {R"({"clips": {"Walk": [], "Walk": []}})", "f#/clips/Walk: duplicate key (keys must be unique)"},
        {R"({"clips": {"Walk": {}}})", "f#/clips/Walk: must be an array of markers"},
        {R"({"clip": {}})", "f#/clip: unknown key\nf#/clips: missing"},
        {R"({"clips": {"Walk": [{"name": "a", "time": 1e39}]}})", "f#/clips/Walk/0/time: not finite as a 32-bit float"},
        {"{\"clips\": {\n  \"Walk\": [}}",
         "f@byte 23 (line 2, column 12): JSON syntax error: expected a value, found '}'"},
    };
    for (const auto& [json, expect] : cases) {
        const auto r = parseMarkerJson(json, "f");
        ASSERT_FALSE(r.ok()) << json;
        EXPECT_EQ(r.message(), expect) << json;
    }
}

// A file of many faults lists the first kMaxListedFaults, then one line saying more
// were found: 50,000 clips of the wrong type make a readable report, not 50,000 lines.
// A key repeated 50,000 times is one fault.
TEST(MarkerJson, ManyFaultsAreListedUpToTheLimit) {
    std::string json = R"({"clips": {)";
    for (int i = 0; i < 50'000; ++i)
        json.append(i == 0 ? "" : ", ").append("\"c").append(std::to_string(i)).append("\": 1");
    json.append("}}");
    const auto many = parseMarkerJson(json, "steps.json");
    ASSERT_FALSE(many.ok());
    ASSERT_EQ(many.faults().size(), kMaxListedFaults + 1);
    EXPECT_EQ(many.faults()[0].where, "steps.json#/clips/c0");
    EXPECT_EQ(describe(many.faults().back()), "steps.json: more faults not listed");

    std::string again = R"({"clips": {)";
    for (int i = 0; i < 50'000; ++i) again.append(i == 0 ? "" : ", ").append(R"("Walk": [])");
    again.append("}}");
    const auto repeated = parseMarkerJson(again, "steps.json");
    ASSERT_FALSE(repeated.ok());
    ASSERT_EQ(repeated.faults().size(), 1u);
    EXPECT_EQ(describe(repeated.faults()[0]), "steps.json#/clips/Walk: duplicate key (keys must be unique)");

    // Clips the model lacks, each a fault of its own: listed up to the same limit.
    std::string unknown = R"({"clips": {)";
    for (int i = 0; i < 1000; ++i)
        unknown.append(i == 0 ? "" : ", ").append("\"c").append(std::to_string(i)).append("\": []");
    unknown.append("}}");
    Model m = twoClips();
    const auto missing = applyMarkerJson(unknown, m, "steps.json");
    ASSERT_FALSE(missing.ok());
    ASSERT_EQ(missing.faults().size(), kMaxListedFaults + 1);
    EXPECT_EQ(describe(missing.faults()[499]), "steps.json#/clips/c499: the model has no clip named \"c499\"");
    EXPECT_EQ(describe(missing.faults().back()), "steps.json: more faults not listed");
}

// A marker past the clip's end (here 1 s) would never be crossed: refused at its time.
TEST(MarkerJson, AMarkerPastTheClipsEndIsRefused) {
    Model m = twoClips();
    const auto late = applyMarkerJson(
        R"({"clips": {"Walk": [{"name": "ok", "time": 1}, {"name": "late", "time": 1.5}]}})", m, "steps.json");
    ASSERT_FALSE(late.ok());
    EXPECT_EQ(late.message(),
              "steps.json#/clips/Walk/1/time: marker \"late\" at 1.5 s is past the clip's end (1 s): it would never "
              "be crossed");
    EXPECT_EQ(m.clips[0].markers().size(), 1u);  // nothing applied
    // Held open by a length, the clip takes it.
    m.clips[0] = m.clips[0].withLength(2.0f).value();
    EXPECT_TRUE(applyMarkerJson(R"({"clips": {"Walk": [{"name": "late", "time": 1.5}]}})", m, "steps.json").ok());
}

TEST(MarkerJson, AStateMachineReportsMarkersFromTheFile) {
    Model m = twoClips();
    ASSERT_TRUE(applyMarkerJson(R"({"clips": {"Walk": [{"name": "step", "time": 0.5}]}})", m).ok());
    const auto def = loadStateMachineJson(R"({"states": [{"name": "walk", "clip": "Walk"}]})",
                                          [&](std::string_view name) -> const Clip* {
                                              for (const Clip& c : m.clips) {
                                                  if (c.name() == name) return &c;
                                              }
                                              return nullptr;
                                          });
    ASSERT_TRUE(def.ok()) << def.message();
    StateMachine sm(*def);
    ASSERT_TRUE(sm.update(0.4).ok());
    EXPECT_TRUE(sm.events().empty());
    ASSERT_TRUE(sm.update(0.2).ok());  // 0.4 -> 0.6 crosses the step at 0.5
    ASSERT_EQ(sm.events().size(), 1u);
    EXPECT_EQ(sm.events()[0].clip->markers()[sm.events()[0].marker].name, "step");
}

}  // namespace
}  // namespace kinema
