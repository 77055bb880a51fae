// User curves and a clip length from animations[i].extras: "curves" maps a curve name
// to {"times", "values", "interpolation"}, "length" holds the clip open. A bad curve
// or length is a fault at its JSON pointer, or when lenient a warning and it is skipped.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "io_fixtures.hpp"
#include "kinema/io/gltf.hpp"

namespace kinema::test {
namespace {

Json curve(std::vector<double> times, std::vector<double> values, const char* interpolation = nullptr) {
    Json c = Json::object();
    c["times"] = Json::numbers(times);
    c["values"] = Json::numbers(values);
    if (interpolation != nullptr) c["interpolation"] = interpolation;
    return c;
}

// One node moved over one second (keys at 0 and 1 s); `extras` becomes animations[0].extras.
GltfWriter animated(Json extras) {
    GltfWriter w;
    const auto times = w.addFloats("SCALAR", {0.0f, 1.0f});
    const auto moves = w.addFloats("VEC3", {0, 0, 0, 1, 2, 3});
    const auto node = w.addNode({.name = "box"});
    w.addScene({node});
    w.addAnimation({{.input = times, .output = moves}}, {{.sampler = 0, .node = node, .path = "translation"}}, "walk");
    w.json()["animations"][0]["extras"] = std::move(extras);
    return w;
}

ImportOptions lenient() {
    ImportOptions options;
    options.conformance = Conformance::Lenient;
    return options;
}

TEST(AnimationCurves, AreReadWithTheirInterpolationAndTheLengthHoldsTheClipOpen) {
    Json curves = Json::object();
    curves["footIk"] = curve({0.0, 0.5, 1.0}, {1.0, 0.0, 1.0});
    curves["blink"] = curve({0.0, 0.25}, {0.0, 1.0}, "STEP");
    Json extras = Json::object();
    extras["curves"] = std::move(curves);
    extras["length"] = 1.5;
    const auto r = importGltf(animated(std::move(extras)).gltfSource());
    ASSERT_TRUE(imported(r));
    EXPECT_TRUE(r.warnings().empty());
    const Clip& clip = r->clips[0];
    ASSERT_EQ(clip.curves().size(), 2u);
    EXPECT_EQ(clip.curves()[0].name, "footIk");
    EXPECT_FLOAT_EQ(sampleCurve(clip.curves()[0], 0.25), 0.5f);
    EXPECT_EQ(clip.curves()[1].interpolation, Interpolation::Step);
    EXPECT_EQ(sampleCurve(clip.curves()[1], 0.2), 0.0f);
    EXPECT_EQ(clip.duration(), 1.5f);
    EXPECT_EQ(clip.length(), 1.5f);
}

TEST(AnimationCurves, BadCurvesAndLengthsAreFaultsAtTheirPointerOrSkippedWhenLenient) {
    struct Case {
        Json curves;
        Json length;
        std::string where;
    };
    std::vector<Case> cases;
    const auto one = [](const char* name, Json c) {
        Json curves = Json::object();
        curves["good"] = curve({0.0}, {1.0});
        curves[name] = std::move(c);
        return curves;
    };
    cases.push_back({one("bad", curve({0.0, 1.0}, {1.0})), Json(), "/extras/curves/bad"});
    cases.push_back({one("bad", curve({0.5, 0.25}, {1.0, 2.0})), Json(), "/extras/curves/bad"});
    cases.push_back({one("bad", curve({0.0}, {1.0}, "CUBICSPLINE")), Json(), "/extras/curves/bad/interpolation"});
    cases.push_back({one("bad", Json(3)), Json(), "/extras/curves/bad"});
    Json noValues = Json::object();
    noValues["times"] = Json::array({0.0});
    cases.push_back({one("bad", std::move(noValues)), Json(), "/extras/curves/bad/values"});
    Json strings = curve({0.0}, {1.0});
    strings["values"] = Json::array({"x"});
    cases.push_back({one("bad", std::move(strings)), Json(), "/extras/curves/bad/values"});
    cases.push_back({Json::array(), Json(), "/extras/curves"});
    cases.push_back({Json(), Json(0.5), "/extras/length"});
    cases.push_back({Json(), Json("long"), "/extras/length"});
    for (Case& c : cases) {
        Json extras = Json::object();
        const bool hasCurves = !c.curves.isNull();
        if (hasCurves) extras["curves"] = c.curves;
        if (!c.length.isNull()) extras["length"] = c.length;
        const GltfWriter w = animated(std::move(extras));
        const auto strict = importGltf(w.gltfSource());
        ASSERT_FALSE(strict.ok()) << c.where;
        EXPECT_NE(strict.message().find("#/animations/0" + c.where), std::string::npos) << strict.message();
        const auto loose = importGltf(w.gltfSource(), lenient());
        ASSERT_TRUE(imported(loose)) << c.where;
        ASSERT_FALSE(loose.warnings().empty()) << c.where;
        const Clip& clip = loose->clips[0];
        EXPECT_EQ(clip.duration(), 1.0f) << c.where;
        // The good curve survives a bad neighbour.
        if (hasCurves && c.curves.kind() == Json::Kind::Object) {
            ASSERT_EQ(clip.curves().size(), 1u) << c.where;
            EXPECT_EQ(clip.curves()[0].name, "good");
        }
    }
}

// A curve name written twice is a repeated key: the first one is used, and the
// other curves are kept.
TEST(AnimationCurves, ARepeatedCurveNameKeepsTheFirstAndTheOthersWhenLenient) {
    Json curves = Json::object();
    curves["a"] = curve({0.0}, {1.0});
    curves["b"] = curve({0.0}, {5.0});
    curves["zz"] = curve({0.0}, {7.0});
    Json extras = Json::object();
    extras["curves"] = std::move(curves);
    std::string text = animated(std::move(extras)).gltf();
    const std::size_t at = text.find("\"zz\"");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 4, "\"a\"");
    ASSERT_FALSE(importGltf(makeSource(text, "test.gltf")).ok());
    const auto loose = importGltf(makeSource(text, "test.gltf"), lenient());
    ASSERT_TRUE(imported(loose));
    ASSERT_EQ(loose.warnings().size(), 1u) << loose.message();
    EXPECT_NE(loose.warnings()[0].where.find("/extras/curves/a"), std::string::npos);
    const Clip& clip = loose->clips[0];
    ASSERT_EQ(clip.curves().size(), 2u);
    EXPECT_EQ(clip.curves()[0].name, "a");
    EXPECT_EQ(clip.curves()[0].values[0], 1.0f);
    EXPECT_EQ(clip.curves()[1].name, "b");
}

// A curve that outlasts the tracks makes the clip longer, with a warning at the curve.
TEST(AnimationCurves, ACurvePastTheTracksLengthensTheClipWithAWarning) {
    Json curves = Json::object();
    curves["fade"] = curve({0.0, 2.5}, {0.0, 1.0});
    Json extras = Json::object();
    extras["curves"] = std::move(curves);
    const auto r = importGltf(animated(std::move(extras)).gltfSource());
    ASSERT_TRUE(imported(r));
    EXPECT_EQ(r->clips[0].duration(), 2.5f);
    ASSERT_EQ(r.warnings().size(), 1u);
    EXPECT_NE(r.warnings()[0].where.find("#/animations/0/extras/curves/fade"), std::string::npos)
        << r.warnings()[0].where;
    EXPECT_NE(r.warnings()[0].what.find("the clip now lasts 2.5 s"), std::string::npos) << r.warnings()[0].what;
}

}  // namespace
}  // namespace kinema::test
