// CUBICSPLINE import: glTF stores each key as in-tangent, value, out-tangent
// (for morph weights: all in-tangents, then all values, then all out-tangents
// of the key). Track.values (clip.hpp) keeps that order: per key `width`
// in-tangent floats, `width` value floats, `width` out-tangent floats.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "io_fixtures.hpp"
#include "kinema/io/gltf.hpp"

namespace kinema::test {
namespace {

enum Part : std::size_t { kIn = 0, kValue = 1, kOut = 2 };

const Track* findTrack(const Model& m, std::size_t clip, std::uint32_t node, TrackPath path) {
    if (clip >= m.clips.size()) return nullptr;
    for (const Track& t : m.clips[clip].tracks()) {
        if (t.target == m.jointOfNode[node] && t.path == path) return &t;
    }
    return nullptr;
}

// Index of component c of part p of key k in a cubic Track.values (clip.hpp layout).
std::size_t cubicIndex(std::size_t key, Part part, std::size_t width, std::size_t c) {
    return (key * 3 + part) * width + c;
}

TEST(CubicSpline, RotationAndTranslationOnASkinnedJoint) {
    Rig rig = makeRig();
    GltfWriter& w = rig.w;
    const std::vector<float> times = {0.0f, 0.5f, 2.0f};
    // [key][part][component]; values are not unit length on purpose: a lenient
    // import renormalises them (a strict one refuses them, spec_conformance_test).
    const double rot[3][3][4] = {
        {{0.1, -0.2, 0.3, 0.0}, {0, 0, 0, 2}, {0.0, 0.0, 0.0, 0.0}},
        {{-1, 2, -3, 4}, {0, 3, 0, 4}, {5, -6, 7, -8}},
        {{0.5, 0.25, 0.125, 0.0625}, {1, 1, 1, 1}, {-0.5, 0, 0, 9}},
    };
    const double move[3][3][3] = {
        {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}},
        {{-1, -2, -3}, {0.5, 0.25, 0.125}, {10, 20, 30}},
        {{0, 0, 0}, {100, 200, 300}, {-7, -8, -9}},
    };
    std::vector<double> rotValues, moveValues;  // glTF order: key-major, then in, value, out
    for (std::size_t k = 0; k < 3; ++k) {
        for (std::size_t p = 0; p < 3; ++p) {
            for (std::size_t c = 0; c < 4; ++c) rotValues.push_back(rot[k][p][c]);
            for (std::size_t c = 0; c < 3; ++c) moveValues.push_back(move[k][p][c]);
        }
    }
    const auto in = w.addFloats("SCALAR", times);
    const auto rotOut = w.addAccessor({.componentType = kFloat, .type = "VEC4", .values = rotValues});
    const auto moveOut = w.addAccessor({.componentType = kFloat, .type = "VEC3", .values = moveValues});
    w.addAnimation({{.input = in, .output = rotOut, .interpolation = "CUBICSPLINE"},
                    {.input = in, .output = moveOut, .interpolation = "CUBICSPLINE"}},
                   {{.sampler = 0, .node = rig.jointB, .path = "rotation"},
                    {.sampler = 1, .node = rig.jointB, .path = "translation"}},
                   "cubic");

    for (const bool glb : {false, true}) {
        SCOPED_TRACE(glb ? "glb" : "gltf");
        ImportOptions lenient;
        lenient.conformance = Conformance::Lenient;
        const auto r = importGltf(glb ? w.glbSource("cubic.glb") : w.gltfSource("cubic.gltf"), lenient);
        ASSERT_TRUE(imported(r));
        ASSERT_EQ(r.warnings().size(), 1u);
        EXPECT_EQ(r.warnings()[0].where,
                  std::string(glb ? "cubic.glb" : "cubic.gltf") + "#/accessors/" + std::to_string(rotOut));
        ASSERT_EQ(r->clips.size(), 2u);
        // jointB is a joint of the skin.
        const Skin& skin = r->skins.at(0);
        EXPECT_EQ(skin.joints, (std::vector<std::uint32_t>{r->jointOfNode[rig.jointA], r->jointOfNode[rig.jointB]}));

        const Track* q = findTrack(*r, 1, rig.jointB, TrackPath::Rotation);
        ASSERT_NE(q, nullptr);
        EXPECT_EQ(q->interpolation, Interpolation::CubicSpline);
        EXPECT_EQ(q->width, 4u);
        EXPECT_EQ(q->times, times);
        ASSERT_EQ(q->values.size(), 3u * 3u * 4u);
        for (std::size_t k = 0; k < 3; ++k) {
            double len = 0;
            for (std::size_t c = 0; c < 4; ++c) len += rot[k][kValue][c] * rot[k][kValue][c];
            len = std::sqrt(len);
            for (std::size_t c = 0; c < 4; ++c) {
                // Tangents are kept as written; the value is normalised (a rotation key is a unit quaternion).
                EXPECT_EQ(q->values[cubicIndex(k, kIn, 4, c)], static_cast<float>(rot[k][kIn][c])) << k << "," << c;
                EXPECT_NEAR(q->values[cubicIndex(k, kValue, 4, c)], rot[k][kValue][c] / len, 2e-7) << k << "," << c;
                EXPECT_EQ(q->values[cubicIndex(k, kOut, 4, c)], static_cast<float>(rot[k][kOut][c])) << k << "," << c;
            }
        }
        const Track* t = findTrack(*r, 1, rig.jointB, TrackPath::Translation);
        ASSERT_NE(t, nullptr);
        EXPECT_EQ(t->interpolation, Interpolation::CubicSpline);
        EXPECT_EQ(t->width, 3u);
        ASSERT_EQ(t->values.size(), 3u * 3u * 3u);
        for (std::size_t k = 0; k < 3; ++k) {
            for (const Part p : {kIn, kValue, kOut}) {
                for (std::size_t c = 0; c < 3; ++c) {
                    EXPECT_EQ(t->values[cubicIndex(k, p, 3, c)], static_cast<float>(move[k][p][c])) << k << "," << p;
                }
            }
        }
        EXPECT_FLOAT_EQ(r->clips[1].duration(), 2.0f);
    }
}

// Two nodes share a mesh with 3 morph targets; the second overrides the weights and is animated.
struct MorphFixture {
    GltfWriter w;
    std::uint32_t first = 0, second = 0;
    static constexpr std::size_t kTargets = 3;
};

MorphFixture makeMorph() {
    MorphFixture f;
    GltfWriter& w = f.w;
    const auto pos = w.addFloats("VEC3", {0, 0, 0, 1, 0, 0, 0, 1, 0});
    std::vector<Attributes> targets;
    for (std::size_t t = 0; t < MorphFixture::kTargets; ++t) {
        std::vector<float> d(9, 0.0f);
        d[t * 3 + t % 3] = 1.0f;
        targets.push_back({{"POSITION", w.addFloats("VEC3", d)}});
    }
    const auto mesh = w.addMesh({{.attributes = {{"POSITION", pos}}, .targets = targets}}, {0.1, 0.2, 0.3});
    f.first = w.addNode({.name = "first", .mesh = mesh});
    f.second = w.addNode({.name = "second", .mesh = mesh, .weights = {0.7, 0.8, 0.9}});
    w.addScene({f.first, f.second});
    return f;
}

// The value of target t, part p, key k: distinct everywhere so any permutation shows.
double weightValue(std::size_t k, Part p, std::size_t t) {
    return 100.0 * static_cast<double>(k) + 10.0 * static_cast<double>(static_cast<std::size_t>(p)) +
        static_cast<double>(t) + 0.5;
}

TEST(CubicSpline, MorphWeightsKeepAllInTangentsThenValuesThenOutTangents) {
    MorphFixture f = makeMorph();
    GltfWriter& w = f.w;
    constexpr std::size_t W = MorphFixture::kTargets;
    const std::vector<float> times = {0.0f, 1.0f};
    std::vector<double> out;  // glTF: per key, W in-tangents, W values, W out-tangents
    for (std::size_t k = 0; k < times.size(); ++k) {
        for (const Part p : {kIn, kValue, kOut}) {
            for (std::size_t t = 0; t < W; ++t) out.push_back(weightValue(k, p, t));
        }
    }
    const auto in = w.addFloats("SCALAR", times);
    const auto outAcc = w.addAccessor({.componentType = kFloat, .type = "SCALAR", .values = out});
    w.addAnimation({{.input = in, .output = outAcc, .interpolation = "CUBICSPLINE"}},
                   {{.sampler = 0, .node = f.second, .path = "weights"}});

    const auto r = importGltf(w.gltfSource("morph.gltf"));
    ASSERT_TRUE(imported(r));
    const Track* t = findTrack(*r, 0, f.second, TrackPath::Weights);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->interpolation, Interpolation::CubicSpline);
    EXPECT_EQ(t->width, W);
    EXPECT_EQ(t->times, times);
    ASSERT_EQ(t->values.size(), times.size() * 3 * W);
    for (std::size_t k = 0; k < times.size(); ++k) {
        for (const Part p : {kIn, kValue, kOut}) {
            for (std::size_t c = 0; c < W; ++c) {
                EXPECT_EQ(t->values[cubicIndex(k, p, W, c)], static_cast<float>(weightValue(k, p, c)))
                    << "key " << k << " part " << p << " target " << c;
            }
        }
    }
    // The track writes the animated node's own weights.
    const std::int32_t offset = r->weightOffsetOfJoint[r->jointOfNode[f.second]];
    ASSERT_GE(offset, 0);
    EXPECT_EQ(t->weightOffset, static_cast<std::uint32_t>(offset));
    ASSERT_LE(static_cast<std::size_t>(offset) + W, r->restWeights.size());
    for (std::size_t c = 0; c < W; ++c) {
        EXPECT_FLOAT_EQ(r->restWeights[static_cast<std::size_t>(offset) + c], 0.7f + 0.1f * static_cast<float>(c));
    }
    const std::int32_t firstOffset = r->weightOffsetOfJoint[r->jointOfNode[f.first]];
    ASSERT_GE(firstOffset, 0);
    for (std::size_t c = 0; c < W; ++c) {
        EXPECT_FLOAT_EQ(r->restWeights[static_cast<std::size_t>(firstOffset) + c], 0.1f + 0.1f * static_cast<float>(c));
    }
}

TEST(CubicSpline, LinearMorphWeightsAreOneScalarPerTargetPerKey) {
    MorphFixture f = makeMorph();
    GltfWriter& w = f.w;
    constexpr std::size_t W = MorphFixture::kTargets;
    const std::vector<float> times = {0.0f, 0.5f, 1.0f};
    std::vector<double> out;
    for (std::size_t k = 0; k < times.size(); ++k) {
        for (std::size_t t = 0; t < W; ++t) out.push_back(weightValue(k, kValue, t));
    }
    const auto in = w.addFloats("SCALAR", times);
    const auto outAcc = w.addAccessor({.componentType = kFloat, .type = "SCALAR", .values = out});
    w.addAnimation({{.input = in, .output = outAcc}}, {{.sampler = 0, .node = f.first, .path = "weights"}});
    const auto r = importGltf(w.gltfSource("morph.gltf"));
    ASSERT_TRUE(imported(r));
    const Track* t = findTrack(*r, 0, f.first, TrackPath::Weights);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->interpolation, Interpolation::Linear);
    ASSERT_EQ(t->values.size(), times.size() * W);
    for (std::size_t k = 0; k < times.size(); ++k) {
        for (std::size_t c = 0; c < W; ++c)
            EXPECT_EQ(t->values[k * W + c], static_cast<float>(weightValue(k, kValue, c)));
    }
}

TEST(CubicSpline, OneKeyIsRejected) {
    GltfWriter w;
    const auto node = w.addNode({});
    const auto in = w.addFloats("SCALAR", {0.0f});
    const auto out = w.addFloats("VEC3", {0, 0, 0, 1, 1, 1, 0, 0, 0});
    w.addAnimation({{.input = in, .output = out, .interpolation = "CUBICSPLINE"}},
                   {{.sampler = 0, .node = node, .path = "translation"}});
    EXPECT_TRUE(faultUnder(importGltf(w.gltfSource("c.gltf")), "c.gltf#/animations/0/channels/0"));
}

TEST(CubicSpline, OutputWithoutTangentsIsRejected) {
    GltfWriter w;
    const auto node = w.addNode({});
    const auto in = w.addFloats("SCALAR", {0.0f, 1.0f});
    const auto out = w.addFloats("VEC3", {0, 0, 0, 1, 1, 1});  // 2 elements; cubic needs 6
    w.addAnimation({{.input = in, .output = out, .interpolation = "CUBICSPLINE"}},
                   {{.sampler = 0, .node = node, .path = "translation"}});
    EXPECT_TRUE(faultAt(importGltf(w.gltfSource("c.gltf")), "c.gltf#/animations/0/samplers/0/output"));
}

TEST(CubicSpline, MorphWeightsOutputWithoutTangentsIsRejected) {
    MorphFixture f = makeMorph();
    GltfWriter& w = f.w;
    const auto in = w.addFloats("SCALAR", {0.0f, 1.0f});
    const auto out = w.addFloats("SCALAR", {0, 0, 0, 1, 1, 1});  // keys * targets; cubic needs 3x that
    w.addAnimation({{.input = in, .output = out, .interpolation = "CUBICSPLINE"}},
                   {{.sampler = 0, .node = f.first, .path = "weights"}});
    EXPECT_TRUE(faultAt(importGltf(w.gltfSource("c.gltf")), "c.gltf#/animations/0/samplers/0/output"));
}

}  // namespace
}  // namespace kinema::test
