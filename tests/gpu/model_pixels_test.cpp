// Frames of real glTF models on the GPU against CPU references written apart from
// the renderer: coverage from the CPU rasteriser over CPU-posed vertices (morphing
// and skinning by kinema's reference path), colours at flat-shaded pixels from the
// shading formula, and the GPU's deformed positions read back through a compute
// pass.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gpu_test_support.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/scene/model_scene.hpp"
#include "kinema/scene/posed_vertices.hpp"
#include "support/assets.hpp"
#include "support/raster_reference.hpp"

namespace kinema {
namespace {

using test::GpuTest;
using test::testGpu;

constexpr std::uint32_t kWidth = 160;
constexpr std::uint32_t kHeight = 120;

struct PosedFrame {
    ModelScene built;
    DrawList draws;
    CameraMatrices camera;
};

// The model's scene advanced to `time` seconds of its first animation, framed whole.
PosedFrame poseModel(const std::filesystem::path& file, double time) {
    ImportOptions options;
    options.decodeImages = true;
    auto model = importGltfFile(file, options);
    EXPECT_TRUE(model.ok()) << model.message();
    auto built = buildModelScene(*model);
    EXPECT_TRUE(built.ok()) << built.message();
    PosedFrame f{std::move(built.value()), {}, {}};
    EXPECT_TRUE(f.built.scene.advance(time).ok());
    f.built.scene.updateWorldTransforms();
    f.built.scene.fillDrawList(f.draws);
    Vec3 lo, hi;
    EXPECT_TRUE(posedBounds(f.built.catalogue, f.draws, lo, hi));
    const float aspect = static_cast<float>(kWidth) / static_cast<float>(kHeight);
    f.camera = cameraMatrices(frameBounds(lo, hi, aspect), aspect).value();
    return f;
}

FrameDesc frameOf(const PosedFrame& f) {
    FrameDesc frame;
    frame.catalogue = &f.built.catalogue;
    frame.draws = &f.draws;
    frame.viewProjection = f.camera.viewProjection;
    frame.eye = f.camera.eye;
    frame.background = {0, 0, 0, 0};  // alpha is coverage
    return frame;
}

// The CPU reference of the frame: every draw's posed triangles rasterised in order.
test::RasterTarget referenceRaster(const PosedFrame& f, std::vector<std::vector<Vec3>>* normalsOut = nullptr,
                                   std::vector<std::uint32_t>* firstTriangle = nullptr) {
    test::RasterTarget target = test::makeRasterTarget(kWidth, kHeight);
    std::vector<std::array<float, 4>> clip;
    std::vector<Vec3> positions, normals;
    std::vector<std::uint32_t> indices;
    std::vector<std::uint32_t> allIndices;
    for (const DrawItem& item : f.draws.items) {
        posedVertices(f.built.catalogue, f.draws, item, positions, &normals);
        const auto base = static_cast<std::uint32_t>(clip.size());
        for (const Vec3& p : positions) clip.push_back(toClip(f.camera.viewProjection, p));
        const RenderMesh& mesh = f.built.catalogue.at(f.built.catalogue.at(item.object).mesh);
        if (firstTriangle != nullptr) firstTriangle->push_back(static_cast<std::uint32_t>(allIndices.size() / 3));
        for (std::uint32_t i : mesh.indices) allIndices.push_back(base + i);
        if (normalsOut != nullptr) normalsOut->push_back(normals);
    }
    test::rasteriseTriangles(clip, allIndices, target);
    return target;
}

std::vector<std::uint8_t> alphaMask(const ImageRGBA8& image) {
    std::vector<std::uint8_t> mask(std::size_t{image.width} * image.height);
    for (std::size_t i = 0; i < mask.size(); ++i) mask[i] = image.pixels[i * 4 + 3] != 0 ? 1 : 0;
    return mask;
}

void expectCoverageMatches(const char* asset, std::initializer_list<double> times,
                           RasterPath path = RasterPath::Graphics) {
    const auto file = test::assetPath(asset);
    if (!file) GTEST_SKIP() << "shared asset " << asset << " not found (set KINEMA_ASSETS)";
    auto renderer = OffscreenRenderer::create(testGpu(), kWidth, kHeight);
    ASSERT_TRUE(renderer.ok()) << renderer.message();
    const bool compute = path == RasterPath::Compute;
    for (double t : times) {
        const PosedFrame f = poseModel(*file, t);
        ImageRGBA8 image;
        FrameDesc frame = frameOf(f);
        frame.raster = path;
        auto stats = renderer->render(frame, &image);
        ASSERT_TRUE(stats.ok()) << stats.message();
        EXPECT_EQ(stats->computeRaster, compute) << asset;
        const test::RasterTarget reference = referenceRaster(f);
        const std::vector<std::uint8_t> gpu = alphaMask(image);
        const double iou = test::intersectionOverUnion(gpu, reference.coverage);
        EXPECT_GE(iou, 0.99) << asset << " at t = " << t;
        // The framing keeps the model inside the image and of a readable size.
        EXPECT_GT(test::countSet(reference.coverage), std::size_t{kWidth} * kHeight / 20) << asset;
        ::testing::Test::RecordProperty(std::string(asset) + "@" + std::to_string(t), std::to_string(iou));
        std::printf("[ coverage ] %s at t = %g%s: intersection over union %.5f\n", asset, t,
                    compute ? " (compute raster)" : "", iou);
    }
}

class ModelPixels : public GpuTest {};

TEST_F(ModelPixels, SkinnedCesiumManCoverageMatchesTheCpuRasteriser) {
    expectCoverageMatches("CesiumMan/CesiumMan.glb", {0.0, 0.7, 1.4});
}

TEST_F(ModelPixels, RiggedFigureCoverageMatchesTheCpuRasteriser) {
    expectCoverageMatches("RiggedFigure/RiggedFigure.glb", {0.3, 0.9});
}

TEST_F(ModelPixels, RigidBoxAnimatedCoverageMatchesTheCpuRasteriser) {
    expectCoverageMatches("BoxAnimated/BoxAnimated.glb", {0.0, 1.2, 2.9});
}

TEST_F(ModelPixels, MorphedCubeCoverageMatchesTheCpuRasteriser) {
    expectCoverageMatches("AnimatedMorphCube/AnimatedMorphCube.glb", {0.5, 1.5});
}

TEST_F(ModelPixels, ComputeRasterSkinnedCesiumManCoverageMatchesTheCpuRasteriser) {
    expectCoverageMatches("CesiumMan/CesiumMan.glb", {0.0, 0.7, 1.4}, RasterPath::Compute);
}

TEST_F(ModelPixels, ComputeRasterRiggedFigureCoverageMatchesTheCpuRasteriser) {
    expectCoverageMatches("RiggedFigure/RiggedFigure.glb", {0.3, 0.9}, RasterPath::Compute);
}

TEST_F(ModelPixels, ComputeRasterRigidBoxAnimatedCoverageMatchesTheCpuRasteriser) {
    expectCoverageMatches("BoxAnimated/BoxAnimated.glb", {0.0, 1.2, 2.9}, RasterPath::Compute);
}

TEST_F(ModelPixels, ComputeRasterMorphedCubeCoverageMatchesTheCpuRasteriser) {
    expectCoverageMatches("AnimatedMorphCube/AnimatedMorphCube.glb", {0.5, 1.5}, RasterPath::Compute);
}

// The compute rasteriser against the graphics pipeline on a lit, textured, skinned
// model: the share of pixels whose channels all lie within 2 of each other.
TEST_F(ModelPixels, ComputeRasterAgreesWithTheGraphicsPathOnCesiumMan) {
    KINEMA_REQUIRE_ASSET(file, "CesiumMan/CesiumMan.glb");
    auto renderer = OffscreenRenderer::create(testGpu(), kWidth, kHeight);
    ASSERT_TRUE(renderer.ok()) << renderer.message();
    for (double t : {0.3, 1.1}) {
        const PosedFrame f = poseModel(*file_opt, t);
        FrameDesc frame = frameOf(f);
        frame.background = {0.1f, 0.2f, 0.3f, 1.0f};
        ImageRGBA8 graphics, compute;
        ASSERT_TRUE(renderer->render(frame, &graphics).ok());
        frame.raster = RasterPath::Compute;
        auto stats = renderer->render(frame, &compute);
        ASSERT_TRUE(stats.ok()) << stats.message();
        EXPECT_TRUE(stats->computeRaster);
        std::size_t same = 0, exact = 0, covered = 0;
        const std::size_t n = std::size_t{kWidth} * kHeight;
        for (std::size_t i = 0; i < n; ++i) {
            bool close = true;
            for (std::size_t c = 0; c < 4; ++c)
                close = close && std::abs(int{graphics.pixels[i * 4 + c]} - int{compute.pixels[i * 4 + c]}) <= 2;
            same += close ? 1u : 0u;
            exact += std::equal(&graphics.pixels[i * 4], &graphics.pixels[i * 4 + 4], &compute.pixels[i * 4]) ? 1u : 0u;
            const bool background = graphics.pixels[i * 4] == compute.pixels[i * 4] &&
                graphics.pixels[i * 4] == test::srgbByte(0.1f) && graphics.pixels[i * 4 + 1] == test::srgbByte(0.2f);
            covered += background ? 0u : 1u;
        }
        const double share = static_cast<double>(same) / static_cast<double>(n);
        EXPECT_GE(share, 0.99) << "t = " << t;
        EXPECT_GT(covered, n / 20);
        ::testing::Test::RecordProperty("CesiumMan compute agreement@" + std::to_string(t), std::to_string(share));
        std::printf("[ agreement ] CesiumMan at t = %g: %.4f of pixels within 2 of the graphics path, %.4f equal\n", t,
                    share, static_cast<double>(exact) / static_cast<double>(n));
    }
}

// BoxAnimated's faces are flat and untextured: inside a face, the pixel's colour is
// sRGB(baseColour x (ambient + light x max(n . l, 0))) with the face's normal.
void expectFlatFacesShaded(RasterPath path) {
    KINEMA_REQUIRE_ASSET(file, "BoxAnimated/BoxAnimated.glb");
    const PosedFrame f = poseModel(*file_opt, 1.2);
    auto renderer = OffscreenRenderer::create(testGpu(), kWidth, kHeight);
    ASSERT_TRUE(renderer.ok()) << renderer.message();
    FrameDesc frame = frameOf(f);
    frame.raster = path;
    ImageRGBA8 image;
    auto stats = renderer->render(frame, &image);
    ASSERT_TRUE(stats.ok()) << stats.message();
    EXPECT_EQ(stats->computeRaster, path == RasterPath::Compute);
    std::vector<std::vector<Vec3>> normals;
    std::vector<std::uint32_t> firstTriangle;
    const test::RasterTarget reference = referenceRaster(f, &normals, &firstTriangle);
    const float toLightLength = std::sqrt(frame.toLight.x * frame.toLight.x + frame.toLight.y * frame.toLight.y +
                                          frame.toLight.z * frame.toLight.z);
    const Vec3 l{frame.toLight.x / toLightLength, frame.toLight.y / toLightLength, frame.toLight.z / toLightLength};
    std::size_t checked = 0;
    for (int y = 1; y + 1 < static_cast<int>(kHeight); ++y) {
        for (int x = 1; x + 1 < static_cast<int>(kWidth); ++x) {
            const std::int32_t tri = reference.triangle[static_cast<std::size_t>(y * static_cast<int>(kWidth) + x)];
            if (tri < 0) continue;
            // Interior pixels only: the whole 3x3 neighbourhood on the same triangle.
            bool interior = true;
            for (int dy = -1; dy <= 1 && interior; ++dy)
                for (int dx = -1; dx <= 1 && interior; ++dx)
                    interior =
                        reference.triangle[static_cast<std::size_t>((y + dy) * static_cast<int>(kWidth) + x + dx)] ==
                        tri;
            if (!interior) continue;
            const auto draw = static_cast<std::size_t>(
                std::upper_bound(firstTriangle.begin(), firstTriangle.end(), static_cast<std::uint32_t>(tri)) -
                firstTriangle.begin() - 1);
            const DrawItem& item = f.draws.items[draw];
            const RenderObjectDesc& object = f.built.catalogue.at(item.object);
            const MaterialDesc& material = f.built.catalogue.at(object.material);
            const RenderMesh& mesh = f.built.catalogue.at(object.mesh);
            if (material.baseColorTexture || !mesh.colors.empty() || normals[draw].empty()) continue;
            const std::uint32_t local = static_cast<std::uint32_t>(tri) - firstTriangle[draw];
            const Vec3 n = normals[draw][mesh.indices[local * 3]];
            const float diffuse = std::max(0.0f, n.x * l.x + n.y * l.y + n.z * l.z);
            const std::uint8_t* p =
                &image.pixels[(static_cast<std::size_t>(y) * kWidth + static_cast<std::size_t>(x)) * 4];
            for (std::size_t c = 0; c < 3; ++c) {
                const float lit = material.baseColorFactor[c] * (frame.ambientColor[c] + frame.lightColor[c] * diffuse);
                ASSERT_NEAR(p[c], test::srgbByte(lit), 2) << "pixel " << x << "," << y << " channel " << c;
            }
            ++checked;
        }
    }
    EXPECT_GT(checked, 200u);
}

TEST_F(ModelPixels, FlatFacesOfARigidModelHaveTheShadedColourOfTheirMaterial) {
    expectFlatFacesShaded(RasterPath::Graphics);
}

TEST_F(ModelPixels, ComputeRasterFlatFacesHaveTheShadedColourOfTheirMaterial) {
    expectFlatFacesShaded(RasterPath::Compute);
}

// The vertex stage's deformation, run by a compute pass and read back, against the
// CPU reference: the largest distance over every vertex and draw, relative to the
// model's size.
void expectGpuDeformationMatches(const char* asset, std::initializer_list<double> times) {
    const auto file = test::assetPath(asset);
    if (!file) GTEST_SKIP() << "shared asset " << asset << " not found (set KINEMA_ASSETS)";
    auto renderer = OffscreenRenderer::create(testGpu(), 8, 8);
    ASSERT_TRUE(renderer.ok()) << renderer.message();
    double worst = 0.0;
    for (double t : times) {
        const PosedFrame f = poseModel(*file, t);
        Vec3 lo, hi;
        ASSERT_TRUE(posedBounds(f.built.catalogue, f.draws, lo, hi));
        const double size = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
        std::vector<Vec3> cpu;
        for (std::size_t i = 0; i < f.draws.items.size(); ++i) {
            auto gpu = renderer->deformedPositions(frameOf(f), i);
            ASSERT_TRUE(gpu.ok()) << gpu.message();
            posedVertices(f.built.catalogue, f.draws, f.draws.items[i], cpu);
            ASSERT_EQ(gpu->size(), cpu.size());
            for (std::size_t v = 0; v < cpu.size(); ++v) {
                const double dx = (*gpu)[v].x - cpu[v].x, dy = (*gpu)[v].y - cpu[v].y, dz = (*gpu)[v].z - cpu[v].z;
                worst = std::max(worst, std::sqrt(dx * dx + dy * dy + dz * dz) / size);
            }
        }
    }
    // float arithmetic in another order: a few ulps of the model's size.
    EXPECT_LT(worst, 2e-6) << asset;
    ::testing::Test::RecordProperty(std::string(asset) + " worst relative error", std::to_string(worst));
    std::printf("[ gpu deformation ] %s: largest error %.3g of the model's size\n", asset, worst);
}

TEST_F(ModelPixels, GpuSkinningMatchesTheCpuReference) {
    expectGpuDeformationMatches("CesiumMan/CesiumMan.glb", {0.0, 0.55, 1.7});
    expectGpuDeformationMatches("RiggedFigure/RiggedFigure.glb", {0.4});
    expectGpuDeformationMatches("SimpleSkin/SimpleSkin.gltf", {2.5});
}

TEST_F(ModelPixels, GpuMorphingMatchesTheCpuReference) {
    expectGpuDeformationMatches("AnimatedMorphCube/AnimatedMorphCube.glb", {0.3, 1.1});
    expectGpuDeformationMatches("SimpleMorph/SimpleMorph.gltf", {0.5});
}

TEST_F(ModelPixels, AnimatedFramesKeepTheirResources) {
    KINEMA_REQUIRE_ASSET(file, "CesiumMan/CesiumMan.glb");
    PosedFrame f = poseModel(*file_opt, 0.0);
    auto renderer = OffscreenRenderer::create(testGpu(), 32, 32);
    ASSERT_TRUE(renderer.ok());
    auto first = renderer->render(frameOf(f));
    ASSERT_TRUE(first.ok()) << first.message();
    EXPECT_TRUE(first->resourcesBuilt);
    for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(f.built.scene.advance(0.1).ok());
        f.built.scene.updateWorldTransforms();
        f.built.scene.fillDrawList(f.draws);
        auto next = renderer->render(frameOf(f));
        ASSERT_TRUE(next.ok());
        EXPECT_FALSE(next->resourcesBuilt);
    }
}

}  // namespace
}  // namespace kinema
