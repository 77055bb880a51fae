// Sampling a clip: glTF boundaries, exact keys, STEP / LINEAR /
// CUBICSPLINE against hand formulas, morph weights, untouched properties, the
// cursor against the cursorless sampler, and the O(1) output checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <random>
#include <vector>

#include "kinema/asset/clip.hpp"
#include "kinema/asset/model.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/sample.hpp"
#include "math/reference.hpp"
#include "runtime/fixtures.hpp"

namespace {

using kinema::Clip;
using kinema::Interpolation;
using kinema::Quat;
using kinema::SamplingCursor;
using kinema::Track;
using kinema::TrackPath;
using kinema::Transform;
using kinema::Vec3;
using kinema::test::makeTrack;

Clip makeClip(std::vector<Track> tracks) {
    auto r = Clip::create("test", std::move(tracks));
    EXPECT_TRUE(r.ok()) << r.message();
    return std::move(r).value();
}

// The floats a sample wrote for track `t` (its path on its target, or its weights).
std::vector<float> written(const Track& t, std::span<const Transform> local, std::span<const float> weights) {
    const Transform& x = local[t.target];
    switch (t.path) {
        case TrackPath::Translation: return {x.translation.x, x.translation.y, x.translation.z};
        case TrackPath::Scale: return {x.scale.x, x.scale.y, x.scale.z};
        case TrackPath::Rotation: return {x.rotation.x, x.rotation.y, x.rotation.z, x.rotation.w};
        case TrackPath::Weights:
            return std::vector<float>(weights.begin() + t.weightOffset, weights.begin() + t.weightOffset + t.width);
    }
    return {};
}

// The stored value of key k (the value part of a cubic key).
std::vector<float> storedKey(const Track& t, std::size_t k) {
    const std::size_t w = t.width;
    const std::size_t at = t.interpolation == Interpolation::CubicSpline ? (k * 3 + 1) * w : k * w;
    return std::vector<float>(t.values.begin() + static_cast<std::ptrdiff_t>(at),
                              t.values.begin() + static_cast<std::ptrdiff_t>(at + w));
}

bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// A clip with one track of each path for interpolation `interp`, awkward (random)
// values and unequal key intervals: keys at 0.5, 0.8, 1.7, 2.5.
Clip oneOfEachPath(Interpolation interp, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> v(-3.0f, 3.0f);
    const std::vector<float> times{0.5f, 0.8f, 1.7f, 2.5f};
    const std::size_t factor = interp == Interpolation::CubicSpline ? 3 : 1;
    auto values = [&](std::size_t width) {
        std::vector<float> out(times.size() * width * factor);
        for (float& f : out) f = v(rng);
        return out;
    };
    std::vector<float> rot;
    for (std::size_t k = 0; k < times.size(); ++k) {
        for (std::size_t part = 0; part < factor; ++part) {
            const Quat q =
                part == (factor == 3 ? 1u : 0u) ? kref::randomUnitQuat(rng) : Quat{v(rng), v(rng), v(rng), v(rng)};
            rot.insert(rot.end(), {q.x, q.y, q.z, q.w});
        }
    }
    return makeClip({makeTrack(0, TrackPath::Translation, interp, times, values(3)),
                     makeTrack(1, TrackPath::Rotation, interp, times, rot),
                     makeTrack(2, TrackPath::Scale, interp, times, values(3)),
                     makeTrack(2, TrackPath::Weights, interp, times, values(3), 3, 1)});
}

struct Out {
    std::vector<Transform> local = std::vector<Transform>(4);
    std::vector<float> weights = std::vector<float>(5, -7.0f);
};

Out sampleAt(const Clip& clip, float time) {
    Out o;
    EXPECT_TRUE(kinema::reference::sample(clip, time, o.local, o.weights));
    return o;
}

const Interpolation kAllInterpolations[] = {Interpolation::Step, Interpolation::Linear, Interpolation::CubicSpline};

// ---- glTF boundaries ---------------------------------------------------------------------

// One track alone, whatever joint it targets, gives what sampling the whole clip
// wrote for it, with or without a key hint, a stale hint included; a weights output
// narrower than the track is refused.
TEST(SampleTrack, OneTrackAloneMatchesTheWholeClipWithAnyHint) {
    for (const Interpolation interp : kAllInterpolations) {
        const Clip clip = oneOfEachPath(interp, 31);
        for (const float time : {0.0f, 0.5f, 0.65f, 0.8f, 1.2f, 2.49f, 2.5f, 9.0f}) {
            const Out whole = sampleAt(clip, time);
            for (const Track& t : clip.tracks()) {
                Transform local;
                std::vector<float> weights(t.width, -7.0f);
                ASSERT_TRUE(kinema::reference::sampleTrack(t, time, local, weights));
                std::vector<Transform> at(4);
                at[t.target] = local;
                std::vector<float> shifted(5, -7.0f);
                std::copy(weights.begin(), weights.end(), shifted.begin() + t.weightOffset);
                EXPECT_TRUE(sameBits(written(t, at, shifted), written(t, whole.local, whole.weights)))
                    << "time " << time;
                std::uint32_t staleHint = 2;
                ASSERT_TRUE(kinema::reference::sampleTrack(t, time, staleHint, local, weights));
                at[t.target] = local;
                std::copy(weights.begin(), weights.end(), shifted.begin() + t.weightOffset);
                EXPECT_TRUE(sameBits(written(t, at, shifted), written(t, whole.local, whole.weights)))
                    << "time " << time << " with a stale hint";
            }
        }
        const Track& weightsTrack = clip.tracks().back();
        Transform local;
        std::vector<float> narrow(weightsTrack.width - 1, -7.0f);
        EXPECT_FALSE(kinema::reference::sampleTrack(weightsTrack, 1.0, local, narrow));
        EXPECT_EQ(narrow[0], -7.0f);
    }
}

TEST(SampleBoundaries, BeforeFirstKeyHoldsTheFirstValue) {
    for (Interpolation interp : kAllInterpolations) {
        const Clip clip = oneOfEachPath(interp, 11);
        for (float time : {-1.0f, 0.0f, 0.25f, 0.4999f}) {
            const Out o = sampleAt(clip, time);
            for (const Track& t : clip.tracks())
                EXPECT_TRUE(sameBits(written(t, o.local, o.weights), storedKey(t, 0)))
                    << toString(interp) << " " << toString(t.path) << " at " << time;
        }
    }
}

TEST(SampleBoundaries, AfterLastKeyHoldsTheLastValue) {
    for (Interpolation interp : kAllInterpolations) {
        const Clip clip = oneOfEachPath(interp, 12);
        for (float time : {2.5f, 2.5001f, 3.0f, 1e6f}) {
            const Out o = sampleAt(clip, time);
            for (const Track& t : clip.tracks())
                EXPECT_TRUE(sameBits(written(t, o.local, o.weights), storedKey(t, 3)))
                    << toString(interp) << " " << toString(t.path) << " at " << time;
        }
    }
}

TEST(SampleBoundaries, ExactKeyTimeReturnsTheStoredValueBitForBit) {
    for (Interpolation interp : kAllInterpolations) {
        const Clip clip = oneOfEachPath(interp, 13);
        for (std::size_t k = 0; k < 4; ++k) {
            const float time = clip.tracks()[0].times[k];
            const Out o = sampleAt(clip, time);
            SamplingCursor cursor(clip);
            Out c;
            ASSERT_TRUE(kinema::reference::sample(clip, time, cursor, c.local, c.weights));
            for (const Track& t : clip.tracks()) {
                const std::vector<float> want = storedKey(t, k);
                const std::vector<float> got = written(t, o.local, o.weights);
                ASSERT_EQ(got.size(), want.size());
                for (std::size_t i = 0; i < want.size(); ++i)
                    EXPECT_EQ(got[i], want[i]) << toString(interp) << " " << toString(t.path) << " key " << k;
                EXPECT_TRUE(sameBits(written(t, c.local, c.weights), want)) << "with cursor";
            }
        }
    }
}

TEST(SampleBoundaries, SingleKeyTrackHoldsItsValueEverywhere) {
    const Clip clip =
        makeClip({makeTrack(0, TrackPath::Translation, Interpolation::Linear, {0.7f}, {1.1f, 2.2f, 3.3f})});
    for (float time : {0.0f, 0.7f, 5.0f}) {
        std::vector<Transform> local(1);
        ASSERT_TRUE(kinema::reference::sample(clip, time, local, {}));
        EXPECT_EQ(local[0].translation, (Vec3{1.1f, 2.2f, 3.3f}));
    }
}

// ---- STEP -------------------------------------------------------------------------

TEST(SampleStep, HoldsTheLeftKeyInsideEachInterval) {
    const Clip clip = oneOfEachPath(Interpolation::Step, 14);
    const auto& times = clip.tracks()[0].times;
    for (std::size_t k = 0; k + 1 < times.size(); ++k) {
        const float inside[] = {std::nextafter(times[k], 10.0f), (times[k] + times[k + 1]) / 2,
                                std::nextafter(times[k + 1], 0.0f)};
        for (float time : inside) {
            const Out o = sampleAt(clip, time);
            for (const Track& t : clip.tracks())
                EXPECT_TRUE(sameBits(written(t, o.local, o.weights), storedKey(t, k)))
                    << toString(t.path) << " at " << time;
        }
    }
}

// ---- LINEAR -------------------------------------------------------------------------

// Times inside interval [t0, t1) at a few fractions, as floats.
std::vector<float> insideTimes(float t0, float t1) {
    std::vector<float> out;
    for (double f : {0.01, 0.25, 0.5, 0.61, 0.99}) out.push_back(static_cast<float>(t0 + f * (double(t1) - t0)));
    return out;
}

TEST(SampleLinear, TranslationScaleAndWeightsLerpByHand) {
    const Clip clip = oneOfEachPath(Interpolation::Linear, 15);
    for (const Track& t : clip.tracks()) {
        if (t.path == TrackPath::Rotation) continue;
        for (std::size_t k = 0; k + 1 < t.times.size(); ++k) {
            for (float time : insideTimes(t.times[k], t.times[k + 1])) {
                const double u = (double(time) - t.times[k]) / (double(t.times[k + 1]) - t.times[k]);
                const Out o = sampleAt(clip, time);
                const auto got = written(t, o.local, o.weights);
                const auto a = storedKey(t, k), b = storedKey(t, k + 1);
                for (std::size_t i = 0; i < t.width; ++i)
                    EXPECT_NEAR(got[i], (1.0 - u) * a[i] + u * b[i], 4e-6) << toString(t.path) << " at " << time;
            }
        }
    }
}

TEST(SampleLinear, TranslationHandCalculated) {
    // keys (0, 0, 0) at 1 s and (2, -4, 6) at 3 s: at 1.5 s a quarter of the way.
    const Clip clip =
        makeClip({makeTrack(0, TrackPath::Translation, Interpolation::Linear, {1.0f, 3.0f}, {0, 0, 0, 2, -4, 6})});
    std::vector<Transform> local(1);
    ASSERT_TRUE(kinema::reference::sample(clip, 1.5f, local, {}));
    EXPECT_EQ(local[0].translation, (Vec3{0.5f, -1.0f, 1.5f}));
}

TEST(SampleLinear, KeysFartherApartThanTheLargestFloatInterpolateToFiniteValues) {
    // A quarter of the way from -3e38 to 3e38 is -1.5e38, though the keys' difference
    // (6e38) is past the float range; equal keys give their value exactly.
    const Clip clip = makeClip({makeTrack(0, TrackPath::Translation, Interpolation::Linear, {0.0f, 1.0f},
                                          {-3e38f, 3e38f, 1e38f, 3e38f, -3e38f, 1e38f})});
    std::vector<Transform> local(1);
    ASSERT_TRUE(kinema::reference::sample(clip, 0.25, local, {}));
    EXPECT_FLOAT_EQ(local[0].translation.x, -1.5e38f);
    EXPECT_FLOAT_EQ(local[0].translation.y, 1.5e38f);
    EXPECT_EQ(local[0].translation.z, 1e38f);
    const Vec3 half = kinema::lerp({-3e38f, 3e38f, 1e38f}, {3e38f, -3e38f, 1e38f}, 0.5f);
    EXPECT_EQ(half, (Vec3{0.0f, 0.0f, 1e38f}));
}

TEST(SampleLinear, RotationSlerpsByHand) {
    // Keys 0, 100 deg about one axis, 150 deg more about another, then a key stored
    // with the opposite sign (dot < 0: the short arc must be taken).
    std::vector<Quat> keys{Quat{0, 0, 0, 1}, kref::quatOf({0, 1, 0}, 100.0 * std::numbers::pi / 180),
                           kref::quatOf({1, 0.3, 0}, 150.0 * std::numbers::pi / 180), Quat{}};
    keys[2] = keys[2] * keys[1];
    keys[3] = -(kref::quatOf({0, 0, 1}, 0.7) * keys[2]);
    std::vector<float> values;
    for (const Quat& q : keys) values.insert(values.end(), {q.x, q.y, q.z, q.w});
    const Clip clip =
        makeClip({makeTrack(0, TrackPath::Rotation, Interpolation::Linear, {0.0f, 0.4f, 1.5f, 1.6f}, values)});
    const Track& t = clip.tracks()[0];
    for (std::size_t k = 0; k + 1 < t.times.size(); ++k) {
        for (float time : insideTimes(t.times[k], t.times[k + 1])) {
            const long double u = (double(time) - t.times[k]) / (double(t.times[k + 1]) - t.times[k]);
            const auto a = storedKey(t, k), b = storedKey(t, k + 1);
            const kref::LQ want = kref::slerpL({a[0], a[1], a[2], a[3]}, {b[0], b[1], b[2], b[3]}, u);
            std::vector<Transform> local(1);
            ASSERT_TRUE(kinema::reference::sample(clip, time, local, {}));
            EXPECT_LE(static_cast<double>(kref::signAlignedError(local[0].rotation, want)), 1e-6)
                << "interval " << k << " at " << time;
        }
    }
}

TEST(SampleLinear, RotationTakesTheShortArcBetweenOppositeSignKeys) {
    // 0 deg and the 90 deg z rotation stored negated: halfway is +45 deg about z.
    const Quat b = -kref::quatOf({0, 0, 1}, std::numbers::pi / 2);
    const Clip clip =
        makeClip({makeTrack(0, TrackPath::Rotation, Interpolation::Linear, {0, 1}, {0, 0, 0, 1, b.x, b.y, b.z, b.w})});
    std::vector<Transform> local(1);
    ASSERT_TRUE(kinema::reference::sample(clip, 0.5f, local, {}));
    const Vec3 r = kinema::rotate(local[0].rotation, {1, 0, 0});
    EXPECT_NEAR(r.x, std::cos(std::numbers::pi / 4), 1e-6);
    EXPECT_NEAR(r.y, std::sin(std::numbers::pi / 4), 1e-6);
}

// ---- CUBICSPLINE ---------------------------------------------------------------------

// glTF Appendix C: p(s) = (2s^3 - 3s^2 + 1) p0 + td (s^3 - 2s^2 + s) m0 + (-2s^3 + 3s^2) p1
//                          + td (s^3 - s^2) m1, m0 = out-tangent of key k, m1 = in-tangent of key k+1.
double hermite(double p0, double m0, double p1, double m1, double td, double s) {
    const double s2 = s * s, s3 = s2 * s;
    return (2 * s3 - 3 * s2 + 1) * p0 + td * (s3 - 2 * s2 + s) * m0 + (-2 * s3 + 3 * s2) * p1 + td * (s3 - s2) * m1;
}

// The spline value of component i in interval k at time `time` of cubic track t, in double.
// `scaleTangents` = false gives the well-known wrong variant (tangents not multiplied by td).
double cubicRef(const Track& t, std::size_t k, std::size_t i, float time, bool scaleTangents = true) {
    const std::size_t w = t.width;
    const double td = double(t.times[k + 1]) - t.times[k];
    const double s = (double(time) - t.times[k]) / td;
    const double p0 = t.values[(k * 3 + 1) * w + i], m0 = t.values[(k * 3 + 2) * w + i];
    const double p1 = t.values[((k + 1) * 3 + 1) * w + i], m1 = t.values[((k + 1) * 3 + 0) * w + i];
    return hermite(p0, m0, p1, m1, scaleTangents ? td : 1.0, s);
}

TEST(SampleCubicSpline, HermiteWithTangentsScaledByTheKeyInterval) {
    // Unequal intervals (0.3, 0.9, 0.8 s): a sampler that scales tangents by the
    // normalised time, or not at all, misses by far more than the tolerance.
    const Clip clip = oneOfEachPath(Interpolation::CubicSpline, 16);
    double wrongScalingMiss = 0;  // how far the unscaled-tangent variant lands, at worst
    for (const Track& t : clip.tracks()) {
        if (t.path == TrackPath::Rotation) continue;
        for (std::size_t k = 0; k + 1 < t.times.size(); ++k) {
            for (float time : insideTimes(t.times[k], t.times[k + 1])) {
                const Out o = sampleAt(clip, time);
                const auto got = written(t, o.local, o.weights);
                double wrong = 0;
                for (std::size_t i = 0; i < t.width; ++i) {
                    EXPECT_NEAR(got[i], cubicRef(t, k, i, time), 2e-5) << toString(t.path) << " at " << time;
                    wrong = std::max(wrong, std::fabs(cubicRef(t, k, i, time, false) - cubicRef(t, k, i, time)));
                }
                wrongScalingMiss = std::max(wrongScalingMiss, wrong);
            }
        }
    }
    EXPECT_GT(wrongScalingMiss, 1e-2) << "the data would not tell a wrong tangent scaling apart";
}

TEST(SampleCubicSpline, HandCalculatedScalar) {
    // One interval from 1 s to 3 s (td = 2), p0 = 0, p1 = 1, out-tangent m0 = 1,
    // in-tangent m1 = 0. At 2 s, s = 0.5: h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = -0.125,
    // so p = 0.5 * 0 + 2 * 0.125 * 1 + 0.5 * 1 + 2 * (-0.125) * 0 = 0.75.
    // Leaving the tangents unscaled (td taken as 1) would give 0.625.
    const Clip clip = makeClip(
        {makeTrack(0, TrackPath::Weights, Interpolation::CubicSpline, {1.0f, 3.0f}, {9, 0, 1, 0, 1, 9}, 1, 0)});
    std::vector<Transform> local(1);
    std::vector<float> w(1);
    ASSERT_TRUE(kinema::reference::sample(clip, 2.0f, local, w));
    EXPECT_EQ(w[0], 0.75f);
}

TEST(SampleCubicSpline, TermsPastTheFloatRangeSumToTheFiniteCurve) {
    // p0 = m0 = X, p1 = -X, m1 = X over one second: at s = 0.1 the first two terms
    // make 1.053 X (past the largest float for X = 3.3e38), the whole curve
    // (h00 - h01 + h10 + h11) X = 1.016 X, about 3.35e38.
    constexpr float x = 3.3e38f;
    const Clip clip = makeClip(
        {makeTrack(0, TrackPath::Weights, Interpolation::CubicSpline, {0.0f, 1.0f}, {0, x, x, x, -x, 0}, 1, 0)});
    std::vector<Transform> local(1);
    std::vector<float> w(1);
    ASSERT_TRUE(kinema::reference::sample(clip, 0.1, local, w));
    const double s = 0.1, s2 = s * s, s3 = s2 * s;
    const double want = ((2 * s3 - 3 * s2 + 1) + (s3 - 2 * s2 + s) - (-2 * s3 + 3 * s2) + (s3 - s2)) * double{x};
    ASSERT_TRUE(std::isfinite(w[0]));
    EXPECT_NEAR(w[0] / want, 1.0, 1e-6);
}

TEST(SampleCubicSpline, RotationIsTheNormalisedHermite) {
    const Clip clip = oneOfEachPath(Interpolation::CubicSpline, 17);
    const Track& t = clip.tracks()[1];
    ASSERT_EQ(t.path, TrackPath::Rotation);
    for (std::size_t k = 0; k + 1 < t.times.size(); ++k) {
        for (float time : insideTimes(t.times[k], t.times[k + 1])) {
            double q[4];
            for (std::size_t i = 0; i < 4; ++i) q[i] = cubicRef(t, k, i, time);
            const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
            const Out o = sampleAt(clip, time);
            const Quat got = o.local[1].rotation;
            EXPECT_NEAR(got.x, q[0] / n, 1e-5) << "at " << time;
            EXPECT_NEAR(got.y, q[1] / n, 1e-5) << "at " << time;
            EXPECT_NEAR(got.z, q[2] / n, 1e-5) << "at " << time;
            EXPECT_NEAR(got.w, q[3] / n, 1e-5) << "at " << time;
        }
    }
}

// ---- morph weights ---------------------------------------------------------------------

TEST(SampleWeights, Width3LinearWritesItsSliceOnly) {
    // weights 2..4 of 6; keys (0, 0.5, 1) at 0 s and (1, 0.5, 0) at 2 s.
    const Clip clip =
        makeClip({makeTrack(0, TrackPath::Weights, Interpolation::Linear, {0, 2}, {0, 0.5f, 1, 1, 0.5f, 0}, 3, 2)});
    std::vector<Transform> local(1);
    std::vector<float> w{-1, -2, -3, -4, -5, -6};
    ASSERT_TRUE(kinema::reference::sample(clip, 0.5f, local, w));
    EXPECT_EQ(w, (std::vector<float>{-1, -2, 0.25f, 0.5f, 0.75f, -6}));
}

TEST(SampleWeights, Width3StepHoldsTheLeftKey) {
    const Clip clip =
        makeClip({makeTrack(0, TrackPath::Weights, Interpolation::Step, {0, 2}, {0.1f, 0.2f, 0.3f, 1, 1, 1}, 3, 0)});
    std::vector<Transform> local(1);
    std::vector<float> w(3);
    ASSERT_TRUE(kinema::reference::sample(clip, 1.99f, local, w));
    EXPECT_EQ(w, (std::vector<float>{0.1f, 0.2f, 0.3f}));
}

TEST(SampleWeights, Width3CubicReadsTangentsValuesTangentsPerKey) {
    // Per key: 3 in-tangents, 3 values, 3 out-tangents (not interleaved per target).
    // Key 0 at 0 s: values (0, 1, 0), out-tangents (1, 0, -1); key 1 at 0.5 s: values
    // (1, 1, 0), in-tangents (0, 2, 0). td = 0.5, s = 0.5 at 0.25 s:
    // h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = -0.125
    // w0 = 0.5 * 0 + 0.5 * 0.125 * 1 + 0.5 * 1 + 0.5 * (-0.125) * 0 = 0.5625
    // w1 = 0.5 * 1 + 0.5 * 0.125 * 0 + 0.5 * 1 + 0.5 * (-0.125) * 2 = 0.875
    // w2 = 0.5 * 0 + 0.5 * 0.125 * -1 + 0.5 * 0 + 0.5 * (-0.125) * 0 = -0.0625
    const std::vector<float> values{7, 7, 7, 0, 1, 0, 1, 0, -1,  //
                                    0, 2, 0, 1, 1, 0, 7, 7, 7};
    const Clip clip = makeClip({makeTrack(0, TrackPath::Weights, Interpolation::CubicSpline, {0, 0.5f}, values, 3, 1)});
    std::vector<Transform> local(1);
    std::vector<float> w{-1, -1, -1, -1, -1};
    ASSERT_TRUE(kinema::reference::sample(clip, 0.25f, local, w));
    EXPECT_EQ(w, (std::vector<float>{-1, 0.5625f, 0.875f, -0.0625f, -1}));
}

// ---- what no track touches ---------------------------------------------------------------

TEST(SampleUntouched, PropertiesWithoutATrackStayAsTheyWere) {
    const Clip clip =
        makeClip({makeTrack(1, TrackPath::Translation, Interpolation::Linear, {0, 1}, {0, 0, 0, 1, 1, 1}),
                  makeTrack(2, TrackPath::Rotation, Interpolation::Linear, {0, 1}, {0, 0, 0, 1, 0, 1, 0, 0})});
    Transform sentinel;
    sentinel.translation = {7, 8, 9};
    sentinel.rotation = {0.5f, 0.5f, 0.5f, 0.5f};
    sentinel.scale = {2, 3, 4};
    std::vector<Transform> local(4, sentinel);
    std::vector<float> w{1, 2, 3};
    ASSERT_TRUE(kinema::reference::sample(clip, 0.5f, local, w));
    EXPECT_EQ(local[0], sentinel);
    EXPECT_EQ(local[3], sentinel);
    EXPECT_EQ(local[1].rotation, sentinel.rotation);
    EXPECT_EQ(local[1].scale, sentinel.scale);
    EXPECT_EQ(local[1].translation, (Vec3{0.5f, 0.5f, 0.5f}));
    EXPECT_EQ(local[2].translation, sentinel.translation);
    EXPECT_EQ(local[2].scale, sentinel.scale);
    EXPECT_NE(local[2].rotation, sentinel.rotation);
    EXPECT_EQ(w, (std::vector<float>{1, 2, 3}));
}

kinema::Model restModel() {
    kinema::Model m;
    std::vector<kinema::JointDesc> j(3);
    j[0] = {"root", kinema::kNoParent, {}};
    j[1] = {"a", 0, {{1, 2, 3}, kref::quatOf({1, 0, 0}, 0.3), {1, 1, 2}}};
    j[2] = {"b", 1, {{0, 1, 0}, kref::quatOf({0, 1, 0}, -0.2), {0.5f, 0.5f, 0.5f}}};
    m.skeleton = kinema::Skeleton::create(j).value();
    m.nodeOfJoint = {0, 1, 2};
    m.jointOfNode = {0, 1, 2};
    m.weightOffsetOfJoint = {-1, -1, 0};
    m.restWeights = {0.25f, 0.75f};
    return m;
}

TEST(SampleUntouched, PartialTracksFallBackToRestAfterResetToRest) {
    const kinema::Model model = restModel();
    const Clip full = makeClip({makeTrack(1, TrackPath::Rotation, Interpolation::Linear, {0}, {0, 0, 1, 0}),
                                makeTrack(1, TrackPath::Scale, Interpolation::Linear, {0}, {3, 3, 3}),
                                makeTrack(2, TrackPath::Translation, Interpolation::Linear, {0}, {5, 5, 5}),
                                makeTrack(2, TrackPath::Weights, Interpolation::Linear, {0}, {1, 1}, 2, 0)});
    const Clip partial = makeClip({makeTrack(1, TrackPath::Translation, Interpolation::Linear, {0}, {-1, -1, -1})});
    kinema::Pose pose = kinema::makeRestPose(model);
    ASSERT_TRUE(kinema::reference::sample(full, 0.0f, pose.local, pose.weights));
    kinema::resetToRest(model, pose);
    ASSERT_TRUE(kinema::reference::sample(partial, 0.0f, pose.local, pose.weights));
    const auto rest = model.skeleton.restPose();
    EXPECT_EQ(pose.local[0], rest[0]);
    EXPECT_EQ(pose.local[1].translation, (Vec3{-1, -1, -1}));
    EXPECT_EQ(pose.local[1].rotation, rest[1].rotation);
    EXPECT_EQ(pose.local[1].scale, rest[1].scale);
    EXPECT_EQ(pose.local[2], rest[2]);
    EXPECT_EQ(pose.weights, model.restWeights);
}

// ---- the cursor --------------------------------------------------------------------------

// Many keys at irregular times on every path and interpolation.
Clip manyKeys() {
    std::mt19937 rng(501);
    std::uniform_real_distribution<float> gap(0.001f, 0.05f);
    std::uniform_real_distribution<float> v(-2.0f, 2.0f);
    auto times = [&](std::size_t n, float start) {
        std::vector<float> t(n);
        float at = start;
        for (float& x : t) {
            x = at;
            at += gap(rng);
        }
        return t;
    };
    auto values = [&](std::size_t n) {
        std::vector<float> out(n);
        for (float& x : out) x = v(rng);
        return out;
    };
    auto quats = [&](std::size_t n) {
        std::vector<float> out;
        for (std::size_t i = 0; i < n; ++i) {
            const Quat q = kref::randomUnitQuat(rng);
            out.insert(out.end(), {q.x, q.y, q.z, q.w});
        }
        return out;
    };
    return makeClip({
        makeTrack(0, TrackPath::Translation, Interpolation::Linear, times(300, 0.0f), values(900)),
        makeTrack(0, TrackPath::Rotation, Interpolation::Linear, times(257, 0.1f), quats(257)),
        makeTrack(1, TrackPath::Scale, Interpolation::Step, times(100, 0.3f), values(300)),
        makeTrack(1, TrackPath::Rotation, Interpolation::CubicSpline, times(64, 0.0f), quats(64 * 3)),
        makeTrack(2, TrackPath::Translation, Interpolation::CubicSpline, times(200, 0.05f), values(1800)),
        makeTrack(2, TrackPath::Weights, Interpolation::CubicSpline, times(150, 0.0f), values(150 * 9), 3, 0),
        makeTrack(3, TrackPath::Weights, Interpolation::Linear, times(2, 1.0f), values(4), 2, 3),
        makeTrack(3, TrackPath::Translation, Interpolation::Step, times(1, 0.5f), values(3)),
    });
}

struct Compare {
    const Clip& clip;
    SamplingCursor cursor{clip};
    int checked = 0;

    void at(float time) {
        std::vector<Transform> a(4), b(4);
        std::vector<float> wa(5, 0.0f), wb(5, 0.0f);
        ASSERT_TRUE(kinema::reference::sample(clip, time, cursor, a, wa));
        ASSERT_TRUE(kinema::reference::sample(clip, time, b, wb));
        ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(Transform)), 0) << "at " << time;
        ASSERT_EQ(std::memcmp(wa.data(), wb.data(), wa.size() * sizeof(float)), 0) << "at " << time;
        ++checked;
    }
};

TEST(SampleCursor, ForwardPlaybackMatchesTheCursorlessSampler) {
    const Clip clip = manyKeys();
    ASSERT_GT(clip.duration(), 5.0f);
    Compare c{clip};
    for (double t = -0.1; t < clip.duration() + 0.1; t += 1.0 / 60.0) c.at(static_cast<float>(t));
    for (double t = 0.0; t < clip.duration(); t += 1.0 / 2000.0) c.at(static_cast<float>(t));  // several per interval
    EXPECT_GT(c.checked, 10000);
}

TEST(SampleCursor, ForwardPlaybackThroughEveryKeyTime) {
    const Clip clip = manyKeys();
    std::vector<float> all;
    for (const Track& t : clip.tracks()) all.insert(all.end(), t.times.begin(), t.times.end());
    std::sort(all.begin(), all.end());
    Compare c{clip};
    for (float t : all) {
        c.at(std::nextafter(t, -1.0f));
        c.at(t);
        c.at(std::nextafter(t, 100.0f));
    }
}

TEST(SampleCursor, BackwardJumpsMatchTheCursorlessSampler) {
    const Clip clip = manyKeys();
    Compare c{clip};
    for (double start = 0.0; start < clip.duration(); start += 0.37) {
        for (int i = 0; i < 40; ++i) c.at(static_cast<float>(start + i / 60.0));  // play forward
        c.at(static_cast<float>(start * 0.5));                                    // jump back
        c.at(0.0f);                                                               // loop to the start
    }
    // reverse playback, small steps backwards
    for (double t = clip.duration() + 0.05; t > -0.05; t -= 1.0 / 90.0) c.at(static_cast<float>(t));
}

TEST(SampleCursor, RandomSeeksMatchTheCursorlessSampler) {
    const Clip clip = manyKeys();
    std::mt19937 rng(502);
    std::uniform_real_distribution<float> seek(-0.5f, clip.duration() + 0.5f);
    std::uniform_int_distribution<std::size_t> pick(0, clip.tracks().size() - 1);
    Compare c{clip};
    for (int n = 0; n < 5000; ++n) {
        if (n % 5 == 0) {  // an exact key time of some track
            const Track& t = clip.tracks()[pick(rng)];
            c.at(t.times[std::uniform_int_distribution<std::size_t>(0, t.times.size() - 1)(rng)]);
        } else {
            c.at(seek(rng));
        }
    }
}

TEST(SampleCursor, ResetKeepsResultsIdentical) {
    const Clip clip = manyKeys();
    Compare c{clip};
    c.at(4.0f);
    c.cursor.reset();
    c.at(4.0f);
    c.at(1.0f);
}

TEST(SampleFindKeyInterval, UsesAndUpdatesTheHint) {
    const std::vector<float> times{0, 1, 2, 3, 4};
    std::uint32_t hint = 0;
    EXPECT_EQ(kinema::findKeyInterval(times, 0.5f, hint), 0u);
    EXPECT_EQ(hint, 0u);
    EXPECT_EQ(kinema::findKeyInterval(times, 1.0f, hint), 1u);  // exact key: its own interval
    EXPECT_EQ(hint, 1u);
    EXPECT_EQ(kinema::findKeyInterval(times, 3.5f, hint), 3u);  // a jump
    EXPECT_EQ(hint, 3u);
    EXPECT_EQ(kinema::findKeyInterval(times, 0.25f, hint), 0u);  // backwards
    EXPECT_EQ(hint, 0u);
    hint = 99;  // a stale hint from another clip is harmless
    EXPECT_EQ(kinema::findKeyInterval(times, 2.5f, hint), 2u);
}

// ---- output checks ---------------------------------------------------------------------

TEST(SampleOutputs, TooFewJointsReturnsFalseAndWritesNothing) {
    const Clip clip = oneOfEachPath(Interpolation::Linear, 18);  // needs 3 joints, 4 weights
    Transform sentinel;
    sentinel.translation = {9, 9, 9};
    std::vector<Transform> local(2, sentinel);
    std::vector<float> w(4, -5.0f);
    EXPECT_FALSE(kinema::reference::sample(clip, 1.0f, local, w));
    SamplingCursor cursor(clip);
    EXPECT_FALSE(kinema::reference::sample(clip, 1.0f, cursor, local, w));
    EXPECT_EQ(local, std::vector<Transform>(2, sentinel));
    EXPECT_EQ(w, std::vector<float>(4, -5.0f));
}

TEST(SampleOutputs, TooFewWeightsReturnsFalseAndWritesNothing) {
    const Clip clip = oneOfEachPath(Interpolation::Linear, 19);
    Transform sentinel;
    sentinel.translation = {9, 9, 9};
    std::vector<Transform> local(3, sentinel);
    std::vector<float> w(3, -5.0f);
    EXPECT_FALSE(kinema::reference::sample(clip, 1.0f, local, w));
    SamplingCursor cursor(clip);
    EXPECT_FALSE(kinema::reference::sample(clip, 1.0f, cursor, local, w));
    EXPECT_EQ(local, std::vector<Transform>(3, sentinel));
    EXPECT_EQ(w, std::vector<float>(3, -5.0f));
}

TEST(SampleOutputs, CursorOfAnotherClipReturnsFalseAndWritesNothing) {
    const Clip clip = oneOfEachPath(Interpolation::Linear, 20);
    const Clip other = makeClip({makeTrack(0, TrackPath::Scale, Interpolation::Linear, {0}, {1, 1, 1})});
    SamplingCursor wrong(other);
    Transform sentinel;
    sentinel.translation = {9, 9, 9};
    std::vector<Transform> local(3, sentinel);
    std::vector<float> w(4, -5.0f);
    EXPECT_FALSE(kinema::reference::sample(clip, 1.0f, wrong, local, w));
    EXPECT_EQ(local, std::vector<Transform>(3, sentinel));
    EXPECT_EQ(w, std::vector<float>(4, -5.0f));
}

TEST(SampleOutputs, ExactlyLargeEnoughOutputsAreAccepted) {
    const Clip clip = oneOfEachPath(Interpolation::Linear, 21);
    std::vector<Transform> local(clip.jointsNeeded());
    std::vector<float> w(clip.weightsNeeded());
    EXPECT_TRUE(kinema::reference::sample(clip, 1.0f, local, w));
}

}  // namespace
