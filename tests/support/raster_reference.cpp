#include "support/raster_reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kinema::test {
namespace {

struct ClipVertex {
    double v[4];  // x, y, z, w
};

bool before(const ClipVertex& a, const ClipVertex& b) {
    return std::lexicographical_compare(std::begin(a.v), std::end(a.v), std::begin(b.v), std::end(b.v));
}

// Signed distances to the clip planes, >= 0 inside.
constexpr int kPlanes = 7;
double planeDistance(const ClipVertex& p, int plane) {
    const double x = p.v[0], y = p.v[1], z = p.v[2], w = p.v[3];
    switch (plane) {
        case 0: return w - 1e-6;
        case 1: return z;
        case 2: return w - z;
        case 3: return w + x;
        case 4: return w - x;
        case 5: return w + y;
        default: return w - y;
    }
}

// Where the edge a-b crosses `plane`, computed from the endpoints in one order
// whichever way the edge is walked, so neighbours sharing the edge agree exactly.
ClipVertex crossing(ClipVertex a, ClipVertex b, int plane) {
    if (before(b, a)) std::swap(a, b);
    const double da = planeDistance(a, plane), db = planeDistance(b, plane);
    const double t = da / (da - db);
    ClipVertex out{};
    for (int c = 0; c < 4; ++c) out.v[c] = a.v[c] + t * (b.v[c] - a.v[c]);
    return out;
}

// Sutherland-Hodgman against every plane in turn.
std::vector<ClipVertex> clipPolygon(std::vector<ClipVertex> polygon) {
    std::vector<ClipVertex> next;
    for (int plane = 0; plane < kPlanes && !polygon.empty(); ++plane) {
        next.clear();
        for (std::size_t i = 0; i < polygon.size(); ++i) {
            const ClipVertex& a = polygon[i];
            const ClipVertex& b = polygon[(i + 1) % polygon.size()];
            const bool aIn = planeDistance(a, plane) >= 0.0, bIn = planeDistance(b, plane) >= 0.0;
            if (aIn) next.push_back(a);
            if (aIn != bIn) next.push_back(crossing(a, b, plane));
        }
        polygon.swap(next);
    }
    return polygon;
}

struct ScreenVertex {
    double x, y;  // snapped, in units of 1 / 2^subpixelBits pixel
    double z;     // depth z / w
};

// Twice the signed area of (a, b, p); exact because every coordinate is an integer
// number of sub-pixel units well below 2^26.
double edge(const ScreenVertex& a, const ScreenVertex& b, double px, double py) {
    return (b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x);
}

// With the triangle oriented so that its inside is where every edge function is
// positive, the inside lies along (-dy, dx) from edge a->b: a left edge has the
// inside at +x (dy < 0); a top edge is horizontal with the inside at +y, downwards
// in the image (dy == 0, dx > 0).
bool topLeft(const ScreenVertex& a, const ScreenVertex& b) {
    const double dy = b.y - a.y, dx = b.x - a.x;
    return dy < 0.0 || (dy == 0.0 && dx > 0.0);
}

bool insideEdge(double e, const ScreenVertex& a, const ScreenVertex& b) {
    return e > 0.0 || (e == 0.0 && topLeft(a, b));
}

void rasteriseScreenTriangle(ScreenVertex a, ScreenVertex b, ScreenVertex c, std::int32_t id, RasterTarget& target) {
    double area = edge(a, b, c.x, c.y);
    if (area == 0.0) return;
    if (area < 0.0) {
        std::swap(b, c);
        area = -area;
    }
    const double unit = std::ldexp(1.0, target.subpixelBits);
    // Pixels whose centre (p + 0.5) * unit can lie within the triangle's bounds.
    const auto first = [&](double lo) { return static_cast<int>(std::ceil(lo / unit - 0.5)); };
    const auto last = [&](double hi) { return static_cast<int>(std::floor(hi / unit - 0.5)); };
    const int x0 = std::max(0, first(std::min({a.x, b.x, c.x})));
    const int x1 = std::min(target.width - 1, last(std::max({a.x, b.x, c.x})));
    const int y0 = std::max(0, first(std::min({a.y, b.y, c.y})));
    const int y1 = std::min(target.height - 1, last(std::max({a.y, b.y, c.y})));
    for (int py = y0; py <= y1; ++py) {
        const double sy = (py + 0.5) * unit;
        for (int px = x0; px <= x1; ++px) {
            const double sx = (px + 0.5) * unit;
            const double ea = edge(b, c, sx, sy);  // weight of a
            const double eb = edge(c, a, sx, sy);  // weight of b
            const double ec = edge(a, b, sx, sy);  // weight of c
            if (!insideEdge(ea, b, c) || !insideEdge(eb, c, a) || !insideEdge(ec, a, b)) continue;
            const auto at =
                static_cast<std::size_t>(py) * static_cast<std::size_t>(target.width) + static_cast<std::size_t>(px);
            target.coverage[at] = 1;
            if (!target.depth.empty()) {
                const double z = (ea * a.z + eb * b.z + ec * c.z) / area;
                const auto depth = static_cast<float>(z);
                if (!(depth < target.depth[at])) continue;
                target.depth[at] = depth;
            }
            if (!target.triangle.empty()) target.triangle[at] = id;
        }
    }
}

}  // namespace

RasterTarget makeRasterTarget(int width, int height, bool withDepth, bool withTriangleIds) {
    RasterTarget t;
    t.width = width;
    t.height = height;
    const auto n = static_cast<std::size_t>(std::max(0, width)) * static_cast<std::size_t>(std::max(0, height));
    t.coverage.assign(n, 0);
    if (withDepth) t.depth.assign(n, 1.0f);
    if (withTriangleIds) t.triangle.assign(n, -1);
    return t;
}

void rasteriseTriangles(std::span<const std::array<float, 4>> clip, std::span<const std::uint32_t> indices,
                        RasterTarget& target) {
    const auto pixels =
        static_cast<std::size_t>(std::max(0, target.width)) * static_cast<std::size_t>(std::max(0, target.height));
    // A target whose buffers disagree with its size would be written out of bounds.
    if (pixels == 0 || target.coverage.size() != pixels || (!target.depth.empty() && target.depth.size() != pixels) ||
        (!target.triangle.empty() && target.triangle.size() != pixels)) {
        return;
    }
    const double unit = std::ldexp(1.0, target.subpixelBits);
    for (std::size_t t = 0; t + 3 <= indices.size(); t += 3) {
        if (indices[t] >= clip.size() || indices[t + 1] >= clip.size() || indices[t + 2] >= clip.size()) continue;
        std::vector<ClipVertex> polygon;
        for (std::size_t k = 0; k < 3; ++k) {
            const auto& v = clip[indices[t + k]];
            polygon.push_back({{v[0], v[1], v[2], v[3]}});
        }
        polygon = clipPolygon(std::move(polygon));
        if (polygon.size() < 3) continue;
        std::vector<ScreenVertex> screen;
        for (const ClipVertex& p : polygon) {
            const double x = (p.v[0] / p.v[3] + 1.0) * 0.5 * target.width;
            const double y = (p.v[1] / p.v[3] + 1.0) * 0.5 * target.height;
            screen.push_back({std::nearbyint(x * unit), std::nearbyint(y * unit), p.v[2] / p.v[3]});
        }
        // A clipped polygon is convex: a fan covers it, and the fan's inner edges are
        // shared exactly, so no centre on them is counted twice.
        const auto id = static_cast<std::int32_t>(t / 3);
        for (std::size_t i = 1; i + 1 < screen.size(); ++i)
            rasteriseScreenTriangle(screen[0], screen[i], screen[i + 1], id, target);
    }
}

double intersectionOverUnion(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
    if (a.size() != b.size()) return std::numeric_limits<double>::quiet_NaN();
    std::size_t both = 0, either = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        both += (a[i] != 0 && b[i] != 0) ? 1u : 0u;
        either += (a[i] != 0 || b[i] != 0) ? 1u : 0u;
    }
    return either == 0 ? 1.0 : static_cast<double>(both) / static_cast<double>(either);
}

std::size_t countSet(std::span<const std::uint8_t> mask) {
    return static_cast<std::size_t>(std::count_if(mask.begin(), mask.end(), [](std::uint8_t m) { return m != 0; }));
}

}  // namespace kinema::test
