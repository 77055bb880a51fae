// The offscreen renderer on hand-built scenes whose pixels follow from closed forms:
// winding and culling, the shading formula, textures, alpha modes, the overlay,
// determinism and refusals.
#include <gtest/gtest.h>

#include <cmath>

#include "gpu_test_support.hpp"
#include "scene_fixtures.hpp"
#include "kinema/render/catalogue.hpp"
#include "support/raster_reference.hpp"

namespace kinema {
namespace {

using namespace test;  // GpuTest, testGpu, srgbByte and the scene fixtures

class Renderer : public GpuTest {};

TEST_F(Renderer, OpensTheRequestedDeviceWithValidation) {
    const GpuDeviceInfo& info = testGpu().device();
    EXPECT_FALSE(info.name.empty());
    EXPECT_GE(info.apiVersion, (1u << 22) | (2u << 12));  // Vulkan 1.2
    if (std::getenv("KINEMA_TEST_GPU") == nullptr) {
        EXPECT_TRUE(info.software) << info.name;
    }
}

// A device asked for and not there is told apart from the machine's own faults.
TEST_F(Renderer, AMissingRequestedDeviceIsToldApart) {
    GpuOptions options;
    options.device = "no-such-device";
    const auto missing = GpuContext::create(options);
    ASSERT_FALSE(missing);
    EXPECT_TRUE(asksForMissingDevice(missing.faults())) << missing.message();
    EXPECT_FALSE(asksForMissingDevice(std::vector<Fault>{{"gpu", "no Vulkan device found"}}));
    EXPECT_FALSE(asksForMissingDevice({}));
}

TEST_F(Renderer, SingleSidedTrianglesShowTheirFrontOnlyAndDoubleSidedBoth) {
    OffscreenRenderer renderer = makeRenderer();
    for (bool doubleSided : {false, true}) {
        for (bool front : {true, false}) {
            MaterialDesc material;
            material.doubleSided = doubleSided;
            OneObject o = oneObject(triangleMesh(front), material);
            ImageRGBA8 image;
            auto stats = renderer.render(frameOf(o, frontCamera()), &image);
            ASSERT_TRUE(stats.ok()) << stats.message();
            const bool visible = front || doubleSided;
            // The triangle covers a quarter of the image: half of the middle square.
            if (visible) {
                EXPECT_NEAR(static_cast<double>(coveredPixels(image)), kSize * kSize / 8.0, kSize)
                    << "doubleSided " << doubleSided << " front " << front;
            } else {
                EXPECT_EQ(coveredPixels(image), 0u) << "doubleSided " << doubleSided;
            }
        }
    }
}

TEST_F(Renderer, AMirroringWorldMatrixKeepsTheFrontFaceVisible) {
    // Scaling x by -1 mirrors the triangle: glTF then counts its clockwise winding as
    // the front, so the mirrored front-facing triangle still shows.
    Mat4 mirror;
    mirror.m[0] = -1.0f;
    OffscreenRenderer renderer = makeRenderer();
    OneObject o = oneObject(triangleMesh(true), MaterialDesc{}, mirror);
    ImageRGBA8 image;
    ASSERT_TRUE(renderer.render(frameOf(o, frontCamera()), &image).ok());
    EXPECT_GT(coveredPixels(image), kSize * kSize / 10);
}

TEST_F(Renderer, ShadedColourIsAlbedoTimesAmbientPlusDiffuseInSrgb) {
    MaterialDesc material;
    material.baseColorFactor = {0.5f, 0.25f, 1.0f, 1.0f};
    RenderMesh mesh = squareMesh();
    mesh.colors.assign(4, {1.0f, 0.5f, 0.5f, 1.0f});
    OneObject o = oneObject(mesh, material);
    FrameDesc frame = frameOf(o, frontCamera());
    // Light at 60 degrees from the normal: diffuse term cos 60 = 0.5.
    frame.toLight = {0.0f, std::sqrt(3.0f) / 2.0f, 0.5f};
    frame.lightColor = {0.6f, 0.6f, 0.6f};
    frame.ambientColor = {0.2f, 0.1f, 0.3f};
    frame.background = {0.0f, 0.0f, 0.0f, 1.0f};
    ImageRGBA8 image;
    OffscreenRenderer renderer = makeRenderer();
    ASSERT_TRUE(renderer.render(frame, &image).ok());
    const float albedo[3] = {0.5f * 1.0f, 0.25f * 0.5f, 1.0f * 0.5f};
    const float ambient[3] = {0.2f, 0.1f, 0.3f};
    const std::uint8_t* centre = pixelAt(image, kSize / 2, kSize / 2);
    for (int c = 0; c < 3; ++c) {
        const float lit = albedo[c] * (ambient[c] + 0.6f * 0.5f);
        EXPECT_NEAR(centre[c], srgbByte(lit), 1) << "channel " << c;
    }
    EXPECT_EQ(centre[3], 255);
    const std::uint8_t* corner = pixelAt(image, 0, 0);
    EXPECT_EQ(corner[0], 0);
    EXPECT_EQ(corner[3], 255);
}

TEST_F(Renderer, BaseColourTextureIsSampledWithItsFilterAndUpright) {
    // A 2x2 texture, nearest filtering: red top-left, green top-right, blue
    // bottom-left, white bottom-right (texture v = 0 is the image's top row).
    RenderCatalogue catalogue;
    ImageRGBA8 texels;
    texels.width = 2;
    texels.height = 2;
    texels.pixels = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
    const ImageId image = catalogue.addImage(texels);
    TextureDesc texture;
    texture.image = image;
    texture.minFilter = texture.magFilter = TextureFilter::Nearest;
    MaterialDesc material;
    material.baseColorTexture = catalogue.addTexture(texture);
    const MeshId mesh = catalogue.addMesh(squareMesh());
    DrawList draws;
    DrawItem item;
    item.object = catalogue.addRenderObject({mesh, catalogue.addMaterial(material)});
    draws.items.push_back(item);
    FrameDesc frame;
    frame.catalogue = &catalogue;
    frame.draws = &draws;
    const CameraMatrices camera = frontCamera();
    frame.viewProjection = camera.viewProjection;
    frame.eye = camera.eye;
    frame.toLight = {0, 0, 1};
    frame.lightColor = {1, 1, 1};
    frame.ambientColor = {0, 0, 0};
    ImageRGBA8 out;
    OffscreenRenderer renderer = makeRenderer();
    ASSERT_TRUE(renderer.render(frame, &out).ok());
    // The square spans pixels 16..47; sample the middle of each quarter.
    auto expectColour = [&](std::uint32_t x, std::uint32_t y, int r, int g, int b) {
        const std::uint8_t* p = pixelAt(out, x, y);
        EXPECT_EQ(p[0], r) << x << "," << y;
        EXPECT_EQ(p[1], g) << x << "," << y;
        EXPECT_EQ(p[2], b) << x << "," << y;
    };
    expectColour(24, 24, 255, 0, 0);
    expectColour(40, 24, 0, 255, 0);
    expectColour(24, 40, 0, 0, 255);
    expectColour(40, 40, 255, 255, 255);
}

TEST_F(Renderer, AlphaMaskDiscardsBelowTheCutoffAndBlendMixes) {
    OffscreenRenderer renderer = makeRenderer();
    MaterialDesc masked;
    masked.alphaMode = AlphaMode::Mask;
    masked.alphaCutoff = 0.5f;
    for (float alpha : {0.4f, 0.6f}) {
        masked.baseColorFactor = {1, 1, 1, alpha};
        OneObject o = oneObject(squareMesh(), masked);
        ImageRGBA8 image;
        ASSERT_TRUE(renderer.render(frameOf(o, frontCamera()), &image).ok());
        EXPECT_EQ(pixelAt(image, kSize / 2, kSize / 2)[3], alpha < 0.5f ? 0 : 255) << alpha;
    }
    MaterialDesc blended;
    blended.alphaMode = AlphaMode::Blend;
    blended.baseColorFactor = {1, 0, 0, 0.25f};
    OneObject o = oneObject(squareMesh(), blended);
    FrameDesc frame = frameOf(o, frontCamera());
    frame.toLight = {0, 0, 1};
    frame.lightColor = {1, 1, 1};
    frame.ambientColor = {0, 0, 0};
    frame.background = {0, 0, 1, 1};
    ImageRGBA8 image;
    ASSERT_TRUE(renderer.render(frame, &image).ok());
    const std::uint8_t* p = pixelAt(image, kSize / 2, kSize / 2);
    // Linear blend: red 0.25, blue 0.75, alpha 0.25 + 0.75 * 1.
    EXPECT_NEAR(p[0], srgbByte(0.25f), 1);
    EXPECT_NEAR(p[2], srgbByte(0.75f), 1);
    EXPECT_EQ(p[3], 255);
}

TEST_F(Renderer, CoverageMatchesTheCpuRasteriserExactlyForASquare) {
    OffscreenRenderer renderer = makeRenderer();
    // A square rotated off the axes, so edges cross pixel centres at many phases.
    Mat4 world;
    const float a = 0.3f;
    world.m[0] = std::cos(a);
    world.m[1] = std::sin(a);
    world.m[4] = -std::sin(a);
    world.m[5] = std::cos(a);
    OneObject o = oneObject(squareMesh(), MaterialDesc{}, world);
    const CameraMatrices camera = frontCamera();
    ImageRGBA8 image;
    ASSERT_TRUE(renderer.render(frameOf(o, camera), &image).ok());
    std::vector<std::array<float, 4>> clip;
    for (const Vec3& p : o.catalogue.meshes()[0].positions)
        clip.push_back(toClip(camera.viewProjection, transformPoint(world, p)));
    test::RasterTarget target = test::makeRasterTarget(kSize, kSize);
    test::rasteriseTriangles(clip, o.catalogue.meshes()[0].indices, target);
    std::vector<std::uint8_t> gpu(kSize * kSize);
    for (std::size_t i = 0; i < gpu.size(); ++i) gpu[i] = image.pixels[i * 4 + 3] != 0 ? 1 : 0;
    EXPECT_GE(test::intersectionOverUnion(gpu, target.coverage), 0.99);
}

TEST_F(Renderer, RunsOfOneObjectAreOneInstancedDrawEachPlacedByItsOwnMatrix) {
    OffscreenRenderer renderer = makeRenderer();
    OneObject o = oneObject(squareMesh(), MaterialDesc{});
    // Three copies of the square scaled to a quarter, at x = -1.5, 0 and 1.5.
    o.draws.items.resize(3, o.draws.items[0]);
    for (int i = 0; i < 3; ++i) {
        Mat4& w = o.draws.items[static_cast<std::size_t>(i)].world;
        w.m[0] = w.m[5] = 0.25f;
        w.m[12] = 1.5f * static_cast<float>(i - 1);
    }
    const CameraMatrices camera = frontCamera();
    ImageRGBA8 image;
    auto stats = renderer.render(frameOf(o, camera), &image);
    ASSERT_TRUE(stats.ok()) << stats.message();
    EXPECT_EQ(stats->draws, 3u);
    EXPECT_EQ(stats->drawCalls, 1u);
    std::vector<std::array<float, 4>> clip;
    std::vector<std::uint32_t> indices;
    for (const DrawItem& item : o.draws.items) {
        const auto base = static_cast<std::uint32_t>(clip.size());
        for (const Vec3& p : o.catalogue.meshes()[0].positions)
            clip.push_back(toClip(camera.viewProjection, transformPoint(item.world, p)));
        for (std::uint32_t i : o.catalogue.meshes()[0].indices) indices.push_back(base + i);
    }
    test::RasterTarget target = test::makeRasterTarget(kSize, kSize);
    test::rasteriseTriangles(clip, indices, target);
    std::vector<std::uint8_t> gpu(kSize * kSize);
    for (std::size_t i = 0; i < gpu.size(); ++i) gpu[i] = image.pixels[i * 4 + 3] != 0 ? 1 : 0;
    EXPECT_GE(test::intersectionOverUnion(gpu, target.coverage), 0.99);
    EXPECT_GT(test::countSet(target.coverage), 3u * 30u);

    // Another object between them splits the run.
    const MeshId other = o.catalogue.addMesh(triangleMesh(true));
    DrawItem between = o.draws.items[1];
    between.object = o.catalogue.addRenderObject({other, MaterialId{0}});
    o.draws.items.insert(o.draws.items.begin() + 1, between);
    auto split = renderer.render(frameOf(o, camera));
    ASSERT_TRUE(split.ok()) << split.message();
    EXPECT_EQ(split->draws, 4u);
    EXPECT_EQ(split->drawCalls, 3u);
}

TEST_F(Renderer, TheSameFrameTwiceIsByteIdentical) {
    OffscreenRenderer renderer = makeRenderer();
    OneObject o = oneObject(squareMesh(), MaterialDesc{});
    ImageRGBA8 a, b;
    ASSERT_TRUE(renderer.render(frameOf(o, frontCamera()), &a).ok());
    ASSERT_TRUE(renderer.render(frameOf(o, frontCamera()), &b).ok());
    EXPECT_EQ(a.pixels, b.pixels);
}

TEST_F(Renderer, ResourcesAreBuiltOnceForAnUnchangedCatalogue) {
    OffscreenRenderer renderer = makeRenderer();
    OneObject o = oneObject(squareMesh(), MaterialDesc{});
    auto first = renderer.render(frameOf(o, frontCamera()));
    ASSERT_TRUE(first.ok()) << first.message();
    EXPECT_TRUE(first->resourcesBuilt);
    o.draws.items[0].world.m[12] = 0.25f;  // animation: a moved object
    auto second = renderer.render(frameOf(o, frontCamera()));
    ASSERT_TRUE(second.ok());
    EXPECT_FALSE(second->resourcesBuilt);
    o.catalogue.addImage(ImageRGBA8{1, 1, {1, 2, 3, 4}});  // a catalogue change
    auto third = renderer.render(frameOf(o, frontCamera()));
    ASSERT_TRUE(third.ok());
    EXPECT_TRUE(third->resourcesBuilt);
}

TEST_F(Renderer, ARigidFrameBindsNoPaletteAndASkinnedOneDoes) {
    OffscreenRenderer renderer = makeRenderer();
    RenderMesh mesh = squareMesh();
    mesh.influencesPerVertex = 1;
    mesh.joints.assign(4, 0);
    mesh.weights.assign(4, 1.0f);
    OneObject o = oneObject(mesh, MaterialDesc{});
    auto rigid = renderer.render(frameOf(o, frontCamera()));
    ASSERT_TRUE(rigid.ok()) << rigid.message();
    EXPECT_FALSE(rigid->deformationBound);
    // The same mesh skinned by a palette that moves it right by 0.5: the coverage moves
    // by a quarter of the image's half width, 8 pixels.
    Mat4 shift;
    shift.m[12] = 0.5f;
    o.draws.palettes = {shift};
    o.draws.items[0].paletteCount = 1;
    ImageRGBA8 image;
    auto skinned = renderer.render(frameOf(o, frontCamera()), &image);
    ASSERT_TRUE(skinned.ok()) << skinned.message();
    EXPECT_TRUE(skinned->deformationBound);
    // The square spans x in [16, 48) at rest, [24, 56) shifted.
    EXPECT_EQ(pixelAt(image, 20, kSize / 2)[3], 0);
    EXPECT_EQ(pixelAt(image, 52, kSize / 2)[3], 255);
}

// The pixels of the top-left 30 x 30 corner of a frame of `overlay` alone (no
// meshes), counted by colour.
struct CornerColours {
    std::size_t white = 0, blue = 0, red = 0;
};

CornerColours overlayCorner(OffscreenRenderer& renderer, const Overlay& overlay, ImageRGBA8& image) {
    RenderCatalogue catalogue;
    DrawList none;
    FrameDesc frame;
    frame.catalogue = &catalogue;
    frame.draws = &none;
    frame.viewProjection = frontCamera().viewProjection;
    frame.overlay = &overlay;
    EXPECT_TRUE(renderer.render(frame, &image).ok());
    CornerColours c;
    for (std::uint32_t y = 0; y < 30 && !image.pixels.empty(); ++y) {
        for (std::uint32_t x = 0; x < 30; ++x) {
            const std::uint8_t* p = pixelAt(image, x, y);
            c.white += p[0] == 255 && p[1] == 255 && p[2] == 255 ? 1u : 0u;
            c.blue += p[0] == 0 && p[1] == 0 && p[2] == 255 ? 1u : 0u;
            c.red += p[0] == 255 && p[1] == 0 && p[2] == 0 ? 1u : 0u;
        }
    }
    return c;
}

TEST_F(Renderer, OverlayTextIsDrawnOverItsBackdrop) {
    OffscreenRenderer renderer = makeRenderer();
    Overlay overlay;
    overlay.texts.push_back({8.0f, 8.0f, "H", {1, 1, 1, 1}, {0, 0, 1, 1}, 2.0f});
    ImageRGBA8 image;
    const CornerColours c = overlayCorner(renderer, overlay, image);
    EXPECT_GT(c.white, 10u);                  // the glyph's strokes
    EXPECT_GT(c.blue, 30u);                   // the backdrop around them
    EXPECT_EQ(pixelAt(image, 50, 50)[3], 0);  // nothing elsewhere
}

// Text goes over the rig it labels: a dot covering the text's corner leaves the
// glyph and its backdrop whole. (World (x, y, 0) is NDC (x / 2, -y / 2) here: the dot
// at (-1.25, 1.25) is centred on pixel (12, 12), 30 pixels wide.)
TEST_F(Renderer, OverlayTextIsDrawnOverDots) {
    OffscreenRenderer renderer = makeRenderer();
    Overlay overlay;
    overlay.texts.push_back({8.0f, 8.0f, "H", {1, 1, 1, 1}, {0, 0, 1, 1}, 2.0f});
    overlay.dots.push_back({{-1.25f, 1.25f, 0.0f}, {1, 0, 0, 1}, 30.0f});
    ImageRGBA8 image;
    const CornerColours c = overlayCorner(renderer, overlay, image);
    EXPECT_GT(c.white, 10u);
    EXPECT_GT(c.blue, 30u);
    EXPECT_GT(c.red, 0u);  // the dot shows around the backdrop
}

TEST_F(Renderer, TheOverlayIsDrawnOverTheMeshWithoutDepthTest) {
    OffscreenRenderer renderer = makeRenderer();
    OneObject o = oneObject(squareMesh(), MaterialDesc{});
    Overlay overlay;
    // A segment behind the square (z = -1) still shows: the overlay ignores depth.
    overlay.segments.push_back({{-0.5f, 0.0f, -1.0f}, {0.5f, 0.0f, -1.0f}, {1, 0, 0, 1}, 3.0f});
    overlay.dots.push_back({{0.5f, 0.5f, 0.0f}, {0, 1, 0, 1}, 5.0f});
    FrameDesc frame = frameOf(o, frontCamera());
    frame.overlay = &overlay;
    ImageRGBA8 image;
    ASSERT_TRUE(renderer.render(frame, &image).ok());
    const std::uint8_t* onSegment = pixelAt(image, kSize / 2, kSize / 2);
    EXPECT_EQ(onSegment[0], 255);
    EXPECT_EQ(onSegment[1], 0);
    // (0.5, 0.5, 0) is at NDC (0.25, -0.25): pixel (40, 24).
    const std::uint8_t* onDot = pixelAt(image, 40, 24);
    EXPECT_EQ(onDot[0], 0);
    EXPECT_EQ(onDot[1], 255);
}

TEST_F(Renderer, AMovedFromRendererRefusesToDraw) {
    OffscreenRenderer renderer = makeRenderer();
    OffscreenRenderer moved = std::move(renderer);
    EXPECT_EQ(moved.width(), kSize);
    OneObject o = oneObject(squareMesh(), MaterialDesc{});
    const FrameDesc frame = frameOf(o, frontCamera());
    EXPECT_TRUE(moved.render(frame).ok());
    // NOLINTBEGIN(bugprone-use-after-move): what a moved-from renderer does is the point.
    EXPECT_EQ(renderer.width(), 0u);
    EXPECT_EQ(renderer.height(), 0u);
    EXPECT_EQ(renderer.render(frame).message(), "renderer: moved from: it has no target to draw into");
    EXPECT_FALSE(renderer.deformedPositions(frame, 0).ok());
    // NOLINTEND(bugprone-use-after-move)
}

TEST_F(Renderer, BadFramesAreRefusedWithTheirPlace) {
    OffscreenRenderer renderer = makeRenderer();
    OneObject o = oneObject(squareMesh(), MaterialDesc{});
    FrameDesc frame = frameOf(o, frontCamera());
    frame.catalogue = nullptr;
    EXPECT_NE(renderer.render(frame).message().find("no render catalogue"), std::string::npos);
    frame = frameOf(o, frontCamera());
    o.draws.items[0].paletteCount = 3;
    auto outside = renderer.render(frame);
    ASSERT_FALSE(outside.ok());
    EXPECT_NE(outside.message().find("draws/items/0"), std::string::npos) << outside.message();
    o.draws.items[0].paletteCount = 0;
    o.draws.items[0].object = RenderObjectId{7};
    auto missing = renderer.render(frame);
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.message().find("draws/0"), std::string::npos) << missing.message();
    o.draws.items[0].object = RenderObjectId{0};
    EXPECT_TRUE(renderer.render(frame).ok());  // the renderer still works after refusals
}

TEST_F(Renderer, SizesOutsideOneTo16384AreRefused) {
    EXPECT_FALSE(OffscreenRenderer::create(testGpu(), 0, 10).ok());
    auto big = OffscreenRenderer::create(testGpu(), 16385, 10);
    ASSERT_FALSE(big.ok());
    EXPECT_NE(big.message().find("16385x10"), std::string::npos) << big.message();
}

}  // namespace
}  // namespace kinema
