// Blend space: walk (1 s, at 1.5 m/s) and run (0.6 s, at 4 m/s) on a line, played
// as one gait whose clips are synchronised by their footstep markers, so that
// both feet land together whatever the blend.
//   walk: left at 0.25 s, right at 0.75 s (evenly spaced)
//   run:  left at 0.1 s,  right at 0.3 s  (a short left-to-right, a long right-to-left)
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <kinema/play/blend_space.hpp>
#include <kinema/runtime/marker_sweep.hpp>

using namespace kinema;

Clip gait(const char* name, float seconds, float leftAt, float rightAt) {
    Track track;  // joint 0 moving forward; what matters here is the timing
    track.times = {0.0f, seconds};
    track.values = {0, 0, 0, 0, 0, 1};
    return Clip::create(name, {track}, {{"left", leftAt}, {"right", rightAt}}).value();  // valid by construction
}

int fail(const std::string& message) {
    std::fprintf(stderr, "%s\n", message.c_str());
    return 1;
}

int main() {
    const Clip walk = gait("walk", 1.0f, 0.25f, 0.75f);
    const Clip run = gait("run", 0.6f, 0.1f, 0.3f);
    auto space = BlendSpace::create1D({{&walk, 1.5f}, {&run, 4.0f}}, BlendSync::Markers);
    if (!space) return fail(space.message());
    bool ok = true;

    // Weights by hand: linear between the two positions, the end clip alone outside.
    //   speed 1.0 -> walk 1;  speed 2.0 -> walk (4 - 2) / (4 - 1.5) = 0.8, run 0.2;  speed 5 -> run 1
    const float expected[][3] = {{1.0f, 1.0f, 0.0f}, {2.0f, 0.8f, 0.2f}, {5.0f, 0.0f, 1.0f}};
    for (const auto& [speed, w0, w1] : expected) {
        float w[2];
        space->weights(speed, 0.0f, w);
        const bool good = std::abs(w[0] - w0) < 1e-6f && std::abs(w[1] - w1) < 1e-6f;
        std::printf("speed %.1f m/s: walk %.2f, run %.2f%s\n", double(speed), double(w[0]), double(w[1]),
                    good ? "" : "  <- expected otherwise");
        ok = ok && good;
    }

    BlendSpacePlayer player(*space);
    if (Status status = player.setParameters(2.0f); !status) return fail(status.message());
    // One cycle lasts the weighted mean of the durations: 0.8 * 1 + 0.2 * 0.6 = 0.92 s.
    // Updates of 0.0184 s advance the phase by 0.02: 75 of them take it to 1.5.
    const double cycle = 0.92, dt = 0.0184;
    std::string heard[2];  // per clip: "L13 R38 ..." (marker, update)
    std::vector<std::uint32_t> crossed(2);
    for (int update = 1; update <= 75; ++update) {
        if (Status status = player.update(dt); !status) return fail(status.message());
        for (const BlendSample& s : player.samples()) {
            const Clip& clip = *space->clips()[s.clip].clip;
            const std::size_t n = markersCrossed(clip, LoopMode::Loop, s.step, crossed);
            for (std::size_t k = 0; k < n; ++k)
                heard[s.clip] += (clip.markers()[crossed[k]].name == "left" ? " L" : " R") + std::to_string(update);
        }
    }
    // By hand: the phase is 0.5, halfway between walk's left (phase 0.25) and right
    // (0.75) markers. Walk is at 0.5 s; run halfway from its left to its right
    // marker, 0.1 + 0.5 * 0.2 = 0.2 s (without the markers it would be 0.5 * 0.6 = 0.3 s).
    // Footsteps at phases 0.25, 0.75, 1.25: updates 13, 38 and 63 (12.5, 37.5, 62.5
    // rounded up), the same updates in both clips.
    const bool timed = std::abs(player.cycleDuration() - cycle) < 1e-6 && std::abs(player.phase() - 0.5) < 1e-6 &&
        std::abs(player.clipTime(0) - 0.5) < 1e-6 && std::abs(player.clipTime(1) - 0.2) < 1e-6;
    const bool synced = heard[0] == " L13 R38 L63" && heard[1] == heard[0];
    std::printf("cycle %.4f s, phase %.4f: walk at %.4f s, run at %.4f s\n", player.cycleDuration(), player.phase(),
                player.clipTime(0), player.clipTime(1));
    std::printf("footsteps (marker, update): walk%s, run%s\n", heard[0].c_str(), heard[1].c_str());
    ok = ok && timed && synced;
    std::printf(ok ? "as expected\n" : "not as expected\n");
    return ok ? 0 : 1;
}
