#include "demo_runner.hpp"

#include <cmath>
#include <numbers>

#include "kinema/runtime/pose.hpp"

namespace kinema::cli {

namespace {

constexpr float kStride = 1.0f;  // seconds per full stride (two footsteps)
constexpr int kKeys = 25;        // keys per track, t = k / 24 s

Track rotationTrack(std::uint32_t joint, Vec3 axis, float amplitude, float phase) {
    Track t;
    t.target = joint;
    t.path = TrackPath::Rotation;
    t.width = 4;
    for (int k = 0; k < kKeys; ++k) {
        const float time = kStride * float(k) / float(kKeys - 1);
        const float angle = amplitude * std::sin(2.0f * std::numbers::pi_v<float> * time / kStride + phase);
        const Quat q = fromAxisAngle(axis, angle);
        t.times.push_back(time);
        t.values.insert(t.values.end(), {q.x, q.y, q.z, q.w});
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

    // The stride: legs swing in opposite phase about X; a foot is planted when its
    // leg passes the vertical moving backwards (right at 0 s, left at 0.5 s); the
    // hips dip at each plant and the spine counter-twists.
    std::vector<Track> tracks;
    tracks.push_back(rotationTrack(LeftLeg, {1, 0, 0}, 0.6f, std::numbers::pi_v<float>));
    tracks.push_back(rotationTrack(RightLeg, {1, 0, 0}, 0.6f, 0.0f));
    tracks.push_back(rotationTrack(Spine, {0, 1, 0}, 0.12f, 0.0f));
    Track bob;
    bob.target = Hips;
    bob.path = TrackPath::Translation;
    bob.width = 3;
    for (int k = 0; k < kKeys; ++k) {
        const float time = kStride * float(k) / float(kKeys - 1);
        const float y = 1.0f - 0.04f * std::cos(4.0f * std::numbers::pi_v<float> * time / kStride);
        bob.times.push_back(time);
        bob.values.insert(bob.values.end(), {0.0f, y, 0.0f});
    }
    tracks.push_back(std::move(bob));
    auto clip = Clip::create("stride", std::move(tracks),
                             {{"footstep_right", 0.0f}, {"footstep_left", 0.5f * kStride}});
    if (!clip) return std::vector<Fault>(clip.faults().begin(), clip.faults().end());

    Model model;
    model.source = "built-in runner";
    model.skeleton = std::move(*skeleton);
    for (std::uint32_t j = 0; j < JointCount; ++j) {
        model.nodeOfJoint.push_back(j);
        model.jointOfNode.push_back(j);
    }
    model.weightOffsetOfJoint.assign(JointCount, -1);
    model.clips.push_back(std::move(*clip));

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
    prim.indices = {Hips, Spine, Spine, Head, Hips, LeftLeg, LeftLeg, 7, 7, LeftFoot, LeftFoot, 8,
                    Hips, RightLeg, RightLeg, 9, 9, RightFoot, RightFoot, 10};
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
