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

#include <cstddef>
#include <cstdint>
#include <span>

#include "kinema/runtime/ik.hpp"
#include "kinema/runtime/soa_pose.hpp"

namespace kinema::detail {

inline constexpr std::size_t kIkLanes = 16;

// One task that checkIkTasks accepted, on `local`; its outcome after it. A task of
// weight 0 changes nothing and only reports.
IkOutcome solveIkTask(std::span<const std::int32_t> parents, SoaPose& local, const IkTask& task) noexcept;

// One lane of solveTwoBoneLanes: a task, the pose it runs on and where its outcome goes.
struct TwoBoneLane {
    SoaPose* pose;
    const TwoBoneIk* task;
    IkOutcome* outcome;
};

// lanes[k].task on *lanes[k].pose (1 to kIkLanes lanes), every task naming the same
// root, middle and end joints and accepted by checkIkTasks, with a weight above 0.
void solveTwoBoneLanes(std::span<const std::int32_t> parents, std::span<const TwoBoneLane> lanes) noexcept;

// An aim task side by side: as TwoBoneLane.
struct AimLane {
    SoaPose* pose;
    const AimIk* task;
    IkOutcome* outcome;
};

// Aims of up to this many joints run in lanes; longer ones on the reference solver.
inline constexpr std::size_t kMaxAimLanesJoints = 4;
// lanes[k].task on *lanes[k].pose (1 to kIkLanes lanes), every task naming the same
// joints and accepted by checkIkTasks, with a weight above 0.
void solveAimLanes(std::span<const std::int32_t> parents, std::span<const AimLane> lanes) noexcept;

}  // namespace kinema::detail
