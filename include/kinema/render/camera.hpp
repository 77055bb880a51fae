// kinema/render: camera matrices for a renderer, without a graphics API.
//
// Conventions, shared by every function here:
//   - World and view space use glTF's axes: right-handed, +Y up. A camera looks down
//     its own -Z axis with +X to its right and +Y up; glTF's +Z is a model's front.
//   - Matrices are kinema::Mat4, column-major (element (r, c) is m[c * 4 + r]); a
//     point p goes to clip space as projection * view * (p, 1).
//   - Clip space is Vulkan's: x right, y DOWN, depth z / w in [0, 1] with 0 at the
//     near plane (1 at the far plane, or approached at infinity when there is none).
//     A point above the camera's target (world +Y) lands near the top of the image.
//   - Pixels: NDC (x, y) = clip (x, y) / w maps to px = (x + 1) / 2 * W and
//     py = (y + 1) / 2 * H, so pixel (0, 0) is the top-left corner of the image.
#pragma once

#include <array>
#include <string_view>

#include "kinema/asset/model.hpp"
#include "kinema/core/result.hpp"
#include "kinema/math/mat4.hpp"
#include "kinema/math/vec3.hpp"

namespace kinema {

// A camera placed by where it stands and what it looks at.
struct PerspectiveCamera {
    Vec3 eye{0.0f, 0.0f, 1.0f};
    Vec3 target{0.0f, 0.0f, 0.0f};
    Vec3 up{0.0f, 1.0f, 0.0f};  // need not be unit or perpendicular to the view direction
    float fovYDegrees = 45.0f;  // vertical field of view, in (0, 180)
    float znear = 0.01f;        // > 0
    float zfar = 1000.0f;       // > znear
};

struct CameraMatrices {
    Mat4 view;            // world -> view (camera at the origin looking down -Z)
    Mat4 projection;      // view -> Vulkan clip space
    Mat4 viewProjection;  // projection * view
    Vec3 eye;             // the camera's position in world space
};

// The view matrix of a camera at `eye` looking at `target`, `up` giving the image's
// upward direction. Precondition: eye != target, up not parallel to target - eye.
Mat4 lookAtView(Vec3 eye, Vec3 target, Vec3 up) noexcept;

// Perspective projection into Vulkan clip space (y down, depth 0 at znear).
// `zfar` <= 0 or infinite: no far plane, depth tends to 1 at infinity.
// Precondition: fovY in (0, pi) radians, aspect (width / height) > 0, znear > 0,
// zfar > znear when finite and positive.
Mat4 perspectiveProjection(float fovYRadians, float aspect, float znear, float zfar) noexcept;

// Orthographic projection into Vulkan clip space: view x in [-xmag, xmag] and y in
// [-ymag, ymag] fill the image (y down), view depth znear..zfar maps to 0..1.
// Precondition: xmag, ymag non-zero, zfar > znear.
Mat4 orthographicProjection(float xmag, float ymag, float znear, float zfar) noexcept;

// The matrices of `camera` for an image of aspect ratio `aspect` (width / height).
// Faults, each naming its field ("camera/fovYDegrees: 180 is outside (0, 180)"):
// a non-finite value anywhere, eye == target, up zero or parallel to the view
// direction, fov outside (0, 180), znear <= 0, zfar <= znear, aspect <= 0.
Result<CameraMatrices> cameraMatrices(const PerspectiveCamera& camera, float aspect);

// Reads "eye=X,Y,Z target=X,Y,Z up=X,Y,Z fov=DEG near=N far=F": keys in any order,
// separated by whitespace; eye and target required, the others default as in
// PerspectiveCamera. Numbers are read strictly (the whole text of each, finite, no
// leading '+' or spaces). Every fault is reported, each at "camera" naming the key and
// its text ("camera: fov=abc is not a number"), and so is a camera cameraMatrices
// would refuse for its own values (eye == target, fov outside (0, 180), ...).
Result<PerspectiveCamera> parsePerspectiveCamera(std::string_view text);

// The direction frameBounds looks from by default: front (+Z), right and above.
inline constexpr Vec3 kFrameFromDirection{0.6f, 0.35f, 1.0f};

// A camera that shows the axis-aligned box [min, max] whole in an image of aspect
// `aspect`: it looks at the box's centre from `fromDirection` (need not be unit), at
// the distance where the box's bounding sphere fits both the vertical and the
// horizontal field of view with a 10% margin; near and far planes bracket the
// sphere. +Y is up unless `fromDirection` is vertical, then -Z is (+Z from below).
// The sphere's radius is at least 1e-4 times the centre's largest coordinate (and at
// least 1e-4), so a point, or a box tiny beside its distance from the origin, still
// gets an eye apart from its target in float. A non-positive or non-finite aspect
// counts as 1; a zero or non-finite direction is the default one. A field of view
// outside (0, 180) is kept, for cameraMatrices to refuse, and so is a camera for a
// box with a non-finite corner (an empty box's +inf..-inf included) or one so large
// (beyond about 1e37) that the eye's distance overflows a float.
PerspectiveCamera frameBounds(Vec3 min, Vec3 max, float aspect, float fovYDegrees = 40.0f,
                              Vec3 fromDirection = kFrameFromDirection);

// The matrices of a glTF camera carried by a node whose world matrix is `nodeWorld`.
// The view is the inverse of that matrix with its scale taken out (glTF ignores a
// camera node's scaling). Perspective uses camera.aspectRatio when the camera has one,
// else `viewportAspect`, and has no far plane when camera.zfar is absent; orthographic
// uses xmag, ymag, znear, zfar and ignores the aspect. Precondition: the values import
// guarantees (yfov > 0, znear > 0 for perspective, zfar > znear, xmag and ymag
// non-zero) and a viewport aspect > 0 when the camera gives none.
CameraMatrices cameraMatricesFromGltf(const Camera& camera, const Mat4& nodeWorld, float viewportAspect) noexcept;

// The point p (w = 1) in homogeneous clip space: m * (p, 1) as {x, y, z, w}.
std::array<float, 4> toClip(const Mat4& m, Vec3 p) noexcept;

}  // namespace kinema
