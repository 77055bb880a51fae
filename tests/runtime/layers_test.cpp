// Layer blending on the SoA path: override blends with per-joint masks, masks
// over subtrees, and additive layers (delta against a reference pose, weighted and
// masked), against quaternion arithmetic done independently in long double.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <span>
#include <numbers>
#include <random>
#include <vector>

#include "kinema/math/quat.hpp"
#include "kinema/runtime/joint_mask.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "math/reference.hpp"
#include "runtime/fixtures.hpp"

namespace {

using namespace kinema;

void expectSameRotation(Quat got, kref::LQ want, double tol, const char* what, std::size_t j) {
    EXPECT_LE(static_cast<double>(kref::signAlignedError(got, kref::normalizedL(want))), tol) << what << " joint " << j;
}

TEST(JointMask, SubtreesFollowTheParentOrder) {
    // Joint 0 has children 1 and 4; 1 has 2 and 3; 4 has 5.
    const std::vector<std::int32_t> parents{-1, 0, 1, 1, 0, 4};
    JointMask mask(6);
    ASSERT_TRUE(mask.setSubtree(parents, 1, 0.75f));
    const float want[] = {0.0f, 0.75f, 0.75f, 0.75f, 0.0f, 0.0f};
    for (std::size_t j = 0; j < 6; ++j) EXPECT_EQ(mask.weight(j), want[j]) << j;
    EXPECT_EQ(mask.weight(99), 0.0f);
}

// Weights outside [0, 1] are refused, not clamped, as a layer weight is; a refused
// call changes nothing.
TEST(JointMask, RefusesWeightsOutsideTheUnitIntervalAndJointsPastTheEnd) {
    const std::vector<std::int32_t> parents{-1, 0, 1, 1, 0, 4};
    JointMask mask(6);
    ASSERT_TRUE(mask.set(5, 0.25f));
    const Status high = mask.set(5, 7.0f);
    EXPECT_EQ(high.code, StatusCode::OutOfRange);
    EXPECT_EQ(mask.set(5, -0.5f).code, StatusCode::OutOfRange);
    EXPECT_EQ(mask.set(5, std::nanf("")).code, StatusCode::NotFinite);
    EXPECT_EQ(mask.setAll(std::numeric_limits<float>::infinity()).code, StatusCode::NotFinite);
    EXPECT_EQ(mask.setSubtree(parents, 1, 1.5f).code, StatusCode::OutOfRange);
    const Status past = mask.set(6, 0.5f);
    EXPECT_EQ(past.code, StatusCode::OutOfRange);
    EXPECT_EQ(past.index, 6);
    EXPECT_EQ(mask.setSubtree(parents, 6, 0.5f).code, StatusCode::OutOfRange);
    EXPECT_EQ(mask.setSubtree(std::span(parents).first(5), 1, 0.5f).code, StatusCode::WrongCount);
    for (std::size_t j = 0; j < 6; ++j) EXPECT_EQ(mask.weight(j), j == 5 ? 0.25f : 0.0f) << j;
    ASSERT_TRUE(mask.setAll(1.0f));
    for (std::size_t j = 0; j < 6; ++j) EXPECT_EQ(mask.weight(j), 1.0f) << j;
}

TEST(Layers, MaskedBlendUsesEachJointsWeight) {
    std::mt19937 rng(4);
    constexpr std::size_t n = 21;
    const auto la = test::randomTransforms(n, rng), lb = test::randomTransforms(n, rng);
    const SoaPose a(la, {}), b(lb, {});
    JointMask mask(n);
    for (std::size_t j = 0; j < n; ++j) ASSERT_TRUE(mask.set(j, static_cast<float>(j % 3) * 0.5f));  // 0, 0.5, 1
    for (const SimdLevel level : test::supportedSimdLevels()) {
        const PoseKernels k(level);
        SoaPose out(n, 0);
        ASSERT_TRUE(k.blend(a, b, 0.8f, mask, out));
        for (std::size_t j = 0; j < n; ++j) {
            const float w = 0.8f * mask.weight(j);
            const Transform g = out.joint(j);
            EXPECT_NEAR(g.translation.x, la[j].translation.x + (lb[j].translation.x - la[j].translation.x) * w, 1e-6f);
            EXPECT_NEAR(g.scale.y, la[j].scale.y + (lb[j].scale.y - la[j].scale.y) * w, 1e-6f);
            // nlerp toward the sign-aligned target, in long double.
            const kref::LQ qa = kref::widenL(la[j].rotation), qb0 = kref::widenL(lb[j].rotation);
            const long double s = qa.x * qb0.x + qa.y * qb0.y + qa.z * qb0.z + qa.w * qb0.w < 0 ? -1 : 1;
            const kref::LQ want{qa.x + (s * qb0.x - qa.x) * w, qa.y + (s * qb0.y - qa.y) * w,
                                qa.z + (s * qb0.z - qa.z) * w, qa.w + (s * qb0.w - qa.w) * w};
            expectSameRotation(g.rotation, want, 1e-6, "masked blend", j);
        }
        JointMask wrong(n + 1);
        EXPECT_FALSE(k.blend(a, b, 0.5f, wrong, out));
    }
}

TEST(Layers, AdditiveAddsTheDeltaFromTheReferenceInTheBonesFrame) {
    std::mt19937 rng(9);
    constexpr std::size_t n = 19;
    const auto base = test::randomTransforms(n, rng), reference = test::randomTransforms(n, rng);
    // The additive pose: the reference turned by 40 degrees about a per-joint axis in
    // the bone's frame, moved and scaled.
    std::vector<Transform> pose(reference);
    std::vector<kref::LQ> delta(n);
    for (std::size_t j = 0; j < n; ++j) {
        const auto axis = kref::randomUnitVector(rng);
        const long double half = 20.0L * std::numbers::pi_v<long double> / 180.0L;
        const long double sh = std::sin(half);
        delta[j] = kref::LQ{axis.x * sh, axis.y * sh, axis.z * sh, std::cos(half)};
        const kref::LQ p = kref::hamilton(kref::widenL(reference[j].rotation), delta[j]);
        pose[j].rotation = {static_cast<float>(p.x), static_cast<float>(p.y), static_cast<float>(p.z),
                            static_cast<float>(p.w)};
        pose[j].translation = reference[j].translation + Vec3{0.1f, -0.2f, 0.3f};
        pose[j].scale = {reference[j].scale.x * 1.25f, reference[j].scale.y, reference[j].scale.z * 0.5f};
    }
    const SoaPose sBase(base, {}), sPose(pose, {}), sRef(reference, {});
    JointMask mask(n);
    ASSERT_TRUE(mask.setAll(1.0f));
    ASSERT_TRUE(mask.set(3, 0.0f));
    for (const SimdLevel level : test::supportedSimdLevels()) {
        const PoseKernels k(level);
        SoaPose out(n, 0);
        for (const float w : {1.0f, 0.5f}) {
            ASSERT_TRUE(k.add(sBase, sPose, sRef, w, &mask, out));
            for (std::size_t j = 0; j < n; ++j) {
                const Transform g = out.joint(j);
                const float wj = j == 3 ? 0.0f : w;
                EXPECT_NEAR(g.translation.y, base[j].translation.y - 0.2f * wj, 2e-6f) << j;
                EXPECT_NEAR(g.scale.x, base[j].scale.x * (1.0f + 0.25f * wj), 2e-6f) << j;
                EXPECT_NEAR(g.scale.z, base[j].scale.z * (1.0f - 0.5f * wj), 2e-6f) << j;
                // Weighted delta: nlerp(identity, delta, wj), then base * that.
                const kref::LQ d = delta[j];
                const kref::LQ dw{d.x * wj, d.y * wj, d.z * wj, 1.0L + (d.w - 1.0L) * wj};
                const kref::LQ want = kref::hamilton(kref::widenL(base[j].rotation), kref::normalizedL(dw));
                expectSameRotation(g.rotation, want, 2e-6, "additive", j);
            }
        }
        // Adding a pose to itself adds nothing.
        ASSERT_TRUE(k.add(sBase, sRef, sRef, 1.0f, nullptr, out));
        for (std::size_t j = 0; j < n; ++j) {
            const Transform g = out.joint(j);
            EXPECT_NEAR(g.translation.x, base[j].translation.x, 1e-6f);
            expectSameRotation(g.rotation, kref::widenL(base[j].rotation), 1e-6, "zero delta", j);
        }
        SoaPose other(n + 1, 0);
        EXPECT_FALSE(k.add(sBase, sPose, other, 1.0f, nullptr, out));
    }
}

}  // namespace
