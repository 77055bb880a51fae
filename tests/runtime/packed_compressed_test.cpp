// Compressed clips on the SIMD path: PackedClip::fromCompressed keeps each Quantized
// track's bits and the kernels decode them as they interpolate. At every instruction
// set this CPU runs, sampling must give what the scalar reference sampler gives on
// the clip decompressClip rebuilds (a different route: bits read one at a time,
// dequantized and interpolated in scalar code), forward, at random seeks and at every
// grid time; it must blend over a pose exactly as sampling then blending does; and
// the packed clip must be smaller than the packed exact clip.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "kinema/asset/clip.hpp"
#include "kinema/asset/skeleton.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/runtime/clip_compression.hpp"
#include "kinema/runtime/packed_clip.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "kinema/runtime/sample.hpp"
#include "kinema/runtime/soa_pose.hpp"
#include "runtime/fixtures.hpp"
#include "support/assets.hpp"
#include "support/track_builder.hpp"

namespace kinema {
namespace {

constexpr std::size_t kJoints = 20;
constexpr float kDuration = 2.0f;

Skeleton chainOf(std::size_t joints) {
    std::vector<JointDesc> desc(joints);
    for (std::size_t j = 0; j < joints; ++j) {
        desc[j].name.assign(1, static_cast<char>('a' + j));  // joints <= 26
        desc[j].parent = static_cast<std::int32_t>(j) - 1;
        if (j > 0) desc[j].rest.translation = {0.0f, 0.1f, 0.0f};
    }
    return Skeleton::create(std::move(desc)).value();
}

std::vector<float> timesEvery(float step, float end) {
    std::vector<float> t;
    for (int k = 0; static_cast<float>(k) * step <= end + 1e-6f; ++k) t.push_back(static_cast<float>(k) * step);
    return t;
}

Quat axisAngle(Vec3 axis, float angle) {
    const float s = std::sin(0.5f * angle) / length(axis);
    return {axis.x * s, axis.y * s, axis.z * s, std::cos(0.5f * angle)};
}

// A clip whose tracks call for every form: smooth motion (Quantized on the grid),
// a three-key LINEAR ramp (Quantized at its own keys or on the grid), a held
// non-rest value (Constant), the rest value (Default), STEP keys (Exact), rotations
// about x, y and z near a half turn (each rebuilding another component), and morph
// weights (kept exact). With `moving`, every joint moves on every path (the clip
// covers the pose, as blending over it needs).
Clip formsClip(bool moving) {
    std::vector<Track> tracks;
    const std::vector<float> dense = timesEvery(1.0f / 60.0f, kDuration);
    const Vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (std::uint32_t j = 0; j < kJoints; ++j) {
        const float phase = 0.37f * static_cast<float>(j);
        std::vector<float> translation, rotation, scale;
        for (const float t : dense) {
            const float w = 2.0f * std::numbers::pi_v<float> * t / kDuration + phase;
            translation.insert(translation.end(), {0.05f * std::sin(w), 0.1f + 0.02f * std::cos(w), 0.01f * t});
            const Quat q = j % 5 == 3 ? axisAngle(axes[j % 3], 3.0f + 0.1f * std::sin(w))
                                      : axisAngle(Vec3{std::sin(w), 1.0f, std::cos(w)}, 0.8f * std::sin(w));
            rotation.insert(rotation.end(), {q.x, q.y, q.z, q.w});
            scale.insert(scale.end(), {1.0f + 0.1f * std::sin(w), 1.0f, 1.0f - 0.05f * std::cos(w)});
        }
        switch (moving ? 0 : j % 5) {
            case 1: {  // held rotation, ramped translation, rest scale
                const Quat q = axisAngle({0, 0, 1}, 0.5f);
                tracks.push_back(test::makeTrack(j, TrackPath::Rotation, {0.0f, kDuration},
                                                 {q.x, q.y, q.z, q.w, q.x, q.y, q.z, q.w}));
                tracks.push_back(test::makeTrack(j, TrackPath::Translation, {0.0f, 0.7f, kDuration},
                                                 {0.0f, 0.1f, 0.0f, 0.2f, 0.1f, 0.0f, 0.2f, 0.3f, -0.1f}));
                tracks.push_back(test::makeTrack(j, TrackPath::Scale, {0.0f, kDuration}, {1, 1, 1, 1, 1, 1}));
                break;
            }
            case 2: {  // STEP rotation keys, rest translation
                const Quat a = axisAngle({1, 0, 0}, 0.3f), b = axisAngle({0, 1, 0}, -0.6f);
                tracks.push_back(test::makeTrack(j, TrackPath::Rotation, {0.0f, 0.9f, 1.5f},
                                                 {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, a.x, a.y, a.z, a.w},
                                                 Interpolation::Step));
                tracks.push_back(test::makeTrack(j, TrackPath::Translation, {0.0f, 1.0f}, {0, 0.1f, 0, 0, 0.1f, 0}));
                break;
            }
            default:
                tracks.push_back(test::makeTrack(j, TrackPath::Translation, dense, std::move(translation)));
                tracks.push_back(test::makeTrack(j, TrackPath::Rotation, dense, std::move(rotation)));
                tracks.push_back(test::makeTrack(j, TrackPath::Scale, dense, std::move(scale)));
                break;
        }
    }
    std::vector<float> weights;
    for (const float t : dense) weights.insert(weights.end(), {t / kDuration, 1.0f - t / kDuration});
    Track morph = test::makeTrack(0, TrackPath::Weights, dense, std::move(weights));
    morph.width = 2;
    tracks.push_back(std::move(morph));
    auto clip = Clip::create("forms", std::move(tracks));
    EXPECT_TRUE(clip.ok()) << clip.message();
    return std::move(clip).value();
}

// Forward at 60 Hz from before the start to past the end, random seeks, and every
// grid time and midpoint exactly.
std::vector<double> sampleTimes(float duration, std::uint32_t seed) {
    std::vector<double> times;
    for (double t = -0.2; t < duration + 0.3; t += 1.0 / 60.0) times.push_back(t);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> any(0.0, duration);
    for (int i = 0; i < 200; ++i) times.push_back(any(rng));
    for (double t = 0.0; t <= duration; t += 1.0 / 60.0) times.push_back(static_cast<float>(t));
    return times;
}

// Every component within `tolerance` of the reference (relative above 1), rotations
// after sign alignment.
void expectSamePose(const SoaPose& got, std::span<const Transform> want, std::span<const float> wantWeights,
                    double time, float tolerance) {
    for (std::size_t j = 0; j < want.size(); ++j) {
        const Transform g = got.joint(j), w = want[j];
        const float gv[] = {g.translation.x, g.translation.y, g.translation.z, g.scale.x, g.scale.y, g.scale.z};
        const float wv[] = {w.translation.x, w.translation.y, w.translation.z, w.scale.x, w.scale.y, w.scale.z};
        for (int c = 0; c < 6; ++c) {
            ASSERT_LE(std::fabs(gv[c] - wv[c]), tolerance * std::max(1.0f, std::fabs(wv[c])))
                << "joint " << j << " component " << c << " t " << time;
        }
        const float s = dot(g.rotation, w.rotation) < 0.0f ? -1.0f : 1.0f;
        const float gq[] = {g.rotation.x, g.rotation.y, g.rotation.z, g.rotation.w};
        const float wq[] = {w.rotation.x, w.rotation.y, w.rotation.z, w.rotation.w};
        for (int c = 0; c < 4; ++c) {
            ASSERT_LE(std::fabs(s * gq[c] - wq[c]), tolerance) << "joint " << j << " rotation " << c << " t " << time;
        }
    }
    for (std::size_t i = 0; i < wantWeights.size(); ++i) {
        ASSERT_LE(std::fabs(got.weights()[i] - wantWeights[i]), tolerance) << "weight " << i << " t " << time;
    }
}

// Samples `compressed` packed against the reference sampler on the rebuilt clip.
void expectPackedMatchesRebuilt(const PoseKernels& kernels, const Skeleton& skeleton, const Clip& source,
                                const CompressedClip& compressed, std::size_t weightCount) {
    auto packed = PackedClip::fromCompressed(compressed, source);
    ASSERT_TRUE(packed.ok()) << packed.message();
    auto rebuilt = decompressClip(compressed, source);
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.message();
    PackedClipCursor cursor(*packed);
    const std::vector<Transform> rest(skeleton.restPose().begin(), skeleton.restPose().end());
    const std::vector<float> restWeights(weightCount, 0.0f);
    for (const double t : sampleTimes(std::max(source.duration(), 0.1f), 7)) {
        SoaPose pose(rest, restWeights);
        std::vector<Transform> want(rest);
        std::vector<float> wantWeights(restWeights);
        ASSERT_TRUE(kernels.sample(*packed, t, cursor, pose));
        ASSERT_TRUE(reference::sample(*rebuilt, t, want, wantWeights));
        expectSamePose(pose, want, wantWeights, t, 2e-6f);
    }
}

class CompressedKernels : public ::testing::TestWithParam<test::KernelConfig> {
protected:
    PoseKernels kernels{GetParam().level, GetParam().mix};
};

TEST_P(CompressedKernels, SamplingMatchesTheReferenceOnTheRebuiltClip) {
    const Skeleton skeleton = chainOf(kJoints);
    const Clip clip = formsClip(false);
    auto compressed = compressClip(skeleton, clip);
    ASSERT_TRUE(compressed.ok()) << compressed.message();
    // The fixture is meant to reach every form and several rebuilt components.
    std::set<TrackForm> forms;
    std::set<int> dropped;
    for (const CompressedTrack& t : compressed->tracks) {
        forms.insert(t.form);
        if (t.form == TrackForm::Quantized && t.path == TrackPath::Rotation) dropped.insert(t.dropped);
    }
    EXPECT_EQ(forms.size(), 4u);
    EXPECT_GE(dropped.size(), 3u);
    expectPackedMatchesRebuilt(kernels, skeleton, clip, *compressed, 2);
}

// Segments of 4 and 16 keys (an interval then often ends in the next segment, whose
// scales the kernels must switch to) and key reduction's strides: at 0.1 cm the
// fixture takes both.
TEST_P(CompressedKernels, SegmentedAndReducedTracksMatchTheReference) {
    const Skeleton skeleton = chainOf(kJoints);
    const Clip clip = formsClip(false);
    for (const std::uint32_t segmentKeys : {4u, 16u}) {
        SCOPED_TRACE(segmentKeys);
        CompressionOptions options;
        options.maxError = 1e-3f;
        options.segmentKeys = segmentKeys;
        options.maxStride = 64;
        auto compressed = compressClip(skeleton, clip, options);
        ASSERT_TRUE(compressed.ok()) << compressed.message();
        std::size_t segmented = 0, whole = 0;
        std::set<int> strides;
        for (const CompressedTrack& t : compressed->tracks) {
            if (t.form != TrackForm::Quantized) continue;
            (t.segments.size() > 1 ? segmented : whole) += 1;
            strides.insert(t.stride);
        }
        EXPECT_GE(segmented, 1u);
        EXPECT_GE(whole, 1u);
        EXPECT_GE(strides.size(), 3u);
        expectPackedMatchesRebuilt(kernels, skeleton, clip, *compressed, 2);
    }
}

TEST_P(CompressedKernels, SamplingOverAPoseIsSamplingThenBlendingBitForBit) {
    const Skeleton skeleton = chainOf(kJoints);
    const Clip clip = formsClip(true);
    auto compressed = compressClip(skeleton, clip);
    ASSERT_TRUE(compressed.ok()) << compressed.message();
    auto packed = PackedClip::fromCompressed(*compressed, clip);
    ASSERT_TRUE(packed.ok()) << packed.message();
    ASSERT_TRUE(packed->coversPose(kJoints, 2));
    std::mt19937 rng(3);
    const auto base = test::randomTransforms(kJoints, rng);
    const std::vector<float> baseWeights{0.3f, 0.6f};
    PackedClipCursor fused(*packed), apart(*packed);
    for (const double t : {0.0, 0.26, 1.013, 1.99}) {
        SoaPose over(base, baseWeights), sampled(base, baseWeights), blended(base, baseWeights);
        const SoaPose under(base, baseWeights);
        ASSERT_TRUE(kernels.sampleOver(*packed, t, fused, 0.4f, nullptr, over));
        ASSERT_TRUE(kernels.sample(*packed, t, apart, sampled));
        ASSERT_TRUE(kernels.blend(under, sampled, 0.4f, blended));
        for (std::size_t c = 0; c < kSoaComponents; ++c) {
            const auto component = static_cast<SoaComponent>(c);
            for (std::size_t j = 0; j < kJoints; ++j) {
                ASSERT_EQ(over.component(component)[j], blended.component(component)[j]) << c << " " << j << " " << t;
            }
        }
        EXPECT_EQ(over.weights()[0], blended.weights()[0]);
        EXPECT_EQ(over.weights()[1], blended.weights()[1]);
    }
}

TEST_P(CompressedKernels, SharedModelClipsMatchTheReference) {
    for (const char* name : {"CesiumMan/CesiumMan.glb", "RiggedFigure/RiggedFigure.glb", "BoxAnimated/BoxAnimated.glb",
                             "SimpleSkin/SimpleSkin.gltf", "AnimatedCube/AnimatedCube.gltf"}) {
        SCOPED_TRACE(name);
        KINEMA_REQUIRE_ASSET(path, name);
        auto model = importGltfFile(path);
        ASSERT_TRUE(model.ok()) << model.message();
        for (const Clip& clip : model->clips) {
            auto compressed = compressClip(model->skeleton, clip);
            ASSERT_TRUE(compressed.ok()) << compressed.message();
            expectPackedMatchesRebuilt(kernels, model->skeleton, clip, *compressed, model->weightCount());
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Kernels, CompressedKernels, ::testing::ValuesIn(test::supportedKernelConfigs()),
                         test::kernelConfigName);

TEST(PackedCompressedClip, TakesAFractionOfTheExactClipsMemory) {
    KINEMA_REQUIRE_ASSET(path, "CesiumMan/CesiumMan.glb");
    auto model = importGltfFile(path);
    ASSERT_TRUE(model.ok()) << model.message();
    const Clip& clip = model->clips.front();
    auto compressed = compressClip(model->skeleton, clip);
    ASSERT_TRUE(compressed.ok());
    auto packed = PackedClip::fromCompressed(*compressed, clip);
    ASSERT_TRUE(packed.ok());
    const PackedClip exact(clip);
    // The compressed stream is about a ninth of the raw samples; with its per-lane
    // tables and seek index the packed form stays under a third of the exact one.
    EXPECT_LT(packed->byteSize() * 3, exact.byteSize());
    EXPECT_EQ(packed->name(), clip.name());
    EXPECT_EQ(packed->duration(), clip.duration());
}

TEST(PackedCompressedClip, MalformedCompressedClipsAreRefusedWithTheTrack) {
    const Skeleton skeleton = chainOf(kJoints);
    const Clip clip = formsClip(false);
    const CompressedClip good = compressClip(skeleton, clip).value();
    std::size_t q = 0;
    while (good.tracks[q].form != TrackForm::Quantized) ++q;
    std::string at = "compressed/tracks/";
    at += std::to_string(q);
    const auto refused = [&](CompressedClip bad, const std::string& where) {
        auto packed = PackedClip::fromCompressed(bad, clip);
        ASSERT_FALSE(packed.ok());
        EXPECT_NE(packed.message().find(where), std::string::npos) << packed.message();
    };
    CompressedClip bad = good;
    bad.tracks[q].segments[0].bits = 0;
    refused(bad, at + "/segments/0/bits");
    bad = good;
    bad.tracks[q].segments[0].bits = 21;
    refused(bad, at + "/segments/0/bits");
    bad = good;
    bad.tracks[q].segments[0].low[1] = 200;
    bad.tracks[q].segments[0].span[1] = 56;
    refused(bad, at + "/segments/0/span");
    bad = good;
    bad.tracks[q].segments.push_back(bad.tracks[q].segments[0]);
    refused(bad, at + "/segments");
    bad = good;
    bad.tracks[q].stride = 3;
    refused(bad, at + "/stride");
    bad = good;
    bad.segmentKeys = 12;
    refused(bad, "compressed/segmentKeys");
    bad = good;
    bad.tracks[q].packed.pop_back();
    refused(bad, at + "/packed");
    bad = good;
    bad.tracks[q].minimum.pop_back();
    refused(bad, at + "/minimum");
    bad = good;
    bad.tracks[q].extent[1] = std::nanf("");
    refused(bad, at + "/minimum");
    bad = good;
    bad.tracks[q].dropped = 4;
    refused(bad, at + "/dropped");
    bad = good;
    bad.samples += 1;
    refused(bad, "grid");
    bad = good;
    bad.sampleRate = -30.0f;
    refused(bad, "sample rate");
    // A rotation's stored range within [-1, 1], as a unit quaternion's components are.
    std::size_t r = 0;
    while (r < good.tracks.size() &&
           (good.tracks[r].form != TrackForm::Quantized || good.tracks[r].path != TrackPath::Rotation))
        ++r;
    ASSERT_LT(r, good.tracks.size());
    const std::string rotationAt = "compressed/tracks/" + std::to_string(r) + "/minimum";
    bad = good;
    bad.tracks[r].minimum[0] = -2e38f;
    refused(bad, rotationAt);
    bad = good;
    bad.tracks[r].extent[2] = 3.0f;
    refused(bad, rotationAt);
    bad = good;
    bad.tracks[r].extent[1] = -0.5f;
    refused(bad, rotationAt);
}

}  // namespace
}  // namespace kinema
