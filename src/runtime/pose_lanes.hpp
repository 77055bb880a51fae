// Internal: the poses of a group of instances seen lane by lane, one instance per
// SIMD lane, for the IK lane solvers (ik_lanes.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "kinema/math/quat.hpp"
#include "kinema/math/vec3.hpp"
#include "kinema/runtime/soa_pose.hpp"

namespace kinema::detail {

inline constexpr std::size_t kIkLanes = 16;

// How a block of 16 joints of 16 poses is moved into lane order: with 512-bit vectors
// (one 16 x 16 transposition per component), with 256-bit ones (four 8 x 8), or joint
// by joint where neither is there.
// (In order of width.)
enum class BlockMoves : std::uint8_t { OneByOne, Halves, Full };

// The widest way this CPU has.
BlockMoves bestBlockMoves() noexcept;

// One value per lane, for the vector loops of the lane solvers.
struct LaneVec3 {
    alignas(64) float x[kIkLanes];
    alignas(64) float y[kIkLanes];
    alignas(64) float z[kIkLanes];
    Vec3 operator[](std::size_t l) const noexcept { return {x[l], y[l], z[l]}; }
    void set(std::size_t l, Vec3 v) noexcept {
        x[l] = v.x;
        y[l] = v.y;
        z[l] = v.z;
    }
};

struct LaneQuat {
    alignas(64) float x[kIkLanes];
    alignas(64) float y[kIkLanes];
    alignas(64) float z[kIkLanes];
    alignas(64) float w[kIkLanes];
    Quat operator[](std::size_t l) const noexcept { return {x[l], y[l], z[l], w[l]}; }
    void set(std::size_t l, Quat q) noexcept {
        x[l] = q.x;
        y[l] = q.y;
        z[l] = q.z;
        w[l] = q.w;
    }
};

// A translation, rotation and per-axis scale per lane: a joint's local transform.
struct LaneFrame {
    LaneVec3 p;
    LaneQuat r;
    LaneVec3 s;
};

// The poses of one group of instances, lane by lane: lane l is poses[l] (lanes past
// the poses given read the first pose and are never written). The lane solvers read
// joints here and set the rotations they solve here; flush() writes those back.
//
// Why: a pose stores each component of its joints in one array (SoaPose), so a lane
// solver reading a joint of 16 poses makes 16 scattered reads per component. Where
// the CPU has 512-bit or 256-bit vectors, a joint's whole block of 16 joints (one 64-byte line
// of each component array) is moved into lane order at once, a 16 x 16 transposition
// per component (four 8 x 8 ones with 256-bit vectors), and written back the same
// way: all the joints of a group's tasks for the cost of one joint read lane by lane.
// Without either, joints are read one by one.
class PoseLanes {
public:
    // 1 to kIkLanes poses of one skeleton; blocks moved `moves`' way, or the widest
    // this CPU has where it lacks that one.
    explicit PoseLanes(std::span<SoaPose* const> poses, BlockMoves moves = bestBlockMoves()) noexcept;
    PoseLanes(const PoseLanes&) = delete;
    PoseLanes& operator=(const PoseLanes&) = delete;
    ~PoseLanes() = default;  // flush() first: rotations set and not flushed are lost

    std::size_t count() const noexcept { return count_; }
    SoaPose& pose(std::size_t lane) const noexcept { return *poses_[lane]; }

    // Joints are held in blocks of kBlockJoints (j / kBlockJoints), kBlocksHeld blocks
    // at a time, the least recently read given up first.
    static constexpr std::size_t kBlockJoints = kSoaLanes;
    static constexpr std::size_t kBlocksHeld = 4;

    // Joint j of every lane: the poses' values, with the rotations set since. The
    // reference stays valid until flush(), or until joints of kBlocksHeld other
    // blocks have been read since.
    const LaneFrame& joint(std::uint32_t j) noexcept;
    // Joint j's rotation in the lanes whose bit is set in `lanes` (bit l: lane l).
    void setRotation(std::uint32_t j, const LaneQuat& q, std::uint32_t lanes) noexcept;
    // Writes every rotation set into the poses and forgets every joint read: call it
    // before anything else reads or writes the poses.
    void flush() noexcept;

private:
    static constexpr std::uint32_t kNoBlock = ~0u;
    struct Slot {
        std::array<LaneFrame, kBlockJoints> joints;
        std::uint32_t block = kNoBlock;
        std::uint32_t read = 0;     // bit k: joint k of the block is here
        std::uint32_t changed = 0;  // bit k: its rotation was set
        std::uint64_t used = 0;     // when it was last read (0: free)
    };
    Slot& slotFor(std::uint32_t block) noexcept;
    Slot& holding(std::uint32_t j) noexcept;  // the slot of j's block, with j read
    void writeBack(Slot& slot) noexcept;

    std::array<SoaPose*, kIkLanes> poses_{};
    std::size_t count_ = 0;
    std::size_t stride_ = 0;      // floats from one component array to the next
    std::uint32_t allLanes_ = 0;  // a bit for each lane with a pose of its own
    BlockMoves moves_ = BlockMoves::OneByOne;
    std::uint64_t clock_ = 0;  // reads so far
    std::array<Slot, kBlocksHeld> slots_;
};

// The first `floats` (1 to 16) floats of each lane's record, lane by lane: out[k][l]
// is float k of *records[l] (out holds `floats` arrays). A record is read only up to
// them. Done with transpositions where blocks move `moves`' way (as far as this CPU
// has it): with OneByOne it returns false and writes nothing (read the fields one by one).
bool recordsToLanes(std::span<const void* const, kIkLanes> records, std::size_t floats,
                    std::span<std::array<float, kIkLanes>> out, BlockMoves moves = bestBlockMoves()) noexcept;

}  // namespace kinema::detail
