// PoseBatch with control inputs: bone adjustments before composition, an external
// pose blended after the layers and before the adjustments, and marker sweeps
// collected during the parallel evaluation and handed out in (instance, layer,
// crossing) order, the same at 1, 2 and 4 threads. Expected values are worked out
// by hand on a three-joint rig.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "batch/fixture.hpp"
#include "support/batch_maker.hpp"
#include "kinema/asset/clip.hpp"
#include "kinema/asset/skeleton.hpp"
#include "kinema/batch/pose_batch.hpp"
#include "kinema/play/player.hpp"

namespace {

using namespace kinema;
using kinema::test::BatchFixture;

const float kH = std::sqrt(0.5f);
const Quat kYaw90{0.0f, kH, 0.0f, kH};    // x -> -z, z -> x
const Quat kPitch90{kH, 0.0f, 0.0f, kH};  // y -> z, z -> -y
const Quat kRoll90{0.0f, 0.0f, kH, kH};   // x -> y, y -> -x
enum { kHips, kSpine, kHead };
enum { kStart, kA, kB };  // marker indices (markers are kept sorted by time)

// hips -> spine (1 up) -> head (1 up); a 1 s clip holding the hips yawed a quarter
// turn, with markers start@0, a@0.25, b@0.5.
struct Rig {
    Skeleton skeleton;
    Clip clip;
    PackedClip packed;
    Rig() {
        std::vector<JointDesc> joints(3);
        joints[0].name = "hips";
        joints[1] = {"spine", 0, {{0.0f, 1.0f, 0.0f}, {}, {1.0f, 1.0f, 1.0f}}};
        joints[2] = {"head", 1, {{0.0f, 1.0f, 0.0f}, {}, {1.0f, 1.0f, 1.0f}}};
        skeleton = Skeleton::create(joints).value();
        Track yaw;
        yaw.target = kHips;
        yaw.path = TrackPath::Rotation;
        yaw.width = 4;
        yaw.times = {0.0f, 1.0f};
        yaw.values = {kYaw90.x, kYaw90.y, kYaw90.z, kYaw90.w, kYaw90.x, kYaw90.y, kYaw90.z, kYaw90.w};
        clip = Clip::create("yawed", {yaw}, {{"b", 0.5f}, {"start", 0.0f}, {"a", 0.25f}}).value();
        packed = PackedClip(clip);
    }
    InstanceRequest playing(double time = 0.5) const {
        InstanceRequest in;
        in.layerCount = 1;
        in.layers[0] = {&packed, time};
        return in;
    }
};

Vec3 position(const Mat4& m) { return {m.m[12], m.m[13], m.m[14]}; }
Vec3 column(const Mat4& m, std::size_t c) { return {m.m[c * 4 + 0], m.m[c * 4 + 1], m.m[c * 4 + 2]}; }

void expectNear(Vec3 a, Vec3 b, const std::string& what) {
    EXPECT_NEAR(a.x, b.x, 2e-6f) << what;
    EXPECT_NEAR(a.y, b.y, 2e-6f) << what;
    EXPECT_NEAR(a.z, b.z, 2e-6f) << what;
}

bool sameBits(std::span<const Mat4> a, std::span<const Mat4> b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Mat4)) == 0;
}

TEST(BatchControl, AdjustmentsBendTheSpineInModelSpaceBeforeComposition) {
    // Instance 0 plays the clip: head straight up at (0, 2, 0). Instance 1 adds a
    // model-space bend (+90 degrees about X on the spine): the head swings to
    // (0, 1, 1).
    const Rig rig;
    PoseBatch batch = test::makeBatch(rig.skeleton, {}, 2);
    const BoneAdjustment bend{kSpine, kPitch90};
    std::vector<InstanceRequest> in{rig.playing(), rig.playing()};
    in[1].adjustments = {&bend, 1};
    ASSERT_TRUE(batch.evaluate(in).ok());
    expectNear(position(batch.model(0)[kHead]), {0.0f, 2.0f, 0.0f}, "plain head");
    expectNear(position(batch.model(1)[kHead]), {0.0f, 1.0f, 1.0f}, "bent head");
    expectNear(position(batch.model(1)[kSpine]), {0.0f, 1.0f, 0.0f}, "spine origin");
}

TEST(BatchControl, AdjustmentsApplyToTheLocalPoseWithoutModelMatrices) {
    // In the yawed hips' frame the model-space pitch is conj(yaw) * pitch * yaw: a
    // quarter turn about yaw^-1 (1, 0, 0) = (0, 0, 1), i.e. a 90 degree roll.
    const Rig rig;
    BatchOptions o;
    o.modelMatrices = false;
    PoseBatch batch = test::makeBatch(rig.skeleton, {}, 1, o);
    const BoneAdjustment bend{kSpine, kPitch90};
    std::vector<InstanceRequest> in{rig.playing()};
    in[0].adjustments = {&bend, 1};
    ASSERT_TRUE(batch.evaluate(in).ok());
    EXPECT_TRUE(batch.model(0).empty());
    const Quat q = batch.local(0).joint(kSpine).rotation;
    EXPECT_NEAR(std::fabs(dot(q, kRoll90)), 1.0f, 1e-6f);
}

// A clip destroyed and another built at its address (a pool, a reload) is not taken
// for the first: an instance's cursor binds afresh, even to a clip with more key
// timelines than it held, and samples it as a new batch does.
TEST(BatchControl, AClipRebuiltAtTheSameAddressIsBoundAfresh) {
    const Rig rig;
    const auto track = [](std::uint32_t joint, std::vector<float> times, Quat q) {
        Track t;
        t.target = joint;
        t.path = TrackPath::Rotation;
        t.width = 4;
        t.times = times;
        for (std::size_t k = 0; k < times.size(); ++k) {
            const Quat r = k % 2 == 0 ? Quat{} : q;
            t.values.insert(t.values.end(), {r.x, r.y, r.z, r.w});
        }
        return t;
    };
    const Clip three = Clip::create("three timelines",
                                    {track(kHips, {0.0f, 1.0f}, kYaw90), track(kSpine, {0.0f, 0.4f, 1.0f}, kPitch90),
                                     track(kHead, {0.0f, 0.2f, 0.6f, 1.0f}, kRoll90)})
                           .value();
    std::optional<PackedClip> slot;
    slot.emplace(rig.clip);  // one timeline
    const PackedClip* address = &*slot;
    PoseBatch batch = test::makeBatch(rig.skeleton, {}, 1);
    std::vector<InstanceRequest> in{rig.playing(0.5)};
    in[0].layers[0].clip = address;
    ASSERT_TRUE(batch.evaluate(in).ok());
    slot.reset();
    slot.emplace(three);  // three timelines, same address
    ASSERT_EQ(&*slot, address);
    in[0].layers[0].time = 0.3;
    ASSERT_TRUE(batch.evaluate(in).ok());

    const PackedClip fresh(three);
    PoseBatch other = test::makeBatch(rig.skeleton, {}, 1);
    std::vector<InstanceRequest> again{rig.playing(0.3)};
    again[0].layers[0].clip = &fresh;
    ASSERT_TRUE(other.evaluate(again).ok());
    for (std::uint32_t j = 0; j < 3; ++j) EXPECT_EQ(batch.local(0).joint(j), other.local(0).joint(j)) << j;
}

TEST(BatchControl, ExternalPoseBlendsAfterLayersAndBeforeAdjustments) {
    // The external pose has the hips unrotated at (2, 0, 0), spine and head 1 up.
    const Rig rig;
    SoaPose ragdoll(rig.skeleton.restPose(), {});
    ragdoll.setJoint(kHips, {{2.0f, 0.0f, 0.0f}, {}, {1.0f, 1.0f, 1.0f}});
    PoseBatch batch = test::makeBatch(rig.skeleton, {}, 3);
    const BoneAdjustment bend{kSpine, kPitch90};
    std::vector<InstanceRequest> in{rig.playing(), rig.playing(), rig.playing()};
    for (InstanceRequest& x : in) x.external = &ragdoll;
    in[0].externalWeight = 1.0f;  // fully external: head at (2, 2, 0)
    in[1].externalWeight = 0.5f;  // half: hips at (1, 0, 0) yawed 45 degrees, head at (1, 2, 0)
    in[2].externalWeight = 1.0f;  // fully external, then bent: spine (2, 1, 0), head (2, 1, 1)
    in[2].adjustments = {&bend, 1};
    ASSERT_TRUE(batch.evaluate(in).ok());
    expectNear(position(batch.model(0)[kHead]), {2.0f, 2.0f, 0.0f}, "weight 1 head");
    expectNear(column(batch.model(0)[kHips], 0), {1.0f, 0.0f, 0.0f}, "weight 1 hips x axis");
    expectNear(position(batch.model(1)[kHips]), {1.0f, 0.0f, 0.0f}, "weight 1/2 hips");
    expectNear(column(batch.model(1)[kHips], 0), {kH, 0.0f, -kH}, "weight 1/2 hips x axis");
    expectNear(position(batch.model(1)[kHead]), {1.0f, 2.0f, 0.0f}, "weight 1/2 head");
    // Had the adjustment come before the external pose, weight 1 would have
    // replaced the bend and left the head at (2, 2, 0).
    expectNear(position(batch.model(2)[kHead]), {2.0f, 1.0f, 1.0f}, "external then bend");
    // Weight 0 is the animation untouched.
    in[0].externalWeight = 0.0f;
    ASSERT_TRUE(batch.evaluate(in).ok());
    expectNear(column(batch.model(0)[kHips], 0), {0.0f, 0.0f, -1.0f}, "weight 0 hips x axis");
}

TEST(BatchControl, MarkersAreReportedByInstanceThenLayerThenCrossing) {
    const Rig rig;
    PoseBatch batch = test::makeBatch(rig.skeleton, {}, 6);
    std::vector<InstanceRequest> in(6, rig.playing());
    auto sweep = [&](std::size_t i, std::uint32_t l, PlaybackStep step, LoopMode mode) {
        in[i].layers[l].sweep = true;
        in[i].layers[l].step = step;
        in[i].layers[l].loop = mode;
    };
    sweep(0, 0, {0.0, 0.3, 0.3}, LoopMode::Loop);  // a
    sweep(1, 0, {0.9, 0.3, 0.4}, LoopMode::Loop);  // wraps: start, then a
    in[1].layerCount = 2;
    in[1].layers[1] = rig.playing().layers[0];
    in[1].layers[1].weight = 0.5f;
    sweep(1, 1, {0.4, 0.6, 0.2}, LoopMode::Loop);   // b
    in[2].layers[0].step = {0.0, 0.9, 0.9};         // no sweep asked for: nothing
    sweep(3, 0, {0.6, 0.2, -0.4}, LoopMode::Loop);  // backwards: b, then a
    sweep(4, 0, {0.5, 0.5, 0.0}, LoopMode::Clamp);  // no travel: nothing, not even b
    // Ping-pong phase 0.9 -> 1.6: clip time 0.9 -> 1 -> 0.4, over b on the way back.
    sweep(5, 0, {0.9, 1.6, 0.7}, LoopMode::PingPong);
    ASSERT_TRUE(batch.evaluate(in).ok());
    const PackedClip* c = &rig.packed;
    const std::vector<BatchEvent> expected{{0, 0, kA, c}, {1, 0, kStart, c}, {1, 0, kA, c}, {1, 1, kB, c},
                                           {3, 0, kB, c}, {3, 0, kA, c},     {5, 0, kB, c}};
    const auto events = batch.events();
    EXPECT_EQ(std::vector<BatchEvent>(events.begin(), events.end()), expected);
    // The next evaluation without sweeps reports nothing.
    ASSERT_TRUE(batch.evaluate(std::vector<InstanceRequest>(6, rig.playing())).ok());
    EXPECT_TRUE(batch.events().empty());
}

// Everything at once on the random fixture: layers, an external pose on some
// instances, adjustments on others, and marker sweeps driven by Players.
struct Scene {
    BatchFixture f{37};
    Clip markedA, markedB;
    PackedClip packedA, packedB;  // with the markers
    SoaPose external;
    std::vector<BoneAdjustment> adjustments;
    std::vector<Player> players;
    std::vector<InstanceRequest> in;
    explicit Scene(std::size_t n) : external(f.skeleton.restPose(), {}) {
        markedA = Clip::create("A", {f.clipA.tracks().begin(), f.clipA.tracks().end()},
                               {{"a0", 0.1f}, {"a1", 0.6f}, {"a2", 1.1f}})
                      .value();
        markedB =
            Clip::create("B", {f.clipB.tracks().begin(), f.clipB.tracks().end()}, {{"b0", 0.3f}, {"b1", 1.0f}}).value();
        packedA = PackedClip(markedA);
        packedB = PackedClip(markedB);
        for (std::size_t j = 0; j < f.skeleton.jointCount(); ++j) {
            external.setJoint(j, {{0.1f * static_cast<float>(j), 1.0f, 0.0f}, kRoll90, {1.0f, 1.0f, 1.0f}});
        }
        adjustments = {{3, kPitch90, {0.1f, 0.0f, 0.0f}}, {1, kYaw90}, {3, kRoll90}};
        adjustments[1].absolute = kPitch90;
        for (std::size_t i = 0; i < n; ++i) {
            const LoopMode mode = i % 3 == 0 ? LoopMode::PingPong : LoopMode::Loop;
            players.emplace_back(i % 2 == 0 ? markedA : markedB, mode);
            players.back().play();
            EXPECT_TRUE(players.back().setSpeed(i % 5 == 0 ? -1.5 : 1.0 + 0.1 * static_cast<double>(i % 7)));
        }
        in.resize(n);
    }
    // Advances every player by `dt` and fills the inputs for this frame.
    void frame(double dt) {
        for (std::size_t i = 0; i < in.size(); ++i) {
            PlaybackStep step;
            EXPECT_TRUE(players[i].update(dt, step).ok());
            InstanceRequest& x = in[i];
            x.layerCount = 2;
            const bool a = i % 2 == 0;
            x.layers[0] = {a ? &packedA : &packedB, players[i].position(), 1.0f, players[i].mode()};
            x.layers[0].sweep = true;
            x.layers[0].step = step;
            x.layers[1] = {&f.packedA, 0.2 + 0.01 * static_cast<double>(i), 0.4f};
            x.external = i % 4 == 1 ? &external : nullptr;
            x.externalWeight = 0.3f;
            x.adjustments =
                i % 3 == 2 ? std::span<const BoneAdjustment>(adjustments) : std::span<const BoneAdjustment>{};
        }
    }
};

TEST(BatchControl, ResultsAndEventsAreTheSameAtOneTwoAndFourThreads) {
    constexpr std::size_t kInstances = 61;
    Scene scene(kInstances);
    BatchOptions o1, o2, o4;
    o1.threads = 1;
    o2.threads = 2;
    o4.threads = 4;
    o4.grainSize = 1;
    for (BatchOptions* o : {&o1, &o2, &o4}) o->skins = {&scene.f.skin, 1};
    PoseBatch b1 = test::makeBatch(scene.f.skeleton, {}, kInstances, o1);
    PoseBatch b2 = test::makeBatch(scene.f.skeleton, {}, kInstances, o2);
    PoseBatch b4 = test::makeBatch(scene.f.skeleton, {}, kInstances, o4);
    std::size_t totalEvents = 0;
    for (int frame = 0; frame < 90; ++frame) {
        scene.frame(frame % 10 == 9 ? 0.7 : 1.0 / 30.0);  // a hitch now and then
        ASSERT_TRUE(b1.evaluate(scene.in).ok());
        ASSERT_TRUE(b2.evaluate(scene.in).ok());
        ASSERT_TRUE(b4.evaluate(scene.in).ok());
        for (std::size_t i = 0; i < kInstances; ++i) {
            ASSERT_TRUE(sameBits(b1.model(i), b2.model(i))) << "instance " << i << " frame " << frame;
            ASSERT_TRUE(sameBits(b1.model(i), b4.model(i))) << "instance " << i << " frame " << frame;
            ASSERT_TRUE(sameBits(b1.palette(i), b4.palette(i))) << "instance " << i << " frame " << frame;
        }
        const auto e1 = b1.events(), e2 = b2.events(), e4 = b4.events();
        ASSERT_TRUE(std::equal(e1.begin(), e1.end(), e2.begin(), e2.end())) << "frame " << frame;
        ASSERT_TRUE(std::equal(e1.begin(), e1.end(), e4.begin(), e4.end())) << "frame " << frame;
        for (std::size_t k = 1; k < e1.size(); ++k) {
            ASSERT_TRUE(e1[k - 1].instance < e1[k].instance ||
                        (e1[k - 1].instance == e1[k].instance && e1[k - 1].layer <= e1[k].layer));
        }
        totalEvents += e1.size();
    }
    EXPECT_GT(totalEvents, 100u);  // the sweeps really ran
}

// The job-system steps refuse a list, a range or a worker that does not fit the
// batch, and evaluate nothing: with scratch poses per worker and with local poses.
TEST(BatchControl, EvaluateRangeRefusesWhatDoesNotFit) {
    for (const bool localPoses : {false, true}) {
        const Rig rig;
        BatchOptions options;
        options.threads = 2;
        options.localPoses = localPoses;
        PoseBatch batch = test::makeBatch(rig.skeleton, {}, 3, options);
        std::vector<InstanceRequest> requests(3, rig.playing());
        ASSERT_TRUE(batch.check(requests).ok());
        ASSERT_EQ(batch.threadCount(), 2u);
        const std::vector<Mat4> before(batch.model(2).begin(), batch.model(2).end());
        EXPECT_EQ(batch.evaluateRange(std::span(requests).first(2), 0, 2).code, StatusCode::WrongCount);
        EXPECT_EQ(batch.evaluateRange(requests, 0, 4).code, StatusCode::OutOfRange);
        EXPECT_EQ(batch.evaluateRange(requests, 2, 1).code, StatusCode::OutOfRange);
        EXPECT_EQ(batch.evaluateRange(requests, 0, 3, 2).code, StatusCode::OutOfRange) << localPoses;
        EXPECT_EQ(batch.evaluateRange(requests, 0, 3, 99).code, StatusCode::OutOfRange) << localPoses;
        EXPECT_TRUE(sameBits(batch.model(2), before));
        EXPECT_TRUE(batch.evaluateRange(requests, 0, 3, 1).ok());
        EXPECT_TRUE(batch.evaluateRange(requests, 3, 3).ok());  // an empty range is fine
    }
}

// More threads than a batch may have are refused when it is made; up to the limit,
// the count asked for is the count kept (evaluateRange's workers may outnumber the
// machine's).
TEST(BatchControl, AThreadCountPastTheLimitIsRefused) {
    const Rig rig;
    for (const std::size_t threads : {kMaxBatchThreads + 1, std::size_t{100000}, std::size_t{4294967297}}) {
        BatchOptions options;
        options.threads = threads;
        auto batch = PoseBatch::create(rig.skeleton, {}, 1, options);
        ASSERT_FALSE(batch.ok()) << threads;
        EXPECT_EQ(batch.faults()[0].where, "options/threads");
        EXPECT_NE(batch.message().find(std::to_string(threads)), std::string::npos) << batch.message();
    }
    BatchOptions most;
    most.threads = 64;
    auto batch = PoseBatch::create(rig.skeleton, {}, 1, most);
    ASSERT_TRUE(batch.ok()) << batch.message();
    EXPECT_EQ(batch->threadCount(), 64u);
}

TEST(BatchControl, BadControlInputsAreRejectedWithNothingChanged) {
    const Rig rig;
    PoseBatch batch = test::makeBatch(rig.skeleton, {}, 3);
    std::vector<InstanceRequest> good(3, rig.playing());
    good[0].layers[0].sweep = true;
    good[0].layers[0].step = {0.0, 0.3, 0.3};
    ASSERT_TRUE(batch.evaluate(good).ok());
    ASSERT_EQ(batch.events().size(), 1u);
    const std::vector<Mat4> before(batch.model(2).begin(), batch.model(2).end());
    const std::vector<Mat4> before0(batch.model(0).begin(), batch.model(0).end());
    const BoneAdjustment bend{kSpine, kPitch90};

    const BoneAdjustment outside{9, kPitch90};
    const BoneAdjustment zero{kSpine, Quat{0, 0, 0, 0}};
    SoaPose wrongSize(2, 0), fits(rig.skeleton.restPose(), {}), notFinite(rig.skeleton.restPose(), {});
    Transform broken = notFinite.joint(1);
    broken.translation.y = std::nanf("");
    notFinite.setJoint(1, broken);
    SoaPose zeroRotation(rig.skeleton.restPose(), {});
    Transform unturnable = zeroRotation.joint(1);
    unturnable.rotation = {0, 0, 0, 0};  // no normalisation makes a rotation of it
    zeroRotation.setJoint(1, unturnable);
    JointMask wrongMask(5);
    using Mutation = std::function<void(InstanceRequest&)>;
    const std::vector<std::pair<std::string, Mutation>> cases{
        {"instance 2, index 0: bone adjustment: joint outside the skeleton",
         [&](InstanceRequest& x) {
             x.adjustments = {&outside, 1};
         }},
        {"instance 2, index 0: bone adjustment: rotation is zero or not finite",
         [&](InstanceRequest& x) {
             x.adjustments = {&zero, 1};
         }},
        {"instance 2: external pose does not fit the skeleton",
         [&](InstanceRequest& x) {
             x.external = &wrongSize;
             x.externalWeight = 0.5f;
         }},
        {"instance 2: external pose weight outside [0, 1]",
         [&](InstanceRequest& x) {
             x.external = &fits;
             x.externalWeight = 1.5f;
         }},
        {"instance 2: external pose mask has another joint count than the skeleton",
         [&](InstanceRequest& x) {
             x.external = &fits;
             x.externalMask = &wrongMask;
         }},
        {"instance 2, index 1: external pose holds a value that is not finite or a zero rotation",
         [&](InstanceRequest& x) {
             x.external = &notFinite;
             x.externalWeight = 0.5f;
         }},
        {"instance 2, index 1: external pose holds a value that is not finite or a zero rotation",
         [&](InstanceRequest& x) {
             x.external = &zeroRotation;
             x.externalWeight = 1.0f;
         }},
        {"instance 2, layer 0, index 1: reference pose holds a value that is not finite or a zero rotation",
         [&](InstanceRequest& x) {
             x.layers[0].reference = &notFinite;
             x.layers[0].mode = LayerMode::Additive;
         }},
        {"instance 2, layer 0: playback step is not finite",
         [&](InstanceRequest& x) {
             x.layers[0].sweep = true;
             x.layers[0].step = {0.0, std::nan(""), 0.1};
         }},
    };
    for (const auto& [expect, mutate] : cases) {
        std::vector<InstanceRequest> bad(3, rig.playing());
        bad[0].adjustments = {&bend, 1};  // a good change on an earlier instance, not applied either
        mutate(bad[2]);
        EXPECT_EQ(batch.evaluate(bad).message(), expect);
        EXPECT_TRUE(sameBits(batch.model(0), before0)) << expect;
        EXPECT_TRUE(sameBits(batch.model(2), before)) << expect;
        ASSERT_EQ(batch.events().size(), 1u) << expect;  // the last good evaluation's
        EXPECT_EQ(batch.events()[0], (BatchEvent{0, 0, kA, &rig.packed}));
    }
}

// A morph weight that is not finite is named as a morph weight, not as a joint past
// the skeleton's last.
TEST(BatchChecks, AMorphWeightNotFiniteIsNamedAsSuch) {
    const Skeleton skeleton = Skeleton::create({JointDesc{"root", kNoParent, {}}}).value();
    const std::vector<float> rest{0.5f};
    auto evaluator = InstanceEvaluator::create(skeleton, rest);
    ASSERT_TRUE(evaluator.ok()) << evaluator.message();
    const std::vector<float> notFinite{std::nanf("")};
    SoaPose external(skeleton.restPose(), notFinite);
    InstanceRequest request;
    request.external = &external;
    request.externalWeight = 0.5f;
    EXPECT_EQ(evaluator->check(request).message(), "external pose holds a morph weight that is not finite");
}

}  // namespace
