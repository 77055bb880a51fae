// character: one character the short way (kinema/character/character.hpp).
//
//   character FILE.glb [WALK [RUN]]
//
// Loads a glTF file, plays WALK looping and takes its CPU-skinned vertices every
// frame (the eight numbered lines), then crossfades to RUN over 0.3 s at 1.5x speed
// (four more). WALK defaults to the file's first clip and RUN to its last (with
// CesiumMan, the same one: a crossfade to the clip already playing leaves it alone).
// Checks: the vertex count is the mesh's, vertices move from frame to frame, and the
// run's head advances 1.5 x the elapsed time.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <kinema/character/character.hpp>
#include <kinema/io/gltf.hpp>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: character FILE.glb [WALK [RUN]]\n");
        return 2;
    }
    auto model = kinema::importGltfFile(argv[1]);  // 1
    if (!model || model->clips.empty() || model->meshInstances.empty()) {
        std::fprintf(stderr, "%s\n", model ? "no clip or no mesh" : model.message().c_str());
        return 1;
    }
    const std::string walk = argc > 2 ? argv[2] : std::string(model->clips.front().name());
    const std::string run = argc > 3 ? argv[3] : std::string(model->clips.back().name());

    // A refusal says what it refused (an unknown clip name, say) and exits 1.
    const auto refused = [](const std::string& what, const std::string& why) {
        std::fprintf(stderr, "%s: %s\n", what.c_str(), why.c_str());
        return 1;
    };
    auto man = kinema::Character::create(*model);  // 2
    if (!man) return refused(argv[1], man.message());
    if (const auto s = man->play(walk); !s) return refused("play '" + walk + "'", s.message());  // 3
    std::vector<kinema::Vec3> first;
    for (int frame = 0; frame < 30; ++frame) {                           // 4
        if (!man->update(1.0 / 60.0)) return 1;                          // 5
        const auto vertices = man->skinnedPositions(0);                  // 6
        if (frame == 0) first.assign(vertices.begin(), vertices.end());  // 7
    }                                                                    // 8

    if (const auto s = man->crossFade(run, 0.3); !s) return refused("crossFade '" + run + "'", s.message());  // 9
    if (!man->setSpeed(1.5)) return 1;                                                                        // 10
    const double before = man->current().position();
    for (int frame = 0; frame < 6; ++frame) {    // 11
        if (!man->update(1.0 / 60.0)) return 1;  // 12
    }

    const auto vertices = man->skinnedPositions(0);
    std::size_t moved = 0;
    for (std::size_t v = 0; v < vertices.size(); ++v) moved += vertices[v].x != first[v].x ? 1u : 0u;
    // 6 frames of 1/60 s at 1.5x: 0.15 s of clip time (no wrap: CesiumMan lasts 2 s).
    const double advanced = man->current().position() - before;
    const auto& mesh = model->meshes[model->meshInstances[0].mesh];
    std::printf("%zu vertices, %zu moved since the first frame; the head advanced %.6f s in 0.1 s\n", vertices.size(),
                moved, advanced);
    const bool ok = vertices.size() == mesh.primitives[0].positions.size() && moved > 0 &&
        (walk != run || std::fabs(advanced - 0.15) < 1e-9);
    return ok ? 0 : 1;
}
