// Skinning's normal transforms (NormalTransform) in the scalar reference and in the
// kernels of every instruction set this CPU runs: hand-computed normals where both
// transforms must agree (a rotation times a uniform scale, mirrored too) and where
// they must differ (non-uniform scale); the blended-matrix normals against M n in
// double; collapsed normals, tails of one to three vertices after groups of four,
// and skinning in place; the SSE4.2 kernel against the portable one and the AVX-512
// split-blend kernel against the whole-register one, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <span>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/runtime/detail/kernel_abi.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "kinema/runtime/simd.hpp"
#include "kinema/runtime/skinning.hpp"
#include "runtime/fixtures.hpp"

namespace {

using namespace kinema;

constexpr NormalTransform kBothTransforms[] = {NormalTransform::InverseTranspose, NormalTransform::BlendedMatrix};

class SkinKernels : public ::testing::TestWithParam<test::KernelConfig> {
protected:
    PoseKernels kernels{GetParam().level, GetParam().mix};
};

const char* name(NormalTransform t) {
    return t == NormalTransform::BlendedMatrix ? "blended matrix" : "inverse transpose";
}

// `n` copies of one vertex with the given influences (joints 0, 1, ... in order).
MeshPrimitive copies(std::size_t n, Vec3 position, Vec3 normal, const std::vector<float>& weights) {
    MeshPrimitive prim;
    prim.influencesPerVertex = static_cast<std::uint32_t>(weights.size());
    for (std::size_t v = 0; v < n; ++v) {
        prim.positions.push_back(position);
        prim.normals.push_back(normal);
        for (std::size_t i = 0; i < weights.size(); ++i) {
            prim.joints.push_back(static_cast<std::uint16_t>(i));
            prim.weights.push_back(weights[i]);
        }
    }
    return prim;
}

// `n` matrices of test::randomTransforms; where `mirrored`, every fourth from the
// second has its x scale negated, and where `flat`, every fourth from the third its z
// scale zeroed.
std::vector<Mat4> randomPalette(std::size_t n, std::mt19937& rng, bool mirrored, bool flat) {
    std::vector<Mat4> palette(n);
    for (std::size_t i = 0; i < n; ++i) {
        Transform t = test::randomTransforms(1, rng)[0];
        if (mirrored && i % 4 == 1) t.scale.x = -t.scale.x;
        if (flat && i % 4 == 2) t.scale.z = 0.0f;
        palette[i] = toMatrix(t);
    }
    return palette;
}

// `n` vertices of `influences` each: positions in [-1, 1]^3, unit normals leaning
// toward +z, weights normalised to sum 1, and for influence i of vertex v the
// joint `joint(v)`.
template <class Joint>
MeshPrimitive randomPrimitive(std::size_t n, std::uint32_t influences, std::mt19937& rng, Joint&& joint) {
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    MeshPrimitive prim;
    prim.influencesPerVertex = influences;
    for (std::size_t v = 0; v < n; ++v) {
        prim.positions.push_back({u(rng), u(rng), u(rng)});
        const Vec3 nv{u(rng), u(rng), u(rng) + 2.5f};
        prim.normals.push_back(nv * (1.0f / length(nv)));
        float sum = 0.0f;
        std::vector<float> w(influences);
        for (float& x : w) sum += x = std::fabs(u(rng)) + 0.05f;
        for (std::uint32_t i = 0; i < influences; ++i) {
            prim.joints.push_back(joint(v));
            prim.weights.push_back(w[i] / sum);
        }
    }
    return prim;
}

// A quarter turn about z, (x, y, z) -> (-y, x, z), times `scale`, with a translation.
Mat4 quarterTurnScaled(float scale, Vec3 t) {
    Mat4 m;
    m(0, 0) = 0.0f;
    m(0, 1) = -scale;
    m(1, 0) = scale;
    m(1, 1) = 0.0f;
    m(2, 2) = scale;
    m(0, 3) = t.x;
    m(1, 3) = t.y;
    m(2, 3) = t.z;
    return m;
}

// Skins `prim` with the reference and with `kernels` under `transform`; returns the
// normals of both (positions are checked against each other here).
void skinBoth(const PoseKernels& kernels, const MeshPrimitive& prim, std::span<const Mat4> palette,
              NormalTransform transform, std::vector<Vec3>& reference, std::vector<Vec3>& fast) {
    const std::size_t n = prim.positions.size();
    std::vector<Vec3> refP(n), fastP(n);
    reference.assign(n, Vec3{});
    fast.assign(n, Vec3{});
    reference::skinVertices(prim, palette, prim.positions, prim.normals, refP, reference, transform);
    ASSERT_TRUE(kernels.skinVertices(prim, palette, prim.positions, prim.normals, fastP, fast, transform));
    for (std::size_t v = 0; v < n; ++v) {
        EXPECT_NEAR(fastP[v].x, refP[v].x, 1e-5f) << v;
        EXPECT_NEAR(fastP[v].y, refP[v].y, 1e-5f) << v;
        EXPECT_NEAR(fastP[v].z, refP[v].z, 1e-5f) << v;
    }
}

// A rotation times a uniform scale, blended from two influences with different
// translations: the inverse transpose and the matrix itself turn a normal the same
// way, here (0.6, 0, 0.8) to (0, 0.6, 0.8); with a negative scale (a mirror through
// the origin) both give (0, -0.6, -0.8). Every vertex count up to nine, so that each
// kernel's groups and tails see it.
TEST_P(SkinKernels, BothNormalTransformsAgreeUnderARotationWithUniformScale) {
    for (const float scale : {2.0f, -2.0f}) {
        const std::vector<Mat4> palette{quarterTurnScaled(scale, {1, 2, 3}), quarterTurnScaled(scale, {-4, 0, 0.5f})};
        const float s = scale > 0.0f ? 1.0f : -1.0f;
        const Vec3 want{0.0f, 0.6f * s, 0.8f * s};
        for (std::size_t n = 1; n <= 9; ++n) {
            const MeshPrimitive prim = copies(n, {0.5f, -1.0f, 2.0f}, {0.6f, 0.0f, 0.8f}, {0.25f, 0.75f});
            for (const NormalTransform t : kBothTransforms) {
                std::vector<Vec3> ref, fast;
                skinBoth(kernels, prim, palette, t, ref, fast);
                for (std::size_t v = 0; v < n; ++v) {
                    for (const Vec3 got : {ref[v], fast[v]}) {
                        EXPECT_NEAR(got.x, want.x, 1e-6f) << name(t) << ", scale " << scale << ", vertex " << v;
                        EXPECT_NEAR(got.y, want.y, 1e-6f) << name(t) << ", scale " << scale << ", vertex " << v;
                        EXPECT_NEAR(got.z, want.z, 1e-6f) << name(t) << ", scale " << scale << ", vertex " << v;
                    }
                }
            }
        }
    }
}

// A stretch by 4 along y: the plane spanned by (1, 1, 0) and (0, 0, 1), normal
// (1, -1, 0) / sqrt 2, becomes the plane of (1, 4, 0) and (0, 0, 1). Its normal,
// the inverse transpose's answer, is (4, -1, 0) / sqrt 17; the matrix itself gives
// (1, -4, 0) / sqrt 17, no longer perpendicular to the surface.
TEST_P(SkinKernels, TheNormalTransformsDifferUnderNonUniformScale) {
    Mat4 stretch;
    stretch(1, 1) = 4.0f;
    stretch(0, 3) = 0.5f;
    const std::vector<Mat4> palette{stretch};
    const float h = std::sqrt(0.5f), q = 1.0f / std::sqrt(17.0f);
    for (std::size_t n = 1; n <= 9; ++n) {
        const MeshPrimitive prim = copies(n, {1.0f, 1.0f, 1.0f}, {h, -h, 0.0f}, {1.0f});
        for (const NormalTransform t : kBothTransforms) {
            const Vec3 want = t == NormalTransform::InverseTranspose ? Vec3{4 * q, -q, 0} : Vec3{q, -4 * q, 0};
            std::vector<Vec3> ref, fast;
            skinBoth(kernels, prim, palette, t, ref, fast);
            for (std::size_t v = 0; v < n; ++v) {
                for (const Vec3 got : {ref[v], fast[v]}) {
                    EXPECT_NEAR(got.x, want.x, 1e-6f) << name(t) << ", vertex " << v;
                    EXPECT_NEAR(got.y, want.y, 1e-6f) << name(t) << ", vertex " << v;
                    EXPECT_NEAR(got.z, want.z, 1e-6f) << name(t) << ", vertex " << v;
                }
            }
        }
    }
}

// Random palettes with non-uniform scales, some mirrored (a negative scale), every
// influence count from 0 to 8 and vertex counts leaving 0 to 3 after groups of four:
// both transforms against the reference, and the blended-matrix normals against
// M n computed here in double.
TEST_P(SkinKernels, BothNormalTransformsMatchTheReference) {
    std::mt19937 rng(43);
    const std::vector<Mat4> palette = randomPalette(12, rng, true, false);
    for (std::uint32_t influences = 0; influences <= 8; ++influences) {
        for (const std::size_t n : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 13u, 203u}) {
            // Every influence of a vertex mirrored (joints 1, 5, 9) or none (0, 4, 8): a
            // blend of the two kinds can be nearly singular, where the reference itself
            // is uncertain.
            const MeshPrimitive prim = randomPrimitive(
                n, influences, rng, [&](std::size_t v) { return static_cast<std::uint16_t>(4 * (rng() % 3) + v % 2); });
            for (const NormalTransform t : kBothTransforms) {
                std::vector<Vec3> ref, fast;
                skinBoth(kernels, prim, palette, t, ref, fast);
                for (std::size_t v = 0; v < n; ++v) {
                    EXPECT_NEAR(fast[v].x, ref[v].x, 1e-5f)
                        << name(t) << ", " << influences << " influences, vertex " << v;
                    EXPECT_NEAR(fast[v].y, ref[v].y, 1e-5f)
                        << name(t) << ", " << influences << " influences, vertex " << v;
                    EXPECT_NEAR(fast[v].z, ref[v].z, 1e-5f)
                        << name(t) << ", " << influences << " influences, vertex " << v;
                    if (t != NormalTransform::BlendedMatrix) continue;
                    double o[3] = {0, 0, 0};
                    const Vec3 nv = prim.normals[v];
                    for (std::uint32_t i = 0; i < influences; ++i) {
                        const Mat4& m = palette[prim.joints[v * influences + i]];
                        const double w = prim.weights[v * influences + i];
                        for (int r = 0; r < 3; ++r) {
                            o[r] += w * (double(m(r, 0)) * nv.x + double(m(r, 1)) * nv.y + double(m(r, 2)) * nv.z);
                        }
                    }
                    const double len = std::sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]);
                    const Vec3 want =
                        influences == 0 ? nv : Vec3{float(o[0] / len), float(o[1] / len), float(o[2] / len)};
                    EXPECT_NEAR(fast[v].x, want.x, 1e-5f) << influences << " influences, vertex " << v;
                    EXPECT_NEAR(fast[v].y, want.y, 1e-5f) << influences << " influences, vertex " << v;
                    EXPECT_NEAR(fast[v].z, want.z, 1e-5f) << influences << " influences, vertex " << v;
                }
            }
        }
    }
}

// A matrix that flattens z (scale 0): the inverse transpose sends the normal
// (1, 0, 0) to zero and the matrix itself sends (0, 0, 1) to zero. Such a normal
// keeps its input, bit for bit, beside vertices whose normals survive, at every
// position in a group of four and in the tail.
TEST_P(SkinKernels, ACollapsedNormalKeepsItsInput) {
    Mat4 flat;
    flat(2, 2) = 0.0f;
    const std::vector<Mat4> palette{flat};
    for (const NormalTransform t : kBothTransforms) {
        const Vec3 collapses = t == NormalTransform::InverseTranspose ? Vec3{1, 0, 0} : Vec3{0, 0, 1};
        const Vec3 survives = t == NormalTransform::InverseTranspose ? Vec3{0.6f, 0, 0.8f} : Vec3{0.6f, 0.8f, 0};
        const Vec3 survivesTo = t == NormalTransform::InverseTranspose ? Vec3{0, 0, 1} : Vec3{0.6f, 0.8f, 0};
        for (std::size_t n = 1; n <= 11; ++n) {
            for (std::size_t collapsed = 0; collapsed < n; ++collapsed) {
                MeshPrimitive prim = copies(n, {1, 2, 3}, survives, {1.0f});
                prim.normals[collapsed] = collapses;
                std::vector<Vec3> ref, fast;
                skinBoth(kernels, prim, palette, t, ref, fast);
                for (std::size_t v = 0; v < n; ++v) {
                    if (v == collapsed) {
                        EXPECT_EQ(ref[v], collapses) << name(t) << ", vertex " << v << " of " << n;
                        EXPECT_EQ(fast[v], collapses) << name(t) << ", vertex " << v << " of " << n;
                        continue;
                    }
                    for (const Vec3 got : {ref[v], fast[v]}) {
                        EXPECT_NEAR(got.x, survivesTo.x, 1e-6f) << name(t) << ", vertex " << v << " of " << n;
                        EXPECT_NEAR(got.y, survivesTo.y, 1e-6f) << name(t) << ", vertex " << v << " of " << n;
                        EXPECT_NEAR(got.z, survivesTo.z, 1e-6f) << name(t) << ", vertex " << v << " of " << n;
                    }
                }
            }
        }
    }
}

// Skinning in place (each output its own input) gives the bits of skinning into
// other arrays, for both transforms, every influence count up to 8 and the tails
// after groups of four; the arrays' neighbours are untouched.
TEST_P(SkinKernels, SkinningInPlaceGivesTheSameBitsForBothTransforms) {
    std::mt19937 rng(47);
    const std::vector<Mat4> palette = randomPalette(7, rng, true, false);
    for (std::uint32_t influences = 0; influences <= 8; ++influences) {
        for (const std::size_t n : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 9u, 14u, 39u}) {
            const MeshPrimitive prim = randomPrimitive(
                n, influences, rng, [&](std::size_t) { return static_cast<std::uint16_t>(rng() % palette.size()); });
            for (const NormalTransform t : kBothTransforms) {
                std::vector<Vec3> wantP(n), wantN(n);
                ASSERT_TRUE(kernels.skinVertices(prim, palette, prim.positions, prim.normals, wantP, wantN, t));
                const Vec3 guard{1234.5f, -99.0f, 7.0f};
                std::vector<Vec3> p(n + 2, guard), nrm(n + 2, guard);
                std::copy(prim.positions.begin(), prim.positions.end(), p.begin() + 1);
                std::copy(prim.normals.begin(), prim.normals.end(), nrm.begin() + 1);
                const std::span<Vec3> ps = std::span<Vec3>(p).subspan(1, n), ns = std::span<Vec3>(nrm).subspan(1, n);
                ASSERT_TRUE(kernels.skinVertices(prim, palette, ps, ns, ps, ns, t));
                EXPECT_EQ(p.front(), guard);
                EXPECT_EQ(p.back(), guard);
                EXPECT_EQ(nrm.front(), guard);
                EXPECT_EQ(nrm.back(), guard);
                for (std::size_t v = 0; v < n; ++v) {
                    EXPECT_EQ(p[v + 1], wantP[v])
                        << name(t) << ", " << influences << " influences, vertex " << v << " of " << n;
                    EXPECT_EQ(nrm[v + 1], wantN[v])
                        << name(t) << ", " << influences << " influences, vertex " << v << " of " << n;
                }
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Kernels, SkinKernels, ::testing::ValuesIn(test::supportedKernelConfigs()),
                         test::kernelConfigName);

#ifdef KINEMA_HAS_X86_KERNELS
using SkinKernel = decltype(detail::KernelTable::skin);

// `got` gives `want`'s bits on random inputs over `palette`: every influence count
// up to 8, vertex counts around the kernels' groups of two and four, without normals
// and with either transform, and skinning in place.
void expectTheSameBits(SkinKernel want, SkinKernel got, const std::vector<Mat4>& palette, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    const float* pal = palette.data()->m.data();
    for (std::uint32_t influences = 0; influences <= 8; ++influences) {
        for (const std::uint32_t n : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 12u, 13u, 22u, 203u}) {
            std::vector<float> positions(3 * n), normals(3 * n), weights(n * influences);
            std::vector<std::uint16_t> joints(n * influences);
            for (float& f : positions) f = u(rng);
            for (float& f : normals) f = u(rng);
            for (float& f : weights) f = std::fabs(u(rng));
            for (std::uint16_t& j : joints) j = static_cast<std::uint16_t>(rng() % palette.size());
            for (const int mode : {-1, 0, 1}) {  // no normals, cofactor, blended matrix
                const bool withNormals = mode >= 0;
                const std::uint32_t transform =
                    mode == 1 ? detail::kNormalsByBlendedMatrix : detail::kNormalsByCofactor;
                std::vector<float> wantP(3 * n), wantN(3 * n), gotP(3 * n), gotN(3 * n);
                const float* nrm = withNormals ? normals.data() : nullptr;
                want(pal, joints.data(), weights.data(), influences, positions.data(), nrm, n, wantP.data(),
                     withNormals ? wantN.data() : nullptr, transform);
                got(pal, joints.data(), weights.data(), influences, positions.data(), nrm, n, gotP.data(),
                    withNormals ? gotN.data() : nullptr, transform);
                ASSERT_EQ(std::memcmp(wantP.data(), gotP.data(), wantP.size() * sizeof(float)), 0)
                    << influences << " influences, " << n << " vertices, normals " << mode;
                ASSERT_EQ(std::memcmp(wantN.data(), gotN.data(), wantN.size() * sizeof(float)), 0)
                    << influences << " influences, " << n << " vertices, normals " << mode;
                std::vector<float> p = positions, q = normals;
                got(pal, joints.data(), weights.data(), influences, p.data(), withNormals ? q.data() : nullptr, n,
                    p.data(), withNormals ? q.data() : nullptr, transform);
                ASSERT_EQ(std::memcmp(wantP.data(), p.data(), p.size() * sizeof(float)), 0)
                    << influences << " influences, " << n << " vertices in place, normals " << mode;
                if (withNormals) {
                    ASSERT_EQ(std::memcmp(wantN.data(), q.data(), q.size() * sizeof(float)), 0)
                        << influences << " influences, " << n << " vertices in place, normals " << mode;
                }
            }
        }
    }
}

// The SSE4.2 kernel (normals four vertices per register) does each vertex's
// arithmetic with the portable kernel's operations in its order, so the two agree
// bit for bit, mirrored and flattening palette matrices among them.
TEST(Sse42Skinning, GivesThePortableKernelsBits) {
    if (!isSupported(SimdLevel::Sse42)) {
        std::printf("[ SKIPPED  ] no SSE4.2 on this CPU: the SSE4.2 skinning kernel is not run\n");
        GTEST_SKIP();
    }
    std::mt19937 rng(53);
    const std::vector<Mat4> palette = randomPalette(9, rng, true, true);
    expectTheSameBits(detail::kPortableKernels.skin, detail::kSse42Kernels.skin, palette, 59);
}

// The AVX-512 skinning kernel that blends positions in 256-bit halves (picked on
// CPUs that split 512-bit work, Zen 4) runs each lane through the same operations
// in the same order as the whole-register one: the same bits, on every AVX-512 CPU
// (elsewhere PoseKernels never picks it, but it must still be right).
TEST(Avx512Skinning, TheSplitBlendKernelGivesTheWholeRegisterKernelsBits) {
    if (!isSupported(SimdLevel::Avx512)) {
        std::printf("[ SKIPPED  ] no AVX-512 on this CPU: the split-blend skinning kernel is not run\n");
        GTEST_SKIP();
    }
    std::mt19937 rng(37);
    const std::vector<Mat4> palette = randomPalette(11, rng, false, false);
    expectTheSameBits(detail::kAvx512Kernels.skin, detail::kAvx512SplitBlendSkin, palette, 41);
}
#endif

}  // namespace
