// PoseLanes: the poses of a group seen lane by lane. Every value read is checked
// against the pose it came from (SoaPose::joint), every write-back against the
// rotations set, on every path this CPU has (blocks moved whole with 512-bit or
// 256-bit transpositions, joint by joint; the emulated runs have the last alone).
#include "pose_lanes.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "kinema/math/quat.hpp"
#include "kinema/runtime/soa_pose.hpp"

namespace kinema {
namespace {

using detail::BlockMoves;
using detail::kIkLanes;
using detail::LaneFrame;
using detail::LaneQuat;
using detail::PoseLanes;

// Every way of moving blocks this CPU has.
std::vector<BlockMoves> movesHere() {
    std::vector<BlockMoves> out{BlockMoves::OneByOne};
    if (detail::bestBlockMoves() >= BlockMoves::Halves) out.push_back(BlockMoves::Halves);
    if (detail::bestBlockMoves() >= BlockMoves::Full) out.push_back(BlockMoves::Full);
    return out;
}

const char* nameOf(BlockMoves moves) {
    switch (moves) {
        case BlockMoves::OneByOne: return "joint by joint";
        case BlockMoves::Halves: return "256-bit blocks";
        case BlockMoves::Full: return "512-bit blocks";
    }
    return "?";
}

constexpr std::size_t kJoints = 90;  // six blocks of 16, the last one part padding

// Pose p's joint j: every component a different value, none shared between poses.
Transform valueOf(std::size_t p, std::size_t j) {
    const auto v = [&](std::size_t c) { return static_cast<float>(p * 10000 + j * 10 + c); };
    return {{v(0), v(1), v(2)}, {v(3), v(4), v(5), v(6)}, {v(7), v(8), v(9)}};
}

std::vector<SoaPose> makePoses(std::size_t count) {
    std::vector<SoaPose> poses;
    for (std::size_t p = 0; p < count; ++p) {
        SoaPose pose(kJoints, 0);
        for (std::size_t j = 0; j < kJoints; ++j) pose.setJoint(j, valueOf(p, j));
        poses.push_back(std::move(pose));
    }
    return poses;
}

std::vector<SoaPose*> pointers(std::vector<SoaPose>& poses) {
    std::vector<SoaPose*> out;
    for (SoaPose& p : poses) out.push_back(&p);
    return out;
}

void expectLanesHold(const LaneFrame& f, std::size_t j, std::size_t count) {
    for (std::size_t l = 0; l < kIkLanes; ++l) {
        const Transform want = valueOf(l < count ? l : 0, j);  // lanes past the poses read the first
        EXPECT_EQ(f.p[l].x, want.translation.x) << "joint " << j << " lane " << l;
        EXPECT_EQ(f.p[l].z, want.translation.z) << "joint " << j << " lane " << l;
        EXPECT_EQ(f.r[l].x, want.rotation.x) << "joint " << j << " lane " << l;
        EXPECT_EQ(f.r[l].w, want.rotation.w) << "joint " << j << " lane " << l;
        EXPECT_EQ(f.s[l].y, want.scale.y) << "joint " << j << " lane " << l;
        EXPECT_EQ(f.s[l].z, want.scale.z) << "joint " << j << " lane " << l;
    }
}

TEST(PoseLanes, ReadsEveryJointOfEveryLaneAsThePosesHoldIt) {
    for (const BlockMoves moves : movesHere()) {
        for (const std::size_t count : {std::size_t{1}, std::size_t{5}, std::size_t{8}, std::size_t{9}, kIkLanes}) {
            SCOPED_TRACE(nameOf(moves));
            auto poses = makePoses(count);
            const auto p = pointers(poses);
            PoseLanes lanes(p, moves);
            EXPECT_EQ(lanes.count(), count);
            // Every joint, blocks revisited after others pushed them out.
            for (std::size_t round = 0; round < 2; ++round) {
                for (std::size_t j = 0; j < kJoints; ++j)
                    expectLanesHold(lanes.joint(static_cast<std::uint32_t>(j)), j, count);
            }
            for (std::size_t j = kJoints; j-- > 0;)
                expectLanesHold(lanes.joint(static_cast<std::uint32_t>(j)), j, count);
        }
    }
}

// A rotation per lane that no pose holds.
LaneQuat turned(float salt) {
    LaneQuat q;
    for (std::size_t l = 0; l < kIkLanes; ++l) {
        q.set(l, Quat{salt + static_cast<float>(l), -1.0f, 0.5f, -static_cast<float>(l)});
    }
    return q;
}

TEST(PoseLanes, WritesBackOnlyTheRotationsSetInTheLanesNamed) {
    for (const BlockMoves moves : movesHere()) {
        SCOPED_TRACE(nameOf(moves));
        constexpr std::size_t kCount = 11;
        auto poses = makePoses(kCount);
        const auto p = pointers(poses);
        PoseLanes lanes(p, moves);
        const LaneQuat a = turned(0.25f), b = turned(7.5f);
        const std::uint32_t some = 0b1010'0110'0101u;  // lanes 0, 2, 5, 6, 9, 11 (past the poses)
        lanes.setRotation(3, a, some);
        lanes.setRotation(40, b, ~0u);
        // Read back before the flush: the rotations set, the other lanes unchanged.
        for (std::size_t l = 0; l < kIkLanes; ++l) {
            const bool set = (some >> l & 1u) != 0;
            const Quat want = set ? a[l] : valueOf(l < kCount ? l : 0, 3).rotation;
            EXPECT_EQ(lanes.joint(3).r[l].x, want.x) << l;
            EXPECT_EQ(lanes.joint(3).r[l].w, want.w) << l;
            EXPECT_EQ(lanes.joint(40).r[l].y, b[l].y) << l;
        }
        // Nothing reaches the poses before the flush.
        EXPECT_EQ(poses[0].joint(3).rotation.x, valueOf(0, 3).rotation.x);
        lanes.flush();
        for (std::size_t l = 0; l < kCount; ++l) {
            for (std::size_t j = 0; j < kJoints; ++j) {
                const Transform got = poses[l].joint(j);
                Transform want = valueOf(l, j);
                if (j == 3 && (some >> l & 1u) != 0) want.rotation = a[l];
                if (j == 40) want.rotation = b[l];
                EXPECT_EQ(got.translation.x, want.translation.x) << "pose " << l << " joint " << j;
                EXPECT_EQ(got.translation.y, want.translation.y) << "pose " << l << " joint " << j;
                EXPECT_EQ(got.rotation.x, want.rotation.x) << "pose " << l << " joint " << j;
                EXPECT_EQ(got.rotation.y, want.rotation.y) << "pose " << l << " joint " << j;
                EXPECT_EQ(got.rotation.z, want.rotation.z) << "pose " << l << " joint " << j;
                EXPECT_EQ(got.rotation.w, want.rotation.w) << "pose " << l << " joint " << j;
                EXPECT_EQ(got.scale.z, want.scale.z) << "pose " << l << " joint " << j;
            }
        }
        // After the flush the lanes read the poses again, which another writer may have changed.
        poses[1].setJoint(40, valueOf(99, 40));
        EXPECT_EQ(lanes.joint(40).r[1].x, valueOf(99, 40).rotation.x);
    }
}

TEST(PoseLanes, ABlockPushedOutWritesItsRotationsBackFirst) {
    for (const BlockMoves moves : movesHere()) {
        SCOPED_TRACE(nameOf(moves));
        auto poses = makePoses(kIkLanes);
        const auto p = pointers(poses);
        PoseLanes lanes(p, moves);
        const LaneQuat a = turned(3.0f);
        lanes.setRotation(17, a, ~0u);
        // Joints of more blocks than are held: block 1 is given up, its rotation written.
        for (std::uint32_t block = 2; block < 2 + PoseLanes::kBlocksHeld; ++block) (void)lanes.joint(block * 16u);
        for (std::size_t l = 0; l < kIkLanes; ++l) {
            EXPECT_EQ(poses[l].joint(17).rotation.z, a[l].z) << l;
            EXPECT_EQ(poses[l].joint(16).rotation.z, valueOf(l, 16).rotation.z) << l;
        }
        // Read again, it holds the rotation set.
        EXPECT_EQ(lanes.joint(17).r[4].x, a[4].x);
    }
}

TEST(PoseLanes, JointsOfTheBlocksLastReadStayWhereTheyAre) {
    for (const BlockMoves moves : movesHere()) {
        SCOPED_TRACE(nameOf(moves));
        auto poses = makePoses(kIkLanes);
        const auto p = pointers(poses);
        PoseLanes lanes(p, moves);
        (void)lanes.joint(0);
        (void)lanes.joint(20);
        (void)lanes.joint(40);
        (void)lanes.joint(60);
        // Block 0 is read again: the least recently read is now block 1, which goes first.
        const LaneFrame* first = &lanes.joint(5);
        (void)lanes.joint(80);
        EXPECT_EQ(&lanes.joint(5), first);
        expectLanesHold(*first, 5, kIkLanes);
    }
}

// A record of 12 floats, as TwoBoneIk is laid out.
struct Record {
    float values[12];
};

TEST(PoseLanes, RecordsMoveIntoLanesWhereBlocksMoveWhole) {
    std::vector<Record> records(kIkLanes);
    std::array<const void*, kIkLanes> at;
    for (std::size_t l = 0; l < kIkLanes; ++l) {
        for (std::size_t k = 0; k < 12; ++k) records[l].values[k] = static_cast<float>(100 * l + k);
        at[l] = &records[(l * 7) % kIkLanes];  // any order
    }
    for (const BlockMoves moves : movesHere()) {
        SCOPED_TRACE(nameOf(moves));
        // A record read only up to the floats asked for: 12, or fewer than one 256-bit row.
        for (const std::size_t floats : {std::size_t{12}, std::size_t{5}}) {
            std::array<std::array<float, kIkLanes>, 12> out{};
            if (!detail::recordsToLanes(at, floats, out, moves)) {
                EXPECT_EQ(moves, BlockMoves::OneByOne);
                for (const auto& row : out) {
                    for (const float v : row) EXPECT_EQ(v, 0.0f);  // nothing written
                }
                continue;
            }
            for (std::size_t k = 0; k < 12; ++k) {
                for (std::size_t l = 0; l < kIkLanes; ++l) {
                    const float want = k < floats ? static_cast<float>(100 * ((l * 7) % kIkLanes) + k) : 0.0f;
                    EXPECT_EQ(out[k][l], want) << k << " " << l;
                }
            }
        }
    }
}

}  // namespace
}  // namespace kinema
