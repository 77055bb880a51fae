// IK solvers on hand-built chains: positions against hand-worked geometry (law of
// cosines, straight chains, angle limits), bone lengths kept, the pole's plane,
// independence from where the skeleton stands, degenerate input, weights.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include "kinema/runtime/ik.hpp"

namespace kinema {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

Vec3 at(const Mat4& m) { return {m.m[12], m.m[13], m.m[14]}; }
Vec3 normalize3(Vec3 v) { return v * (1.0f / length(v)); }
float distance(Vec3 a, Vec3 b) { return length(a - b); }

// The angle of `q` about unit `axis` when it turns about that axis alone, and how far
// it is from doing so (the length of its part off the axis).
float angleAbout(Quat q, Vec3 axis, float* offAxis = nullptr) {
    if (q.w < 0.0f) q = -q;
    const Vec3 v{q.x, q.y, q.z};
    if (offAxis != nullptr) *offAxis = length(v - axis * dot(v, axis));
    return 2.0f * std::atan2(dot(v, axis), q.w);
}

// A chain of `links` joints, each `step` from its parent (in the parent's frame),
// under an optional placement joint 0 (then the chain starts at joint 1).
struct Chain {
    std::vector<std::int32_t> parents;
    std::vector<Transform> rest;
    std::uint32_t first = 0;  // the chain's first joint

    SoaPose pose() const { return SoaPose(rest, {}); }
};

Chain makeChain(std::size_t links, Vec3 step, const Transform* placement = nullptr) {
    Chain c;
    if (placement != nullptr) {
        c.parents.push_back(-1);
        c.rest.push_back(*placement);
        c.first = 1;
    }
    for (std::size_t i = 0; i < links; ++i) {
        c.parents.push_back(c.parents.empty() ? -1 : static_cast<std::int32_t>(c.parents.size() - 1));
        Transform t;
        t.translation = i == 0 ? Vec3{0, 0, 0} : step;
        c.rest.push_back(t);
    }
    return c;
}

struct Solved {
    SoaPose pose;
    std::vector<Mat4> model;
    std::vector<IkOutcome> outcomes;
    Status status;
};

Solved solve(const Chain& c, std::vector<IkTask> tasks) {
    Solved s{c.pose(), std::vector<Mat4>(c.parents.size()), std::vector<IkOutcome>(tasks.size()), {}};
    s.status = applyIk(PoseKernels(), c.parents, s.pose, tasks, s.model, s.outcomes);
    return s;
}

// --- two-bone ---

TEST(TwoBoneIk, ReachesAReachableTargetWithTheMiddleWhereTheLawOfCosinesPutsIt) {
    const Chain c = makeChain(3, {1, 0, 0});  // (0,0,0) -> (1,0,0) -> (2,0,0)
    TwoBoneIk task{0, 1, 2, {1, 1, 0}, {0, 0, 5}};
    const Solved s = solve(c, {task});
    ASSERT_TRUE(s.status.ok()) << s.status.message();
    // d = sqrt 2, a = b = 1: the root angle is 45 degrees, the bend toward +Z (the pole):
    // middle = cos45 (1,1,0)/sqrt2 + sin45 (0,0,1) = (0.5, 0.5, 0.70711).
    EXPECT_NEAR(at(s.model[1]).x, 0.5f, 1e-5f);
    EXPECT_NEAR(at(s.model[1]).y, 0.5f, 1e-5f);
    EXPECT_NEAR(at(s.model[1]).z, std::sqrt(0.5f), 1e-5f);
    EXPECT_LT(distance(at(s.model[2]), {1, 1, 0}), 1e-4f * 2.0f);
    EXPECT_NEAR(distance(at(s.model[0]), at(s.model[1])), 1.0f, 1e-5f);
    EXPECT_NEAR(distance(at(s.model[1]), at(s.model[2])), 1.0f, 1e-5f);
    EXPECT_TRUE(s.outcomes[0].reached);
    EXPECT_LT(s.outcomes[0].distance, 2e-4f);
}

TEST(TwoBoneIk, ThePoleChoosesTheBendPlaneAndTwistTurnsIt) {
    const Chain c = makeChain(3, {1, 0, 0});
    const Solved down = solve(c, {TwoBoneIk{0, 1, 2, {1, 1, 0}, {0, 0, -5}}});
    EXPECT_NEAR(at(down.model[1]).z, -std::sqrt(0.5f), 1e-5f);
    // A quarter turn of the plane about the root-target line (u = (1,1,0)/sqrt2): the
    // bend leaves the pole's plane (v = +Z) for the perpendicular one.
    TwoBoneIk twisted{0, 1, 2, {1, 1, 0}, {0, 0, 5}};
    twisted.twist = kPi / 2.0f;
    const Solved t = solve(c, {twisted});
    // v turned +90 degrees about u (right-handed) is u x v.
    const Vec3 side = cross(Vec3{std::sqrt(0.5f), std::sqrt(0.5f), 0}, Vec3{0, 0, 1});
    const Vec3 expected = Vec3{0.5f, 0.5f, 0.0f} + side * std::sqrt(0.5f);
    EXPECT_LT(distance(at(t.model[1]), expected), 1e-5f);
    EXPECT_LT(distance(at(t.model[2]), {1, 1, 0}), 2e-4f);
}

TEST(TwoBoneIk, AnUnreachableTargetGivesAStraightLimbPointingAtIt) {
    const Chain c = makeChain(3, {1, 0, 0});
    const Vec3 target{3, 0, 4};  // 5 away, the limb is 2 long
    const Solved s = solve(c, {TwoBoneIk{0, 1, 2, target, {0, 1, 0}}});
    EXPECT_LT(distance(at(s.model[1]), Vec3{0.6f, 0.0f, 0.8f}), 1e-5f);
    EXPECT_LT(distance(at(s.model[2]), Vec3{1.2f, 0.0f, 1.6f}), 1e-5f);
    EXPECT_FALSE(s.outcomes[0].reached);
    EXPECT_NEAR(s.outcomes[0].distance, 3.0f, 1e-5f);
}

TEST(TwoBoneIk, TheResultDoesNotDependOnWhereTheSkeletonStands) {
    const Chain here = makeChain(3, {1, 0, 0});
    Transform placement;
    placement.translation = {10, -3, 7};
    placement.rotation = fromAxisAngle(normalize3({1, 2, 3}), 1.1f);
    const Chain there = makeChain(3, {1, 0, 0}, &placement);
    const Mat4 place = toMatrix(placement);
    const Vec3 target{1, 1, 0.3f}, pole{0, 0.2f, 5};
    const Solved a = solve(here, {TwoBoneIk{0, 1, 2, target, pole}});
    const Solved b = solve(there, {TwoBoneIk{1, 2, 3, transformPoint(place, target), transformPoint(place, pole)}});
    for (std::uint32_t j = 0; j < 3; ++j) {
        const Quat qa = a.pose.joint(j).rotation, qb = b.pose.joint(j + 1).rotation;
        EXPECT_NEAR(std::abs(dot(qa, qb)), 1.0f, 1e-5f) << "joint " << j;
    }
}

// Under a parent that mirrors an axis (scale -1.3 on X, 1.3 on Y and Z), every
// solver reaches what it reaches without the mirror: a turn is taken into the
// parent's frame through its linear map, reversed where the map mirrors, and an
// aimed axis is where the map draws it.
TEST(Ik, EverySolverReachesUnderAMirroredParent) {
    Transform placement;
    placement.translation = {0.4f, -0.2f, 0.3f};
    placement.rotation = fromAxisAngle(normalize3({1, 2, 3}), 0.7f);
    placement.scale = {-1.3f, 1.3f, 1.3f};
    const Mat4 place = toMatrix(placement);

    const Chain leg = makeChain(3, {1, 0, 0}, &placement);  // model bones of 1.3
    const Vec3 target = transformPoint(place, {1, 1, 0.3f}), pole = transformPoint(place, {0, 0.2f, 5});
    const Solved bent = solve(leg, {TwoBoneIk{1, 2, 3, target, pole}});
    ASSERT_TRUE(bent.status.ok()) << bent.status.message();
    EXPECT_LT(distance(at(bent.model[3]), target), 1e-4f * 2.6f);
    EXPECT_TRUE(bent.outcomes[0].reached);
    EXPECT_NEAR(distance(at(bent.model[1]), at(bent.model[2])), 1.3f, 1e-5f);
    EXPECT_NEAR(distance(at(bent.model[2]), at(bent.model[3])), 1.3f, 1e-5f);
    // The knee on the pole's side of the hip-target line.
    const Vec3 hip = at(bent.model[1]), line = normalize3(target - hip);
    const auto offLine = [&](Vec3 p) { return (p - hip) - line * dot(p - hip, line); };
    EXPECT_GT(dot(offLine(at(bent.model[2])), offLine(pole)), 0.0f);

    const Chain neck = makeChain(2, {0, 1, 0}, &placement);
    const std::uint32_t head[] = {2};
    AimIk aim;
    aim.joints = head;
    aim.target = transformPoint(place, {3, 1, 0.5f});
    const Solved aimed = solve(neck, {aim});
    ASSERT_TRUE(aimed.status.ok()) << aimed.status.message();
    const Vec3 forward = normalize3(transformDirection(aimed.model[2], {0, 0, 1}));
    EXPECT_LT(distance(forward, normalize3(aim.target - at(aimed.model[2]))), 1e-5f);
    EXPECT_TRUE(aimed.outcomes[0].reached);

    const Chain arm = makeChain(4, {0, 1, 0}, &placement);
    const std::uint32_t joints[] = {1, 2, 3, 4};
    for (const ChainSolver solver : {ChainSolver::Fabrik, ChainSolver::Ccd}) {
        ChainIk reach;
        reach.joints = joints;
        reach.target = transformPoint(place, {1.5f, 1.5f, 0.5f});
        reach.solver = solver;
        reach.iterations = 200;
        reach.tolerance = 1e-4f * 3.9f;
        const Solved s = solve(arm, {reach});
        ASSERT_TRUE(s.status.ok()) << s.status.message();
        EXPECT_LT(distance(at(s.model[4]), reach.target), reach.tolerance + 1e-5f);
        EXPECT_TRUE(s.outcomes[0].reached);
        for (std::uint32_t j = 1; j < 4; ++j) EXPECT_NEAR(distance(at(s.model[j]), at(s.model[j + 1])), 1.3f, 1e-5f);
    }
}

TEST(TwoBoneIk, JointsBetweenTheThreeFollowRigidly) {
    // root, a twist joint, middle, end: the twist joint is carried by the root's turn.
    const Chain c = makeChain(4, {0.5f, 0, 0});  // x = 0, 0.5, 1.0, 1.5
    const Solved s = solve(c, {TwoBoneIk{0, 2, 3, {0.8f, 0.6f, 0}, {0, 1, 0}}});
    ASSERT_TRUE(s.status.ok()) << s.status.message();
    EXPECT_LT(distance(at(s.model[3]), {0.8f, 0.6f, 0}), 1.5e-4f);
    EXPECT_NEAR(distance(at(s.model[0]), at(s.model[2])), 1.0f, 1e-5f);
    // The in-between joint stays on the line from the root to the middle, half way.
    const Vec3 half = (at(s.model[0]) + at(s.model[2])) * 0.5f;
    EXPECT_LT(distance(at(s.model[1]), half), 1e-5f);
}

TEST(TwoBoneIk, SoftenEasesIntoFullExtensionWithoutASnap) {
    const Chain c = makeChain(3, {1, 0, 0});
    float lastReach = 0.0f;
    for (float d = 1.6f; d <= 2.4f; d += 0.05f) {
        TwoBoneIk task{0, 1, 2, {0, d, 0}, {1, 0, 0}};
        task.soften = 0.1f;
        const Solved s = solve(c, {task});
        const float reach = length(at(s.model[2]));
        EXPECT_GE(reach, lastReach - 1e-6f) << d;  // monotonic
        EXPECT_LT(reach, 2.0f) << d;               // never quite straight
        // Below the soft zone (1.8) the target is reached exactly.
        if (d < 1.79f) {
            EXPECT_NEAR(reach, d, 1e-4f) << d;
        }
        // Closed form: 1.8 + 0.2 (1 - exp(-(d - 1.8) / 0.2)) past it.
        if (d > 1.81f) {
            EXPECT_NEAR(reach, 1.8f + 0.2f * (1.0f - std::exp(-(d - 1.8f) / 0.2f)), 1e-4f) << d;
        }
        lastReach = reach;
    }
}

TEST(TwoBoneIk, WeightZeroLeavesThePoseBitForBitAndHalfGoesHalfWay) {
    const Chain c = makeChain(3, {1, 0, 0});
    TwoBoneIk task{0, 1, 2, {0, 2, 0}, {1, 1, 0}};
    task.weight = 0.0f;
    const Solved none = solve(c, {task});
    for (std::uint32_t j = 0; j < 3; ++j) EXPECT_EQ(none.pose.joint(j), c.rest[j]);
    task.weight = 1.0f;
    const Solved full = solve(c, {task});
    task.weight = 0.5f;
    const Solved half = solve(c, {task});
    // The root turns 90 degrees at full weight (the limb straight up +Y): 45 at half.
    const auto angleOf = [](Quat q) { return 2.0f * std::acos(std::min(1.0f, std::abs(q.w))); };
    EXPECT_NEAR(angleOf(full.pose.joint(0).rotation), kPi / 2.0f, 1e-4f);
    EXPECT_NEAR(angleOf(half.pose.joint(0).rotation), kPi / 4.0f, 1e-4f);
}

TEST(TwoBoneIk, DegenerateInputGivesNoNaN) {
    const Chain c = makeChain(3, {1, 0, 0});
    // Target at the root: the limb folds as far as it goes (|a - b| = 0).
    const Solved atRoot = solve(c, {TwoBoneIk{0, 1, 2, {0, 0, 0}, {0, 1, 0}}});
    for (const Mat4& m : atRoot.model) EXPECT_TRUE(isFinite(m));
    // A pole on the root-target line: the pose's own bend plane (here none: any).
    const Solved colinear = solve(c, {TwoBoneIk{0, 1, 2, {1.5f, 0, 0}, {3, 0, 0}}});
    for (const Mat4& m : colinear.model) EXPECT_TRUE(isFinite(m));
    EXPECT_LT(distance(at(colinear.model[2]), {1.5f, 0, 0}), 2e-4f);
    // A zero-length bone: nothing to turn, nothing changed.
    const Chain zero = makeChain(3, {0, 0, 0});
    const Solved z = solve(zero, {TwoBoneIk{0, 1, 2, {1, 1, 0}, {0, 1, 0}}});
    ASSERT_TRUE(z.status.ok());
    for (std::uint32_t j = 0; j < 3; ++j) EXPECT_EQ(z.pose.joint(j), zero.rest[j]);
    // A target at infinity is refused before anything changes.
    const Solved inf = solve(c, {TwoBoneIk{0, 1, 2, {INFINITY, 0, 0}, {0, 1, 0}}});
    EXPECT_EQ(inf.status.code, StatusCode::NotFinite);
    EXPECT_EQ(inf.status.index, 0);
}

// Equal bones of length 1 along +x, the pole toward +y. A target at the root folds the
// limb: the middle 1 out along the bend (toward the pole), the end back on the root.
// Targets a hair from the root are met too: the lower bone turns within 0.08 degrees of
// a half turn, where the shortest arc's axis is lost in rounding.
TEST(TwoBoneIk, EqualBonesFoldOntoTargetsAtAndNearTheRoot) {
    const Chain c = makeChain(3, {1, 0, 0});
    const Solved folded = solve(c, {TwoBoneIk{0, 1, 2, {0, 0, 0}, {0, 1, 0}}});
    ASSERT_TRUE(folded.status.ok());
    EXPECT_LT(distance(at(folded.model[1]), {0, 1, 0}), 1e-6f);
    EXPECT_LT(distance(at(folded.model[2]), {0, 0, 0}), 1e-6f);
    EXPECT_TRUE(folded.outcomes[0].reached);
    for (const float d : {1e-6f, 2e-4f, 5e-4f, 1e-3f, 2e-3f, 0.1f}) {
        const Vec3 target{d, 0, 0};
        const Solved s = solve(c, {TwoBoneIk{0, 1, 2, target, {0, 1, 0}}});
        ASSERT_TRUE(s.status.ok());
        // The knee where the law of cosines puts it: cos = d / 2 along x, the rest along y.
        const Vec3 knee{d / 2.0f, std::sqrt(1.0f - d * d / 4.0f), 0};
        EXPECT_LT(distance(at(s.model[1]), knee), 2e-5f) << "d " << d;
        EXPECT_LT(distance(at(s.model[2]), target), 2e-5f) << "d " << d;
        EXPECT_TRUE(s.outcomes[0].reached) << "d " << d << " distance " << s.outcomes[0].distance;
    }
}

// A target at the root has no direction: the limb folds flat toward the pole, the
// middle out along it, whether the bones are equal, a float step apart or unequal (the
// end then as near as it gets: on the pole's side, or the far one when the lower bone
// is longer), and wherever the skeleton stands.
TEST(TwoBoneIk, ATargetAtTheRootFoldsTheLimbTowardThePole) {
    const float one = 1.0f;
    for (const float lower : {one, std::nextafter(one, 2.0f), std::nextafter(one, 0.0f), 0.5f, 1.5f}) {
        for (int placed = 0; placed < 4; ++placed) {
            Transform placement;
            placement.translation = {0.3f * static_cast<float>(placed), -2.0f, 1.5f * static_cast<float>(placed)};
            placement.rotation =
                fromAxisAngle(normalize3({1.0f, 2.0f, static_cast<float>(placed)}), 0.7f * static_cast<float>(placed));
            Chain c = makeChain(3, {1, 0, 0}, &placement);
            c.rest[3].translation = {0, lower, 0};  // the end off the upper bone's line
            const Mat4 frame = toMatrix(placement);
            const auto place = [&](Vec3 p) { return at(mulAffine(frame, toMatrix(Transform{p, {}, {1, 1, 1}}))); };
            const Vec3 root = place({0, 0, 0});
            const Vec3 pole = place({0, 0, 5});
            const Vec3 towardPole = normalize3(pole - root);
            const Solved s = solve(c, {TwoBoneIk{1, 2, 3, root, pole}});
            ASSERT_TRUE(s.status.ok());
            EXPECT_LT(distance(at(s.model[2]), root + towardPole), 1e-5f) << "lower " << lower << ", placed " << placed;
            EXPECT_LT(distance(at(s.model[3]), root + towardPole * (1.0f - lower)), 1e-5f)
                << "lower " << lower << ", placed " << placed;
        }
    }
}

// A target nearer the root than the bones' difference folds the limb flat: upper bone
// toward the target, lower bone back along it, the end as near as it gets. Random
// poses, bones 1 and 0.5 (upper - lower is not always exact in float there): the knee
// on the root-target line to rounding, not a square root of rounding off it.
TEST(TwoBoneIk, TargetsInsideTheBonesDifferenceFoldTheLimbFlatOnTheLine) {
    Chain c;
    c.parents = {-1, 0, 1};
    c.rest.resize(3);
    c.rest[1].translation = {1, 0, 0};
    c.rest[2].translation = {0.5f, 0, 0};
    std::uint32_t state = 12345;
    const auto next = [&] {  // in [-1, 1)
        state = state * 1664525u + 1013904223u;
        return static_cast<float>(state >> 8) / 8388608.0f - 1.0f;
    };
    float worstKnee = 0.0f, worstEnd = 0.0f;
    for (int i = 0; i < 300; ++i) {
        c.rest[0].rotation = fromAxisAngle(normalize3({next(), next(), next() + 2.0f}), 3.0f * next());
        c.rest[1].rotation = fromAxisAngle(normalize3({next() + 2.0f, next(), next()}), 2.0f * next());
        const Vec3 u = normalize3({next(), next() + 2.0f, next()});
        const float d = 0.05f + 0.2f * (next() + 1.0f);  // 0.05 to 0.45
        const Vec3 pole = normalize3(cross(u, {1.0f, next(), next()})) * 2.0f;
        const Solved s = solve(c, {TwoBoneIk{0, 1, 2, u * d, pole}});
        ASSERT_TRUE(s.status.ok());
        worstKnee = std::max(worstKnee, distance(at(s.model[1]), u));
        worstEnd = std::max(worstEnd, distance(at(s.model[2]), u * 0.5f));
        EXPECT_NEAR(s.outcomes[0].distance, 0.5f - d, 1e-5f);
    }
    EXPECT_LT(worstKnee, 1e-5f);
    EXPECT_LT(worstEnd, 1e-5f);
}

// A target too far for float arithmetic (its squared length would overflow) is refused
// like one at infinity, by every solver, rather than silently left alone.
TEST(Ik, TargetsFartherThan1e18AreRefused) {
    const Chain c = makeChain(3, {1, 0, 0});
    const std::uint32_t joints[] = {0, 1, 2};
    AimIk aim;
    aim.joints = joints;
    aim.target = {1e20f, 1e20f, 0};
    ChainIk chain;
    chain.joints = joints;
    chain.target = {0, -2e18f, 0};
    for (const IkTask& task : {IkTask{TwoBoneIk{0, 1, 2, {1e20f, 1e20f, 0}, {0, 1, 0}}},
                               IkTask{TwoBoneIk{0, 1, 2, {1, 1, 0}, {0, 0, 1e19f}}}, IkTask{aim}, IkTask{chain}}) {
        const Solved s = solve(c, {task});
        EXPECT_EQ(s.status.code, StatusCode::OutOfRange) << s.status.what;
        EXPECT_NE(std::string(s.status.what).find("farther than 1e18"), std::string::npos) << s.status.what;
        for (std::uint32_t j = 0; j < 3; ++j) EXPECT_EQ(s.pose.joint(j), c.rest[j]);
    }
    // 1e18 itself is fine: the limb points straight at it.
    const Solved far = solve(c, {TwoBoneIk{0, 1, 2, {1e18f, 1e18f, 0}, {0, 0, 1}}});
    ASSERT_TRUE(far.status.ok()) << far.status.what;
    EXPECT_LT(distance(at(far.model[2]), Vec3{1, 1, 0} * std::sqrt(2.0f)), 1e-5f);
}

// Each value of a two-bone task at the edge of what the checks take, and one float
// past it, on a leg (root, middle, end each the parent of the next) and on a chain
// with a joint between root and middle: the bounds as ik.hpp states them.
TEST(TwoBoneIk, EveryValueIsCheckedAtItsBounds) {
    constexpr float kInf = std::numeric_limits<float>::infinity();
    constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
    constexpr float kMax = std::numeric_limits<float>::max();
    const float past1e18 = std::nextafter(1e18f, kInf);
    const float below1 = std::nextafter(1.0f, 0.0f);
    const std::vector<std::int32_t> parents = {-1, 0, 1, 2};
    using Edit = void (*)(TwoBoneIk&, float);
    struct Field {
        const char* name;
        Edit set;
        std::vector<float> taken;
        std::vector<std::pair<float, StatusCode>> refused;
    };
    const std::vector<std::pair<float, StatusCode>> farOrNot = {{past1e18, StatusCode::OutOfRange},
                                                                {-past1e18, StatusCode::OutOfRange},
                                                                {kInf, StatusCode::NotFinite},
                                                                {kNan, StatusCode::NotFinite}};
    const std::vector<Field> fields = {
        {"target.x", [](TwoBoneIk& t, float v) { t.target.x = v; }, {1e18f, -1e18f, 0.0f}, farOrNot},
        {"target.z", [](TwoBoneIk& t, float v) { t.target.z = v; }, {1e18f, -1e18f}, farOrNot},
        {"pole.x", [](TwoBoneIk& t, float v) { t.pole.x = v; }, {1e18f, -1e18f}, farOrNot},
        {"pole.y", [](TwoBoneIk& t, float v) { t.pole.y = v; }, {1e18f, -1e18f}, farOrNot},
        {"pole.z", [](TwoBoneIk& t, float v) { t.pole.z = v; }, {1e18f, -1e18f}, farOrNot},
        {"twist",
         [](TwoBoneIk& t, float v) { t.twist = v; },
         {kMax, -kMax, 0.0f},
         {{kInf, StatusCode::NotFinite}, {-kInf, StatusCode::NotFinite}, {kNan, StatusCode::NotFinite}}},
        {"weight",
         [](TwoBoneIk& t, float v) { t.weight = v; },
         {0.0f, -0.0f, 1.0f, 0.5f},
         {{std::nextafter(1.0f, 2.0f), StatusCode::OutOfRange},
          {-std::numeric_limits<float>::denorm_min(), StatusCode::OutOfRange},
          {kNan, StatusCode::NotFinite}}},
        {"soften",
         [](TwoBoneIk& t, float v) { t.soften = v; },
         {0.0f, -0.0f, below1},
         {{1.0f, StatusCode::OutOfRange},
          {-std::numeric_limits<float>::denorm_min(), StatusCode::OutOfRange},
          {kNan, StatusCode::NotFinite}}},
    };
    for (const TwoBoneIk base : {TwoBoneIk{0, 1, 2, {1, 1, 0}, {0, 1, 0}}, TwoBoneIk{0, 2, 3, {1, 1, 0}, {0, 1, 0}}}) {
        for (const Field& f : fields) {
            for (const float v : f.taken) {
                TwoBoneIk t = base;
                f.set(t, v);
                const IkTask task[] = {t};
                EXPECT_TRUE(checkIkTasks(task, parents).ok()) << f.name << " = " << v << ", middle " << base.middle;
            }
            for (const auto& [v, code] : f.refused) {
                TwoBoneIk t = base;
                f.set(t, v);
                const IkTask task[] = {TwoBoneIk{0, 1, 2, {1, 1, 0}, {0, 1, 0}}, t};
                const Status s = checkIkTasks(task, parents);
                EXPECT_EQ(s.code, code) << f.name << " = " << v << ", middle " << base.middle << ": " << s.what;
                EXPECT_EQ(s.index, 1) << f.name << " = " << v;
                // The text says which fault it is: a value no number is "not finite".
                const bool saysNotFinite = std::string_view(s.what).find("not finite") != std::string_view::npos;
                EXPECT_EQ(saysNotFinite, code == StatusCode::NotFinite) << f.name << " = " << v << ": " << s.what;
            }
        }
    }
}

TEST(TwoBoneIk, JointsOutOfChainOrderAreRefused) {
    const Chain c = makeChain(3, {1, 0, 0});
    const Solved s = solve(c, {TwoBoneIk{0, 2, 1, {1, 1, 0}, {0, 1, 0}}});
    EXPECT_EQ(s.status.code, StatusCode::OutOfRange);
    EXPECT_FALSE(solve(c, {TwoBoneIk{0, 1, 7, {1, 1, 0}, {0, 1, 0}}}).status.ok());
}

// --- aim ---

TEST(AimIk, TheForwardAxisPointsAtTheTarget) {
    const Chain c = makeChain(2, {0, 1, 0});  // a neck at the origin, a head at (0,1,0)
    const std::uint32_t head[] = {1};
    AimIk task;
    task.joints = head;
    task.target = {3, 1, 0};  // straight along +X from the head
    const Solved s = solve(c, {task});
    ASSERT_TRUE(s.status.ok()) << s.status.message();
    const Vec3 forward = transformDirection(s.model[1], {0, 0, 1});
    EXPECT_LT(distance(forward, {1, 0, 0}), 1e-5f);
    EXPECT_TRUE(s.outcomes[0].reached);
}

// The checks take axes of any length that has a direction; the solvers use them as
// the unit axes they point along, however long or short (a square of 1e40 overflows a
// float, one of 1e-40 is below its normal range).
TEST(Ik, AxesOfAnyLengthTheChecksTakeActAsUnitAxes) {
    const Chain c = makeChain(2, {0, 1, 0});
    const std::uint32_t head[] = {1};
    for (const float scale : {2e19f, 1e20f, 1e-20f, 1e-22f}) {
        AimIk task;
        task.joints = head;
        task.target = {3, 1, 0};
        task.forward = {0, 0, scale};
        task.up = {0, scale, 0};
        task.upVector = Vec3{0, 0, -1};
        const Solved s = solve(c, {task});
        ASSERT_TRUE(s.status.ok()) << scale << ": " << s.status.message();
        EXPECT_TRUE(s.outcomes[0].reached) << scale;
        // Forward (local +Z) onto +X, then rolled so that up (local +Y) leans toward -Z:
        // up at (0, 0, -1) exactly, the roll about +X being free.
        EXPECT_LT(distance(transformDirection(s.model[1], {0, 0, 1}), {1, 0, 0}), 1e-5f) << scale;
        EXPECT_LT(distance(transformDirection(s.model[1], {0, 1, 0}), {0, 0, -1}), 1e-5f) << scale;
    }
    // A hinge about z, long or short: the two-joint chain bends about z alone, by the
    // same angles as about the unit axis (a bend that the hinge of scale 1 makes).
    const Chain arm = makeChain(3, {1, 0, 0});
    const std::uint32_t joints[] = {0, 1, 2};
    float unitAngle = 0.0f;
    for (const float scale : {1.0f, 1e20f, 1e-20f}) {
        JointLimit hinge;
        hinge.kind = JointLimit::Kind::Hinge;
        hinge.axis = {0, 0, scale};
        hinge.minAngle = -1.0f;
        hinge.maxAngle = 1.0f;
        const JointLimit limits[] = {hinge, hinge, JointLimit{}};
        ChainIk task;
        task.joints = joints;
        task.limits = limits;
        task.target = {0, 1, 0};
        task.iterations = 50;
        const Solved s = solve(arm, {task});
        ASSERT_TRUE(s.status.ok()) << scale << ": " << s.status.message();
        float off = 0.0f;
        const float angle = angleAbout(s.pose.joint(0).rotation, {0, 0, 1}, &off);
        if (scale == 1.0f) unitAngle = angle;
        EXPECT_GT(std::abs(angle), 0.1f) << scale;
        EXPECT_NEAR(angle, unitAngle, 1e-5f) << scale;
        EXPECT_LT(off, 1e-5f) << scale;
    }
}

// Every value that is not finite is NotFinite, whichever task holds it; a joint limit
// of no known kind is refused.
TEST(Ik, ValuesThatAreNotFiniteAreNamedSo) {
    constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
    constexpr float kInf = std::numeric_limits<float>::infinity();
    const std::vector<std::int32_t> parents = {-1, 0, 1};
    const std::uint32_t joints[] = {0, 1, 2};
    const auto codeOf = [&](const IkTask& task) {
        return checkIkTasks(std::span<const IkTask>(&task, 1), parents).code;
    };
    AimIk aim;
    aim.joints = joints;
    for (const auto edit :
         std::vector<void (*)(AimIk&)>{[](AimIk& a) { a.forward.x = kNan; }, [](AimIk& a) { a.up.y = kInf; },
                                       [](AimIk& a) {
                                           a.upVector = Vec3{kNan, 0, 1};
                                       },
                                       [](AimIk& a) { a.weight = kNan; }, [](AimIk& a) { a.maxAngle = kInf; },
                                       [](AimIk& a) { a.decay = kNan; }}) {
        AimIk bad = aim;
        edit(bad);
        EXPECT_EQ(codeOf(bad), StatusCode::NotFinite);
    }
    AimIk negative = aim;
    negative.decay = -1.0f;
    EXPECT_EQ(codeOf(negative), StatusCode::OutOfRange);
    ChainIk chain;
    chain.joints = joints;
    chain.weight = kNan;
    EXPECT_EQ(codeOf(chain), StatusCode::NotFinite);
    chain.weight = 1.5f;
    EXPECT_EQ(codeOf(chain), StatusCode::OutOfRange);
    chain.weight = 1.0f;
    JointLimit odd;
    odd.kind = static_cast<JointLimit::Kind>(7);
    const JointLimit limits[] = {odd, JointLimit{}, JointLimit{}};
    chain.limits = limits;
    const Status s = checkIkTasks(std::span<const IkTask>(std::vector<IkTask>{chain}), parents);
    EXPECT_EQ(s.code, StatusCode::OutOfRange);
    EXPECT_NE(std::string(s.what).find("no known kind"), std::string::npos) << s.what;
}

TEST(AimIk, TheAngleLimitStopsTheTurn) {
    const Chain c = makeChain(2, {0, 1, 0});
    const std::uint32_t head[] = {1};
    AimIk task;
    task.joints = head;
    task.target = {3, 1, 0};  // 90 degrees from +Z
    task.maxAngle = kPi / 6.0f;
    const Solved s = solve(c, {task});
    const Vec3 forward = transformDirection(s.model[1], {0, 0, 1});
    EXPECT_LT(distance(forward, {0.5f, 0.0f, std::sqrt(3.0f) / 2.0f}), 1e-5f);
    EXPECT_FALSE(s.outcomes[0].reached);
}

// The limit on turns far below it, just past it, and opposite: a forward axis
// at angle a from +Z in the XZ plane is (sin a, 0, cos a).
TEST(AimIk, TheAngleLimitHoldsForTinyAndOppositeTurns) {
    const Chain c = makeChain(2, {0, 1, 0});
    const std::uint32_t head[] = {1};
    const auto aimed = [&](float targetAngle, float maxAngle) {
        AimIk task;
        task.joints = head;
        task.target = Vec3{0, 1, 0} + Vec3{std::sin(targetAngle), 0, std::cos(targetAngle)} * 5.0f;
        task.maxAngle = maxAngle;
        const Solved s = solve(c, {task});
        EXPECT_TRUE(s.status.ok()) << s.status.message();
        return normalize3(transformDirection(s.model[1], {0, 0, 1}));
    };
    // 2e-3 rad wanted, 1e-3 allowed: held at the limit.
    const Vec3 held = aimed(2e-3f, 1e-3f);
    EXPECT_NEAR(held.x, std::sin(1e-3f), 1e-6f);
    EXPECT_NEAR(held.y, 0.0f, 1e-6f);
    // 5e-4 rad wanted, 1e-3 allowed: turned all the way.
    EXPECT_NEAR(aimed(5e-4f, 1e-3f).x, std::sin(5e-4f), 1e-6f);
    // Straight behind, a quarter turn allowed: the axis ends across it.
    const Vec3 across = aimed(kPi, kPi / 2.0f);
    EXPECT_NEAR(across.z, 0.0f, 1e-5f);
    // A limit of a half turn or more limits nothing.
    EXPECT_LT(distance(aimed(kPi, 4.0f), {0, 0, -1}), 1e-5f);
}

// The chain's first joint under a moved, turned and scaled parent, an unnamed joint
// between two named ones: the forward axis, read from the composed model matrices,
// points at the target, and only the named joints turn.
TEST(AimIk, AChainBelowAPlacedParentAimsAcrossAnUnnamedJoint) {
    Transform placement;
    placement.translation = {3, -2, 1};
    placement.rotation = fromAxisAngle(normalize3(Vec3{1, 2, 0.5f}), 0.8f);
    placement.scale = {2, 2, 2};
    const Chain c = makeChain(4, {0, 0.5f, 0}, &placement);  // joints 1..4
    const std::uint32_t joints[] = {2, 4};
    AimIk task;
    task.joints = joints;
    task.target = {-4, 6, 7};
    const Solved s = solve(c, {task});
    ASSERT_TRUE(s.status.ok()) << s.status.message();
    const Vec3 forward = normalize3(transformDirection(s.model[4], {0, 0, 1}));
    const Vec3 wanted = normalize3(task.target - at(s.model[4]));
    EXPECT_LT(std::asin(std::min(1.0f, length(cross(forward, wanted)))), 1e-5f);
    EXPECT_GT(dot(forward, wanted), 0.0f);
    EXPECT_TRUE(s.outcomes[0].reached);
    for (const std::uint32_t unturned : {0u, 1u, 3u}) EXPECT_EQ(s.pose.joint(unturned), c.rest[unturned]) << unturned;
}

TEST(AimIk, AChainSharesTheTurnAndStillAims) {
    const Chain c = makeChain(3, {0, 0.5f, 0});  // spine (0,0,0), neck (0,.5,0), head (0,1,0)
    const std::uint32_t chain[] = {0, 1, 2};
    AimIk task;
    task.joints = chain;
    task.target = {50, 1, 0};  // a quarter turn about Y, far enough that the parallax is small
    task.decay = 1.0f;         // equal shares
    const Solved s = solve(c, {task});
    ASSERT_TRUE(s.status.ok());
    const Vec3 forward = transformDirection(s.model[2], {0, 0, 1});
    const Vec3 wanted = normalize3(Vec3{50, 1, 0} - at(s.model[2]));
    EXPECT_LT(distance(forward, wanted), 1e-4f);
    // Each of the three joints turned about a third of the quarter turn.
    for (std::uint32_t j = 0; j < 3; ++j) {
        const float angle = 2.0f * std::acos(std::min(1.0f, std::abs(s.pose.joint(j).rotation.w)));
        EXPECT_NEAR(angle, kPi / 6.0f, 0.02f) << j;
    }
}

// Chains with large parallax (bones of 1, a target 3 away): the passes go on until the
// aimed axis settles, so the aim is reached, whatever the decay.
TEST(AimIk, AChainSettlesOnTheTargetDespiteParallax) {
    const Chain c = makeChain(3, {1, 0, 0});  // joints at x = 0, 1, 2; forward +x
    for (const std::size_t n : {2u, 3u}) {
        for (const float decay : {0.5f, 1.0f}) {
            for (const float degrees : {30.0f, 60.0f, 90.0f, 150.0f}) {
                const std::uint32_t joints[] = {0, 1, 2};
                AimIk task;
                task.joints = std::span<const std::uint32_t>(joints).last(n);
                task.forward = {1, 0, 0};
                const float a = degrees * kPi / 180.0f;
                task.target = Vec3{2, 0, 0} + Vec3{std::cos(a), std::sin(a), 0} * 3.0f;
                task.decay = decay;
                const Solved s = solve(c, {task});
                ASSERT_TRUE(s.status.ok());
                const Vec3 forward = transformDirection(s.model[2], {1, 0, 0});
                const Vec3 wanted = normalize3(task.target - at(s.model[2]));
                // The angle between them, from the cross product's length (exact near 0).
                const float miss = std::asin(std::min(1.0f, length(cross(forward, wanted))));
                EXPECT_LT(miss, 1e-5f) << n << " joints, decay " << decay << ", " << degrees << " degrees";
                EXPECT_GT(dot(forward, wanted), 0.0f);
                EXPECT_TRUE(s.outcomes[0].reached) << n << " joints, decay " << decay << ", " << degrees << " degrees";
            }
        }
    }
}

TEST(AimIk, TheUpAxisFollowsTheUpVector) {
    const Chain c = makeChain(2, {0, 1, 0});
    const std::uint32_t head[] = {1};
    AimIk task;
    task.joints = head;
    task.target = {0, 1, 5};  // already along +Z: only the roll acts
    task.up = {0, 1, 0};
    task.upVector = Vec3{1, 0, 0};
    const Solved s = solve(c, {task});
    EXPECT_LT(distance(transformDirection(s.model[1], {0, 1, 0}), {1, 0, 0}), 1e-5f);
    EXPECT_LT(distance(transformDirection(s.model[1], {0, 0, 1}), {0, 0, 1}), 1e-5f);
}

// An up axis along the forward axis leaves no roll to take: the task is refused.
TEST(AimIk, AnUpAxisAlongTheForwardAxisIsRefused) {
    const Chain c = makeChain(2, {0, 1, 0});
    const std::uint32_t head[] = {1};
    for (const Vec3 up : {Vec3{0, 0, 2}, Vec3{0, 0, -1}, Vec3{0, 1e-6f, 1}}) {
        AimIk task;
        task.joints = head;
        task.target = {3, 1, 0};
        task.up = up;
        task.upVector = Vec3{0, 1, 0};
        const Solved s = solve(c, {task});
        EXPECT_EQ(s.status.code, StatusCode::OutOfRange) << up.y;
        EXPECT_NE(std::string(s.status.what).find("up axis along the forward axis"), std::string::npos)
            << s.status.what;
        task.upVector.reset();  // without an up vector the up axis is not used
        EXPECT_TRUE(solve(c, {task}).status.ok()) << up.y;
    }
}

// --- FABRIK and CCD ---

class ChainIkTest : public ::testing::TestWithParam<ChainSolver> {};

TEST_P(ChainIkTest, ReachesWithinToleranceKeepingBoneLengths) {
    const Chain c = makeChain(4, {0, 1, 0});  // (0,0,0) .. (0,3,0)
    const std::uint32_t joints[] = {0, 1, 2, 3};
    ChainIk task;
    task.joints = joints;
    task.target = {1.5f, 1.5f, 0.5f};
    task.solver = GetParam();
    task.iterations = 200;
    task.tolerance = 1e-4f * 3.0f;
    const Solved s = solve(c, {task});
    ASSERT_TRUE(s.status.ok()) << s.status.message();
    EXPECT_LT(distance(at(s.model[3]), task.target), 3e-4f + 1e-5f);
    EXPECT_TRUE(s.outcomes[0].reached);
    for (std::uint32_t j = 0; j < 3; ++j) EXPECT_NEAR(distance(at(s.model[j]), at(s.model[j + 1])), 1.0f, 1e-5f);
    EXPECT_LT(distance(at(s.model[0]), {0, 0, 0}), 1e-6f);
}

TEST_P(ChainIkTest, AnUnreachableTargetGivesAStraightChainPointingAtIt) {
    const Chain c = makeChain(4, {0, 1, 0});
    const std::uint32_t joints[] = {0, 1, 2, 3};
    ChainIk task;
    task.joints = joints;
    task.target = {0, 8, 6};  // 10 away, the chain is 3 long
    task.solver = GetParam();
    const Solved s = solve(c, {task});
    for (std::uint32_t j = 1; j < 4; ++j)
        EXPECT_LT(distance(at(s.model[j]), Vec3{0.0f, 0.8f, 0.6f} * static_cast<float>(j)), 1e-5f) << j;
    EXPECT_FALSE(s.outcomes[0].reached);
    EXPECT_NEAR(s.outcomes[0].distance, 7.0f, 1e-4f);
}

TEST_P(ChainIkTest, TargetAtTheRootAndZeroLengthBonesGiveNoNaN) {
    const Chain c = makeChain(4, {0, 1, 0});
    const std::uint32_t joints[] = {0, 1, 2, 3};
    ChainIk task;
    task.joints = joints;
    task.target = {0, 0, 0};
    task.solver = GetParam();
    const Solved s = solve(c, {task});
    for (const Mat4& m : s.model) EXPECT_TRUE(isFinite(m));
    const Chain zero = makeChain(4, {0, 0, 0});
    task.target = {1, 1, 1};
    const Solved z = solve(zero, {task});
    for (const Mat4& m : z.model) EXPECT_TRUE(isFinite(m));
}

// A chain placed 7 units from the origin, turned in every joint, with no tolerance:
// more iterations never take the end farther from a reachable target, and where the
// solver stops the pose's end is (its outcome measures the pose, not the solver's
// own positions).
TEST_P(ChainIkTest, MoreIterationsNeverDriftAwayFarFromTheOrigin) {
    Chain c;
    c.parents = {-1, 0, 1, 2, 3, 4, 5};
    const auto joint = [](Vec3 t, Quat r) {
        Transform x;
        x.translation = t;
        x.rotation = normalize(r);
        return x;
    };
    c.rest = {joint({-5.28524446f, -2.98583341f, -4.56009865f}, {0.0943248f, -0.7614214f, 0.0163356f, 0.6411502f}),
              joint({0, 0, 0}, {-0.1086827f, -0.2071146f, 0.1710215f, 0.9571015f}),
              joint({0.1748323f, -0.4408387f, -0.0286737f}, {-0.1026906f, -0.1342210f, -0.0791873f, 0.9824300f}),
              joint({0.0910486f, -0.0834967f, 0.2036542f}, {-0.0339416f, -0.0144223f, 0.0285557f, 0.9989117f}),
              joint({0.0694739f, 0.0286336f, -0.1430818f}, {-0.0507914f, 0.0542214f, -0.2742905f, 0.9587727f}),
              joint({-0.1398795f, 0.0381178f, 0.0098049f}, {-0.0138562f, -0.2513882f, -0.2053882f, 0.9457418f}),
              joint({0.0826991f, -0.2082320f, 0.0779854f}, {-0.0186921f, 0.1887832f, 0.1895375f, 0.9633728f})};
    const std::uint32_t joints[] = {1, 2, 3, 4, 5, 6};
    ChainIk task;
    task.joints = joints;
    task.target = {-5.14004469f, -2.44102335f, -5.2273798f};  // 0.87 from joint 1; the chain is 1.26 long
    task.solver = GetParam();
    task.tolerance = 0.0f;
    float previous = std::numeric_limits<float>::infinity();
    for (const std::uint32_t iterations : {50u, 200u, 1000u}) {
        task.iterations = iterations;
        const Solved s = solve(c, {task});
        ASSERT_TRUE(s.status.ok());
        const float d = distance(at(s.model[6]), task.target);
        EXPECT_LT(d, 1e-5f) << iterations;
        EXPECT_LE(d, previous * 1.5f + 1e-6f) << iterations;
        EXPECT_NEAR(s.outcomes[0].distance, d, 1e-6f) << iterations;
        previous = d;
    }
}

INSTANTIATE_TEST_SUITE_P(Solvers, ChainIkTest, ::testing::Values(ChainSolver::Fabrik, ChainSolver::Ccd),
                         [](const auto& solver) { return solver.param == ChainSolver::Fabrik ? "Fabrik" : "Ccd"; });

TEST_P(ChainIkTest, AHingeTurnsOnlyAboutItsAxisWithinItsRange) {
    const Chain c = makeChain(3, {0, 1, 0});  // (0,0,0) -> (0,1,0) -> (0,2,0)
    const std::uint32_t joints[] = {0, 1, 2};
    JointLimit free;
    JointLimit knee;
    knee.kind = JointLimit::Kind::Hinge;
    knee.axis = {1, 0, 0};
    knee.minAngle = 0.0f;
    knee.maxAngle = kPi / 2.0f;
    const JointLimit limits[] = {free, knee, free};
    ChainIk task;
    task.joints = joints;
    task.limits = limits;
    task.solver = GetParam();
    task.iterations = 100;
    task.tolerance = 1e-4f;
    for (const Vec3& target : {Vec3{0, 1, 1}, Vec3{0, 1, -1}, Vec3{0.5f, 0.8f, 0.9f}, Vec3{0, 0.2f, 0.5f}}) {
        task.target = target;
        const Solved s = solve(c, {task});
        ASSERT_TRUE(s.status.ok()) << s.status.message();
        float off = 0.0f;
        const float angle = angleAbout(s.pose.joint(1).rotation, {1, 0, 0}, &off);
        EXPECT_LT(off, 1e-5f) << "the knee turned off its axis for target " << target.y << "," << target.z;
        EXPECT_GE(angle, -1e-4f);
        EXPECT_LE(angle, kPi / 2.0f + 1e-4f);
        EXPECT_NEAR(distance(at(s.model[0]), at(s.model[1])), 1.0f, 1e-5f);
        EXPECT_NEAR(distance(at(s.model[1]), at(s.model[2])), 1.0f, 1e-5f);
        for (const Mat4& m : s.model) EXPECT_TRUE(isFinite(m));
    }
    // Straight ahead of the bend the knee allows, the target is reached.
    task.target = {0, 1, 1};
    const Solved reachable = solve(c, {task});
    EXPECT_TRUE(reachable.outcomes[0].reached) << reachable.outcomes[0].distance;
}

// A straight chain (an arm held out) with the target on its line, short of its end:
// nothing points it anywhere but along the line, yet the target is in reach. It bends
// and reaches it, bones kept; with hinges, it bends about them.
TEST_P(ChainIkTest, AStraightChainBendsToATargetOnItsOwnLine) {
    const Chain c = makeChain(4, {1, 0, 0});  // (0,0,0) -> (1,0,0) -> (2,0,0) -> (3,0,0)
    const std::uint32_t joints[] = {0, 1, 2, 3};
    ChainIk task;
    task.joints = joints;
    task.solver = GetParam();
    task.iterations = 1000;
    for (const float x : {2.5f, 2.0f, 1.5f, 0.5f, 0.0f}) {
        task.target = {x, 0, 0};
        const Solved s = solve(c, {task});
        ASSERT_TRUE(s.status.ok()) << s.status.message();
        EXPECT_TRUE(s.outcomes[0].reached) << "target x " << x << ": " << s.outcomes[0].distance;
        EXPECT_LT(distance(at(s.model[3]), task.target), 2e-4f) << x;
        for (std::uint32_t j = 0; j < 3; ++j)
            EXPECT_NEAR(distance(at(s.model[j]), at(s.model[j + 1])), 1.0f, 1e-5f) << x << ", bone " << j;
    }
    // Hinges about z at every joint: the chain bends in the x-y plane alone.
    JointLimit elbow;
    elbow.kind = JointLimit::Kind::Hinge;
    elbow.axis = {0, 0, 1};
    elbow.minAngle = -3.0f;
    elbow.maxAngle = 3.0f;
    const JointLimit limits[] = {elbow, elbow, elbow, JointLimit{}};
    task.limits = limits;
    task.target = {2.0f, 0, 0};
    const Solved hinged = solve(c, {task});
    ASSERT_TRUE(hinged.status.ok()) << hinged.status.message();
    EXPECT_TRUE(hinged.outcomes[0].reached) << hinged.outcomes[0].distance;
    for (const Mat4& m : hinged.model) EXPECT_NEAR(at(m).z, 0.0f, 1e-5f);
}

TEST_P(ChainIkTest, AConeKeepsTheBoneWithinItsAngleAndTheTwistWithinItsRange) {
    const Chain c = makeChain(3, {0, 1, 0});
    const std::uint32_t joints[] = {0, 1, 2};
    JointLimit shoulder;
    shoulder.kind = JointLimit::Kind::Cone;
    shoulder.axis = {0, 1, 0};  // the bone's direction
    shoulder.coneAngle = kPi / 6.0f;
    const JointLimit limits[] = {shoulder, shoulder, JointLimit{}};
    ChainIk task;
    task.joints = joints;
    task.limits = limits;
    task.solver = GetParam();
    task.iterations = 50;
    task.target = {5, 0, 0};  // far to the side: a 90 degree swing would be needed
    const Solved s = solve(c, {task});
    ASSERT_TRUE(s.status.ok()) << s.status.message();
    const Vec3 bone = normalize3(at(s.model[1]) - at(s.model[0]));
    EXPECT_LE(std::acos(std::min(1.0f, dot(bone, {0, 1, 0}))), kPi / 6.0f + 1e-3f);
    EXPECT_GT(bone.x, 0.3f);  // it leans toward the target as far as it may
    EXPECT_FALSE(s.outcomes[0].reached);
    // Twist range [0, 0]: no turn about the bone's own axis.
    for (std::uint32_t j = 0; j < 2; ++j) {
        Quat q = s.pose.joint(j).rotation;
        if (q.w < 0.0f) q = -q;
        const Quat twist = normalize(Quat{0.0f, q.y, 0.0f, q.w});
        EXPECT_NEAR(angleAbout(twist, {0, 1, 0}), 0.0f, 1e-4f) << j;
    }
}

TEST(ChainIk, BadJointLimitsAreRefused) {
    const Chain c = makeChain(3, {0, 1, 0});
    const std::uint32_t joints[] = {0, 1, 2};
    const JointLimit two[2] = {};
    ChainIk task;
    task.joints = joints;
    task.limits = two;
    task.target = {1, 1, 0};
    EXPECT_EQ(solve(c, {task}).status.code, StatusCode::WrongCount);
    JointLimit backwards;
    backwards.kind = JointLimit::Kind::Hinge;
    backwards.minAngle = 1.0f;
    backwards.maxAngle = -1.0f;
    const JointLimit three[] = {backwards, JointLimit{}, JointLimit{}};
    task.limits = three;
    EXPECT_EQ(solve(c, {task}).status.code, StatusCode::OutOfRange);
    // A value that is not finite is named as such, not as an order or a sign.
    JointLimit endless;
    endless.kind = JointLimit::Kind::Hinge;
    endless.minAngle = -std::numeric_limits<float>::infinity();
    const JointLimit unbounded[] = {endless, JointLimit{}, JointLimit{}};
    task.limits = unbounded;
    Status s = solve(c, {task}).status;
    EXPECT_EQ(s.code, StatusCode::NotFinite);
    EXPECT_NE(std::string(s.what).find("not finite"), std::string::npos) << s.what;
    task.limits = {};
    task.tolerance = std::numeric_limits<float>::infinity();
    s = solve(c, {task}).status;
    EXPECT_EQ(s.code, StatusCode::NotFinite);
    EXPECT_NE(std::string(s.what).find("tolerance not finite"), std::string::npos) << s.what;
    task.tolerance = -1.0f;
    EXPECT_EQ(solve(c, {task}).status.code, StatusCode::OutOfRange);
}

TEST(ChainIk, JointsThatAreNotParentAndChildAreRefused) {
    const Chain c = makeChain(4, {0, 1, 0});
    const std::uint32_t skipping[] = {0, 2, 3};
    ChainIk task;
    task.joints = skipping;
    task.target = {1, 1, 0};
    const Solved s = solve(c, {task});
    EXPECT_EQ(s.status.code, StatusCode::OutOfRange);
    task.joints = {};
    EXPECT_EQ(solve(c, {task}).status.code, StatusCode::WrongCount);
}

// A chain of 64 joints with tight hinges, CCD, out of reach, no tolerance: all 1000
// iterations run (each a pass over the chain, not a walk to the root per joint),
// and more than 1000 are refused.
TEST(ChainIk, IterationsAreBoundedAndALimitedChainRunsThemAll) {
    const Chain c = makeChain(64, {0, 0.1f, 0});
    std::vector<std::uint32_t> joints(64);
    std::vector<JointLimit> limits(64);
    for (std::uint32_t k = 0; k < 64; ++k) {
        joints[k] = k;
        limits[k].kind = JointLimit::Kind::Hinge;
        limits[k].axis = {0, 0, 1};
        limits[k].minAngle = -0.01f;
        limits[k].maxAngle = 0.01f;
    }
    ChainIk task;
    task.joints = joints;
    task.limits = limits;
    task.solver = ChainSolver::Ccd;
    task.target = {50, 0, 0};
    task.tolerance = 0.0f;
    task.iterations = 1000;
    const Solved s = solve(c, {task});
    ASSERT_TRUE(s.status.ok()) << s.status.message();
    EXPECT_FALSE(s.outcomes[0].reached);
    for (std::uint32_t j = 0; j + 1 < 64; ++j) EXPECT_NEAR(distance(at(s.model[j]), at(s.model[j + 1])), 0.1f, 1e-5f);
    task.iterations = 1001;
    EXPECT_EQ(solve(c, {task}).status.code, StatusCode::OutOfRange);
}

// A decay whose powers overflow a float (1e20 over three joints, 10 over 64) still
// shares the turn out, nearly all to the first joint: no NaN.
TEST(AimIk, ADecayWhosePowersOverflowStillAims) {
    for (const auto& [links, decay] :
         {std::pair<std::size_t, float>{3, 1e20f}, std::pair<std::size_t, float>{64, 10.0f}}) {
        const Chain c = makeChain(links, {0, 0.1f, 0});
        std::vector<std::uint32_t> joints(links);
        for (std::uint32_t k = 0; k < links; ++k) joints[k] = k;
        AimIk aim;
        aim.joints = joints;
        aim.decay = decay;
        aim.target = {300, 100, 50};  // far: the head's own move as the chain turns is small beside it
        const Solved s = solve(c, {aim});
        ASSERT_TRUE(s.status.ok()) << s.status.message();
        for (const Mat4& m : s.model) ASSERT_TRUE(isFinite(m)) << links;
        EXPECT_TRUE(s.outcomes[0].reached) << links << " joints, distance " << s.outcomes[0].distance;
    }
}

// applyIk takes its parents and pose from the caller: a parent after its child (a
// cycle, or past the list), a value that is not finite or a zero rotation is refused
// naming the joint, before anything is read out of place or changed.
TEST(Ik, ApplyIkRefusesParentsOutOfOrderAndUnsoundPoses) {
    const Chain good = makeChain(3, {1, 0, 0});
    const IkTask task[] = {TwoBoneIk{0, 1, 2, {1, 1, 0}, {0, 0, 5}}};
    for (const std::vector<std::int32_t>& parents :
         {std::vector<std::int32_t>{-1, 7, 1}, std::vector<std::int32_t>{1, 0, 1}, std::vector<std::int32_t>{-1, 2, 1},
          std::vector<std::int32_t>{-1, -5, 1}}) {
        Chain c = good;
        c.parents = parents;
        const Solved s = solve(c, {task[0]});
        EXPECT_EQ(s.status.code, StatusCode::OutOfRange);
        EXPECT_GE(s.status.index, 0);
        EXPECT_EQ(s.pose.joint(1).rotation.w, 1.0f);  // unchanged
    }
    Chain nan = good;
    nan.rest[2].translation.y = NAN;
    Solved s = solve(nan, {task[0]});
    EXPECT_EQ(s.status.code, StatusCode::NotFinite);
    EXPECT_EQ(s.status.index, 2);
    Chain zero = good;
    zero.rest[1].rotation = {0, 0, 0, 0};
    s = solve(zero, {task[0]});
    EXPECT_EQ(s.status.code, StatusCode::NotFinite);
    EXPECT_EQ(s.status.index, 1);
    // checkIkTasks alone walks such parents without leaving the list or looping: a
    // walk up from joint 0 through the cycle 0 -> 1 -> 0 once never ended.
    const std::int32_t cycle[] = {1, 0, 1};
    const IkTask around[] = {TwoBoneIk{2, 0, 1, {1, 1, 0}, {0, 0, 5}}};
    EXPECT_FALSE(checkIkTasks(around, cycle).ok());
}

// --- several tasks ---

TEST(Ik, TasksRunInListOrderAndEachReports) {
    // A spine (0..1) with an arm (2..4) hanging off joint 1: aim the spine first, then
    // reach with the arm; the arm's task sees where the spine put it.
    Chain c;
    c.parents = {-1, 0, 1, 2, 3};
    c.rest.resize(5);
    c.rest[1].translation = {0, 1, 0};
    c.rest[2].translation = {0.2f, 0, 0};
    c.rest[3].translation = {0.5f, 0, 0};
    c.rest[4].translation = {0.5f, 0, 0};
    const std::uint32_t spine[] = {1};
    AimIk turn;
    turn.joints = spine;
    turn.target = {5, 1, 0};
    const Vec3 reach{0.3f, 1.6f, 0.4f};
    const Solved s = solve(c, {turn, TwoBoneIk{2, 3, 4, reach, {0, 0, -5}}});
    ASSERT_TRUE(s.status.ok()) << s.status.message();
    EXPECT_TRUE(s.outcomes[0].reached);
    EXPECT_TRUE(s.outcomes[1].reached);
    EXPECT_LT(distance(at(s.model[4]), reach), 1e-4f);
}

TEST(Ik, RotationBetweenTurnsOneDirectionOntoAnother) {
    for (const Vec3& to : {Vec3{0, 1, 0}, Vec3{0, 0, -1}, Vec3{-1, 0, 0}, normalize3({1, 2, 3})}) {
        const Quat q = rotationBetween({1, 0, 0}, to);
        EXPECT_LT(distance(rotate(q, {1, 0, 0}), to), 1e-6f);
    }
    // Near opposite: `to` a small angle e short of a half turn from `from`, about z.
    // Met to rounding, and by the shortest arc: a turn of pi - e about +z.
    for (const float e : {1e-5f, 1e-4f, 1e-3f, 0.01f, 0.1f, 0.2f}) {
        const Vec3 from = normalize3({1, 0.3f, 0});
        const Vec3 to = rotate(fromAxisAngle({0, 0, 1}, kPi - e), from);
        const Quat q = rotationBetween(from, to);
        EXPECT_LT(distance(rotate(q, from), to), 1e-6f) << e;
        if (e >= 1e-3f) {
            EXPECT_NEAR(2.0f * std::atan2(length(Vec3{q.x, q.y, q.z}), std::abs(q.w)), kPi - e, 1e-4f) << e;
            const Vec3 axis = normalize3(Vec3{q.x, q.y, q.z} * (q.w < 0.0f ? -1.0f : 1.0f));
            EXPECT_GT(axis.z, 0.99999f) << e;
        }
    }
}

}  // namespace
}  // namespace kinema
