// The smallest kinema program: a two-joint arm built in code, one clip that
// bends the elbow a quarter turn over one second, sampled and composed.
// With a file argument it also imports that glTF file and prints its animations.
#include <cstdio>
#include <numbers>

#include <kinema/io/gltf.hpp>
#include <kinema/runtime/clip_time.hpp>
#include <kinema/runtime/pose.hpp>
#include <kinema/runtime/sample.hpp>

int main(int argc, char** argv) {
    using namespace kinema;
    auto skeleton = Skeleton::create({{"shoulder", kNoParent, {}}, {"elbow", 0, {{1.0f, 0.0f, 0.0f}, {}, {1, 1, 1}}}});
    if (!skeleton) {
        std::fprintf(stderr, "%s\n", skeleton.message().c_str());
        return 1;
    }
    const Quat bent = fromAxisAngle({0, 0, 1}, std::numbers::pi_v<float> / 2);
    Track elbow;
    elbow.target = 1;
    elbow.path = TrackPath::Rotation;
    elbow.width = 4;
    elbow.times = {0.0f, 1.0f};
    elbow.values = {0, 0, 0, 1, bent.x, bent.y, bent.z, bent.w};
    auto clip = Clip::create("bend", {elbow});
    if (!clip) {
        std::fprintf(stderr, "%s\n", clip.message().c_str());
        return 1;
    }

    Model model;
    model.skeleton = *skeleton;
    Pose pose{{skeleton->restPose().begin(), skeleton->restPose().end()}, {}, std::vector<Mat4>(2)};
    for (const double t : {0.0, 0.5, 1.0}) {
        reference::sample(*clip, clipTime(t, clip->duration(), LoopMode::Clamp), pose.local, pose.weights);
        reference::localToModel(skeleton->parents(), pose.local, pose.model);
        std::printf("t=%.1f elbow rotation z=%.4f w=%.4f\n", t, double(pose.local[1].rotation.z),
                    double(pose.local[1].rotation.w));
    }

    if (argc > 1) {
        auto imported = importGltfFile(argv[1]);
        if (!imported) {
            std::fprintf(stderr, "%s\n", imported.message().c_str());
            return 1;
        }
        const std::size_t nodes = imported->nodeCount(), clips = imported->clips.size();
        std::printf("%s: %zu node%s, %zu animation%s\n", argv[1], nodes, nodes == 1 ? "" : "s", clips,
                    clips == 1 ? "" : "s");
    }
    return 0;
}
