// Root motion: a looping one-second walk whose root moves 1.2 m along x while
// turning a quarter turn about y (and bobbing up and down). RootMotion turns each
// update's step into the motion of the character; accumulated at 60 Hz over four
// laps it walks the four sides of a 1.2 m square and ends where it started. The
// pose keeps the bob and plays in place (anchored()).
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include <kinema/play/player.hpp>
#include <kinema/play/root_motion.hpp>
#include <kinema/runtime/sample.hpp>

using namespace kinema;

bool near(float a, float b) { return std::abs(a - b) < 1e-4f; }

int fail(const std::string& message) {
    std::fprintf(stderr, "%s\n", message.c_str());
    return 1;
}

int main() {
    Track move;  // the root: (0, 0.9, 0) -> (0.6, 1.0, 0) -> (1.2, 0.9, 0)
    move.times = {0.0f, 0.5f, 1.0f};
    move.values = {0, 0.9f, 0, 0.6f, 1.0f, 0, 1.2f, 0.9f, 0};
    Track turn;  // a quarter turn about y, at an even rate (slerp)
    turn.path = TrackPath::Rotation;
    turn.width = 4;
    turn.times = {0.0f, 1.0f};
    const Quat quarter = fromAxisAngle({0, 1, 0}, std::numbers::pi_v<float> / 2);
    turn.values = {0, 0, 0, 1, quarter.x, quarter.y, quarter.z, quarter.w};
    auto clip = Clip::create("walk", {move, turn});
    if (!clip) return fail(clip.message());
    // Extract x, z and the turn (the default mask); the vertical bob stays in the pose.
    auto motion = RootMotion::create(*clip, 0, Transform{});
    if (!motion) return fail(motion.message());

    // One lap in one step, by hand: from the lap's start the root ends 1.2 m ahead
    // along its own x, turned a quarter turn: the displacement of every lap.
    const Transform lap = motion->delta(LoopMode::Loop, {0.0, 0.0, 1.0});
    const float lapTurn = 2 * std::acos(std::min(1.0f, std::abs(lap.rotation.w)));
    std::printf("one lap: (%.4f, %.4f, %.4f), turned %.1f deg\n", double(lap.translation.x), double(lap.translation.y),
                double(lap.translation.z), double(lapTurn) * 180 / std::numbers::pi);
    bool ok = near(lap.translation.x, 1.2f) && near(lap.translation.y, 0) && near(lap.translation.z, 0) &&
        near(lapTurn, std::numbers::pi_v<float> / 2);

    // The character's transform, moved by every update's delta (in its own frame).
    // By hand, a turn of +90 degrees about y takes +x to -z, so the laps run along
    // +x, -z, -x, +z: the corners (1.2, 0), (1.2, -1.2), (0, -1.2), (0, 0) in (x, z).
    const float corners[4][2] = {{1.2f, 0}, {1.2f, -1.2f}, {0, -1.2f}, {0, 0}};
    Player player(*clip);
    Mat4 character = Mat4::identity();
    for (int lapIndex = 0; lapIndex < 4; ++lapIndex) {
        for (int frame = 0; frame < 60; ++frame) {
            PlaybackStep step;
            if (Status status = player.update(1.0 / 60, step); !status) return fail(status.message());
            character = mulAffine(character, toMatrix(motion->delta(LoopMode::Loop, step)));
        }
        const Vec3 at = transformPoint(character, {}), facing = transformDirection(character, {1, 0, 0});
        const bool good = near(at.x, corners[lapIndex][0]) && near(at.y, 0) && near(at.z, corners[lapIndex][1]);
        std::printf("after lap %d: at (%.4f, %.4f, %.4f), facing (%.2f, %.2f, %.2f)%s\n", lapIndex + 1, double(at.x),
                    double(at.y), double(at.z), double(facing.x), double(facing.y), double(facing.z),
                    good ? "" : "  <- expected otherwise");
        ok = ok && good;
    }
    ok = ok && near(transformDirection(character, {1, 0, 0}).x, 1);  // facing +x again

    // In place: the root sampled half way (x = 0.6, y = 1.0, turned 45 degrees),
    // anchored: x, z and the turn back to their values at 0 s, the bob kept: (0, 1, 0).
    std::vector<Transform> root(1);
    if (!reference::sample(*clip, 0.5, root, {})) return fail("the pose is too small for the clip");
    const Transform still = motion->anchored(root[0]);
    std::printf("at 0.5 s the root is at (%.2f, %.2f, %.2f); in place (%.2f, %.2f, %.2f)\n",
                double(root[0].translation.x), double(root[0].translation.y), double(root[0].translation.z),
                double(still.translation.x), double(still.translation.y), double(still.translation.z));
    ok = ok && near(still.translation.x, 0) && near(still.translation.y, 1) && near(still.translation.z, 0) &&
        near(std::abs(still.rotation.w), 1);
    std::printf(ok ? "as expected\n" : "not as expected\n");
    return ok ? 0 : 1;
}
