// Error-bounded clip compression: each track takes the form closed-form reasoning
// predicts (rest value: nothing; one value: a constant; steps: exact; a ramp: two
// quantized keys), the byte count is the documented one, and every clip of the shared
// sample models stays within the bound when measured (measureClipError, itself checked
// against closed forms in clip_error_test.cpp) on the clip decompressClip rebuilds.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "kinema/io/gltf.hpp"
#include "kinema/runtime/clip_compression.hpp"
#include "kinema/runtime/sample.hpp"
#include "support/assets.hpp"
#include "support/track_builder.hpp"

namespace kinema {
namespace {

Skeleton chain() {
    std::vector<JointDesc> joints(3);
    joints[0].name = "root";
    joints[1] = {"mid", 0, {}};
    joints[1].rest.translation = {0.0f, 0.5f, 0.0f};
    joints[2] = {"tip", 1, {}};
    joints[2].rest.translation = {0.0f, 0.5f, 0.0f};
    return Skeleton::create(std::move(joints)).value();
}

TEST(ClipCompression, EachTrackTakesTheFormItsValuesCallFor) {
    const Skeleton skeleton = chain();
    const Clip clip =
        Clip::create("c",
                     {
                         // mid's rest translation throughout: nothing to store
                         test::makeTrack(1, TrackPath::Translation, {0.0f, 1.0f}, {0, 0.5f, 0, 0, 0.5f, 0}),
                         // tip held at one other value
                         test::makeTrack(2, TrackPath::Translation, {0.0f, 1.0f}, {0.1f, 0.5f, 0, 0.1f, 0.5f, 0}),
                         // steps: exact
                         test::makeTrack(2, TrackPath::Scale, {0.0f, 0.5f}, {1, 1, 1, 2, 2, 2}, Interpolation::Step),
                         // a ramp of the root over 1 m
                         test::makeTrack(0, TrackPath::Translation, {0.0f, 1.0f}, {0, 0, 0, 1, 0, 0}),
                     })
            .value();
    auto compressed = compressClip(skeleton, clip);
    ASSERT_TRUE(compressed.ok()) << compressed.message();
    ASSERT_EQ(compressed->tracks.size(), 4u);
    EXPECT_EQ(compressed->tracks[0].form, TrackForm::Default);
    EXPECT_EQ(compressed->tracks[1].form, TrackForm::Constant);
    EXPECT_EQ(compressed->tracks[2].form, TrackForm::Exact);
    const CompressedTrack& ramp = compressed->tracks[3];
    ASSERT_EQ(ramp.form, TrackForm::Quantized);
    // Two keys quantize exactly to the ends of their range: the fewest bits do.
    ASSERT_EQ(ramp.segments.size(), 1u);
    EXPECT_EQ(ramp.segments[0].bits, 3);
    EXPECT_EQ(ramp.times, (std::vector<float>{0.0f, 1.0f}));
    EXPECT_EQ(ramp.packed.size(), 3u);  // 2 keys x 3 components x 3 bits = 18 bits
    // 12 clip + 4 x 4 track headers + constant 12 + exact (8 + (2 + 6) x 4) + ramp
    // (24 of ranges + 3 packed: one segment's width is in the header) + its timeline
    // once (4 + 2 x 4).
    EXPECT_EQ(compressed->byteSize(), 12u + 16u + 12u + 40u + 27u + 12u);
    EXPECT_EQ(compressed->error.max, 0.0f);

    auto rebuilt = decompressClip(*compressed, clip);
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.message();
    EXPECT_EQ(rebuilt->duration(), clip.duration());
    auto error = measureClipError(skeleton, clip, *rebuilt);
    ASSERT_TRUE(error.ok());
    EXPECT_EQ(error->max, 0.0f);
}

// Motion between the grid's instants (a 1 m spike of 2 ms, keyed at 4, 5 and 6 ms,
// where the 30 Hz grid and its midpoints look at 0 and 1/60 s) is kept: the rebuilt
// clip passes through the spike's top within the bound.
TEST(ClipCompression, ASpikeBetweenGridInstantsIsKeptWithinTheBound) {
    const Skeleton skeleton = chain();
    const Clip clip = Clip::create("spike",
                                   {test::makeTrack(0, TrackPath::Translation, {0.0f, 0.004f, 0.005f, 0.006f, 1.0f},
                                                    {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0})})
                          .value();
    auto compressed = compressClip(skeleton, clip);
    ASSERT_TRUE(compressed.ok()) << compressed.message();
    EXPECT_NE(compressed->tracks[0].form, TrackForm::Default);
    auto rebuilt = decompressClip(*compressed, clip);
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.message();
    Transform top;
    ASSERT_TRUE(reference::sampleTrack(rebuilt->tracks()[0], 0.005, top, {}));
    // The default bound: 0.01 cm for a point 3 cm from the joint, a translation moving
    // the point by as much.
    EXPECT_NEAR(top.translation.x, 1.0f, 1e-4f);
}

// A spline that swings away and back between equal keys (an S of about 1 cm within
// 10 ms, zero at its keys, at their midpoint and on the grid) is kept within the
// bound: sampled every 50 us, the rebuilt clip stays within 0.01 cm of the source.
TEST(ClipCompression, ASplineSwingingBetweenItsKeysIsKeptWithinTheBound) {
    const Skeleton skeleton = chain();
    // Per key: in-tangent, value, out-tangent; the swing's tangents are 10 m/s.
    const std::vector<float> values{0,  0, 0, 0, 0, 0, 0,  0, 0,  //
                                    0,  0, 0, 0, 0, 0, 10, 0, 0,  //
                                    10, 0, 0, 0, 0, 0, 0,  0, 0,  //
                                    0,  0, 0, 0, 0, 0, 0,  0, 0};
    const Clip clip = Clip::create("swing",
                                   {test::makeTrack(0, TrackPath::Translation, {0.0f, 0.105f, 0.115f, 1.0f}, values,
                                                    Interpolation::CubicSpline)})
                          .value();
    // The swing's top, by the Hermite with p0 = p1 = 0 and m0 = m1 = 10 m/s over 10 ms:
    // 0.01 * 10 * s (2s - 1)(s - 1) at s = 1/2 - sqrt(3)/6, 0.0962 cm.
    Transform top;
    ASSERT_TRUE(reference::sampleTrack(clip.tracks()[0], 0.105 + 0.01 * (0.5 - std::sqrt(3.0) / 6.0), top, {}));
    EXPECT_NEAR(top.translation.x, 0.1 * 0.0962250, 1e-6);
    auto compressed = compressClip(skeleton, clip);
    ASSERT_TRUE(compressed.ok()) << compressed.message();
    auto rebuilt = decompressClip(*compressed, clip);
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.message();
    ASSERT_EQ(rebuilt->tracks().size(), 1u) << "the swing was dropped as the rest value";
    double worst = 0.0;
    for (int i = 0; i <= 20000; ++i) {
        const double t = i * 5e-5;
        Transform a, b;
        ASSERT_TRUE(reference::sampleTrack(clip.tracks()[0], t, a, {}));
        ASSERT_TRUE(reference::sampleTrack(rebuilt->tracks()[0], t, b, {}));
        worst = std::max(worst, double{length(a.translation - b.translation)});
    }
    EXPECT_LE(worst, 1e-4 * 1.001) << "worst translation error " << worst << " m";
    EXPECT_NE(compressed->tracks[0].form, TrackForm::Default);  // not taken for the rest value it meets at its keys
}

TEST(ClipCompression, AFineRampOnTheGridNeedsTheBitsItsRangeCallsFor) {
    const Skeleton skeleton = chain();
    // A ramp with a key every 1/30 s bent at every key: its own keys are the grid.
    std::vector<float> times, values;
    for (int k = 0; k <= 30; ++k) {
        times.push_back(static_cast<float>(k) / 30.0f);
        const float x = (k % 2 == 0 ? 1.0f : 0.9f) * static_cast<float>(k) / 30.0f;
        values.insert(values.end(), {x, 0.0f, 0.0f});
    }
    const Clip clip = Clip::create("c", {test::makeTrack(0, TrackPath::Translation, times, values)}).value();
    CompressionOptions options;
    auto compressed = compressClip(skeleton, clip, options);
    ASSERT_TRUE(compressed.ok());
    const CompressedTrack& t = compressed->tracks[0];
    ASSERT_EQ(t.form, TrackForm::Quantized);
    // Rounding to the nearest of 2^b - 1 steps over an extent of 1 m errs by at most
    // half a step, which must stay within half the bound: (2^b - 1) >= 1 / 1e-4.
    const int needed = static_cast<int>(std::ceil(std::log2(1.0 / 1e-4 + 1.0)));
    for (const QuantizedSegment& s : t.segments) EXPECT_LE(s.bits, needed);
    EXPECT_LE(compressed->error.max, options.maxError);
}

TEST(ClipCompression, ARotationNearAHalfTurnRebuildsTheComponentFarthestFromZero) {
    const Skeleton skeleton = chain();
    // About x from 3.0 to 3.1 rad: w is 0.07 to 0.02, x nearly 1.
    std::vector<float> times, values;
    for (int k = 0; k <= 30; ++k) {
        const float a = 3.0f + 0.1f * static_cast<float>(k * k) / 900.0f;
        times.push_back(static_cast<float>(k) / 30.0f);
        values.insert(values.end(), {std::sin(0.5f * a), 0.0f, 0.0f, std::cos(0.5f * a)});
    }
    const Clip clip = Clip::create("c", {test::makeTrack(0, TrackPath::Rotation, times, values)}).value();
    auto compressed = compressClip(skeleton, clip);
    ASSERT_TRUE(compressed.ok());
    const CompressedTrack& t = compressed->tracks[0];
    ASSERT_EQ(t.form, TrackForm::Quantized);
    EXPECT_EQ(t.dropped, 0);  // x
    EXPECT_LE(compressed->error.max, 1e-4f);
}

// A whole turn about z takes every component through 0: the one rebuilt is one that
// moves (z or w), never x or y, which are 0 throughout and would come back as the
// square root of rounding error, tilting the spin.
TEST(ClipCompression, AWholeTurnRebuildsAComponentThatMoves) {
    const Skeleton skeleton = chain();
    std::vector<float> times, values;
    for (int k = 0; k <= 60; ++k) {
        const float a = 6.2831853f * static_cast<float>(k) / 60.0f;
        times.push_back(static_cast<float>(k) / 30.0f);
        values.insert(values.end(), {0.0f, 0.0f, std::sin(0.5f * a), std::cos(0.5f * a)});
    }
    const Clip clip = Clip::create("spin", {test::makeTrack(0, TrackPath::Rotation, times, values)}).value();
    auto compressed = compressClip(skeleton, clip);
    ASSERT_TRUE(compressed.ok());
    const CompressedTrack& t = compressed->tracks[0];
    ASSERT_EQ(t.form, TrackForm::Quantized);
    EXPECT_TRUE(t.dropped == 2 || t.dropped == 3) << int(t.dropped);
    auto rebuilt = decompressClip(*compressed, clip);
    ASSERT_TRUE(rebuilt.ok());
    const Track& r = rebuilt->tracks()[0];
    for (std::size_t k = 0; k < r.times.size(); ++k) {
        EXPECT_EQ(r.values[k * 4 + 0], 0.0f) << k;  // no tilt about x
        EXPECT_EQ(r.values[k * 4 + 1], 0.0f) << k;  // nor about y
    }
}

// A CUBICSPLINE track whose tangents make it the line x = t (so its own keys are not
// a candidate) loses nothing at any stride of the grid: with strides up to 8 it keeps
// every 8th grid point and the last, 5 keys for 31, within the bound.
TEST(ClipCompression, KeyReductionKeepsEveryStrideThGridPointOfASmoothTrack) {
    const Skeleton skeleton = chain();
    std::vector<float> times, values;
    for (int k = 0; k <= 30; ++k) {
        const float t = static_cast<float>(k) / 30.0f;
        times.push_back(t);
        // in-tangent, value, out-tangent: the slope 1 makes the spline the line x = t
        values.insert(values.end(), {1.0f, 0.0f, 0.0f, t, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f});
    }
    Track ramp = test::makeTrack(0, TrackPath::Translation, times, values, Interpolation::CubicSpline);
    const Clip clip = Clip::create("c", {ramp}).value();
    CompressionOptions options;
    options.maxStride = 8;
    const CompressedClip reduced = compressClip(skeleton, clip, options).value();
    const CompressedTrack& t = reduced.tracks[0];
    ASSERT_EQ(t.form, TrackForm::Quantized);
    EXPECT_EQ(t.stride, 8);
    EXPECT_TRUE(t.times.empty());
    const std::vector<float> keys = quantizedTimes(reduced, t);
    ASSERT_EQ(keys.size(), 5u);
    EXPECT_FLOAT_EQ(keys[1], 8.0f / 30.0f);
    EXPECT_FLOAT_EQ(keys[4], 1.0f);
    EXPECT_LE(reduced.error.max, options.maxError);

    options.maxStride = 1;
    const CompressedClip full = compressClip(skeleton, clip, options).value();
    EXPECT_EQ(full.tracks[0].stride, 1);
    EXPECT_EQ(quantizedTimes(full, full.tracks[0]).size(), 31u);
    EXPECT_LT(reduced.byteSize(), full.byteSize());
}

// A track that barely moves for its first 16 keys, then ramps over 1 m: one range over
// the track needs 1 / (2^b - 1) <= 1e-4 (b >= 14), while the first segment's range
// is one 255th of the track's (about 3.9 mm), where 1 / 255 / (2^b - 1) <= 1e-4
// takes b >= 6. Segments of 16 keys win.
TEST(ClipCompression, SegmentsGiveAQuietStretchItsOwnNarrowRangeAndFewBits) {
    const Skeleton skeleton = chain();
    std::vector<float> times, values;
    for (int k = 0; k <= 60; ++k) {
        times.push_back(static_cast<float>(k) / 30.0f);
        const float x = k < 16 ? 0.001f * std::sin(static_cast<float>(k)) : static_cast<float>(k - 15) / 45.0f;
        values.insert(values.end(), {x, 0.0f, 0.0f});
    }
    const Clip steps = Clip::create("c", {test::makeTrack(0, TrackPath::Translation, times, values)}).value();
    CompressionOptions options;
    options.maxStride = 1;
    const CompressedClip segmented = compressClip(skeleton, steps, options).value();
    const CompressedTrack& t = segmented.tracks[0];
    ASSERT_EQ(t.form, TrackForm::Quantized);
    ASSERT_EQ(t.segments.size(), 4u);  // 61 keys, 16 a segment
    EXPECT_EQ(segmented.segmentKeys, 16u);
    EXPECT_LE(t.segments[0].span[0], 2);
    EXPECT_LE(t.segments[0].bits, 8);
    EXPECT_GE(t.segments[1].bits, 12);
    EXPECT_LE(segmented.error.max, options.maxError);

    options.segmentKeys = 0;
    const CompressedClip whole = compressClip(skeleton, steps, options).value();
    ASSERT_EQ(whole.tracks[0].segments.size(), 1u);
    EXPECT_GE(whole.tracks[0].segments[0].bits, 14);
    EXPECT_LT(segmented.byteSize(), whole.byteSize());
    EXPECT_LE(whole.error.max, options.maxError);

    // What decompressClip rebuilds is what the segments' integers and ranges say.
    const Clip rebuilt = decompressClip(segmented, steps).value();
    const std::vector<std::uint32_t> integers = quantizedIntegers(segmented, t);
    ASSERT_EQ(integers.size(), 61u * 3u);
    const Track& x = rebuilt.tracks()[0];
    for (std::size_t k = 0; k < 61; ++k) {
        const std::size_t s = segmentOfKey(segmented, t, k);
        EXPECT_EQ(s, k / 16);
        const SegmentRange r = segmentRange(t, s);
        const float step = r.extent[0] / static_cast<float>((1u << t.segments[s].bits) - 1u);
        EXPECT_NEAR(x.values[3 * k], r.minimum[0] + step * static_cast<float>(integers[3 * k]), 1e-6f) << k;
        EXPECT_NEAR(x.values[3 * k], values[3 * k], 1e-4f) << k;
    }
}

class CompressedSample : public ::testing::TestWithParam<const char*> {};

TEST_P(CompressedSample, EveryClipStaysWithinTheBound) {
    KINEMA_REQUIRE_ASSET(path, GetParam());
    auto model = importGltfFile(path);
    ASSERT_TRUE(model.ok()) << model.message();
    for (const Clip& clip : model->clips) {
        SCOPED_TRACE(std::string(clip.name()));
        CompressionOptions options;  // 0.01 cm, 3 cm vertices, 30 Hz
        auto compressed = compressClip(model->skeleton, clip, options);
        ASSERT_TRUE(compressed.ok()) << compressed.message();
        auto rebuilt = decompressClip(*compressed, clip);
        ASSERT_TRUE(rebuilt.ok()) << rebuilt.message();
        auto error = measureClipError(model->skeleton, clip, *rebuilt);
        ASSERT_TRUE(error.ok());
        EXPECT_LE(error->max, options.maxError);
        EXPECT_EQ(error->max, compressed->error.max);
        EXPECT_EQ(rebuilt->markers().size(), clip.markers().size());
        EXPECT_EQ(rebuilt->duration(), clip.duration());
    }
}

INSTANTIATE_TEST_SUITE_P(SharedModels, CompressedSample,
                         ::testing::Values("CesiumMan/CesiumMan.glb", "RiggedFigure/RiggedFigure.glb",
                                           "RiggedSimple/RiggedSimple.glb", "BoxAnimated/BoxAnimated.glb",
                                           "InterpolationTest/InterpolationTest.glb", "SimpleSkin/SimpleSkin.gltf",
                                           "AnimatedCube/AnimatedCube.gltf"));

TEST(ClipCompression, RefusesBadOptionsAndAForeignClip) {
    const Skeleton skeleton = chain();
    const Clip clip = Clip::create("c", {test::makeTrack(0, TrackPath::Translation, {0.0f}, {0, 0, 0})}).value();
    EXPECT_FALSE(compressClip(skeleton, clip, {0.0f, 0.03f, 30.0f}).ok());
    EXPECT_FALSE(compressClip(skeleton, clip, {1e-4f, NAN, 30.0f}).ok());
    EXPECT_FALSE(compressClip(skeleton, clip, {1e-4f, 0.03f, -1.0f}).ok());
    EXPECT_FALSE(compressClip(skeleton, clip, {1e-4f, 0.03f, 30.0f, 12}).ok());
    EXPECT_FALSE(compressClip(skeleton, clip, {1e-4f, 0.03f, 30.0f, 1}).ok());
    EXPECT_FALSE(compressClip(skeleton, clip, {1e-4f, 0.03f, 30.0f, 512}).ok());
    EXPECT_FALSE(compressClip(skeleton, clip, {1e-4f, 0.03f, 30.0f, 16, 0}).ok());
    EXPECT_FALSE(compressClip(skeleton, clip, {1e-4f, 0.03f, 30.0f, 16, 3}).ok());
    EXPECT_FALSE(compressClip(skeleton, clip, {1e-4f, 0.03f, 30.0f, 16, 128}).ok());
    EXPECT_TRUE(compressClip(skeleton, clip, {1e-4f, 0.03f, 30.0f, 0, 1}).ok());
    const Clip far = Clip::create("c", {test::makeTrack(5, TrackPath::Translation, {0.0f}, {0, 0, 0})}).value();
    EXPECT_FALSE(compressClip(skeleton, far).ok());
    // 10 hours at 30 Hz is past the 1,000,000 grid samples a compressed clip may have:
    // refused here, not when read back. At 1 Hz it is well within.
    const Clip tenHours =
        Clip::create("long", {test::makeTrack(0, TrackPath::Translation, {0.0f, 36000.0f}, {0, 0, 0, 1, 0, 0})})
            .value();
    const auto refused = compressClip(skeleton, tenHours);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(
        refused.message(),
        "clip: lasts 36000 s: at 30 Hz its grid passes 1000000 samples (store it exact, or sample it less often)");
    EXPECT_TRUE(compressClip(skeleton, tenHours, {1e-4f, 0.03f, 1.0f}).ok());
}

// Keys spread wider than a float holds (3e38 and -3e38) have no range to quantize:
// the track is stored exact, and reads back to the same keys.
TEST(ClipCompression, ValuesSpreadWiderThanAFloatHoldsStayExact) {
    const Skeleton skeleton = chain();
    const Clip clip =
        Clip::create("huge", {test::makeTrack(0, TrackPath::Translation, {0.0f, 1.0f}, {3e38f, 0, 0, -3e38f, 0, 0})})
            .value();
    auto compressed = compressClip(skeleton, clip);
    ASSERT_TRUE(compressed.ok()) << compressed.message();
    EXPECT_EQ(compressed->tracks[0].form, TrackForm::Exact);
    auto rebuilt = decompressClip(*compressed, clip);
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.message();
    EXPECT_EQ(rebuilt->tracks()[0].values, clip.tracks()[0].values);
}

}  // namespace
}  // namespace kinema
