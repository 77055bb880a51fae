// A walk authored on one leg played on another whose bones are 30 % longer and named
// differently, through a joint map read from JSON: the hips' travel scales with the
// hip height (1.3), the knee bends the same way, and the report names what the map
// leaves out. Every value is checked against the hand calculation in the comments.
//
// Source leg: hips at (0, 1, 0), knee 0.5 below, ankle 0.5 below that. Target leg:
// pelvis at (0, 1.3, 0), shin 0.65 below, foot 0.65 below that, and a tail the source
// lacks. The walk (1 s): the hips travel 1 m along +Z, the knee bends 0 -> 60 -> 0
// degrees about X.
#include <cmath>
#include <cstdio>

#include <kinema/asset/retarget.hpp>
#include <kinema/io/joint_map_json.hpp>
#include <kinema/math/quat.hpp>
#include <kinema/runtime/pose.hpp>
#include <kinema/runtime/sample.hpp>

using namespace kinema;

namespace {

JointDesc joint(const char* name, std::int32_t parent, Vec3 at) {
    JointDesc j;
    j.name = name;
    j.parent = parent;
    j.rest.translation = at;
    return j;
}

Quat kneeAt(float degrees) { return fromAxisAngle({1.0f, 0.0f, 0.0f}, degrees * 3.14159265f / 180.0f); }

}  // namespace

int main() {
    const Skeleton source = Skeleton::create({joint("hips", kNoParent, {0, 1, 0}), joint("knee", 0, {0, -0.5f, 0}),
                                              joint("ankle", 1, {0, -0.5f, 0})})
                                .value();
    const Skeleton target =
        Skeleton::create({joint("pelvis", kNoParent, {0, 1.3f, 0}), joint("shin", 0, {0, -0.65f, 0}),
                          joint("foot", 1, {0, -0.65f, 0}), joint("tail", 0, {0, 0, -0.3f})})
            .value();

    Track travel;  // the hips, 1 m along +Z in 1 s
    travel.target = 0;
    travel.times = {0.0f, 1.0f};
    travel.values = {0, 1, 0, 0, 1, 1};
    Track bend;  // the knee, 0 -> 60 -> 0 degrees
    bend.target = 1;
    bend.path = TrackPath::Rotation;
    bend.width = 4;
    bend.times = {0.0f, 0.5f, 1.0f};
    for (const float degrees : {0.0f, 60.0f, 0.0f}) {
        const Quat q = kneeAt(degrees);
        bend.values.insert(bend.values.end(), {q.x, q.y, q.z, q.w});
    }
    auto walk = Clip::create("walk", {travel, bend});
    if (!walk) return 1;

    auto map = parseJointMapJson(R"({"joints": {"hips": "pelvis", "knee": "shin", "ankle": "foot"},
                                     "reference": {"source": "hips"}})",
                                 "leg_map.json");
    if (!map) {
        std::fprintf(stderr, "%s\n", map.message().c_str());
        return 1;
    }
    auto report = checkRetarget(*walk, source, target, *map);
    RetargetOptions options;
    options.map = *map;
    auto scale = retargetTranslationScale(source, target, options);
    auto onTarget = retargetClip(*walk, source, target, options);
    if (!report || !scale || !onTarget) return 1;

    // Half-way: the pelvis 1.3 x 0.5 m along +Z at its own rest height, the shin at
    // the source knee's 60 degrees (both rest poses are unrotated).
    std::vector<Transform> pose(target.restPose().begin(), target.restPose().end());
    std::vector<float> weights;
    SamplingCursor cursor(*onTarget);
    if (!reference::sample(*onTarget, 0.5, cursor, pose, weights)) return 1;
    const Vec3 pelvis = pose[0].translation;
    const Quat shin = pose[1].rotation, wanted = kneeAt(60.0f);
    const float shinError = 1.0f - std::fabs(dot(shin, wanted));  // 0 for the same rotation

    std::printf("scale %.3f; pelvis at 0.5 s (%.4f, %.4f, %.4f); shin off the knee's bend by %.2g\n", double(*scale),
                double(pelvis.x), double(pelvis.y), double(pelvis.z), double(shinError));
    std::printf("unmapped: %zu source joints, target joints:", report->unmappedSource.size());
    for (const std::string& name : report->unmappedTarget) std::printf(" %s", name.c_str());
    std::printf("\n");

    const bool ok = std::fabs(*scale - 1.3f) < 1e-6f && length(pelvis - Vec3{0.0f, 1.3f, 0.65f}) < 1e-5f &&
        shinError < 1e-6f && report->unmappedSource.empty() && report->unmappedTarget.size() == 1 &&
        report->unmappedTarget[0] == "tail" && onTarget->skeletonFingerprint() == target.fingerprint();
    return ok ? 0 : 1;
}
