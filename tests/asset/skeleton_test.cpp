// Skeleton::create: one case per validation rule, each fault located as
// "joints/<i>/<field>", and name lookup.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kinema/asset/skeleton.hpp"

namespace {

using kinema::JointDesc;
using kinema::kNoParent;
using kinema::Skeleton;

// root <- spine <- head, root <- leg: a valid four-joint skeleton.
std::vector<JointDesc> validJoints() {
    std::vector<JointDesc> j(4);
    j[0] = {"root", kNoParent, {}};
    j[1] = {"spine", 0, {}};
    j[2] = {"head", 1, {}};
    j[3] = {"leg", 0, {}};
    j[1].rest.translation = {0, 1, 0};
    j[2].rest.translation = {0, 0.5f, 0};
    j[3].rest.translation = {0.2f, -1, 0};
    return j;
}

// The faults' `where` fields, in order.
std::vector<std::string> wheres(const kinema::Result<Skeleton>& r) {
    std::vector<std::string> w;
    for (const auto& f : r.faults()) w.push_back(f.where);
    return w;
}

using Wheres = std::vector<std::string>;

TEST(SkeletonCreate, ValidSkeletonIsAccepted) {
    const auto r = Skeleton::create(validJoints());
    ASSERT_TRUE(r.ok()) << r.message();
    EXPECT_EQ(r->jointCount(), 4u);
    const std::vector<std::int32_t> parents(r->parents().begin(), r->parents().end());
    EXPECT_EQ(parents, (std::vector<std::int32_t>{-1, 0, 1, 0}));
    EXPECT_EQ(r->name(2), "head");
    EXPECT_EQ(r->restPose()[3].translation, (kinema::Vec3{0.2f, -1, 0}));
}

TEST(SkeletonCreate, EmptySkeletonIsAccepted) {
    const auto r = Skeleton::create({});
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->jointCount(), 0u);
    EXPECT_FALSE(r->findJoint("root").has_value());
}

TEST(SkeletonCreate, ParentNotEarlierIsAFault) {
    auto j = validJoints();
    j[1].parent = 2;  // a later joint
    const auto r = Skeleton::create(j);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(wheres(r), Wheres{"joints/1/parent"});
}

TEST(SkeletonCreate, ParentEqualToSelfIsAFault) {
    auto j = validJoints();
    j[2].parent = 2;
    const auto r = Skeleton::create(j);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(wheres(r), Wheres{"joints/2/parent"});
}

TEST(SkeletonCreate, ParentPastTheJointTableIsAFault) {
    auto j = validJoints();
    j[3].parent = 99;
    EXPECT_EQ(wheres(Skeleton::create(j)), Wheres{"joints/3/parent"});
}

TEST(SkeletonCreate, NegativeParentOtherThanNoParentIsAFault) {
    auto j = validJoints();
    j[1].parent = -2;
    EXPECT_EQ(wheres(Skeleton::create(j)), Wheres{"joints/1/parent"});
}

TEST(SkeletonCreate, NonFiniteRestTranslationIsAFault) {
    auto j = validJoints();
    j[2].rest.translation.y = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(wheres(Skeleton::create(j)), Wheres{"joints/2/rest/translation"});
}

TEST(SkeletonCreate, NonFiniteRestScaleIsAFault) {
    auto j = validJoints();
    j[0].rest.scale.z = std::numeric_limits<float>::infinity();
    EXPECT_EQ(wheres(Skeleton::create(j)), Wheres{"joints/0/rest/scale"});
}

TEST(SkeletonCreate, NonFiniteRestRotationIsAFault) {
    auto j = validJoints();
    j[3].rest.rotation.x = -std::numeric_limits<float>::infinity();
    EXPECT_EQ(wheres(Skeleton::create(j)), Wheres{"joints/3/rest/rotation"});
}

TEST(SkeletonCreate, ZeroRestRotationIsAFault) {
    auto j = validJoints();
    j[1].rest.rotation = {0, 0, 0, 0};
    EXPECT_EQ(wheres(Skeleton::create(j)), Wheres{"joints/1/rest/rotation"});
}

TEST(SkeletonCreate, ARestPoseThatOverflowsOnceComposedIsAFault) {
    // Each transform finite; spine's scale times root's (1e40) and head's offset under
    // it (0.5e40) are not floats. Only spine, the topmost, is named.
    auto j = validJoints();
    j[0].rest.scale = {1e20f, 1e20f, 1e20f};
    j[1].rest.scale = {1e20f, 1.0f, 1.0f};
    EXPECT_EQ(wheres(Skeleton::create(j)), Wheres{"joints/1/rest"});
    // Translations alone overflow too: 3e38 + 3e38.
    j = validJoints();
    j[0].rest.translation = {3e38f, 0, 0};
    j[1].rest.translation = {3e38f, 0, 0};
    EXPECT_EQ(wheres(Skeleton::create(j)), Wheres{"joints/1/rest"});
    // Large but representable: accepted.
    j = validJoints();
    j[0].rest.scale = {1e19f, 1e19f, 1e19f};
    j[1].rest.scale = {1e19f, 1e19f, 1e19f};
    EXPECT_TRUE(Skeleton::create(j).ok());
}

TEST(SkeletonCreate, EveryFaultIsReportedNotOnlyTheFirst) {
    auto j = validJoints();
    j[1].rest.rotation = {0, 0, 0, 0};
    j[3].parent = 3;
    const auto r = Skeleton::create(j);
    EXPECT_EQ(wheres(r), (Wheres{"joints/1/rest/rotation", "joints/3/parent"}));
    for (const auto& f : r.faults()) EXPECT_FALSE(f.what.empty());
}

TEST(SkeletonCreate, RestRotationsAreNormalised) {
    auto j = validJoints();
    j[2].rest.rotation = {0, 0, 3, 4};  // length 5
    const auto r = Skeleton::create(j);
    ASSERT_TRUE(r.ok());
    const kinema::Quat q = r->restPose()[2].rotation;
    EXPECT_NEAR(q.z, 0.6, 1e-7);
    EXPECT_NEAR(q.w, 0.8, 1e-7);
    EXPECT_EQ(q.x, 0.0f);
    EXPECT_EQ(q.y, 0.0f);
}

TEST(SkeletonFindJoint, FindsEachJointByName) {
    const auto r = Skeleton::create(validJoints());
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->findJoint("root"), 0u);
    EXPECT_EQ(r->findJoint("spine"), 1u);
    EXPECT_EQ(r->findJoint("head"), 2u);
    EXPECT_EQ(r->findJoint("leg"), 3u);
}

TEST(SkeletonFindJoint, UnknownOrPartialNameIsNotFound) {
    const auto r = Skeleton::create(validJoints());
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(r->findJoint("arm").has_value());
    EXPECT_FALSE(r->findJoint("hea").has_value());
    EXPECT_FALSE(r->findJoint("heads").has_value());
    EXPECT_FALSE(r->findJoint("").has_value());
    EXPECT_FALSE(r->findJoint("Head").has_value());  // exact, case-sensitive
}

TEST(SkeletonFindJoint, DuplicateNameFindsTheFirstJoint) {
    std::vector<JointDesc> j(5);
    j[0] = {"b", kNoParent, {}};
    j[1] = {"dup", 0, {}};
    j[2] = {"a", 0, {}};
    j[3] = {"dup", 2, {}};
    j[4] = {"dup", 3, {}};
    const auto r = Skeleton::create(j);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->findJoint("dup"), 1u);
    EXPECT_EQ(r->findJoint("a"), 2u);
    EXPECT_EQ(r->findJoint("b"), 0u);
}

}  // namespace
