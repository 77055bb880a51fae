// Composition: local -> model against hand-multiplied matrices, bone lengths
// kept, skin palettes (model * inverse bind) by hand, rest poses.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/runtime/pose.hpp"
#include "math/reference.hpp"

namespace {

using kinema::Mat4;
using kinema::Quat;
using kinema::Transform;
using kinema::Vec3;

Transform randomLocal(std::mt19937& rng) {
    std::uniform_real_distribution<float> pos(-2.0f, 2.0f);
    std::uniform_real_distribution<float> sc(0.5f, 1.5f);
    Transform t;
    t.translation = {pos(rng), pos(rng), pos(rng)};
    t.rotation = kref::randomUnitQuat(rng);
    t.scale = {sc(rng), sc(rng), sc(rng)};
    return t;
}

void expectMatNear(const kref::M4& want, const Mat4& got, double tol, const std::string& what) {
    for (int row = 0; row < 4; ++row)
        for (int col = 0; col < 4; ++col)
            EXPECT_NEAR(got(row, col), kref::at(want, row, col), tol) << what << " (" << row << ", " << col << ")";
}

// Gauss-Jordan inverse with partial pivoting, in double (a reference, not inverseAffine).
kref::M4 invert(kref::M4 a) {
    kref::M4 inv = kref::identity();
    for (int c = 0; c < 4; ++c) {
        int p = c;
        for (int r = c + 1; r < 4; ++r)
            if (std::fabs(kref::at(a, r, c)) > std::fabs(kref::at(a, p, c))) p = r;
        for (int k = 0; k < 4; ++k) {
            std::swap(kref::at(a, c, k), kref::at(a, p, k));
            std::swap(kref::at(inv, c, k), kref::at(inv, p, k));
        }
        const double d = kref::at(a, c, c);
        for (int k = 0; k < 4; ++k) {
            kref::at(a, c, k) /= d;
            kref::at(inv, c, k) /= d;
        }
        for (int r = 0; r < 4; ++r) {
            if (r == c) continue;
            const double f = kref::at(a, r, c);
            for (int k = 0; k < 4; ++k) {
                kref::at(a, r, k) -= f * kref::at(a, c, k);
                kref::at(inv, r, k) -= f * kref::at(inv, c, k);
            }
        }
    }
    return inv;
}

Mat4 narrow(const kref::M4& m) {
    Mat4 r;
    for (std::size_t i = 0; i < 16; ++i) r.m[i] = static_cast<float>(m[i]);
    return r;
}

// ---- localToModel ----------------------------------------------------------------

TEST(PoseLocalToModel, HandCalculatedTwoJointChain) {
    // root: at (1, 0, 0), turned 90 deg about z; child: 2 m along its parent's y.
    // The child lands at (1, 0, 0) + Rz(90) (0, 2, 0) = (-1, 0, 0).
    const std::vector<std::int32_t> parents{-1, 0};
    std::vector<Transform> local(2);
    local[0].translation = {1, 0, 0};
    local[0].rotation = {0, 0, std::sqrt(0.5f), std::sqrt(0.5f)};
    local[1].translation = {0, 2, 0};
    std::vector<Mat4> model(2);
    kinema::reference::localToModel(parents, local, model);
    EXPECT_NEAR(model[1](0, 3), -1.0, 1e-6);
    EXPECT_NEAR(model[1](1, 3), 0.0, 1e-6);
    EXPECT_NEAR(model[1](2, 3), 0.0, 1e-6);
    // and the child's x axis is the root's: along world y
    EXPECT_NEAR(model[1](1, 0), 1.0, 1e-6);
}

TEST(PoseLocalToModel, ChainAndBranchMatchHandMultipliedMatrices) {
    // 0 root, 1 <- 0, 2 <- 1, 3 <- 2, 4 <- 0 (a branch), 5 a second root.
    const std::vector<std::int32_t> parents{-1, 0, 1, 2, 0, -1};
    std::mt19937 rng(601);
    for (int n = 0; n < 200; ++n) {
        std::vector<Transform> local(parents.size());
        for (Transform& t : local) t = randomLocal(rng);
        std::vector<Mat4> model(parents.size());
        kinema::reference::localToModel(parents, local, model);
        std::vector<kref::M4> want(parents.size());
        want[0] = kref::trs(local[0]);
        want[1] = kref::mul(want[0], kref::trs(local[1]));
        want[2] = kref::mul(kref::mul(kref::trs(local[0]), kref::trs(local[1])), kref::trs(local[2]));
        want[3] = kref::mul(want[2], kref::trs(local[3]));
        want[4] = kref::mul(want[0], kref::trs(local[4]));
        want[5] = kref::trs(local[5]);
        for (std::size_t j = 0; j < parents.size(); ++j)
            expectMatNear(want[j], model[j], 5e-5, "joint " + std::to_string(j));
    }
}

TEST(PoseLocalToModel, RootsAreTheirOwnLocalMatrix) {
    std::mt19937 rng(602);
    const std::vector<std::int32_t> parents{-1, -1, -1};
    std::vector<Transform> local(3);
    for (Transform& t : local) t = randomLocal(rng);
    std::vector<Mat4> model(3);
    kinema::reference::localToModel(parents, local, model);
    for (std::size_t j = 0; j < 3; ++j) expectMatNear(kref::trs(local[j]), model[j], 2e-6, "root " + std::to_string(j));
}

TEST(PoseLocalToModel, ChildStaysAtFullDistanceFromItsParent) {
    // Unit scales, bone i + 1 sits L_i along its parent's y: however the joints
    // rotate, each child's origin stays exactly L_i from its parent's origin.
    const std::vector<std::int32_t> parents{-1, 0, 1, 2, 3};
    const float lengths[] = {0.0f, 0.45f, 0.4f, 0.12f, 0.05f};
    std::mt19937 rng(603);
    for (int n = 0; n < 500; ++n) {
        std::vector<Transform> local(parents.size());
        for (std::size_t j = 0; j < local.size(); ++j) {
            local[j].rotation = kref::randomUnitQuat(rng);
            local[j].translation = {0, lengths[j], 0};
        }
        local[0].translation = {3, -1, 2};
        std::vector<Mat4> model(parents.size());
        kinema::reference::localToModel(parents, local, model);
        for (std::size_t j = 1; j < parents.size(); ++j) {
            const Mat4& c = model[j];
            const Mat4& p = model[static_cast<std::size_t>(parents[j])];
            const double dx = c(0, 3) - p(0, 3), dy = c(1, 3) - p(1, 3), dz = c(2, 3) - p(2, 3);
            EXPECT_NEAR(std::sqrt(dx * dx + dy * dy + dz * dz), lengths[j], 2e-6) << "joint " << j;
        }
    }
}

TEST(PoseLocalToModel, ParentScaleStretchesTheChildOffset) {
    // A parent scaled by 2 along y puts a child 0.5 along y at 1.0.
    const std::vector<std::int32_t> parents{-1, 0};
    std::vector<Transform> local(2);
    local[0].scale = {1, 2, 1};
    local[1].translation = {0, 0.5f, 0};
    std::vector<Mat4> model(2);
    kinema::reference::localToModel(parents, local, model);
    EXPECT_EQ(model[1](1, 3), 1.0f);
}

// ---- reference::skinPalette ----------------------------------------------------------------

TEST(PoseSkinPalette, IsModelTimesInverseBindByHand) {
    std::mt19937 rng(604);
    std::vector<Mat4> model(4);
    for (Mat4& m : model) m = kinema::toMatrix(randomLocal(rng));
    kinema::Skin skin;
    skin.joints = {2, 0, 3};  // not in skeleton order
    for (std::size_t i = 0; i < skin.joints.size(); ++i)
        skin.inverseBindMatrices.push_back(kinema::toMatrix(randomLocal(rng)));
    std::vector<Mat4> palette(3);
    kinema::reference::skinPalette(skin, model, palette);
    for (std::size_t i = 0; i < 3; ++i) {
        const kref::M4 want = kref::mul(kref::widen(model[skin.joints[i]]), kref::widen(skin.inverseBindMatrices[i]));
        expectMatNear(want, palette[i], 5e-5, "palette " + std::to_string(i));
    }
}

TEST(PoseSkinPalette, AtTheBindPoseThePaletteIsIdentity) {
    std::mt19937 rng(605);
    const std::vector<std::int32_t> parents{-1, 0, 1};
    std::vector<Transform> local(3);
    for (Transform& t : local) t = randomLocal(rng);
    std::vector<Mat4> model(3);
    kinema::reference::localToModel(parents, local, model);
    kinema::Skin skin;
    skin.joints = {0, 1, 2};
    for (const Mat4& m : model) skin.inverseBindMatrices.push_back(narrow(invert(kref::widen(m))));
    std::vector<Mat4> palette(3);
    kinema::reference::skinPalette(skin, model, palette);
    for (std::size_t i = 0; i < 3; ++i)
        expectMatNear(kref::identity(), palette[i], 2e-5, "palette " + std::to_string(i));
}

// The reference passes refuse sizes that do not fit, as PoseKernels does, and write
// nothing then (no silent truncation to the shortest span).
TEST(ReferencePasses, RefuseSizesThatDoNotFitAndWriteNothing) {
    const std::vector<std::int32_t> parents{-1, 0, 1};
    const std::vector<Transform> local(3), shortLocal(2);
    Mat4 sentinel;
    sentinel.m.fill(7.0f);
    std::vector<Mat4> model(3, sentinel), shortModel(2, sentinel);
    EXPECT_FALSE(kinema::reference::localToModel(parents, shortLocal, model));
    EXPECT_FALSE(kinema::reference::localToModel(parents, local, shortModel));
    for (const Mat4& m : model) EXPECT_EQ(m.m[0], 7.0f);
    for (const Mat4& m : shortModel) EXPECT_EQ(m.m[0], 7.0f);
    ASSERT_TRUE(kinema::reference::localToModel(parents, local, model));
    EXPECT_EQ(model[2].m[0], 1.0f);

    kinema::Skin skin;
    skin.joints = {0, 2};
    skin.inverseBindMatrices.resize(2);
    std::vector<Mat4> palette(1, sentinel);
    EXPECT_FALSE(kinema::reference::skinPalette(skin, model, palette));
    EXPECT_EQ(palette[0].m[0], 7.0f);
    palette.assign(2, sentinel);
    EXPECT_FALSE(kinema::reference::skinPalette(skin, {}, palette));
    skin.inverseBindMatrices.resize(1);
    EXPECT_FALSE(kinema::reference::skinPalette(skin, model, palette));
    for (const Mat4& m : palette) EXPECT_EQ(m.m[0], 7.0f);
}

// ---- rest poses ------------------------------------------------------------------------

kinema::Model threeJointModel() {
    kinema::Model m;
    std::vector<kinema::JointDesc> j(3);
    j[0] = {"root", kinema::kNoParent, {{0, 1, 0}, {}, {1, 1, 1}}};
    j[1] = {"a", 0, {{0, 0.5f, 0}, kref::quatOf({0, 0, 1}, 0.4), {1, 2, 1}}};
    j[2] = {"b", 1, {{0, 0.25f, 0}, kref::quatOf({1, 0, 0}, -0.9), {1, 1, 1}}};
    m.skeleton = kinema::Skeleton::create(j).value();
    m.nodeOfJoint = {0, 1, 2};
    m.jointOfNode = {0, 1, 2};
    m.weightOffsetOfJoint = {-1, 0, -1};
    m.restWeights = {0.125f, 0.5f};
    return m;
}

TEST(PoseRest, MakeRestPoseHoldsTheRestLocalsWeightsAndMatrices) {
    const kinema::Model model = threeJointModel();
    const kinema::Pose pose = kinema::makeRestPose(model);
    const auto rest = model.skeleton.restPose();
    ASSERT_EQ(pose.local.size(), 3u);
    for (std::size_t j = 0; j < 3; ++j) EXPECT_EQ(pose.local[j], rest[j]);
    EXPECT_EQ(pose.weights, model.restWeights);
    ASSERT_EQ(pose.model.size(), 3u);
    const kref::M4 m0 = kref::trs(rest[0]);
    const kref::M4 m1 = kref::mul(m0, kref::trs(rest[1]));
    const kref::M4 m2 = kref::mul(m1, kref::trs(rest[2]));
    expectMatNear(m0, pose.model[0], 1e-6, "root");
    expectMatNear(m1, pose.model[1], 1e-6, "a");
    expectMatNear(m2, pose.model[2], 1e-6, "b");
}

TEST(PoseRest, ResetToRestRestoresLocalsAndWeights) {
    const kinema::Model model = threeJointModel();
    kinema::Pose pose = kinema::makeRestPose(model);
    for (Transform& t : pose.local) t.translation = {9, 9, 9};
    pose.weights = {7, 7};
    kinema::resetToRest(model, pose);
    const auto rest = model.skeleton.restPose();
    for (std::size_t j = 0; j < 3; ++j) EXPECT_EQ(pose.local[j], rest[j]);
    EXPECT_EQ(pose.weights, model.restWeights);
}

}  // namespace
