// IK on the evaluation seam: tasks in an InstanceRequest are solved after blending
// and adjustments, before composition, the same whether one instance is evaluated
// alone or many in a batch (with or without local poses), and their outcomes come
// back per instance. The reference is applyIk on the pose the request's clip-free
// evaluation gives (the rest pose), composed by the scalar path.
#include <gtest/gtest.h>

#include <cmath>
#include <span>
#include <utility>
#include <vector>

#include "kinema/asset/skeleton.hpp"
#include "kinema/batch/pose_batch.hpp"
#include "kinema/math/transform.hpp"
#include "kinema/runtime/ik.hpp"
#include "kinema/runtime/instance.hpp"

namespace kinema {
namespace {

// A leg: hip (root) at height 1, knee 0.5 below, ankle 0.5 below that, slightly bent.
Skeleton leg() {
    std::vector<JointDesc> joints(4);
    joints[0].name = "pelvis";
    joints[0].rest.translation = {0, 1, 0};
    joints[1] = {"hip", 0, {}};
    joints[1].rest.translation = {0.1f, 0, 0};
    joints[2] = {"knee", 1, {}};
    joints[2].rest.translation = {0, -0.5f, 0.02f};
    joints[3] = {"ankle", 2, {}};
    joints[3].rest.translation = {0, -0.5f, -0.02f};
    return Skeleton::create(std::move(joints)).value();
}

Vec3 at(const Mat4& m) { return {m.m[12], m.m[13], m.m[14]}; }

// Outputs too short for the skeleton, or work poses of another one, are refused
// before anything is written: the matrices keep the values put there.
TEST(IkSeam, EvaluationRefusesOutputsThatDoNotFitAndWritesNothing) {
    const Skeleton skeleton = leg();
    auto evaluator = InstanceEvaluator::create(skeleton, {});
    ASSERT_TRUE(evaluator.ok()) << evaluator.message();
    InstanceRequest request;
    InstanceState state;
    WorkPoses work = evaluator->makeWorkPoses();
    Mat4 marked;
    marked.m[0] = 42.0f;
    std::vector<Mat4> model(skeleton.jointCount(), marked);
    const Status shortModel = evaluator->evaluate(request, state, work, std::span<Mat4>(model).first(2), {});
    EXPECT_EQ(shortModel.code, StatusCode::WrongCount);
    std::vector<JointDesc> two(2);
    two[1].parent = 0;
    WorkPoses other = InstanceEvaluator::create(Skeleton::create(std::move(two)).value(), {})->makeWorkPoses();
    EXPECT_EQ(evaluator->evaluate(request, state, other, model, {}).code, StatusCode::WrongCount);
    InstanceState states[2];
    EXPECT_EQ(evaluator->evaluateGroup({&request, 1}, states, {&work, 1}, model, {}).code, StatusCode::WrongCount);
    for (const Mat4& m : model) EXPECT_EQ(m.m[0], 42.0f);
    ASSERT_TRUE(evaluator->evaluate(request, state, work, model, {}).ok());
    EXPECT_EQ(model[0].m[0], 1.0f);  // the rest pose: no rotation, unit scale
}

// A moved-from batch holds no instances: it evaluates an empty list, and asking for
// an instance past the end of any batch gives empty outputs.
TEST(IkSeam, AMovedFromBatchAndInstancesPastTheEndAreEmpty) {
    const Skeleton skeleton = leg();
    auto batch = PoseBatch::create(skeleton, {}, 2);
    ASSERT_TRUE(batch.ok()) << batch.message();
    const PoseBatch moved = std::move(*batch);
    EXPECT_EQ(batch->size(), 0u);
    EXPECT_EQ(batch->threadCount(), 0u);
    EXPECT_TRUE(batch->evaluate(std::span<const InstanceRequest>{}).ok());
    EXPECT_TRUE(batch->model(0).empty());
    EXPECT_EQ(moved.model(1).size(), skeleton.jointCount());
    EXPECT_TRUE(moved.model(2).empty());
    EXPECT_TRUE(moved.palette(2).empty());
    EXPECT_TRUE(moved.ikOutcomes(2).empty());
    EXPECT_TRUE(moved.curves(2).empty());
    EXPECT_EQ(moved.local(2).jointCount(), 0u);
}

TEST(IkSeam, AnInstanceSolvesItsTasksAndReportsThem) {
    const Skeleton skeleton = leg();
    auto evaluator = InstanceEvaluator::create(skeleton, {});
    ASSERT_TRUE(evaluator.ok()) << evaluator.message();
    const Vec3 foot{0.15f, 0.25f, 0.2f};
    const IkTask tasks[] = {TwoBoneIk{1, 2, 3, foot, {0.1f, 0.5f, 5.0f}}};
    InstanceRequest request;
    request.ik = tasks;
    ASSERT_TRUE(evaluator->check(request).ok());
    InstanceState state;
    WorkPoses work = evaluator->makeWorkPoses();
    std::vector<Mat4> model(skeleton.jointCount());
    ASSERT_TRUE(evaluator->evaluate(request, state, work, model, {}).ok());
    ASSERT_EQ(state.ikOutcomes().size(), 1u);
    EXPECT_TRUE(state.ikOutcomes()[0].reached);
    EXPECT_LT(length(at(model[3]) - foot), 1e-4f);

    // The same tasks by applyIk (the reference solvers) on the rest pose give the
    // same local pose and outcome, to float rounding: the evaluator composes each
    // chain once and solves it in SIMD lanes (tests/runtime/ik_group_test.cpp).
    SoaPose reference = evaluator->restPose();
    std::vector<Mat4> referenceModel(skeleton.jointCount());
    std::vector<IkOutcome> outcomes(1);
    ASSERT_TRUE(applyIk(evaluator->kernels(), evaluator->parents(), reference, tasks, referenceModel, outcomes).ok());
    for (std::size_t j = 0; j < skeleton.jointCount(); ++j) {
        const Transform got = work.pose.joint(j), want = reference.joint(j);
        EXPECT_NEAR(std::abs(dot(got.rotation, want.rotation)), 1.0f, 1e-6f) << j;
        EXPECT_EQ(got.translation, want.translation) << j;
    }
    EXPECT_EQ(outcomes[0].reached, state.ikOutcomes()[0].reached);
    EXPECT_NEAR(outcomes[0].distance, state.ikOutcomes()[0].distance, 1e-6f);

    // A request without tasks reports none.
    request.ik = {};
    ASSERT_TRUE(evaluator->evaluate(request, state, work, model, {}).ok());
    EXPECT_TRUE(state.ikOutcomes().empty());
}

TEST(IkSeam, CheckRefusesABadTaskByItsIndex) {
    const Skeleton skeleton = leg();
    auto evaluator = InstanceEvaluator::create(skeleton, {});
    ASSERT_TRUE(evaluator.ok());
    const IkTask tasks[] = {TwoBoneIk{1, 2, 3, {0, 0, 0}, {0, 0, 1}}, TwoBoneIk{1, 2, 3, {NAN, 0, 0}, {0, 0, 1}}};
    InstanceRequest request;
    request.ik = tasks;
    const Status s = evaluator->check(request);
    EXPECT_EQ(s.code, StatusCode::NotFinite);
    EXPECT_EQ(s.index, 1);
}

TEST(IkSeam, ABatchSolvesEachInstanceAsAloneWithOrWithoutLocalPoses) {
    const Skeleton skeleton = leg();
    constexpr std::size_t kInstances = 9;
    std::vector<std::vector<IkTask>> tasks(kInstances);
    std::vector<InstanceRequest> requests(kInstances);
    for (std::size_t i = 0; i < kInstances; ++i) {
        const float phase = static_cast<float>(i) * 0.4f;
        tasks[i].push_back(
            TwoBoneIk{1, 2, 3, {0.1f + 0.1f * std::sin(phase), 0.2f, 0.3f * std::cos(phase)}, {0, 0.5f, 5}});
        requests[i].ik = tasks[i];
    }
    auto evaluator = InstanceEvaluator::create(skeleton, {});
    ASSERT_TRUE(evaluator.ok());
    for (bool localPoses : {true, false}) {
        BatchOptions options;
        options.threads = 2;
        options.grainSize = 1;
        options.localPoses = localPoses;
        auto batch = PoseBatch::create(skeleton, {}, kInstances, options);
        ASSERT_TRUE(batch.ok()) << batch.message();
        ASSERT_TRUE(batch->evaluate(requests).ok());
        for (std::size_t i = 0; i < kInstances; ++i) {
            InstanceState state;
            WorkPoses work = evaluator->makeWorkPoses();
            std::vector<Mat4> model(skeleton.jointCount());
            ASSERT_TRUE(evaluator->evaluate(requests[i], state, work, model, {}).ok());
            const auto batchModel = batch->model(i);
            for (std::size_t j = 0; j < model.size(); ++j) EXPECT_EQ(batchModel[j], model[j]) << i << ", " << j;
            ASSERT_EQ(batch->ikOutcomes(i).size(), 1u);
            EXPECT_EQ(batch->ikOutcomes(i)[0], state.ikOutcomes()[0]);
            EXPECT_TRUE(batch->ikOutcomes(i)[0].reached) << i;
        }
    }
}

TEST(IkSeam, WithoutModelMatricesTheLocalPoseIsStillSolved) {
    const Skeleton skeleton = leg();
    EvaluatorOptions options;
    options.modelMatrices = false;
    auto evaluator = InstanceEvaluator::create(skeleton, {}, options);
    ASSERT_TRUE(evaluator.ok());
    const Vec3 foot{0.1f, 0.3f, 0.25f};
    const IkTask tasks[] = {TwoBoneIk{1, 2, 3, foot, {0, 0.5f, 5}}};
    InstanceRequest request;
    request.ik = tasks;
    InstanceState state;
    WorkPoses work = evaluator->makeWorkPoses();
    ASSERT_TRUE(evaluator->evaluate(request, state, work, {}, {}).ok());
    std::vector<Transform> local(skeleton.jointCount());
    work.pose.toTransforms(local);
    std::vector<Mat4> model(skeleton.jointCount());
    Mat4 parent = Mat4::identity();
    for (std::size_t j = 0; j < local.size(); ++j) {
        parent = j == 0 ? toMatrix(local[0]) : parent * toMatrix(local[j]);  // a single chain
        model[j] = parent;
    }
    EXPECT_LT(length(at(model[3]) - foot), 1e-4f);
    EXPECT_TRUE(state.ikOutcomes()[0].reached);
}

}  // namespace
}  // namespace kinema
