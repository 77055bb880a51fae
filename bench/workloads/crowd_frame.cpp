#include "crowd_frame.hpp"

#include <algorithm>
#include <cmath>

#include "kinema/scene/posed_vertices.hpp"

namespace kinema::bench {

Result<CrowdFrame> crowdFrame(const Model& model, std::size_t count, float aspect) {
    auto built = buildModelScene(model);
    if (!built) return std::vector<Fault>(built.faults().begin(), built.faults().end());
    CrowdFrame out{std::move(*built), {}, {}, 0};
    Scene& scene = out.built.scene;

    // Sixteen poses over the clip's duration.
    constexpr std::size_t kPoses = 16;
    const double duration = out.built.boundAnimation.valid()
        ? static_cast<double>(scene.animations()[out.built.boundAnimation.value].duration())
        : 0.0;
    std::vector<DrawList> poses(kPoses);
    for (std::size_t p = 0; p < kPoses; ++p) {
        if (p > 0) (void)scene.advance(duration / kPoses);
        scene.updateWorldTransforms();
        scene.fillDrawList(poses[p]);
    }
    Vec3 lo, hi;
    if (!posedBounds(out.built.catalogue, poses[0], lo, hi)) return Fault{model.source, "the model draws nothing"};
    const float spacing = 1.3f * std::max(hi.x - lo.x, hi.z - lo.z);
    const auto side = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(count))));

    for (std::size_t i = 0; i < count; ++i) {
        const DrawList& pose = poses[i % kPoses];
        const float x = (static_cast<float>(i % side) - 0.5f * static_cast<float>(side - 1)) * spacing;
        const float z = (static_cast<float>(i / side) - 0.5f * static_cast<float>(side - 1)) * spacing;
        const auto paletteBase = static_cast<std::uint32_t>(out.draws.palettes.size());
        for (Mat4 m : pose.palettes) {
            m.m[12] += x;
            m.m[14] += z;
            out.draws.palettes.push_back(m);
        }
        const auto weightBase = static_cast<std::uint32_t>(out.draws.weights.size());
        out.draws.weights.insert(out.draws.weights.end(), pose.weights.begin(), pose.weights.end());
        for (DrawItem item : pose.items) {
            if (item.paletteCount == 0) {
                item.world.m[12] += x;
                item.world.m[14] += z;
            }
            item.paletteOffset += paletteBase;
            item.weightOffset += weightBase;
            out.draws.items.push_back(item);
            out.vertices += out.built.catalogue.at(out.built.catalogue.at(item.object).mesh).vertexCount();
        }
    }
    const float half = 0.5f * static_cast<float>(side) * spacing;
    const float height = hi.y - lo.y;
    PerspectiveCamera camera;
    camera.target = {0.0f, lo.y + 0.5f * height, 0.0f};
    camera.eye = {0.0f, lo.y + 1.2f * half, 1.9f * half};
    camera.fovYDegrees = 45.0f;
    camera.znear = 0.05f * spacing;
    camera.zfar = 8.0f * half + 10.0f * height;
    auto matrices = cameraMatrices(camera, aspect);
    if (!matrices) return std::vector<Fault>(matrices.faults().begin(), matrices.faults().end());
    out.camera = *matrices;
    return out;
}

}  // namespace kinema::bench
