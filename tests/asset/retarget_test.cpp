// retargetClip and checkRetarget: a clip made for one skeleton plays on another.
// Expected values come from the source clip sampled by the reference sampler and
// composed here (local -> model), or from closed forms of the rigs built below.
#include "kinema/asset/retarget.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <tuple>
#include <vector>

#include "kinema/io/gltf.hpp"
#include "kinema/io/joint_map_json.hpp"
#include "kinema/runtime/sample.hpp"
#include "support/assets.hpp"
#include "support/track_builder.hpp"

namespace kinema {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

using test::makeTrack;

Quat axisAngle(Vec3 axis, float degrees) { return fromAxisAngle(axis, degrees * kPi / 180.0f); }

std::vector<float> quatValues(std::initializer_list<Quat> qs) {
    std::vector<float> v;
    for (const Quat& q : qs) v.insert(v.end(), {q.x, q.y, q.z, q.w});
    return v;
}

Skeleton skeleton(std::vector<JointDesc> joints) {
    auto s = Skeleton::create(std::move(joints));
    EXPECT_TRUE(s.ok()) << s.message();
    return std::move(s).value();
}

Clip clipFor(const Skeleton& s, std::vector<Track> tracks, std::vector<Marker> markers = {}) {
    const auto names = s.names();
    auto c = Clip::create("clip", std::move(tracks), std::move(markers),
                          std::make_shared<const std::vector<std::string>>(names.begin(), names.end()));
    EXPECT_TRUE(c.ok()) << c.message();
    return std::move(c).value();
}

std::vector<Transform> sampleLocal(const Clip& clip, const Skeleton& s, double time) {
    std::vector<Transform> local(s.restPose().begin(), s.restPose().end());
    std::vector<float> weights(clip.weightsNeeded());
    EXPECT_TRUE(reference::sample(clip, time, local, weights));
    return local;
}

std::vector<Mat4> modelOf(const Skeleton& s, const std::vector<Transform>& local) {
    std::vector<Mat4> m(local.size());
    for (std::size_t j = 0; j < local.size(); ++j) {
        const std::int32_t p = s.parents()[j];
        m[j] = p == kNoParent ? toMatrix(local[j]) : mulAffine(m[static_cast<std::size_t>(p)], toMatrix(local[j]));
    }
    return m;
}

std::vector<Quat> modelRotations(const Skeleton& s, const std::vector<Transform>& local) {
    std::vector<Quat> r(local.size());
    for (std::size_t j = 0; j < local.size(); ++j) {
        const std::int32_t p = s.parents()[j];
        r[j] = p == kNoParent ? local[j].rotation : r[static_cast<std::size_t>(p)] * local[j].rotation;
    }
    return r;
}

Vec3 position(const Mat4& m) { return {m.m[12], m.m[13], m.m[14]}; }

// 1 - |dot|: 0 for the same rotation (either sign).
float rotationGap(Quat a, Quat b) { return 1.0f - std::fabs(dot(normalize(a), normalize(b))); }

void expectNear(Vec3 a, Vec3 b, float tolerance, const std::string& what) {
    EXPECT_NEAR(a.x, b.x, tolerance) << what;
    EXPECT_NEAR(a.y, b.y, tolerance) << what;
    EXPECT_NEAR(a.z, b.z, tolerance) << what;
}

// Times on and between keys, over [-0.1, end + 0.1].
std::vector<double> probeTimes(double end) {
    std::vector<double> t;
    for (double x = -0.1; x <= end + 0.1; x += 1.0 / 60.0) t.push_back(x);
    for (double x = 0.0137; x < end; x += 0.0731) t.push_back(x);
    return t;
}

// Local poses of two clips on two skeletons whose joint j corresponds, at every probe
// time; records the largest difference found (translation, scale or 1 - |dot| of rotations).
void expectSameLocalPoses(const Clip& a, const Skeleton& sa, const Clip& b, const Skeleton& sb, float tolerance) {
    ASSERT_EQ(sa.jointCount(), sb.jointCount());
    float largest = 0.0f;
    for (const double t : probeTimes(a.duration())) {
        const auto la = sampleLocal(a, sa, t);
        const auto lb = sampleLocal(b, sb, t);
        for (std::size_t j = 0; j < la.size(); ++j) {
            const std::string at = "joint " + std::string(sa.name(j)) + " at t=" + std::to_string(t);
            expectNear(la[j].translation, lb[j].translation, tolerance, at);
            expectNear(la[j].scale, lb[j].scale, tolerance, at);
            EXPECT_LE(rotationGap(la[j].rotation, lb[j].rotation), tolerance) << at;
            for (const Vec3 d : {la[j].translation - lb[j].translation, la[j].scale - lb[j].scale}) {
                largest = std::max({largest, std::fabs(d.x), std::fabs(d.y), std::fabs(d.z)});
            }
            largest = std::max(largest, rotationGap(la[j].rotation, lb[j].rotation));
        }
    }
    ::testing::Test::RecordProperty("largest_difference", exactNumber(largest));
}

// hips -> spine; hips -> thigh -> shin -> foot, with rest rotations that are not identity.
std::vector<JointDesc> smallRig() {
    return {{"hips", kNoParent, {{0.0f, 1.0f, 0.0f}, axisAngle({0, 1, 0}, 10.0f), {1, 1, 1}}},
            {"spine", 0, {{0.0f, 0.2f, 0.0f}, axisAngle({1, 0, 0}, -5.0f), {1, 1, 1}}},
            {"thigh", 0, {{0.1f, 0.0f, 0.0f}, axisAngle({0, 0, 1}, 4.0f), {1, 1, 1}}},
            {"shin", 2, {{0.0f, -0.45f, 0.0f}, axisAngle({1, 0, 0}, 3.0f), {1, 1, 1}}},
            {"foot", 3, {{0.0f, -0.45f, 0.0f}, {}, {1, 1, 1}}}};
}

// Every interpolation: LINEAR hips translation and rotation, CUBICSPLINE spine,
// STEP thigh, LINEAR shin with other key times, a scale track on the foot.
std::vector<Track> smallRigTracks() {
    const Quat q0 = axisAngle({1, 0, 0}, 20.0f), q1 = axisAngle({0, 1, 0}, -35.0f), q2 = axisAngle({0, 0, 1}, 50.0f);
    return {
        makeTrack(0, TrackPath::Translation, {0.0f, 0.5f, 1.0f}, {0, 1, 0, 0.1f, 1.05f, 0.3f, 0.2f, 0.98f, 0.6f}),
        makeTrack(0, TrackPath::Rotation, {0.0f, 1.0f}, quatValues({axisAngle({0, 1, 0}, 10.0f), q1})),
        makeTrack(1, TrackPath::Rotation, {0.0f, 0.4f, 0.9f},
                  quatValues({{0.1f, 0, 0, 0.2f},
                              q0,
                              {0, 0.3f, 0, 0},
                              {0, 0, 0.2f, 0},
                              q1,
                              {0.1f, 0.1f, 0, 0},
                              {0, 0, 0, 0.1f},
                              q2,
                              {0, 0, 0, 0}}),
                  Interpolation::CubicSpline),
        makeTrack(2, TrackPath::Rotation, {0.0f, 0.3f, 0.7f}, quatValues({q0, q1, q2}), Interpolation::Step),
        makeTrack(3, TrackPath::Rotation, {0.1f, 0.35f, 0.6f, 0.8f},
                  quatValues({axisAngle({1, 0, 0}, 10.0f), axisAngle({1, 0, 0}, 80.0f), axisAngle({1, 0, 0}, 170.0f),
                              axisAngle({1, 0.2f, 0}, 40.0f)})),
        makeTrack(4, TrackPath::Scale, {0.0f, 1.0f}, {1, 1, 1, 1.2f, 0.9f, 1.1f}),
    };
}

TEST(Retarget, OntoTheSameSkeletonReproducesTheClip) {
    const Skeleton s = skeleton(smallRig());
    const Clip clip = clipFor(s, smallRigTracks(), {{"step", 0.25f}});
    RetargetOptions options;
    options.map.sourceReference = "hips";  // measured ratio: 1
    const auto out = retargetClip(clip, s, s, options);
    ASSERT_TRUE(out.ok()) << out.message();
    EXPECT_TRUE(out.warnings().empty());
    EXPECT_EQ(out->skeletonFingerprint(), s.fingerprint());
    ASSERT_EQ(out->markers().size(), 1u);
    EXPECT_EQ(out->markers()[0].name, "step");
    EXPECT_FLOAT_EQ(out->duration(), clip.duration());
    EXPECT_EQ(out->tracks().size(), clip.tracks().size());
    expectSameLocalPoses(clip, s, *out, s, 1e-5f);
}

// Joints without names (as many glTF files have) pair by index between skeletons of
// one hierarchy: the same rig reproduces its clip; another hierarchy is refused with
// a message that does not ask for a map of names.
TEST(Retarget, UnnamedJointsOfOneHierarchyPairByIndex) {
    std::vector<JointDesc> unnamed = smallRig();
    for (JointDesc& j : unnamed) j.name.clear();
    const Skeleton s = skeleton(unnamed);
    const Clip clip = clipFor(s, smallRigTracks());
    const auto out = retargetClip(clip, s, s, {});
    ASSERT_TRUE(out.ok()) << out.message();
    EXPECT_EQ(out->tracks().size(), clip.tracks().size());
    expectSameLocalPoses(clip, s, *out, s, 1e-5f);
    std::vector<JointDesc> other = unnamed;
    other[2].parent = 1;  // the thigh under the spine: another hierarchy
    const Skeleton t = skeleton(other);
    const auto refused = retargetClip(clip, s, t, {});
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.message().find("joints without names pair by index"), std::string::npos) << refused.message();
}

TEST(Retarget, OntoARenamedCopyThroughAMapReproducesTheClip) {
    const Skeleton s = skeleton(smallRig());
    std::vector<JointDesc> renamed = smallRig();
    RetargetOptions options;
    for (JointDesc& j : renamed) {
        options.map.joints.push_back({j.name, "rig:" + j.name});
        j.name = "rig:" + j.name;
    }
    const Skeleton t = skeleton(renamed);
    const Clip clip = clipFor(s, smallRigTracks());
    const auto out = retargetClip(clip, s, t, options);
    ASSERT_TRUE(out.ok()) << out.message();
    EXPECT_EQ(out->skeletonFingerprint(), t.fingerprint());
    expectSameLocalPoses(clip, s, *out, t, 1e-5f);
    // Not evaluable on the source any more: it carries the target's names.
    EXPECT_NE(out->skeletonFingerprint(), s.fingerprint());
}

// The target's thigh rests rotated 20 degrees and its shin compensates: the rest
// pose is the same in model space, the local frames are not. Every joint then
// moves exactly as the source's in model space.
TEST(Retarget, OtherLocalFramesGiveTheSameModelSpaceMotion) {
    const Skeleton s = skeleton(smallRig());
    std::vector<JointDesc> rig = smallRig();
    const Quat turn = axisAngle({1, 0, 0}, 20.0f);
    rig[2].rest.rotation = rig[2].rest.rotation * turn;
    rig[3].rest.translation = rotate(conjugate(turn), rig[3].rest.translation);
    rig[3].rest.rotation = conjugate(turn) * rig[3].rest.rotation;
    const Skeleton t = skeleton(rig);
    const Clip clip = clipFor(s, smallRigTracks());
    const auto out = retargetClip(clip, s, t);
    ASSERT_TRUE(out.ok()) << out.message();
    // The thigh's local keys differ from the source's, its model motion does not.
    const auto srcLocal = sampleLocal(clip, s, 0.5);
    const auto tgtLocal = sampleLocal(*out, t, 0.5);
    EXPECT_GT(rotationGap(srcLocal[2].rotation, tgtLocal[2].rotation), 1e-3f);
    for (const double time : probeTimes(clip.duration())) {
        const auto ms = modelOf(s, sampleLocal(clip, s, time));
        const auto mt = modelOf(t, sampleLocal(*out, t, time));
        for (std::size_t j = 0; j < ms.size(); ++j) {
            const std::string at = std::string(s.name(j)) + " at t=" + std::to_string(time);
            expectNear(position(ms[j]), position(mt[j]), 1e-5f, at);
            // The foot's axes (and so its bone directions) match too.
            for (const Vec3 axis : {Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}}) {
                if (j == 2) continue;  // the thigh's own axes differ by the rest turn, by design
                expectNear(transformDirection(ms[j], axis), transformDirection(mt[j], axis), 1e-5f, at);
            }
        }
    }
}

// An A-pose against a T-pose: the target's arm rests 45 degrees lower (not
// compensated). Each joint turns by the source's model-space change from its rest.
TEST(Retarget, AnotherRestPoseTurnsByTheSameModelSpaceChange) {
    const std::vector<JointDesc> tpose{{"chest", kNoParent, {{0, 1.4f, 0}, {}, {1, 1, 1}}},
                                       {"arm", 0, {{0.2f, 0, 0}, axisAngle({0, 0, 1}, -90.0f), {1, 1, 1}}},
                                       {"forearm", 1, {{0, 0.3f, 0}, {}, {1, 1, 1}}}};
    std::vector<JointDesc> apose = tpose;
    apose[1].rest.rotation = axisAngle({0, 0, 1}, -135.0f);
    const Skeleton s = skeleton(tpose);
    const Skeleton t = skeleton(apose);
    const Clip clip = clipFor(
        s,
        {makeTrack(
             1, TrackPath::Rotation, {0.0f, 1.0f},
             quatValues({axisAngle({0, 0, 1}, -90.0f), axisAngle({0, 1, 0}, 60.0f) * axisAngle({0, 0, 1}, -90.0f)})),
         makeTrack(2, TrackPath::Rotation, {0.0f, 1.0f}, quatValues({{}, axisAngle({0, 0, 1}, 70.0f)}))});
    const auto out = retargetClip(clip, s, t);
    ASSERT_TRUE(out.ok()) << out.message();
    const auto restS = modelRotations(s, {s.restPose().begin(), s.restPose().end()});
    const auto restT = modelRotations(t, {t.restPose().begin(), t.restPose().end()});
    for (const double time : probeTimes(1.0)) {
        const auto qs = modelRotations(s, sampleLocal(clip, s, time));
        const auto qt = modelRotations(t, sampleLocal(*out, t, time));
        for (std::size_t j = 0; j < 3; ++j) {
            EXPECT_LE(rotationGap(qs[j] * conjugate(restS[j]), qt[j] * conjugate(restT[j])), 1e-6f)
                << t.name(j) << " at t=" << time;
        }
    }
    // At t = 1 the upper arm has swung 60 degrees about +Y in model space on both rigs.
    const auto mt = modelOf(t, sampleLocal(*out, t, 1.0));
    const Vec3 armDir = transformDirection(mt[1], {0, 1, 0});  // the bone axis
    const Vec3 restDir = rotate(restT[1], {0, 1, 0});
    expectNear(armDir, rotate(axisAngle({0, 1, 0}, 60.0f), restDir), 1e-5f, "arm direction");
}

// ------------------------------------------------------------ the walking rig

// A walk cycle made in code: the hips travel forward (+Z) at kSpeed, each ankle is
// planted for 60 % of the 1 s cycle (held at height kAnkle and still on the ground
// while the hips move over it) and swings forward 10 cm high for the rest; the
// thigh and shin rotations come from two-bone IK in the leg's plane, keyed at 30 Hz.
constexpr float kThigh = 0.45f, kShin = 0.45f, kAnkle = 0.08f, kSpeed = 0.8f, kStance = 0.6f;
constexpr float kHipHeight = kThigh + kShin + kAnkle;

std::vector<JointDesc> walkRig(float legScale) {
    const float thigh = kThigh * legScale, shin = kShin * legScale;
    return {{"hips", kNoParent, {{0, thigh + shin + kAnkle, 0}, {}, {1, 1, 1}}},
            {"spine", 0, {{0, 0.25f, 0}, {}, {1, 1, 1}}},
            {"thigh_l", 0, {{0.1f, 0, 0}, {}, {1, 1, 1}}},
            {"shin_l", 2, {{0, -thigh, 0}, {}, {1, 1, 1}}},
            {"foot_l", 3, {{0, -shin, 0}, {}, {1, 1, 1}}},
            {"thigh_r", 0, {{-0.1f, 0, 0}, {}, {1, 1, 1}}},
            {"shin_r", 5, {{0, -thigh, 0}, {}, {1, 1, 1}}},
            {"foot_r", 6, {{0, -shin, 0}, {}, {1, 1, 1}}}};
}

float hipsHeightAt(double t) {
    return kHipHeight - 0.06f + 0.015f * static_cast<float>(std::cos(4.0 * std::numbers::pi * (t - 0.55)));
}

// Ankle (y, z) in model space at time t for the leg whose stance starts at `offset`.
std::pair<float, float> ankleAt(double t, double offset) {
    double phase = t - offset;
    phase -= std::floor(phase);
    const double start = t - phase;                           // when this stance began
    const double contact = kSpeed * (start + 0.5 * kStance);  // under the hips mid-stance
    if (phase < kStance) return {kAnkle, static_cast<float>(contact)};
    const double w = (phase - kStance) / (1.0 - kStance);
    const double smooth = w * w * (3.0 - 2.0 * w);
    return {kAnkle + 0.1f * static_cast<float>(std::sin(std::numbers::pi * w)),
            static_cast<float>(contact + kSpeed * smooth)};  // to the next contact, one cycle on
}

Clip walkClip(const Skeleton& s) {
    std::vector<float> times;
    std::vector<float> hips;
    std::vector<std::vector<float>> rotations(4);  // thigh_l, shin_l, thigh_r, shin_r
    std::vector<float> spine;
    for (int k = 0; k <= 30; ++k) {
        const double t = k / 30.0;
        times.push_back(static_cast<float>(t));
        const float hy = hipsHeightAt(t), hz = kSpeed * static_cast<float>(t);
        hips.insert(hips.end(), {0.0f, hy, hz});
        const Quat sq = axisAngle({0, 1, 0}, 6.0f * static_cast<float>(std::sin(2.0 * std::numbers::pi * t)));
        spine.insert(spine.end(), {sq.x, sq.y, sq.z, sq.w});
        for (int leg = 0; leg < 2; ++leg) {
            const auto [ay, az] = ankleAt(t, leg == 0 ? 0.25 : 0.75);
            const float dy = ay - hy, dz = az - hz;
            const float d = std::sqrt(dy * dy + dz * dz);
            // Rotation about +X by a turns the bone axis -Y to (0, -cos a, -sin a).
            const float toAnkle = std::atan2(-dz, -dy);
            const float hipAngle = std::acos((kThigh * kThigh + d * d - kShin * kShin) / (2.0f * kThigh * d));
            const float knee = std::acos((kThigh * kThigh + kShin * kShin - d * d) / (2.0f * kThigh * kShin));
            const Quat thigh = fromAxisAngle({1, 0, 0}, toAnkle - hipAngle);  // knee forward
            const Quat shin = fromAxisAngle({1, 0, 0}, kPi - knee);
            rotations[static_cast<std::size_t>(leg * 2)].insert(rotations[static_cast<std::size_t>(leg * 2)].end(),
                                                                {thigh.x, thigh.y, thigh.z, thigh.w});
            rotations[static_cast<std::size_t>(leg * 2 + 1)].insert(
                rotations[static_cast<std::size_t>(leg * 2 + 1)].end(), {shin.x, shin.y, shin.z, shin.w});
        }
    }
    return clipFor(
        s,
        {makeTrack(0, TrackPath::Translation, times, hips), makeTrack(1, TrackPath::Rotation, times, spine),
         makeTrack(2, TrackPath::Rotation, times, rotations[0]), makeTrack(3, TrackPath::Rotation, times, rotations[1]),
         makeTrack(5, TrackPath::Rotation, times, rotations[2]),
         makeTrack(6, TrackPath::Rotation, times, rotations[3])});
}

struct Contact {
    double down = -1.0;  // the first frame near the lowest height after the foot was up
    double up = -1.0;    // the last frame near the lowest height before it rises
};

// Contact instants of the ankle `foot` at 60 Hz over one cycle: heights within 10 %
// of the lift above the minimum count as planted.
Contact contactOf(const Clip& clip, const Skeleton& s, std::size_t foot) {
    std::vector<float> h;
    for (int f = 0; f <= 60; ++f) h.push_back(position(modelOf(s, sampleLocal(clip, s, f / 60.0))[foot]).y);
    const float lo = *std::min_element(h.begin(), h.end()), hi = *std::max_element(h.begin(), h.end());
    const float near = lo + 0.1f * (hi - lo);
    Contact c;
    for (std::size_t f = 1; f < h.size(); ++f) {
        if (h[f - 1] > near && h[f] <= near && c.down < 0.0) c.down = static_cast<double>(f) / 60.0;
        if (h[f - 1] <= near && h[f] > near && c.up < 0.0) c.up = static_cast<double>(f - 1) / 60.0;
    }
    return c;
}

// Which side of the hip-ankle line the knee is on, about the leg's +X axis.
float kneeSide(const std::vector<Mat4>& m, std::size_t thigh) {
    const Vec3 hip = position(m[thigh]), knee = position(m[thigh + 1]), ankle = position(m[thigh + 2]);
    return dot(cross(ankle - hip, knee - hip), Vec3{1, 0, 0});
}

TEST(RetargetWalk, LongerLegsKeepContactPhasesKneeBendAndScaleRootMotion) {
    const Skeleton s = skeleton(walkRig(1.0f));
    const Skeleton t = skeleton(walkRig(1.3f));
    const Clip walk = walkClip(s);
    RetargetOptions options;
    options.map.sourceReference = "hips";
    options.map.targetReference = "hips";
    const auto out = retargetClip(walk, s, t, options);
    ASSERT_TRUE(out.ok()) << out.message();

    // The ratio of rest hip heights, in closed form.
    const float ratio = (1.3f * (kThigh + kShin) + kAnkle) / kHipHeight;
    const auto measured = retargetTranslationScale(s, t, options);
    ASSERT_TRUE(measured.ok()) << measured.message();
    EXPECT_NEAR(*measured, ratio, 1e-6f);
    for (const double time : {0.0, 0.5, 0.7, 1.0}) {
        const Vec3 hips = sampleLocal(*out, t, time)[0].translation;
        expectNear(hips, Vec3{0.0f, hipsHeightAt(time), kSpeed * static_cast<float>(time)} * ratio, 1e-5f,
                   "hips at t=" + std::to_string(time));
    }
    // Root motion over the cycle: the source's 0.8 m, scaled.
    EXPECT_NEAR(sampleLocal(*out, t, 1.0)[0].translation.z - sampleLocal(*out, t, 0.0)[0].translation.z, kSpeed * ratio,
                1e-5f);

    // The source really plants its feet (the rig is what the test claims).
    const Contact srcL = contactOf(walk, s, 4), srcR = contactOf(walk, s, 7);
    EXPECT_NEAR(srcL.down, 0.25, 1.0 / 60.0);
    EXPECT_NEAR(srcL.up, 0.25 + kStance, 1.0 / 60.0);
    EXPECT_NEAR(srcR.down, 0.75, 1.0 / 60.0);
    const Contact tgtL = contactOf(*out, t, 4), tgtR = contactOf(*out, t, 7);
    for (const auto& [src, tgt, name] : {std::tuple{srcL, tgtL, "left"}, std::tuple{srcR, tgtR, "right"}}) {
        // Within one frame of 60 Hz (and a hair, for the division's rounding).
        EXPECT_LE(std::fabs(src.down - tgt.down), 1.0 / 60.0 + 1e-9) << name << " touchdown";
        EXPECT_LE(std::fabs(src.up - tgt.up), 1.0 / 60.0 + 1e-9) << name << " lift-off";
        RecordProperty(std::string(name) + "_touchdown_delta_ms", std::to_string(1000.0 * (tgt.down - src.down)));
        RecordProperty(std::string(name) + "_liftoff_delta_ms", std::to_string(1000.0 * (tgt.up - src.up)));
    }

    // Without IK a planted foot slides by (hip ratio - leg ratio) x the distance the
    // hips travel over it: the hips move by the hip ratio, the foot's offset from them
    // by the leg ratio. Between key times inside each stance (where the source's
    // ankle is exactly where the IK put it):
    for (const auto& [foot, from, to] : {std::tuple{std::size_t{4}, 0.3, 0.8}, std::tuple{std::size_t{7}, 0.8, 1.0}}) {
        const auto zAt = [&](double time, std::size_t joint) {
            return position(modelOf(t, sampleLocal(*out, t, time))[joint]).z;
        };
        const float slide = zAt(to, foot) - zAt(from, foot);
        EXPECT_NEAR(slide, (ratio - 1.3f) * kSpeed * static_cast<float>(to - from), 1e-5f) << "foot " << foot;
        RecordProperty("slide_mm_foot_" + std::to_string(foot), std::to_string(1000.0f * slide));
    }

    for (int f = 0; f <= 60; ++f) {
        const auto ms = modelOf(s, sampleLocal(walk, s, f / 60.0));
        const auto mt = modelOf(t, sampleLocal(*out, t, f / 60.0));
        for (const std::size_t thigh : {std::size_t{2}, std::size_t{5}}) {
            const float a = kneeSide(ms, thigh), b = kneeSide(mt, thigh);
            EXPECT_GT(std::fabs(a), 1e-4f) << "the source knee is bent at frame " << f;
            EXPECT_GT(a * b, 0.0f) << "knee " << thigh << " bends the other way at frame " << f;
            // The legs swing through the same angles: thigh and shin directions agree.
            for (const std::size_t j : {thigh, thigh + 1}) {
                expectNear(transformDirection(ms[j], {0, -1, 0}), transformDirection(mt[j], {0, -1, 0}), 1e-5f,
                           "bone " + std::to_string(j) + " at frame " + std::to_string(f));
            }
        }
    }
}

// The target lacks the source's "spine" between hips and chest: the chest's local
// rotation on the target is the product of two animated source rotations, so it is
// resampled (exact on the union of their key times, LINEAR in between).
TEST(Retarget, AJointTheTargetLacksFoldsIntoItsChild) {
    const Skeleton s = skeleton({{"hips", kNoParent, {{0, 1, 0}, {}, {1, 1, 1}}},
                                 {"spine", 0, {{0, 0.2f, 0}, axisAngle({1, 0, 0}, 10.0f), {1, 1, 1}}},
                                 {"chest", 1, {{0, 0.2f, 0}, {}, {1, 1, 1}}},
                                 {"head", 2, {{0, 0.3f, 0}, {}, {1, 1, 1}}}});
    const Skeleton t = skeleton({{"hips", kNoParent, {{0, 1, 0}, {}, {1, 1, 1}}},
                                 {"chest", 0, {{0, 0.4f, 0}, {}, {1, 1, 1}}},
                                 {"head", 1, {{0, 0.3f, 0}, {}, {1, 1, 1}}},
                                 {"tail", 0, {{0, -0.1f, -0.2f}, axisAngle({1, 0, 0}, 30.0f), {1, 1, 1}}}});
    const Clip clip = clipFor(
        s,
        {makeTrack(1, TrackPath::Rotation, {0.0f, 0.5f, 1.0f},
                   quatValues({axisAngle({1, 0, 0}, 10.0f), axisAngle({1, 0, 0}, 40.0f), axisAngle({0, 1, 0}, 30.0f)})),
         makeTrack(2, TrackPath::Rotation, {0.0f, 0.3f, 0.8f},
                   quatValues({{}, axisAngle({0, 0, 1}, 45.0f), axisAngle({0, 1, 0}, -60.0f)})),
         makeTrack(3, TrackPath::Rotation, {0.0f, 1.0f}, quatValues({{}, axisAngle({1, 0, 0}, -30.0f)}))});

    const auto report = checkRetarget(clip, s, t, {});
    ASSERT_TRUE(report.ok()) << report.message();
    EXPECT_EQ(report->unmappedSource, std::vector<std::string>{"spine"});
    EXPECT_EQ(report->unmappedTarget, std::vector<std::string>{"tail"});
    EXPECT_EQ(report->unmappedSourceJoints, std::vector<std::uint32_t>{1});
    EXPECT_EQ(report->unmappedTargetJoints, std::vector<std::uint32_t>{3});

    const auto out = retargetClip(clip, s, t);
    ASSERT_TRUE(out.ok()) << out.message();
    ASSERT_EQ(out.warnings().size(), 1u);
    EXPECT_EQ(describe(out.warnings()[0]),
              "tracks/0: joint \"spine\" drives no target joint; its rotation track is left out");
    const Track* chest = nullptr;
    for (const Track& tr : out->tracks()) {
        if (tr.target == 1) chest = &tr;
    }
    ASSERT_NE(chest, nullptr);
    EXPECT_EQ(chest->interpolation, Interpolation::Linear);
    for (const float key : {0.0f, 0.3f, 0.5f, 0.8f, 1.0f}) {
        EXPECT_TRUE(std::find(chest->times.begin(), chest->times.end(), key) != chest->times.end()) << key;
    }
    for (std::size_t k = 1; k < chest->times.size(); ++k) {
        EXPECT_LE(chest->times[k] - chest->times[k - 1], 1.0f / 60.0f + 1e-6f);
    }
    // The source's chest and head rest 10 degrees turned (under the spine), the target's do not.
    const auto restS = modelRotations(s, {s.restPose().begin(), s.restPose().end()});
    for (const double time : probeTimes(1.0)) {
        const auto qs = modelRotations(s, sampleLocal(clip, s, time));
        const auto lt = sampleLocal(*out, t, time);
        const auto qt = modelRotations(t, lt);
        const bool onKey =
            std::find(chest->times.begin(), chest->times.end(), static_cast<float>(time)) != chest->times.end();
        const float tolerance = onKey ? 1e-6f : 1e-4f;
        EXPECT_LE(rotationGap(qs[2] * conjugate(restS[2]), qt[1]), tolerance) << "chest at t=" << time;
        EXPECT_LE(rotationGap(qs[3] * conjugate(restS[3]), qt[2]), tolerance) << "head at t=" << time;
        EXPECT_EQ(lt[3], t.restPose()[3]) << "an undriven joint keeps its rest transform";
    }
}

// A STEP rotation folded with a LINEAR one: the resampled LINEAR track keeps the jump
// (a sample one float step before the STEP key) instead of smearing it.
TEST(Retarget, AFoldedStepKeyStaysAJump) {
    const Skeleton s = skeleton({{"hips", kNoParent, {}},
                                 {"spine", 0, {{0, 0.2f, 0}, {}, {1, 1, 1}}},
                                 {"chest", 1, {{0, 0.2f, 0}, {}, {1, 1, 1}}}});
    const Skeleton t = skeleton({{"hips", kNoParent, {}}, {"chest", 0, {{0, 0.4f, 0}, {}, {1, 1, 1}}}});
    const Clip clip =
        clipFor(s,
                {makeTrack(1, TrackPath::Rotation, {0.0f, 0.5f}, quatValues({{}, axisAngle({0, 0, 1}, 90.0f)}),
                           Interpolation::Step),
                 makeTrack(2, TrackPath::Rotation, {0.0f, 1.0f}, quatValues({{}, axisAngle({1, 0, 0}, 60.0f)}))});
    RetargetOptions options;
    options.sampleRate = 0.0f;  // key times only: 0, just before 0.5, 0.5, 1
    const auto out = retargetClip(clip, s, t, options);
    ASSERT_TRUE(out.ok()) << out.message();
    ASSERT_EQ(out->tracks().size(), 1u);
    const Track& chest = out->tracks()[0];
    EXPECT_EQ(chest.interpolation, Interpolation::Linear);
    EXPECT_EQ(chest.times, (std::vector<float>{0.0f, std::nextafter(0.5f, 0.0f), 0.5f, 1.0f}));
    for (const double time : {0.25, 0.499, 0.5, 0.75}) {
        const auto qs = modelRotations(s, sampleLocal(clip, s, time));
        const auto qt = modelRotations(t, sampleLocal(*out, t, time));
        EXPECT_LE(rotationGap(qs[2], qt[1]), 1e-6f) << "t=" << time;
    }
}

TEST(Retarget, TranslationsOfInnerJointsAreTheTargetsUnlessAllAreTransferred) {
    const Skeleton s = skeleton(walkRig(1.0f));
    const Skeleton t = skeleton(walkRig(1.3f));
    const Clip clip = clipFor(s,
                              {makeTrack(0, TrackPath::Translation, {0.0f, 1.0f}, {0, 1, 0, 0, 1, 2}),
                               makeTrack(3, TrackPath::Translation, {0.0f, 1.0f}, {0, -0.45f, 0, 0, -0.5f, 0.1f})});
    RetargetOptions options;
    options.translationScale = 2.0f;
    const auto root = retargetClip(clip, s, t, options);
    ASSERT_TRUE(root.ok()) << root.message();
    EXPECT_EQ(root->tracks().size(), 1u);
    expectNear(sampleLocal(*root, t, 1.0)[0].translation, {0, 2, 4}, 1e-6f, "hips");
    expectNear(sampleLocal(*root, t, 1.0)[3].translation, t.restPose()[3].translation, 0.0f, "shin");
    // The shin's moving translation is left out, and said so: it moves by |(0, -0.05, 0.1)|.
    ASSERT_EQ(root.warnings().size(), 1u);
    EXPECT_EQ(root.warnings()[0].where, "tracks/1");
    // The distance as printed, to a float's rounding (compilers may fuse its products).
    const std::string what = root.warnings()[0].what;
    const std::string head = "the translation of joint \"shin_l\" moves (up to ";
    const std::string tail =
        " from its first key) and is not carried: \"shin_l\" keeps its rest translation "
        "(TranslationTransfer::All carries it)";
    ASSERT_EQ(what.rfind(head, 0), 0u) << what;
    ASSERT_GT(what.size(), head.size() + tail.size()) << what;
    EXPECT_EQ(what.substr(what.size() - tail.size()), tail) << what;
    const float travel = std::stof(what.substr(head.size(), what.size() - head.size() - tail.size()));
    EXPECT_NEAR(travel, std::sqrt(0.05f * 0.05f + 0.1f * 0.1f), 1e-6f) << what;

    options.translations = TranslationTransfer::All;
    const auto all = retargetClip(clip, s, t, options);
    ASSERT_TRUE(all.ok()) << all.message();
    EXPECT_EQ(all->tracks().size(), 2u);
    expectNear(sampleLocal(*all, t, 1.0)[3].translation, {0, -1.0f, 0.2f}, 1e-6f, "shin");

    // Keys that differ by an exporter's rounding (2e-7 on a 0.45 offset) are no motion:
    // nothing to warn of.
    const Clip still = clipFor(s,
                               {makeTrack(0, TrackPath::Translation, {0.0f, 1.0f}, {0, 1, 0, 0, 1, 2}),
                                makeTrack(3, TrackPath::Translation, {0.0f, 1.0f}, {0, -0.45f, 0, 0, -0.45f, 2e-7f})});
    options.translations = TranslationTransfer::Root;
    const auto quiet = retargetClip(still, s, t, options);
    ASSERT_TRUE(quiet.ok()) << quiet.message();
    EXPECT_TRUE(quiet.warnings().empty()) << quiet.warnings()[0].what;
}

// Without a reference joint, the highest joint whose translation moves takes it, as
// the hips under still armature nodes do; translations above that hold still are
// carried too (they change nothing), those below are the target's.
TEST(Retarget, TheHighestMovingTranslationIsCarriedBelowStillOnes) {
    const Skeleton s = skeleton({{"armature", kNoParent, {{0, 0, 0}, {}, {1, 1, 1}}},
                                 {"hips", 0, {{0, 1, 0}, {}, {1, 1, 1}}},
                                 {"shin", 1, {{0, -0.5f, 0}, {}, {1, 1, 1}}}});
    const Clip clip = clipFor(s,
                              {makeTrack(0, TrackPath::Translation, {0.0f, 1.0f}, {0, 0, 0, 0, 0, 0}),
                               makeTrack(1, TrackPath::Translation, {0.0f, 1.0f}, {0, 1, 0, 0, 0.9f, 0.3f}),
                               makeTrack(2, TrackPath::Translation, {0.0f, 1.0f}, {0, -0.5f, 0, 0, -0.4f, 0})});
    const auto out = retargetClip(clip, s, s);
    ASSERT_TRUE(out.ok()) << out.message();
    EXPECT_EQ(out->tracks().size(), 2u);  // armature (still) and hips (moving)
    expectNear(sampleLocal(*out, s, 0.5)[1].translation, {0, 0.95f, 0.15f}, 1e-6f, "hips");
    expectNear(sampleLocal(*out, s, 0.5)[2].translation, {0, -0.5f, 0}, 0.0f, "shin");
    ASSERT_EQ(out.warnings().size(), 1u);
    EXPECT_EQ(out.warnings()[0].where, "tracks/2");
}

// A clip none of whose joints drives a target joint is refused: it would come out still.
TEST(Retarget, NoJointInCommonIsRefused) {
    const Skeleton s = skeleton({{"Hips", kNoParent, {}}, {"Spine", 0, {}}});
    const Skeleton t = skeleton({{"hips", kNoParent, {}}, {"spine", 0, {}}});
    const Clip clip = clipFor(s, {makeTrack(1, TrackPath::Translation, {0.0f}, {0, 1, 0})});
    EXPECT_EQ(retargetClip(clip, s, t).message(),
              "map/joints: no joint the clip animates has a namesake in the target skeleton: nothing would move (pair "
              "the joints in map.joints)");
    RetargetOptions options;
    options.map.joints = {{"Hips", "hips"}};
    EXPECT_EQ(retargetClip(clip, s, t, options).message(),
              "map/joints: no joint the clip animates is paired with a target joint: nothing would move");
    options.map.joints = {{"Spine", "spine"}};
    EXPECT_TRUE(retargetClip(clip, s, t, options).ok());
    EXPECT_TRUE(retargetClip(clipFor(s, {}), s, t).ok());  // nothing animated: nothing to refuse
}

// The up direction is a direction at any length a float holds.
TEST(Retarget, AnUpDirectionOfAnyFiniteLengthMeasuresTheSameRatio) {
    const Skeleton s = skeleton({{"Hips", kNoParent, {{0, 1, 0}, {}, {1, 1, 1}}}});
    const Skeleton t = skeleton({{"Hips", kNoParent, {{0, 1.5f, 0}, {}, {1, 1, 1}}}});
    RetargetOptions options;
    options.map.sourceReference = "Hips";
    options.map.targetReference = "Hips";
    for (const float length : {1.0f, 1e30f, 1e-30f, 1e-40f}) {
        options.up = {0.0f, length, 0.0f};
        const auto ratio = retargetTranslationScale(s, t, options);
        ASSERT_TRUE(ratio.ok()) << length << ": " << ratio.message();
        EXPECT_FLOAT_EQ(*ratio, 1.5f) << length;
    }
}

// A target whose hips hang under a parent flattened on one axis (scale 0) has no
// frame to carry the hips' translation into: refused at the track, never zeros.
TEST(Retarget, ATranslationUnderAFlattenedParentIsRefused) {
    const Skeleton s = skeleton({{"Armature", kNoParent, {}}, {"Hips", 0, {{0, 1, 0}, {}, {1, 1, 1}}}});
    JointDesc flat{"Armature", kNoParent, {}};
    flat.rest.scale = {0.0f, 1.0f, 1.0f};
    const Skeleton t = skeleton({flat, {"Hips", 0, {{0, 2, 0}, {}, {1, 1, 1}}}});
    const Clip clip = clipFor(s, {makeTrack(1, TrackPath::Translation, {0.0f, 1.0f}, {0, 1, 0, 0.5f, 1, 0.2f})});
    RetargetOptions options;
    options.translationScale = 2.0f;
    const auto r = retargetClip(clip, s, t, options);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.message(),
              "tracks/0: the translation of joint \"Hips\" cannot be carried to \"Hips\": its parent \"Armature\" "
              "rests with a scale of 0 on an axis");
}

// The same for a source parent flattened on an axis: the hips' offset it shows in
// model space has lost that axis, so carried it would not rest the target at its rest.
TEST(Retarget, ATranslationUnderAFlattenedSourceParentIsRefused) {
    JointDesc flat{"Armature", kNoParent, {}};
    flat.rest.scale = {0.0f, 0.0f, 0.0f};
    const Skeleton s = skeleton({flat, {"Hips", 0, {{0, 1, 0}, {}, {1, 1, 1}}}});
    const Skeleton t = skeleton({{"Armature", kNoParent, {}}, {"Hips", 0, {{0, 2, 0}, {}, {1, 1, 1}}}});
    const Clip clip = clipFor(s, {makeTrack(1, TrackPath::Translation, {0.0f, 1.0f}, {0, 1, 0, 1, 1, 0})});
    RetargetOptions options;
    options.translationScale = 1.0f;
    const auto r = retargetClip(clip, s, t, options);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.message(),
              "tracks/0: the translation of joint \"Hips\" cannot be carried to \"Hips\": its source parent "
              "\"Armature\" rests with a scale of 0 on an axis");
}

// A finite key that the ratio carries past the largest float is a fault of the
// source track, not of the clip being made.
TEST(Retarget, ATranslationScaledPastTheLargestFloatIsRefusedAtItsTrack) {
    const Skeleton s = skeleton({{"Armature", kNoParent, {}}, {"Hips", 0, {{0, 1, 0}, {}, {1, 1, 1}}}});
    const Skeleton t = skeleton({{"Armature", kNoParent, {}}, {"Hips", 0, {{0, 2, 0}, {}, {1, 1, 1}}}});
    const Clip clip = clipFor(s, {makeTrack(1, TrackPath::Translation, {0.0f, 1.0f}, {0, 1, 0, 3e38f, 1, 0})});
    RetargetOptions options;
    options.translationScale = 2.0f;
    const auto r = retargetClip(clip, s, t, options);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.message(),
              "tracks/0: the translation of joint \"Hips\", scaled by 2 and carried to \"Hips\", is past the "
              "largest float");
}

// CesiumMan onto its own skeleton with the defaults: the hips (under still armature
// nodes) keep their bob, every rotation comes back, and each moving translation left
// to the target's rest is named.
TEST(RetargetFile, CesiumManOntoItselfKeepsTheHipsMotion) {
    KINEMA_REQUIRE_ASSET(file, "CesiumMan/CesiumMan.glb");
    auto model = importGltfFile(file);
    ASSERT_TRUE(model.ok()) << model.message();
    const Skeleton& s = model->skeleton;
    const Clip& clip = model->clips[0];
    const auto out = retargetClip(clip, s, s);
    ASSERT_TRUE(out.ok()) << out.message();
    const auto hips = s.findJoint("Skeleton_torso_joint_1");
    ASSERT_TRUE(hips);
    for (const double time : {0.0, 0.4, 0.9, 1.3, 1.9}) {
        const auto a = sampleLocal(clip, s, time), b = sampleLocal(*out, s, time);
        expectNear(b[*hips].translation, a[*hips].translation, 1e-5f, "hips");
        for (std::size_t j = 0; j < s.jointCount(); ++j)
            EXPECT_LE(rotationGap(a[j].rotation, b[j].rotation), 1e-5f) << s.name(j) << " t=" << time;
    }
    for (const Fault& w : out.warnings()) {
        EXPECT_NE(w.what.find("is not carried"), std::string::npos) << describe(w);
        EXPECT_EQ(w.what.find("Skeleton_torso_joint_1"), std::string::npos) << describe(w);
    }
}

TEST(Retarget, MorphWeightsStayWhereTheJointKeepsItsIndex) {
    const Skeleton s = skeleton({{"body", kNoParent, {}}, {"face", 0, {}}});
    const Skeleton same = skeleton({{"body", kNoParent, {}}, {"face", 0, {}}});
    const Skeleton moved = skeleton({{"body", kNoParent, {}}, {"extra", 0, {}}, {"face", 0, {}}});
    Track w = makeTrack(1, TrackPath::Weights, {0.0f, 1.0f}, {0, 1, 1, 0});
    w.width = 2;
    w.weightOffset = 0;
    const Clip clip = clipFor(s, {w});
    const auto kept = retargetClip(clip, s, same);
    ASSERT_TRUE(kept.ok()) << kept.message();
    ASSERT_EQ(kept->tracks().size(), 1u);
    EXPECT_EQ(kept->tracks()[0].values, w.values);
    const auto dropped = retargetClip(clip, s, moved);
    ASSERT_TRUE(dropped.ok()) << dropped.message();
    EXPECT_TRUE(dropped->tracks().empty());
    ASSERT_EQ(dropped.warnings().size(), 1u);
    EXPECT_EQ(describe(dropped.warnings()[0]),
              "tracks/0: morph weights of joint \"face\" move to another joint index; the track is left out");
}

TEST(Retarget, FaultsNameTheEntry) {
    const Skeleton s = skeleton(smallRig());
    const Skeleton other = skeleton({{"a", kNoParent, {}}});
    const Clip clip = clipFor(s, smallRigTracks());
    RetargetOptions options;
    options.map.joints = {{"hips", "hips"}, {"nope", "spine"}, {"thigh", "hips"}, {"shin", "missing"}, {"", "foot"}};
    const auto bad = retargetClip(clip, s, s, options);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.message(),
              "map/joints/1/source: source joint \"nope\" is not in the source skeleton\n"
              "map/joints/2/target: target joint \"hips\" is driven already by map/joints/0 (\"hips\")\n"
              "map/joints/3/target: target joint \"missing\" is not in the target skeleton\n"
              "map/joints/4/source: the source joint name is empty");
    EXPECT_EQ(checkRetarget(clip, s, s, options.map).message(), bad.message());

    options.map.joints = {{"hips", "hips"}, {"hips", "spine"}};
    EXPECT_EQ(retargetClip(clip, s, s, options).message(),
              "map/joints/1/source: source joint \"hips\" is mapped already by map/joints/0");

    options.map.joints = {};
    options.map.sourceReference = "pelvis";
    EXPECT_EQ(retargetClip(clip, s, s, options).message(),
              "map/sourceReference: source joint \"pelvis\" is not in the source skeleton");
    EXPECT_EQ(checkRetarget(clip, s, s, options.map).message(),
              "map/sourceReference: source joint \"pelvis\" is not in the source skeleton");
    options.map.sourceReference.clear();
    options.map.targetReference = "pelvis";
    EXPECT_EQ(checkRetarget(clip, s, s, options.map).message(),
              "map/targetReference: target joint \"pelvis\" is not in the target skeleton");
    options.map.targetReference.clear();
    options.map.sourceReference = "hips";
    options.map.targetReference = "hips";
    options.up = {0, -1, 0};
    EXPECT_EQ(retargetTranslationScale(s, s, options).message(),
              "map/sourceReference: source joint \"hips\" rests at height -1; the translation ratio needs a "
              "height > 0 (or translationScale)\n"
              "map/targetReference: target joint \"hips\" rests at height -1; the translation ratio needs a "
              "height > 0 (or translationScale)");

    RetargetOptions numbers;
    numbers.translationScale = -1.0f;
    numbers.sampleRate = std::nanf("");
    numbers.up = {0, 0, 0};
    EXPECT_EQ(retargetClip(clip, s, s, numbers).message(),
              "translationScale: must be finite and >= 0 (0: measured), not -1\n"
              "up: must be a finite non-zero direction\n"
              "sampleRate: must be finite and >= 0 (0: key times only), not nan");
    // A rate finer than any use (here past float's resolution of time) is refused
    // before resampling, which would not end.
    RetargetOptions fine;
    fine.sampleRate = 1e30f;
    const std::string tooFine = retargetClip(clip, s, s, fine).message();
    EXPECT_EQ(tooFine.rfind("sampleRate: gives ", 0), 0u) << tooFine;
    EXPECT_NE(tooFine.find(" keys a track over the clip's "), std::string::npos) << tooFine;
    EXPECT_NE(tooFine.find("; at most 100000 (lower the rate)"), std::string::npos) << tooFine;

    // A clip made for another skeleton: bind it to the source first.
    const Clip foreign = clipFor(other, {makeTrack(0, TrackPath::Translation, {0.0f}, {0, 0, 0})});
    EXPECT_EQ(retargetClip(foreign, s, s).message(),
              "clip: clip \"clip\" was made for a skeleton with other joint names than the source: bindClip it to "
              "the source first");
}

TEST(Retarget, TheReportListsUnmappedJointsBeforeRetargeting) {
    const Skeleton s = skeleton(smallRig());
    const Skeleton t = skeleton({{"pelvis", kNoParent, {}}, {"spine", 0, {}}, {"leg", 0, {}}});
    const Clip clip = clipFor(s, smallRigTracks());
    RetargetMap map;
    map.joints = {{"hips", "pelvis"}, {"thigh", "leg"}};
    const auto report = checkRetarget(clip, s, t, map);
    ASSERT_TRUE(report.ok()) << report.message();
    EXPECT_EQ(report->unmappedSource, (std::vector<std::string>{"spine", "shin", "foot"}));
    EXPECT_EQ(report->unmappedTarget, std::vector<std::string>{"spine"});  // the map names only two pairs
    const auto byName = checkRetarget(clip, s, t, {});
    ASSERT_TRUE(byName.ok());
    EXPECT_EQ(byName->unmappedSource, (std::vector<std::string>{"hips", "thigh", "shin", "foot"}));
    EXPECT_EQ(byName->unmappedTarget, (std::vector<std::string>{"pelvis", "leg"}));
}

// ------------------------------------------------------------ a real file

std::string jsonString(std::string_view s) {
    std::string out("\"");
    for (const char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

TEST(RetargetFile, CesiumManOntoItsOwnRenamedSkeletonThroughAJsonMap) {
    KINEMA_REQUIRE_ASSET(file, "CesiumMan/CesiumMan.glb");
    auto model = importGltfFile(file);
    ASSERT_TRUE(model.ok()) << model.message();
    ASSERT_FALSE(model->clips.empty());
    const Skeleton& s = model->skeleton;
    const Clip& clip = model->clips[0];
    ASSERT_FALSE(clip.tracks().empty());

    // Every joint renamed "rig<i>"; the map names each joint with a unique name.
    std::vector<JointDesc> joints;
    std::string json = "{\"joints\": {";
    for (std::size_t j = 0; j < s.jointCount(); ++j) {
        joints.push_back({"rig" + std::to_string(j), s.parents()[j], s.restPose()[j]});
        if (j > 0) json += ", ";
        json += jsonString(s.name(j)) + ": " + jsonString(joints.back().name);
    }
    json += "}}";
    const Skeleton t = skeleton(joints);
    auto map = parseJointMapJson(json, "cesium.json");
    ASSERT_TRUE(map.ok()) << map.message();
    ASSERT_EQ(map->joints.size(), s.jointCount());
    RetargetOptions options;
    options.map = std::move(*map);
    options.translations = TranslationTransfer::All;  // every translation track, as authored

    const auto report = checkRetarget(clip, s, t, options.map);
    ASSERT_TRUE(report.ok()) << report.message();
    EXPECT_TRUE(report->unmappedSource.empty());
    EXPECT_TRUE(report->unmappedTarget.empty());

    const auto out = retargetClip(clip, s, t, options);
    ASSERT_TRUE(out.ok()) << out.message();
    EXPECT_TRUE(out.warnings().empty()) << describe(out.warnings());
    EXPECT_EQ(out->skeletonFingerprint(), t.fingerprint());
    expectSameLocalPoses(clip, s, *out, t, 1e-4f);
}

}  // namespace
}  // namespace kinema
