// Two-bone and aim IK solved side by side (InstanceEvaluator::evaluateGroup, which
// solves the two-bone and aim tasks several requests share in SIMD lanes) against
// the reference solvers (applyIk), run on the same pre-IK pose: every joint's local
// transform and every outcome agree to float rounding, whatever mix of tasks,
// joints, weights, soften, twist, limits, decays and degenerate input the group
// holds, and lanes never leak into each other.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "kinema/asset/skeleton.hpp"
#include "kinema/math/transform.hpp"
#include "kinema/runtime/bone_adjust.hpp"
#include "kinema/runtime/ik.hpp"
#include "kinema/runtime/instance.hpp"

namespace kinema {
namespace {

// The joints of legs(): pelvis(0) -> hipL(1) -> twistL(2) -> kneeL(3) -> ankleL(4) -> toeL(5)
//          -> hipR(6) -> kneeR(7) -> ankleR(8)
//          -> spine(9) -> neck(10) -> head(11)
// The left knee hangs under a twist joint (middle not a child of the root); the
// pelvis is scaled, so every frame carries a scale.
std::vector<JointDesc> skeletonJoints() {
    std::vector<JointDesc> j(12);
    const auto joint = [&](std::size_t i, const char* name, std::int32_t parent, Vec3 t) {
        j[i].name = name;
        j[i].parent = parent;
        j[i].rest.translation = t;
    };
    joint(0, "pelvis", -1, {0.0f, 1.0f, 0.0f});
    joint(1, "hipL", 0, {0.1f, 0.0f, 0.0f});
    joint(2, "twistL", 1, {0.0f, -0.2f, 0.01f});
    joint(3, "kneeL", 2, {0.0f, -0.25f, 0.02f});
    joint(4, "ankleL", 3, {0.0f, -0.45f, -0.02f});
    joint(5, "toeL", 4, {0.0f, -0.05f, 0.12f});
    joint(6, "hipR", 0, {-0.1f, 0.0f, 0.0f});
    joint(7, "kneeR", 6, {0.0f, -0.45f, 0.02f});
    joint(8, "ankleR", 7, {0.0f, -0.45f, -0.02f});
    joint(9, "spine", 0, {0.0f, 0.3f, 0.0f});
    joint(10, "neck", 9, {0.0f, 0.3f, 0.0f});
    joint(11, "head", 10, {0.0f, 0.1f, 0.05f});
    j[0].rest.scale = {1.3f, 1.3f, 1.3f};
    return j;
}

Skeleton legs() { return Skeleton::create(skeletonJoints()).value(); }

// A pose of the skeleton turned at random (up to about 0.6 rad a joint), pelvis moved.
SoaPose randomPose(const Skeleton& skeleton, std::mt19937& rng) {
    std::uniform_real_distribution<float> angle(-0.6f, 0.6f), offset(-0.5f, 0.5f);
    std::vector<Transform> local(skeleton.restPose().begin(), skeleton.restPose().end());
    for (Transform& t : local) {
        const Vec3 raw = Vec3{offset(rng), offset(rng), offset(rng)} + Vec3{0.01f, 0.0f, 0.0f};
        const Vec3 axis = raw * (1.0f / length(raw));
        t.rotation = fromAxisAngle(axis, angle(rng)) * t.rotation;
    }
    local[0].translation = local[0].translation + Vec3{offset(rng), offset(rng), offset(rng)};
    return SoaPose(local, {});
}

// One request per pose, blending it in whole as the external pose, with its tasks.
std::vector<InstanceRequest> requestsOver(std::span<const SoaPose> poses, std::span<const std::vector<IkTask>> tasks) {
    std::vector<InstanceRequest> requests(poses.size());
    for (std::size_t i = 0; i < poses.size(); ++i) {
        requests[i].external = &poses[i];
        requests[i].externalWeight = 1.0f;
        requests[i].ik = tasks[i];
    }
    return requests;
}

// Local rotations agree as rotations (q and -q are the same).
void expectSameTransforms(const SoaPose& got, const SoaPose& want, std::size_t instance, float tolerance) {
    for (std::size_t j = 0; j < want.jointCount(); ++j) {
        const Transform g = got.joint(j), w = want.joint(j);
        const Quat q = dot(g.rotation, w.rotation) < 0.0f ? -g.rotation : g.rotation;
        const float apart = std::max({std::abs(q.x - w.rotation.x), std::abs(q.y - w.rotation.y),
                                      std::abs(q.z - w.rotation.z), std::abs(q.w - w.rotation.w)});
        EXPECT_LT(apart, tolerance) << "instance " << instance << " joint " << j;
        EXPECT_LT(length(g.translation - w.translation), 1e-6f) << "instance " << instance << " joint " << j;
        EXPECT_EQ(g.scale, w.scale) << "instance " << instance << " joint " << j;
    }
}

struct GroupRun {
    std::vector<InstanceState> states;
    std::vector<WorkPoses> work;
    std::vector<Mat4> model;
};

// Evaluates `requests` as one group and, one by one, the same requests without IK
// followed by applyIk: the reference.
// `rotations` bounds each local rotation component's difference, `matrices` each
// model matrix element's: float rounding (2e-6, 2e-5) unless the input is ill-conditioned.
void expectGroupMatchesReference(const InstanceEvaluator& evaluator, std::span<const InstanceRequest> requests,
                                 float rotations = 2e-6f, float matrices = 2e-5f) {
    const std::size_t n = requests.size(), joints = evaluator.jointCount();
    GroupRun group{std::vector<InstanceState>(n), std::vector<WorkPoses>(n, evaluator.makeWorkPoses()),
                   std::vector<Mat4>(n * joints)};
    for (const InstanceRequest& r : requests) ASSERT_TRUE(evaluator.check(r).ok());
    ASSERT_TRUE(evaluator.evaluateGroup(requests, group.states, group.work, group.model, {}).ok());
    for (std::size_t i = 0; i < n; ++i) {
        InstanceRequest plain = requests[i];
        plain.ik = {};
        InstanceState state;
        WorkPoses work = evaluator.makeWorkPoses();
        std::vector<Mat4> model(joints);
        ASSERT_TRUE(evaluator.evaluate(plain, state, work, model, {}).ok());
        std::vector<IkOutcome> outcomes(requests[i].ik.size());
        ASSERT_TRUE(applyIk(evaluator.kernels(), evaluator.parents(), work.pose, requests[i].ik, model, outcomes).ok());
        expectSameTransforms(group.work[i].pose, work.pose, i, rotations);
        const auto got = group.states[i].ikOutcomes();
        ASSERT_EQ(got.size(), outcomes.size()) << i;
        for (std::size_t t = 0; t < outcomes.size(); ++t) {
            // Distances to rounding of the coordinates (matrices / 2 of them: 1e-5 at the default).
            const float distances = 0.5f * matrices * (1.0f + outcomes[t].distance);
            EXPECT_NEAR(got[t].distance, outcomes[t].distance, distances) << "instance " << i << " task " << t;
            if (std::abs(outcomes[t].distance - 1e-4f) > distances) {
                EXPECT_EQ(got[t].reached, outcomes[t].reached) << "instance " << i << " task " << t;
            }
        }
        for (std::size_t j = 0; j < joints; ++j) {
            for (std::size_t e = 0; e < 16; ++e)
                EXPECT_NEAR(group.model[i * joints + j].m[e], model[j].m[e], matrices)
                    << "instance " << i << " joint " << j;
        }
    }
}

TEST(IkGroup, TwoBoneTasksSolvedSideBySideMatchTheReference) {
    const Skeleton skeleton = legs();
    auto evaluator = InstanceEvaluator::create(skeleton, {});
    ASSERT_TRUE(evaluator.ok()) << evaluator.message();
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> spread(-0.4f, 0.4f);
    // A full group of lanes and a group of three.
    constexpr std::size_t kInstances = kIkGroup + 3;
    std::vector<SoaPose> poses;
    for (std::size_t i = 0; i < kInstances; ++i) poses.push_back(randomPose(skeleton, rng));
    std::vector<std::vector<IkTask>> tasks(kInstances);
    static constexpr std::uint32_t kNeckHead[] = {10, 11};
    for (std::size_t i = 0; i < kInstances; ++i) {
        const float s = static_cast<float>(i);
        TwoBoneIk left{1, 3, 4, {0.2f + spread(rng), 0.2f + spread(rng), 0.2f + spread(rng)}, {0.1f, 0.8f, 3.0f}};
        TwoBoneIk right{6, 7, 8, {-0.2f + spread(rng), 0.1f + spread(rng), spread(rng)}, {-0.1f, 0.8f, 3.0f}};
        if (i % 3 == 1) left.soften = 0.2f;
        if (i % 4 == 2) right.twist = 0.7f - 0.1f * s;
        if (i % 5 == 3) left.weight = 0.4f;
        if (i == 4) right.weight = 0.0f;                // reports only
        if (i == 5) left.target = {5.0f, -3.0f, 1.0f};  // out of reach: straight toward it
        if (i == 6) left.pole = left.target;            // the pole on the root-target line
        if (i == 7) right.target = {0.0f, 0.0f, 0.0f};  // well inside the chain
        if (i % 2 == 0) {
            tasks[i] = {left, right};
        } else {
            tasks[i] = {right, left};  // the other leg first: the first position holds two joint sets
        }
        if (i % 3 == 0) {
            AimIk aim;
            aim.joints = kNeckHead;
            aim.target = {1.0f, 2.0f, 2.0f + s};
            tasks[i].insert(tasks[i].begin() + 1, aim);  // an aim between them, on the reference solver
        }
    }
    std::vector<InstanceRequest> requests = requestsOver(poses, tasks);
    expectGroupMatchesReference(*evaluator, std::span<const InstanceRequest>(requests).first(kIkGroup));
    expectGroupMatchesReference(*evaluator, std::span<const InstanceRequest>(requests).subspan(kIkGroup));
    expectGroupMatchesReference(*evaluator, requests);  // a span longer than one group
}

// Every request of the group holding the same tasks, one of which reads joints that
// an earlier one turns: it sees them turned, as on the reference.
TEST(IkGroup, LeadingTasksSharedByTheGroupMatchTheReference) {
    const Skeleton skeleton = legs();
    auto evaluator = InstanceEvaluator::create(skeleton, {});
    ASSERT_TRUE(evaluator.ok()) << evaluator.message();
    std::mt19937 rng(19);
    std::uniform_real_distribution<float> spread(-0.3f, 0.3f);
    constexpr std::size_t kInstances = kIkGroup + 5;
    std::vector<SoaPose> poses;
    for (std::size_t i = 0; i < kInstances; ++i) poses.push_back(randomPose(skeleton, rng));
    static constexpr std::uint32_t kNeckHead[] = {10, 11};
    // Both legs, then a task on the left knee, ankle and toe: its chain hangs below the
    // left hip that the first task turns. Then an aim on the reference solver.
    std::vector<std::vector<IkTask>> tasks(kInstances);
    for (std::size_t i = 0; i < kInstances; ++i) {
        TwoBoneIk left{1, 3, 4, {0.2f + spread(rng), 0.2f + spread(rng), 0.2f + spread(rng)}, {0.1f, 0.8f, 3.0f}};
        TwoBoneIk right{6, 7, 8, {-0.2f + spread(rng), 0.1f + spread(rng), spread(rng)}, {-0.1f, 0.8f, 3.0f}};
        TwoBoneIk foot{3, 4, 5, {0.3f + spread(rng), -0.4f + spread(rng), 0.4f + spread(rng)}, {0.0f, 0.0f, 3.0f}};
        if (i % 3 == 1) right.soften = 0.3f;
        if (i % 4 == 2) left.twist = 0.5f;
        if (i % 5 == 3) right.weight = 0.6f;
        if (i == 2) left.target = {4.0f, 1.0f, -2.0f};  // out of reach
        AimIk aim;
        aim.joints = kNeckHead;
        aim.target = {1.0f, 2.0f, 2.0f + static_cast<float>(i)};
        tasks[i] = {left, right, foot, aim};
    }
    std::vector<InstanceRequest> requests = requestsOver(poses, tasks);
    expectGroupMatchesReference(*evaluator, std::span<const InstanceRequest>(requests).first(kIkGroup));
    expectGroupMatchesReference(*evaluator, std::span<const InstanceRequest>(requests).subspan(kIkGroup));
    expectGroupMatchesReference(*evaluator, std::span<const InstanceRequest>(requests).first(1));
    // The same with the dependent task first among the two-bone tasks that read its joints.
    for (auto& t : tasks) std::swap(t[1], t[2]);
    for (std::size_t i = 0; i < kInstances; ++i) requests[i].ik = tasks[i];
    expectGroupMatchesReference(*evaluator, std::span<const InstanceRequest>(requests).first(kIkGroup));
}

// Every lane at full weight with its pole off the line: the group takes the solve for
// chains in general position, with soften, twist, targets past the chain's reach and
// close to the fold, on both legs (the left knee under a twist joint).
TEST(IkGroup, LanesInGeneralPositionMatchTheReference) {
    const Skeleton skeleton = legs();
    auto evaluator = InstanceEvaluator::create(skeleton, {});
    ASSERT_TRUE(evaluator.ok()) << evaluator.message();
    std::mt19937 rng(23);
    std::uniform_real_distribution<float> spread(-0.5f, 0.5f);
    constexpr std::size_t kInstances = kIkGroup;
    std::vector<SoaPose> poses;
    for (std::size_t i = 0; i < kInstances; ++i) poses.push_back(randomPose(skeleton, rng));
    std::vector<std::vector<IkTask>> tasks(kInstances);
    for (std::size_t i = 0; i < kInstances; ++i) {
        const float s = static_cast<float>(i);
        TwoBoneIk left{1, 3, 4, {0.1f + spread(rng), 0.3f + spread(rng), spread(rng)}, {0.3f, 1.0f, 3.0f}};
        TwoBoneIk right{6, 7, 8, {-0.1f + spread(rng), 0.2f + spread(rng), spread(rng)}, {-0.3f, 1.0f, 3.0f}};
        left.soften = 0.05f * static_cast<float>(i % 4);
        right.soften = 0.1f * static_cast<float>(i % 3);
        left.twist = 0.2f * s - 1.5f;
        // Past the chain's reach, unsoftened: the limb straight. (A softened reach that
        // close to full extension turns rounding in the bone lengths into 1e-5 of a
        // turn, and the two sides measure the bones along different paths.)
        if (i % 5 == 0) {
            right.target = right.target * 6.0f;
            right.soften = 0.0f;
        }
        if (i % 7 == 3) left.target = {0.05f, 0.75f, 0.05f};  // close to the hip: the limb nearly folds
        tasks[i] = {left, right};
    }
    std::vector<InstanceRequest> requests = requestsOver(poses, tasks);
    expectGroupMatchesReference(*evaluator, requests);
}

// A pole a hair off the root-target line (2e-5 of its distance): the bend is made
// perpendicular to the line before it is used, so the end still reaches the target.
TEST(IkGroup, APoleAHairOffTheLineStillReachesTheTarget) {
    const Skeleton skeleton = legs();
    auto evaluator = InstanceEvaluator::create(skeleton, {});
    ASSERT_TRUE(evaluator.ok());
    std::mt19937 rng(29);
    std::vector<SoaPose> poses;
    for (std::size_t i = 0; i < 4; ++i) poses.push_back(randomPose(skeleton, rng));
    std::vector<std::vector<IkTask>> tasks;
    const std::vector<std::vector<IkTask>> none(poses.size());
    const std::vector<InstanceRequest> plain = requestsOver(poses, none);
    // Where each hip lies, from the composed pose without IK.
    std::vector<Mat4> model(plain.size() * skeleton.jointCount());
    std::vector<InstanceState> states(plain.size());
    std::vector<WorkPoses> work(plain.size(), evaluator->makeWorkPoses());
    ASSERT_TRUE(evaluator->evaluateGroup(plain, states, work, model, {}).ok());
    for (std::size_t i = 0; i < plain.size(); ++i) {
        const Mat4& hip = model[i * skeleton.jointCount() + 1];
        const Vec3 a{hip.m[12], hip.m[13], hip.m[14]};
        const Vec3 target = a + Vec3{0.2f, -0.6f, 0.3f};
        const Vec3 side = cross(target - a, Vec3{1.0f, 0.0f, 0.0f});
        const Vec3 pole = a + (target - a) * 2.0f + side * (2e-5f * 2.0f / length(side) * length(target - a));
        tasks.push_back({TwoBoneIk{1, 3, 4, target, pole}});
    }
    std::vector<InstanceRequest> requests = requestsOver(poses, tasks);
    // The bend plane is as uncertain as the offset is small (1e-7 / 2e-5 of a turn):
    // the solvers agree on it to 2e-4 (joints to 5e-4), and both put the end on the target.
    expectGroupMatchesReference(*evaluator, requests, 2e-4f, 5e-4f);
    states.assign(requests.size(), InstanceState{});
    ASSERT_TRUE(evaluator->evaluateGroup(requests, states, work, model, {}).ok());
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const Mat4& ankle = model[i * skeleton.jointCount() + 4];
        const Vec3 end{ankle.m[12], ankle.m[13], ankle.m[14]};
        const Vec3 target = std::get<TwoBoneIk>(tasks[i][0]).target;
        EXPECT_LT(length(end - target), 1e-4f * 1.3f * 0.92f) << i;  // 1e-4 of the scaled chain
        EXPECT_TRUE(states[i].ikOutcomes()[0].reached) << i;
    }
}

// A skeleton placed 1300 units from the origin, a target at its hip and a pole on
// the hip-target line, each off by 2e-4 there (under two float spacings: the
// rounding of placing them), exact at the origin: both solvers read the rounding as
// no direction and bend as they do at the origin.
TEST(IkGroup, FarFromTheOriginRoundingIsNoDirection) {
    const Skeleton skeleton = legs();
    auto evaluator = InstanceEvaluator::create(skeleton, {});
    ASSERT_TRUE(evaluator.ok());
    std::mt19937 rng(31);
    const SoaPose pose = randomPose(skeleton, rng);
    const std::size_t joints = skeleton.jointCount();
    // The solved locals of the left leg, with the pelvis moved by `offset`.
    const auto solved = [&](Vec3 offset, bool targetAtHip) {
        SoaPose moved = pose;
        Transform pelvis = moved.joint(0);
        pelvis.translation = pelvis.translation + offset;
        moved.setJoint(0, pelvis);
        InstanceRequest plain;
        plain.external = &moved;
        plain.externalWeight = 1.0f;
        InstanceState state;
        WorkPoses work = evaluator->makeWorkPoses();
        std::vector<Mat4> model(joints);
        EXPECT_TRUE(evaluator->evaluate(plain, state, work, model, {}).ok());
        const Vec3 hip{model[1].m[12], model[1].m[13], model[1].m[14]};
        const float rounding = length(offset) > 0.0f ? 2e-4f : 0.0f;
        const Vec3 reach{0.1f, -0.5f, 0.2f};
        const Vec3 target = targetAtHip ? hip + Vec3{rounding, 0.0f, 0.0f} : hip + reach;
        // On the line (at the hip when the target is), off it by the rounding, across it.
        const Vec3 across =
            cross(reach, Vec3{0.0f, 0.0f, 1.0f}) * (1.0f / length(cross(reach, Vec3{0.0f, 0.0f, 1.0f})));
        const Vec3 pole = hip + (targetAtHip ? Vec3{} : reach * 3.0f) + across * rounding;
        const IkTask task[] = {TwoBoneIk{1, 3, 4, target, pole}};
        std::vector<InstanceRequest> requests(kIkGroup, plain);
        for (InstanceRequest& r : requests) r.ik = task;
        // 1300 units out, a float holds a coordinate to 1.2e-4.
        expectGroupMatchesReference(*evaluator, requests, 1e-3f, 1e-3f);
        plain.ik = task;
        EXPECT_TRUE(evaluator->evaluate(plain, state, work, model, {}).ok());
        return std::array<Quat, 2>{work.pose.joint(1).rotation, work.pose.joint(3).rotation};
    };
    for (const bool targetAtHip : {true, false}) {
        const auto near = solved({}, targetAtHip);
        const auto far = solved({300.0f, -700.0f, 1100.0f}, targetAtHip);
        for (std::size_t k = 0; k < 2; ++k) {
            const Quat f = dot(far[k], near[k]) < 0.0f ? -far[k] : far[k];
            EXPECT_LT(length(Vec3{f.x - near[k].x, f.y - near[k].y, f.z - near[k].z}) + std::abs(f.w - near[k].w),
                      1e-3f)
                << (targetAtHip ? "target at the hip" : "pole on the line") << ", joint " << k;
        }
    }
}

// A mirrored pelvis (scale -1 on one axis) and a non-uniform one: the lanes place
// the chain exactly, as the reference does, turn it as the reference does, and
// measure the outcome where the composed pose puts the end.
// The group's first task's outcome in each instance is the distance from `target` to
// joint `end` where the group's model matrices put it.
void expectOutcomesAtTheComposedEnd(const InstanceEvaluator& evaluator, std::span<const InstanceRequest> requests,
                                    std::size_t end, Vec3 target) {
    const std::size_t joints = evaluator.jointCount();
    std::vector<InstanceState> states(requests.size());
    std::vector<WorkPoses> work(requests.size(), evaluator.makeWorkPoses());
    std::vector<Mat4> model(requests.size() * joints);
    ASSERT_TRUE(evaluator.evaluateGroup(requests, states, work, model, {}).ok());
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const Mat4& m = model[i * joints + end];
        const float distance = length(Vec3{m.m[12], m.m[13], m.m[14]} - target);
        EXPECT_NEAR(states[i].ikOutcomes()[0].distance, distance, 1e-5f) << "instance " << i;
    }
}

TEST(IkGroup, MirroredOrNonUniformScalesMatchTheReferenceAndReportTheTrueEnd) {
    for (const Vec3 scale : {Vec3{-1.3f, 1.3f, 1.3f}, Vec3{1.0f, 2.0f, 0.5f}}) {
        SCOPED_TRACE(testing::Message() << "scale " << scale.x << " " << scale.y << " " << scale.z);
        std::vector<JointDesc> j(skeletonJoints());
        j[0].rest.scale = scale;
        const Skeleton skeleton = Skeleton::create(std::move(j)).value();
        auto evaluator = InstanceEvaluator::create(skeleton, {});
        ASSERT_TRUE(evaluator.ok());
        std::mt19937 rng(37);
        std::vector<SoaPose> poses;
        std::vector<std::vector<IkTask>> tasks;
        for (std::size_t i = 0; i < 5; ++i) {
            poses.push_back(randomPose(skeleton, rng));
            tasks.push_back({TwoBoneIk{1, 3, 4, {0.1f, 0.3f, 0.2f}, {0.5f, 1.0f, 3.0f}}});
        }
        std::vector<InstanceRequest> requests = requestsOver(poses, tasks);
        expectGroupMatchesReference(*evaluator, requests);
        expectOutcomesAtTheComposedEnd(*evaluator, requests, 4, {0.1f, 0.3f, 0.2f});
    }
}

// A rotation that is not of unit length composes as a rotation times a scale (every
// path builds its matrix the same way): an external pose may hold one. The outcome is
// that of the chain as composed, where the model matrices put its end.
TEST(IkGroup, RotationsNotOfUnitLengthReportTheTrueEnd) {
    const Skeleton skeleton = legs();
    auto evaluator = InstanceEvaluator::create(skeleton, {});
    ASSERT_TRUE(evaluator.ok());
    std::mt19937 rng(41);
    std::vector<SoaPose> poses;
    std::vector<std::vector<IkTask>> tasks;
    const Vec3 target{0.1f, 0.3f, 0.2f};
    for (std::size_t i = 0; i < 6; ++i) {
        SoaPose pose = randomPose(skeleton, rng);
        // Above the chain, at its root, at its middle, at both ends of the range.
        const std::size_t joint = i % 3 == 0 ? 0 : i % 3 == 1 ? 1 : 3;
        Transform t = pose.joint(joint);
        const float k = i < 3 ? 1.25f : 0.8f;
        t.rotation = Quat{t.rotation.x * k, t.rotation.y * k, t.rotation.z * k, t.rotation.w * k};
        pose.setJoint(joint, t);
        poses.push_back(std::move(pose));
        tasks.push_back({TwoBoneIk{1, 3, 4, target, {0.5f, 1.0f, 3.0f}}});
    }
    std::vector<InstanceRequest> requests = requestsOver(poses, tasks);
    expectGroupMatchesReference(*evaluator, requests);
    expectOutcomesAtTheComposedEnd(*evaluator, requests, 4, target);
}

// Scales of 1e30 on two nested joints are finite, their product is not: the end lies
// nowhere finite, and both paths report it infinitely far and not reached, never NaN.
TEST(IkGroup, AnOverflowingCompositionIsReportedInfinitelyFar) {
    const Skeleton skeleton = legs();
    auto evaluator = InstanceEvaluator::create(skeleton, {});
    ASSERT_TRUE(evaluator.ok());
    std::mt19937 rng(43);
    SoaPose pose = randomPose(skeleton, rng);
    for (const std::size_t joint : {std::size_t{0}, std::size_t{1}}) {
        Transform t = pose.joint(joint);
        t.scale = {1e30f, 1e30f, 1e30f};
        pose.setJoint(joint, t);
    }
    const std::vector<IkTask> tasks{TwoBoneIk{1, 3, 4, {0.1f, 0.3f, 0.2f}, {0.5f, 1.0f, 3.0f}},
                                    TwoBoneIk{6, 7, 8, {0.1f, 0.3f, 0.2f}, {0.5f, 1.0f, 3.0f}}};
    InstanceRequest request;
    request.external = &pose;
    request.externalWeight = 1.0f;
    request.ik = tasks;
    ASSERT_TRUE(evaluator->check(request).ok());
    InstanceState state;
    WorkPoses work = evaluator->makeWorkPoses();
    std::vector<Mat4> model(skeleton.jointCount());
    ASSERT_TRUE(evaluator->evaluate(request, state, work, model, {}).ok());
    SoaPose reference = pose;
    std::vector<IkOutcome> outcomes(tasks.size());
    ASSERT_TRUE(applyIk(evaluator->kernels(), evaluator->parents(), reference, tasks, model, outcomes).ok());
    // The left leg hangs under both scaled joints, the right one under the pelvis alone.
    EXPECT_EQ(state.ikOutcomes()[0].distance, std::numeric_limits<float>::infinity());
    EXPECT_FALSE(state.ikOutcomes()[0].reached);
    EXPECT_EQ(outcomes[0].distance, std::numeric_limits<float>::infinity());
    EXPECT_FALSE(outcomes[0].reached);
    EXPECT_FALSE(std::isnan(state.ikOutcomes()[1].distance));
    EXPECT_FALSE(std::isnan(outcomes[1].distance));
}

TEST(IkGroup, ALaneWithAZeroLengthBoneIsLeftAsTheReferenceLeavesIt) {
    std::vector<JointDesc> j(4);
    j[0] = {"root", -1, {}};
    j[1] = {"upper", 0, {}};
    j[1].rest.translation = {0.0f, -0.5f, 0.0f};
    j[2] = {"lower", 1, {}};  // at the upper joint's origin: a bone of length 0
    j[3] = {"end", 2, {}};
    j[3].rest.translation = {0.0f, -0.5f, 0.0f};
    const Skeleton skeleton = Skeleton::create(std::move(j)).value();
    auto evaluator = InstanceEvaluator::create(skeleton, {});
    ASSERT_TRUE(evaluator.ok());
    const IkTask degenerate[] = {TwoBoneIk{0, 1, 2, {0.3f, -0.2f, 0.1f}, {0.0f, 0.0f, 1.0f}}};
    const IkTask fine[] = {TwoBoneIk{0, 2, 3, {0.3f, -0.2f, 0.1f}, {0.0f, 0.0f, 1.0f}},
                           TwoBoneIk{1, 2, 3, {0.0f, -0.7f, 0.2f}, {0.0f, 0.0f, 1.0f}}};
    std::vector<InstanceRequest> requests(3);
    requests[0].ik = degenerate;
    requests[1].ik = fine;
    requests[2].ik = degenerate;
    expectGroupMatchesReference(*evaluator, requests);
}

// Equal bones folding onto targets at and a hair from the root, side by side: the
// lanes fold as the reference does (the middle out along the bend, the end on the target).
TEST(IkGroup, EqualBonesFoldingNearTheRootMatchTheReference) {
    std::vector<JointDesc> j(3);
    j[0] = {"hip", -1, {}};
    j[1] = {"knee", 0, {}};
    j[1].rest.translation = {0.5f, 0.0f, 0.0f};
    j[2] = {"ankle", 1, {}};
    j[2].rest.translation = {0.5f, 0.0f, 0.0f};
    const Skeleton skeleton = Skeleton::create(std::move(j)).value();
    auto evaluator = InstanceEvaluator::create(skeleton, {});
    ASSERT_TRUE(evaluator.ok());
    const std::vector<float> reaches{0.0f, 1e-6f, 2e-4f, 1e-3f, 2e-3f, 0.05f};
    std::vector<std::vector<IkTask>> tasks;
    for (const float d : reaches) tasks.push_back({TwoBoneIk{0, 1, 2, {d, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}}});
    std::vector<InstanceRequest> requests(tasks.size());
    for (std::size_t i = 0; i < tasks.size(); ++i) requests[i].ik = tasks[i];
    expectGroupMatchesReference(*evaluator, requests);

    // Bones a float step apart, or 0.5 and 0.3, with the target at the root: folded
    // toward the pole by both solvers (and a pole at the root too: along the end).
    for (const float lower : {std::nextafter(0.5f, 1.0f), std::nextafter(0.5f, 0.0f), 0.3f, 0.7f}) {
        std::vector<JointDesc> k(3);
        k[0] = {"hip", -1, {}};
        k[1] = {"knee", 0, {}};
        k[1].rest.translation = {0.5f, 0.0f, 0.0f};
        k[2] = {"ankle", 1, {}};
        k[2].rest.translation = {0.0f, lower, 0.0f};
        const Skeleton unequal = Skeleton::create(std::move(k)).value();
        auto folding = InstanceEvaluator::create(unequal, {});
        ASSERT_TRUE(folding.ok());
        const std::vector<std::vector<IkTask>> atRoot{{TwoBoneIk{0, 1, 2, {}, {0.0f, 0.0f, 2.0f}}},
                                                      {TwoBoneIk{0, 1, 2, {}, {1.0f, 1.0f, 1.0f}}},
                                                      {TwoBoneIk{0, 1, 2, {}, {}}}};
        std::vector<InstanceRequest> folds(atRoot.size());
        for (std::size_t i = 0; i < atRoot.size(); ++i) folds[i].ik = atRoot[i];
        expectGroupMatchesReference(*folding, folds);
    }
}

// Aims side by side: one joint, a chain, a chain across an unnamed joint, four
// joints (the most the lanes take) and six (the reference solver's), with every
// lane's own forward axis, decay, angle limit, weight and up vector.
TEST(IkGroup, AimTasksSolvedSideBySideMatchTheReference) {
    const Skeleton skeleton = legs();
    auto evaluator = InstanceEvaluator::create(skeleton, {});
    ASSERT_TRUE(evaluator.ok()) << evaluator.message();
    std::mt19937 rng(41);
    std::uniform_real_distribution<float> spread(-1.0f, 1.0f);
    static constexpr std::uint32_t kHead[] = {11};
    static constexpr std::uint32_t kNeckHead[] = {10, 11};
    static constexpr std::uint32_t kSpineHead[] = {9, 11};  // the neck between them turns with the spine
    static constexpr std::uint32_t kPelvisToHead[] = {0, 9, 10, 11};
    static constexpr std::uint32_t kPelvisToToe[] = {0, 1, 2, 3, 4, 5};
    const std::span<const std::uint32_t> chains[] = {kHead, kNeckHead, kSpineHead, kPelvisToHead, kPelvisToToe};
    constexpr std::size_t kInstances = kIkGroup + 3;
    std::vector<SoaPose> poses;
    for (std::size_t i = 0; i < kInstances; ++i) poses.push_back(randomPose(skeleton, rng));
    std::vector<std::vector<IkTask>> tasks(kInstances);
    for (std::size_t i = 0; i < kInstances; ++i) {
        for (std::size_t c = 0; c < std::size(chains); ++c) {
            AimIk aim;
            aim.joints = chains[(c + i) % std::size(chains)];
            aim.target = Vec3{1.0f + spread(rng), 2.0f + spread(rng), 2.0f + spread(rng)};
            if (i % 3 == 1) aim.forward = {1.0f, 0.0f, 0.0f};
            if (i % 3 == 2) aim.forward = {0.0f, 2.0f, 2.0f};  // not unit length
            const float decays[] = {0.5f, 1.0f, 0.0f, 3.0f, 0.2f};
            aim.decay = decays[i % 5];
            const float limits[] = {0.0f, 0.3f, 1e-3f, 4.0f};
            aim.maxAngle = limits[(i + c) % 4];
            if (i % 6 == 5) aim.weight = 0.5f;
            if (i == 7 && c == 0) aim.weight = 0.0f;  // reports only
            if (i % 4 == 0) aim.upVector = Vec3{1.0f, 0.2f * spread(rng), 0.0f};
            if (i == 8) aim.upVector = aim.target;              // far from the forward axis at the start only
            if (i == 9) aim.target = Vec3{0.0f, 0.0f, -50.0f};  // far behind
            tasks[i].push_back(aim);
        }
    }
    std::vector<InstanceRequest> requests = requestsOver(poses, tasks);
    expectGroupMatchesReference(*evaluator, std::span<const InstanceRequest>(requests).first(kIkGroup));
    expectGroupMatchesReference(*evaluator, std::span<const InstanceRequest>(requests).subspan(kIkGroup));
    expectGroupMatchesReference(*evaluator, std::span<const InstanceRequest>(requests).first(1));
}

// Look-at targets placed from each pose's own head matrix: straight behind the
// forward axis (the turn's axis is then the cross product of nearly opposite
// vectors, rounding in all its length), at the head's origin (no direction: no
// turn) and ahead with the up vector along the aim (no direction about it: no roll).
// The side-by-side and reference solvers agree, the head ends on the target where
// there is one, and it stays as the pose had it where there is none.
TEST(IkGroup, AimsAtTargetsBehindOrAtTheOriginMatchTheReference) {
    const Skeleton skeleton = legs();
    auto evaluator = InstanceEvaluator::create(skeleton, {});
    ASSERT_TRUE(evaluator.ok()) << evaluator.message();
    const std::size_t joints = skeleton.jointCount();
    constexpr std::uint32_t kHeadJoint = 11;
    static constexpr std::uint32_t kHead[] = {kHeadJoint};
    static constexpr std::uint32_t kNeckHead[] = {10, kHeadJoint};
    std::mt19937 rng(53);
    constexpr std::size_t kPoses = 6;
    std::vector<SoaPose> poses;
    std::vector<Mat4> heads;
    for (std::size_t i = 0; i < kPoses; ++i) {
        poses.push_back(randomPose(skeleton, rng));
        InstanceRequest plain;
        plain.external = &poses.back();
        plain.externalWeight = 1.0f;
        InstanceState state;
        WorkPoses work = evaluator->makeWorkPoses();
        std::vector<Mat4> model(joints);
        ASSERT_TRUE(evaluator->evaluate(plain, state, work, model, {}).ok());
        heads.push_back(model[kHeadJoint]);
    }
    enum class Place { Behind, AtTheOrigin, AheadUpAlong };
    for (const Place place : {Place::Behind, Place::AtTheOrigin, Place::AheadUpAlong}) {
        for (const std::span<const std::uint32_t> chain :
             {std::span<const std::uint32_t>(kHead), std::span<const std::uint32_t>(kNeckHead)}) {
            std::vector<std::vector<IkTask>> tasks(kPoses);
            for (std::size_t i = 0; i < kPoses; ++i) {
                const Vec3 origin{heads[i].m[12], heads[i].m[13], heads[i].m[14]};
                const Vec3 forward = transformDirection(heads[i], {0.0f, 0.0f, 1.0f});
                AimIk aim;
                aim.joints = chain;
                if (place == Place::Behind) aim.target = origin - forward * (2.0f / length(forward));
                if (place == Place::AtTheOrigin) aim.target = origin;
                if (place == Place::AheadUpAlong) {
                    aim.target = origin + Vec3{2.0f, 0.5f, 1.0f};
                    aim.upVector = Vec3{2.0f, 0.5f, 1.0f};
                }
                tasks[i] = {aim};
            }
            // A chain moves the head's origin, so the up vector is then only close to
            // the aim, where the roll's angle is as uncertain as rounding over its
            // small distance from the axis: the up vector case takes the head alone.
            if (place == Place::AheadUpAlong && chain.size() > 1) continue;
            SCOPED_TRACE(testing::Message()
                         << "place " << static_cast<int>(place) << ", " << chain.size() << " joints");
            std::vector<InstanceRequest> requests = requestsOver(poses, tasks);
            expectGroupMatchesReference(*evaluator, requests);
            std::vector<InstanceState> states(kPoses);
            std::vector<WorkPoses> work(kPoses, evaluator->makeWorkPoses());
            std::vector<Mat4> model(kPoses * joints);
            ASSERT_TRUE(evaluator->evaluateGroup(requests, states, work, model, {}).ok());
            for (std::size_t i = 0; i < kPoses; ++i) {
                const IkOutcome outcome = states[i].ikOutcomes()[0];
                if (place == Place::AtTheOrigin) {
                    // Turned by nothing: the pose's rotations to rounding.
                    for (const std::uint32_t j : chain) {
                        const Quat got = work[i].pose.joint(j).rotation, had = poses[i].joint(j).rotation;
                        EXPECT_LT(std::abs(dot(got, had)) - 1.0f, 1e-6f) << i << ", joint " << j;
                        EXPECT_GT(std::abs(dot(got, had)), 1.0f - 1e-6f) << i << ", joint " << j;
                    }
                    continue;
                }
                EXPECT_TRUE(outcome.reached) << "place " << static_cast<int>(place) << ", " << chain.size()
                                             << " joints, pose " << i << ": missed by " << outcome.distance;
            }
        }
    }
}

TEST(IkGroup, OneInstanceAloneGivesWhatItGivesInAGroup) {
    const Skeleton skeleton = legs();
    auto evaluator = InstanceEvaluator::create(skeleton, {});
    ASSERT_TRUE(evaluator.ok());
    std::mt19937 rng(11);
    std::vector<SoaPose> poses;
    std::vector<InstanceRequest> requests(5);
    static constexpr std::uint32_t kSpineToHead[] = {9, 10, 11};
    AimIk aim;
    aim.joints = kSpineToHead;
    aim.target = {2.0f, 1.5f, 1.0f};
    const IkTask tasks[] = {TwoBoneIk{1, 3, 4, {0.3f, 0.3f, 0.3f}, {0.0f, 1.0f, 3.0f}},
                            TwoBoneIk{6, 7, 8, {-0.3f, 0.2f, 0.2f}, {0.0f, 1.0f, 3.0f}}, aim};
    // The first request's left-leg pole lies on its root-target line: that lane takes
    // the general solve, the others the plain one, alone as in the group. Its aim
    // settles in another number of passes than the others'.
    AimIk nearer = aim;
    nearer.target = {0.3f, 2.0f, 0.5f};
    const IkTask onTheLine[] = {TwoBoneIk{1, 3, 4, {0.3f, 0.3f, 0.3f}, {0.3f, 0.3f, 0.3f}},
                                TwoBoneIk{6, 7, 8, {-0.3f, 0.2f, 0.2f}, {0.0f, 1.0f, 3.0f}}, nearer};
    for (std::size_t i = 0; i < requests.size(); ++i) poses.push_back(randomPose(skeleton, rng));
    for (std::size_t i = 0; i < requests.size(); ++i) {
        requests[i].external = &poses[i];
        requests[i].externalWeight = 1.0f;
        requests[i].ik = i == 0 ? std::span<const IkTask>(onTheLine) : std::span<const IkTask>(tasks);
    }
    const std::size_t joints = skeleton.jointCount();
    std::vector<InstanceState> states(requests.size());
    std::vector<WorkPoses> work(requests.size(), evaluator->makeWorkPoses());
    std::vector<Mat4> model(requests.size() * joints);
    ASSERT_TRUE(evaluator->evaluateGroup(requests, states, work, model, {}).ok());
    for (std::size_t i = 0; i < requests.size(); ++i) {
        InstanceState state;
        WorkPoses alone = evaluator->makeWorkPoses();
        std::vector<Mat4> aloneModel(joints);
        ASSERT_TRUE(evaluator->evaluate(requests[i], state, alone, aloneModel, {}).ok());
        // The lanes are independent: the same instructions on the same values.
        for (std::size_t j = 0; j < joints; ++j) {
            EXPECT_EQ(alone.pose.joint(j), work[i].pose.joint(j)) << i << ", " << j;
            EXPECT_EQ(aloneModel[j], model[i * joints + j]) << i << ", " << j;
        }
        ASSERT_EQ(state.ikOutcomes().size(), 3u);
        for (std::size_t t = 0; t < 3; ++t)
            EXPECT_EQ(state.ikOutcomes()[t], states[i].ikOutcomes()[t]) << i << ", " << t;
    }
}

// A lane at full weight under a scale that differs between axes has its outcome
// measured by the plain solve; beside a lane at partial weight (which makes the group
// measure its chains again) it keeps that outcome: the same bits as alone.
TEST(IkGroup, AnOutcomeUnderASkewedScaleDoesNotDependOnTheOtherLanes) {
    std::vector<JointDesc> d(4);
    for (std::size_t k = 0; k < d.size(); ++k) {
        d[k].name = "j" + std::to_string(k);
        d[k].parent = static_cast<std::int32_t>(k) - 1;
        d[k].rest.translation = k == 0 ? Vec3{0, 1, 0} : Vec3{0.05f, -0.4f, 0.02f};
    }
    const Skeleton skeleton = Skeleton::create(d).value();
    auto evaluator = InstanceEvaluator::create(skeleton, {});
    ASSERT_TRUE(evaluator.ok());
    BoneAdjustment stretch;
    stretch.joint = 1;
    stretch.scale = {1.3f, 0.8f, 1.0f};
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> offset(-0.6f, 0.6f);
    int differing = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        TwoBoneIk full{1, 2, 3, {offset(rng), 0.4f + offset(rng), offset(rng)}, {0, 0, 2}};
        TwoBoneIk half = full;
        half.weight = 0.5f;
        const IkTask fullTask[] = {full}, halfTask[] = {half};
        InstanceRequest a;
        a.adjustments = {&stretch, 1};
        a.ik = fullTask;
        InstanceRequest b = a;
        b.ik = halfTask;
        InstanceState alone;
        WorkPoses aloneWork = evaluator->makeWorkPoses();
        std::vector<Mat4> aloneModel(4);
        ASSERT_TRUE(evaluator->evaluate(a, alone, aloneWork, aloneModel, {}).ok());
        const InstanceRequest both[] = {a, b};
        std::vector<InstanceState> states(2);
        std::vector<WorkPoses> work(2, evaluator->makeWorkPoses());
        std::vector<Mat4> model(8);
        ASSERT_TRUE(evaluator->evaluateGroup(both, states, work, model, {}).ok());
        differing += alone.ikOutcomes()[0] == states[0].ikOutcomes()[0] ? 0 : 1;
    }
    EXPECT_EQ(differing, 0);
}

// A long skeleton: joint k hangs under k - 1, except 17, 34, 51, 68 and 85, each
// under the one 17 before it (17 under 0): chains whose joints lie in blocks of 16
// apart, the side-by-side solvers read them block by block.
Skeleton longSkeleton() {
    std::vector<JointDesc> j(90);
    for (std::size_t i = 0; i < j.size(); ++i) {
        char name[8];
        std::snprintf(name, sizeof name, "j%zu", i);
        j[i].name = name;
        j[i].parent = i == 0 ? -1 : static_cast<std::int32_t>(i % 17 == 0 ? i - 17 : i - 1);
        j[i].rest.translation = {0.02f * static_cast<float>(i % 3), 0.2f, 0.01f};
    }
    j[0].rest.scale = {1.2f, 0.9f, 1.1f};  // every frame below carries a scale that differs between axes
    j[34].rest.scale = {0.8f, 0.8f, 0.8f};
    return Skeleton::create(std::move(j)).value();
}

// Two-bone and aim tasks over joints of 2 to 5 blocks (5: past what the lanes hold
// at once, solved on the reference), with chain IK between them in some requests
// (the reference solver runs between two side-by-side solves) and requests that leave
// a position out or hold other joints there.
TEST(IkGroup, ChainsAcrossBlocksOfJointsMatchTheReference) {
    const Skeleton skeleton = longSkeleton();
    auto evaluator = InstanceEvaluator::create(skeleton, {});
    ASSERT_TRUE(evaluator.ok()) << evaluator.message();
    std::mt19937 rng(23);
    std::uniform_real_distribution<float> spread(-0.3f, 0.3f);
    constexpr std::size_t kInstances = kIkGroup + 5;
    std::vector<SoaPose> poses;
    for (std::size_t i = 0; i < kInstances; ++i) poses.push_back(randomPose(skeleton, rng));
    static constexpr std::uint32_t kAimed[] = {51, 85};
    static constexpr std::uint32_t kChain[] = {17, 18, 19, 20};
    std::vector<std::vector<IkTask>> tasks(kInstances);
    for (std::size_t i = 0; i < kInstances; ++i) {
        const Vec3 near{spread(rng), 1.0f + spread(rng), spread(rng)};
        const TwoBoneIk threeBlocks{17, 34, 51, near, {0.0f, 1.0f, 2.0f}};
        const TwoBoneIk fourBlocks{34, 51, 85, near + Vec3{0.0f, 1.5f, 0.0f}, {0.5f, 2.0f, 2.0f}};
        const TwoBoneIk fiveBlocks{17, 51, 85, near + Vec3{0.0f, 1.0f, 0.0f}, {0.0f, 1.0f, 2.0f}};
        const TwoBoneIk twoBlocks{14, 15, 16, near + Vec3{0.0f, 1.5f, 0.0f}, {1.0f, 1.0f, 0.0f}};
        AimIk aim;
        aim.joints = kAimed;
        aim.target = Vec3{2.0f, 3.0f, 1.0f} + near;
        ChainIk chain;
        chain.joints = kChain;
        chain.target = near + Vec3{0.0f, 0.4f, 0.0f};
        tasks[i] = {i % 4 == 3 ? IkTask{twoBlocks} : IkTask{threeBlocks}, fourBlocks, aim, fiveBlocks};
        if (i % 3 == 1) tasks[i].insert(tasks[i].begin() + 1, chain);
        if (i % 5 == 2) tasks[i].resize(1);
    }
    std::vector<InstanceRequest> requests = requestsOver(poses, tasks);
    expectGroupMatchesReference(*evaluator, std::span<const InstanceRequest>(requests).first(kIkGroup), 5e-6f, 5e-5f);
    expectGroupMatchesReference(*evaluator, std::span<const InstanceRequest>(requests).subspan(kIkGroup), 5e-6f, 5e-5f);
}

// A leg whose bones are 3e-11 to 3e9 units long, each lane with its own target: the
// rotations written are unit quaternions and agree with the reference's.
TEST(IkGroup, BonesFarFromUnitLengthGiveUnitRotationsAsTheReference) {
    for (const float unitLength : {3e-11f, 1e-10f, 3e9f}) {
        std::vector<JointDesc> j(3);
        j[0].name = "hip";
        j[1].name = "knee";
        j[1].parent = 0;
        j[1].rest.translation = Vec3{0.0f, -0.45f, 0.02f} * unitLength;
        j[2].name = "ankle";
        j[2].parent = 1;
        j[2].rest.translation = Vec3{0.0f, -0.45f, -0.02f} * unitLength;
        const Skeleton skeleton = Skeleton::create(std::move(j)).value();
        auto evaluator = InstanceEvaluator::create(skeleton, {});
        ASSERT_TRUE(evaluator.ok());
        const SoaPose pose(std::vector<Transform>(skeleton.restPose().begin(), skeleton.restPose().end()), {});
        std::vector<IkTask> tasks;
        for (std::size_t i = 0; i < kIkGroup; ++i) {
            const float s = 0.02f * static_cast<float>(i);
            tasks.push_back(
                TwoBoneIk{0, 1, 2, Vec3{0.2f + s, -0.6f, 0.3f - s} * unitLength, Vec3{0.0f, 0.0f, 3.0f} * unitLength});
        }
        std::vector<InstanceRequest> requests(kIkGroup);
        for (std::size_t i = 0; i < kIkGroup; ++i) {
            requests[i].external = &pose;
            requests[i].externalWeight = 1.0f;
            requests[i].ik = {&tasks[i], 1};
        }
        std::vector<InstanceState> states(kIkGroup);
        std::vector<WorkPoses> work(kIkGroup, evaluator->makeWorkPoses());
        std::vector<Mat4> model(kIkGroup * 3);
        ASSERT_TRUE(evaluator->evaluateGroup(requests, states, work, model, {}).ok());
        for (std::size_t i = 0; i < kIkGroup; ++i) {
            SoaPose reference = pose;
            std::vector<Mat4> referenceModel(3);
            IkOutcome outcome;
            ASSERT_TRUE(applyIk(evaluator->kernels(), evaluator->parents(), reference, {&tasks[i], 1}, referenceModel,
                                {&outcome, 1})
                            .ok());
            for (std::size_t k = 0; k < 2; ++k) {
                const Quat got = work[i].pose.joint(k).rotation, want = reference.joint(k).rotation;
                EXPECT_NEAR(dot(got, got), 1.0f, 1e-5f) << unitLength << " lane " << i << " joint " << k;
                const Quat q = dot(got, want) < 0.0f ? -got : got;
                EXPECT_LT(std::max({std::abs(q.x - want.x), std::abs(q.y - want.y), std::abs(q.z - want.z),
                                    std::abs(q.w - want.w)}),
                          1e-4f)
                    << unitLength << " lane " << i << " joint " << k;
            }
            EXPECT_EQ(states[i].ikOutcomes()[0].reached, outcome.reached) << unitLength << " lane " << i;
        }
    }
}

}  // namespace
}  // namespace kinema
