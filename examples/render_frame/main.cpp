// render_frame: a scene drawn by kinema's Vulkan renderer, headless, into a PNG.
//
//   render_frame                 a red square built in code, turned by a tween, checked pixel by pixel
//   render_frame FILE.glb [OUT]  the file's first animation at 0.5 s, framed whole, written to OUT (frame.png)
//
// Without a GPU, Mesa's CPU Vulkan driver (lavapipe) draws.
#include <kinema/gpu/gpu_context.hpp>
#include <kinema/gpu/offscreen_renderer.hpp>
#include <kinema/kinema.hpp>

#include <cmath>
#include <iostream>
#include <string>

namespace {

int fail(const std::string& what) {
    std::cerr << "render_frame: " << what << '\n';
    return 1;
}

// Renders `scene` (its world transforms resolved) with `camera` and returns the image.
kinema::Result<kinema::ImageRGBA8> draw(const kinema::Scene& scene, const kinema::RenderCatalogue& catalogue,
                                        const kinema::CameraMatrices& camera, std::uint32_t width,
                                        std::uint32_t height) {
    auto context = kinema::GpuContext::create();  // the first GPU, else any Vulkan device
    if (!context) return std::vector<kinema::Fault>(context.faults().begin(), context.faults().end());
    std::cout << "device: " << context->device().name << '\n';
    auto renderer = kinema::OffscreenRenderer::create(*context, width, height);
    if (!renderer) return std::vector<kinema::Fault>(renderer.faults().begin(), renderer.faults().end());
    kinema::DrawList draws;
    scene.fillDrawList(draws);
    kinema::FrameDesc frame;
    frame.catalogue = &catalogue;
    frame.draws = &draws;
    frame.viewProjection = camera.viewProjection;
    frame.eye = camera.eye;
    frame.background = {0.0f, 0.0f, 0.0f, 0.0f};  // transparent: alpha is coverage
    kinema::ImageRGBA8 image;
    auto stats = renderer->render(frame, &image);
    if (!stats) return std::vector<kinema::Fault>(stats.faults().begin(), stats.faults().end());
    return image;
}

int renderFile(const char* path, const std::string& out) {
    kinema::ImportOptions options;
    options.decodeImages = true;  // base colour textures
    auto model = kinema::importGltfFile(path, options);
    if (!model) return fail(model.message());
    auto built = kinema::buildModelScene(*model);
    if (!built) return fail(built.message());
    if (auto s = built->scene.advance(0.5); !s) return fail(s.message());
    built->scene.updateWorldTransforms();
    kinema::DrawList draws;
    built->scene.fillDrawList(draws);
    kinema::Vec3 lo, hi;
    if (!kinema::posedBounds(built->catalogue, draws, lo, hi)) return fail("the file draws nothing");
    const auto camera = kinema::cameraMatrices(kinema::frameBounds(lo, hi, 4.0f / 3.0f), 4.0f / 3.0f);
    auto image = draw(built->scene, built->catalogue, *camera, 640, 480);
    if (!image) return fail(image.message());
    auto png = kinema::encodePng(*image);
    if (!png) return fail(png.message());
    if (auto written = kinema::writeFileBytes(out, *png); !written) return fail(written.message());
    std::cout << "wrote " << out << '\n';
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1) return renderFile(argv[1], argc > 2 ? argv[2] : "frame.png");

    // A 2 x 2 red square facing +Z, on a node turned by a tween to 90 degrees about Z at 1 s.
    kinema::RenderCatalogue catalogue;
    kinema::RenderMesh square;
    square.positions = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
    square.normals.assign(4, {0, 0, 1});
    square.indices = {0, 1, 2, 0, 2, 3};
    kinema::MaterialDesc red;
    red.baseColorFactor = {1.0f, 0.0f, 0.0f, 1.0f};
    const auto object = catalogue.addRenderObject({catalogue.addMesh(square), catalogue.addMaterial(red)});

    kinema::Scene scene;
    kinema::Tween turn;
    if (!turn.rotation.insert(0.0, kinema::Quat{0, 0, 0, 1}) ||
        !turn.rotation.insert(1.0, kinema::Quat{0, 0, std::sqrt(0.5f), std::sqrt(0.5f)}))
        return fail("tween keys");
    kinema::AnimatorRole spin;
    spin.tween = kinema::TweenPlayback{scene.addTween(turn)};
    const auto node = scene.addNode({}, "spinner", kinema::Transform{}, spin);
    if (!node) return fail(node.message());
    if (!scene.addNode(*node, "square", kinema::Transform{}, kinema::RenderableRole{object, {}, {}}))
        return fail("node");
    if (auto s = scene.advance(0.5); !s) return fail(s.message());  // 45 degrees
    scene.updateWorldTransforms();

    // From (0, 0, 4) with a 53.13 degree field of view the view is 4 units high at z = 0:
    // 64 pixels show 4 units, one unit is 16 pixels, the square's corners reach 1.41 units.
    kinema::PerspectiveCamera front;
    front.eye = {0, 0, 4};
    front.fovYDegrees = 2.0f * std::atan(0.5f) * 180.0f / 3.14159265f;
    const auto camera = kinema::cameraMatrices(front, 1.0f);
    if (!camera) return fail(camera.message());
    auto image = draw(scene, catalogue, *camera, 64, 64);
    if (!image) return fail(image.message());

    // Turned 45 degrees, the square is a diamond: its corner on +X reaches 1.41 units
    // (22.6 pixels from the centre), while (1.2, 0.7) units off-centre, inside the
    // unturned square, is now outside it (|x| + |y| = 1.9 > 1.41).
    auto covered = [&](float ux, float uy) {
        const auto px = static_cast<std::uint32_t>(32.0f + 16.0f * ux),
                   py = static_cast<std::uint32_t>(32.0f - 16.0f * uy);
        return image->pixels[(py * 64 + px) * 4 + 3] == 255;
    };
    const bool ok = covered(0, 0) && covered(1.3f, 0.0f) && !covered(1.2f, 0.7f) && !covered(-1.2f, -0.7f);
    std::cout << "diamond: centre " << covered(0, 0) << ", tip (1.3, 0) " << covered(1.3f, 0.0f)
              << ", corner (1.2, 0.7) " << covered(1.2f, 0.7f) << '\n';
    return ok ? 0 : 1;
}
