// Crossfade: CrossFade keeps the time and weights of two clips (the one fading out
// keeps playing); InstanceEvaluator poses them as two layers, the incoming clip
// over the outgoing one by currentWeight(). Here "idle" holds the hips at
// x = 1 and "walk" moves them along z at 2 m/s; a half-second inOutSine fade from
// idle to walk is checked update by update against the curve's closed form.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <string_view>
#include <vector>

#include <kinema/play/cross_fade.hpp>
#include <kinema/runtime/instance.hpp>

using namespace kinema;

// A one-second clip moving joint 0 linearly from `from` to `to`.
Clip line(const char* name, Vec3 from, Vec3 to) {
    Track track;  // joint 0's translation
    track.times = {0.0f, 1.0f};
    track.values = {from.x, from.y, from.z, to.x, to.y, to.z};
    return Clip::create(name, {track}).value();  // valid by construction
}

int fail(const std::string& message) {
    std::fprintf(stderr, "%s\n", message.c_str());
    return 1;
}

int main() {
    const Clip idle = line("idle", {1, 0, 0}, {1, 0, 0});
    const Clip walk = line("walk", {0, 0, 0}, {0, 0, 2});
    const PackedClip packedIdle(idle), packedWalk(walk);  // what the evaluator samples
    auto packed = [&](const Clip* clip) { return clip == &idle ? &packedIdle : &packedWalk; };

    auto skeleton = Skeleton::create({{"hips", kNoParent, {}}});
    if (!skeleton) return fail(skeleton.message());
    auto evaluator = InstanceEvaluator::create(*skeleton, {});
    if (!evaluator) return fail(evaluator.message());
    InstanceState state;
    WorkPoses work = evaluator->makeWorkPoses();
    std::vector<Mat4> model(skeleton->jointCount());

    CrossFade fade;
    fade.crossFadeTo(&idle, 0.0);  // nothing playing yet: a cut
    const double dt = 0.125;
    bool ok = true;
    for (int frame = 0; frame < 7; ++frame) {
        if (frame == 2) fade.crossFadeTo(&walk, 0.5, LoopMode::Loop, Easing::InOutSine);
        CrossFadeStep step;
        if (Status status = fade.update(dt, step); !status) return fail(status.message());
        // Two layers while fading: the outgoing clip whole, the current one over it.
        InstanceRequest request;
        const Player& current = fade.current();
        if (const Player* outgoing = fade.outgoing()) {
            request.layers[0] = {.clip = packed(outgoing->clip()), .time = outgoing->position()};
            request.layers[1] = {
                .clip = packed(current.clip()), .time = current.position(), .weight = fade.currentWeight()};
            request.layerCount = 2;
        } else {
            request.layers[0] = {.clip = packed(current.clip()), .time = current.position()};
            request.layerCount = 1;
        }
        if (Status status = evaluator->check(request); !status) return fail(status.message());
        if (Status status = evaluator->evaluate(request, state, work, model, {}); !status)
            return fail(status.message());

        // By hand: before the fade idle alone, w = 1, hips at (1, 0, 0). k updates into
        // it, u = k * 0.125 / 0.5 of it has passed and inOutSine gives
        // w = (1 - cos(pi u)) / 2 (1 from u = 1 on); walk has played k / 8 s, so its z
        // is k / 4. The hips are at ((1 - w) * 1, 0, w * k / 4).
        const int k = frame - 1;  // updates since the fade started
        double w = 1.0, x = 1.0, z = 0.0;
        if (k > 0) {
            const double u = std::min(1.0, k * dt / 0.5);
            w = (1.0 - std::cos(std::numbers::pi * u)) / 2.0;
            x = 1.0 - w;
            z = w * k / 4.0;
        }
        const float* t = &model[0].m[12];  // the hips' translation
        const bool good = std::abs(fade.currentWeight() - w) < 1e-6 && std::abs(t[0] - x) < 1e-6 &&
            std::abs(t[2] - z) < 1e-6 && fade.fading() == (k > 0 && k < 4);
        const std::string_view name = current.clip()->name();
        std::printf("t=%.3f s  %s%-4.*s weight %.4f  hips (%.4f, %.4f, %.4f)%s\n", (frame + 1) * dt,
                    fade.fading() ? "idle -> " : "", int(name.size()), name.data(), double(fade.currentWeight()),
                    double(t[0]), double(t[1]), double(t[2]), good ? "" : "  <- expected otherwise");
        ok = ok && good;
    }
    std::printf(ok ? "as expected\n" : "not as expected\n");
    return ok ? 0 : 1;
}
