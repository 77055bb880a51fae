// The scene: node roles, animator bindings (loop and clamp boundaries, interval
// choice, independent playback of a shared channel, only the driven property
// written), world transforms and the draw list. Expected values are closed forms.
#include "kinema/scene/scene.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace kinema {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

// A rotation of `degrees` about +Z, written out (not through the library).
Quat aboutZ(float degrees) {
    const float half = degrees * kPi / 360.0f;
    return Quat{0.0f, 0.0f, std::sin(half), std::cos(half)};
}

// The angle about +Z of a rotation that has no x/y part, in degrees.
float angleAboutZ(const Quat& q) {
    EXPECT_NEAR(q.x, 0.0f, 1e-6f);
    EXPECT_NEAR(q.y, 0.0f, 1e-6f);
    return 2.0f * std::atan2(q.z, q.w) * 180.0f / kPi;
}

Track rotationTrack(std::vector<float> times, const std::vector<float>& degrees) {
    Track t;
    t.path = TrackPath::Rotation;
    t.width = 4;
    t.times = std::move(times);
    for (const float d : degrees) {
        const Quat q = aboutZ(d);
        t.values.insert(t.values.end(), {q.x, q.y, q.z, q.w});
    }
    return t;
}

Track translationTrack(std::vector<float> times, const std::vector<Vec3>& values, std::uint32_t target = 0) {
    Track t;
    t.target = target;
    t.path = TrackPath::Translation;
    t.width = 3;
    t.times = std::move(times);
    for (const Vec3& v : values) t.values.insert(t.values.end(), {v.x, v.y, v.z});
    return t;
}

Clip makeClip(std::vector<Track> tracks) {
    auto clip = Clip::create("spin", std::move(tracks));
    EXPECT_TRUE(clip.ok()) << clip.message();
    return std::move(clip).value();
}

// A scene with one animation: a rotation about Z of 0, 90, 180 degrees at 0, 1, 2 s.
struct SpinScene {
    Scene scene;
    AnimationId spin;
    SpinScene() { spin = scene.addAnimation(makeClip({rotationTrack({0.0f, 1.0f, 2.0f}, {0.0f, 90.0f, 180.0f})})); }

    NodeId animator(double time, bool loop, const Transform& local = {}) {
        AnimatorRole role;
        role.bindings.push_back({spin, 0, TrackPath::Rotation, time, loop});
        auto node = scene.addNode({}, "animated", local, role);
        EXPECT_TRUE(node.ok()) << node.message();
        return *node;
    }
    double timeOf(NodeId node) const { return std::get<AnimatorRole>(scene.role(node)).bindings[0].time; }
};

// The loop and clamp policy on a channel ending at 2 s: start, elapsed, loop -> stored time.
TEST(SceneBindings, LoopWrapsIntoTheHalfOpenDurationAndAOneShotHoldsItsEnd) {
    struct Case {
        double start, elapsed;
        bool loop;
        double stored;
    };
    for (const Case c : {Case{0.0, 0.5, true, 0.5}, Case{0.0, 2.0, true, 0.0}, Case{0.0, 2.5, true, 0.5},
                         Case{0.0, 3.0, false, 2.0}, Case{1.5, 0.25, false, 1.75}, Case{1.5, 7.0, true, 0.5},
                         // Just before 0 is the lap's end, not its start.
                         Case{-1e-17, 0.0, true, std::nextafter(2.0, 0.0)}}) {
        SpinScene s;
        const NodeId node = s.animator(c.start, c.loop);
        ASSERT_TRUE(s.scene.advance(c.elapsed).ok());
        EXPECT_DOUBLE_EQ(s.timeOf(node), c.stored) << c.start << " + " << c.elapsed << (c.loop ? " looping" : "");
    }
}

// Three fixed steps of 0.8 s over the 2 s channel: the first interval, the second,
// and the loop boundary back into the first (2.4 s is 0.4 s).
TEST(SceneBindings, FixedStepsCrossBothIntervalsAndTheWrap) {
    SpinScene s;
    const NodeId node = s.animator(0.0, true);
    const double expectedTime[] = {0.8, 1.6, 0.4};
    const float expectedDegrees[] = {72.0f, 144.0f, 36.0f};  // 90 degrees per second
    for (int frame = 0; frame < 3; ++frame) {
        ASSERT_TRUE(s.scene.advance(0.8).ok());
        EXPECT_NEAR(s.timeOf(node), expectedTime[frame], 1e-12) << "frame " << frame;
        EXPECT_NEAR(angleAboutZ(s.scene.local(node).rotation), expectedDegrees[frame], 1e-4f) << "frame " << frame;
    }
}

TEST(SceneBindings, SamplesTheIntervalAroundTheTimeAndExactKeysUnchanged) {
    SpinScene s;
    const NodeId node = s.animator(0.0, false);
    // 1.4 s lies in [1, 2] at 0.4: 90 + 0.4 * 90 = 126 degrees.
    ASSERT_TRUE(s.scene.advance(1.4).ok());
    EXPECT_NEAR(angleAboutZ(s.scene.local(node).rotation), 126.0f, 1e-4f);
    // Exactly on the internal key: its stored value, bit for bit.
    ASSERT_TRUE(s.scene.setPlaybackTime(node, 1.0).ok());
    ASSERT_TRUE(s.scene.advance(0.0).ok());
    const Track& track = s.scene.animations()[0].tracks()[0];
    EXPECT_EQ(s.scene.local(node).rotation.z, track.values[4 + 2]);
    EXPECT_EQ(s.scene.local(node).rotation.w, track.values[4 + 3]);
    // Past the end of a one-shot: the last key.
    ASSERT_TRUE(s.scene.advance(5.0).ok());
    EXPECT_NEAR(angleAboutZ(s.scene.local(node).rotation), 180.0f, 1e-4f);
}

TEST(SceneBindings, BindingsSharingOneChannelAdvanceIndependently) {
    SpinScene s;
    const NodeId a = s.animator(0.0, true);
    const NodeId b = s.animator(0.5, true);
    const NodeId c = s.animator(0.0, false);
    ASSERT_TRUE(s.scene.advance(0.25).ok());
    EXPECT_NEAR(angleAboutZ(s.scene.local(a).rotation), 22.5f, 1e-4f);
    EXPECT_NEAR(angleAboutZ(s.scene.local(b).rotation), 67.5f, 1e-4f);
    ASSERT_TRUE(s.scene.setLooping(a, false).ok());
    ASSERT_TRUE(s.scene.advance(1.75).ok());  // a: 2.0 held; b: 2.5 -> 0.5; c: 2.0
    EXPECT_NEAR(angleAboutZ(s.scene.local(a).rotation), 180.0f, 1e-4f);
    EXPECT_NEAR(angleAboutZ(s.scene.local(b).rotation), 45.0f, 1e-4f);
    EXPECT_DOUBLE_EQ(s.timeOf(b), 0.5);
    EXPECT_DOUBLE_EQ(s.timeOf(c), 2.0);
    // A one-shot held at its end that starts looping stands at the lap's start at once,
    // within [0, duration) as every looping time is.
    ASSERT_TRUE(s.scene.setLooping(c, true).ok());
    EXPECT_DOUBLE_EQ(s.timeOf(c), 0.0);
    ASSERT_TRUE(s.scene.advance(0.25).ok());
    EXPECT_NEAR(angleAboutZ(s.scene.local(c).rotation), 22.5f, 1e-4f);
}

TEST(SceneBindings, OnlyTheDrivenPropertyIsWritten) {
    SpinScene s;
    Transform local;
    local.translation = {1.0f, 2.0f, 3.0f};
    local.scale = {2.0f, 2.0f, 2.0f};
    const NodeId node = s.animator(0.0, true, local);
    ASSERT_TRUE(s.scene.advance(0.5).ok());
    EXPECT_EQ(s.scene.local(node).translation.x, 1.0f);
    EXPECT_EQ(s.scene.local(node).translation.y, 2.0f);
    EXPECT_EQ(s.scene.local(node).translation.z, 3.0f);
    EXPECT_EQ(s.scene.local(node).scale.y, 2.0f);
    EXPECT_NEAR(angleAboutZ(s.scene.local(node).rotation), 45.0f, 1e-4f);
}

TEST(SceneBindings, BindingsOfOneAnimationWrapTogetherOverItsDuration) {
    Scene scene;
    // Translation keys end at 1 s, rotation keys at 2 s: the animation lasts 2 s.
    const AnimationId anim = scene.addAnimation(makeClip(
        {translationTrack({0.0f, 1.0f}, {{0, 0, 0}, {4, 0, 0}}), rotationTrack({0.0f, 2.0f}, {0.0f, 120.0f})}));
    AnimatorRole role;
    role.bindings.push_back({anim, 0, TrackPath::Translation, 0.0, true});
    role.bindings.push_back({anim, 1, TrackPath::Rotation, 0.0, true});
    const auto node = scene.addNode({}, "n", {}, role);
    ASSERT_TRUE(node.ok()) << node.message();
    ASSERT_TRUE(scene.advance(1.5).ok());
    // Both at 1.5 s: translation holds its last key, rotation is 3/4 of the way.
    EXPECT_EQ(scene.local(*node).translation.x, 4.0f);
    EXPECT_NEAR(angleAboutZ(scene.local(*node).rotation), 90.0f, 1e-4f);
    ASSERT_TRUE(scene.advance(1.0).ok());  // 2.5 -> 0.5: translation halfway again
    EXPECT_NEAR(scene.local(*node).translation.x, 2.0f, 1e-6f);
}

TEST(SceneBindings, BadElapsedTimeIsRefusedAndChangesNothing) {
    SpinScene s;
    const NodeId node = s.animator(0.5, true);
    ASSERT_TRUE(s.scene.advance(0.0).ok());
    const Quat before = s.scene.local(node).rotation;
    for (const double bad : {std::nan(""), double(INFINITY), -double(INFINITY), -0.25}) {
        const Status status = s.scene.advance(bad);
        EXPECT_FALSE(status.ok());
        EXPECT_EQ(status.code, std::isnan(bad) || std::isinf(bad) ? StatusCode::NotFinite : StatusCode::OutOfRange);
        EXPECT_DOUBLE_EQ(s.timeOf(node), 0.5);
        EXPECT_EQ(s.scene.local(node).rotation.z, before.z);
    }
}

TEST(SceneSetup, BindingsThatCannotWorkAreRefusedWithTheirLocation) {
    Scene scene;
    const AnimationId anim = scene.addAnimation(makeClip({translationTrack({0.0f, 1.0f}, {{0, 0, 0}, {1, 0, 0}})}));
    auto refused = [&](AnimatorRole role, const std::string& where, const std::string& words) {
        const auto node = scene.addNode({}, "n", {}, std::move(role));
        ASSERT_FALSE(node.ok());
        EXPECT_EQ(node.faults()[0].where, where) << node.message();
        EXPECT_NE(node.faults()[0].what.find(words), std::string::npos) << node.message();
    };
    refused(AnimatorRole{{{AnimationId{7}, 0, TrackPath::Translation, 0.0, true}}, {}, {}},
            "nodes/0/bindings/0/animation", "animation 7 is out of range: the scene has 1 animation");
    refused(AnimatorRole{{{AnimationId{}, 0, TrackPath::Translation, 0.0, true}}, {}, {}},
            "nodes/0/bindings/0/animation", "the invalid animation id is out of range: the scene has 1 animation");
    refused(AnimatorRole{{}, TweenPlayback{TweenId{}, 0.0, false}, {}}, "nodes/0/tween",
            "the invalid tween id is out of range: the scene has 0 tweens");
    refused(AnimatorRole{{{anim, 3, TrackPath::Translation, 0.0, true}}, {}, {}}, "nodes/0/bindings/0/channel",
            "channel 3 is out of range: animation 'spin' has 1 channel");
    refused(AnimatorRole{{{anim, 0, TrackPath::Rotation, 0.0, true}}, {}, {}}, "nodes/0/bindings/0/path",
            "drives rotation but channel 0 of animation 'spin' animates translation");
    refused(
        AnimatorRole{
            {{anim, 0, TrackPath::Translation, 0.0, true}, {anim, 0, TrackPath::Translation, 0.0, true}}, {}, {}},
        "nodes/0/bindings/1/path", "a second binding drives translation");
    refused(AnimatorRole{{{anim, 0, TrackPath::Translation, std::nan(""), true}}, {}, {}}, "nodes/0/bindings/0/time",
            "not finite");
    refused(AnimatorRole{{}, TweenPlayback{TweenId{0}, 0.0, false}, {}}, "nodes/0/tween",
            "is out of range: the scene has 0 tweens");
    EXPECT_EQ(scene.nodeCount(), 0u);  // nothing was added by a refused call
}

TEST(SceneSetup, NodesAndSkinsThatDoNotFitAreRefused) {
    Scene scene;
    const auto root = scene.addNode({}, "root", {});
    ASSERT_TRUE(root.ok());
    EXPECT_TRUE(scene.contains(*root));
    EXPECT_FALSE(scene.contains(scene.find("no such node")));
    EXPECT_FALSE(scene.contains(NodeId{1}));
    const auto unset = scene.addSkin({{NodeId{}}, {Mat4{}}});
    ASSERT_FALSE(unset.ok());
    EXPECT_EQ(unset.message(), "skins/0/joints/0: the invalid joint id is not a node of this scene (1 node)");
    auto orphan = scene.addNode(NodeId{5}, "orphan", {});
    ASSERT_FALSE(orphan.ok());
    EXPECT_EQ(orphan.faults()[0].where, "nodes/1/parent");
    Transform zero;
    zero.rotation = {0, 0, 0, 0};
    EXPECT_FALSE(scene.addNode({}, "zero", zero).ok());
    Transform nan;
    nan.translation.x = std::nanf("");
    EXPECT_FALSE(scene.addNode({}, "nan", nan).ok());
    auto skin = scene.addSkin({{*root, NodeId{9}}, {Mat4::identity()}});
    ASSERT_FALSE(skin.ok());
    EXPECT_EQ(skin.faults()[0].where, "skins/0/joints/1");
    EXPECT_EQ(skin.faults()[1].where, "skins/0/inverseBindMatrices");
    EXPECT_FALSE(scene.addNode(*root, "draw", {}, RenderableRole{RenderObjectId{0}, SkinId{0}, {}}).ok());
    EXPECT_FALSE(scene.addNode(*root, "draw", {}, RenderableRole{RenderObjectId{}, {}, {}}).ok());
    EXPECT_FALSE(scene.addNode(*root, "draw", {}, RenderableRole{RenderObjectId{0}, {}, *root}).ok());  // a group
    EXPECT_EQ(scene.nodeCount(), 1u);
}

TEST(SceneWorld, ChildrenComposeWithTheirParentsAcrossAForest) {
    Scene scene;
    Transform parentLocal;
    parentLocal.translation = {1.0f, 0.0f, 0.0f};
    parentLocal.rotation = aboutZ(90.0f);
    Transform childLocal;
    childLocal.translation = {1.0f, 0.0f, 0.0f};
    const NodeId parent = *scene.addNode({}, "parent", parentLocal);
    const NodeId child = *scene.addNode(parent, "child", childLocal);
    Transform otherLocal;
    otherLocal.translation = {0.0f, 0.0f, 5.0f};
    const NodeId other = *scene.addNode({}, "other", otherLocal);
    ASSERT_EQ(scene.roots().size(), 2u);
    EXPECT_EQ(scene.roots()[1], other);
    EXPECT_EQ(scene.find("child"), child);
    EXPECT_FALSE(scene.find("nobody").valid());
    scene.updateWorldTransforms();
    // (1, 0, 0) turned 90 degrees about Z is (0, 1, 0); plus the parent's (1, 0, 0).
    const Mat4& w = scene.world(child);
    EXPECT_NEAR(w.m[12], 1.0f, 1e-6f);
    EXPECT_NEAR(w.m[13], 1.0f, 1e-6f);
    EXPECT_NEAR(w.m[14], 0.0f, 1e-6f);
    EXPECT_EQ(scene.world(other).m[14], 5.0f);
}

TEST(SceneDrawList, RigidDrawsCarryWorldMatricesAndSkinnedDrawsShareOnePalette) {
    SpinScene s;
    Scene& scene = s.scene;
    const NodeId spinner = s.animator(0.0, true);
    Transform offset;
    offset.translation = {2.0f, 0.0f, 0.0f};
    const NodeId rigid = *scene.addNode(spinner, "rigid", offset, RenderableRole{RenderObjectId{3}, {}, {}});
    // A skin of two joints: the spinner and a joint 1 unit up the spinner's X.
    Transform up;
    up.translation = {1.0f, 0.0f, 0.0f};
    const NodeId joint = *scene.addNode(spinner, "joint", up);
    Mat4 inverseBind;  // the inverse of a translation by (1, 0, 0)
    inverseBind.m[12] = -1.0f;
    const SkinId skin = *scene.addSkin({{spinner, joint}, {Mat4::identity(), inverseBind}});
    const NodeId bodyA = *scene.addNode({}, "bodyA", {}, RenderableRole{RenderObjectId{0}, skin, {}});
    const NodeId bodyB = *scene.addNode({}, "bodyB", {}, RenderableRole{RenderObjectId{1}, skin, {}});

    ASSERT_TRUE(scene.advance(1.0).ok());  // the spinner at 90 degrees
    scene.updateWorldTransforms();
    DrawList list;
    scene.fillDrawList(list);
    ASSERT_EQ(list.items.size(), 3u);
    EXPECT_EQ(list.items[0].node, rigid);
    EXPECT_EQ(list.items[0].object, RenderObjectId{3});
    EXPECT_EQ(list.items[0].paletteCount, 0u);
    // The rigid child sits 2 units along the spinner's X, which points along +Y now.
    EXPECT_NEAR(list.items[0].world.m[12], 0.0f, 1e-6f);
    EXPECT_NEAR(list.items[0].world.m[13], 2.0f, 1e-6f);
    EXPECT_EQ(list.items[1].node, bodyA);
    EXPECT_EQ(list.items[2].node, bodyB);
    EXPECT_EQ(list.items[1].paletteCount, 2u);
    EXPECT_EQ(list.items[1].paletteOffset, list.items[2].paletteOffset);
    ASSERT_EQ(list.palettes.size(), 2u);  // written once for both draws
    // Joint 1's palette entry: world (a 90-degree turn about Z placed at (0, 1, 0))
    // times the inverse bind (-1, 0, 0): the point (1, 0, 0) of the bind pose goes to (0, 1, 0).
    const Mat4& p = list.palettes[list.items[1].paletteOffset + 1];
    EXPECT_NEAR(p.m[0] * 1.0f + p.m[12], 0.0f, 1e-6f);
    EXPECT_NEAR(p.m[1] * 1.0f + p.m[13], 1.0f, 1e-6f);
    EXPECT_EQ(list.items[1].world.m[0], 1.0f);  // skinned draws: identity world
    EXPECT_EQ(list.items[1].world.m[12], 0.0f);
}

TEST(SceneDrawList, MorphWeightsFollowTheirAnimatorAndRefilledListsKeepTheirCapacity) {
    Scene scene;
    Track weights;
    weights.path = TrackPath::Weights;
    weights.width = 2;
    weights.times = {0.0f, 1.0f};
    weights.values = {0.0f, 1.0f, 1.0f, 0.0f};
    const AnimationId anim = scene.addAnimation(makeClip({weights}));
    AnimatorRole role;
    role.bindings.push_back({anim, 0, TrackPath::Weights, 0.0, false});
    role.weights = {0.5f, 0.5f};
    const NodeId morph = *scene.addNode({}, "morph", {}, role);
    ASSERT_TRUE(scene.addNode(morph, "draw", {}, RenderableRole{RenderObjectId{0}, {}, morph}).ok());
    AnimatorRole wrongWidth;
    wrongWidth.bindings.push_back({anim, 0, TrackPath::Weights, 0.0, false});
    wrongWidth.weights = {0.0f, 0.0f, 0.0f};
    EXPECT_FALSE(scene.addNode({}, "bad", {}, wrongWidth).ok());

    ASSERT_TRUE(scene.advance(0.25).ok());
    scene.updateWorldTransforms();
    DrawList list;
    scene.fillDrawList(list);
    ASSERT_EQ(list.items.size(), 1u);
    ASSERT_EQ(list.items[0].weightCount, 2u);
    EXPECT_FLOAT_EQ(list.weights[list.items[0].weightOffset], 0.25f);
    EXPECT_FLOAT_EQ(list.weights[list.items[0].weightOffset + 1], 0.75f);
    const auto* itemsData = list.items.data();
    const auto* weightsData = list.weights.data();
    ASSERT_TRUE(scene.advance(0.25).ok());
    scene.fillDrawList(list);
    EXPECT_EQ(list.items.data(), itemsData);
    EXPECT_EQ(list.weights.data(), weightsData);
    EXPECT_FLOAT_EQ(list.weights[0], 0.5f);
}

TEST(SceneControl, SettersRefuseWhatTheyCannotApply) {
    SpinScene s;
    const NodeId group = *s.scene.addNode({}, "group", {});
    const NodeId node = s.animator(0.0, true);
    EXPECT_EQ(s.scene.setPlaybackTime(group, 1.0).code, StatusCode::WrongType);
    EXPECT_EQ(s.scene.setPlaybackTime(NodeId{42}, 1.0).code, StatusCode::OutOfRange);
    const Status nan = s.scene.setPlaybackTime(node, std::nan(""));
    EXPECT_EQ(nan.code, StatusCode::NotFinite);
    EXPECT_STREQ(nan.what, "playback time is not finite");
    ASSERT_TRUE(s.scene.setPlaybackTime(node, 5.0).ok());  // looping: 5 s is 1 s on a 2 s timeline
    EXPECT_DOUBLE_EQ(s.timeOf(node), 1.0);
    // Posed at once, without an advance: 1 s is the internal key, 90 degrees.
    EXPECT_NEAR(angleAboutZ(s.scene.local(node).rotation), 90.0f, 1e-4f);
    Transform bad;
    bad.scale.x = INFINITY;
    EXPECT_EQ(s.scene.setLocal(node, bad).code, StatusCode::NotFinite);
    Transform unturnable;
    unturnable.rotation = {0.0f, 0.0f, 0.0f, 0.0f};
    const Status zero = s.scene.setLocal(node, unturnable);
    EXPECT_EQ(zero.code, StatusCode::OutOfRange);
    EXPECT_STREQ(zero.what, "local rotation is zero");
    Transform moved;
    moved.translation = {0.0f, 3.0f, 0.0f};
    ASSERT_TRUE(s.scene.setLocal(group, moved).ok());
    s.scene.updateWorldTransforms();
    EXPECT_EQ(s.scene.world(group).m[13], 3.0f);
}

// A tween on an animator node: its keyed property follows the eased track, the
// playback loops over the tween's duration (its length when longer than the keys),
// and a property bound to an animation on the same node is written by both in
// order: bindings first, then the tween.
TEST(SceneTweens, ATweenDrivesItsNodeAndLoopsOverItsLength) {
    Scene scene;
    Tween tween;
    ASSERT_TRUE(tween.position.insert(0.0, Vec3{0.0f, 0.0f, 0.0f}).ok());
    ASSERT_TRUE(tween.position.insert(1.0, Vec3{4.0f, 0.0f, 0.0f}).ok());
    tween.position.setEasing(Easing::InQuad);
    ASSERT_TRUE(tween.setLength(2.0).ok());  // held at the last key from 1 s to 2 s
    const TweenId id = scene.addTween(tween);
    AnimatorRole role;
    role.tween = TweenPlayback{id, 0.0, true};
    Transform local;
    local.scale = {3.0f, 3.0f, 3.0f};
    const NodeId node = *scene.addNode({}, "tweened", local, role);
    ASSERT_TRUE(scene.advance(0.5).ok());
    EXPECT_FLOAT_EQ(scene.local(node).translation.x, 1.0f);  // inQuad(0.5) = 0.25 of 4
    EXPECT_EQ(scene.local(node).scale.x, 3.0f);              // not tweened: untouched
    ASSERT_TRUE(scene.advance(1.0).ok());                    // 1.5 s: held at the last key
    EXPECT_FLOAT_EQ(scene.local(node).translation.x, 4.0f);
    ASSERT_TRUE(scene.advance(1.0).ok());  // 2.5 s wraps to 0.5 s
    EXPECT_FLOAT_EQ(scene.local(node).translation.x, 1.0f);
    EXPECT_DOUBLE_EQ(std::get<AnimatorRole>(scene.role(node)).tween->time, 0.5);
}

// A tween's duration is a double: the loop point is that duration exactly, not its
// nearest float, so landing on it stores 0 and 10,000 laps end where they began.
TEST(SceneTweens, ALoopingTweenWrapsAtItsDurationExactlyLapAfterLap) {
    const auto loopingTween = [](Scene& scene, double end) {
        Tween tween;
        EXPECT_TRUE(tween.position.insert(0.0, Vec3{0.0f, 0.0f, 0.0f}).ok());
        EXPECT_TRUE(tween.position.insert(end, Vec3{1.0f, 0.0f, 0.0f}).ok());
        AnimatorRole role;
        role.tween = TweenPlayback{scene.addTween(tween), 0.0, true};
        return *scene.addNode({}, "tweened", Transform{}, role);
    };
    Scene scene;
    const NodeId node = loopingTween(scene, 0.1);
    const auto time = [&] { return std::get<AnimatorRole>(scene.role(node)).tween->time; };
    ASSERT_TRUE(scene.advance(0.05).ok());
    ASSERT_TRUE(scene.advance(0.05).ok());  // 0.05 + 0.05 is the double 0.1: the loop point
    EXPECT_EQ(time(), 0.0);
    EXPECT_EQ(scene.local(node).translation.x, 0.0f);
    ASSERT_TRUE(scene.advance(0.1).ok());
    EXPECT_EQ(time(), 0.0);

    Scene laps;
    const NodeId far = loopingTween(laps, 0.3);
    for (int k = 0; k < 30; ++k) ASSERT_TRUE(laps.advance(100.0).ok());
    // 3000 s is 10,000 laps of 0.3 s: back at the start, to the rounding of 30 sums
    // near 100 (about 1e-14 each), on either side of the wrap.
    const double t = std::get<AnimatorRole>(laps.role(far)).tween->time;
    EXPECT_LT(std::min(t, 0.3 - t), 1e-9) << t;
}

}  // namespace
}  // namespace kinema
