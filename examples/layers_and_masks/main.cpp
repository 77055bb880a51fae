// Layers and masks: a LayerStack of three layers on a four-joint body, evaluated
// with InstanceEvaluator.
//   0  walk   override (the base): moves the hips forward along x at 1 m/s
//   1  reach  override, masked to the spine's subtree: moves the spine forward;
//             it also moves the hips and the leg, which the mask keeps out
//   2  look   additive at weight 0.5: turns the head 90 degrees about y
//
//   hips (0, 1, 0) --- spine (0, 0.5, 0) --- head (0, 0.5, 0)
//                  \-- leg (0, -0.5, 0)          (rest offsets from the parent)
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include <kinema/play/layer_stack.hpp>
#include <kinema/runtime/instance.hpp>

using namespace kinema;

// A one-second clip holding each (joint, translation) of `moves` at its value,
// or moving it linearly from `from` (at 0 s) to `to` (at 1 s).
struct Move {
    std::uint32_t joint;
    Vec3 from, to;
};
Result<Clip> translations(const char* name, const std::vector<Move>& moves) {
    std::vector<Track> tracks;
    for (const Move& m : moves) {
        Track t;
        t.target = m.joint;
        t.times = {0.0f, 1.0f};
        t.values = {m.from.x, m.from.y, m.from.z, m.to.x, m.to.y, m.to.z};
        tracks.push_back(t);
    }
    return Clip::create(name, tracks);
}

bool near(Vec3 a, Vec3 b) { return length(a - b) < 1e-6f; }
bool near(Quat a, Quat b) {
    return std::abs(a.x - b.x) + std::abs(a.y - b.y) + std::abs(a.z - b.z) + std::abs(a.w - b.w) < 1e-6f;
}

int fail(const std::string& message) {
    std::fprintf(stderr, "%s\n", message.c_str());
    return 1;
}

int main() {
    auto skeleton = Skeleton::create({{"hips", kNoParent, {{0, 1, 0}, {}, {1, 1, 1}}},
                                      {"spine", 0, {{0, 0.5f, 0}, {}, {1, 1, 1}}},
                                      {"head", 1, {{0, 0.5f, 0}, {}, {1, 1, 1}}},
                                      {"leg", 0, {{0, -0.5f, 0}, {}, {1, 1, 1}}}});
    if (!skeleton) return fail(skeleton.message());
    const std::uint32_t hips = 0, spine = 1, head = 2, leg = 3;

    auto walk = translations("walk", {{hips, {0, 1, 0}, {1, 1, 0}}});
    auto reach = translations("reach",
                              {{hips, {5, 1, 0}, {5, 1, 0}},
                               {spine, {0, 0.5f, 0.4f}, {0, 0.5f, 0.4f}},
                               {leg, {0, -0.5f, 0.4f}, {0, -0.5f, 0.4f}}});
    Track turn;  // the head turned 90 degrees about y, held for one second
    turn.target = head;
    turn.path = TrackPath::Rotation;
    turn.width = 4;
    turn.times = {0.0f, 1.0f};
    const float s = std::sqrt(0.5f);
    turn.values = {0, s, 0, s, 0, s, 0, s};
    auto look = Clip::create("look", {turn});
    for (const Result<Clip>* clip : {&walk, &reach, &look})
        if (!*clip) return fail(clip->message());
    const PackedClip packedWalk(*walk), packedReach(*reach), packedLook(*look);

    JointMask upperBody(*skeleton);  // nothing but the spine and what hangs from it
    if (Status status = upperBody.setSubtree(skeleton->parents(), spine, 1.0f); !status) return fail(status.message());

    LayerStack stack;
    for (Status status : {stack.setLayer(0, *walk, packedWalk),
                          stack.setLayer(1, *reach, packedReach, LoopMode::Loop, {.mask = &upperBody}),
                          stack.setLayer(2, *look, packedLook, LoopMode::Loop,
                                         {.weight = 0.5f, .mode = LayerMode::Additive})}) {  // against the rest pose
        if (!status) return fail(status.message());
    }

    auto evaluator = InstanceEvaluator::create(*skeleton, {});
    if (!evaluator) return fail(evaluator.message());
    InstanceState state;
    WorkPoses work = evaluator->makeWorkPoses();
    std::vector<Mat4> model(skeleton->jointCount());
    InstanceRequest request;
    for (int frame = 0; frame < 4; ++frame) {  // a quarter of a second
        if (Status status = stack.update(1.0 / 16); !status) return fail(status.message());
        if (Status status = stack.fill(request); !status) return fail(status.message());
        if (Status status = evaluator->check(request); !status) return fail(status.message());
        if (Status status = evaluator->evaluate(request, state, work, model, {}); !status)
            return fail(status.message());
    }

    // By hand, at 0.25 s. Outside the mask: the hips where walk has them, (0.25, 1, 0),
    // and the leg at rest. Inside: the spine where reach holds it. The head: rest
    // offset, turned by half of the additive 90 degrees, 45 degrees about y:
    // (0, sin 22.5, 0, cos 22.5). In model space (no joint above the head turns):
    // head = hips + spine + head offsets = (0.25, 2, 0.4), leg = (0.25, 0.5, 0).
    const double half = std::numbers::pi / 8;
    const Transform h = work.pose.joint(head);
    const Quat headTurn{0, float(std::sin(half)), 0, float(std::cos(half))};
    const bool checks[] = {
        near(work.pose.joint(hips).translation, {0.25f, 1, 0}),
        near(work.pose.joint(leg).translation, {0, -0.5f, 0}),
        near(work.pose.joint(spine).translation, {0, 0.5f, 0.4f}),
        near(h.translation, {0, 0.5f, 0}) && near(h.rotation, headTurn),
        near(transformPoint(model[head], {}), {0.25f, 2, 0.4f}),
        near(transformPoint(model[leg], {}), {0.25f, 0.5f, 0}),
    };
    for (std::uint32_t j : {hips, spine, head, leg}) {
        const Transform t = work.pose.joint(j);
        const Vec3 p = transformPoint(model[j], {});
        const std::string name(skeleton->name(j));
        std::printf("%-5s mask %.0f  local (%.3f, %.3f, %.3f) turn %5.1f deg  model (%.3f, %.3f, %.3f)\n", name.c_str(),
                    double(upperBody.weight(j)), double(t.translation.x), double(t.translation.y),
                    double(t.translation.z),
                    2 * std::acos(std::min(1.0, double(std::abs(t.rotation.w)))) * 180 / std::numbers::pi, double(p.x),
                    double(p.y), double(p.z));
    }
    bool ok = true;
    for (bool c : checks) ok = ok && c;
    std::printf(ok ? "every joint where expected\n" : "a joint is off\n");
    return ok ? 0 : 1;
}
