// User curves as data: a JSON file gives clips their curves by name; the evaluation
// then blends them. Every fault is located at its JSON pointer and nothing is applied.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "kinema/io/curve_json.hpp"

namespace kinema {
namespace {

Model twoClips() {
    Model m;
    m.skeleton = Skeleton::create({{"root", kNoParent, {}}}).value();
    Track t;
    t.times = {0.0f, 1.0f};
    t.values = {0, 0, 0, 1, 0, 0};
    m.clips.push_back(Clip::create("Walk", {t}).value().withCurves({{"old", {0.0f}, {3.0f}}}).value());
    m.clips.push_back(Clip::create("Run", {t}).value());
    return m;
}

TEST(CurveJson, GivesNamedClipsTheirCurves) {
    Model m = twoClips();
    const auto applied = applyCurveJson(R"({"clips": {"Walk": {
        "footIk": {"times": [0, 0.5, 1], "values": [1, 0, 1]},
        "blink": {"times": [0, 0.25], "values": [0, 1], "interpolation": "STEP"}}}})",
                                        m, "curves.json");
    ASSERT_TRUE(applied.ok()) << applied.message();
    EXPECT_EQ(*applied, 1u);
    const auto curves = m.clips[0].curves();
    ASSERT_EQ(curves.size(), 2u);  // the file's replace the clip's own
    EXPECT_EQ(curves[0].name, "footIk");
    EXPECT_FLOAT_EQ(sampleCurve(curves[0], 0.75), 0.5f);
    EXPECT_EQ(curves[1].interpolation, Interpolation::Step);
    EXPECT_EQ(sampleCurve(curves[1], 0.2), 0.0f);
    EXPECT_TRUE(m.clips[1].curves().empty());  // not named: unchanged
}

// A curve that outlasts the clip's tracks (1 s) lengthens the clip: applied, with a
// warning at the curve that says so.
TEST(CurveJson, ACurvePastTheTracksWarnsThatTheClipGrows) {
    Model m = twoClips();
    const auto applied =
        applyCurveJson(R"({"clips": {"Walk": {"late": {"times": [0, 10], "values": [0, 1]}}}})", m, "curves.json");
    ASSERT_TRUE(applied.ok()) << applied.message();
    EXPECT_EQ(m.clips[0].duration(), 10.0f);
    ASSERT_EQ(applied.warnings().size(), 1u);
    EXPECT_EQ(describe(applied.warnings()[0]),
              "curves.json#/clips/Walk/late: curve \"late\" ends at 10 s, past the tracks' last key (1 s): the clip "
              "now lasts 10 s");
    // Within the tracks: no warning.
    const auto inside =
        applyCurveJson(R"({"clips": {"Walk": {"c": {"times": [0, 1], "values": [0, 1]}}}})", m, "curves.json");
    ASSERT_TRUE(inside.ok()) << inside.message();
    EXPECT_TRUE(inside.warnings().empty());
}

TEST(CurveJson, EveryFaultIsLocatedAndNothingIsApplied) {
    Model m = twoClips();
    const std::vector<std::pair<std::string, std::string>> cases{
        {R"({"clips": {"Walk": {"a": {"values": [1]}}}})", "f#/clips/Walk/a/times: missing"},
        {R"({"clips": {"Walk": {"a": {"times": [0], "values": ["x"]}}}})",
         "f#/clips/Walk/a/values/0: must be a number"},
        {R"({"clips": {"Walk": {"a": {"times": [0], "values": [1e39]}}}})",
         "f#/clips/Walk/a/values/0: must be a number"},
        {R"({"clips": {"Walk": {"a": {"times": [0], "values": [1], "frame": 2}}}})",
         "f#/clips/Walk/a/frame: unknown key"},
        {R"({"clips": {"Walk": {"a": {"times": [0], "values": [1], "interpolation": "CUBICSPLINE"}}}})",
         "f#/clips/Walk/a/interpolation: must be \"LINEAR\" or \"STEP\""},
        {R"({"clips": {"Walk": {"a": {"times": [1, 0], "values": [1, 2]}}}})",
         "f#/clips/Walk/a/times/1: key 1: time 0 is not after the earlier key's 1"},
        {R"({"clips": {"Walk": {"a": {"times": [0, 1], "values": [1]}}}})",
         "f#/clips/Walk/a/values: 1 values for 2 keys"},
        {R"({"clips": {"Walk": {"a/b~": {"times": [0, 2, 3, 3], "values": [1, 2, 3, 4]}}}})",
         "f#/clips/Walk/a~1b~0/times/3: key 3: time 3 is not after the earlier key's 3"},
        {R"({"clips": {"Walk": {"a": 3}}})", "f#/clips/Walk/a: must be an object"},
        {R"({"clips": {"Walk": []}})", "f#/clips/Walk: must be an object of curve names"},
        {R"({"clips": {"Walk": {}, "Walk": {}}})", "f#/clips/Walk: duplicate key"},
        {R"({"clips": {"Swim": {}}})", "f#/clips/Swim: the model has no clip named \"Swim\""},
        {R"({"clip": {}})", "f#/clip: unknown key"},
        {R"({"clips": {"Walk": {"a": {"times": [0], "values": [1]}},)", "f@byte 56"},
    };
    for (const auto& [json, expected] : cases) {
        const auto refused = applyCurveJson(json, m, "f");
        ASSERT_FALSE(refused.ok()) << json;
        EXPECT_EQ(refused.message().rfind(expected, 0), 0u) << json << "\n" << refused.message();
        ASSERT_EQ(m.clips[0].curves().size(), 1u) << json;
        EXPECT_EQ(m.clips[0].curves()[0].name, "old");
    }
    EXPECT_FALSE(applyCurveFile("/nonexistent/curves.json", m).ok());
    // A name given three times is one fault.
    const auto thrice =
        applyCurveJson(R"({"clips": {"Walk": {"a": {"times": [0], "values": [1]}, "a": {}, "a": {}}}})", m, "f");
    ASSERT_FALSE(thrice.ok());
    EXPECT_EQ(thrice.message(), "f#/clips/Walk/a: duplicate key (keys must be unique)");
    // A curve past a clip's length is refused at its last key.
    m.clips[1] = m.clips[1].withLength(1.5f).value();
    const auto pastLength =
        applyCurveJson(R"({"clips": {"Run": {"long": {"times": [0, 3], "values": [0, 1]}}}})", m, "f");
    EXPECT_EQ(pastLength.message(), "f#/clips/Run/long/times/1: key 1: time 3 s is past the clip's length 1.5 s");
}

}  // namespace
}  // namespace kinema
