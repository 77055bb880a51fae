// The compute rasteriser (FrameDesc::raster = RasterPath::Compute) on hand-built
// scenes: the graphics path's closed forms again (winding and culling, a mirrored
// world matrix, the shading formula, texels), coverage against the CPU rasteriser, a
// triangle crossing the near plane, an empty frame, agreement with the graphics path,
// and the frames it leaves to the graphics path.
#include <gtest/gtest.h>

#include <cmath>

#include "gpu_test_support.hpp"
#include "scene_fixtures.hpp"
#include "kinema/render/catalogue.hpp"
#include "support/raster_reference.hpp"

namespace kinema {
namespace {

using namespace test;  // GpuTest, testGpu, srgbByte and the scene fixtures

FrameDesc computeFrame(const OneObject& o, const CameraMatrices& camera) {
    FrameDesc frame = frameOf(o, camera);
    frame.raster = RasterPath::Compute;
    return frame;
}

std::vector<std::uint8_t> alphaMask(const ImageRGBA8& image) {
    std::vector<std::uint8_t> mask(std::size_t{image.width} * image.height);
    for (std::size_t i = 0; i < mask.size(); ++i) mask[i] = image.pixels[i * 4 + 3] != 0 ? 1 : 0;
    return mask;
}

// The share of pixels whose four channels all lie within `tolerance` of the other image's.
double agreement(const ImageRGBA8& a, const ImageRGBA8& b, int tolerance) {
    std::size_t same = 0;
    const std::size_t n = a.pixels.size() / 4;
    for (std::size_t i = 0; i < n; ++i) {
        bool close = true;
        for (std::size_t c = 0; c < 4; ++c)
            close = close && std::abs(int{a.pixels[i * 4 + c]} - int{b.pixels[i * 4 + c]}) <= tolerance;
        same += close ? 1u : 0u;
    }
    return static_cast<double>(same) / static_cast<double>(n);
}

class ComputeRaster : public GpuTest {};

TEST_F(ComputeRaster, SingleSidedTrianglesShowTheirFrontOnlyAndDoubleSidedBoth) {
    OffscreenRenderer renderer = makeRenderer();
    for (bool doubleSided : {false, true}) {
        for (bool front : {true, false}) {
            MaterialDesc material;
            material.doubleSided = doubleSided;
            OneObject o = oneObject(triangleMesh(front), material);
            ImageRGBA8 image;
            auto stats = renderer.render(computeFrame(o, frontCamera()), &image);
            ASSERT_TRUE(stats.ok()) << stats.message();
            EXPECT_TRUE(stats->computeRaster);
            if (front || doubleSided) {
                EXPECT_NEAR(static_cast<double>(coveredPixels(image)), kSize * kSize / 8.0, kSize)
                    << "doubleSided " << doubleSided << " front " << front;
            } else {
                EXPECT_EQ(coveredPixels(image), 0u) << "doubleSided " << doubleSided;
            }
        }
    }
}

TEST_F(ComputeRaster, AMirroringWorldMatrixKeepsTheFrontFaceAndCullsTheBack) {
    Mat4 mirror;
    mirror.m[0] = -1.0f;
    OffscreenRenderer renderer = makeRenderer();
    for (bool front : {true, false}) {
        OneObject o = oneObject(triangleMesh(front), MaterialDesc{}, mirror);
        ImageRGBA8 image;
        auto stats = renderer.render(computeFrame(o, frontCamera()), &image);
        ASSERT_TRUE(stats.ok()) << stats.message();
        EXPECT_TRUE(stats->computeRaster);
        if (front) {
            EXPECT_GT(coveredPixels(image), kSize * kSize / 10);
        } else {
            EXPECT_EQ(coveredPixels(image), 0u);
        }
    }
}

TEST_F(ComputeRaster, ShadedColourIsAlbedoTimesAmbientPlusDiffuseInSrgb) {
    MaterialDesc material;
    material.baseColorFactor = {0.5f, 0.25f, 1.0f, 1.0f};
    RenderMesh mesh = squareMesh();
    mesh.colors.assign(4, {1.0f, 0.5f, 0.5f, 1.0f});
    OneObject o = oneObject(mesh, material);
    FrameDesc frame = computeFrame(o, frontCamera());
    frame.toLight = {0.0f, std::sqrt(3.0f) / 2.0f, 0.5f};
    frame.lightColor = {0.6f, 0.6f, 0.6f};
    frame.ambientColor = {0.2f, 0.1f, 0.3f};
    frame.background = {0.0f, 0.0f, 0.0f, 1.0f};
    ImageRGBA8 image;
    OffscreenRenderer renderer = makeRenderer();
    auto stats = renderer.render(frame, &image);
    ASSERT_TRUE(stats.ok()) << stats.message();
    EXPECT_TRUE(stats->computeRaster);
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

TEST_F(ComputeRaster, BaseColourTextureIsSampledWithItsFilterAndUpright) {
    RenderCatalogue catalogue;
    ImageRGBA8 texels;
    texels.width = 2;
    texels.height = 2;
    texels.pixels = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
    TextureDesc texture;
    texture.image = catalogue.addImage(texels);
    texture.minFilter = texture.magFilter = TextureFilter::Nearest;
    MaterialDesc textured;
    textured.baseColorTexture = catalogue.addTexture(texture);
    // A second, untextured material first, so the texture is not the array's first entry.
    MaterialDesc plain;
    plain.baseColorFactor = {0, 1, 0, 1};
    const MaterialId plainId = catalogue.addMaterial(plain);
    const MeshId mesh = catalogue.addMesh(squareMesh());
    DrawList draws;
    DrawItem behind;
    behind.object = catalogue.addRenderObject({mesh, plainId});
    behind.world.m[14] = -0.5f;  // further away: hidden by the textured square
    draws.items.push_back(behind);
    DrawItem item;
    item.object = catalogue.addRenderObject({mesh, catalogue.addMaterial(textured)});
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
    frame.raster = RasterPath::Compute;
    ImageRGBA8 out;
    OffscreenRenderer renderer = makeRenderer();
    auto stats = renderer.render(frame, &out);
    ASSERT_TRUE(stats.ok()) << stats.message();
    EXPECT_TRUE(stats->computeRaster);
    EXPECT_EQ(stats->draws, 2u);
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

// Clip positions of every draw of a one-mesh scene, and the CPU rasteriser's coverage.
test::RasterTarget cpuCoverage(const OneObject& o, const CameraMatrices& camera, std::uint32_t size) {
    std::vector<std::array<float, 4>> clip;
    std::vector<std::uint32_t> indices;
    for (const DrawItem& item : o.draws.items) {
        const RenderMesh& mesh = o.catalogue.at(o.catalogue.at(item.object).mesh);
        const auto base = static_cast<std::uint32_t>(clip.size());
        for (const Vec3& p : mesh.positions)
            clip.push_back(toClip(camera.viewProjection, transformPoint(item.world, p)));
        for (std::uint32_t i : mesh.indices) indices.push_back(base + i);
    }
    test::RasterTarget target = test::makeRasterTarget(static_cast<int>(size), static_cast<int>(size));
    test::rasteriseTriangles(clip, indices, target);
    return target;
}

TEST_F(ComputeRaster, CoverageMatchesTheCpuRasteriserForRotatedCopies) {
    OffscreenRenderer renderer = makeRenderer();
    OneObject o = oneObject(squareMesh(), MaterialDesc{});
    o.draws.items.resize(3, o.draws.items[0]);
    for (int i = 0; i < 3; ++i) {
        Mat4& w = o.draws.items[static_cast<std::size_t>(i)].world;
        const float a = 0.3f + 0.4f * static_cast<float>(i);
        w.m[0] = 0.45f * std::cos(a);
        w.m[1] = 0.45f * std::sin(a);
        w.m[4] = -0.45f * std::sin(a);
        w.m[5] = 0.45f * std::cos(a);
        w.m[12] = 1.2f * static_cast<float>(i - 1);
    }
    const CameraMatrices camera = frontCamera();
    ImageRGBA8 image;
    auto stats = renderer.render(computeFrame(o, camera), &image);
    ASSERT_TRUE(stats.ok()) << stats.message();
    EXPECT_TRUE(stats->computeRaster);
    EXPECT_EQ(stats->draws, 3u);
    const test::RasterTarget target = cpuCoverage(o, camera, kSize);
    const double iou = test::intersectionOverUnion(alphaMask(image), target.coverage);
    EXPECT_GE(iou, 0.999);
    std::printf("[ coverage ] compute raster, three rotated squares: intersection over union %.5f\n", iou);
}

TEST_F(ComputeRaster, ATriangleCrossingTheNearPlaneIsClippedThere) {
    // A floor under the camera reaching behind it: its far part shows, the part
    // behind the near plane does not wrap around.
    RenderMesh floor;
    floor.positions = {{-4, -1, -6}, {4, -1, -6}, {0, -1, 6}};
    floor.normals.assign(3, Vec3{0, 1, 0});
    floor.indices = {0, 2, 1};  // counter-clockwise seen from above
    MaterialDesc material;
    OneObject o = oneObject(floor, material);
    const CameraMatrices camera = frontCamera();
    OffscreenRenderer renderer = makeRenderer();
    ImageRGBA8 compute, graphics;
    FrameDesc frame = computeFrame(o, camera);
    auto stats = renderer.render(frame, &compute);
    ASSERT_TRUE(stats.ok()) << stats.message();
    EXPECT_TRUE(stats->computeRaster);
    frame.raster = RasterPath::Graphics;
    ASSERT_TRUE(renderer.render(frame, &graphics).ok());
    const test::RasterTarget target = cpuCoverage(o, camera, kSize);
    EXPECT_GT(test::countSet(target.coverage), std::size_t{kSize} * kSize / 4);
    EXPECT_GE(test::intersectionOverUnion(alphaMask(compute), target.coverage), 0.99);
    EXPECT_GE(test::intersectionOverUnion(alphaMask(compute), alphaMask(graphics)), 0.99);
    EXPECT_GE(agreement(compute, graphics, 2), 0.99);
    // The top half looks above the horizon: nothing there.
    for (std::uint32_t x = 0; x < kSize; ++x) EXPECT_EQ(pixelAt(compute, x, 4)[3], 0) << x;
}

// A vertex whose clip position overflows (a finite position through a finite but huge
// world matrix: a pose that blew up) leaves its triangles at no place on screen: they
// are dropped, and the mesh's other triangles draw as they would without them.
TEST_F(ComputeRaster, TrianglesWithAVertexAtNoFinitePlaceAreDropped) {
    // The square at a thousandth of its size under a world matrix that scales by 1000.
    RenderMesh square = squareMesh();
    for (Vec3& p : square.positions) p = p * 1e-3f;
    Mat4 world = Mat4::identity();
    world.m[0] = world.m[5] = world.m[10] = 1e3f;
    // A third triangle whose far vertex overflows: 3e38 times 1000 is infinite, and the
    // projection of infinity is not a number.
    RenderMesh exploded = square;
    exploded.positions.push_back({3e38f, -3e38f, 0});
    exploded.normals.push_back({0, 0, 1});
    exploded.texcoords.push_back({0, 0});
    for (const std::uint32_t i : {0u, 1u, 4u}) exploded.indices.push_back(i);
    MaterialDesc material;
    material.doubleSided = true;
    OffscreenRenderer renderer = makeRenderer();
    ImageRGBA8 withIt, without;
    const OneObject a = oneObject(exploded, material, world);
    auto stats = renderer.render(computeFrame(a, frontCamera()), &withIt);
    ASSERT_TRUE(stats.ok()) << stats.message();
    EXPECT_TRUE(stats->computeRaster);
    const OneObject b = oneObject(square, material, world);
    ASSERT_TRUE(renderer.render(computeFrame(b, frontCamera()), &without).ok());
    EXPECT_GT(coveredPixels(without), std::size_t{kSize} * kSize / 8);
    EXPECT_EQ(coveredPixels(withIt), coveredPixels(without));
    EXPECT_TRUE(withIt.pixels == without.pixels);
}

TEST_F(ComputeRaster, AnEmptyFrameIsTheBackground) {
    RenderCatalogue catalogue;
    DrawList none;
    FrameDesc frame;
    frame.catalogue = &catalogue;
    frame.draws = &none;
    frame.viewProjection = frontCamera().viewProjection;
    frame.background = {0.2f, 0.4f, 0.6f, 0.5f};
    frame.raster = RasterPath::Compute;
    OffscreenRenderer renderer = makeRenderer(17, 9);  // not a multiple of the 8x8 groups
    ImageRGBA8 compute, graphics;
    auto stats = renderer.render(frame, &compute);
    ASSERT_TRUE(stats.ok()) << stats.message();
    EXPECT_TRUE(stats->computeRaster);
    EXPECT_EQ(stats->draws, 0u);
    frame.raster = RasterPath::Graphics;
    ASSERT_TRUE(renderer.render(frame, &graphics).ok());
    ASSERT_EQ(compute.pixels.size(), 17u * 9u * 4u);
    for (std::size_t i = 0; i < compute.pixels.size(); i += 4) {
        EXPECT_EQ(compute.pixels[i], srgbByte(0.2f));
        EXPECT_EQ(compute.pixels[i + 1], srgbByte(0.4f));
        EXPECT_EQ(compute.pixels[i + 2], srgbByte(0.6f));
        EXPECT_EQ(compute.pixels[i + 3], 128);
    }
    EXPECT_GE(agreement(compute, graphics, 1), 1.0);
}

TEST_F(ComputeRaster, BlendedMaterialsAndOverlaysFallBackToTheGraphicsPath) {
    OffscreenRenderer renderer = makeRenderer();
    MaterialDesc blended;
    blended.alphaMode = AlphaMode::Blend;
    blended.baseColorFactor = {1, 0, 0, 0.25f};
    OneObject o = oneObject(squareMesh(), blended);
    FrameDesc frame = computeFrame(o, frontCamera());
    ImageRGBA8 fallback, graphics;
    auto stats = renderer.render(frame, &fallback);
    ASSERT_TRUE(stats.ok()) << stats.message();
    EXPECT_FALSE(stats->computeRaster);
    frame.raster = RasterPath::Graphics;
    ASSERT_TRUE(renderer.render(frame, &graphics).ok());
    EXPECT_EQ(fallback.pixels, graphics.pixels);

    MaterialDesc masked;
    masked.alphaMode = AlphaMode::Mask;
    OneObject m = oneObject(squareMesh(), masked);
    auto maskedStats = renderer.render(computeFrame(m, frontCamera()));
    ASSERT_TRUE(maskedStats.ok());
    EXPECT_FALSE(maskedStats->computeRaster);

    OneObject opaque = oneObject(squareMesh(), MaterialDesc{});
    Overlay overlay;
    overlay.dots.push_back({{0.5f, 0.5f, 0.0f}, {0, 1, 0, 1}, 5.0f});
    FrameDesc withOverlay = computeFrame(opaque, frontCamera());
    withOverlay.overlay = &overlay;
    ImageRGBA8 image;
    auto overlaid = renderer.render(withOverlay, &image);
    ASSERT_TRUE(overlaid.ok());
    EXPECT_FALSE(overlaid->computeRaster);
    EXPECT_EQ(pixelAt(image, 40, 24)[1], 255);  // the dot is drawn
    Overlay empty;
    withOverlay.overlay = &empty;  // an overlay with nothing to draw keeps the compute path
    auto plain = renderer.render(withOverlay);
    ASSERT_TRUE(plain.ok());
    EXPECT_TRUE(plain->computeRaster);
    withOverlay.overlay = nullptr;
    withOverlay.raster = RasterPath::Graphics;  // the default
    auto chosen = renderer.render(withOverlay);
    ASSERT_TRUE(chosen.ok());
    EXPECT_FALSE(chosen->computeRaster);
}

TEST_F(ComputeRaster, AgreesWithTheGraphicsPathAndRepeatsByteForByte) {
    // A skinned square lit at an angle, with vertex colours, drawn by both paths on one
    // renderer in turn (each path's frame after the other's).
    RenderMesh mesh = squareMesh();
    mesh.colors = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 1, 1}};
    mesh.influencesPerVertex = 1;
    mesh.joints.assign(4, 0);
    mesh.weights.assign(4, 1.0f);
    OneObject o = oneObject(mesh, MaterialDesc{});
    Mat4 tilt;
    tilt.m[5] = std::cos(0.5f);
    tilt.m[6] = std::sin(0.5f);
    tilt.m[9] = -std::sin(0.5f);
    tilt.m[10] = std::cos(0.5f);
    o.draws.palettes = {tilt};
    o.draws.items[0].paletteCount = 1;
    OffscreenRenderer renderer = makeRenderer();
    FrameDesc frame = computeFrame(o, frontCamera());
    frame.toLight = {0.3f, 0.5f, 0.8f};
    ImageRGBA8 a, b, graphics, c;
    auto first = renderer.render(frame, &a);
    ASSERT_TRUE(first.ok()) << first.message();
    EXPECT_TRUE(first->computeRaster);
    EXPECT_TRUE(first->deformationBound);
    frame.raster = RasterPath::Graphics;
    ASSERT_TRUE(renderer.render(frame, &graphics).ok());
    frame.raster = RasterPath::Compute;
    ASSERT_TRUE(renderer.render(frame, &b).ok());
    ASSERT_TRUE(renderer.render(frame, &c).ok());
    EXPECT_EQ(a.pixels, b.pixels);
    EXPECT_EQ(b.pixels, c.pixels);
    EXPECT_GT(coveredPixels(a), kSize * kSize / 8);
    const double same = agreement(a, graphics, 2);
    EXPECT_GE(same, 0.99);
    std::printf("[ agreement ] compute vs graphics, skinned lit square: %.4f of pixels within 2\n", same);
}

}  // namespace
}  // namespace kinema
