#include "demo_gif.hpp"

#include <algorithm>
#include <cmath>

#include "kinema/gpu/gpu_context.hpp"
#include "kinema/gpu/offscreen_renderer.hpp"
#include "kinema/io/image_write.hpp"
#include "kinema/render/camera.hpp"
#include "kinema/render/catalogue.hpp"

namespace kinema::cli {
namespace {

// A primitive as the renderer takes it: influences index the primitive's skin's
// palette, which the draw points at. No normals: the renderer shades each face flat.
RenderMesh renderMeshOf(const MeshPrimitive& p) {
    RenderMesh mesh;
    mesh.positions = p.positions;
    mesh.influencesPerVertex = p.influencesPerVertex;
    mesh.joints = p.joints;
    mesh.weights = p.weights;
    mesh.indices = p.indices;
    return mesh;
}

// The ground under the whole walk (the script stops within 15 m): quads of 0.25 m on
// groundHeight(), in 1 m tiles of two greys, with normals from its slope.
RenderMesh groundMesh() {
    RenderMesh mesh;
    constexpr float kCell = 0.25f, kX0 = -4.0f, kX1 = 4.0f, kZ0 = -4.0f, kZ1 = 18.0f;
    const auto normal = [](float x, float z) {
        constexpr float e = 1e-3f;
        const float dx = (groundHeight(x + e, z) - groundHeight(x - e, z)) / (2 * e);
        const float dz = (groundHeight(x, z + e) - groundHeight(x, z - e)) / (2 * e);
        const Vec3 n{-dx, 1.0f, -dz};
        return n * (1.0f / length(n));
    };
    const int nx = static_cast<int>(std::lround((kX1 - kX0) / kCell)),
              nz = static_cast<int>(std::lround((kZ1 - kZ0) / kCell));
    for (int iz = 0; iz < nz; ++iz) {
        for (int ix = 0; ix < nx; ++ix) {
            const float x0 = kX0 + static_cast<float>(ix) * kCell, z0 = kZ0 + static_cast<float>(iz) * kCell;
            const bool light = (static_cast<int>(std::floor(x0)) + static_cast<int>(std::floor(z0))) % 2 == 0;
            const float shade = light ? 0.42f : 0.24f;
            const auto base = static_cast<std::uint32_t>(mesh.positions.size());
            for (const auto& [x, z] : {std::pair{x0, z0}, std::pair{x0, z0 + kCell}, std::pair{x0 + kCell, z0 + kCell},
                                       std::pair{x0 + kCell, z0}}) {
                mesh.positions.push_back({x, groundHeight(x, z), z});
                mesh.normals.push_back(normal(x, z));
                mesh.colors.push_back({shade, shade * 1.02f, shade * 0.9f, 1.0f});
            }
            mesh.indices.insert(mesh.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
        }
    }
    return mesh;
}

// A small cube: the point the head follows.
RenderMesh markerMesh() {
    RenderMesh mesh;
    constexpr float s = 0.04f;
    for (int c = 0; c < 8; ++c) mesh.positions.push_back({(c & 1) ? s : -s, (c & 2) ? s : -s, (c & 4) ? s : -s});
    constexpr std::uint32_t kFaces[6][4] = {{0, 2, 6, 4}, {1, 5, 7, 3}, {0, 4, 5, 1},
                                            {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 6, 7, 5}};
    for (const auto& f : kFaces) mesh.indices.insert(mesh.indices.end(), {f[0], f[1], f[2], f[0], f[2], f[3]});
    return mesh;
}

MaterialDesc colour(float r, float g, float b) {
    MaterialDesc m;
    m.baseColorFactor = {r, g, b, 1.0f};
    m.doubleSided = true;
    return m;
}

}  // namespace

struct DemoGifRecorder::State {
    GpuContext context;
    OffscreenRenderer renderer;
    RenderCatalogue catalogue;
    DrawList draws;
    std::uint32_t width = 0, height = 0;
    std::size_t bodyJoints = 0, clothesJoints = 0;
    std::size_t propItem = 0, markerItem = 0;
    std::vector<ImageRGBA8> frames;
};

DemoGifRecorder::DemoGifRecorder(std::unique_ptr<State> state) noexcept : state_(std::move(state)) {}
DemoGifRecorder::DemoGifRecorder(DemoGifRecorder&&) noexcept = default;
DemoGifRecorder& DemoGifRecorder::operator=(DemoGifRecorder&&) noexcept = default;
DemoGifRecorder::~DemoGifRecorder() = default;

std::size_t DemoGifRecorder::frames() const noexcept { return state_->frames.size(); }
std::string DemoGifRecorder::deviceName() const { return state_->context.device().name; }

Result<DemoGifRecorder> DemoGifRecorder::create(const Humanoid& humanoid, std::uint32_t width, std::uint32_t height,
                                                const std::string& gpu) {
    GpuOptions options;
    options.device = gpu;
    auto context = GpuContext::create(options);
    if (!context) return std::vector<Fault>(context.faults().begin(), context.faults().end());
    auto renderer = OffscreenRenderer::create(*context, width, height);
    if (!renderer) return std::vector<Fault>(renderer.faults().begin(), renderer.faults().end());
    auto state = std::make_unique<State>(
        State{std::move(*context), std::move(*renderer), {}, {}, width, height, 0, 0, 0, 0, {}});
    const Model& model = humanoid.model;
    state->bodyJoints = model.skins.at(0).joints.size();
    state->clothesJoints = model.skins.at(1).joints.size();

    RenderCatalogue& c = state->catalogue;
    std::vector<DrawItem>& items = state->draws.items;
    DrawItem ground;
    ground.object = c.addRenderObject({c.addMesh(groundMesh()), c.addMaterial(MaterialDesc{})});
    items.push_back(ground);
    DrawItem body;
    body.object = c.addRenderObject(
        {c.addMesh(renderMeshOf(model.meshes.at(0).primitives.at(0))), c.addMaterial(colour(0.80f, 0.55f, 0.40f))});
    body.paletteCount = static_cast<std::uint32_t>(state->bodyJoints);
    items.push_back(body);
    // The clothes' primitives share their skin's palette, after the body's.
    const MaterialDesc clothes[] = {colour(0.10f, 0.35f, 0.75f), colour(0.20f, 0.20f, 0.22f)};
    for (std::size_t p = 0; p < 2; ++p) {
        DrawItem item;
        item.object = c.addRenderObject(
            {c.addMesh(renderMeshOf(model.meshes.at(1).primitives.at(p))), c.addMaterial(clothes[p])});
        item.paletteOffset = static_cast<std::uint32_t>(state->bodyJoints);
        item.paletteCount = static_cast<std::uint32_t>(state->clothesJoints);
        items.push_back(item);
    }
    DrawItem prop;
    prop.object = c.addRenderObject({c.addMesh(renderMeshOf(humanoid.prop)), c.addMaterial(colour(0.8f, 0.8f, 0.85f))});
    state->propItem = items.size();
    items.push_back(prop);
    DrawItem marker;
    marker.object = c.addRenderObject({c.addMesh(markerMesh()), c.addMaterial(colour(0.95f, 0.8f, 0.1f))});
    state->markerItem = items.size();
    items.push_back(marker);
    state->draws.palettes.resize(state->bodyJoints + state->clothesJoints);
    return DemoGifRecorder(std::move(state));
}

Result<bool> DemoGifRecorder::capture(const Mat4& world, std::span<const Mat4> bodyPalette,
                                      std::span<const Mat4> clothesPalette, const Mat4& propWorld, Vec3 lookAt) {
    State& s = *state_;
    if (bodyPalette.size() != s.bodyJoints || clothesPalette.size() != s.clothesJoints)
        return Fault{"demo",
                     "palettes of " + std::to_string(bodyPalette.size()) + " and " +
                         std::to_string(clothesPalette.size()) + " matrices for skins of " +
                         std::to_string(s.bodyJoints) + " and " + std::to_string(s.clothesJoints) + " joints"};
    // The renderer takes skinned draws' palettes in world space.
    auto out = s.draws.palettes.begin();
    for (const Mat4& m : bodyPalette) *out++ = world * m;
    for (const Mat4& m : clothesPalette) *out++ = world * m;
    s.draws.items[s.propItem].world = propWorld;
    Mat4 marker;
    marker.m[12] = lookAt.x;
    marker.m[13] = lookAt.y;
    marker.m[14] = lookAt.z;
    s.draws.items[s.markerItem].world = marker;

    // The camera follows the character, from its front right.
    PerspectiveCamera camera;
    camera.target = {world.m[12], world.m[13] + 0.85f, world.m[14] + 0.5f};
    camera.eye = camera.target + Vec3{2.6f, 0.7f, 2.6f};
    camera.fovYDegrees = 45.0f;
    auto matrices = cameraMatrices(camera, static_cast<float>(s.width) / static_cast<float>(s.height));
    if (!matrices) return std::vector<Fault>(matrices.faults().begin(), matrices.faults().end());

    FrameDesc frame;
    frame.catalogue = &s.catalogue;
    frame.draws = &s.draws;
    frame.viewProjection = matrices->viewProjection;
    frame.eye = matrices->eye;
    frame.background = {0.03f, 0.035f, 0.05f, 1.0f};
    ImageRGBA8 image;
    auto stats = s.renderer.render(frame, &image);
    if (!stats) return std::vector<Fault>(stats.faults().begin(), stats.faults().end());
    s.frames.push_back(std::move(image));
    return true;
}

Result<std::size_t> DemoGifRecorder::write(const std::string& path, double fps) const {
    GifOptions options;
    options.fps = fps;
    auto bytes = encodeGif(state_->frames, options);
    if (!bytes) return std::vector<Fault>(bytes.faults().begin(), bytes.faults().end());
    return writeFileBytes(path, *bytes);
}

}  // namespace kinema::cli
