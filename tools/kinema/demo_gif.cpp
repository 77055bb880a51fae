#include "demo_gif.hpp"

#include <cmath>

#include "kinema/gpu/gpu_context.hpp"
#include "kinema/gpu/offscreen_renderer.hpp"
#include "kinema/io/image_write.hpp"
#include "kinema/render/camera.hpp"
#include "kinema/render/catalogue.hpp"

namespace kinema::cli {
namespace {

constexpr float kBarHalfWidth = 0.045f;

Vec3 normalised(Vec3 v) {
    const float len = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    return len > 0.0f ? Vec3{v.x / len, v.y / len, v.z / len} : Vec3{0, 1, 0};
}

Vec3 crossOf(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }

// A box around each line of the primitive, its four corners at each end skinned
// like that end's vertex. No normals: the renderer shades each face flat.
RenderMesh barsOf(const MeshPrimitive& lines) {
    RenderMesh mesh;
    const std::uint32_t n = lines.influencesPerVertex;
    mesh.influencesPerVertex = n;
    for (std::size_t i = 0; i + 1 < lines.indices.size(); i += 2) {
        const std::uint32_t ends[2] = {lines.indices[i], lines.indices[i + 1]};
        const Vec3 a = lines.positions[ends[0]], b = lines.positions[ends[1]];
        const Vec3 d = normalised({b.x - a.x, b.y - a.y, b.z - a.z});
        const Vec3 side = std::abs(d.z) < 0.9f ? Vec3{0, 0, 1} : Vec3{1, 0, 0};
        const Vec3 u = normalised(crossOf(d, side)), v = crossOf(d, u);
        const auto base = static_cast<std::uint32_t>(mesh.positions.size());
        for (int e = 0; e < 2; ++e) {
            const Vec3 p = e == 0 ? a : b;
            for (int c = 0; c < 4; ++c) {
                const float su = (c == 0 || c == 3) ? -kBarHalfWidth : kBarHalfWidth;
                const float sv = c < 2 ? -kBarHalfWidth : kBarHalfWidth;
                mesh.positions.push_back(
                    {p.x + su * u.x + sv * v.x, p.y + su * u.y + sv * v.y, p.z + su * u.z + sv * v.z});
                const std::size_t from = std::size_t{ends[e]} * n;
                mesh.joints.insert(mesh.joints.end(), lines.joints.begin() + static_cast<std::ptrdiff_t>(from),
                                   lines.joints.begin() + static_cast<std::ptrdiff_t>(from + n));
                mesh.weights.insert(mesh.weights.end(), lines.weights.begin() + static_cast<std::ptrdiff_t>(from),
                                    lines.weights.begin() + static_cast<std::ptrdiff_t>(from + n));
            }
        }
        // Four sides (corner c at end 0 is base + c, at end 1 base + 4 + c) and two caps.
        for (std::uint32_t c = 0; c < 4; ++c) {
            const std::uint32_t c1 = (c + 1) % 4;
            mesh.indices.insert(mesh.indices.end(),
                                {base + c, base + c1, base + 4 + c1, base + c, base + 4 + c1, base + 4 + c});
        }
        mesh.indices.insert(mesh.indices.end(),
                            {base, base + 2, base + 1, base, base + 3, base + 2, base + 4, base + 5, base + 6, base + 4,
                             base + 6, base + 7});
    }
    return mesh;
}

// A floor of 12 x 12 tiles, 0.5 m each, in two greys.
RenderMesh checkeredFloor() {
    RenderMesh mesh;
    constexpr int kTiles = 12;
    constexpr float kTile = 0.5f;
    for (int z = 0; z < kTiles; ++z) {
        for (int x = 0; x < kTiles; ++x) {
            const float x0 = (static_cast<float>(x) - kTiles / 2.0f) * kTile,
                        z0 = (static_cast<float>(z) - kTiles / 2.0f) * kTile;
            const float shade = (x + z) % 2 == 0 ? 0.42f : 0.26f;
            const auto base = static_cast<std::uint32_t>(mesh.positions.size());
            for (const Vec3& p :
                 {Vec3{x0, 0, z0}, Vec3{x0, 0, z0 + kTile}, Vec3{x0 + kTile, 0, z0 + kTile}, Vec3{x0 + kTile, 0, z0}}) {
                mesh.positions.push_back(p);
                mesh.normals.push_back({0, 1, 0});
                mesh.colors.push_back({shade, shade, shade * 1.05f, 1.0f});
            }
            mesh.indices.insert(mesh.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
        }
    }
    return mesh;
}

}  // namespace

struct DemoGifRecorder::State {
    GpuContext context;
    OffscreenRenderer renderer;
    RenderCatalogue catalogue;
    DrawList draws;
    CameraMatrices camera;
    std::vector<ImageRGBA8> frames;
};

DemoGifRecorder::DemoGifRecorder(std::unique_ptr<State> state) noexcept : state_(std::move(state)) {}
DemoGifRecorder::DemoGifRecorder(DemoGifRecorder&&) noexcept = default;
DemoGifRecorder& DemoGifRecorder::operator=(DemoGifRecorder&&) noexcept = default;
DemoGifRecorder::~DemoGifRecorder() = default;

std::size_t DemoGifRecorder::frames() const noexcept { return state_->frames.size(); }
std::string DemoGifRecorder::deviceName() const { return state_->context.device().name; }

Result<DemoGifRecorder> DemoGifRecorder::create(const Model& model, std::uint32_t width, std::uint32_t height,
                                                const std::string& gpu) {
    GpuOptions options;
    options.device = gpu;
    auto context = GpuContext::create(options);
    if (!context) return std::vector<Fault>(context.faults().begin(), context.faults().end());
    auto renderer = OffscreenRenderer::create(*context, width, height);
    if (!renderer) return std::vector<Fault>(renderer.faults().begin(), renderer.faults().end());
    auto state = std::make_unique<State>(State{std::move(*context), std::move(*renderer), {}, {}, {}, {}});

    RenderCatalogue& c = state->catalogue;
    MaterialDesc body;
    body.baseColorFactor = {0.95f, 0.45f, 0.12f, 1.0f};
    body.doubleSided = true;
    MaterialDesc floor;
    DrawItem floorItem;
    floorItem.object = c.addRenderObject({c.addMesh(checkeredFloor()), c.addMaterial(floor)});
    DrawItem runner;
    runner.object = c.addRenderObject({c.addMesh(barsOf(model.meshes.at(0).primitives.at(0))), c.addMaterial(body)});
    runner.paletteCount = static_cast<std::uint32_t>(model.skins.at(0).joints.size());
    state->draws.items = {floorItem, runner};
    state->draws.palettes.resize(runner.paletteCount);

    PerspectiveCamera camera;
    camera.eye = {2.4f, 1.7f, 3.4f};
    camera.target = {0.0f, 0.85f, 0.0f};
    camera.fovYDegrees = 40.0f;
    auto matrices = cameraMatrices(camera, static_cast<float>(width) / static_cast<float>(height));
    if (!matrices) return std::vector<Fault>(matrices.faults().begin(), matrices.faults().end());
    state->camera = *matrices;
    return DemoGifRecorder(std::move(state));
}

Result<bool> DemoGifRecorder::capture(std::span<const Mat4> palette) {
    State& s = *state_;
    if (palette.size() != s.draws.palettes.size())
        return Fault{"demo",
                     "a palette of " + std::to_string(palette.size()) + " matrices for a skin of " +
                         std::to_string(s.draws.palettes.size()) + " joints"};
    std::copy(palette.begin(), palette.end(), s.draws.palettes.begin());
    FrameDesc frame;
    frame.catalogue = &s.catalogue;
    frame.draws = &s.draws;
    frame.viewProjection = s.camera.viewProjection;
    frame.eye = s.camera.eye;
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
