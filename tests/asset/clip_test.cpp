// Clip::create: one case per validation rule with its fault location
// "tracks/<i>/<field>" or "markers/<i>"; derived duration; sorted markers;
// normalised rotation keys; findClipFaults against a skeleton and weight array.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kinema/asset/clip.hpp"
#include "kinema/asset/skeleton.hpp"

namespace {

using kinema::Clip;
using kinema::Interpolation;
using kinema::Marker;
using kinema::Track;
using kinema::TrackPath;
using Wheres = std::vector<std::string>;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

Track translation(std::uint32_t target, std::vector<float> times, std::vector<float> values,
                  Interpolation interp = Interpolation::Linear) {
    Track t;
    t.target = target;
    t.path = TrackPath::Translation;
    t.interpolation = interp;
    t.width = 3;
    t.times = std::move(times);
    t.values = std::move(values);
    return t;
}

Track rotation(std::uint32_t target, std::vector<float> times, std::vector<float> values,
               Interpolation interp = Interpolation::Linear) {
    Track t = translation(target, std::move(times), std::move(values), interp);
    t.path = TrackPath::Rotation;
    t.width = 4;
    return t;
}

Track weights(std::uint32_t target, std::uint32_t width, std::uint32_t offset, std::vector<float> times,
              std::vector<float> values, Interpolation interp = Interpolation::Linear) {
    Track t = translation(target, std::move(times), std::move(values), interp);
    t.path = TrackPath::Weights;
    t.width = width;
    t.weightOffset = offset;
    return t;
}

// Two valid tracks: translation of joint 0 (keys 0, 1) and rotation of joint 1 (keys 0.5, 1.5).
std::vector<Track> validTracks() {
    return {translation(0, {0.0f, 1.0f}, {0, 0, 0, 1, 2, 3}), rotation(1, {0.5f, 1.5f}, {0, 0, 0, 1, 0, 0, 1, 0})};
}

Wheres wheres(const kinema::Result<Clip>& r) {
    Wheres w;
    for (const auto& f : r.faults()) w.push_back(f.where);
    return w;
}

Wheres wheres(const std::vector<kinema::Fault>& faults) {
    Wheres w;
    for (const auto& f : faults) w.push_back(f.where);
    return w;
}

// ---- valid clips -----------------------------------------------------------------

TEST(ClipCreate, ValidClipIsAccepted) {
    const auto r = Clip::create("walk", validTracks(), {{"step", 0.25f}});
    ASSERT_TRUE(r.ok()) << r.message();
    EXPECT_EQ(r->name(), "walk");
    EXPECT_EQ(r->tracks().size(), 2u);
    EXPECT_EQ(r->markers().size(), 1u);
    EXPECT_EQ(r->jointsNeeded(), 2u);
    EXPECT_EQ(r->weightsNeeded(), 0u);
}

TEST(ClipCreate, ClipWithoutTracksHasZeroDuration) {
    const auto r = Clip::create("empty", {});
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->duration(), 0.0f);
    EXPECT_EQ(r->jointsNeeded(), 0u);
}

TEST(ClipCreate, DurationIsTheLastKeyOverAllTracks) {
    auto tracks = validTracks();  // last keys 1.0 and 1.5
    tracks.push_back(translation(2, {0.25f, 0.75f}, {0, 0, 0, 1, 1, 1}));
    const auto r = Clip::create("c", tracks);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->duration(), 1.5f);
}

TEST(ClipCreate, DurationOfASingleKeyTrackIsItsTime) {
    const auto r = Clip::create("c", {translation(0, {0.8f}, {1, 2, 3})});
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->duration(), 0.8f);
}

TEST(ClipCreate, MarkersAreSortedByTimeStably) {
    const auto r = Clip::create("c", validTracks(),
                                {{"late", 1.2f}, {"first", 0.1f}, {"tieA", 0.5f}, {"tieB", 0.5f}, {"zero", 0.0f}});
    ASSERT_TRUE(r.ok());
    std::vector<std::string> names;
    std::vector<float> times;
    for (const Marker& m : r->markers()) {
        names.push_back(m.name);
        times.push_back(m.time);
    }
    EXPECT_EQ(names, (std::vector<std::string>{"zero", "first", "tieA", "tieB", "late"}));
    EXPECT_EQ(times, (std::vector<float>{0.0f, 0.1f, 0.5f, 0.5f, 1.2f}));
}

TEST(ClipCreate, MarkerPastTheLastKeyIsAccepted) {
    const auto r = Clip::create("c", validTracks(), {{"after", 10.0f}});
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->duration(), 1.5f);  // markers do not stretch the clip
}

TEST(ClipCreate, RotationKeysAreNormalised) {
    const auto r = Clip::create("c", {rotation(0, {0, 1}, {0, 0, 3, 4, 0, 2e-30f, 0, 0})});
    ASSERT_TRUE(r.ok());
    const auto& v = r->tracks()[0].values;
    EXPECT_NEAR(v[2], 0.6, 1e-7);
    EXPECT_NEAR(v[3], 0.8, 1e-7);
    EXPECT_EQ(v[0], 0.0f);
    EXPECT_EQ(v[5], 1.0f);  // a tiny key normalises too
}

TEST(ClipCreate, CubicRotationValuesAreNormalisedButTangentsKept) {
    // per key: in-tangent, value, out-tangent
    std::vector<float> v = {9, 9, 9, 9, 0, 0, 0, 2, 7, 7, 7, 7,  //
                            5, 5, 5, 5, 0, 2, 0, 0, 3, 3, 3, 3};
    const auto r = Clip::create("c", {rotation(0, {0, 1}, v, Interpolation::CubicSpline)});
    ASSERT_TRUE(r.ok()) << r.message();
    const std::vector<float> want = {9, 9, 9, 9, 0, 0, 0, 1, 7, 7, 7, 7,  //
                                     5, 5, 5, 5, 0, 1, 0, 0, 3, 3, 3, 3};
    EXPECT_EQ(r->tracks()[0].values, want);
}

TEST(ClipCreate, WeightsOfAnyPositiveWidthAreAccepted) {
    const auto r = Clip::create("c", {weights(0, 5, 2, {0, 1}, std::vector<float>(10, 0.5f))});
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->weightsNeeded(), 7u);
}

// ---- one fault per rule ------------------------------------------------------------

TEST(ClipCreate, EmptyTrackIsAFault) {
    auto tracks = validTracks();
    tracks[1].times.clear();
    tracks[1].values.clear();
    EXPECT_EQ(wheres(Clip::create("c", tracks)), Wheres{"tracks/1/times"});
}

TEST(ClipCreate, NonIncreasingTimesAreAFault) {
    auto tracks = validTracks();
    tracks[0] = translation(0, {0.0f, 0.5f, 0.5f}, std::vector<float>(9, 0.0f));  // equal
    EXPECT_EQ(wheres(Clip::create("c", tracks)), Wheres{"tracks/0/times/2"});
    tracks[0] = translation(0, {0.0f, 0.5f, 0.25f}, std::vector<float>(9, 0.0f));  // decreasing
    EXPECT_EQ(wheres(Clip::create("c", tracks)), Wheres{"tracks/0/times/2"});
}

TEST(ClipCreate, NaNTimeIsAFault) {
    auto tracks = validTracks();
    tracks[1].times[1] = kNaN;
    EXPECT_EQ(wheres(Clip::create("c", tracks)), Wheres{"tracks/1/times/1"});
}

TEST(ClipCreate, InfiniteTimeIsAFault) {
    auto tracks = validTracks();
    tracks[0].times[1] = std::numeric_limits<float>::infinity();
    EXPECT_EQ(wheres(Clip::create("c", tracks)), Wheres{"tracks/0/times/1"});
}

TEST(ClipCreate, NegativeFirstTimeIsAFault) {
    auto tracks = validTracks();
    tracks[0].times[0] = -0.1f;
    EXPECT_EQ(wheres(Clip::create("c", tracks)), Wheres{"tracks/0/times/0"});
}

TEST(ClipCreate, WrongValueCountIsAFault) {
    auto tracks = validTracks();
    tracks[0].values.pop_back();  // 5 floats for 2 keys * 3
    EXPECT_EQ(wheres(Clip::create("c", tracks)), Wheres{"tracks/0/values"});
}

TEST(ClipCreate, CubicValueCountWithoutTangentsIsAFault) {
    // 2 keys * 3 floats is LINEAR's count; CUBICSPLINE needs 2 * 3 * 3.
    const auto r = Clip::create("c", {translation(0, {0, 1}, {0, 0, 0, 1, 1, 1}, Interpolation::CubicSpline)});
    EXPECT_EQ(wheres(r), Wheres{"tracks/0/values"});
}

TEST(ClipCreate, WrongWidthIsAFault) {
    auto tracks = validTracks();
    tracks[1].width = 3;  // rotation needs 4
    tracks[1].values.resize(6);
    EXPECT_EQ(wheres(Clip::create("c", tracks)), Wheres{"tracks/1/width"});
    auto t2 = validTracks();
    t2[0].width = 4;  // translation needs 3
    t2[0].values.resize(8);
    EXPECT_EQ(wheres(Clip::create("c", t2)), Wheres{"tracks/0/width"});
}

TEST(ClipCreate, ZeroWidthWeightsIsAFault) {
    const auto r = Clip::create("c", {weights(0, 0, 0, {0, 1}, {})});
    EXPECT_EQ(wheres(r), Wheres{"tracks/0/width"});
}

TEST(ClipCreate, CubicWithOneKeyIsAFault) {
    const auto r = Clip::create("c", {translation(0, {0.5f}, {0, 0, 0, 1, 2, 3, 0, 0, 0}, Interpolation::CubicSpline)});
    EXPECT_EQ(wheres(r), Wheres{"tracks/0/times"});
}

TEST(ClipCreate, ZeroRotationKeyIsAFault) {
    auto tracks = validTracks();
    tracks[1].values = {0, 0, 0, 1, 0, 0, 0, 0};  // second key is zero
    const auto r = Clip::create("c", tracks);
    ASSERT_EQ(r.faults().size(), 1u);
    // the fault names track 1's values (the index after "values/" is the key)
    EXPECT_EQ(r.faults()[0].where.rfind("tracks/1/values", 0), 0u) << r.faults()[0].where;
}

TEST(ClipCreate, NonFiniteValueIsAFault) {
    auto tracks = validTracks();
    tracks[0].values[4] = kNaN;
    EXPECT_EQ(wheres(Clip::create("c", tracks)), Wheres{"tracks/0/values/4"});
}

TEST(ClipCreate, DuplicateTargetAndPathIsAFault) {
    auto tracks = validTracks();
    tracks.push_back(translation(0, {0, 2}, {0, 0, 0, 1, 1, 1}));  // joint 0 translation again
    const auto r = Clip::create("c", tracks);
    ASSERT_EQ(r.faults().size(), 1u);
    EXPECT_EQ(r.faults()[0].where.rfind("tracks/2", 0), 0u) << r.faults()[0].where;
}

TEST(ClipCreate, SameTargetOnDifferentPathsIsNotADuplicate) {
    auto tracks = validTracks();
    tracks.push_back(rotation(0, {0}, {0, 0, 0, 1}));
    tracks.push_back(translation(1, {0}, {0, 0, 0}));
    EXPECT_TRUE(Clip::create("c", tracks).ok());
}

TEST(ClipCreate, NegativeMarkerIsAFault) {
    const auto r = Clip::create("c", validTracks(), {{"ok", 0.5f}, {"bad", -0.5f}});
    EXPECT_EQ(wheres(r), Wheres{"markers/1"});
}

TEST(ClipCreate, NaNMarkerIsAFault) {
    const auto r = Clip::create("c", validTracks(), {{"bad", kNaN}, {"ok", 0.5f}});
    EXPECT_EQ(wheres(r), Wheres{"markers/0"});
}

TEST(ClipCreate, InfiniteMarkerIsAFault) {
    const auto r = Clip::create("c", validTracks(), {{"ok", 0.5f}, {"bad", std::numeric_limits<float>::infinity()}});
    EXPECT_EQ(wheres(r), Wheres{"markers/1"});
}

TEST(ClipCreate, EveryFaultIsReportedNotOnlyTheFirst) {
    auto tracks = validTracks();
    tracks[0].times[0] = -1.0f;
    tracks[1].values.pop_back();
    const auto r = Clip::create("c", tracks, {{"bad", -1.0f}});
    EXPECT_EQ(wheres(r), (Wheres{"tracks/0/times/0", "tracks/1/values", "markers/0"}));
}

// ---- findClipFaults ------------------------------------------------------------------

kinema::Skeleton twoJoints() {
    std::vector<kinema::JointDesc> j(2);
    j[0] = {"root", kinema::kNoParent, {}};
    j[1] = {"child", 0, {}};
    return kinema::Skeleton::create(j).value();
}

TEST(ClipFindClipFaults, FittingClipHasNoFaults) {
    auto tracks = validTracks();
    tracks.push_back(weights(1, 3, 1, {0}, {0.1f, 0.2f, 0.3f}));  // weights 1..4 of 4
    const auto clip = Clip::create("c", tracks);
    ASSERT_TRUE(clip.ok());
    EXPECT_TRUE(kinema::findClipFaults(*clip, twoJoints(), 4).empty());
}

TEST(ClipFindClipFaults, TargetOutsideTheSkeletonIsAFault) {
    auto tracks = validTracks();
    tracks[1].target = 2;  // the skeleton has joints 0 and 1
    const auto clip = Clip::create("c", tracks);
    ASSERT_TRUE(clip.ok());
    EXPECT_EQ(wheres(kinema::findClipFaults(*clip, twoJoints(), 0)), Wheres{"tracks/1/target"});
}

TEST(ClipFindClipFaults, WeightsPastTheArrayAreAFault) {
    auto tracks = validTracks();
    tracks.push_back(weights(1, 3, 2, {0}, {0.1f, 0.2f, 0.3f}));  // writes 2..5, array holds 4
    const auto clip = Clip::create("c", tracks);
    ASSERT_TRUE(clip.ok());
    EXPECT_EQ(wheres(kinema::findClipFaults(*clip, twoJoints(), 4)), Wheres{"tracks/2/weightOffset"});
    EXPECT_TRUE(kinema::findClipFaults(*clip, twoJoints(), 5).empty());
}

TEST(ClipFindClipFaults, WeightsOnAnEmptyArrayAreAFault) {
    const auto clip = Clip::create("c", {weights(0, 1, 0, {0}, {1.0f})});
    ASSERT_TRUE(clip.ok());
    EXPECT_EQ(wheres(kinema::findClipFaults(*clip, twoJoints(), 0)), Wheres{"tracks/0/weightOffset"});
}

}  // namespace
