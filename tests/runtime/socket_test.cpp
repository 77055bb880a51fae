// Sockets: placed at the bone's model matrix times the offset (hand-computed), the
// bone looked up once per (skeleton, name) pairing, failures remembered too, faults
// fresh once per occurrence on latches of their own, and exact decompositions of
// mirrored and collapsed matrices.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "kinema/runtime/socket.hpp"

namespace kinema {
namespace {

Skeleton arm(const char* handName = "hand") {
    std::vector<JointDesc> joints(2);
    joints[0].name = "shoulder";
    joints[0].rest.translation = {0, 1.5f, 0};
    joints[0].rest.rotation = fromAxisAngle({0, 0, 1}, std::numbers::pi_v<float> / 2.0f);  // +X turns to +Y
    joints[1].name = handName;
    joints[1].parent = 0;
    joints[1].rest.translation = {0.6f, 0, 0};
    return Skeleton::create(std::move(joints)).value();
}

// The rest pose's model matrices, composed by hand for this two-joint chain.
std::vector<Mat4> restModel(const Skeleton& s) {
    std::vector<Mat4> model(2);
    model[0] = toMatrix(s.restPose()[0]);
    model[1] = model[0] * toMatrix(s.restPose()[1]);
    return model;
}

TEST(Socket, SitsAtTheBoneTimesTheOffset) {
    const Skeleton skeleton = arm();
    Transform grip;
    grip.translation = {0.1f, 0, 0};  // 10 cm along the hand's own X, which is world +Y
    grip.scale = {2, 2, 2};
    Socket socket("hand", grip);
    SocketPlacement placed;
    const SocketReport r = socket.place(skeleton, restModel(skeleton), placed);
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    // Hand at (0, 1.5 + 0.6, 0); the offset along +Y: (0, 2.2, 0).
    EXPECT_NEAR(placed.matrix.m[12], 0.0f, 1e-6f);
    EXPECT_NEAR(placed.matrix.m[13], 2.2f, 1e-6f);
    EXPECT_NEAR(placed.trs.translation.y, 2.2f, 1e-6f);
    EXPECT_NEAR(placed.trs.scale.x, 2.0f, 1e-6f);
    EXPECT_NEAR(placed.trs.scale.z, 2.0f, 1e-6f);
    const Quat expected = fromAxisAngle({0, 0, 1}, std::numbers::pi_v<float> / 2.0f);
    EXPECT_NEAR(std::abs(dot(placed.trs.rotation, expected)), 1.0f, 1e-6f);
    // The offset reads back as given; a new one moves the placement.
    EXPECT_EQ(socket.offset().translation, grip.translation);
    EXPECT_EQ(socket.offsetMatrix().m[12], 0.1f);  // translation, then the scale of what it holds
    socket.setOffset(Transform{});
    ASSERT_TRUE(socket.place(skeleton, restModel(skeleton), placed).status.ok());
    EXPECT_NEAR(placed.matrix.m[13], 2.1f, 1e-6f);
}

// An offset holding NaN or a zero rotation is refused (never a NaN or scaled
// matrix); a rotation of any other length is used at unit length; a bone whose
// model matrix is not finite is refused naming the bone.
TEST(Socket, BadOffsetsAndBonesAreRefusedAndRotationsNormalised) {
    const Skeleton skeleton = arm();
    SocketPlacement placed;
    placed.matrix.m[0] = 7.0f;  // untouched by a refusal
    Transform nan;
    nan.translation.x = NAN;
    Socket socket("hand", nan);
    SocketReport r = socket.place(skeleton, restModel(skeleton), placed);
    EXPECT_EQ(r.status.code, StatusCode::NotFinite);
    EXPECT_TRUE(r.fresh);
    EXPECT_EQ(placed.matrix.m[0], 7.0f);
    Transform zero;
    zero.rotation = {0.0f, 0.0f, 0.0f, 0.0f};
    socket.setOffset(zero);
    EXPECT_EQ(socket.place(skeleton, restModel(skeleton), placed).status.code, StatusCode::OutOfRange);

    Transform doubled;
    doubled.rotation = {0.0f, 0.0f, 2.0f, 0.0f};  // a half turn about Z, at length 2
    socket.setOffset(doubled);
    r = socket.place(skeleton, restModel(skeleton), placed);
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    const Mat4& m = placed.matrix;
    const float det = m.m[0] * (m.m[5] * m.m[10] - m.m[6] * m.m[9]) - m.m[4] * (m.m[1] * m.m[10] - m.m[2] * m.m[9]) +
        m.m[8] * (m.m[1] * m.m[6] - m.m[2] * m.m[5]);
    EXPECT_NEAR(det, 1.0f, 1e-5f);  // a rotation: nothing scaled by the quaternion's length
    EXPECT_EQ(socket.offset().rotation.z, 1.0f);
    // Lengths whose squares leave float range still have a direction.
    for (const float k : {1e-30f, 3e38f}) {
        Transform scaled;
        scaled.rotation = {0.0f, 0.0f, k, 0.0f};
        socket.setOffset(scaled);
        ASSERT_TRUE(socket.place(skeleton, restModel(skeleton), placed).status.ok()) << k;
        EXPECT_EQ(socket.offset().rotation.z, 1.0f) << k;
    }

    std::vector<Mat4> model = restModel(skeleton);
    model[1].m[13] = INFINITY;
    r = socket.place(skeleton, model, placed);
    EXPECT_EQ(r.status.code, StatusCode::NotFinite);
    EXPECT_EQ(r.status.index, 1);
}

TEST(Socket, ASocketNamingNoBoneIsRefusedThoughJointsHaveNoNames) {
    std::vector<JointDesc> joints(2);
    joints[1].parent = 0;  // both unnamed
    const Skeleton unnamed = Skeleton::create(std::move(joints)).value();
    Socket socket;
    SocketPlacement placed;
    const std::vector<Mat4> model(2);
    const SocketReport r = socket.place(unnamed, model, placed);
    EXPECT_EQ(r.status.code, StatusCode::Missing);
    EXPECT_EQ(r.status.message(), "socket: it names no bone");
    EXPECT_EQ(socket.resolve(unnamed), -1);
}

TEST(Socket, LooksTheBoneUpOncePerSkeletonAndNameFailuresToo) {
    const Skeleton a = arm(), b = arm("wrist");
    Socket socket("hand");
    SocketPlacement placed;
    for (int frame = 0; frame < 5; ++frame) EXPECT_TRUE(socket.place(a, restModel(a), placed).status.ok());
    EXPECT_EQ(socket.lookups(), 1u);
    for (int frame = 0; frame < 5; ++frame)
        EXPECT_EQ(socket.place(b, restModel(b), placed).status.code, StatusCode::UnknownName);
    EXPECT_EQ(socket.lookups(), 2u);  // the failure is remembered
    socket.setBone("wrist");
    EXPECT_EQ(socket.resolve(b), 1);
    EXPECT_EQ(socket.resolve(b), 1);
    EXPECT_EQ(socket.lookups(), 3u);
    EXPECT_EQ(socket.resolve(a), -1);
    EXPECT_EQ(socket.lookups(), 4u);
}

TEST(Socket, EachFaultIsFreshOncePerOccurrenceOnItsOwnLatch) {
    const Skeleton skeleton = arm();
    const std::vector<Mat4> pose = restModel(skeleton);
    Socket socket("hand");
    SocketPlacement placed;
    SocketReport r = socket.place(skeleton, {}, placed);
    EXPECT_EQ(r.status.code, StatusCode::Missing);
    EXPECT_TRUE(r.fresh);
    EXPECT_FALSE(socket.place(skeleton, {}, placed).fresh);  // the same gap: not news
    EXPECT_TRUE(socket.place(skeleton, pose, placed).status.ok());
    EXPECT_TRUE(socket.place(skeleton, {}, placed).fresh);  // a new gap
    // Another fault is news at once, and does not silence the first when it comes back.
    socket.setBone("foot");
    r = socket.place(skeleton, pose, placed);
    EXPECT_EQ(r.status.code, StatusCode::UnknownName);
    EXPECT_TRUE(r.fresh);
    EXPECT_FALSE(socket.place(skeleton, pose, placed).fresh);
    EXPECT_TRUE(socket.place(skeleton, {}, placed).fresh);
    const Skeleton empty = Skeleton::create({}).value();
    r = socket.place(empty, pose, placed);
    EXPECT_EQ(r.status.code, StatusCode::NotReady);
    EXPECT_TRUE(r.fresh);
    // An empty skeleton's pose is empty: still an empty skeleton, not a missing pose.
    r = socket.place(empty, {}, placed);
    EXPECT_EQ(r.status.code, StatusCode::NotReady);
    EXPECT_FALSE(r.fresh);
    EXPECT_EQ(socket.place(skeleton, std::span(pose).first(1), placed).status.code, StatusCode::WrongCount);
}

// A bone still missing behind frames without a pose (its check did not run then) is
// the same occurrence: news once. Each gap in the pose between frames with one is news.
TEST(Socket, AFaultHiddenBehindAnotherIsNotNewsAgain) {
    const Skeleton skeleton = arm();
    const std::vector<Mat4> pose = restModel(skeleton);
    Socket socket("sword_hand");
    SocketPlacement placed;
    int missingBone = 0, freshBone = 0, gaps = 0, freshGaps = 0;
    for (int frame = 0; frame < 10; ++frame) {
        const bool withPose = frame % 2 == 0;
        const SocketReport r =
            socket.place(skeleton, withPose ? std::span<const Mat4>(pose) : std::span<const Mat4>{}, placed);
        if (withPose) {
            EXPECT_EQ(r.status.code, StatusCode::UnknownName);
            ++missingBone;
            freshBone += r.fresh ? 1 : 0;
        } else {
            EXPECT_EQ(r.status.code, StatusCode::Missing);
            ++gaps;
            freshGaps += r.fresh ? 1 : 0;
        }
    }
    EXPECT_EQ(missingBone, 5);
    EXPECT_EQ(freshBone, 1);
    EXPECT_EQ(gaps, 5);
    EXPECT_EQ(freshGaps, 5);
    EXPECT_EQ(socket.lookups(), 1u);
}

// The offset's two faults are two kinds: one after the other, each is news.
TEST(Socket, AnOffsetNotFiniteAndAZeroRotationAreLatchedApart) {
    const Skeleton skeleton = arm();
    const std::vector<Mat4> pose = restModel(skeleton);
    SocketPlacement placed;
    Transform zero;
    zero.rotation = {0.0f, 0.0f, 0.0f, 0.0f};
    Transform nan;
    nan.translation.y = NAN;
    Socket socket("hand", zero);
    SocketReport r = socket.place(skeleton, pose, placed);
    EXPECT_EQ(r.status.code, StatusCode::OutOfRange);
    EXPECT_TRUE(r.fresh);
    socket.setOffset(nan);
    r = socket.place(skeleton, pose, placed);
    EXPECT_EQ(r.status.code, StatusCode::NotFinite);
    EXPECT_TRUE(r.fresh);
    socket.setOffset(zero);
    r = socket.place(skeleton, pose, placed);
    EXPECT_EQ(r.status.code, StatusCode::OutOfRange);
    EXPECT_TRUE(r.fresh);
    EXPECT_FALSE(socket.place(skeleton, pose, placed).fresh);
}

// Finite factors whose product is not: refused, the placement left as it was.
TEST(Socket, AProductThatOverflowsIsRefused) {
    const Skeleton skeleton = arm();
    std::vector<Mat4> pose = restModel(skeleton);
    pose[1].m[0] = 2.0f;  // the hand's x axis doubled
    Transform far;
    far.translation.x = 3e38f;  // doubled: past the largest float
    Socket socket("hand", far);
    SocketPlacement placed;
    placed.matrix.m[12] = 7.0f;
    const SocketReport r = socket.place(skeleton, pose, placed);
    EXPECT_EQ(r.status.code, StatusCode::NotFinite);
    EXPECT_EQ(r.status.index, 1);
    EXPECT_TRUE(r.fresh);
    EXPECT_EQ(placed.matrix.m[12], 7.0f);
}

// Naming the bone again costs no lookup; naming another that is missing too is a
// new occurrence.
TEST(Socket, AnotherMissingBoneIsNewsTheSameNameIsNothing) {
    const Skeleton skeleton = arm();
    const std::vector<Mat4> pose = restModel(skeleton);
    Socket socket("foot");
    SocketPlacement placed;
    EXPECT_TRUE(socket.place(skeleton, pose, placed).fresh);
    socket.setBone("foot");
    SocketReport r = socket.place(skeleton, pose, placed);
    EXPECT_FALSE(r.fresh);
    EXPECT_EQ(socket.lookups(), 1u);
    socket.setBone("knee");
    r = socket.place(skeleton, pose, placed);
    EXPECT_EQ(r.status.code, StatusCode::UnknownName);
    EXPECT_TRUE(r.fresh);
    EXPECT_EQ(socket.lookups(), 2u);
}

TEST(Socket, MirroredAndCollapsedBonesDecomposeWithoutNaN) {
    const Skeleton skeleton = arm();
    std::vector<Mat4> pose = restModel(skeleton);
    Socket socket("hand");
    SocketPlacement placed;
    // A mirror along the hand's first axis.
    for (int r = 0; r < 3; ++r) pose[1].m[static_cast<std::size_t>(r)] = -pose[1].m[static_cast<std::size_t>(r)];
    ASSERT_TRUE(socket.place(skeleton, pose, placed).status.ok());
    EXPECT_NEAR(placed.trs.scale.x, -1.0f, 1e-6f);
    const Mat4 back = toMatrix(placed.trs);
    for (std::size_t i = 0; i < 16; ++i) EXPECT_NEAR(back.m[i], placed.matrix.m[i], 1e-6f) << i;
    // An axis scaled to nothing (a clip hiding the hand).
    for (int r = 0; r < 3; ++r) pose[1].m[4 + static_cast<std::size_t>(r)] = 0.0f;
    ASSERT_TRUE(socket.place(skeleton, pose, placed).status.ok());
    EXPECT_EQ(placed.trs.scale.y, 0.0f);
    EXPECT_TRUE(isFinite(placed.trs));
}

}  // namespace
}  // namespace kinema
