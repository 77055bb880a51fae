// The one-character facade: clips by name, crossfades, layer fades, events, and
// skinned vertices, checked against the scalar reference path and hand calculations.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "fixtures.hpp"
#include "kinema/batch/pose_batch.hpp"
#include "kinema/character/character.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/sample.hpp"
#include "kinema/runtime/skinning.hpp"
#include "support/assets.hpp"

namespace kinema {
namespace {

using test::slide;

// Two joints (root, arm); clips walk (root x 0 -> 1 in 1 s, a "step" marker at 0.5 s),
// run (root x 0 -> 4 in 1 s), wave (arm x 0 -> 2 in 1 s).
Model twoJointModel() {
    Model m;
    m.source = "two joints";
    m.skeleton = Skeleton::create({{"root", kNoParent, {}}, {"arm", 0, {}}}).value();
    m.clips.push_back(Clip::create("walk", {slide(0, 1.0f)}, {{"step", 0.5f}}).value());
    m.clips.push_back(Clip::create("run", {slide(0, 4.0f)}).value());
    m.clips.push_back(Clip::create("wave", {slide(1, 2.0f)}).value());
    return m;
}

// Before the first update a character, and a batch's instances, stand in the rest
// pose: model matrices are the rest transforms' products down the tree and palettes
// model x inverse bind, computed here by hand (not identities).
TEST(Character, BeforeTheFirstUpdateTheMatricesAreTheRestPoses) {
    Model m;
    m.skeleton = Skeleton::create({{"root", kNoParent, {{1, 0, 0}, {}, {1, 1, 1}}},
                                   {"arm", 0, {{0, 2, 0}, {0, 0, std::sqrt(0.5f), std::sqrt(0.5f)}, {1, 1, 1}}},
                                   {"hand", 1, {{3, 0, 0}, {}, {1, 1, 1}}}})
                     .value();
    Skin skin;
    skin.joints = {1, 2};
    Mat4 inverse;
    inverse.m[12] = -1.0f;  // a translation by -1 in x
    skin.inverseBindMatrices = {inverse, inverse};
    m.skins = {skin};
    m.clips.push_back(Clip::create("idle", {slide(0, 1.0f)}).value());
    auto character = Character::create(m);
    ASSERT_TRUE(character.ok()) << character.message();
    // hand: root (1,0,0) + arm (0,2,0) + the arm's quarter turn about z taking (3,0,0) to (0,3,0).
    const Vec3 hand{1, 5, 0};
    const auto at = [](const Mat4& t) { return Vec3{t.m[12], t.m[13], t.m[14]}; };
    EXPECT_LT(length(at(character->model()[2]) - hand), 1e-6f);
    EXPECT_LT(length(at(character->palette()[1]) - (hand + Vec3{0, -1, 0})), 1e-6f);  // rotated: -1 in x turns to -y
    auto batch = PoseBatch::create(m.skeleton, m.restWeights, 3, BatchOptions{.skins = m.skins});
    ASSERT_TRUE(batch.ok()) << batch.message();
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_LT(length(at(batch->model(i)[2]) - hand), 1e-6f) << i;
        EXPECT_LT(length(at(batch->palette(i)[1]) - (hand + Vec3{0, -1, 0})), 1e-6f) << i;
    }
}

TEST(Character, CrossfadeBlendsTheTwoClipsByTheFadeWeight) {
    const Model m = twoJointModel();
    auto c = Character::create(m);
    ASSERT_TRUE(c.ok()) << c.message();
    ASSERT_TRUE(c->play("walk").ok());
    ASSERT_TRUE(c->update(0.25).ok());
    EXPECT_FLOAT_EQ(c->pose().joint(0).translation.x, 0.25f);  // walk at 0.25 s: x = 0.25
    ASSERT_TRUE(c->crossFade("run", 0.5).ok());
    ASSERT_TRUE(c->setSpeed(1.5).ok());  // the run's speed
    ASSERT_TRUE(c->update(0.25).ok());
    // Walk at 0.5 s: x = 0.5; run at 0.25 * 1.5 = 0.375 s: x = 1.5; half way through the
    // linear fade: 0.5 + 0.5 * (1.5 - 0.5) = 1.0.
    EXPECT_NEAR(c->pose().joint(0).translation.x, 1.0f, 1e-6f);
    ASSERT_TRUE(c->update(0.25).ok());
    // Fade done: run alone at 0.75 s: x = 3.
    EXPECT_NEAR(c->pose().joint(0).translation.x, 3.0f, 1e-6f);
    EXPECT_NEAR(c->model()[1].m[12], 3.0f, 1e-6f);  // the arm follows its parent
}

TEST(Character, LayersFadeInAndOutOverTime) {
    const Model m = twoJointModel();
    auto c = Character::create(m);
    ASSERT_TRUE(c.ok());
    ASSERT_TRUE(c->play("walk").ok());
    ASSERT_TRUE(c->playLayer(1, "wave").ok());
    ASSERT_TRUE(c->fadeLayer(1, 1.0f, 0.4).ok());
    ASSERT_TRUE(c->update(0.1).ok());
    EXPECT_FLOAT_EQ(c->layerWeight(1), 0.25f);  // 0.1 s of a 0.4 s ramp
    // The arm: wave at 0.1 s is x = 0.2, over the walk's arm (rest, x = 0), at 0.25.
    EXPECT_NEAR(c->pose().joint(1).translation.x, 0.05f, 1e-6f);
    ASSERT_TRUE(c->update(0.5).ok());
    EXPECT_FLOAT_EQ(c->layerWeight(1), 1.0f);  // stops at its target
    ASSERT_TRUE(c->fadeLayer(1, 0.0f, 0.2).ok());
    ASSERT_TRUE(c->update(0.1).ok());
    EXPECT_FLOAT_EQ(c->layerWeight(1), 0.5f);
    EXPECT_EQ(c->playLayer(3, "wave").code, StatusCode::OutOfRange);
    EXPECT_EQ(c->playLayer(1, "swim").code, StatusCode::UnknownName);
    EXPECT_EQ(c->fadeLayer(2, 1.0f, 0.1).code, StatusCode::NotReady);
}

// A fade shorter than any rate can express is a cut: the weight is its target at
// once, not NaN (an infinite rate times the next update's 0 s).
TEST(Character, AFadeTooShortForItsRateIsACut) {
    const Model m = twoJointModel();
    auto c = Character::create(m);
    ASSERT_TRUE(c.ok());
    ASSERT_TRUE(c->play("walk").ok());
    ASSERT_TRUE(c->playLayer(1, "wave").ok());
    ASSERT_TRUE(c->fadeLayer(1, 1.0f, 1e-310).ok());
    EXPECT_EQ(c->layerWeight(1), 1.0f);
    ASSERT_TRUE(c->update(0.0).ok());
    EXPECT_EQ(c->layerWeight(1), 1.0f);
    ASSERT_TRUE(c->update(0.1).ok());
}

// An update whose travel overflows (speed 1e300 for 1e10 s) is refused and changes
// nothing: the clip stays where it was, and the character plays on at a sane speed.
TEST(Character, AnUpdateThatOverflowsIsRefusedAndChangesNothing) {
    const Model m = twoJointModel();
    auto c = Character::create(m);
    ASSERT_TRUE(c.ok());
    ASSERT_TRUE(c->play("walk").ok());
    ASSERT_TRUE(c->playLayer(1, "wave").ok());
    ASSERT_TRUE(c->update(0.25).ok());
    ASSERT_TRUE(c->setLayerSpeed(1, 1e300).ok());
    const Status refused = c->update(1e10);
    EXPECT_EQ(refused.code, StatusCode::OutOfRange);
    EXPECT_EQ(refused.layer, 1);
    EXPECT_DOUBLE_EQ(c->current().position(), 0.25);  // the base layer did not move either
    EXPECT_NEAR(c->pose().joint(0).translation.x, 0.25f, 1e-6f);
    ASSERT_TRUE(c->setLayerSpeed(1, 1.0).ok());
    ASSERT_TRUE(c->update(0.25).ok());
    EXPECT_DOUBLE_EQ(c->current().position(), 0.5);
}

// A mask made for another skeleton of the same joint count is refused when the layer
// starts, not at the next update; a mask of no skeleton in particular is taken.
TEST(Character, RefusesALayerMaskOfAnotherSkeleton) {
    const Model m = twoJointModel();
    auto c = Character::create(m);
    ASSERT_TRUE(c.ok());
    ASSERT_TRUE(c->play("walk").ok());
    const Skeleton other = Skeleton::create({{"hips", kNoParent, {}}, {"hand", 0, {}}}).value();
    const JointMask foreign(other), own(m.skeleton), anonymous(std::size_t{2}), small(std::size_t{1});
    EXPECT_EQ(c->playLayer(1, "wave", LoopMode::Loop, LayerMode::Override, &foreign).code, StatusCode::ForeignInput);
    EXPECT_EQ(c->playLayer(1, "wave", LoopMode::Loop, LayerMode::Override, &small).code, StatusCode::ForeignInput);
    EXPECT_TRUE(c->playLayer(1, "wave", LoopMode::Loop, LayerMode::Override, &own).ok());
    EXPECT_TRUE(c->playLayer(2, "wave", LoopMode::Loop, LayerMode::Override, &anonymous).ok());
    EXPECT_TRUE(c->update(0.1).ok());
}

TEST(Character, ReportsMarkersLoopsAndTheEndOfAOneShot) {
    const Model m = twoJointModel();
    auto c = Character::create(m);
    ASSERT_TRUE(c.ok());
    ASSERT_TRUE(c->play("walk").ok());
    ASSERT_TRUE(c->update(0.4).ok());
    EXPECT_TRUE(c->events().empty());
    ASSERT_TRUE(c->update(0.2).ok());  // over the step at 0.5 s
    ASSERT_EQ(c->events().size(), 1u);
    EXPECT_EQ(c->events()[0], (CharacterEvent{CharacterEvent::Kind::Marker, 0, 0, "step"}));
    ASSERT_TRUE(c->update(0.5).ok());  // 0.6 -> 1.1: wraps once
    ASSERT_EQ(c->events().size(), 1u);
    EXPECT_EQ(c->events()[0].kind, CharacterEvent::Kind::Looped);

    ASSERT_TRUE(c->play("run", LoopMode::Clamp).ok());
    ASSERT_TRUE(c->update(0.7).ok());
    EXPECT_TRUE(c->events().empty());
    ASSERT_TRUE(c->update(0.7).ok());  // reaches the end of the one-shot
    ASSERT_EQ(c->events().size(), 1u);
    EXPECT_EQ(c->events()[0], (CharacterEvent{CharacterEvent::Kind::Finished, 0, 1, {}}));
    ASSERT_TRUE(c->update(0.7).ok());  // resting at its end: nothing more
    EXPECT_TRUE(c->events().empty());

    EXPECT_EQ(c->play("swim").code, StatusCode::UnknownName);
    EXPECT_FALSE(c->update(-1.0).ok());
}

// Ticks rarely add up to a clip's length exactly: ten steps of 0.1 s come to
// 0.9999999999999999 s, 120 of 1/60 s to 1.9999999999999978 s. The lap and the
// one-shot still end on the tick that reaches them, not one tick later.
TEST(Character, LapsAndOneShotsEndOnTheTickThatReachesThem) {
    Model m = twoJointModel();
    m.clips.push_back(Clip::create("stroll", {slide(0, 1.0f, 2.0f)}).value());
    for (const auto& [clip, tick, ticks] : {std::tuple{"walk", 0.1, 10}, std::tuple{"stroll", 1.0 / 60.0, 120}}) {
        for (const LoopMode mode : {LoopMode::Loop, LoopMode::Clamp}) {
            auto c = Character::create(m);
            ASSERT_TRUE(c.ok());
            ASSERT_TRUE(c->play(clip, mode).ok());
            for (int k = 1; k <= ticks; ++k) {
                ASSERT_TRUE(c->update(tick).ok());
                const bool ended = !c->events().empty() && c->events().back().kind != CharacterEvent::Kind::Marker;
                EXPECT_EQ(ended, k == ticks) << clip << " tick " << k;
            }
            ASSERT_TRUE(c->update(tick).ok());
            const bool again = !c->events().empty() && c->events().back().kind != CharacterEvent::Kind::Marker;
            EXPECT_FALSE(again) << clip << ": one event per end";
            if (mode == LoopMode::Clamp) {
                EXPECT_FALSE(c->current().playing());
            }
        }
    }
}

// A one-shot that is at its end before it moves - a clip of no length, or one played
// backwards from its start - finishes on its first update, and says so once.
TEST(Character, AOneShotAlreadyAtItsEndFinishesOnItsFirstUpdate) {
    Model m = twoJointModel();
    Track still;
    still.times = {0.0f};
    still.values = {0.5f, 0.0f, 0.0f};
    m.clips.push_back(Clip::create("pose", {still}).value());
    auto c = Character::create(m);
    ASSERT_TRUE(c.ok());
    ASSERT_TRUE(c->play("pose", LoopMode::Clamp).ok());
    ASSERT_TRUE(c->update(0.1).ok());
    ASSERT_EQ(c->events().size(), 1u);
    EXPECT_EQ(c->events()[0], (CharacterEvent{CharacterEvent::Kind::Finished, 0, 3, {}}));
    ASSERT_TRUE(c->update(0.1).ok());
    EXPECT_TRUE(c->events().empty());

    ASSERT_TRUE(c->play("run", LoopMode::Clamp).ok());
    ASSERT_TRUE(c->setSpeed(-1.0).ok());
    ASSERT_TRUE(c->update(0.5).ok());
    ASSERT_EQ(c->events().size(), 1u);
    EXPECT_EQ(c->events()[0], (CharacterEvent{CharacterEvent::Kind::Finished, 0, 1, {}}));
    ASSERT_TRUE(c->update(0.5).ok());
    EXPECT_TRUE(c->events().empty());
}

TEST(Character, SkinnedVerticesMatchTheReferencePath) {
    KINEMA_REQUIRE_ASSET(file, "CesiumMan/CesiumMan.glb");
    const auto model = importGltfFile(file);
    ASSERT_TRUE(model.ok()) << model.message();
    auto man = Character::create(*model);
    ASSERT_TRUE(man.ok()) << man.message();
    ASSERT_TRUE(man->play(model->clips[0].name()).ok());
    for (int frame = 0; frame < 37; ++frame) ASSERT_TRUE(man->update(1.0 / 60.0).ok());
    const auto positions = man->skinnedPositions(0);
    const auto normals = man->skinnedNormals(0);

    // The reference: sample at 37/60 s, compose, palette, skin, all scalar.
    std::vector<Transform> local(model->skeleton.restPose().begin(), model->skeleton.restPose().end());
    std::vector<float> weights(model->restWeights);
    ASSERT_TRUE(reference::sample(model->clips[0], 37.0 / 60.0, local, weights));
    std::vector<Mat4> composed(local.size());
    reference::localToModel(model->skeleton.parents(), local, composed);
    const MeshInstance& mi = model->meshInstances[0];
    const Skin& skin = model->skins[static_cast<std::size_t>(mi.skin)];
    std::vector<Mat4> palette(skin.joints.size());
    reference::skinPalette(skin, composed, palette);
    const MeshPrimitive& prim = model->meshes[mi.mesh].primitives[0];
    std::vector<Vec3> wantP(prim.positions.size()), wantN(prim.normals.size());
    reference::skinVertices(prim, palette, prim.positions, prim.normals, wantP, wantN);

    ASSERT_EQ(positions.size(), wantP.size());
    ASSERT_EQ(normals.size(), wantN.size());
    float worst = 0.0f, worstN = 0.0f;
    for (std::size_t v = 0; v < wantP.size(); ++v) {
        worst = std::max({worst, std::fabs(positions[v].x - wantP[v].x), std::fabs(positions[v].y - wantP[v].y),
                          std::fabs(positions[v].z - wantP[v].z)});
        worstN = std::max({worstN, std::fabs(normals[v].x - wantN[v].x), std::fabs(normals[v].y - wantN[v].y),
                           std::fabs(normals[v].z - wantN[v].z)});
    }
    EXPECT_LT(worst, 1e-4f);
    EXPECT_LT(worstN, 1e-3f);
    EXPECT_TRUE(man->skinnedPositions(99).empty());
}

}  // namespace
}  // namespace kinema
