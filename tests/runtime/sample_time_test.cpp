// Sampling keeps the query time in double through the key search and the
// interpolation factor, on the reference path (reference::sample) and the SIMD path
// (PackedClip + PoseKernels at every level this CPU runs): late in a one-hour clip
// the pose matches an interpolation computed in double from the float keys, and a
// STEP query a nanosecond before a key returns the previous key.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "kinema/asset/clip.hpp"
#include "kinema/runtime/packed_clip.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "kinema/runtime/sample.hpp"
#include "kinema/runtime/soa_pose.hpp"
#include "runtime/fixtures.hpp"

namespace {

using namespace kinema;

struct DQuat {
    double x, y, z, w;
};

DQuat widen(Quat q) { return {q.x, q.y, q.z, q.w}; }

// The angle between two unit quaternions as 4-vectors, b's sign taken nearer a
// (half the rotation angle between them); from the chords, accurate near 0.
double arcBetween(DQuat a, DQuat& b) {
    if (a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w < 0.0) b = {-b.x, -b.y, -b.z, -b.w};
    const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z, dw = a.w - b.w;
    const double sx = a.x + b.x, sy = a.y + b.y, sz = a.z + b.z, sw = a.w + b.w;
    return 2.0 *
        std::atan2(std::sqrt(dx * dx + dy * dy + dz * dz + dw * dw), std::sqrt(sx * sx + sy * sy + sz * sz + sw * sw));
}

// The rotation angle between two unit quaternions (either sign).
double angleBetween(DQuat a, DQuat b) { return 2.0 * arcBetween(a, b); }

// One hour at 30 keys per second on one timeline: joint 0 turns about a fixed axis
// by 0.3 sin(0.01 k) rad at key k (LINEAR), and its translation x follows sin(0.1 k)
// as a CUBICSPLINE with the matching slope as both tangents.
constexpr std::size_t kHourKeys = 3600 * 30 + 1;

Clip hourClip() {
    std::vector<float> times(kHourKeys), rotations, cubic;
    const double axis[3] = {1.0 / std::sqrt(14.0), 2.0 / std::sqrt(14.0), 3.0 / std::sqrt(14.0)};
    for (std::size_t k = 0; k < kHourKeys; ++k) {
        const double kd = static_cast<double>(k);
        times[k] = static_cast<float>(kd / 30.0);
        const double half = 0.15 * std::sin(kd * 0.01);
        rotations.insert(rotations.end(),
                         {static_cast<float>(axis[0] * std::sin(half)), static_cast<float>(axis[1] * std::sin(half)),
                          static_cast<float>(axis[2] * std::sin(half)), static_cast<float>(std::cos(half))});
        const float x = static_cast<float>(std::sin(kd * 0.1)), slope = static_cast<float>(3.0 * std::cos(kd * 0.1));
        cubic.insert(cubic.end(), {slope, 0.0f, 0.0f, x, 0.0f, 0.0f, slope, 0.0f, 0.0f});
    }
    std::vector<Track> tracks;
    tracks.push_back(test::makeTrack(0, TrackPath::Rotation, Interpolation::Linear, times, std::move(rotations)));
    tracks.push_back(test::makeTrack(0, TrackPath::Translation, Interpolation::CubicSpline, times, std::move(cubic)));
    auto clip = Clip::create("hour", std::move(tracks));
    EXPECT_TRUE(clip.ok()) << clip.message();
    return std::move(clip).value();
}

const Track& trackOf(const Clip& clip, TrackPath path) {
    for (const Track& t : clip.tracks()) {
        if (t.path == path) return t;
    }
    throw std::logic_error("no such track");
}

// What the clip holds at `time`, computed apart from the sampler: the interval by a
// walk from the nearest key, the fraction, slerp and the Hermite spline in double,
// from the clip's float keys.
struct Expected {
    DQuat rotation;
    double x;
};

Expected expectedAt(const Clip& clip, double time) {
    const Track& rot = trackOf(clip, TrackPath::Rotation);
    const std::vector<float>& times = rot.times;
    std::size_t k = static_cast<std::size_t>(time * 30.0);
    while (static_cast<double>(times[k]) > time) --k;
    while (static_cast<double>(times[k + 1]) <= time) ++k;
    const double t0 = times[k], t1 = times[k + 1], u = (time - t0) / (t1 - t0);

    const float* ka = &rot.values[k * 4];
    const float* kb = &rot.values[(k + 1) * 4];
    const DQuat a{ka[0], ka[1], ka[2], ka[3]};
    DQuat b{kb[0], kb[1], kb[2], kb[3]};
    const double omega = arcBetween(a, b), s = std::sin(omega);
    const double wa = std::sin((1.0 - u) * omega) / s, wb = std::sin(u * omega) / s;
    Expected e{{wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z, wa * a.w + wb * b.w}, 0.0};

    const Track& cub = trackOf(clip, TrackPath::Translation);
    const float* key0 = &cub.values[k * 9];  // in-tangent, value, out-tangent (x first)
    const float* key1 = key0 + 9;
    const double u2 = u * u, u3 = u2 * u, td = t1 - t0;
    e.x = (2 * u3 - 3 * u2 + 1) * key0[3] + (u3 - 2 * u2 + u) * td * key0[6] + (-2 * u3 + 3 * u2) * key1[3] +
        (u3 - u2) * td * key1[0];
    return e;
}

// The reference path at `time`, with a fresh cursor and without one (both must agree).
Transform sampledByReference(const Clip& clip, double time) {
    std::vector<Transform> withCursor(1), without(1);
    SamplingCursor cursor(clip);
    EXPECT_TRUE(reference::sample(clip, time, cursor, withCursor, {}));
    EXPECT_TRUE(reference::sample(clip, time, without, {}));
    EXPECT_EQ(withCursor[0], without[0]) << "time " << time;
    return withCursor[0];
}

TEST(SampleTime, LateInAnHourLongClipMatchesDoubleInterpolation) {
    const Clip clip = hourClip();
    const PackedClip packed(clip);
    const double times[] = {3599.987, 3599.98701, 2345.678901, 34.845};
    for (const double time : times) {
        SCOPED_TRACE("time " + std::to_string(time));
        const Expected want = expectedAt(clip, time);
        // The case tells the two apart: at the float-rounded time the pose is off.
        const Expected rounded = expectedAt(clip, static_cast<float>(time));
        if (time > 1000.0) {
            ASSERT_GT(angleBetween(rounded.rotation, want.rotation), 1e-6);
            ASSERT_GT(std::fabs(rounded.x - want.x), 1e-5);
        }

        const Transform ref = sampledByReference(clip, time);
        EXPECT_LE(angleBetween(widen(ref.rotation), want.rotation), 1e-6);
        EXPECT_NEAR(ref.translation.x, want.x, 1e-5);

        for (const test::KernelConfig& config : test::supportedKernelConfigs()) {
            SCOPED_TRACE(std::string(toString(config.level)));
            const PoseKernels kernels(config.level, config.mix);
            PackedClipCursor cursor(packed);
            SoaPose pose(1, 0);
            // A fresh cursor seeks; one a frame behind walks from its interval.
            for (const double t : {time, time - 1.0 / 60.0, time}) ASSERT_TRUE(kernels.sample(packed, t, cursor, pose));
            const Transform got = pose.joint(0);
            EXPECT_LE(angleBetween(widen(got.rotation), want.rotation), 1e-6);
            EXPECT_NEAR(got.translation.x, want.x, 1e-5);
            EXPECT_LE(angleBetween(widen(got.rotation), widen(ref.rotation)), 1e-6);
        }
    }
}

// STEP: keys at 999, 1000, 1000 + 1/3 (as float) and 1001; translation x = key index.
// A query 1 ns before the third key rounds onto it as a float (spacing 61 us there).
TEST(SampleTime, StepOneNanosecondBeforeAKeyHoldsThePreviousKey) {
    const float key = static_cast<float>(1000.0 + 1.0 / 3.0);
    std::vector<Track> tracks;
    tracks.push_back(test::makeTrack(0, TrackPath::Translation, Interpolation::Step, {999.0f, 1000.0f, key, 1001.0f},
                                     {0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 2.0f, 0.0f, 0.0f, 3.0f, 0.0f, 0.0f}));
    auto made = Clip::create("step", std::move(tracks));
    ASSERT_TRUE(made.ok()) << made.message();
    const Clip& clip = made.value();
    const PackedClip packed(clip);
    const double before = static_cast<double>(key) - 1e-9;
    ASSERT_EQ(static_cast<float>(before), key);  // a float query would land on the key

    // Each query from a fresh cursor (a seek) and after a sample in the first interval
    // (the cursor's next-interval step).
    const struct {
        double time;
        float x;
    } rows[] = {{before, 1.0f},
                {static_cast<double>(key), 2.0f},
                {std::nextafter(double(key), 2000.0), 2.0f},
                {1001.0 - 1e-9, 2.0f},
                {1001.0, 3.0f}};
    for (const auto& row : rows) {
        SCOPED_TRACE("time " + std::to_string(row.time));
        EXPECT_EQ(sampledByReference(clip, row.time).translation.x, row.x);
        std::vector<Transform> local(1);
        SamplingCursor cursor(clip);
        ASSERT_TRUE(reference::sample(clip, 999.5, cursor, local, {}));
        ASSERT_TRUE(reference::sample(clip, row.time, cursor, local, {}));
        EXPECT_EQ(local[0].translation.x, row.x);

        for (const test::KernelConfig& config : test::supportedKernelConfigs()) {
            SCOPED_TRACE(std::string(toString(config.level)));
            const PoseKernels kernels(config.level, config.mix);
            SoaPose pose(1, 0);
            PackedClipCursor fresh(packed), walked(packed);
            ASSERT_TRUE(kernels.sample(packed, row.time, fresh, pose));
            EXPECT_EQ(pose.joint(0).translation.x, row.x);
            ASSERT_TRUE(kernels.sample(packed, 999.5, walked, pose));
            ASSERT_TRUE(kernels.sample(packed, row.time, walked, pose));
            EXPECT_EQ(pose.joint(0).translation.x, row.x);
        }
    }
}

// Both interval searches on their own, from every hint: a double time is compared
// with the float keys exactly.
TEST(SampleTime, IntervalSearchesCompareTheDoubleTimeExactly) {
    const float key = static_cast<float>(1000.0 + 1.0 / 3.0);
    const std::vector<float> times{999.0f, 1000.0f, key, 1001.0f};
    std::vector<Track> tracks;
    tracks.push_back(test::makeTrack(0, TrackPath::Scale, Interpolation::Linear, times, std::vector<float>(12, 1.0f)));
    auto made = Clip::create("search", std::move(tracks));
    ASSERT_TRUE(made.ok()) << made.message();
    const PackedClip packed(made.value());
    const PackedTimeline& timeline = packed.timelines()[0];
    const struct {
        double time;
        std::uint32_t interval;
    } rows[] = {{999.0 + 1e-9, 0}, {1000.0 - 1e-9, 0},      {1000.0, 1},       {double(key) - 1e-9, 1},
                {double(key), 2},  {double(key) + 1e-9, 2}, {1001.0 - 1e-9, 2}};
    for (const auto& row : rows) {
        for (std::uint32_t start = 0; start < 3; ++start) {
            std::uint32_t hint = start;
            EXPECT_EQ(findKeyInterval(times, row.time, hint), row.interval) << row.time << " from " << start;
            hint = start;
            EXPECT_EQ(findPackedInterval(packed, timeline, row.time, hint), row.interval)
                << row.time << " from " << start;
        }
    }
}

}  // namespace
