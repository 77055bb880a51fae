// State machine: idle <-> walk, read from locomotion.json (beside this file, or the
// file given as argument), driven by a "speed" parameter. The machine's samples
// become the layers of an InstanceRequest (motionLayers) and InstanceEvaluator
// poses them; the footsteps are the walk clip's markers, reported by events().
//
// Clips, built in code: idle (2 s) holds the root at x = 0; walk (1 s) moves it from
// x = 0 to x = 2, with footsteps "left" at 0.25 s and "right" at 0.75 s.
// The script, in updates of 1/8 s: speed 0 for updates 1-4, 1.5 for 5-19, 0 from 20 on.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <kinema/io/state_machine_json.hpp>
#include <kinema/play/motion_layers.hpp>
#include <kinema/play/state_machine.hpp>
#include <kinema/runtime/instance.hpp>

using namespace kinema;

Clip slide(const char* name, float seconds, float distance, std::vector<Marker> markers = {}) {
    Track track;  // joint 0's translation, linear
    track.times = {0.0f, seconds};
    track.values = {0, 0, 0, distance, 0, 0};
    return Clip::create(name, {track}, std::move(markers)).value();  // valid by construction
}

int fail(const std::string& message) {
    std::fprintf(stderr, "%s\n", message.c_str());
    return 1;
}

int main(int argc, char** argv) {
    const std::vector<Clip> clips{slide("idle", 2.0f, 0.0f),
                                  slide("walk", 1.0f, 2.0f, {{"left", 0.25f}, {"right", 0.75f}})};
    auto def = loadStateMachineFile(argc > 1 ? argv[1] : LOCOMOTION_JSON, clipsByName(clips));
    if (!def) return fail(def.message());  // every fault, at its JSON pointer
    // The evaluator samples packed clips: one per clip slot of the definition.
    std::vector<PackedClip> packed;
    for (const Clip* clip : def->clips()) packed.emplace_back(*clip);
    std::vector<const PackedClip*> packedBySlot;
    for (const PackedClip& p : packed) packedBySlot.push_back(&p);

    auto skeleton = Skeleton::create({{"root", kNoParent, {}}});
    if (!skeleton) return fail(skeleton.message());
    auto evaluator = InstanceEvaluator::create(*skeleton, {});
    if (!evaluator) return fail(evaluator.message());
    InstanceState state;
    WorkPoses work = evaluator->makeWorkPoses();
    std::vector<Mat4> model(skeleton->jointCount());
    InstanceRequest request;

    StateMachine sm(*def);
    const auto speed = def->findParameter("speed");
    if (!speed) return fail("no parameter 'speed'");
    std::string steps;             // 'L' / 'R' per footstep
    std::vector<int> stepUpdates;  // the update each one came in
    std::vector<float> x(25);      // the root's x after each update
    std::uint32_t shown = sm.currentState();
    for (int update = 1; update <= 24; ++update) {
        if (Status status = sm.setFloat(*speed, update >= 5 && update < 20 ? 1.5f : 0.0f); !status)
            return fail(status.message());
        if (Status status = sm.update(0.125); !status) return fail(status.message());
        for (const MotionEvent& e : sm.events()) {
            const Marker& marker = e.clip->markers()[e.marker];
            std::printf("update %2d: footstep %-5s (%.*s share %.2f)\n", update, marker.name.c_str(),
                        int(e.clip->name().size()), e.clip->name().data(), double(e.weight));
            steps += marker.name == "left" ? 'L' : 'R';
            stepUpdates.push_back(update);
        }
        const std::uint32_t now = sm.targetState().value_or(sm.currentState());
        if (now != shown) {
            std::printf("update %2d: -> %s\n", update, def->desc().states[now].name.c_str());
            shown = now;
        }
        if (Status status = motionLayers(sm.samples(), packedBySlot, request); !status) return fail(status.message());
        if (Status status = evaluator->check(request); !status) return fail(status.message());
        if (Status status = evaluator->evaluate(request, state, work, model, {}); !status)
            return fail(status.message());
        x[static_cast<std::size_t>(update)] = model[0].m[12];
    }

    // By hand: speed > 0.1 in update 5 starts the 0.25 s fade to walk (walk at 0 s);
    // update 6: walk at 0.125 s (x = 0.25), half faded in: x = 0.5 * 0.25 = 0.125;
    // update 7: walk at 0.25 s, the fade is over. Walk crosses 0.25, 0.75, 1.25, 1.75 s
    // in updates 7, 11, 15, 19: L R L R. Update 15: walk at 1.25 s, clip time
    // 0.25 s, x = 0.5. Update 20 (speed 0) starts the fade back; from update 22 on,
    // idle alone: x = 0. Walk's last steps (1.875 to 2.125 s) cross no footstep.
    std::printf("root x: update 6 %.4f, update 15 %.4f, update 24 %.4f; now %s\n", double(x[6]), double(x[15]),
                double(x[24]), def->desc().states[sm.currentState()].name.c_str());
    const bool ok = steps == "LRLR" && stepUpdates == std::vector<int>{7, 11, 15, 19} &&
        std::abs(x[6] - 0.125f) < 1e-6f && std::abs(x[15] - 0.5f) < 1e-6f && std::abs(x[24]) < 1e-6f &&
        sm.currentState() == def->findState("idle") && !sm.transitioning();
    std::printf(ok ? "as expected\n" : "not as expected\n");
    return ok ? 0 : 1;
}
