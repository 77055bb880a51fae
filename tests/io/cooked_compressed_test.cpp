// Cooked files that store compressed clips: what is read back is the compressed
// clip that was written, field for field, and the model's clip is the one
// decompressClip rebuilds from it; cooking the read-back model with its compressed
// clips gives the same bytes; the packed clip made from the file samples as the
// one made in memory. Damaged compressed records (cut at every byte, every bit
// flipped, crafted fields behind a valid checksum) are refused with the byte or
// the track at fault.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <set>
#include <string>
#include <vector>

#include "cooked_fixtures.hpp"
#include "kinema/io/cooked.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/runtime/clip_compression.hpp"
#include "kinema/runtime/packed_clip.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "kinema/runtime/soa_pose.hpp"
#include "support/assets.hpp"
#include "support/track_builder.hpp"

namespace kinema {
namespace {

using namespace test;  // the byte helpers of cooked_fixtures.hpp

const std::string kSource = "compressed.kinc";

// Three joints and two morph weights; one clip whose joint tracks take every form
// (a smooth translation and rotation: Quantized, in segments of 8 keys; a held scale:
// Constant; a rest translation: Default; a spline line: Quantized on every 8th grid
// point; STEP keys: Exact), with morph weights, markers, a curve and a length; and a
// clip left exact.
Model makeModel() {
    Model m;
    std::vector<JointDesc> joints(3);
    joints[0] = {"root", kNoParent, {}};
    joints[1] = {"spine", 0, {{0.0f, 0.5f, 0.0f}, {}, {1.0f, 1.0f, 1.0f}}};
    joints[2] = {"head", 1, {{0.0f, 0.25f, 0.0f}, {}, {1.0f, 1.0f, 1.0f}}};
    m.skeleton = Skeleton::create(std::move(joints)).value();
    m.nodeOfJoint = {0, 1, 2};
    m.jointOfNode = {0, 1, 2};
    m.weightOffsetOfJoint = {-1, -1, 0};
    m.restWeights = {0.0f, 0.0f};

    std::vector<float> times, translation, rotation;
    for (int k = 0; k <= 24; ++k) {
        const float t = static_cast<float>(k) / 24.0f;
        const float a = 2.0f * std::numbers::pi_v<float> * t;
        times.push_back(t);
        // still for two thirds of a second, then a swing: segments pay
        const float swing = k < 16 ? 0.001f : 1.0f;
        translation.insert(translation.end(), {0.1f * swing * std::sin(a), 0.02f * swing * std::cos(a), 0.0f});
        rotation.insert(rotation.end(), {0.0f, std::sin(0.3f * std::sin(a)), 0.0f, std::cos(0.3f * std::sin(a))});
    }
    Track weights;
    weights.target = 2;
    weights.path = TrackPath::Weights;
    weights.width = 2;
    weights.times = {0.0f, 1.0f};
    weights.values = {0.0f, 1.0f, 1.0f, 0.0f};
    std::vector<Track> tracks{
        test::makeTrack(0, TrackPath::Translation, times, translation),
        test::makeTrack(1, TrackPath::Rotation, times, rotation),
        test::makeTrack(1, TrackPath::Scale, {0.0f, 1.0f}, {1.2f, 1.2f, 1.2f, 1.2f, 1.2f, 1.2f}),
        test::makeTrack(1, TrackPath::Translation, {0.0f, 1.0f}, {0.0f, 0.5f, 0.0f, 0.0f, 0.5f, 0.0f}),
        // a CUBICSPLINE line: key reduction keeps every 8th grid point
        test::makeTrack(0, TrackPath::Scale, {0.0f, 1.0f},
                        {0.1f, 0.1f, 0.1f, 1.0f, 1.0f, 1.0f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 1.1f, 1.1f, 1.1f, 0.1f,
                         0.1f, 0.1f},
                        Interpolation::CubicSpline),
        test::makeTrack(2, TrackPath::Rotation, {0.0f, 0.5f}, {0, 0, 0, 1, 0, 0, 0.6f, 0.8f}, Interpolation::Step),
        weights};
    auto walk = Clip::create("walk", std::move(tracks), {{"step", 0.5f}});
    walk = walk->withCurves({{"blink", {0.0f, 1.0f}, {0.0f, 1.0f}, Interpolation::Linear}});
    walk = walk->withLength(1.5f);
    EXPECT_TRUE(walk.ok()) << walk.message();
    m.clips.push_back(std::move(walk).value());
    m.clips.push_back(
        Clip::create("idle", {test::makeTrack(0, TrackPath::Translation, {0.0f}, {0.0f, 0.1f, 0.0f})}).value());
    return m;
}

void expectSameCompressed(const CompressedClip& got, const CompressedClip& want) {
    ASSERT_EQ(got.tracks.size(), want.tracks.size());
    EXPECT_TRUE(sameBits(got.sampleRate, want.sampleRate));
    EXPECT_EQ(got.samples, want.samples);
    EXPECT_TRUE(sameBits(got.duration, want.duration));
    EXPECT_EQ(got.segmentKeys, want.segmentKeys);
    EXPECT_TRUE(sameBits(got.error.max, want.error.max));
    EXPECT_TRUE(sameBits(got.error.p99, want.error.p99));
    EXPECT_EQ(got.error.worstJoint, want.error.worstJoint);
    EXPECT_EQ(got.error.measurements, want.error.measurements);
    for (std::size_t i = 0; i < want.tracks.size(); ++i) {
        const CompressedTrack &g = got.tracks[i], &w = want.tracks[i];
        EXPECT_EQ(g.target, w.target) << i;
        EXPECT_EQ(g.path, w.path) << i;
        EXPECT_EQ(g.form, w.form) << i;
        EXPECT_EQ(g.stride, w.stride) << i;
        ASSERT_EQ(g.segments.size(), w.segments.size()) << i;
        for (std::size_t s = 0; s < w.segments.size(); ++s) {
            EXPECT_EQ(g.segments[s].bits, w.segments[s].bits) << i << " " << s;
            EXPECT_EQ(g.segments[s].low, w.segments[s].low) << i << " " << s;
            EXPECT_EQ(g.segments[s].span, w.segments[s].span) << i << " " << s;
        }
        EXPECT_EQ(g.dropped, w.dropped) << i;
        EXPECT_TRUE(sameBits(g.constant, w.constant)) << i;
        EXPECT_TRUE(sameBits(g.minimum, w.minimum)) << i;
        EXPECT_TRUE(sameBits(g.extent, w.extent)) << i;
        EXPECT_TRUE(sameBits(g.times, w.times)) << i;
        EXPECT_EQ(g.packed, w.packed) << i;
        EXPECT_TRUE(sameBits(g.exact.times, w.exact.times)) << i;
        EXPECT_TRUE(sameBits(g.exact.values, w.exact.values)) << i;
    }
}

void expectSameClip(const Clip& got, const Clip& want) {
    EXPECT_EQ(got.name(), want.name());
    EXPECT_TRUE(sameBits(got.length(), want.length()));
    EXPECT_TRUE(sameBits(got.duration(), want.duration()));
    ASSERT_EQ(got.tracks().size(), want.tracks().size());
    for (std::size_t t = 0; t < want.tracks().size(); ++t) {
        EXPECT_EQ(got.tracks()[t].target, want.tracks()[t].target) << t;
        EXPECT_EQ(got.tracks()[t].path, want.tracks()[t].path) << t;
        EXPECT_TRUE(sameBits(got.tracks()[t].times, want.tracks()[t].times)) << t;
        EXPECT_TRUE(sameBits(got.tracks()[t].values, want.tracks()[t].values)) << t;
    }
    ASSERT_EQ(got.markers().size(), want.markers().size());
    ASSERT_EQ(got.curves().size(), want.curves().size());
}

class CookedCompressed : public ::testing::Test {
protected:
    void SetUp() override {
        model = makeModel();
        ASSERT_TRUE(findModelFaults(model).empty());
        CompressionOptions options;
        options.segmentKeys = 8;
        auto c = compressClip(model.skeleton, model.clips[0], options);
        ASSERT_TRUE(c.ok()) << c.message();
        std::size_t segmented = 0, reduced = 0;
        for (const CompressedTrack& t : c->tracks) {
            segmented += t.segments.size() > 1 ? 1u : 0u;
            reduced += t.stride > 1 ? 1u : 0u;
        }
        ASSERT_GE(segmented, 1u);
        ASSERT_EQ(reduced, 1u);
        compressed = {*c, CompressedClip{}};
        bytes = cookModel(CookedModel{model, compressed, {}}, 42);
    }
    Model model;
    std::vector<CompressedClip> compressed;
    Bytes bytes;
};

TEST_F(CookedCompressed, ReadsBackTheCompressedClipAndTheClipItPlays) {
    std::set<TrackForm> forms;
    for (const CompressedTrack& t : compressed[0].tracks) forms.insert(t.form);
    EXPECT_EQ(forms.size(), 4u) << "the fixture is meant to reach every form";
    EXPECT_LT(bytes.size(), cookModel(model, 42).size());

    auto read = readCooked(bytes, kSource);
    ASSERT_TRUE(read.ok()) << read.message();
    ASSERT_EQ(read->compressedClips.size(), 2u);
    expectSameCompressed(read->compressedClips[0], compressed[0]);
    EXPECT_TRUE(read->compressedClips[1].tracks.empty());
    auto rebuilt = decompressClip(compressed[0], model.clips[0]);
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.message();
    expectSameClip(read->model.clips[0], *rebuilt);
    expectSameClip(read->model.clips[1], model.clips[1]);
    EXPECT_EQ(read->model.clips[0].length(), 1.5f);
    EXPECT_EQ(read->model.clips[0].markers().front().name, "step");

    EXPECT_EQ(cookModel(*read, 42), bytes);
    // readCookedModel gives the same model without the compressed forms.
    auto plain = readCookedModel(bytes, kSource);
    ASSERT_TRUE(plain.ok()) << plain.message();
    expectSameModel(*plain, read->model);
}

TEST_F(CookedCompressed, EveryTruncationAndBitFlipIsRefused) { expectEveryCutAndFlipRefused(bytes, kSource); }

// Offset of a compressed clip record in the file, found by its first three fields
// (sample rate, sample count, duration), which occur nowhere else in the fixture.
std::size_t compressedRecord(const Bytes& b, const CompressedClip& c) {
    for (std::size_t at = 48; at + 8 <= b.size(); ++at) {
        if (getU32(b, at) == std::bit_cast<std::uint32_t>(c.sampleRate) && getU32(b, at + 4) == c.samples &&
            getU32(b, at + 8) == std::bit_cast<std::uint32_t>(c.duration)) {
            return at;
        }
    }
    return 0;
}

// Crafted fields behind a valid checksum reach the checks past it.
TEST_F(CookedCompressed, CraftedFieldsAreRefusedWithTheByteOrTheTrack) {
    const std::size_t record = compressedRecord(bytes, compressed[0]);
    ASSERT_NE(record, 0u);
    // Header: rate, samples, duration, segment keys, max, p99, worst joint, worst time,
    // measurements (u64), track count.
    const std::size_t firstTrack = record + 4 * 8 + 8 + 4;
    ASSERT_EQ(getU32(bytes, firstTrack - 4), compressed[0].tracks.size());
    ASSERT_EQ(getU32(bytes, firstTrack), compressed[0].tracks[0].target);

    const auto refused = [&](Bytes b, const std::string& where, const std::string& what) {
        reseal(b);
        auto read = readCooked(b, kSource);
        if (read.ok()) return ::testing::AssertionFailure() << "accepted";
        const Fault& f = read.faults().front();
        if (f.where != where || f.what.find(what) == std::string::npos)
            return ::testing::AssertionFailure() << "got " << read.message();
        return ::testing::AssertionSuccess();
    };
    Bytes b = bytes;
    b[firstTrack + 5] = std::byte{9};  // form
    EXPECT_TRUE(refused(b, kSource + "@byte " + std::to_string(firstTrack + 4), "unknown path or form"));
    b = bytes;
    b[firstTrack + 4] = std::byte{3};  // path: morph weights
    EXPECT_TRUE(refused(b, kSource + "@byte " + std::to_string(firstTrack + 4), "unknown path or form"));
    b = bytes;
    putU32(b, firstTrack - 4, 0xFFFFFFFFu);
    EXPECT_TRUE(refused(b, kSource + "@byte " + std::to_string(firstTrack - 4), "compressed track count"));
    b = bytes;
    putU32(b, record + 4, compressed[0].samples + 1);
    EXPECT_TRUE(refused(b, kSource + "#clips/0/compressed", "grid does not match"));

    b = bytes;
    putU32(b, record + 12, 12);
    EXPECT_TRUE(refused(b, kSource + "#clips/0/compressed/segmentKeys", "not 0 or a power of two"));

    // A Quantized track's stride and width, past the header checks: decompressClip's
    // faults, located in the file.
    std::size_t at = firstTrack, q = 0;
    for (; q < compressed[0].tracks.size(); ++q) {
        const CompressedTrack& t = compressed[0].tracks[q];
        if (t.form == TrackForm::Quantized) break;
        at += 8 + (t.form == TrackForm::Constant ? 12 : 0);
        ASSERT_NE(t.form, TrackForm::Exact) << "the fixture puts the quantized tracks before the exact ones";
    }
    ASSERT_LT(q, compressed[0].tracks.size());
    const std::string track = kSource + "#clips/0/compressed/tracks/" + std::to_string(q);
    b = bytes;
    b[at + 6] = std::byte{3};
    EXPECT_TRUE(refused(b, track + "/stride", "not a power of two"));
    // Header 8, ranges 24, own key times (count and floats), segment count: the first segment's bits.
    const std::size_t segment = at + 8 + 24 + 4 + 4 * compressed[0].tracks[q].times.size() + 4;
    ASSERT_EQ(getU32(bytes, segment - 4), compressed[0].tracks[q].segments.size());
    b = bytes;
    b[segment] = std::byte{25};
    EXPECT_TRUE(refused(b, track + "/segments/0/bits", "outside 1-20"));
}

// With KINEMA_WRITE_COOKED_SEEDS naming a folder, the fixture's file joins the
// cooked fuzzer's seed corpus (fuzz/cooked_corpus).
TEST_F(CookedCompressed, WriteTheFuzzerSeedWhenAsked) {
    const char* folder = std::getenv("KINEMA_WRITE_COOKED_SEEDS");
    if (folder == nullptr || *folder == '\0') GTEST_SKIP() << "KINEMA_WRITE_COOKED_SEEDS names no folder";
    std::filesystem::create_directories(folder);
    EXPECT_LT(bytes.size(), 4096u);
    std::ofstream out(std::filesystem::path(folder) / "compressed.kinc", std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    ASSERT_TRUE(out.good());
}

TEST(CookedCompressedSample, PackedFromTheFileSamplesAsPackedInMemory) {
    KINEMA_REQUIRE_ASSET(path, "CesiumMan/CesiumMan.glb");
    auto model = importGltfFile(path);
    ASSERT_TRUE(model.ok()) << model.message();
    std::vector<CompressedClip> compressed;
    for (const Clip& clip : model->clips) compressed.push_back(compressClip(model->skeleton, clip).value());
    const Bytes bytes = cookModel(CookedModel{*model, compressed, {}});
    auto read = readCooked(bytes, "CesiumMan.kinc");
    ASSERT_TRUE(read.ok()) << read.message();
    const PoseKernels kernels;
    for (std::size_t c = 0; c < model->clips.size(); ++c) {
        auto fromFile = PackedClip::fromCompressed(read->compressedClips[c], read->model.clips[c]);
        auto inMemory = PackedClip::fromCompressed(compressed[c], model->clips[c]);
        ASSERT_TRUE(fromFile.ok()) << fromFile.message();
        ASSERT_TRUE(inMemory.ok()) << inMemory.message();
        EXPECT_EQ(fromFile->byteSize(), inMemory->byteSize());
        PackedClipCursor a(*fromFile), b(*inMemory);
        const std::size_t joints = model->skeleton.jointCount();
        SoaPose pa(model->skeleton.restPose(), model->restWeights), pb(model->skeleton.restPose(), model->restWeights);
        for (double t = 0.0; t < model->clips[c].duration(); t += 0.05) {
            ASSERT_TRUE(kernels.sample(*fromFile, t, a, pa));
            ASSERT_TRUE(kernels.sample(*inMemory, t, b, pb));
            for (std::size_t k = 0; k < kSoaComponents; ++k) {
                const auto component = static_cast<SoaComponent>(k);
                for (std::size_t j = 0; j < joints; ++j)
                    ASSERT_EQ(pa.component(component)[j], pb.component(component)[j]) << t;
            }
        }
    }
}

// A clip of morph weights only compresses to no tracks: the file stores it exact, and
// the documented call packs it all the same, sampling as the clip packed in memory.
TEST(CookedCompressedSample, AClipOfMorphWeightsOnlyPacksFromTheFile) {
    KINEMA_REQUIRE_ASSET(path, "AnimatedMorphCube/AnimatedMorphCube.glb");
    auto model = importGltfFile(path);
    ASSERT_TRUE(model.ok()) << model.message();
    ASSERT_FALSE(model->clips.empty());
    std::vector<CompressedClip> compressed;
    for (const Clip& clip : model->clips) compressed.push_back(compressClip(model->skeleton, clip).value());
    ASSERT_TRUE(compressed[0].tracks.empty());
    auto read = readCooked(cookModel(CookedModel{*model, compressed, {}}), "AnimatedMorphCube.kinc");
    ASSERT_TRUE(read.ok()) << read.message();
    const PoseKernels kernels;
    auto fromFile = PackedClip::fromCompressed(read->compressedClips[0], read->model.clips[0]);
    ASSERT_TRUE(fromFile.ok()) << fromFile.message();
    const PackedClip plain(model->clips[0]);
    PackedClipCursor a(*fromFile), b(plain);
    SoaPose pa(model->skeleton.restPose(), model->restWeights), pb(model->skeleton.restPose(), model->restWeights);
    for (double t = 0.0; t < model->clips[0].duration(); t += 0.05) {
        ASSERT_TRUE(kernels.sample(*fromFile, t, a, pa));
        ASSERT_TRUE(kernels.sample(plain, t, b, pb));
        ASSERT_EQ(std::vector<float>(pa.weights().begin(), pa.weights().end()),
                  std::vector<float>(pb.weights().begin(), pb.weights().end()))
            << t;
    }
}

}  // namespace
}  // namespace kinema
