#include "kinema/render/camera.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "kinema/math/transform.hpp"

namespace kinema {
namespace {

constexpr double kPi = 3.14159265358979323846;

struct DVec3 {
    double x = 0.0, y = 0.0, z = 0.0;
};
DVec3 toD(Vec3 v) { return {v.x, v.y, v.z}; }
DVec3 sub(DVec3 a, DVec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
double dotD(DVec3 a, DVec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
DVec3 crossD(DVec3 a, DVec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
double lengthD(DVec3 a) { return std::sqrt(dotD(a, a)); }
DVec3 scaleD(DVec3 a, double s) { return {a.x * s, a.y * s, a.z * s}; }

std::string text(Vec3 v) { return exactNumber(v.x) + "," + exactNumber(v.y) + "," + exactNumber(v.z); }

// One thing wrong with a camera's values, by field, so that cameraMatrices can name
// the field and parsePerspectiveCamera the key the user wrote.
enum class Field { Eye, Target, Up, Fov, Near, Far };
struct Problem {
    Field field;
    std::string reason;  // follows the value: "is outside (0, 180)"
};

std::vector<Problem> findProblems(const PerspectiveCamera& c) {
    std::vector<Problem> out;
    const bool eyeOk = isFinite(c.eye), targetOk = isFinite(c.target), upOk = isFinite(c.up);
    if (!eyeOk) out.push_back({Field::Eye, "is not finite"});
    if (!targetOk) out.push_back({Field::Target, "is not finite"});
    if (!upOk) out.push_back({Field::Up, "is not finite"});
    if (eyeOk && targetOk && upOk) {
        const DVec3 forward = sub(toD(c.target), toD(c.eye));
        const double distance = lengthD(forward);
        const double upLength = lengthD(toD(c.up));
        if (distance == 0.0) {
            out.push_back({Field::Eye, "equals the target"});
        } else if (upLength == 0.0) {
            out.push_back({Field::Up, "is zero"});
        } else if (lengthD(crossD(forward, toD(c.up))) <= 1e-6 * distance * upLength) {
            // The sine of the angle between them: below 1e-6 the image's sideways
            // axis is rounding noise.
            out.push_back({Field::Up, "is parallel to the view direction"});
        }
    }
    if (!std::isfinite(c.fovYDegrees)) {
        out.push_back({Field::Fov, "is not finite"});
    } else if (!(c.fovYDegrees > 0.0f && c.fovYDegrees < 180.0f)) {
        out.push_back({Field::Fov, "is outside (0, 180)"});
    }
    if (!std::isfinite(c.znear)) {
        out.push_back({Field::Near, "is not finite"});
    } else if (!(c.znear > 0.0f)) {
        out.push_back({Field::Near, "is not above 0"});
    }
    if (!std::isfinite(c.zfar)) {
        out.push_back({Field::Far, "is not finite"});
    } else if (std::isfinite(c.znear) && !(c.zfar > c.znear)) {
        out.push_back({Field::Far, "is not above the near distance " + exactNumber(c.znear)});
    }
    return out;
}

const char* fieldName(Field f) {
    switch (f) {
        case Field::Eye: return "eye";
        case Field::Target: return "target";
        case Field::Up: return "up";
        case Field::Fov: return "fovYDegrees";
        case Field::Near: return "znear";
        case Field::Far: return "zfar";
    }
    return "";
}

std::string fieldValue(const PerspectiveCamera& c, Field f) {
    switch (f) {
        case Field::Eye: return text(c.eye);
        case Field::Target: return text(c.target);
        case Field::Up: return text(c.up);
        case Field::Fov: return exactNumber(c.fovYDegrees);
        case Field::Near: return exactNumber(c.znear);
        case Field::Far: return exactNumber(c.zfar);
    }
    return "";
}

// Strict: the whole text is one finite number in from_chars' general format.
enum class NumberRead { Ok, NotANumber, NotFinite };
NumberRead readNumber(std::string_view s, float& out) {
    if (s.empty()) return NumberRead::NotANumber;
    float value = 0.0f;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec == std::errc::result_out_of_range && end == s.data() + s.size()) return NumberRead::NotFinite;
    if (ec != std::errc{} || end != s.data() + s.size()) return NumberRead::NotANumber;
    if (!std::isfinite(value)) return NumberRead::NotFinite;
    out = value;
    return NumberRead::Ok;
}

bool isSpace(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v'; }

}  // namespace

Mat4 lookAtView(Vec3 eye, Vec3 target, Vec3 up) noexcept {
    const DVec3 e = toD(eye);
    DVec3 f = sub(toD(target), e);
    f = scaleD(f, 1.0 / lengthD(f));
    DVec3 s = crossD(f, toD(up));
    s = scaleD(s, 1.0 / lengthD(s));
    const DVec3 u = crossD(s, f);
    Mat4 v;
    // Rows are the camera's axes in world space: +X = s, +Y = u, +Z = -f.
    v(0, 0) = static_cast<float>(s.x);
    v(0, 1) = static_cast<float>(s.y);
    v(0, 2) = static_cast<float>(s.z);
    v(0, 3) = static_cast<float>(-dotD(s, e));
    v(1, 0) = static_cast<float>(u.x);
    v(1, 1) = static_cast<float>(u.y);
    v(1, 2) = static_cast<float>(u.z);
    v(1, 3) = static_cast<float>(-dotD(u, e));
    v(2, 0) = static_cast<float>(-f.x);
    v(2, 1) = static_cast<float>(-f.y);
    v(2, 2) = static_cast<float>(-f.z);
    v(2, 3) = static_cast<float>(dotD(f, e));
    return v;
}

Mat4 perspectiveProjection(float fovYRadians, float aspect, float znear, float zfar) noexcept {
    const double f = 1.0 / std::tan(0.5 * static_cast<double>(fovYRadians));
    const double n = znear;
    Mat4 p;
    p.m.fill(0.0f);
    p(0, 0) = static_cast<float>(f / static_cast<double>(aspect));
    p(1, 1) = static_cast<float>(-f);  // Vulkan's y points down
    if (std::isfinite(zfar) && zfar > 0.0f) {
        // Depth (A z + B) / -z is 0 at z = -near and 1 at z = -far.
        const double fa = zfar;
        p(2, 2) = static_cast<float>(fa / (n - fa));
        p(2, 3) = static_cast<float>(n * fa / (n - fa));
    } else {
        // The limit of the above as far goes to infinity: depth = 1 - near / distance.
        p(2, 2) = -1.0f;
        p(2, 3) = static_cast<float>(-n);
    }
    p(3, 2) = -1.0f;
    return p;
}

Mat4 orthographicProjection(float xmag, float ymag, float znear, float zfar) noexcept {
    const double range = static_cast<double>(zfar) - static_cast<double>(znear);
    Mat4 p;
    p(0, 0) = static_cast<float>(1.0 / static_cast<double>(xmag));
    p(1, 1) = static_cast<float>(-1.0 / static_cast<double>(ymag));
    p(2, 2) = static_cast<float>(-1.0 / range);
    p(2, 3) = static_cast<float>(-static_cast<double>(znear) / range);
    return p;
}

std::array<float, 4> toClip(const Mat4& m, Vec3 p) noexcept {
    std::array<float, 4> out{};
    for (int r = 0; r < 4; ++r)
        out[static_cast<std::size_t>(r)] = m(r, 0) * p.x + m(r, 1) * p.y + m(r, 2) * p.z + m(r, 3);
    return out;
}

Result<CameraMatrices> cameraMatrices(const PerspectiveCamera& camera, float aspect) {
    std::vector<Fault> faults;
    for (const Problem& p : findProblems(camera)) {
        faults.push_back({std::string("camera/") + fieldName(p.field), fieldValue(camera, p.field) + " " + p.reason});
    }
    if (!std::isfinite(aspect) || !(aspect > 0.0f))
        faults.push_back({"aspect", exactNumber(aspect) + " is not above 0"});
    if (!faults.empty()) return faults;
    CameraMatrices out;
    out.view = lookAtView(camera.eye, camera.target, camera.up);
    out.projection =
        perspectiveProjection(static_cast<float>(camera.fovYDegrees * kPi / 180.0), aspect, camera.znear, camera.zfar);
    out.viewProjection = out.projection * out.view;
    out.eye = camera.eye;
    return out;
}

Result<PerspectiveCamera> parsePerspectiveCamera(std::string_view input) {
    PerspectiveCamera camera;
    std::vector<Fault> faults;
    auto fault = [&](std::string what) { faults.push_back({"camera", std::move(what)}); };
    // The text each key was given as, for messages about the values it produced.
    std::optional<std::string> given[6];
    const char* keys[6] = {"eye", "target", "up", "fov", "near", "far"};

    std::size_t i = 0;
    while (i < input.size()) {
        while (i < input.size() && isSpace(input[i])) ++i;
        const std::size_t start = i;
        while (i < input.size() && !isSpace(input[i])) ++i;
        if (start == i) break;
        const std::string_view token = input.substr(start, i - start);
        const std::size_t eq = token.find('=');
        if (eq == std::string_view::npos) {
            fault(std::string(token) + " is not key=value");
            continue;
        }
        const std::string_view key = token.substr(0, eq), value = token.substr(eq + 1);
        std::size_t k = 0;
        while (k < 6 && key != keys[k]) ++k;
        if (k == 6) {
            fault("unknown key in " + std::string(token) + " (expected eye, target, up, fov, near or far)");
            continue;
        }
        if (given[k]) {
            fault(std::string(token) + " repeats " + std::string(key) + "=" + *given[k]);
            continue;
        }
        given[k] = std::string(value);
        if (k < 3) {
            float xyz[3] = {0.0f, 0.0f, 0.0f};
            std::size_t parts = 0, from = 0;
            bool numbers = true, finite = true;
            for (;;) {
                const std::size_t comma = value.find(',', from);
                const std::string_view part =
                    value.substr(from, comma == std::string_view::npos ? comma : comma - from);
                if (parts < 3) {
                    const NumberRead r = readNumber(part, xyz[parts]);
                    numbers = numbers && r != NumberRead::NotANumber;
                    finite = finite && r != NumberRead::NotFinite;
                }
                ++parts;
                if (comma == std::string_view::npos) break;
                from = comma + 1;
            }
            if (parts != 3 || !numbers) {
                fault(std::string(token) + " is not three numbers X,Y,Z");
            } else if (!finite) {
                fault(std::string(token) + " is not three finite numbers");
            } else {
                Vec3& v = k == 0 ? camera.eye : k == 1 ? camera.target : camera.up;
                v = {xyz[0], xyz[1], xyz[2]};
            }
        } else {
            float number = 0.0f;
            const NumberRead r = readNumber(value, number);
            if (r == NumberRead::NotANumber) {
                fault(std::string(token) + " is not a number");
            } else if (r == NumberRead::NotFinite) {
                fault(std::string(token) + " is not a finite number");
            } else {
                float& f = k == 3 ? camera.fovYDegrees : k == 4 ? camera.znear : camera.zfar;
                f = number;
            }
        }
    }
    if (!given[0]) fault("eye=X,Y,Z is required");
    if (!given[1]) fault("target=X,Y,Z is required");
    if (!faults.empty()) return faults;

    for (const Problem& p : findProblems(camera)) {
        const auto k = static_cast<std::size_t>(p.field);
        const std::string shown = given[k]
            ? std::string(keys[k]) + "=" + *given[k]
            : std::string(keys[k]) + "=" + fieldValue(camera, p.field) + " (the default)";
        fault(shown + " " + p.reason);
    }
    if (!faults.empty()) return faults;
    return camera;
}

PerspectiveCamera frameBounds(Vec3 min, Vec3 max, float aspect, float fovYDegrees, Vec3 fromDirection) {
    const DVec3 lo{std::min(min.x, max.x), std::min(min.y, max.y), std::min(min.z, max.z)};
    const DVec3 hi{std::max(min.x, max.x), std::max(min.y, max.y), std::max(min.z, max.z)};
    const DVec3 centre = scaleD({lo.x + hi.x, lo.y + hi.y, lo.z + hi.z}, 0.5);
    double radius = 0.5 * lengthD(sub(hi, lo));
    // A floor on the radius keeps eye and target apart in float where the box is a
    // point or far smaller than its coordinates.
    const double scale = std::max({1.0, std::fabs(centre.x), std::fabs(centre.y), std::fabs(centre.z)});
    radius = std::max(radius, 1e-4 * scale);

    DVec3 dir = toD(fromDirection);
    const double dirLength = lengthD(dir);
    if (!(dirLength > 0.0) || !std::isfinite(dirLength)) dir = toD(kFrameFromDirection);
    dir = scaleD(dir, 1.0 / lengthD(dir));

    const double a = std::isfinite(aspect) && aspect > 0.0f ? static_cast<double>(aspect) : 1.0;
    const double halfY = 0.5 * static_cast<double>(fovYDegrees) * kPi / 180.0;
    const double halfX = std::atan(a * std::tan(halfY));
    const double half = std::min(halfY, halfX);
    // A sphere of radius r seen from distance d fills a cone of half-angle asin(r / d).
    const double distance = half > 0.0 ? 1.1 * radius / std::sin(half) : 1.1 * radius;

    PerspectiveCamera c;
    c.target = {static_cast<float>(centre.x), static_cast<float>(centre.y), static_cast<float>(centre.z)};
    c.eye = {static_cast<float>(centre.x + dir.x * distance), static_cast<float>(centre.y + dir.y * distance),
             static_cast<float>(centre.z + dir.z * distance)};
    const bool vertical = std::hypot(dir.x, dir.z) < 1e-3;
    c.up = vertical ? Vec3{0.0f, 0.0f, dir.y > 0.0 ? -1.0f : 1.0f} : Vec3{0.0f, 1.0f, 0.0f};
    c.fovYDegrees = fovYDegrees;
    // The sphere lies between distance - radius (> 0.1 radius) and distance + radius.
    c.znear = static_cast<float>(std::max(0.5 * (distance - radius), 1e-6 * distance));
    c.zfar = static_cast<float>(2.0 * (distance + radius));
    return c;
}

CameraMatrices cameraMatricesFromGltf(const Camera& camera, const Mat4& nodeWorld, float viewportAspect) noexcept {
    Transform placement = decompose(nodeWorld);
    placement.scale = {1.0f, 1.0f, 1.0f};
    CameraMatrices out;
    out.view = inverseAffine(toMatrix(placement));
    if (camera.projection == CameraProjection::Orthographic) {
        out.projection = orthographicProjection(camera.xmag, camera.ymag, camera.znear,
                                                camera.zfar.value_or(std::numeric_limits<float>::infinity()));
    } else {
        out.projection = perspectiveProjection(camera.yfov, camera.aspectRatio.value_or(viewportAspect), camera.znear,
                                               camera.zfar.value_or(std::numeric_limits<float>::infinity()));
    }
    out.viewProjection = out.projection * out.view;
    out.eye = placement.translation;
    return out;
}

}  // namespace kinema
