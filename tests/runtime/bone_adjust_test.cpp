// Bone adjustments: the frame test (a spine bent in model space on
// yawed hips swings the head to model +Z), offsets through a scaled parent,
// absolute orientations, scale collapsing a subtree, list-order composition, bad
// entries rejected before anything is written, and the SoA path against the
// scalar reference. Expected values are worked out by hand from the rig below.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "kinema/math/mat4.hpp"
#include "kinema/math/quat.hpp"
#include "kinema/runtime/bone_adjust.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "kinema/runtime/soa_pose.hpp"
#include "runtime/fixtures.hpp"

namespace {

using namespace kinema;

const float kH = std::sqrt(0.5f);         // sin and cos of 45 degrees
const Quat kYaw90{0.0f, kH, 0.0f, kH};    // +90 degrees about Y: x -> -z, z -> x
const Quat kPitch90{kH, 0.0f, 0.0f, kH};  // +90 degrees about X: y -> z, z -> -y
const Quat kRoll90{0.0f, 0.0f, kH, kH};   // +90 degrees about Z: x -> y, y -> -x
constexpr float kTol = 2e-6f;

// hips (root, at the origin) -> spine (1 up) -> head (1 up) -> tip (0.5 up).
struct Rig {
    std::vector<std::int32_t> parents{kNoParent, 0, 1, 2};
    std::vector<Transform> local{4};
    Rig(Quat hipsRotation, float hipsScale = 1.0f) {
        local[0].rotation = hipsRotation;
        local[0].scale = {hipsScale, hipsScale, hipsScale};
        local[1].translation = {0.0f, 1.0f, 0.0f};
        local[2].translation = {0.0f, 1.0f, 0.0f};
        local[3].translation = {0.0f, 0.5f, 0.0f};
    }
};
enum { kHips, kSpine, kHead, kTip };

struct Composed {
    std::string path;
    std::vector<Transform> local;
    std::vector<Mat4> model;
};

// The scalar reference and the SoA path at every SIMD level this CPU runs.
std::vector<Composed> composeEveryPath(const Rig& rig, std::span<const BoneAdjustment> adjustments) {
    std::vector<Composed> out;
    Composed scalar{"scalar", rig.local, std::vector<Mat4>(rig.local.size())};
    EXPECT_TRUE(localToModel(rig.parents, scalar.local, adjustments, scalar.model).ok());
    out.push_back(std::move(scalar));
    for (const SimdLevel level : test::supportedSimdLevels()) {
        const PoseKernels kernels(level);
        SoaPose pose(rig.local, {});
        Composed c{"soa level " + std::to_string(static_cast<int>(level)), std::vector<Transform>(rig.local.size()),
                   std::vector<Mat4>(rig.local.size())};
        EXPECT_TRUE(localToModel(kernels, rig.parents, pose, adjustments, c.model).ok());
        pose.toTransforms(c.local);
        out.push_back(std::move(c));
    }
    return out;
}

Vec3 position(const Mat4& m) { return {m.m[12], m.m[13], m.m[14]}; }
Vec3 column(const Mat4& m, std::size_t c) { return {m.m[c * 4 + 0], m.m[c * 4 + 1], m.m[c * 4 + 2]}; }

void expectNear(Vec3 actual, Vec3 expected, const std::string& what, float tol = kTol) {
    EXPECT_NEAR(actual.x, expected.x, tol) << what;
    EXPECT_NEAR(actual.y, expected.y, tol) << what;
    EXPECT_NEAR(actual.z, expected.z, tol) << what;
}

void expectBasis(const Mat4& m, Vec3 x, Vec3 y, Vec3 z, const std::string& what) {
    expectNear(column(m, 0), x, what + " x axis");
    expectNear(column(m, 1), y, what + " y axis");
    expectNear(column(m, 2), z, what + " z axis");
}

TEST(BoneAdjust, ModelSpaceBendOnYawedHipsSwingsTheHeadToModelPlusZ) {
    // Hips yawed a quarter turn; the spine bent +90 degrees about model X. About
    // the spine's origin (0, 1, 0) that turns the head's offset (0, 1, 0) into
    // (0, 0, 1): the head lands at (0, 1, 1). The same quaternion applied in the
    // hips' frame (local rotation q * r) would turn the bone by yaw * pitch
    // instead, which takes (0, 1, 0) to yaw * (0, 0, 1) = (1, 0, 0): the head at
    // (1, 1, 0), toward model +X.
    const Rig rig(kYaw90);
    const BoneAdjustment bend{kSpine, kPitch90};
    for (const Composed& c : composeEveryPath(rig, {&bend, 1})) {
        expectNear(position(c.model[kHead]), {0.0f, 1.0f, 1.0f}, c.path + " head");
        const Vec3 wrong{1.0f, 1.0f, 0.0f};
        EXPECT_GT(length(position(c.model[kHead]) - wrong), 1.0f) << c.path;
        expectNear(position(c.model[kSpine]), {0.0f, 1.0f, 0.0f}, c.path + " spine stays");
        // The spine ends up as pitch * yaw: x -> yaw -> (0, 0, -1) -> pitch -> (0, 1, 0);
        // y -> y -> z; z -> (1, 0, 0) -> (1, 0, 0).
        expectBasis(c.model[kSpine], {0, 1, 0}, {0, 0, 1}, {1, 0, 0}, c.path + " spine");
        // The tip follows, 0.5 further along the bent spine's direction.
        expectNear(position(c.model[kTip]), {0.0f, 1.0f, 1.5f}, c.path + " tip");
        expectBasis(c.model[kHips], {0, 0, -1}, {0, 1, 0}, {1, 0, 0}, c.path + " hips untouched");
    }
}

TEST(BoneAdjust, OffsetMovesTheBoneOriginInModelSpaceThroughAScaledYawedParent) {
    // Hips yawed 90 degrees and scaled 2: the spine sits at (0, 2, 0). A model
    // offset (0.5, 0, 0) puts it at (0.5, 2, 0); the head, 1 up in the hips'
    // doubled scale, at (0.5, 4, 0). In the hips' frame the offset is
    // (1/2) yaw^-1 (0.5, 0, 0) = (0, 0, 0.25), so the spine's local translation is
    // (0, 1, 0.25).
    const Rig rig(kYaw90, 2.0f);
    BoneAdjustment move{kSpine};
    move.offset = {0.5f, 0.0f, 0.0f};
    for (const Composed& c : composeEveryPath(rig, {&move, 1})) {
        expectNear(position(c.model[kSpine]), {0.5f, 2.0f, 0.0f}, c.path + " spine");
        expectNear(position(c.model[kHead]), {0.5f, 4.0f, 0.0f}, c.path + " head");
        expectNear(c.local[kSpine].translation, {0.0f, 1.0f, 0.25f}, c.path + " spine local");
    }
}

TEST(BoneAdjust, AbsoluteOrientationOverridesClipAndParentRotations) {
    // Whatever the hips and the spine's own clip rotation, an absolute +90 degrees
    // about model X leaves the spine with exactly that orientation: x -> x,
    // y -> z, z -> -y; the head 1 along its y, at (0, 1, 1).
    const Quat clipRotations[] = {Quat{}, kRoll90, Quat{0.0f, 0.0f, std::sin(0.25f), std::cos(0.25f)}};
    const Quat hipsRotations[] = {Quat{}, kYaw90, kRoll90};
    for (const Quat hips : hipsRotations) {
        for (const Quat spine : clipRotations) {
            Rig rig(hips);
            rig.local[kSpine].rotation = spine;
            BoneAdjustment hold{kSpine};
            hold.absolute = kPitch90;
            for (const Composed& c : composeEveryPath(rig, {&hold, 1})) {
                expectBasis(c.model[kSpine], {1, 0, 0}, {0, 0, 1}, {0, -1, 0}, c.path + " spine");
                // The spine's origin is placed by the hips, which turn about the
                // y axis it lies on or (roll) tip it to (-1, 0, 0).
                const Vec3 origin = hips == kRoll90 ? Vec3{-1.0f, 0.0f, 0.0f} : Vec3{0.0f, 1.0f, 0.0f};
                expectNear(position(c.model[kHead]), origin + Vec3{0.0f, 0.0f, 1.0f}, c.path + " head");
            }
        }
    }
}

TEST(BoneAdjust, ScaleNearZeroCollapsesTheSubtree) {
    // Scale 1e-4 on the head: its axes are 1e-4 long and the tip, 0.5 above it in
    // the head's frame, is drawn 5e-5 above the head's origin (0, 2, 0). The spine
    // and hips keep their unit axes.
    const Rig rig(kYaw90);
    BoneAdjustment hide{kHead};
    hide.scale = {1e-4f, 1e-4f, 1e-4f};
    for (const Composed& c : composeEveryPath(rig, {&hide, 1})) {
        for (std::size_t axis = 0; axis < 3; ++axis) {
            EXPECT_NEAR(length(column(c.model[kHead], axis)), 1e-4f, 1e-9f) << c.path;
            EXPECT_NEAR(length(column(c.model[kTip], axis)), 1e-4f, 1e-9f) << c.path;
            EXPECT_NEAR(length(column(c.model[kSpine], axis)), 1.0f, kTol) << c.path;
        }
        expectNear(position(c.model[kHead]), {0.0f, 2.0f, 0.0f}, c.path + " head");
        expectNear(position(c.model[kTip]), {0.0f, 2.00005f, 0.0f}, c.path + " tip", 1e-7f);
        expectNear(c.local[kHead].scale, {1e-4f, 1e-4f, 1e-4f}, c.path + " head local scale", 1e-10f);
    }
}

TEST(BoneAdjust, TwoEntriesOnOneBoneComposeInListOrder) {
    // Pitch then roll, both in model space, about the spine's origin: the head's
    // offset (0, 1, 0) -> pitch -> (0, 0, 1) -> roll -> (0, 0, 1): the head at
    // (0, 1, 1). The other order would give roll first: (-1, 0, 0), then pitch
    // leaves it: the head at (-1, 1, 0).
    const Rig rig(kYaw90);
    const BoneAdjustment pitchThenRoll[] = {{kSpine, kPitch90}, {kSpine, kRoll90}};
    for (const Composed& c : composeEveryPath(rig, pitchThenRoll)) {
        expectNear(position(c.model[kHead]), {0.0f, 1.0f, 1.0f}, c.path + " pitch then roll");
    }
    const BoneAdjustment rollThenPitch[] = {{kSpine, kRoll90}, {kSpine, kPitch90}};
    for (const Composed& c : composeEveryPath(rig, rollThenPitch)) {
        expectNear(position(c.model[kHead]), {-1.0f, 1.0f, 0.0f}, c.path + " roll then pitch");
    }
    // Entries on another bone between them change nothing about the order; an
    // absolute entry after a rotation replaces it (the spine keeps the absolute
    // identity orientation, the head straight above it at (0, 2, 0)); offsets add.
    BoneAdjustment reset{kSpine};
    reset.absolute = Quat{};
    BoneAdjustment up{kSpine};
    up.offset = {0.0f, 0.25f, 0.0f};
    const BoneAdjustment mixed[] = {{kSpine, kPitch90}, up, {kHead, kRoll90}, reset, up};
    for (const Composed& c : composeEveryPath(rig, mixed)) {
        expectBasis(c.model[kSpine], {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, c.path + " spine reset");
        expectNear(position(c.model[kSpine]), {0.0f, 1.5f, 0.0f}, c.path + " spine offsets add");
        expectNear(position(c.model[kHead]), {0.0f, 2.5f, 0.0f}, c.path + " head");
        // The head's own roll: its y axis (0, 1, 0) -> (-1, 0, 0), the tip 0.5 along it.
        expectNear(position(c.model[kTip]), {-0.5f, 2.5f, 0.0f}, c.path + " tip");
    }
}

TEST(BoneAdjust, BadEntriesAreRejectedWithNothingWritten) {
    const Rig rig(kYaw90);
    const float nan = std::nanf("");
    const float inf = INFINITY;
    BoneAdjustment good{kSpine, kPitch90};
    std::vector<std::pair<BoneAdjustment, std::string>> cases;
    cases.push_back({BoneAdjustment{4}, "joint outside the skeleton"});
    cases.push_back({BoneAdjustment{kHead, Quat{0, 0, 0, 0}}, "rotation is zero"});
    cases.push_back({BoneAdjustment{kHead, Quat{nan, 0, 0, 1}}, "rotation is zero or not finite"});
    BoneAdjustment absZero{kHead};
    absZero.absolute = Quat{0, 0, 0, 0};
    cases.push_back({absZero, "absolute orientation"});
    BoneAdjustment absInf{kHead};
    absInf.absolute = Quat{0, inf, 0, 1};
    cases.push_back({absInf, "absolute orientation"});
    BoneAdjustment offsetNan{kHead};
    offsetNan.offset = {0.0f, nan, 0.0f};
    cases.push_back({offsetNan, "offset is not finite"});
    BoneAdjustment scaleInf{kHead};
    scaleInf.scale = {1.0f, 1.0f, inf};
    cases.push_back({scaleInf, "scale is not finite"});
    Mat4 sentinel;
    sentinel.m.fill(7.0f);
    for (const auto& [bad, what] : cases) {
        // The bad entry is the second: the first, good, one must not have been applied either.
        const BoneAdjustment list[] = {good, bad};
        std::vector<Transform> local = rig.local;
        std::vector<Mat4> model(local.size(), sentinel);
        const std::string error = localToModel(rig.parents, local, list, model).message();
        EXPECT_NE(error.find("index 1: bone adjustment: "), std::string::npos) << error;
        EXPECT_NE(error.find(what), std::string::npos) << error;
        EXPECT_EQ(local, rig.local) << what;
        for (const Mat4& m : model) EXPECT_EQ(m, sentinel) << what;

        SoaPose pose(rig.local, {});
        const std::string soaError = localToModel(PoseKernels{}, rig.parents, pose, list, model).message();
        EXPECT_EQ(soaError, error);
        std::vector<Transform> after(local.size());
        pose.toTransforms(after);
        EXPECT_EQ(after, rig.local) << what;
        for (const Mat4& m : model) EXPECT_EQ(m, sentinel) << what;
        EXPECT_EQ(applyBoneAdjustments(rig.parents, pose, list).message(), error);
    }
    // Sizes that do not fit are refused too, before any write.
    std::vector<Transform> local = rig.local;
    std::vector<Mat4> shortModel(2, sentinel);
    EXPECT_FALSE(localToModel(rig.parents, local, {&good, 1}, shortModel).ok());
    EXPECT_EQ(local, rig.local);
    EXPECT_TRUE(checkBoneAdjustments({&good, 1}, 4).ok());
}

TEST(BoneAdjust, SoaPathEqualsTheScalarPath) {
    // A random rig (parents before children, uniform scales, where the parent
    // rotation is exact) with entries on roots, leaves, repeated bones and chains.
    std::mt19937 rng(17);
    constexpr std::size_t kJoints = 37;
    std::vector<std::int32_t> parents(kJoints);
    for (std::size_t i = 0; i < kJoints; ++i) {
        parents[i] = i == 0 ? kNoParent : (i % 9 == 0 ? kNoParent : static_cast<std::int32_t>(rng() % i));
    }
    std::vector<Transform> local = test::randomTransforms(kJoints, rng);
    std::uniform_real_distribution<float> s(0.8f, 1.2f), v(-1.0f, 1.0f);
    for (Transform& t : local) {
        const float k = s(rng);
        t.scale = {k, k, k};
    }
    std::vector<BoneAdjustment> list;
    for (const std::uint32_t j : {5u, 0u, 12u, 5u, 13u, 14u, 36u, 9u, 20u, 21u, 22u}) {
        BoneAdjustment a{j, kref::randomUnitQuat(rng), {v(rng), v(rng), v(rng)}};
        if (j % 4 == 0) a.absolute = kref::randomUnitQuat(rng);
        if (j % 3 == 0) a.scale = {s(rng), s(rng), s(rng)};
        list.push_back(a);
    }
    std::vector<Transform> refLocal = local;
    std::vector<Mat4> refModel(kJoints);
    ASSERT_TRUE(localToModel(parents, refLocal, list, refModel).ok());
    for (const SimdLevel level : test::supportedSimdLevels()) {
        SoaPose pose(local, {});
        std::vector<Mat4> model(kJoints);
        ASSERT_TRUE(localToModel(PoseKernels(level), parents, pose, list, model).ok());
        for (std::size_t j = 0; j < kJoints; ++j) {
            for (std::size_t e = 0; e < 16; ++e) {
                ASSERT_NEAR(model[j].m[e], refModel[j].m[e], 2e-5f * std::max(1.0f, std::fabs(refModel[j].m[e])))
                    << "joint " << j << " element " << e << " level " << static_cast<int>(level);
            }
            const Transform t = pose.joint(j);
            expectNear(t.translation, refLocal[j].translation, "local translation", 2e-5f);
            EXPECT_NEAR(std::fabs(dot(t.rotation, refLocal[j].rotation)), 1.0f, 1e-5f) << "joint " << j;
        }
    }
    // Without entries both are plain composition.
    std::vector<Transform> plainLocal = local;
    std::vector<Mat4> plain(kJoints), reference(kJoints);
    ASSERT_TRUE(localToModel(parents, plainLocal, {}, plain).ok());
    reference::localToModel(parents, std::span<const Transform>(local), reference);
    EXPECT_EQ(plain, reference);
}

}  // namespace
