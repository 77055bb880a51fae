// The SIMD path (SoaPose, PackedClip, PoseKernels) at every instruction set this
// CPU runs, checked against the scalar reference path (reference::sample, localToModel,
// reference::skinPalette, reference::skinVertices) and against closed forms: exact keys bit for bit,
// slerp within 1e-6 of a long double geodesic over the whole sphere, the seek
// index against std::upper_bound on uneven timelines.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "kinema/asset/clip.hpp"
#include "kinema/asset/skeleton.hpp"
#include "kinema/runtime/detail/kernel_abi.hpp"
#include "kinema/runtime/joint_mask.hpp"
#include "kinema/runtime/packed_clip.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "kinema/runtime/sample.hpp"
#include "kinema/runtime/simd.hpp"
#include "kinema/runtime/skinning.hpp"
#include "kinema/runtime/soa_pose.hpp"
#include "math/reference.hpp"
#include "runtime/fixtures.hpp"

namespace {

using namespace kinema;

class SimdLevels : public ::testing::TestWithParam<test::KernelConfig> {
protected:
    PoseKernels kernels{GetParam().level, GetParam().mix};
};

// A clip over `joints` joints mixing everything the packer groups by: two shared
// timelines (even and uneven), one private timeline per some tracks, a one-key
// track, every interpolation, morph weights (3 per joint for joints 0 and 5), and
// some joints left unanimated on some paths (unless `everyPath`: then the clip
// covers every joint, and 6 weights, for sampleOver).
Clip mixedClip(std::size_t joints, std::uint32_t seed, bool everyPath = false) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> v(-2.0f, 2.0f);
    std::uniform_real_distribution<float> gap(0.01f, 0.6f);
    const std::vector<float> even{0.0f, 0.25f, 0.5f, 0.75f, 1.0f, 1.25f, 1.5f, 1.75f, 2.0f};
    const std::vector<float> uneven{0.1f, 0.11f, 0.4f, 0.41f, 0.42f, 1.3f, 2.4f};
    std::vector<Track> tracks;
    auto values = [&](std::size_t n) {
        std::vector<float> out(n);
        for (float& f : out) f = v(rng);
        return out;
    };
    auto rotations = [&](std::size_t keys, bool cubic) {
        std::vector<float> out;
        for (std::size_t k = 0; k < keys; ++k) {
            for (int part = 0; part < (cubic ? 3 : 1); ++part) {
                const Quat q = (!cubic || part == 1) ? kref::randomUnitQuat(rng) : Quat{v(rng), v(rng), v(rng), v(rng)};
                out.insert(out.end(), {q.x, q.y, q.z, q.w});
            }
        }
        return out;
    };
    for (std::uint32_t j = 0; j < joints; ++j) {
        const Interpolation interp = j % 5 == 3 ? Interpolation::CubicSpline
            : j % 7 == 2                        ? Interpolation::Step
                                                : Interpolation::Linear;
        const bool cubic = interp == Interpolation::CubicSpline;
        std::vector<float> times = j % 3 == 0 ? even : uneven;
        if (j % 11 == 4) {  // a timeline of its own
            times.clear();
            float t = gap(rng);
            for (int k = 0; k < 5; ++k, t += gap(rng)) times.push_back(t);
        }
        const std::size_t keys = times.size(), f = cubic ? 3 : 1;
        if (everyPath || j % 4 != 1) {
            tracks.push_back(test::makeTrack(j, TrackPath::Translation, interp, times, values(keys * 3 * f)));
        }
        tracks.push_back(test::makeTrack(j, TrackPath::Rotation, interp, times, rotations(keys, cubic)));
        if (everyPath || j % 6 != 5) {
            tracks.push_back(test::makeTrack(j, TrackPath::Scale, interp, times, values(keys * 3 * f)));
        }
        if (j == 0 || j == 5) {
            tracks.push_back(
                test::makeTrack(j, TrackPath::Weights, interp, times, values(keys * 3 * f), 3, j == 0 ? 0u : 3u));
        }
    }
    if (!everyPath) {
        tracks.push_back(test::makeTrack(static_cast<std::uint32_t>(joints - 1), TrackPath::Translation,
                                         Interpolation::Linear, {0.7f}, {1.0f, 2.0f, 3.0f}));
    }
    // The last joint's translation track above replaces one the loop may have made.
    if (!everyPath && joints % 4 != 2) {
        tracks.erase(std::find_if(tracks.begin(), tracks.end(), [&](const Track& t) {
            return t.target == joints - 1 && t.path == TrackPath::Translation && t.times.size() > 1;
        }));
    }
    auto clip = Clip::create("mixed", std::move(tracks));
    EXPECT_TRUE(clip.ok()) << clip.message();
    return std::move(clip).value();
}

float relDiff(float got, float want) { return std::fabs(got - want) / std::max(1.0f, std::fabs(want)); }

// Every sampled float against the scalar sampler: translation, scale and weights
// within a few float ulps (the SIMD path may fuse multiply-adds), rotations
// within 1e-6 (slerp) after sign alignment.
void expectMatchesScalar(const Clip& clip, const SoaPose& got, std::span<const Transform> want,
                         std::span<const float> wantWeights, float time, float tolerance) {
    for (std::size_t j = 0; j < want.size(); ++j) {
        const Transform g = got.joint(j), w = want[j];
        const float gv[] = {g.translation.x, g.translation.y, g.translation.z, g.scale.x, g.scale.y, g.scale.z};
        const float wv[] = {w.translation.x, w.translation.y, w.translation.z, w.scale.x, w.scale.y, w.scale.z};
        for (int c = 0; c < 6; ++c)
            ASSERT_LE(relDiff(gv[c], wv[c]), tolerance) << "joint " << j << " c " << c << " t " << time;
        const float d = g.rotation.x * w.rotation.x + g.rotation.y * w.rotation.y + g.rotation.z * w.rotation.z +
            g.rotation.w * w.rotation.w;
        const float s = d < 0.0f ? -1.0f : 1.0f;
        ASSERT_LE(std::fabs(s * g.rotation.x - w.rotation.x), 2e-6f) << "joint " << j << " t " << time;
        ASSERT_LE(std::fabs(s * g.rotation.y - w.rotation.y), 2e-6f) << "joint " << j << " t " << time;
        ASSERT_LE(std::fabs(s * g.rotation.z - w.rotation.z), 2e-6f) << "joint " << j << " t " << time;
        ASSERT_LE(std::fabs(s * g.rotation.w - w.rotation.w), 2e-6f) << "joint " << j << " t " << time;
    }
    for (std::size_t i = 0; i < wantWeights.size(); ++i) {
        ASSERT_LE(relDiff(got.weights()[i], wantWeights[i]), tolerance) << "weight " << i << " t " << time;
    }
    (void)clip;
}

TEST_P(SimdLevels, SamplingMatchesTheScalarSamplerEverywhere) {
    for (const std::size_t joints : {1u, 5u, 16u, 17u, 40u}) {
        const Clip clip = mixedClip(joints, 7u + static_cast<std::uint32_t>(joints));
        const PackedClip packed(clip);
        PackedClipCursor cursor(packed);
        std::mt19937 rng(99);
        const auto rest = test::randomTransforms(joints, rng);
        const std::vector<float> restWeights(6, 0.25f);
        SoaPose pose(rest, restWeights);
        std::vector<Transform> want(rest);
        std::vector<float> wantWeights(restWeights);
        // Forward playback, then random seeks, then every key time exactly, and outside the clip.
        std::vector<float> times;
        for (float t = -0.5f; t < 2.8f; t += 1.0f / 60.0f) times.push_back(t);
        std::uniform_real_distribution<float> any(-0.2f, 2.6f);
        for (int i = 0; i < 300; ++i) times.push_back(any(rng));
        for (const Track& t : clip.tracks()) times.insert(times.end(), t.times.begin(), t.times.end());
        for (const float t : times) {
            ASSERT_TRUE(kernels.sample(packed, t, cursor, pose));
            ASSERT_TRUE(reference::sample(clip, t, want, wantWeights));
            expectMatchesScalar(clip, pose, want, wantWeights, t, 1e-5f);
        }
    }
}

TEST_P(SimdLevels, ExactKeyTimesReturnTheStoredValueBitForBit) {
    const Clip clip = mixedClip(17, 3);
    const PackedClip packed(clip);
    PackedClipCursor cursor(packed);
    SoaPose pose(17, 6);
    for (const Track& track : clip.tracks()) {
        for (std::size_t k = 0; k < track.times.size(); ++k) {
            ASSERT_TRUE(kernels.sample(packed, track.times[k], cursor, pose));
            const std::size_t at = (track.interpolation == Interpolation::CubicSpline ? k * 3 + 1 : k) * track.width;
            for (std::uint32_t c = 0; c < track.width; ++c) {
                float got = 0.0f;
                if (track.path == TrackPath::Weights) {
                    got = pose.weights()[track.weightOffset + c];
                } else {
                    const std::size_t first = track.path == TrackPath::Translation ? 0
                        : track.path == TrackPath::Rotation                        ? 3
                                                                                   : 7;
                    got = pose.component(static_cast<SoaComponent>(first + c))[track.target];
                }
                ASSERT_EQ(std::memcmp(&got, &track.values[at + c], sizeof(float)), 0)
                    << "track target " << track.target << " key " << k << " component " << c;
            }
        }
    }
}

TEST_P(SimdLevels, KeysFartherApartThanTheLargestFloatInterpolateToFiniteValues) {
    // A quarter of the way from -3e38 to 3e38 is -1.5e38, though the keys' difference
    // is past the float range: no infinity on any lane.
    std::vector<Track> tracks{test::makeTrack(0, TrackPath::Translation, Interpolation::Linear, {0.0f, 1.0f},
                                              {-3e38f, 3e38f, 2.0f, 3e38f, -3e38f, 2.0f})};
    auto clip = Clip::create("far apart", std::move(tracks));
    ASSERT_TRUE(clip.ok()) << clip.message();
    const PackedClip packed(clip.value());
    PackedClipCursor cursor(packed);
    SoaPose pose(1, 0);
    ASSERT_TRUE(kernels.sample(packed, 0.25, cursor, pose));
    EXPECT_NEAR(pose.component(SoaComponent::Tx)[0] / -1.5e38f, 1.0f, 1e-6f);
    EXPECT_NEAR(pose.component(SoaComponent::Ty)[0] / 1.5e38f, 1.0f, 1e-6f);
    EXPECT_FLOAT_EQ(pose.component(SoaComponent::Tz)[0], 2.0f);
}

// One LINEAR rotation track per (a, b) pair, keys at 0 and 1, sampled at 999
// fractions: the worst component error against the long double geodesic.
long double worstSlerpError(const PoseKernels& kernels, const std::vector<std::pair<Quat, Quat>>& pairs) {
    std::vector<Track> tracks;
    for (std::uint32_t j = 0; j < pairs.size(); ++j) {
        const auto& [a, b] = pairs[j];
        tracks.push_back(test::makeTrack(j, TrackPath::Rotation, Interpolation::Linear, {0.0f, 1.0f},
                                         {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w}));
    }
    auto clip = Clip::create("slerp", std::move(tracks));
    EXPECT_TRUE(clip.ok());
    if (!clip.ok()) return 1.0L;
    const PackedClip packed(clip.value());
    PackedClipCursor cursor(packed);
    SoaPose pose(pairs.size(), 0);
    long double worst = 0;
    for (int i = 1; i < 1000; ++i) {
        const float u = static_cast<float>(i) / 1000.0f;
        EXPECT_TRUE(kernels.sample(packed, u, cursor, pose));
        for (std::size_t j = 0; j < pairs.size(); ++j) {
            worst = std::max(
                worst,
                kref::signAlignedError(pose.joint(j).rotation, kref::slerpL(pairs[j].first, pairs[j].second, u)));
        }
    }
    return worst;
}

TEST_P(SimdLevels, SlerpStaysWithin1e6OfTheGeodesicOverTheWholeSphere) {
    // One rotation track per lane: random pairs, nearly equal pairs, nearly opposite
    // pairs (the shortest arc flips them), sampled at many fractions.
    std::mt19937 rng(2024);
    constexpr std::size_t kLanes = 48;
    std::vector<std::pair<Quat, Quat>> pairs;
    std::normal_distribution<float> tiny(0.0f, 1e-4f);
    for (std::uint32_t j = 0; j < kLanes; ++j) {
        Quat a = kref::randomUnitQuat(rng), b = kref::randomUnitQuat(rng);
        if (j % 3 == 1) b = normalize(Quat{a.x + tiny(rng), a.y + tiny(rng), a.z + tiny(rng), a.w + tiny(rng)});
        if (j % 3 == 2) b = normalize(Quat{-a.x + tiny(rng), -a.y + tiny(rng), -a.z + tiny(rng), -a.w + tiny(rng)});
        if (j == 0) b = a;
        pairs.push_back({a, b});
    }
    const long double worst = worstSlerpError(kernels, pairs);
    EXPECT_LE(worst, 1e-6L) << "worst component error " << static_cast<double>(worst);
}

// Keys at most 0.3763 rad apart (cos above the kernels' 0.93) in every lane take
// the corrected nlerp; half of them also cross the hemisphere (b negated). With the
// first correction term alone the worst pair is 1.6e-5 off.
TEST_P(SimdLevels, SlerpOfNearbyKeysStaysWithin1e6OfTheGeodesic) {
    std::mt19937 rng(77);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    constexpr std::size_t kLanes = 48;
    std::vector<std::pair<Quat, Quat>> pairs;
    for (std::uint32_t j = 0; j < kLanes; ++j) {
        const Quat a = kref::randomUnitQuat(rng), r = kref::randomUnitQuat(rng);
        // n: a unit direction orthogonal to a; b = cos(w) a + sin(w) n is w from a.
        const float ra = r.x * a.x + r.y * a.y + r.z * a.z + r.w * a.w;
        const Quat n = normalize(Quat{r.x - ra * a.x, r.y - ra * a.y, r.z - ra * a.z, r.w - ra * a.w});
        const float w = j < 8 ? 0.3763f - 0.0001f * static_cast<float>(j) : 0.3763f * unit(rng);
        const float c = std::cos(w), sn = std::sin(w), flip = j % 2 == 0 ? 1.0f : -1.0f;
        pairs.push_back({a,
                         normalize(Quat{flip * (c * a.x + sn * n.x), flip * (c * a.y + sn * n.y),
                                        flip * (c * a.z + sn * n.z), flip * (c * a.w + sn * n.w)})});
    }
    const long double worst = worstSlerpError(kernels, pairs);
    EXPECT_LE(worst, 1e-6L) << "worst component error " << static_cast<double>(worst);
}

TEST_P(SimdLevels, LocalToModelMatchesTheScalarComposition) {
    std::mt19937 rng(5);
    // Every tail length of 4-, 8- and 16-lane blocks (1-15), and several blocks.
    for (const std::size_t n : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 9u, 13u, 14u, 15u, 16u, 24u, 26u, 27u, 28u, 33u, 100u}) {
        std::vector<std::int32_t> parents(n);
        for (std::size_t i = 0; i < n; ++i) {
            parents[i] = i == 0 || i % 9 == 0 ? -1 : static_cast<std::int32_t>(rng() % i);
        }
        const auto local = test::randomTransforms(n, rng);
        std::vector<Mat4> want(n), got(n);
        reference::localToModel(parents, local, want);
        const SoaPose pose(local, {});
        ASSERT_TRUE(kernels.localToModel(parents, pose, got));
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t e = 0; e < 16; ++e) {
                ASSERT_NEAR(got[i].m[e], want[i].m[e], 2e-5f * std::max(1.0f, std::fabs(want[i].m[e])))
                    << "n " << n << " joint " << i << " element " << e;
            }
        }
    }
}

TEST_P(SimdLevels, PaletteAndSkinningMatchTheScalarReference) {
    std::mt19937 rng(17);
    constexpr std::size_t kJoints = 21, kVertices = 203;
    std::vector<std::int32_t> parents(kJoints);
    for (std::size_t i = 0; i < kJoints; ++i) parents[i] = static_cast<std::int32_t>(i) - 1;
    const auto local = test::randomTransforms(kJoints, rng);
    std::vector<Mat4> model(kJoints);
    reference::localToModel(parents, local, model);
    Skin skin;
    for (std::uint32_t i = 0; i < 13; ++i) {
        skin.joints.push_back((i * 5) % kJoints);
        Transform t = test::randomTransforms(1, rng)[0];
        skin.inverseBindMatrices.push_back(inverseAffine(toMatrix(t)));
    }
    std::vector<Mat4> want(skin.joints.size()), got(skin.joints.size());
    reference::skinPalette(skin, model, want);
    ASSERT_TRUE(kernels.skinPalette(skin, model, got));
    for (std::size_t i = 0; i < want.size(); ++i) {
        for (std::size_t e = 0; e < 16; ++e) {
            ASSERT_NEAR(got[i].m[e], want[i].m[e], 2e-5f * std::max(1.0f, std::fabs(want[i].m[e]))) << i << " " << e;
        }
    }

    MeshPrimitive prim;
    prim.influencesPerVertex = 4;
    std::uniform_real_distribution<float> p(-1.0f, 1.0f);
    for (std::size_t v = 0; v < kVertices; ++v) {
        prim.positions.push_back({p(rng), p(rng), p(rng)});
        const Vec3 n{p(rng), p(rng), p(rng) + 2.0f};
        prim.normals.push_back(n * (1.0f / length(n)));
        float w[4], sum = 0.0f;
        for (float& x : w) sum += x = v % 7 == 0 && &x != w ? 0.0f : std::fabs(p(rng)) + 0.01f;
        for (int i = 0; i < 4; ++i) {
            prim.joints.push_back(static_cast<std::uint16_t>(rng() % skin.joints.size()));
            prim.weights.push_back(w[i] / sum);
        }
    }
    std::vector<Vec3> wantP(kVertices), wantN(kVertices), gotP(kVertices), gotN(kVertices), gotP2(kVertices);
    reference::skinVertices(prim, want, prim.positions, prim.normals, wantP, wantN);
    ASSERT_TRUE(kernels.skinVertices(prim, got, prim.positions, prim.normals, gotP, gotN));
    ASSERT_TRUE(kernels.skinVertices(prim, got, prim.positions, {}, gotP2, {}));
    for (std::size_t v = 0; v < kVertices; ++v) {
        ASSERT_NEAR(gotP[v].x, wantP[v].x, 1e-4f) << v;
        ASSERT_NEAR(gotP[v].y, wantP[v].y, 1e-4f) << v;
        ASSERT_NEAR(gotP[v].z, wantP[v].z, 1e-4f) << v;
        ASSERT_EQ(gotP2[v].x, gotP[v].x);
        ASSERT_NEAR(gotN[v].x, wantN[v].x, 1e-5f) << v;
        ASSERT_NEAR(gotN[v].y, wantN[v].y, 1e-5f) << v;
        ASSERT_NEAR(gotN[v].z, wantN[v].z, 1e-5f) << v;
    }
}

// Every influence count from 0 to 8 and vertex counts that leave 0 to 3 vertices
// after the kernels' groups of four, against linear blend skinning written out
// in double here (sum of w * (P p), the transform before the blend). The
// vertices sit in the middle of larger arrays whose guard values must survive:
// nothing is read or written outside the given spans.
TEST_P(SimdLevels, SkinningCoversEveryInfluenceCountAndTail) {
    std::mt19937 rng(29);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<Mat4> palette(9);
    for (Mat4& m : palette) {
        Transform t = test::randomTransforms(1, rng)[0];
        m = toMatrix(t);
    }
    for (std::size_t influences = 0; influences <= 8; ++influences) {
        for (const std::size_t n : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 13u, 22u}) {
            MeshPrimitive prim;
            prim.influencesPerVertex = static_cast<std::uint32_t>(influences);
            for (std::size_t v = 0; v < n; ++v) {
                prim.positions.push_back({u(rng), u(rng), u(rng)});
                const Vec3 nv{u(rng), u(rng), u(rng) + 2.5f};
                prim.normals.push_back(nv * (1.0f / length(nv)));
                for (std::size_t i = 0; i < influences; ++i) {
                    prim.joints.push_back(static_cast<std::uint16_t>(rng() % palette.size()));
                    prim.weights.push_back(1.0f / static_cast<float>(influences));
                }
            }
            const Vec3 guard{1234.5f, -99.0f, 7.0f};
            std::vector<Vec3> outP(n + 2, guard), outN(n + 2, guard);
            ASSERT_TRUE(kernels.skinVertices(prim, palette, prim.positions, prim.normals,
                                             std::span<Vec3>(outP).subspan(1, n), std::span<Vec3>(outN).subspan(1, n)));
            EXPECT_EQ(outP.front(), guard);
            EXPECT_EQ(outP.back(), guard);
            EXPECT_EQ(outN.front(), guard);
            EXPECT_EQ(outN.back(), guard);
            for (std::size_t v = 0; v < n; ++v) {
                double want[3] = {0, 0, 0};
                const Vec3 pv = prim.positions[v];
                for (std::size_t i = 0; i < influences; ++i) {
                    const Mat4& m = palette[prim.joints[v * influences + i]];
                    const double w = prim.weights[v * influences + i];
                    for (int r = 0; r < 3; ++r) {
                        want[r] +=
                            w * (double(m(r, 0)) * pv.x + double(m(r, 1)) * pv.y + double(m(r, 2)) * pv.z + m(r, 3));
                    }
                }
                const Vec3 got = outP[v + 1];
                EXPECT_NEAR(got.x, want[0], 2e-5) << influences << " influences, vertex " << v << " of " << n;
                EXPECT_NEAR(got.y, want[1], 2e-5) << influences << " influences, vertex " << v << " of " << n;
                EXPECT_NEAR(got.z, want[2], 2e-5) << influences << " influences, vertex " << v << " of " << n;
                // No influence: a zero matrix, so the normal collapses and the input is kept.
                if (influences == 0) {
                    EXPECT_EQ(outN[v + 1], prim.normals[v]);
                    continue;
                }
                // Otherwise the normal is the inverse transpose of the blended 3x3 applied
                // to it, normalised: solve A^T x = n by Gaussian elimination in double
                // (the kernels use the cofactor matrix instead).
                double a[3][4];
                for (int r = 0; r < 3; ++r) {
                    for (int c = 0; c < 3; ++c) {
                        a[r][c] = 0.0;
                        for (std::size_t i = 0; i < influences; ++i) {
                            a[r][c] += double(prim.weights[v * influences + i]) *
                                palette[prim.joints[v * influences + i]](c, r);  // transposed
                        }
                    }
                }
                a[0][3] = prim.normals[v].x;
                a[1][3] = prim.normals[v].y;
                a[2][3] = prim.normals[v].z;
                for (int c = 0; c < 3; ++c) {
                    int pivot = c;
                    for (int r = c + 1; r < 3; ++r) {
                        if (std::abs(a[r][c]) > std::abs(a[pivot][c])) pivot = r;
                    }
                    std::swap(a[c], a[pivot]);
                    for (int r = 0; r < 3; ++r) {
                        if (r == c) continue;
                        const double f = a[r][c] / a[c][c];
                        for (int k = c; k < 4; ++k) a[r][k] -= f * a[c][k];
                    }
                }
                const double x = a[0][3] / a[0][0], y = a[1][3] / a[1][1], z = a[2][3] / a[2][2];
                const double len = std::sqrt(x * x + y * y + z * z);
                const Vec3 gotN = outN[v + 1];
                EXPECT_NEAR(gotN.x, x / len, 1e-4) << influences << " influences, vertex " << v << " of " << n;
                EXPECT_NEAR(gotN.y, y / len, 1e-4) << influences << " influences, vertex " << v << " of " << n;
                EXPECT_NEAR(gotN.z, z / len, 1e-4) << influences << " influences, vertex " << v << " of " << n;
            }
        }
    }
}

// Skinning in place (outputs are the input arrays) gives what skinning into other
// arrays gives: no kernel may write a vertex's neighbour before reading it.
TEST_P(SimdLevels, SkinningInPlaceMatchesSkinningIntoOtherArrays) {
    std::mt19937 rng(31);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<Mat4> palette(6);
    for (Mat4& m : palette) m = toMatrix(test::randomTransforms(1, rng)[0]);
    for (const std::uint32_t influences : {1u, 4u}) {
        for (const std::size_t n : {1u, 2u, 5u, 8u, 37u}) {
            MeshPrimitive prim;
            prim.influencesPerVertex = influences;
            for (std::size_t v = 0; v < n; ++v) {
                prim.positions.push_back({u(rng), u(rng), u(rng)});
                const Vec3 nv{u(rng), u(rng) + 2.5f, u(rng)};
                prim.normals.push_back(nv * (1.0f / length(nv)));
                for (std::uint32_t i = 0; i < influences; ++i) {
                    prim.joints.push_back(static_cast<std::uint16_t>(rng() % palette.size()));
                    prim.weights.push_back(1.0f / static_cast<float>(influences));
                }
            }
            std::vector<Vec3> wantP(n), wantN(n);
            ASSERT_TRUE(kernels.skinVertices(prim, palette, prim.positions, prim.normals, wantP, wantN));
            std::vector<Vec3> p = prim.positions, nrm = prim.normals;
            ASSERT_TRUE(kernels.skinVertices(prim, palette, p, nrm, p, nrm));
            std::vector<Vec3> onlyP = prim.positions;
            ASSERT_TRUE(kernels.skinVertices(prim, palette, onlyP, {}, onlyP, {}));
            for (std::size_t v = 0; v < n; ++v) {
                EXPECT_EQ(p[v], wantP[v]) << influences << " influences, vertex " << v << " of " << n;
                EXPECT_EQ(nrm[v], wantN[v]) << influences << " influences, vertex " << v << " of " << n;
                EXPECT_EQ(onlyP[v], wantP[v]) << influences << " influences, vertex " << v << " of " << n;
            }
        }
    }
}

TEST_P(SimdLevels, BlendIsLerpAndShortestArcNlerp) {
    std::mt19937 rng(8);
    constexpr std::size_t n = 19;
    const auto la = test::randomTransforms(n, rng), lb = test::randomTransforms(n, rng);
    const std::vector<float> wa{0.0f, 1.0f}, wb{1.0f, 3.0f};
    const SoaPose a(la, wa), b(lb, wb);
    SoaPose out(n, 2);
    for (const float t : {0.0f, 0.3f, 0.5f, 1.0f}) {
        ASSERT_TRUE(kernels.blend(a, b, t, out));
        for (std::size_t j = 0; j < n; ++j) {
            const Transform g = out.joint(j);
            EXPECT_NEAR(g.translation.y, la[j].translation.y + (lb[j].translation.y - la[j].translation.y) * t, 1e-6f);
            EXPECT_NEAR(g.scale.z, la[j].scale.z + (lb[j].scale.z - la[j].scale.z) * t, 1e-6f);
            // nlerp written out in double: sign-align b to a, lerp, normalise.
            const Quat qa = la[j].rotation, qb = lb[j].rotation;
            const double s = qa.x * qb.x + qa.y * qb.y + qa.z * qb.z + qa.w * qb.w < 0 ? -1.0 : 1.0;
            double r[4] = {qa.x + (s * qb.x - qa.x) * t, qa.y + (s * qb.y - qa.y) * t, qa.z + (s * qb.z - qa.z) * t,
                           qa.w + (s * qb.w - qa.w) * t};
            const double len = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
            EXPECT_NEAR(g.rotation.x, r[0] / len, 1e-6);
            EXPECT_NEAR(g.rotation.w, r[3] / len, 1e-6);
        }
        EXPECT_NEAR(out.weights()[1], 1.0f + 2.0f * t, 1e-6f);
    }
    // In place: out aliasing a.
    SoaPose c(la, wa);
    ASSERT_TRUE(kernels.blend(c, b, 1.0f, c));
    EXPECT_NEAR(c.joint(3).translation.x, lb[3].translation.x, 1e-6f);
}

bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Every path of every joint and 6 weights on one LINEAR timeline, as baked clips
// are: whole registers of consecutive joints (the sampler's direct stores).
Clip sharedTimelineClip(std::size_t joints, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> v(-2.0f, 2.0f);
    const std::vector<float> times{0.0f, 0.4f, 0.8f, 1.2f, 1.6f, 2.0f};
    const auto values = [&](std::size_t n) {
        std::vector<float> out(n);
        for (float& f : out) f = v(rng);
        return out;
    };
    std::vector<Track> tracks;
    for (std::uint32_t j = 0; j < joints; ++j) {
        std::vector<float> rotations;
        for (std::size_t k = 0; k < times.size(); ++k) {
            const Quat q = kref::randomUnitQuat(rng);
            rotations.insert(rotations.end(), {q.x, q.y, q.z, q.w});
        }
        tracks.push_back(test::makeTrack(j, TrackPath::Translation, Interpolation::Linear, times, values(18)));
        tracks.push_back(test::makeTrack(j, TrackPath::Rotation, Interpolation::Linear, times, rotations));
        tracks.push_back(test::makeTrack(j, TrackPath::Scale, Interpolation::Linear, times, values(18)));
    }
    tracks.push_back(test::makeTrack(0, TrackPath::Weights, Interpolation::Linear, times, values(36), 6, 0));
    auto clip = Clip::create("shared", std::move(tracks));
    EXPECT_TRUE(clip.ok()) << clip.message();
    return std::move(clip).value();
}

// sampleOver against its definition: sample() into a second pose, then blend();
// blend and sampling are each checked against closed forms and the scalar sampler
// above. Every interpolation, contiguous and scattered lanes (two shared timelines
// and private ones), morph weights, with and without a mask, forward and seeking.
TEST_P(SimdLevels, SamplingOverAPoseIsSamplingThenBlendingBitForBit) {
    for (const std::size_t joints : {6u, 17u, 40u, 64u}) {
        for (const bool shared : {false, true}) {
            const Clip clip = shared ? sharedTimelineClip(joints, 3u + static_cast<std::uint32_t>(joints))
                                     : mixedClip(joints, 21u + static_cast<std::uint32_t>(joints), true);
            const PackedClip packed(clip);
            ASSERT_TRUE(packed.coversPose(joints, 6));
            PackedClipCursor fused(packed), apart(packed);
            std::mt19937 rng(5);
            std::uniform_real_distribution<float> unit(0.0f, 1.0f);
            JointMask mask(joints);
            for (std::size_t j = 0; j < joints; ++j) ASSERT_TRUE(mask.set(j, j % 4 == 0 ? 0.0f : unit(rng)));
            std::vector<float> times;
            for (float t = -0.3f; t < 2.7f; t += 1.0f / 30.0f) times.push_back(t);
            for (const Track& t : clip.tracks()) times.insert(times.end(), t.times.begin(), t.times.end());
            std::uniform_real_distribution<float> any(-0.2f, 2.6f);
            for (int i = 0; i < 100; ++i) times.push_back(any(rng));
            std::vector<float> baseWeights(6);
            for (std::size_t k = 0; k < times.size(); ++k) {
                for (float& w : baseWeights) w = unit(rng);
                const SoaPose base(test::randomTransforms(joints, rng), baseWeights);
                const float weight = k % 5 == 0 ? 1.0f : k % 5 == 1 ? 0.0f : unit(rng);
                const JointMask* m = k % 2 == 0 ? &mask : nullptr;
                SoaPose sampled(joints, 6), want = base, got = base;
                ASSERT_TRUE(kernels.sample(packed, times[k], apart, sampled));
                ASSERT_TRUE(m != nullptr ? kernels.blend(want, sampled, weight, *m, want)
                                         : kernels.blend(want, sampled, weight, want));
                ASSERT_TRUE(kernels.sampleOver(packed, times[k], fused, weight, m, got));
                for (std::size_t c = 0; c < kSoaComponents; ++c) {
                    const auto comp = static_cast<SoaComponent>(c);
                    for (std::size_t j = 0; j < joints; ++j) {
                        ASSERT_TRUE(sameBits(got.component(comp)[j], want.component(comp)[j]))
                            << joints << " joints, t " << times[k] << ", component " << c << ", joint " << j << ": "
                            << got.component(comp)[j] << " against " << want.component(comp)[j];
                    }
                }
                for (std::size_t i = 0; i < 6; ++i) {
                    ASSERT_TRUE(sameBits(got.weights()[i], want.weights()[i])) << "t " << times[k] << ", weight " << i;
                }
            }
        }
    }
}

TEST_P(SimdLevels, SamplingOverAPoseTheClipDoesNotCoverIsRefusedWithoutWriting) {
    const PackedClip partial(mixedClip(9, 4));
    const PackedClip full(mixedClip(9, 4, true));
    PackedClipCursor cursor(partial), fullCursor(full);
    std::mt19937 rng(2);
    const SoaPose before(test::randomTransforms(9, rng), std::vector<float>(6, 0.5f));
    SoaPose pose = before, fewerWeights(test::randomTransforms(9, rng), std::vector<float>(3, 0.5f));
    EXPECT_FALSE(kernels.sampleOver(partial, 0.5f, cursor, 0.5f, nullptr, pose));
    EXPECT_FALSE(kernels.sampleOver(full, 0.5f, fullCursor, 0.5f, nullptr, fewerWeights));
    const JointMask wrong(8);
    EXPECT_FALSE(kernels.sampleOver(full, 0.5f, fullCursor, 0.5f, &wrong, pose));
    for (std::size_t j = 0; j < 9; ++j) {
        EXPECT_TRUE(sameBits(pose.joint(j).translation.x, before.joint(j).translation.x));
        EXPECT_TRUE(sameBits(pose.joint(j).rotation.w, before.joint(j).rotation.w));
    }
}

TEST_P(SimdLevels, MismatchedSizesAreRefusedWithoutWriting) {
    const Clip clip = mixedClip(5, 1);
    const PackedClip packed(clip);
    PackedClipCursor cursor(packed);
    SoaPose small(4, 6), noWeights(5, 0);
    const Transform before = small.joint(0);
    EXPECT_FALSE(kernels.sample(packed, 0.5f, cursor, small));
    EXPECT_FALSE(kernels.sample(packed, 0.5f, cursor, noWeights));
    EXPECT_EQ(small.joint(0).translation.x, before.translation.x);
    PackedClipCursor unbound;
    SoaPose ok(5, 6);
    EXPECT_FALSE(kernels.sample(packed, 0.5f, unbound, ok));
    SoaPose other(6, 6);
    EXPECT_FALSE(kernels.blend(ok, other, 0.5f, ok));
    std::vector<Mat4> model(3);
    const std::vector<std::int32_t> parents{-1, 0, 1, 2, 3};
    EXPECT_FALSE(kernels.localToModel(parents, ok, model));
}

INSTANTIATE_TEST_SUITE_P(Kernels, SimdLevels, ::testing::ValuesIn(test::supportedKernelConfigs()),
                         test::kernelConfigName);

TEST(SimdDispatch, LevelsParseAndTheBestIsSupported) {
    for (const SimdLevel l : {SimdLevel::Portable, SimdLevel::Sse42, SimdLevel::Avx2, SimdLevel::Avx512}) {
        EXPECT_EQ(parseSimdLevel(toString(l)), l);
    }
    EXPECT_FALSE(parseSimdLevel("avx3").has_value());
    EXPECT_TRUE(isSupported(bestSimdLevel()));
    EXPECT_TRUE(isSupported(SimdLevel::Portable));
    // A level the CPU lacks falls back to the best one rather than crashing later.
    for (const SimdLevel l : {SimdLevel::Sse42, SimdLevel::Avx2, SimdLevel::Avx512}) {
        if (!isSupported(l)) {
            std::printf("[ INFO     ] %s is not supported on this CPU: its kernels are not run here\n",
                        std::string(toString(l)).c_str());
            EXPECT_EQ(PoseKernels(l).level(), bestSimdLevel());
        }
    }
}

// What the kernel's /proc/cpuinfo says about the first CPU: the reference for the
// run-time checks below, which read cpuid (and the OS's register saving) instead.
// Under an emulator (tests/emulated) /proc/cpuinfo still describes the host, so
// KINEMA_TEST_CPUINFO names a file in the same format describing the emulated model.
struct CpuInfo {
    std::string vendor, family, model, flags;
    bool has(const std::string& flag) const { return (" " + flags + " ").find(" " + flag + " ") != std::string::npos; }
};

std::optional<CpuInfo> readCpuInfo() {
    const char* path = std::getenv("KINEMA_TEST_CPUINFO");
    const bool emulated = path != nullptr && *path != '\0';
    std::ifstream info(emulated ? path : "/proc/cpuinfo");
    if (!info) {
        // A missing description of an emulated CPU is a broken test set-up, not a skip.
        if (emulated) ADD_FAILURE() << "KINEMA_TEST_CPUINFO names " << path << ", which cannot be read";
        return std::nullopt;
    }
    CpuInfo cpu;
    std::string line;
    // The key is what precedes the colon, less trailing blanks ("model" is not "model name").
    const auto field = [&](std::string_view name, std::string& out) {
        const std::size_t colon = line.find(':');
        if (!out.empty() || colon == std::string::npos) return;
        const std::string_view key = std::string_view(line).substr(0, colon);
        if (key.substr(0, key.find_last_not_of(" \t") + 1) != name) return;
        out = line.substr(colon + 1);
        out.erase(0, out.find_first_not_of(' '));
    };
    while (std::getline(info, line)) {
        field("vendor_id", cpu.vendor);
        field("cpu family", cpu.family);
        field("model", cpu.model);
        field("flags", cpu.flags);
    }
    return cpu;
}

// Each level's kernels are built with that level's instruction sets plus BMI2
// (src/CMakeLists.txt); a level is offered exactly where the CPU has all of them.
TEST(SimdDispatch, LevelsAreSupportedExactlyWhereTheCpuHasTheirInstructionSets) {
    const std::optional<CpuInfo> cpu = readCpuInfo();
    if (!cpu || cpu->flags.empty()) {
        std::printf("[ SKIPPED  ] /proc/cpuinfo has no flags here: the levels' checks are not compared\n");
        GTEST_SKIP();
    }
    const auto all = [&](std::initializer_list<const char*> flags) {
        for (const char* f : flags) {
            if (!cpu->has(f)) return false;
        }
        return true;
    };
    EXPECT_EQ(isSupported(SimdLevel::Sse42), all({"sse4_2"}));
    EXPECT_EQ(isSupported(SimdLevel::Avx2), all({"avx2", "fma", "bmi2"}));
    EXPECT_EQ(isSupported(SimdLevel::Avx512), all({"avx512f", "avx512vl", "avx512dq", "avx512bw", "bmi2"}));
}

// wideVectorCost() reads cpuid; the kernel's /proc/cpuinfo says the same thing
// another way (vendor, family and model in decimal, flags), so it is the reference here.
TEST(SimdDispatch, WideVectorCostFollowsTheCpuModelAndOnlyThereAreKernelsMixed) {
    const std::optional<CpuInfo> cpu = readCpuInfo();
    if (!cpu) {
        std::printf("[ SKIPPED  ] /proc/cpuinfo is not readable: wideVectorCost() is not checked\n");
        GTEST_SKIP();
    }
    const std::string& vendor = cpu->vendor;
    const std::string& family = cpu->family;
    const std::string& model = cpu->model;
    const bool avx512 = isSupported(SimdLevel::Avx512);
    const bool zen4 = vendor == "AuthenticAMD" && family == "25" && avx512;
    const bool iceLake = vendor == "GenuineIntel" && family == "6" &&
        (model == "106" || model == "108" || model == "125" || model == "126") && avx512;
    const WideVectorCost expected = zen4 ? WideVectorCost::SplitHalves
        : iceLake                        ? WideVectorCost::Downclocked
                                         : WideVectorCost::Native;
    std::printf("[ INFO     ] vendor %s, family %s, model %s, avx512 %d: %s\n", vendor.c_str(), family.c_str(),
                model.c_str(), avx512 ? 1 : 0, std::string(toString(expected)).c_str());
    EXPECT_EQ(wideVectorCost(), expected);

    const char* mixedName = expected == WideVectorCost::SplitHalves ? "avx512 (local->model, palette: avx2)"
        : expected == WideVectorCost::Downclocked                   ? "avx512 (skinning; other passes: avx2)"
                                                                    : "";
    for (const SimdLevel l : {SimdLevel::Portable, SimdLevel::Sse42, SimdLevel::Avx2, SimdLevel::Avx512}) {
        if (!isSupported(l)) continue;
        const PoseKernels tuned(l, KernelMix::Tuned), uniform(l, KernelMix::Uniform);
        EXPECT_FALSE(uniform.mixed());
        EXPECT_EQ(uniform.name(), toString(l));
        const bool mixed = l == SimdLevel::Avx512 && expected != WideVectorCost::Native;
        EXPECT_EQ(tuned.mixed(), mixed);
        EXPECT_EQ(tuned.name(), mixed ? std::string_view(mixedName) : toString(l));
        EXPECT_EQ(tuned.level(), l);
    }
}

TEST(PackedClipLayout, SharedTimelinesAreStoredOnceAndTheSeekIndexFindsEveryInterval) {
    const Clip clip = mixedClip(40, 11);
    const PackedClip packed(clip);
    std::vector<std::vector<float>> distinct;
    for (const Track& t : clip.tracks()) {
        if (std::find(distinct.begin(), distinct.end(), t.times) == distinct.end()) distinct.push_back(t.times);
    }
    EXPECT_EQ(packed.timelines().size(), distinct.size());
    EXPECT_GT(packed.bytesPerKey(), 0.0);

    // Uneven timelines, including clustered keys, at random and adversarial times.
    std::mt19937 rng(3);
    std::exponential_distribution<float> gap(1.0f);
    for (int trial = 0; trial < 40; ++trial) {
        std::vector<float> times;
        float t = gap(rng);
        const int n = 2 + static_cast<int>(rng() % 200);
        for (int k = 0; k < n; ++k) {
            times.push_back(t);
            t += trial % 3 == 0 && k % 17 != 0 ? 1e-4f : gap(rng);  // clusters
        }
        std::vector<float> vals(times.size() * 3, 0.0f);
        auto c = Clip::create("seek", {test::makeTrack(0, TrackPath::Translation, Interpolation::Linear, times, vals)});
        ASSERT_TRUE(c.ok());
        const PackedClip p(c.value());
        const PackedTimeline& tl = p.timelines()[0];
        std::uint32_t hint = 0;
        std::uniform_real_distribution<float> at(times.front(), times.back());
        std::vector<float> queries;
        for (int i = 0; i < 200; ++i) queries.push_back(at(rng));
        for (std::size_t k = 1; k + 1 < times.size(); ++k) {
            queries.push_back(times[k]);
            queries.push_back(std::nextafter(times[k], 0.0f));
        }
        for (const float q : queries) {
            if (!(q > times.front() && q < times.back())) continue;
            const std::uint32_t hintCopy = hint;
            const std::uint32_t k = findPackedInterval(p, tl, q, hint);
            const auto want =
                static_cast<std::uint32_t>(std::upper_bound(times.begin(), times.end(), q) - times.begin()) - 1;
            ASSERT_EQ(k, want) << "trial " << trial << " time " << q << " hint " << hintCopy;
            ASSERT_EQ(hint, k);
        }
    }
}

TEST(PackedClipLayout, CoverageIsKnownSoRestFillCanBeSkipped) {
    std::vector<Track> tracks;
    for (std::uint32_t j = 0; j < 3; ++j) {
        for (const TrackPath p : {TrackPath::Translation, TrackPath::Rotation, TrackPath::Scale}) {
            tracks.push_back(test::makeTrack(
                j, p, Interpolation::Linear, {0.0f, 1.0f},
                p == TrackPath::Rotation ? std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1} : std::vector<float>(6, 1.0f)));
        }
    }
    auto full = Clip::create("full", tracks);
    ASSERT_TRUE(full.ok());
    EXPECT_TRUE(PackedClip(full.value()).coversPose(3, 0));
    EXPECT_FALSE(PackedClip(full.value()).coversPose(4, 0));
    EXPECT_FALSE(PackedClip(full.value()).coversPose(3, 2));
    tracks.erase(tracks.begin() + 4);  // joint 1 rotation
    auto partial = Clip::create("partial", tracks);
    ASSERT_TRUE(partial.ok());
    EXPECT_FALSE(PackedClip(partial.value()).coversPose(3, 0));
}

}  // namespace
