// Internal: the IK solvers as the evaluator runs them.
//
// solveIkTask runs one task of any kind on one pose (the reference solvers of
// ik.cpp). solveTwoBoneLanes and solveAimLanes run one two-bone or aim task on each
// of up to kIkLanes poses side by side, one pose per SIMD lane: they compose each
// chain once from its top ancestor down and solve all lanes in the same
// instructions, where the reference composes every joint it reads from scratch.
// Both give the same results to float rounding (tests/runtime/ik_group_test.cpp
// compares them).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "kinema/runtime/ik.hpp"
#include "kinema/runtime/soa_pose.hpp"
#include "pose_lanes.hpp"

namespace kinema::detail {

// A TwoBoneIk as floats: the joint indices, then target, pole, twist, weight, soften
// (read as one array by the checks and the lane solver).
inline constexpr std::size_t kTwoBoneFloats = 12;
static_assert(sizeof(TwoBoneIk) == kTwoBoneFloats * sizeof(float) && offsetof(TwoBoneIk, target) == 3 * sizeof(float) &&
              offsetof(TwoBoneIk, pole) == 6 * sizeof(float) && offsetof(TwoBoneIk, twist) == 9 * sizeof(float) &&
              offsetof(TwoBoneIk, weight) == 10 * sizeof(float) && offsetof(TwoBoneIk, soften) == 11 * sizeof(float));

// One task that checkIkTasks accepted, on `local`; its outcome after it. A task of
// weight 0 changes nothing and only reports.
IkOutcome solveIkTask(std::span<const std::int32_t> parents, SoaPose& local, const IkTask& task) noexcept;

// One lane of a side-by-side solve: the task its instance runs (null: the lane's
// instance takes no part) and where the outcome goes.
// (No member initialisers: a solver's array of them is filled lane by lane.)
template <class Task>
struct TaskLane {
    const Task* task;
    IkOutcome* outcome;
};
using TwoBoneLane = TaskLane<TwoBoneIk>;
using AimLane = TaskLane<AimIk>;

// lanes[l].task on lane l of `poses`, for the lanes that have a task (at least
// one), every task naming the same root, middle and end joints and accepted by
// checkIkTasks, with a weight above 0.
void solveTwoBoneLanes(std::span<const std::int32_t> parents, PoseLanes& poses,
                       std::span<const TwoBoneLane, kIkLanes> lanes) noexcept;

// Aims of up to this many joints run in lanes; longer ones on the reference solver.
inline constexpr std::size_t kMaxAimLanesJoints = 4;
// As solveTwoBoneLanes, for aim tasks naming the same joints.
void solveAimLanes(std::span<const std::int32_t> parents, PoseLanes& poses,
                   std::span<const AimLane, kIkLanes> lanes) noexcept;

}  // namespace kinema::detail
