// The CPU rasteriser the GPU images are checked against (tests/support/
// raster_reference.hpp), checked itself against coverage counted by hand: the fill
// rule on shared edges and on edges through pixel centres, depth, clipping at the
// near and far planes (against an independent ray cast), and intersection over union.
#include "support/raster_reference.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "kinema/render/camera.hpp"

namespace {

using kinema::test::countSet;
using kinema::test::intersectionOverUnion;
using kinema::test::makeRasterTarget;
using kinema::test::rasteriseTriangles;
using kinema::test::RasterTarget;
using Clip = std::array<float, 4>;

// A vertex at pixel position (px, py) of a width x height image, w = 1.
Clip atPixel(double px, double py, int width, int height, float z = 0.5f) {
    return {static_cast<float>(px / width * 2.0 - 1.0), static_cast<float>(py / height * 2.0 - 1.0), z, 1.0f};
}

std::size_t at(const RasterTarget& t, int x, int y) {
    return static_cast<std::size_t>(y) * static_cast<std::size_t>(t.width) + static_cast<std::size_t>(x);
}

TEST(RasterReference, AFullScreenQuadCoversEveryPixelExactlyOnce) {
    // Square images put the shared diagonal through pixel centres: the fill rule decides them.
    for (const auto& [w, h] : {std::array<int, 2>{16, 16}, {17, 9}, {1, 1}}) {
        const std::vector<Clip> quad = {{-1, -1, 0.5f, 1}, {1, -1, 0.5f, 1}, {1, 1, 0.5f, 1}, {-1, 1, 0.5f, 1}};
        for (const bool flipped : {false, true}) {
            const std::vector<std::uint32_t> first =
                flipped ? std::vector<std::uint32_t>{0, 2, 1} : std::vector<std::uint32_t>{0, 1, 2};
            const std::vector<std::uint32_t> second =
                flipped ? std::vector<std::uint32_t>{0, 3, 2} : std::vector<std::uint32_t>{0, 2, 3};
            RasterTarget a = makeRasterTarget(w, h), b = makeRasterTarget(w, h);
            rasteriseTriangles(quad, first, a);
            rasteriseTriangles(quad, second, b);
            for (int y = 0; y < h; ++y) {
                for (int x = 0; x < w; ++x) {
                    EXPECT_EQ(a.coverage[at(a, x, y)] + b.coverage[at(b, x, y)], 1)
                        << w << "x" << h << " pixel " << x << "," << y;
                }
            }
            if (w == h) {
                // The diagonal from the top-left corner is the upper-right triangle's
                // left edge, so centres on it (x == y) are that triangle's.
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x) EXPECT_EQ(a.coverage[at(a, x, y)], x >= y ? 1 : 0) << x << "," << y;
            }
            // Both in one target: every pixel covered, each by the triangle found above.
            RasterTarget both = makeRasterTarget(w, h);
            std::vector<std::uint32_t> indices = first;
            indices.insert(indices.end(), second.begin(), second.end());
            rasteriseTriangles(quad, indices, both);
            EXPECT_EQ(countSet(both.coverage), static_cast<std::size_t>(w * h));
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x)
                    EXPECT_EQ(both.triangle[at(both, x, y)], a.coverage[at(a, x, y)] ? 0 : 1) << x << "," << y;
        }
    }
}

TEST(RasterReference, ARightTriangleCoversTheCountedPixels) {
    const int w = 32, h = 32, n = 20;
    // Corner on the image corner, legs n + 1 long: centre (x + .5, y + .5) is inside
    // when x + y + 1 < n + 1; on the hypotenuse (x + y == n) it is a bottom-right edge.
    {
        RasterTarget t = makeRasterTarget(w, h);
        const std::vector<Clip> v = {atPixel(0, 0, w, h), atPixel(n + 1, 0, w, h), atPixel(0, n + 1, w, h)};
        rasteriseTriangles(v, std::vector<std::uint32_t>{0, 1, 2}, t);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) EXPECT_EQ(t.coverage[at(t, x, y)], x + y < n ? 1 : 0) << x << "," << y;
        EXPECT_EQ(countSet(t.coverage), static_cast<std::size_t>(n * (n + 1) / 2));
    }
    // Corners on pixel centres: the top edge (row 0) and the left edge (column 0) run
    // through centres and keep them; the hypotenuse (x + y == n) does not.
    {
        RasterTarget t = makeRasterTarget(w, h);
        const std::vector<Clip> v = {atPixel(0.5, 0.5, w, h), atPixel(n + 0.5, 0.5, w, h), atPixel(0.5, n + 0.5, w, h)};
        rasteriseTriangles(v, std::vector<std::uint32_t>{0, 2, 1}, t);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) EXPECT_EQ(t.coverage[at(t, x, y)], x + y < n ? 1 : 0) << x << "," << y;
    }
    // The mirror image in the bottom-right corner: its bottom and right edges run
    // through the last row's and column's centres and drop them, its hypotenuse is a
    // left edge and keeps its centres. With u = w - 1 - x, v = h - 1 - y: u, v >= 1
    // and u + v <= n.
    {
        RasterTarget t = makeRasterTarget(w, h);
        const std::vector<Clip> v = {atPixel(w - 0.5, h - 0.5, w, h), atPixel(w - 0.5 - n, h - 0.5, w, h),
                                     atPixel(w - 0.5, h - 0.5 - n, w, h)};
        rasteriseTriangles(v, std::vector<std::uint32_t>{0, 1, 2}, t);
        for (int y = 0; y < h; ++y) {
            for (int x = 0; x < w; ++x) {
                const int u = w - 1 - x, vv = h - 1 - y;
                EXPECT_EQ(t.coverage[at(t, x, y)], u >= 1 && vv >= 1 && u + vv <= n ? 1 : 0) << x << "," << y;
            }
        }
        EXPECT_EQ(countSet(t.coverage), static_cast<std::size_t>(n * (n - 1) / 2));
    }
}

TEST(RasterReference, DepthIsInterpolatedAndTheNearerTriangleWins) {
    const int w = 8, h = 4;
    // A full-screen quad whose depth runs from 0.25 at the left edge to 0.75 at the right.
    const std::vector<Clip> ramp = {{-1, -1, 0.25f, 1}, {1, -1, 0.75f, 1}, {1, 1, 0.75f, 1}, {-1, 1, 0.25f, 1}};
    RasterTarget t = makeRasterTarget(w, h);
    rasteriseTriangles(ramp, std::vector<std::uint32_t>{0, 1, 2, 0, 2, 3}, t);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) EXPECT_NEAR(t.depth[at(t, x, y)], 0.25 + 0.5 * (x + 0.5) / w, 1e-6);

    // A flat quad at depth 0.5 drawn after the ramp: in front where the ramp is deeper
    // (x + 0.5 > w / 2), behind elsewhere, whichever is drawn first.
    std::vector<Clip> scene = ramp;
    for (const Clip& c : ramp) scene.push_back({c[0], c[1], 0.5f, 1});
    for (const bool flatFirst : {false, true}) {
        RasterTarget s = makeRasterTarget(w, h);
        const std::vector<std::uint32_t> rampIdx = {0, 1, 2, 0, 2, 3}, flatIdx = {4, 5, 6, 4, 6, 7};
        std::vector<std::uint32_t> indices = flatFirst ? flatIdx : rampIdx;
        const auto& then = flatFirst ? rampIdx : flatIdx;
        indices.insert(indices.end(), then.begin(), then.end());
        rasteriseTriangles(scene, indices, s);
        for (int y = 0; y < h; ++y) {
            for (int x = 0; x < w; ++x) {
                const bool flatInFront = x >= w / 2;
                const std::int32_t id = s.triangle[at(s, x, y)];
                const bool flatKept = flatFirst ? id < 2 : id >= 2;
                EXPECT_EQ(flatKept, flatInFront) << x << "," << y << " flat first " << flatFirst;
                EXPECT_NEAR(s.depth[at(s, x, y)], std::min(0.5, 0.25 + 0.5 * (x + 0.5) / w), 1e-6);
            }
        }
    }
}

// A floor triangle at y = -1 seen by a camera at the origin looking down -Z (90 degree
// field of view, square image), two of its corners behind the camera. Its coverage,
// pixel by pixel, from a ray cast through each pixel centre: hit the plane, inside the
// triangle, between the near and far planes.
struct FloorCase {
    float znear, zfar;
};

void expectFloorMatchesRayCast(FloorCase c) {
    const int w = 64, h = 64;
    const kinema::Mat4 projection =
        kinema::perspectiveProjection(static_cast<float>(3.14159265358979323846 / 2), 1.0f, c.znear, c.zfar);
    const kinema::Vec3 corners[3] = {{-5, -1, 2}, {5, -1, 2}, {0, -1, -10}};
    std::vector<Clip> clip;
    for (const kinema::Vec3& p : corners) clip.push_back(kinema::toClip(projection, p));
    ASSERT_LT(clip[0][3], 0.0f);  // behind the camera: a divide before clipping would mirror it
    RasterTarget t = makeRasterTarget(w, h);
    rasteriseTriangles(clip, std::vector<std::uint32_t>{0, 1, 2}, t);

    std::vector<std::uint8_t> expected(static_cast<std::size_t>(w * h), 0);
    const auto side = [](double ax, double az, double bx, double bz, double px, double pz) {
        return (bx - ax) * (pz - az) - (bz - az) * (px - ax);
    };
    std::size_t depthChecked = 0;
    for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
            const double nx = (x + 0.5) / w * 2.0 - 1.0, ny = (y + 0.5) / h * 2.0 - 1.0;
            const double dx = nx, dy = -ny;  // view direction (dx, dy, -1): tan(45) = 1, y down in the image
            if (dy >= 0.0) continue;         // at or above the horizon: never reaches y = -1
            const double d = -1.0 / dy;      // distance ahead (-z) where the ray meets the floor
            const double px = dx * d, pz = -d;
            const double s0 = side(-5, 2, 5, 2, px, pz), s1 = side(5, 2, 0, -10, px, pz),
                         s2 = side(0, -10, -5, 2, px, pz);
            const bool inside = (s0 >= 0 && s1 >= 0 && s2 >= 0) || (s0 <= 0 && s1 <= 0 && s2 <= 0);
            if (!inside || d < c.znear || d > c.zfar) continue;
            expected[static_cast<std::size_t>(y * w + x)] = 1;
            if (t.coverage[at(t, x, y)]) {
                const double depth = c.zfar * (d - c.znear) / (d * (c.zfar - c.znear));
                EXPECT_NEAR(t.depth[at(t, x, y)], depth, 2e-4) << x << "," << y;
                ++depthChecked;
            }
        }
    }
    EXPECT_GT(depthChecked, 100u);
    // Nothing above the horizon (the upper half): where a mirrored, unclipped triangle would land.
    for (int y = 0; y < h / 2; ++y)
        for (int x = 0; x < w; ++x) EXPECT_EQ(t.coverage[at(t, x, y)], 0) << x << "," << y;
    std::size_t differ = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) differ += expected[i] != t.coverage[i];
    // Only centres within a snapping step of an edge may disagree.
    EXPECT_LE(differ, 2u);
    EXPECT_GT(intersectionOverUnion(expected, t.coverage), 0.99);
    EXPECT_GT(countSet(expected), 200u);
}

TEST(RasterReference, ClipsATriangleThroughTheCameraAtTheNearPlane) {
    // near = 2: rows below ny = 0.5, where the floor is nearer than 2, stay empty.
    expectFloorMatchesRayCast({2.0f, 100.0f});
    // far = 6: rows just below the horizon, where the floor is beyond 6, stay empty too.
    expectFloorMatchesRayCast({0.5f, 6.0f});
}

TEST(RasterReference, DrawsNothingBehindTheCameraOrDegenerate) {
    const int w = 16, h = 16;
    RasterTarget t = makeRasterTarget(w, h);
    // All of w < 0.
    const std::vector<Clip> behind = {{-1, -1, -0.5f, -1}, {1, -1, -0.5f, -1}, {0, 1, -0.5f, -1}};
    rasteriseTriangles(behind, std::vector<std::uint32_t>{0, 1, 2}, t);
    // No area.
    const std::vector<Clip> line = {{-1, -1, 0.5f, 1}, {0, 0, 0.5f, 1}, {1, 1, 0.5f, 1}};
    rasteriseTriangles(line, std::vector<std::uint32_t>{0, 1, 2}, t);
    // An index past the vertices, and a trailing partial triangle.
    rasteriseTriangles(line, std::vector<std::uint32_t>{0, 1, 3, 0, 1}, t);
    // A corner exactly on w = 0.
    const std::vector<Clip> edge = {{0, 0, 0, 0}, {1, -1, 0.5f, 1}, {1, 1, 0.5f, 1}};
    RasterTarget e = makeRasterTarget(w, h);
    rasteriseTriangles(edge, std::vector<std::uint32_t>{0, 1, 2}, e);
    EXPECT_EQ(countSet(t.coverage), 0u);
    for (const float d : e.depth) EXPECT_TRUE(d >= 0.0f && d <= 1.0f);
    // Buffers shorter than the size says: nothing is written.
    RasterTarget small = makeRasterTarget(2, 2);
    small.width = 16;
    rasteriseTriangles(edge, std::vector<std::uint32_t>{0, 1, 2}, small);
    EXPECT_EQ(countSet(small.coverage), 0u);
}

TEST(RasterReference, WithoutDepthTheLastTriangleDrawnIsKept) {
    const int w = 4, h = 4;
    const std::vector<Clip> quad = {{-1, -1, 0.9f, 1}, {1, -1, 0.9f, 1}, {1, 1, 0.9f, 1}, {-1, 1, 0.9f, 1},
                                    {-1, -1, 0.1f, 1}, {1, -1, 0.1f, 1}, {1, 1, 0.1f, 1}, {-1, 1, 0.1f, 1}};
    RasterTarget t = makeRasterTarget(w, h, false, true);
    rasteriseTriangles(quad, std::vector<std::uint32_t>{4, 5, 6, 4, 6, 7, 0, 1, 2, 0, 2, 3}, t);
    EXPECT_TRUE(t.depth.empty());
    for (const std::int32_t id : t.triangle) EXPECT_GE(id, 2);
}

TEST(RasterReference, IntersectionOverUnionOfHandMasks) {
    const std::vector<std::uint8_t> a = {1, 1, 0, 0, 0, 1}, b = {0, 1, 1, 0, 0, 1}, none(6, 0);
    EXPECT_DOUBLE_EQ(intersectionOverUnion(a, b), 2.0 / 4.0);
    EXPECT_DOUBLE_EQ(intersectionOverUnion(a, a), 1.0);
    EXPECT_DOUBLE_EQ(intersectionOverUnion(a, none), 0.0);
    EXPECT_DOUBLE_EQ(intersectionOverUnion(none, none), 1.0);
    const std::vector<std::uint8_t> other = {255, 7, 0, 0, 0, 0};  // any non-zero value is set
    EXPECT_DOUBLE_EQ(intersectionOverUnion(a, other), 2.0 / 3.0);
    EXPECT_TRUE(std::isnan(intersectionOverUnion(a, std::vector<std::uint8_t>(5, 0))));
    EXPECT_EQ(countSet(other), 2u);
}

}  // namespace
