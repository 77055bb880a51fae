// Camera matrices against values worked out by hand from the geometry: where a point
// must land in Vulkan's clip space (x right, y down, depth 0 at near, 1 at far), not
// the matrices' entries. The camera text form's accepted and refused inputs, with
// their messages, and framing a box.
#include "kinema/render/camera.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>

#include "kinema/math/transform.hpp"

namespace {

using namespace kinema;

constexpr double kPi = 3.14159265358979323846;

struct Ndc {
    double x, y, z;
};

Ndc project(const Mat4& viewProjection, Vec3 p) {
    // The product written out here, not through toClip, in double.
    double c[4];
    for (int r = 0; r < 4; ++r) {
        c[r] = double{viewProjection(r, 0)} * p.x + double{viewProjection(r, 1)} * p.y +
            double{viewProjection(r, 2)} * p.z + double{viewProjection(r, 3)};
    }
    return {c[0] / c[3], c[1] / c[3], c[2] / c[3]};
}

PerspectiveCamera cam(Vec3 eye, Vec3 target, Vec3 up = {0, 1, 0}, float fov = 45, float znear = 0.01f,
                      float zfar = 1000) {
    return {eye, target, up, fov, znear, zfar};
}

CameraMatrices matrices(const PerspectiveCamera& camera, float aspect) {
    auto m = cameraMatrices(camera, aspect);
    EXPECT_TRUE(m.ok()) << m.message();
    return m.ok() ? *m : CameraMatrices{};
}

TEST(Camera, TheTargetLandsInTheImageCentre) {
    const PerspectiveCamera camera = cam({3, 2, 5}, {1, -1, 0.5f}, {0, 1, 0}, 50, 0.1f, 100);
    const CameraMatrices m = matrices(camera, 1.6f);
    const Ndc p = project(m.viewProjection, camera.target);
    EXPECT_NEAR(p.x, 0.0, 1e-6);
    EXPECT_NEAR(p.y, 0.0, 1e-6);
    EXPECT_GT(p.z, 0.0);
    EXPECT_LT(p.z, 1.0);
    EXPECT_EQ(m.eye, camera.eye);
}

TEST(Camera, HalfTheFieldOfViewAboveTheAxisIsTheTopEdge) {
    // Looking down -Z from the origin: a point d ahead and d tan(fov / 2) up is on the
    // top edge (y = -1 in Vulkan's y-down NDC, pixel row 0); d tan(fov / 2) aspect to
    // the right is on the right edge.
    const float aspect = 1.5f;
    const PerspectiveCamera camera = cam({0, 0, 0}, {0, 0, -1}, {0, 1, 0}, 60, 0.01f, 1000);
    const CameraMatrices m = matrices(camera, aspect);
    const double d = 7.0, h = d * std::tan(30.0 * kPi / 180.0);
    const auto f = [](double v) { return static_cast<float>(v); };

    const Ndc top = project(m.viewProjection, {0, f(h), f(-d)});
    EXPECT_NEAR(top.x, 0.0, 1e-6);
    EXPECT_NEAR(top.y, -1.0, 1e-6);
    const double pixelRow = (top.y + 1.0) / 2.0 * 480.0;
    EXPECT_NEAR(pixelRow, 0.0, 1e-3);

    const Ndc bottom = project(m.viewProjection, {0, f(-h), f(-d)});
    EXPECT_NEAR(bottom.y, 1.0, 1e-6);

    const Ndc right = project(m.viewProjection, {f(h * aspect), 0, f(-d)});
    EXPECT_NEAR(right.x, 1.0, 1e-6);
    EXPECT_NEAR(right.y, 0.0, 1e-6);

    const Ndc halfway = project(m.viewProjection, {f(-0.5 * h * aspect), f(0.25 * h), f(-d)});
    EXPECT_NEAR(halfway.x, -0.5, 1e-6);
    EXPECT_NEAR(halfway.y, -0.25, 1e-6);
}

TEST(Camera, DepthIsZeroOnTheNearPlaneAndOneOnTheFarPlane) {
    const float n = 0.5f, fa = 20.0f;
    const PerspectiveCamera camera = cam({1, 1, 1}, {1, 1, -4}, {0, 1, 0}, 45, n, fa);
    const CameraMatrices m = matrices(camera, 1.0f);
    EXPECT_NEAR(project(m.viewProjection, {1, 1, 1 - n}).z, 0.0, 1e-6);
    EXPECT_NEAR(project(m.viewProjection, {1, 1, 1 - fa}).z, 1.0, 1e-6);
    // Between them depth is far (d - near) / (d (far - near)) at distance d.
    for (const double d : {0.75, 2.0, 10.0, 19.0}) {
        const double expected = fa * (d - n) / (d * (fa - n));
        EXPECT_NEAR(project(m.viewProjection, {1, 1, static_cast<float>(1 - d)}).z, expected, 1e-6) << d;
    }
}

TEST(Camera, IsRightHandedWithYUp) {
    // From +Z looking at the origin: +X is to the right, +Y at the top of the image.
    const CameraMatrices m = matrices(cam({0, 0, 5}, {0, 0, 0}), 1.0f);
    EXPECT_GT(project(m.viewProjection, {1, 0, 0}).x, 0.1);
    EXPECT_LT(project(m.viewProjection, {0, 1, 0}).y, -0.1);
    // The view matrix puts the eye at the origin and the target down -Z.
    const Vec3 eye = transformPoint(m.view, {0, 0, 5}), target = transformPoint(m.view, {0, 0, 0});
    EXPECT_NEAR(eye.x, 0.0f, 1e-6f);
    EXPECT_NEAR(eye.y, 0.0f, 1e-6f);
    EXPECT_NEAR(eye.z, 0.0f, 1e-6f);
    EXPECT_NEAR(target.z, -5.0f, 1e-6f);
    // From -X looking at the origin, right = forward x up = (1, 0, 0) x (0, 1, 0) = +Z.
    const CameraMatrices side = matrices(cam({-5, 0, 0}, {0, 0, 0}), 1.0f);
    EXPECT_GT(project(side.viewProjection, {0, 0, 1}).x, 0.1);
    EXPECT_LT(project(side.viewProjection, {0, 0, -1}).x, -0.1);
}

TEST(Camera, AnObliqueCameraPlacesItsRightAndUpAxes) {
    // eye (4, 3, -2) looking at (0, 1, 0): forward f = (-4, -2, 2) / sqrt(24); right is
    // f x (0, 1, 0) = (-2, 0, -4) / sqrt(24), normalised (-1, 0, -2) / sqrt(5).
    const PerspectiveCamera camera = cam({4, 3, -2}, {0, 1, 0}, {0, 1, 0}, 70, 0.1f, 100);
    const CameraMatrices m = matrices(camera, 1.0f);
    const double distance = std::sqrt(24.0), halfHeight = distance * std::tan(35.0 * kPi / 180.0);
    const double s = 0.5 * halfHeight / std::sqrt(5.0);
    const Ndc right = project(m.viewProjection, {static_cast<float>(-s), 1, static_cast<float>(-2 * s)});
    EXPECT_NEAR(right.x, 0.5, 1e-5);
    EXPECT_NEAR(right.y, 0.0, 1e-5);
}

TEST(Camera, RefusesCamerasItCannotBuild) {
    const auto faultOf = [](const PerspectiveCamera& c, float aspect = 1.0f) {
        const auto m = cameraMatrices(c, aspect);
        EXPECT_FALSE(m.ok());
        return m.message();
    };
    EXPECT_EQ(faultOf(cam({1, 2, 3}, {1, 2, 3})), "camera/eye: 1,2,3 equals the target");
    EXPECT_EQ(faultOf(cam({0, 5, 0}, {0, 0, 0})), "camera/up: 0,1,0 is parallel to the view direction");
    EXPECT_EQ(faultOf(cam({0, 0, 5}, {0, 0, 0}, {0, 0, 0})), "camera/up: 0,0,0 is zero");
    EXPECT_EQ(faultOf(cam({0, 0, 5}, {0, 0, 0}, {0, 1, 0}, 180)), "camera/fovYDegrees: 180 is outside (0, 180)");
    EXPECT_EQ(faultOf(cam({0, 0, 5}, {0, 0, 0}, {0, 1, 0}, 0)), "camera/fovYDegrees: 0 is outside (0, 180)");
    EXPECT_EQ(faultOf(cam({0, 0, 5}, {0, 0, 0}, {0, 1, 0}, 45, 0)), "camera/znear: 0 is not above 0");
    EXPECT_EQ(faultOf(cam({0, 0, 5}, {0, 0, 0}, {0, 1, 0}, 45, 1, 1)),
              "camera/zfar: 1 is not above the near distance 1");
    EXPECT_EQ(faultOf(cam({0, NAN, 5}, {0, 0, 0})), "camera/eye: 0,nan,5 is not finite");
    EXPECT_EQ(faultOf(cam({0, 0, 5}, {0, 0, 0}, {0, 1, 0}, 45, 0.1f, INFINITY)), "camera/zfar: inf is not finite");
    EXPECT_EQ(faultOf(cam({0, 0, 5}, {0, 0, 0}), 0.0f), "aspect: 0 is not above 0");
    // Every fault at once.
    const auto many = cameraMatrices(cam({1, 1, 1}, {1, 1, 1}, {0, 1, 0}, 200, -1, -2), NAN);
    EXPECT_EQ(many.faults().size(), 5u) << many.message();
}

TEST(CameraText, ReadsEveryKeyInAnyOrder) {
    const auto c = parsePerspectiveCamera("  fov=30\ttarget=0,1,0 up=0,0,1\neye=5,1.5,-2e-1 near=0.5 far=50 ");
    ASSERT_TRUE(c.ok()) << c.message();
    EXPECT_EQ(c->eye, (Vec3{5, 1.5f, -0.2f}));
    EXPECT_EQ(c->target, (Vec3{0, 1, 0}));
    EXPECT_EQ(c->up, (Vec3{0, 0, 1}));
    EXPECT_EQ(c->fovYDegrees, 30.0f);
    EXPECT_EQ(c->znear, 0.5f);
    EXPECT_EQ(c->zfar, 50.0f);
}

TEST(CameraText, LeavesOutOptionalKeysAtTheirDefaults) {
    const auto c = parsePerspectiveCamera("eye=1,2,3 target=-1,0,0");
    ASSERT_TRUE(c.ok()) << c.message();
    const PerspectiveCamera defaults;
    EXPECT_EQ(c->eye, (Vec3{1, 2, 3}));
    EXPECT_EQ(c->target, (Vec3{-1, 0, 0}));
    EXPECT_EQ(c->up, defaults.up);
    EXPECT_EQ(c->fovYDegrees, defaults.fovYDegrees);
    EXPECT_EQ(c->znear, defaults.znear);
    EXPECT_EQ(c->zfar, defaults.zfar);
}

TEST(CameraText, RefusesWithTheKeyAndTheText) {
    const auto refused = [](const char* text) {
        const auto c = parsePerspectiveCamera(text);
        EXPECT_FALSE(c.ok()) << text;
        return c.message();
    };
    const std::string ok = "eye=0,0,5 target=0,0,0 ";
    EXPECT_EQ(refused((ok + "fov=abc").c_str()), "camera: fov=abc is not a number");
    EXPECT_EQ(refused((ok + "fov=+30").c_str()), "camera: fov=+30 is not a number");
    EXPECT_EQ(refused((ok + "fov=30deg").c_str()), "camera: fov=30deg is not a number");
    EXPECT_EQ(refused((ok + "fov=").c_str()), "camera: fov= is not a number");
    EXPECT_EQ(refused((ok + "fov=inf").c_str()), "camera: fov=inf is not a finite number");
    EXPECT_EQ(refused((ok + "fov=1e99").c_str()), "camera: fov=1e99 is not a finite number");
    EXPECT_EQ(refused("eye=1,2 target=0,0,0"), "camera: eye=1,2 is not three numbers X,Y,Z");
    EXPECT_EQ(refused("eye=1,2,3,4 target=0,0,0"), "camera: eye=1,2,3,4 is not three numbers X,Y,Z");
    EXPECT_EQ(refused("eye=1,x,3 target=0,0,0"), "camera: eye=1,x,3 is not three numbers X,Y,Z");
    EXPECT_EQ(refused("eye=1,,3 target=0,0,0"), "camera: eye=1,,3 is not three numbers X,Y,Z");
    EXPECT_EQ(refused("eye=1,nan,3 target=0,0,0"), "camera: eye=1,nan,3 is not three finite numbers");
    EXPECT_EQ(refused((ok + "zoom=2").c_str()),
              "camera: unknown key in zoom=2 (expected eye, target, up, fov, near or far)");
    EXPECT_EQ(refused((ok + "fov").c_str()), "camera: fov is not key=value");
    EXPECT_EQ(refused((ok + "eye=1,1,1").c_str()), "camera: eye=1,1,1 repeats eye=0,0,5");
    EXPECT_EQ(refused("target=0,0,0"), "camera: eye=X,Y,Z is required");
    EXPECT_EQ(refused(""), "camera: eye=X,Y,Z is required\ncamera: target=X,Y,Z is required");
    // Values that parse but make no camera.
    EXPECT_EQ(refused("eye=1,1,1 target=1,1,1"), "camera: eye=1,1,1 equals the target");
    EXPECT_EQ(refused((ok + "fov=180").c_str()), "camera: fov=180 is outside (0, 180)");
    EXPECT_EQ(refused((ok + "near=-1").c_str()), "camera: near=-1 is not above 0");
    EXPECT_EQ(refused((ok + "near=2000").c_str()),
              "camera: far=1000 (the default) is not above the near distance 2000");
    EXPECT_EQ(refused("eye=0,5,0 target=0,0,0"), "camera: up=0,1,0 (the default) is parallel to the view direction");
    // Every fault of the text, not only the first.
    const auto c = parsePerspectiveCamera("eye=a target=b fov=c");
    EXPECT_EQ(c.faults().size(), 3u) << c.message();
}

// Every corner of the box inside the image and in front of the near plane, and the
// box not lost in the middle: it reaches at least a third of the way to an edge.
void expectFramed(Vec3 lo, Vec3 hi, float aspect, float fov, Vec3 from = kFrameFromDirection) {
    const PerspectiveCamera c = frameBounds(lo, hi, aspect, fov, from);
    const auto m = cameraMatrices(c, aspect);
    ASSERT_TRUE(m.ok()) << m.message();
    double reach = 0.0;
    for (int corner = 0; corner < 8; ++corner) {
        const Vec3 p{corner & 1 ? hi.x : lo.x, corner & 2 ? hi.y : lo.y, corner & 4 ? hi.z : lo.z};
        const Ndc n = project(m->viewProjection, p);
        EXPECT_LT(std::fabs(n.x), 1.0) << "aspect " << aspect << " corner " << corner;
        EXPECT_LT(std::fabs(n.y), 1.0) << "aspect " << aspect << " corner " << corner;
        EXPECT_GT(n.z, 0.0) << "aspect " << aspect << " corner " << corner;
        EXPECT_LT(n.z, 1.0) << "aspect " << aspect << " corner " << corner;
        reach = std::max({reach, std::fabs(n.x), std::fabs(n.y)});
    }
    EXPECT_GT(reach, 0.33) << "aspect " << aspect;
}

TEST(FrameBounds, ShowsTheWholeBoxAtAnyAspect) {
    for (const float aspect : {0.4f, 1.0f, 16.0f / 9.0f, 3.0f}) {
        expectFramed({-1, 0, -0.5f}, {1, 2, 0.5f}, aspect, 40);
        expectFramed({-1, 0, -0.5f}, {1, 2, 0.5f}, aspect, 90);
        expectFramed({100, -3, 7}, {100.5f, 60, 8}, aspect, 25);  // tall and off the origin
    }
    expectFramed({-1, -1, -1}, {1, 1, 1}, 1.0f, 40, {0, 1, 0});   // from straight above
    expectFramed({-1, -1, -1}, {1, 1, 1}, 1.0f, 40, {0, -2, 0});  // from straight below
    expectFramed({-1, -1, -1}, {1, 1, 1}, 1.0f, 40, {0, 0, 0});   // no direction: the default
}

TEST(FrameBounds, LooksFromTheFrontRightAbove) {
    const PerspectiveCamera c = frameBounds({-1, 0, -1}, {1, 2, 1}, 1.0f);
    EXPECT_EQ(c.target, (Vec3{0, 1, 0}));
    EXPECT_GT(c.eye.x, 0.0f);
    EXPECT_GT(c.eye.y, 1.0f);
    EXPECT_GT(c.eye.z, 0.0f);
    EXPECT_EQ(c.fovYDegrees, 40.0f);
    // The eye lies along (0.6, 0.35, 1) from the centre.
    const Vec3 d = c.eye - c.target;
    EXPECT_NEAR(d.x / d.z, 0.6f, 1e-5f);
    EXPECT_NEAR(d.y / d.z, 0.35f, 1e-5f);
}

TEST(FrameBounds, APointStillMakesACamera) {
    for (const Vec3 p : {Vec3{0, 0, 0}, Vec3{3, 4, 5}, Vec3{-2e4f, 1e4f, 3e4f}}) {
        const PerspectiveCamera c = frameBounds(p, p, 1.0f);
        const auto m = cameraMatrices(c, 1.0f);
        ASSERT_TRUE(m.ok()) << m.message();
        const Ndc n = project(m->viewProjection, p);
        EXPECT_NEAR(n.x, 0.0, 1e-3);
        EXPECT_NEAR(n.y, 0.0, 1e-3);
        EXPECT_GT(n.z, 0.0);
        EXPECT_LT(n.z, 1.0);
    }
}

TEST(FrameBounds, AnInvertedBoxIsTheSameBox) {
    const PerspectiveCamera a = frameBounds({-1, 0, -1}, {1, 2, 1}, 1.5f);
    const PerspectiveCamera b = frameBounds({1, 2, 1}, {-1, 0, -1}, 1.5f);
    EXPECT_EQ(a.eye, b.eye);
    EXPECT_EQ(a.target, b.target);
}

// A node at (1, 2, 3), turned 90 degrees about +Y and scaled by 2: its -Z axis (where
// the camera looks) is world -X, its +X axis (the image's right) is world -Z, its +Y
// is world +Y. The scale must not matter.
Mat4 turnedNode() {
    Transform t;
    t.translation = {1, 2, 3};
    t.rotation = {0, static_cast<float>(std::sqrt(0.5)), 0, static_cast<float>(std::sqrt(0.5))};
    t.scale = {2, 2, 2};
    return toMatrix(t);
}

TEST(GltfCamera, PerspectiveLooksDownTheNodesMinusZ) {
    Camera camera;
    camera.yfov = static_cast<float>(kPi / 2);  // 90 degrees: tan(fov / 2) = 1
    camera.znear = 1;
    camera.zfar = 11;
    const CameraMatrices m = cameraMatricesFromGltf(camera, turnedNode(), 1.0f);
    EXPECT_NEAR(m.eye.x, 1.0f, 1e-6f);
    EXPECT_NEAR(m.eye.y, 2.0f, 1e-6f);
    EXPECT_NEAR(m.eye.z, 3.0f, 1e-6f);
    // 5 ahead: the centre at depth far (d - near) / (d (far - near)) = 11 * 4 / 50.
    const Ndc centre = project(m.viewProjection, {-4, 2, 3});
    EXPECT_NEAR(centre.x, 0.0, 1e-5);
    EXPECT_NEAR(centre.y, 0.0, 1e-5);
    EXPECT_NEAR(centre.z, 0.88, 1e-5);
    // 1 to the node's right (world -Z) at distance 5: x = 1 / 5.
    const Ndc right = project(m.viewProjection, {-4, 2, 2});
    EXPECT_NEAR(right.x, 0.2, 1e-5);
    EXPECT_NEAR(right.y, 0.0, 1e-5);
    // 1 up: the upper half of the image, y = -1 / 5.
    const Ndc up = project(m.viewProjection, {-4, 3, 3});
    EXPECT_NEAR(up.x, 0.0, 1e-5);
    EXPECT_NEAR(up.y, -0.2, 1e-5);
    // The near and far planes, 1 and 11 ahead.
    EXPECT_NEAR(project(m.viewProjection, {0, 2, 3}).z, 0.0, 1e-5);
    EXPECT_NEAR(project(m.viewProjection, {-10, 2, 3}).z, 1.0, 1e-5);
}

TEST(GltfCamera, ItsOwnAspectRatioWinsOverTheViewports) {
    Camera camera;
    camera.yfov = static_cast<float>(kPi / 2);
    camera.aspectRatio = 2.0f;
    camera.znear = 1;
    camera.zfar = 11;
    const CameraMatrices m = cameraMatricesFromGltf(camera, turnedNode(), 0.5f);
    EXPECT_NEAR(project(m.viewProjection, {-4, 2, 2}).x, 0.1, 1e-5);
    Camera withoutAspect = camera;
    withoutAspect.aspectRatio.reset();
    const CameraMatrices viewport = cameraMatricesFromGltf(withoutAspect, turnedNode(), 0.5f);
    EXPECT_NEAR(project(viewport.viewProjection, {-4, 2, 2}).x, 0.4, 1e-5);
}

TEST(GltfCamera, WithoutAFarPlaneDepthTendsToOne) {
    Camera camera;
    camera.yfov = static_cast<float>(kPi / 2);
    camera.znear = 1;
    const CameraMatrices m = cameraMatricesFromGltf(camera, turnedNode(), 1.0f);
    // Depth 1 - near / d.
    EXPECT_NEAR(project(m.viewProjection, {0, 2, 3}).z, 0.0, 1e-6);
    EXPECT_NEAR(project(m.viewProjection, {-4, 2, 3}).z, 0.8, 1e-6);
    EXPECT_NEAR(project(m.viewProjection, {-999, 2, 3}).z, 0.999, 1e-5);
    EXPECT_LT(project(m.viewProjection, {-1e6f, 2, 3}).z, 1.0);
}

TEST(GltfCamera, OrthographicMapsTheMagnificationsToTheEdges) {
    Camera camera;
    camera.projection = CameraProjection::Orthographic;
    camera.xmag = 2;
    camera.ymag = 1;
    camera.znear = 0;
    camera.zfar = 10;
    Transform t;
    t.translation = {0, 0, 10};
    const CameraMatrices m = cameraMatricesFromGltf(camera, toMatrix(t), 3.0f);
    // (1, 0.5, 5) is 5 ahead, half way to the right and top edges.
    const Ndc p = project(m.viewProjection, {1, 0.5f, 5});
    EXPECT_NEAR(p.x, 0.5, 1e-6);
    EXPECT_NEAR(p.y, -0.5, 1e-6);
    EXPECT_NEAR(p.z, 0.5, 1e-6);
    EXPECT_NEAR(project(m.viewProjection, {-2, -1, 10}).x, -1.0, 1e-6);
    EXPECT_NEAR(project(m.viewProjection, {-2, -1, 10}).y, 1.0, 1e-6);
    EXPECT_NEAR(project(m.viewProjection, {-2, -1, 10}).z, 0.0, 1e-6);
    EXPECT_NEAR(project(m.viewProjection, {0, 0, 0}).z, 1.0, 1e-6);
}

TEST(GltfCamera, AMirroredNodeStillLooksDownItsMinusZ) {
    // Scale (-1, 1, 1) on a node at (0, 0, 5): glTF ignores a camera node's scale, so
    // the view is that of an unscaled camera at (0, 0, 5) looking at the origin.
    Transform t;
    t.translation = {0, 0, 5};
    t.scale = {-1, 1, 1};
    Camera camera;
    camera.yfov = 1.0f;
    camera.znear = 0.1f;
    const CameraMatrices m = cameraMatricesFromGltf(camera, toMatrix(t), 1.0f);
    const Ndc centre = project(m.viewProjection, {0, 0, 0});
    EXPECT_NEAR(centre.x, 0.0, 1e-6);
    EXPECT_NEAR(centre.y, 0.0, 1e-6);
    EXPECT_GT(project(m.viewProjection, {1, 0, 0}).x, 0.1);
}

TEST(Camera, ToClipIsTheMatrixTimesThePoint) {
    const CameraMatrices m = matrices(cam({0, 0, 5}, {0, 0, 0}, {0, 1, 0}, 90, 1, 11), 1.0f);
    const std::array<float, 4> c = toClip(m.viewProjection, {1, 0, 0});
    EXPECT_NEAR(c[0], 1.0f, 1e-6f);  // tan(45) = 1: x_clip = x_view
    EXPECT_NEAR(c[1], 0.0f, 1e-6f);
    EXPECT_NEAR(c[3], 5.0f, 1e-6f);  // w = distance ahead
    EXPECT_NEAR(c[2] / c[3], 11.0 * 4.0 / 50.0, 1e-6);
}

}  // namespace
