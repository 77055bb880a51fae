// Hand-built scenes shared by the renderer tests of both raster paths: a camera, a
// triangle and a square whose pixels follow from closed forms, one-object frames and
// pixel helpers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "gpu_test_support.hpp"
#include "kinema/render/catalogue.hpp"

namespace kinema::test {

constexpr std::uint32_t kSize = 64;

// A camera at +Z looking at the origin; the square [-1, 1]^2 at z = 0 fills the
// middle of the image with a 90 degree field of view from distance 2 (it spans
// half the height).
inline CameraMatrices frontCamera() {
    PerspectiveCamera camera;
    camera.eye = {0, 0, 2};
    camera.target = {0, 0, 0};
    camera.fovYDegrees = 90.0f;
    return cameraMatrices(camera, 1.0f).value();
}

// One triangle (counter-clockwise seen from +Z when `frontFacing`) or a square of two.
inline RenderMesh triangleMesh(bool frontFacing) {
    RenderMesh mesh;
    mesh.positions = {{-1, -1, 0}, {1, -1, 0}, {0, 1, 0}};
    mesh.normals.assign(3, Vec3{0, 0, 1});
    mesh.indices = frontFacing ? std::vector<std::uint32_t>{0, 1, 2} : std::vector<std::uint32_t>{0, 2, 1};
    return mesh;
}

inline RenderMesh squareMesh() {
    RenderMesh mesh;
    mesh.positions = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
    mesh.normals.assign(4, Vec3{0, 0, 1});
    mesh.texcoords = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
    mesh.indices = {0, 1, 2, 0, 2, 3};
    return mesh;
}

struct OneObject {
    RenderCatalogue catalogue;
    DrawList draws;
};

inline OneObject oneObject(RenderMesh mesh, MaterialDesc material, const Mat4& world = Mat4::identity()) {
    OneObject o;
    const MeshId m = o.catalogue.addMesh(std::move(mesh));
    const MaterialId mat = o.catalogue.addMaterial(material);
    DrawItem item;
    item.object = o.catalogue.addRenderObject({m, mat});
    item.world = world;
    o.draws.items.push_back(item);
    return o;
}

inline FrameDesc frameOf(const OneObject& o, const CameraMatrices& camera) {
    FrameDesc frame;
    frame.catalogue = &o.catalogue;
    frame.draws = &o.draws;
    frame.viewProjection = camera.viewProjection;
    frame.eye = camera.eye;
    return frame;
}

inline std::size_t coveredPixels(const ImageRGBA8& image) {
    std::size_t n = 0;
    for (std::size_t i = 3; i < image.pixels.size(); i += 4) n += image.pixels[i] != 0 ? 1u : 0u;
    return n;
}

inline const std::uint8_t* pixelAt(const ImageRGBA8& image, std::uint32_t x, std::uint32_t y) {
    return &image.pixels[(std::size_t{y} * image.width + x) * 4];
}

inline OffscreenRenderer makeRenderer(std::uint32_t w = kSize, std::uint32_t h = kSize) {
    auto made = OffscreenRenderer::create(testGpu(), w, h);
    EXPECT_TRUE(made.ok()) << made.message();
    return std::move(made.value());
}

}  // namespace kinema::test
