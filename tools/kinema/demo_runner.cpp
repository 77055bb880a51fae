#include "demo_runner.hpp"

#include <cmath>
#include <numbers>

#include "kinema/runtime/pose.hpp"

namespace kinema::cli {

namespace {

constexpr int kKeys = 25;  // keys per track, evenly spaced over the clip

// A looping rotation about `axis`: amplitude * sin(2 pi t / seconds + phase).
Track rotationTrack(std::uint32_t joint, float seconds, Vec3 axis, float amplitude, float phase) {
    Track t;
    t.target = joint;
    t.path = TrackPath::Rotation;
    t.width = 4;
    for (int k = 0; k < kKeys; ++k) {
        const float time = seconds * float(k) / float(kKeys - 1);
        const float angle = amplitude * std::sin(2.0f * std::numbers::pi_v<float> * time / seconds + phase);
        const Quat q = fromAxisAngle(axis, angle);
        t.times.push_back(time);
        t.values.insert(t.values.end(), {q.x, q.y, q.z, q.w});
    }
    return t;
}

// The hips at height 1 - depth * cos(2 pi bobs t / seconds).
Track bobTrack(std::uint32_t hips, float seconds, float depth, float bobs) {
    Track t;
    t.target = hips;
    t.path = TrackPath::Translation;
    t.width = 3;
    for (int k = 0; k < kKeys; ++k) {
        const float time = seconds * float(k) / float(kKeys - 1);
        const float y = 1.0f - depth * std::cos(2.0f * std::numbers::pi_v<float> * bobs * time / seconds);
        t.times.push_back(time);
        t.values.insert(t.values.end(), {0.0f, y, 0.0f});
    }
    return t;
}

}  // namespace

Result<Model> buildRunner() {
    enum : std::uint32_t { Hips, Spine, Head, LeftLeg, LeftFoot, RightLeg, RightFoot, JointCount };
    std::vector<JointDesc> joints(JointCount);
    auto joint = [&](std::uint32_t i, const char* name, std::int32_t parent, Vec3 t) {
        joints[i].name = name;
        joints[i].parent = parent;
        joints[i].rest.translation = t;
    };
    joint(Hips, "hips", kNoParent, {0.0f, 1.0f, 0.0f});
    joint(Spine, "spine", Hips, {0.0f, 0.25f, 0.0f});
    joint(Head, "head", Spine, {0.0f, 0.35f, 0.0f});
    joint(LeftLeg, "leftLeg", Hips, {0.12f, -0.05f, 0.0f});
    joint(LeftFoot, "leftFoot", LeftLeg, {0.0f, -0.9f, 0.0f});
    joint(RightLeg, "rightLeg", Hips, {-0.12f, -0.05f, 0.0f});
    joint(RightFoot, "rightFoot", RightLeg, {0.0f, -0.9f, 0.0f});
    auto skeleton = Skeleton::create(std::move(joints));
    if (!skeleton) return std::vector<Fault>(skeleton.faults().begin(), skeleton.faults().end());

    // A stride: legs swing in opposite phase about X; a foot is planted when its
    // leg passes the vertical moving backwards (right at 0, left half way); the
    // hips dip at each plant and the spine counter-twists. Walk and run differ in
    // length, swing and dip.
    const float pi = std::numbers::pi_v<float>;
    auto stride = [&](const char* name, float seconds, float swing, float dip) {
        std::vector<Track> tracks;
        tracks.push_back(rotationTrack(LeftLeg, seconds, {1, 0, 0}, swing, pi));
        tracks.push_back(rotationTrack(RightLeg, seconds, {1, 0, 0}, swing, 0.0f));
        tracks.push_back(rotationTrack(Spine, seconds, {0, 1, 0}, 0.2f * swing, 0.0f));
        tracks.push_back(bobTrack(Hips, seconds, dip, 2.0f));
        return Clip::create(name, std::move(tracks), {{"footstep_right", 0.0f}, {"footstep_left", 0.5f * seconds}});
    };
    // Idle: a slow breath (hips settle, spine sways), feet still.
    std::vector<Track> breath;
    breath.push_back(rotationTrack(Spine, 2.0f, {1, 0, 0}, 0.03f, 0.0f));
    breath.push_back(bobTrack(Hips, 2.0f, 0.01f, 1.0f));
    auto idle = Clip::create("idle", std::move(breath));
    auto walk = stride("walk", 1.0f, 0.6f, 0.04f);
    auto run = stride("run", 0.6f, 1.0f, 0.08f);
    for (const auto* clip : {&idle, &walk, &run}) {
        if (!*clip) return std::vector<Fault>(clip->faults().begin(), clip->faults().end());
    }

    Model model;
    model.source = "built-in runner";
    model.skeleton = std::move(*skeleton);
    for (std::uint32_t j = 0; j < JointCount; ++j) {
        model.nodeOfJoint.push_back(j);
        model.jointOfNode.push_back(j);
    }
    model.weightOffsetOfJoint.assign(JointCount, -1);
    model.clips.push_back(std::move(*idle));
    model.clips.push_back(std::move(*walk));
    model.clips.push_back(std::move(*run));

    // Bind pose = rest pose: inverse bind matrices invert the rest model matrices.
    const Pose rest = makeRestPose(model);
    Skin skin;
    skin.name = "runner";
    skin.root = Hips;
    for (std::uint32_t j = 0; j < JointCount; ++j) {
        skin.joints.push_back(j);
        skin.inverseBindMatrices.push_back(inverseAffine(rest.model[j]));
    }
    model.skins.push_back(std::move(skin));

    // A stick figure: one vertex at every joint bound rigidly to it, one at each
    // knee (half way down a leg) blended 50/50 between leg and foot, and one at
    // each toe tip bound to the foot.
    MeshPrimitive prim;
    prim.mode = PrimitiveMode::Lines;
    prim.influencesPerVertex = 4;
    auto vertex = [&](Vec3 p, std::uint16_t j0, float w0, std::uint16_t j1, float w1) {
        prim.positions.push_back(p);
        prim.joints.insert(prim.joints.end(), {j0, j1, 0, 0});
        prim.weights.insert(prim.weights.end(), {w0, w1, 0.0f, 0.0f});
    };
    for (std::uint16_t j = 0; j < JointCount; ++j) {
        const Mat4& m = rest.model[j];
        vertex({m.m[12], m.m[13], m.m[14]}, j, 1.0f, 0, 0.0f);
    }
    for (const std::uint16_t leg : {std::uint16_t(LeftLeg), std::uint16_t(RightLeg)}) {
        const Mat4& hip = rest.model[leg];
        vertex({hip.m[12], hip.m[13] - 0.45f, hip.m[14]}, leg, 0.5f, std::uint16_t(leg + 1), 0.5f);
        vertex({hip.m[12], hip.m[13] - 0.9f, hip.m[14] + 0.15f}, std::uint16_t(leg + 1), 1.0f, 0, 0.0f);
    }
    prim.indices = {Hips,     Spine, Spine, Head,     Hips,     LeftLeg, LeftLeg, 7,         7,         LeftFoot,
                    LeftFoot, 8,     Hips,  RightLeg, RightLeg, 9,       9,       RightFoot, RightFoot, 10};
    Mesh mesh;
    mesh.name = "stick figure";
    mesh.primitives.push_back(std::move(prim));
    model.meshes.push_back(std::move(mesh));
    model.meshInstances.push_back({Hips, 0, 0, 0});

    auto faults = findModelFaults(model);
    if (!faults.empty()) return faults;
    return model;
}

}  // namespace kinema::cli
