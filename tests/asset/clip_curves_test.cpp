// User curves and a clip's length: sampling against hand-computed values, the
// faults of each bad input, and a length that holds the clip open past its keys.
#include <gtest/gtest.h>

#include <cmath>

#include "kinema/asset/clip.hpp"
#include "kinema/asset/skeleton.hpp"

namespace {

using namespace kinema;

Clip oneTrack(float lastKey) {
    Track t;
    t.path = TrackPath::Translation;
    t.times = {0.0f, lastKey};
    t.values = {0, 0, 0, 1, 0, 0};
    return Clip::create("clip", {t}, {{"step", 0.5f}}).value();
}

CurveTrack curve(std::string name, std::vector<float> times, std::vector<float> values,
                 Interpolation interpolation = Interpolation::Linear) {
    return {std::move(name), std::move(times), std::move(values), interpolation};
}

TEST(UserCurve, SamplesLinearlyOrSteppedAndHoldsItsEnds) {
    const CurveTrack linear = curve("w", {0.5f, 1.0f, 2.0f}, {1.0f, 3.0f, -1.0f});
    EXPECT_EQ(sampleCurve(linear, 0.0), 1.0f);
    EXPECT_EQ(sampleCurve(linear, 0.5), 1.0f);
    EXPECT_FLOAT_EQ(sampleCurve(linear, 0.75), 2.0f);
    EXPECT_FLOAT_EQ(sampleCurve(linear, 1.5), 1.0f);
    EXPECT_EQ(sampleCurve(linear, 2.0), -1.0f);
    EXPECT_EQ(sampleCurve(linear, 9.0), -1.0f);
    const CurveTrack step = curve("s", {0.0f, 1.0f}, {4.0f, 5.0f}, Interpolation::Step);
    EXPECT_EQ(sampleCurve(step, 0.99), 4.0f);
    EXPECT_EQ(sampleCurve(step, 1.0), 5.0f);
    EXPECT_EQ(sampleCurve(curve("one", {0.3f}, {7.0f}), 5.0), 7.0f);
}

TEST(UserCurve, AClipKeepsItsCurvesAndTheirLastKeyCountsTowardItsDuration) {
    const Clip clip = oneTrack(1.0f);
    auto with = clip.withCurves({curve("footIk", {0.0f, 1.5f}, {1.0f, 0.0f})});
    ASSERT_TRUE(with.ok()) << with.message();
    EXPECT_EQ(with->duration(), 1.5f);
    ASSERT_EQ(with->curves().size(), 1u);
    EXPECT_EQ(with->curves()[0].name, "footIk");
    // Replacing the markers keeps the curves; replacing the curves can shorten it again.
    auto remarked = with->withMarkers({{"other", 0.2f}});
    ASSERT_TRUE(remarked.ok());
    EXPECT_EQ(remarked->curves().size(), 1u);
    EXPECT_EQ(remarked->duration(), 1.5f);
    EXPECT_EQ(with->withCurves({}).value().duration(), 1.0f);
}

TEST(UserCurve, BadCurvesAreRefusedAtTheirIndex) {
    const Clip clip = oneTrack(1.0f);
    const auto refused = [&](CurveTrack bad, const std::string& words) {
        auto r = clip.withCurves({curve("fine", {0.0f}, {1.0f}), std::move(bad)});
        ASSERT_FALSE(r.ok());
        EXPECT_NE(r.message().find("curves/1"), std::string::npos) << r.message();
        EXPECT_NE(r.message().find(words), std::string::npos) << r.message();
    };
    refused(curve("", {0.0f}, {1.0f}), "needs a name");
    refused(curve("fine", {0.0f}, {1.0f}), "second curve named");
    refused(curve("x", {}, {}), "at least one key");
    refused(curve("x", {0.0f, 1.0f}, {1.0f}), "1 values for 2 keys");
    refused(curve("x", {0.0f, 0.0f}, {1.0f, 2.0f}),
            "key 1: time 0 is not after the earlier key's 0 (as 32-bit floats)");
    refused(curve("x", {-1.0f}, {1.0f}), ">= 0");
    refused(curve("x", {0.0f, NAN}, {1.0f, 2.0f}), "finite");
    refused(curve("x", {0.0f}, {INFINITY}), "not finite");
    refused(curve("x", {0.0f, 1.0f}, {1.0f, 2.0f}, Interpolation::CubicSpline), "Step or Linear");
    refused(curve("x", {0.0f, 1.0f}, {1.0f, 2.0f}, static_cast<Interpolation>(7)), "Step or Linear");
}

TEST(UserCurve, KeyFaultsPointAtTheKey) {
    const Clip clip = oneTrack(1.0f);
    const auto where = [&](CurveTrack bad) {
        auto r = clip.withCurves({curve("fine", {0.0f}, {1.0f}), std::move(bad)});
        return r.ok() ? std::string("accepted") : r.faults().front().where;
    };
    EXPECT_EQ(where(curve("x", {0.0f, 1.0f, 1.0f}, {1.0f, 2.0f, 3.0f})), "curves/1/times/2");
    EXPECT_EQ(where(curve("x", {-1.0f}, {1.0f})), "curves/1/times/0");
    EXPECT_EQ(where(curve("x", {0.0f, 1.0f}, {1.0f, NAN})), "curves/1/values/1");
    EXPECT_EQ(where(curve("x", {0.0f, 1.0f}, {1.0f})), "curves/1/values");
}

TEST(ClipLength, HoldsTheClipOpenPastItsLastKey) {
    const Clip clip = oneTrack(1.0f);
    auto longer = clip.withLength(1.6f);
    ASSERT_TRUE(longer.ok()) << longer.message();
    EXPECT_EQ(longer->duration(), 1.6f);
    EXPECT_EQ(longer->length(), 1.6f);
    EXPECT_EQ(clip.length(), 0.0f);
    // Markers and curves carry the length along; a binding keeps it.
    EXPECT_EQ(longer->withMarkers({{"late", 1.4f}}).value().duration(), 1.6f);
    EXPECT_EQ(longer->withCurves({curve("c", {0.0f, 1.2f}, {0.0f, 1.0f})}).value().duration(), 1.6f);
    auto named = Clip::create("named", {clip.tracks().begin(), clip.tracks().end()}, {},
                              std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"root"}));
    const Skeleton skeleton = Skeleton::create({JointDesc{"other", kNoParent, {}}, JointDesc{"root", 0, {}}}).value();
    auto bound = bindClip(named->withLength(2.0f).value(), skeleton);
    ASSERT_TRUE(bound.ok()) << bound.message();
    EXPECT_EQ(bound->duration(), 2.0f);

    // Too short, not finite, or cut under a curve's last key.
    EXPECT_FALSE(clip.withLength(0.5f).ok());
    EXPECT_FALSE(clip.withLength(NAN).ok());
    EXPECT_FALSE(clip.withLength(INFINITY).ok());
    EXPECT_EQ(clip.withLength(0.5f).message(), "length: 0.5 s: must be finite and at least the last key (1 s)");
    EXPECT_EQ(clip.withLength(-1e-8f).message(), "length: -1e-08 s: must be finite and at least the last key (1 s)");
    // A marker past the end, the length included, is refused at its index.
    EXPECT_EQ(longer->withMarkers({{"ok", 1.6f}, {"late", 1.7f}}).message(),
              "markers/1: marker \"late\" at 1.7 s is past the clip's end (1.6 s): it would never be crossed");
    auto cut = longer->withCurves({curve("c", {0.0f, 1.0f}, {0.0f, 1.0f}), curve("d", {0.0f, 2.0f}, {0.0f, 1.0f})});
    EXPECT_EQ(cut.message(), "curves/1/times/1: key 1: time 2 s is past the clip's length 1.6 s");
    // A length that would leave a marker past the end is refused as well; one that
    // reaches it is taken.
    const Clip marked = longer->withMarkers({{"step", 1.5f}}).value();
    EXPECT_EQ(marked.withLength(1.2f).message(), "length: 1.2 s ends the clip before its marker \"step\" at 1.5 s");
    EXPECT_EQ(marked.withLength(1.5f).value().duration(), 1.5f);
}

TEST(ClipLength, CurvesThatWouldLeaveAMarkerPastTheEndAreRefused) {
    // A curve to 3 s lengthens a 1 s clip; a marker at 2.5 s fits it then, and the
    // curves cannot be replaced by shorter ones under it.
    const auto longer = oneTrack(1.0f).withCurves({curve("a", {0.0f, 3.0f}, {0.0f, 1.0f})});
    ASSERT_TRUE(longer.ok()) << longer.message();
    const auto marked = longer->withMarkers({{"late", 2.5f}});
    ASSERT_TRUE(marked.ok()) << marked.message();
    EXPECT_EQ(marked->withCurves({}).message(),
              "curves: with these curves the clip ends at 1 s, before its marker \"late\" at 2.5 s");
    EXPECT_EQ(marked->withCurves({curve("b", {0.0f, 2.5f}, {0.0f, 1.0f})}).value().duration(), 2.5f);
}

}  // namespace
