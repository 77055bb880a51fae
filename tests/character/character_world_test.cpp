// The one-character facade where it touches the world: IK tasks solved on every
// update, root motion taken out of the pose and returned as a delta, user curves
// blended with the pose. Expected values are worked out by hand from the clips below.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "fixtures.hpp"
#include "kinema/character/character.hpp"
#include "kinema/math/quat.hpp"

namespace kinema {
namespace {

using test::slide;

// A value from `from` to `to` over 1 s.
CurveTrack ramp(std::string name, float from, float to) {
    CurveTrack c;
    c.name = std::move(name);
    c.times = {0.0f, 1.0f};
    c.values = {from, to};
    return c;
}

// root, arm; walk: root x 0 -> 1 m in 1 s with a "footIk" curve 0 -> 1; run: root
// x 0 -> 4 m in 1 s, no curve; wave: arm only.
Model travellingModel() {
    Model m;
    m.source = "travelling";
    m.skeleton = Skeleton::create({{"root", kNoParent, {}}, {"arm", 0, {}}}).value();
    m.clips.push_back(Clip::create("walk", {slide(0, 1.0f)}).value().withCurves({ramp("footIk", 0.0f, 1.0f)}).value());
    m.clips.push_back(Clip::create("run", {slide(0, 4.0f)}).value());
    m.clips.push_back(Clip::create("wave", {slide(1, 2.0f)}).value());
    return m;
}

// A leg: hip at the origin, knee 1 below it, ankle 1 below the knee (straight);
// "idle" keeps it so.
Model legModel() {
    Model m;
    m.source = "leg";
    m.skeleton = Skeleton::create({{"hip", kNoParent, {}},
                                   {"knee", 0, {{0, -1, 0}, {}, {1, 1, 1}}},
                                   {"ankle", 1, {{0, -1, 0}, {}, {1, 1, 1}}}})
                     .value();
    Track hold;
    hold.target = 0;
    hold.times = {0.0f, 1.0f};
    hold.values = {0, 0, 0, 0, 0, 0};
    m.clips.push_back(Clip::create("idle", {hold}).value());
    return m;
}

Vec3 positionOf(const Mat4& m) { return {m.m[12], m.m[13], m.m[14]}; }

TEST(CharacterWorld, RootMotionIsTheClipsTravelAndThePosePlaysInPlace) {
    const Model m = travellingModel();
    auto c = Character::create(m, {.rootMotionJoint = "root"});
    ASSERT_TRUE(c.ok()) << c.message();
    ASSERT_TRUE(c->play("walk").ok());
    ASSERT_TRUE(c->update(0.25).ok());
    EXPECT_NEAR(c->rootMotion().translation.x, 0.25f, 1e-6f);  // 1 m/s for 0.25 s
    EXPECT_FLOAT_EQ(c->pose().joint(0).translation.x, 0.0f);   // held where walk starts
    // 0.25 s -> 1.15 s wraps: 0.75 m to the end, 0.15 m from the start.
    ASSERT_TRUE(c->update(0.9).ok());
    EXPECT_NEAR(c->rootMotion().translation.x, 0.9f, 1e-5f);
    // Backwards over the wrap: 0.15 s -> -0.35 s.
    ASSERT_TRUE(c->setSpeed(-1.0).ok());
    ASSERT_TRUE(c->update(0.5).ok());
    EXPECT_NEAR(c->rootMotion().translation.x, -0.5f, 1e-5f);
    EXPECT_FLOAT_EQ(c->pose().joint(0).translation.x, 0.0f);
}

TEST(CharacterWorld, RootMotionBlendsACrossfadeAndLayersByTheirWeights) {
    const Model m = travellingModel();
    auto c = Character::create(m, {.rootMotionJoint = "root"});
    ASSERT_TRUE(c.ok()) << c.message();
    ASSERT_TRUE(c->play("walk").ok());
    ASSERT_TRUE(c->update(0.25).ok());
    // A linear fade of 0.5 s, 0.1 s in: run weighs 0.2. walk went 0.1 m, run 0.4 m.
    ASSERT_TRUE(c->crossFade("run", 0.5).ok());
    ASSERT_TRUE(c->update(0.1).ok());
    EXPECT_NEAR(c->rootMotion().translation.x, 0.8f * 0.1f + 0.2f * 0.4f, 1e-5f);

    auto layered = Character::create(m, {.rootMotionJoint = "root"});
    ASSERT_TRUE(layered.ok()) << layered.message();
    ASSERT_TRUE(layered->play("walk").ok());
    ASSERT_TRUE(layered->playLayer(1, "run", LoopMode::Loop, LayerMode::Override, nullptr, 0.25f).ok());
    ASSERT_TRUE(layered->update(0.1).ok());
    EXPECT_NEAR(layered->rootMotion().translation.x, 0.75f * 0.1f + 0.25f * 0.4f, 1e-5f);
    EXPECT_FLOAT_EQ(layered->pose().joint(0).translation.x, 0.0f);
}

TEST(CharacterWorld, WithoutARootMotionJointThePoseTravels) {
    const Model m = travellingModel();
    auto c = Character::create(m);
    ASSERT_TRUE(c.ok()) << c.message();
    ASSERT_TRUE(c->play("walk").ok());
    ASSERT_TRUE(c->update(0.25).ok());
    EXPECT_EQ(c->rootMotion(), Transform{});
    EXPECT_FLOAT_EQ(c->pose().joint(0).translation.x, 0.25f);
}

TEST(CharacterWorld, AnUnknownRootMotionJointIsRefusedByName) {
    const Model m = travellingModel();
    auto c = Character::create(m, {.rootMotionJoint = "pelvis"});
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.faults()[0].where, "rootMotionJoint");
    EXPECT_NE(c.message().find("pelvis"), std::string::npos) << c.message();
}

// Under a Z-up armature (a quarter turn about -X: its +Z is the model's +Y) the ground
// is the armature's x-y plane: a walk along its +Y is a walk along the model's -Z.
TEST(CharacterWorld, RootMotionIsInTheModelsSpaceThroughTheNodesAboveTheRoot) {
    Model m;
    m.source = "z up";
    JointDesc armature{"armature", kNoParent, {}};
    armature.rest.rotation = fromAxisAngle({1.0f, 0.0f, 0.0f}, -1.57079633f);
    JointDesc hips{"hips", 0, {}};
    m.skeleton = Skeleton::create({armature, hips}).value();
    Track walk;  // the hips along the armature's +Y, 1 m/s
    walk.target = 1;
    walk.times = {0.0f, 1.0f};
    walk.values = {0, 0, 0, 0, 1, 0};
    m.clips.push_back(Clip::create("walk", {walk}).value());
    auto c = Character::create(
        m, {.rootMotionJoint = "hips", .rootMotionMask = {.x = true, .y = true, .z = false, .up = {0.0f, 0.0f, 1.0f}}});
    ASSERT_TRUE(c.ok()) << c.message();
    ASSERT_TRUE(c->play("walk").ok());
    ASSERT_TRUE(c->update(0.5).ok());
    EXPECT_NEAR(c->rootMotion().translation.x, 0.0f, 1e-6f);
    EXPECT_NEAR(c->rootMotion().translation.y, 0.0f, 1e-6f);
    EXPECT_NEAR(c->rootMotion().translation.z, -0.5f, 1e-6f);
    EXPECT_NEAR(c->pose().joint(1).translation.y, 0.0f, 1e-7f);  // held where walk starts
}

// A character moved from refuses what it is asked and hands out nothing, without a crash.
TEST(CharacterWorld, ACharacterMovedFromRefuses) {
    const Model m = travellingModel();
    auto c = Character::create(m, {.rootMotionJoint = "root"});
    ASSERT_TRUE(c.ok()) << c.message();
    ASSERT_TRUE(c->play("walk").ok());
    ASSERT_TRUE(c->update(0.25).ok());
    Character moved = std::move(*c);
    EXPECT_EQ(c->update(0.25).code, StatusCode::NotReady);
    EXPECT_EQ(c->play("walk").code, StatusCode::NotReady);
    EXPECT_EQ(c->playLayer(1, "run").code, StatusCode::NotReady);
    EXPECT_EQ(c->setIk({}).code, StatusCode::NotReady);
    EXPECT_EQ(c->setSpeed(1.0).code, StatusCode::NotReady);
    EXPECT_EQ(c->fadeLayer(1, 1.0f, 0.5).message(), "the character was moved from");
    EXPECT_EQ(c->setLayerSpeed(1, 2.0).message(), "the character was moved from");
    EXPECT_TRUE(c->events().empty());
    EXPECT_TRUE(c->ikOutcomes().empty());
    EXPECT_TRUE(c->palette().empty());
    EXPECT_TRUE(c->skinnedPositions(0).empty());
    EXPECT_FALSE(c->findClip("walk").has_value());
    EXPECT_EQ(c->stopLayer(1).code, StatusCode::NotReady);
    EXPECT_EQ(c->current().clip(), nullptr);
    EXPECT_EQ(c->layerWeight(0), 0.0f);
    ASSERT_TRUE(moved.update(0.25).ok());  // the one moved to goes on
    EXPECT_NEAR(moved.rootMotion().translation.x, 0.25f, 1e-6f);
}

// play() cuts to the clip from its start, with the loop mode it is given, also when
// that clip is the one playing (or the one a crossfade is bringing in).
TEST(CharacterWorld, PlayingTheClipThatPlaysRestartsItWithItsLoopMode) {
    const Model m = travellingModel();
    auto c = Character::create(m, {.rootMotionJoint = "root"});
    ASSERT_TRUE(c.ok()) << c.message();
    ASSERT_TRUE(c->play("walk").ok());
    ASSERT_TRUE(c->update(0.5).ok());
    ASSERT_TRUE(c->play("walk", LoopMode::Clamp).ok());
    EXPECT_EQ(c->current().mode(), LoopMode::Clamp);
    EXPECT_EQ(c->current().position(), 0.0);
    // A one-shot of 1 m over 1 s from its start: 2 s of updates travel 1 m and end once.
    float travelled = 0.0f;
    int ends = 0;
    for (int i = 0; i < 120; ++i) {
        ASSERT_TRUE(c->update(1.0 / 60.0).ok());
        travelled += c->rootMotion().translation.x;
        for (const CharacterEvent& e : c->events()) ends += e.kind == CharacterEvent::Kind::Finished ? 1 : 0;
    }
    EXPECT_NEAR(travelled, 1.0f, 1e-5f);
    EXPECT_EQ(ends, 1);
    // Mid-crossfade into walk, play("walk") cuts: nothing of run is left.
    ASSERT_TRUE(c->play("run").ok());
    ASSERT_TRUE(c->crossFade("walk", 1.0).ok());
    ASSERT_TRUE(c->update(0.25).ok());
    ASSERT_TRUE(c->play("walk").ok());
    ASSERT_TRUE(c->update(0.25).ok());
    EXPECT_NEAR(c->rootMotion().translation.x, 0.25f, 1e-6f);  // walk alone, 1 m/s
}

TEST(CharacterWorld, ALayerThatPlaysNothingTakesNoSpeedOrFade) {
    const Model m = travellingModel();
    auto c = Character::create(m);
    ASSERT_TRUE(c.ok()) << c.message();
    EXPECT_EQ(c->setLayerSpeed(1, 2.0).code, StatusCode::NotReady);
    EXPECT_EQ(c->fadeLayer(1, 1.0f, 0.5).code, StatusCode::NotReady);
    ASSERT_TRUE(c->playLayer(1, "wave").ok());
    EXPECT_TRUE(c->setLayerSpeed(1, 2.0).ok());
}

TEST(CharacterWorld, CurvesAreBlendedWithThePose) {
    const Model m = travellingModel();
    const std::vector<std::string> names{"footIk", "other"};
    auto c = Character::create(m, {.curves = names});
    ASSERT_TRUE(c.ok()) << c.message();
    ASSERT_TRUE(c->play("walk").ok());
    ASSERT_TRUE(c->update(0.25).ok());
    EXPECT_NEAR(*c->curve("footIk"), 0.25f, 1e-6f);
    EXPECT_EQ(c->curve("other"), 0.0f);  // no clip has it
    EXPECT_FALSE(c->curve("missing").has_value());
    // run (no footIk curve: 0) over walk at 0.5: walk's 0.5 halved.
    ASSERT_TRUE(c->playLayer(1, "run", LoopMode::Loop, LayerMode::Override, nullptr, 0.5f).ok());
    ASSERT_TRUE(c->update(0.25).ok());
    EXPECT_NEAR(*c->curve("footIk"), 0.25f, 1e-6f);

    const std::vector<std::string> twice{"footIk", "footIk"};
    EXPECT_FALSE(Character::create(m, {.curves = twice}).ok());
}

TEST(CharacterWorld, IkPutsTheAnkleOnTheTargetBendingTowardThePole) {
    const Model m = legModel();
    auto c = Character::create(m);
    ASSERT_TRUE(c.ok()) << c.message();
    ASSERT_TRUE(c->play("idle").ok());
    const Vec3 target{0.5f, -1.5f, 0.3f};  // 1.61 from the hip: reachable by 2
    const TwoBoneIk ik{0, 1, 2, target, Vec3{0.0f, -1.0f, 2.0f}};
    const IkTask tasks[] = {ik};
    ASSERT_TRUE(c->setIk(tasks).ok());
    ASSERT_TRUE(c->update(0.1).ok());
    const Vec3 hip = positionOf(c->model()[0]), knee = positionOf(c->model()[1]), ankle = positionOf(c->model()[2]);
    EXPECT_LT(length(ankle - target), 1e-4f * 2.0f);
    EXPECT_NEAR(length(knee - hip), 1.0f, 1e-5f);
    EXPECT_NEAR(length(ankle - knee), 1.0f, 1e-5f);
    // The knee leaves the hip-target line toward the pole's side of it.
    const Vec3 u = target * (1.0f / length(target));
    const Vec3 poleOff = ik.pole - u * dot(ik.pole, u), kneeOff = knee - u * dot(knee, u);
    EXPECT_GT(dot(poleOff, kneeOff), 0.0f);
    ASSERT_EQ(c->ikOutcomes().size(), 1u);
    EXPECT_TRUE(c->ikOutcomes()[0].reached);
    EXPECT_LT(c->ikOutcomes()[0].distance, 2e-4f);

    // Cleared: the leg hangs straight again.
    ASSERT_TRUE(c->setIk({}).ok());
    ASSERT_TRUE(c->update(0.1).ok());
    EXPECT_LT(length(positionOf(c->model()[2]) - Vec3{0, -2, 0}), 1e-6f);
    EXPECT_TRUE(c->ikOutcomes().empty());
}

TEST(CharacterWorld, IkRunsOnTheRestPoseToo) {
    const Model m = legModel();
    auto c = Character::create(m);
    ASSERT_TRUE(c.ok()) << c.message();
    const Vec3 target{0.0f, -1.2f, 0.8f};
    const IkTask tasks[] = {TwoBoneIk{0, 1, 2, target, Vec3{0.0f, 0.0f, 1.0f}}};
    ASSERT_TRUE(c->setIk(tasks).ok());
    ASSERT_TRUE(c->update(0.1).ok());  // nothing played
    EXPECT_LT(length(positionOf(c->model()[2]) - target), 2e-4f);
}

TEST(CharacterWorld, BadIkTasksAreRefusedAndTheOnesBeforeStay) {
    const Model m = legModel();
    auto c = Character::create(m);
    ASSERT_TRUE(c.ok()) << c.message();
    ASSERT_TRUE(c->play("idle").ok());
    const Vec3 target{0.5f, -1.5f, 0.3f};
    const IkTask good[] = {TwoBoneIk{0, 1, 2, target, Vec3{0.0f, -1.0f, 2.0f}}};
    ASSERT_TRUE(c->setIk(good).ok());
    const IkTask bad[] = {TwoBoneIk{0, 1, 2, target, {}}, TwoBoneIk{0, 1, 7, target, {}}};
    const Status s = c->setIk(bad);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.index, 1);  // the second task names a joint past the skeleton
    const IkTask far[] = {TwoBoneIk{0, 1, 2, Vec3{1e30f, 0.0f, 0.0f}, {}}};
    EXPECT_FALSE(c->setIk(far).ok());
    ASSERT_TRUE(c->update(0.1).ok());
    EXPECT_LT(length(positionOf(c->model()[2]) - target), 2e-4f);
}

}  // namespace
}  // namespace kinema
