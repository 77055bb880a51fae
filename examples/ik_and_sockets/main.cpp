// A figure built in code: a foot put on a step by two-bone IK, the head turned toward
// a point by an aim, a sword held in the hand by a socket, on the one-character
// facade. Every value is checked against the geometry worked out below.
//
// Rest pose (metres, Y up): hips at (0, 1, 0); thigh 0.1 to the side, knee 0.45 and
// ankle 0.45 below it; head 0.6 above the hips, facing +Z; hand at (0.3, 1.4, 0).
#include <cmath>
#include <cstdio>

#include <kinema/character/character.hpp>
#include <kinema/runtime/socket.hpp>

using namespace kinema;

namespace {

Vec3 at(const Mat4& m) { return {m.m[12], m.m[13], m.m[14]}; }
Vec3 unit(Vec3 v) { return v * (1.0f / length(v)); }

Model figure() {
    Model m;
    m.source = "figure";
    const auto joint = [](const char* name, std::int32_t parent, Vec3 at) {
        JointDesc j;
        j.name = name;
        j.parent = parent;
        j.rest.translation = at;
        return j;
    };
    m.skeleton = Skeleton::create({joint("hips", kNoParent, {0, 1, 0}), joint("thigh", 0, {0.1f, 0, 0}),
                                   joint("knee", 1, {0, -0.45f, 0}), joint("ankle", 2, {0, -0.45f, 0}),
                                   joint("head", 0, {0, 0.6f, 0}), joint("hand", 0, {0.3f, 0.4f, 0})})
                     .value();
    Track still;  // an idle that holds the hips where they are
    still.target = 0;
    still.times = {0.0f, 1.0f};
    still.values = {0, 1, 0, 0, 1, 0};
    m.clips.push_back(Clip::create("idle", {still}).value());
    return m;
}

bool near(Vec3 a, Vec3 b, float within) { return length(a - b) <= within; }

}  // namespace

int main() {
    const Model model = figure();
    auto character = Character::create(model);
    if (!character || !character->play("idle")) return 1;

    // The foot on a step 0.2 m high, a little forward; the knee bends toward +Z.
    const Vec3 thigh{0.1f, 1.0f, 0.0f}, step{0.1f, 0.2f, 0.1f}, pole{0.1f, 0.6f, 1.0f};
    const Vec3 lookAt{1.0f, 1.6f, 1.0f};
    static const std::uint32_t neck[] = {4};
    AimIk aim;
    aim.joints = neck;
    aim.target = lookAt;  // forward +Z, no angle limit
    const IkTask tasks[] = {TwoBoneIk{1, 2, 3, step, pole}, aim};
    if (!character->setIk(tasks) || !character->update(1.0 / 60)) return 1;
    const auto matrices = character->model();

    // The knee by the law of cosines: bones of 0.45, d from the thigh to the step; it
    // lies d/2 along the thigh-step line and sqrt(0.45^2 - (d/2)^2) toward the pole.
    const Vec3 toStep = step - thigh;
    const float d = length(toStep);
    const Vec3 u = unit(toStep);
    const Vec3 bend = unit((pole - thigh) - u * dot(pole - thigh, u));
    const Vec3 knee = thigh + u * (d / 2.0f) + bend * std::sqrt(0.45f * 0.45f - d * d / 4.0f);
    // The head's forward axis (+Z in its frame) toward the point it looks at.
    const Mat4& head = matrices[4];
    const Vec3 forward = unit({head.m[8], head.m[9], head.m[10]});
    const Vec3 wanted = unit(lookAt - at(head));

    // A sword 0.3 m forward of the hand; the hand is not turned, so it is there in the model.
    Socket sword("hand", {.translation = {0.0f, 0.0f, 0.3f}});
    SocketPlacement held;
    if (!sword.place(model.skeleton, matrices, held).status) return 1;

    const auto& outcomes = character->ikOutcomes();
    std::printf("ankle (%.4f, %.4f, %.4f) on the step (%.4f, %.4f, %.4f): %s, %.2g m left\n", double(at(matrices[3]).x),
                double(at(matrices[3]).y), double(at(matrices[3]).z), double(step.x), double(step.y), double(step.z),
                outcomes[0].reached ? "reached" : "missed", double(outcomes[0].distance));
    std::printf("knee (%.4f, %.4f, %.4f), by the law of cosines (%.4f, %.4f, %.4f)\n", double(at(matrices[2]).x),
                double(at(matrices[2]).y), double(at(matrices[2]).z), double(knee.x), double(knee.y), double(knee.z));
    std::printf("head looks %.3g degrees off the point; sword at (%.3f, %.3f, %.3f)\n",
                double(std::acos(std::fmin(1.0f, dot(forward, wanted))) * 57.29578f), double(held.trs.translation.x),
                double(held.trs.translation.y), double(held.trs.translation.z));

    const bool ok = outcomes.size() == 2 && outcomes[0].reached && outcomes[1].reached &&
        near(at(matrices[3]), step, 1e-4f) && near(at(matrices[2]), knee, 1e-4f) && dot(forward, wanted) > 0.99999f &&
        near(held.trs.translation, {0.3f, 1.4f, 0.3f}, 1e-5f);
    return ok ? 0 : 1;
}
