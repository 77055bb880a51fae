// Playback: a Player on one clip in loop, clamp and ping-pong mode and at other
// speeds, with the markers each update swept reported by markersCrossed, exactly
// once each. The clip is built in code (1 s, markers "left" at 0.25 s and "right"
// at 0.75 s), or is the first animation of the glTF file given as argument, with
// the two markers put at the same fractions of its duration.
//
// Every run below steps the head by an eighth of the clip per update, so the
// head lands exactly on the markers of the built-in clip: the sweep counts such
// a landing once, on arrival, never again on departure.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <kinema/io/gltf.hpp>
#include <kinema/play/player.hpp>
#include <kinema/runtime/marker_sweep.hpp>

using namespace kinema;

int fail(const std::string& message) {
    std::fprintf(stderr, "%s\n", message.c_str());
    return 1;
}

// Runs `updates` updates of clip/8 seconds each; returns the markers crossed, one
// letter per crossing ('L' or 'R') in the order the head met them, or "error".
std::string play(Player& player, int updates) {
    const Clip& clip = *player.clip();
    std::vector<std::uint32_t> crossed(clip.markers().size());
    std::string heard;
    for (int i = 0; i < updates; ++i) {
        PlaybackStep step;
        if (Status status = player.update(clip.duration() / 8.0, step); !status) {
            fail(status.message());
            return "error";
        }
        const std::size_t n = markersCrossed(clip, player.mode(), step, crossed);
        for (std::size_t k = 0; k < n; ++k) heard += clip.markers()[crossed[k]].name == "left" ? 'L' : 'R';
    }
    return heard;
}

int main(int argc, char** argv) {
    std::vector<Track> tracks;
    std::string name = "sway";
    if (argc > 1) {  // the first animation of a glTF file
        auto model = importGltfFile(argv[1]);
        if (!model) return fail(model.message());
        if (model->clips.empty()) return fail(std::string(argv[1]) + ": no animation");
        const Clip& first = model->clips[0];
        tracks.assign(first.tracks().begin(), first.tracks().end());
        name = first.name();
    } else {  // joint 0 sways from x = 0 to x = 1 over one second
        Track sway;
        sway.times = {0.0f, 1.0f};
        sway.values = {0, 0, 0, 1, 0, 0};
        tracks.push_back(sway);
    }
    // A clip is immutable: markers are given when it is made (here on a copy of the tracks).
    float d = 0.0f;  // the duration: the last key time over all tracks
    for (const Track& t : tracks) d = std::max(d, t.times.back());
    auto clip = Clip::create(name, tracks, {{"left", 0.25f * d}, {"right", 0.75f * d}});
    if (!clip) return fail(clip.message());
    d = clip->duration();
    std::printf("clip '%s', %.4f s, markers left at %.4f s, right at %.4f s\n", name.c_str(), double(d),
                double(clip->markers()[0].time), double(clip->markers()[1].time));

    struct Run {
        const char* what;
        LoopMode mode;
        double speed;
        int updates;
        const char* heard;  // expected, by hand (below)
        double clipTime;    // expected clip time at the end, in durations
        bool playing;       // expected at the end
    };
    // By hand, in units of the clip's duration (markers at 0.25 and 0.75):
    // - loop, 20 eighths = 2.5 laps: 0.25 .75 1.25 1.75 2.25 -> L R L R L, ends at 0.5
    // - loop at speed 2, 10 updates: the same 2.5 laps in half the updates
    // - loop at speed -1, 12 updates = 1.5 laps backwards from 0: it meets 0.75 after
    //   0.25 of travel, 0.25 after 0.75, 0.75 again after 1.25 -> R L R, ends at 0.5
    // - clamp, 20 updates: each marker once, then the head holds the end (1.0) and stops
    // - ping-pong, 20 updates: 0 -> 1 (L R), 1 -> 0 (R L), 0 -> 0.5 (L), ends at 0.5
    const Run runs[] = {
        {"loop", LoopMode::Loop, 1.0, 20, "LRLRL", 0.5, true},
        {"loop, speed 2", LoopMode::Loop, 2.0, 10, "LRLRL", 0.5, true},
        {"loop, speed -1", LoopMode::Loop, -1.0, 12, "RLR", 0.5, true},
        {"clamp", LoopMode::Clamp, 1.0, 20, "LR", 1.0, false},
        {"ping-pong", LoopMode::PingPong, 1.0, 20, "LRRLL", 0.5, true},
    };
    bool ok = true;
    for (const Run& run : runs) {
        Player player(*clip, run.mode);  // playOnStart: starts on the first update
        if (Status status = player.setSpeed(run.speed); !status) return fail(status.message());
        const std::string heard = play(player, run.updates);
        const bool good = heard == run.heard && std::abs(player.clipTime() - run.clipTime * d) < 1e-6 * d &&
            player.playing() == run.playing;
        std::printf("%-15s %2d updates: markers %-6s clip time %.4f s, %s%s\n", run.what, run.updates, heard.c_str(),
                    player.clipTime(), player.playing() ? "playing" : "stopped", good ? "" : "  <- expected otherwise");
        ok = ok && good;
    }
    std::printf(ok ? "as expected\n" : "not as expected\n");
    return ok ? 0 : 1;
}
