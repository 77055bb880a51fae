// measureClipError against closed forms: a translation offset moves every virtual
// vertex by the offset, a rotation at the root moves a child's vertex by the chord
// 2 sin(angle / 2) r, an error only between the grid's instants is found at the
// midpoints, and the 99th percentile ignores an error at under 1 % of the measurements.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kinema/runtime/clip_error.hpp"

namespace kinema {
namespace {

// root(0) -> child(1) at (length, 0, 0).
Skeleton chain(float childLength) {
    std::vector<JointDesc> joints(2);
    joints[0].name = "root";
    joints[1] = {"child", 0, {}};
    joints[1].rest.translation = {childLength, 0.0f, 0.0f};
    return Skeleton::create(std::move(joints)).value();
}

Track translation(std::uint32_t target, std::vector<float> times, std::vector<float> values) {
    Track t;
    t.target = target;
    t.path = TrackPath::Translation;
    t.width = 3;
    t.times = std::move(times);
    t.values = std::move(values);
    return t;
}

Track rotationZ(std::uint32_t target, float angle, float duration) {
    Track t;
    t.target = target;
    t.path = TrackPath::Rotation;
    t.width = 4;
    t.times = {0.0f, duration};
    const float s = std::sin(0.5f * angle), c = std::cos(0.5f * angle);
    t.values = {0.0f, 0.0f, s, c, 0.0f, 0.0f, s, c};
    return t;
}

Clip clipOf(std::vector<Track> tracks) { return Clip::create("c", std::move(tracks)).value(); }

TEST(ClipError, IdenticalClipsMeasureZeroAtEveryInstant) {
    const Skeleton skeleton = chain(0.5f);
    const Clip clip = clipOf({translation(0, {0.0f, 1.0f}, {0, 0, 0, 1, 0, 0})});
    auto e = measureClipError(skeleton, clip, clip);
    ASSERT_TRUE(e.ok()) << e.message();
    EXPECT_EQ(e->max, 0.0f);
    EXPECT_EQ(e->p99, 0.0f);
    // 1 s at 30 Hz: 31 grid instants and 30 midpoints, 2 joints x 3 points each.
    EXPECT_EQ(e->measurements, (31u + 30u) * 2u * 3u);
}

TEST(ClipError, ATranslationOffsetMovesEveryPointByIt) {
    const Skeleton skeleton = chain(0.5f);
    const Clip a = clipOf({translation(0, {0.0f, 1.0f}, {0, 0, 0, 1, 0, 0})});
    const Clip b = clipOf({translation(0, {0.0f, 1.0f}, {0, 0.004f, 0, 1, 0.004f, 0})});
    auto e = measureClipError(skeleton, a, b);
    ASSERT_TRUE(e.ok());
    EXPECT_NEAR(e->max, 0.004f, 1e-7f);
    EXPECT_NEAR(e->p99, 0.004f, 1e-7f);
}

TEST(ClipError, ARotationAtTheRootMovesTheChildsFarthestPointByTheChord) {
    const float length = 0.8f, angle = 0.01f, d = 0.03f;
    const Skeleton skeleton = chain(length);
    const Clip a = clipOf({rotationZ(0, 0.0f, 1.0f)});
    const Clip b = clipOf({rotationZ(0, angle, 1.0f)});
    auto e = measureClipError(skeleton, a, b);
    ASSERT_TRUE(e.ok());
    // The child's x point lies length + d from the rotation axis.
    EXPECT_NEAR(e->max, 2.0f * std::sin(0.5f * angle) * (length + d), 1e-6f);
    EXPECT_EQ(e->worstJoint, 1u);
    // A larger vertex distance measures farther points.
    auto far = measureClipError(skeleton, a, b, {0.3f, 30.0f});
    ASSERT_TRUE(far.ok());
    EXPECT_NEAR(far->max, 2.0f * std::sin(0.5f * angle) * (length + 0.3f), 1e-6f);
}

TEST(ClipError, AnErrorBetweenTheGridsInstantsIsFoundAtTheMidpoint) {
    const Skeleton skeleton = chain(0.5f);
    const float step = 1.0f / 30.0f;
    // The reference bumps up by 1 cm half-way through the first grid interval; the
    // candidate agrees with it at every grid instant.
    const Clip reference =
        clipOf({translation(0, {0.0f, 0.5f * step, step, 2.0f}, {0, 0, 0, 0, 0.01f, 0, 0, 0, 0, 0, 0, 0})});
    const Clip candidate = clipOf({translation(0, {0.0f, step, 2.0f}, {0, 0, 0, 0, 0, 0, 0, 0, 0})});
    auto e = measureClipError(skeleton, reference, candidate);
    ASSERT_TRUE(e.ok());
    EXPECT_NEAR(e->max, 0.01f, 1e-7f);
    EXPECT_NEAR(e->worstTime, 0.5f * step, 1e-6f);
    // 2 s: 121 grid instants x 6 points, and a few more where the keys lie.
    EXPECT_GT(e->measurements, 726u);
}

// Motion shorter than the grid's step shows only where the clip's keys are: a 1 m
// spike lasting 2 ms between two grid instants (0 and 1/60 s) is found at its key.
TEST(ClipError, ASpikeBetweenGridInstantsIsFoundAtItsKey) {
    const Skeleton skeleton = chain(0.5f);
    const Clip reference = clipOf(
        {translation(0, {0.0f, 0.004f, 0.005f, 0.006f, 1.0f}, {0, 0, 0, 0, 0, 0, 1.0f, 0, 0, 0, 0, 0, 0, 0, 0})});
    const Clip flat = clipOf({translation(0, {0.0f, 1.0f}, {0, 0, 0, 0, 0, 0})});
    auto e = measureClipError(skeleton, reference, flat);
    ASSERT_TRUE(e.ok());
    EXPECT_NEAR(e->max, 1.0f, 1e-6f);
    EXPECT_NEAR(e->worstTime, 0.005f, 1e-7f);
}

TEST(ClipError, RefusesAClipPastTheSkeletonAndBadOptions) {
    const Skeleton skeleton = chain(0.5f);
    const Clip ok = clipOf({translation(0, {0.0f}, {0, 0, 0})});
    const Clip tooFar = clipOf({translation(2, {0.0f}, {0, 0, 0})});
    auto e = measureClipError(skeleton, ok, tooFar);
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.faults()[0].where, "candidate");
    EXPECT_FALSE(measureClipError(skeleton, ok, ok, {0.0f, 30.0f}).ok());
    EXPECT_FALSE(measureClipError(skeleton, ok, ok, {0.03f, NAN}).ok());
}

}  // namespace
}  // namespace kinema
