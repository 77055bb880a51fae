#include "overlay_geometry.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#include <stb/stb_easy_font.h>

namespace kinema::detail {
namespace {

using Clip = std::array<float, 4>;

Clip project(const Mat4& m, Vec3 p) {
    const auto& a = m.m;
    return {a[0] * p.x + a[4] * p.y + a[8] * p.z + a[12], a[1] * p.x + a[5] * p.y + a[9] * p.z + a[13],
            a[2] * p.x + a[6] * p.y + a[10] * p.z + a[14], a[3] * p.x + a[7] * p.y + a[11] * p.z + a[15]};
}

// Depth 0 is the near plane in Vulkan's clip space: a point is in front when z >= 0 and w > 0.
bool inFront(const Clip& c) { return c[2] >= 0.0f && c[3] > 1e-6f; }

void quad(std::vector<OverlayVertex>& out, const std::array<float, 2> corners[4], const std::array<float, 4>& color) {
    const int order[6] = {0, 1, 2, 0, 2, 3};
    for (int i : order) out.push_back({{corners[i][0], corners[i][1], 0.0f, 1.0f}, color});
}

}  // namespace

void appendOverlayGeometry(const Overlay& overlay, const Mat4& viewProjection, std::uint32_t width,
                           std::uint32_t height, std::vector<OverlayVertex>& out) {
    const float halfW = 0.5f * static_cast<float>(width);
    const float halfH = 0.5f * static_cast<float>(height);
    for (const OverlaySegment& s : overlay.segments) {
        Clip a = project(viewProjection, s.from);
        Clip b = project(viewProjection, s.to);
        const bool frontA = inFront(a), frontB = inFront(b);
        if (!frontA && !frontB) continue;
        if (frontA != frontB) {
            // Cut at the near plane z = 0, keeping the part in front.
            const float t = a[2] / (a[2] - b[2]);
            Clip cut;
            for (std::size_t i = 0; i < 4; ++i) cut[i] = a[i] + t * (b[i] - a[i]);
            if (cut[3] <= 1e-6f) continue;
            (frontA ? b : a) = cut;
        }
        const float ax = a[0] / a[3], ay = a[1] / a[3], bx = b[0] / b[3], by = b[1] / b[3];
        // Work in pixels so the width is the same in x and y.
        float dx = (bx - ax) * halfW, dy = (by - ay) * halfH;
        float length = std::sqrt(dx * dx + dy * dy);
        if (!(length > 1e-4f)) {
            dx = 1.0f;
            dy = 0.0f;
            length = 1.0f;
        }
        const float half = 0.5f * s.widthPixels;
        const float nx = -dy / length * half / halfW, ny = dx / length * half / halfH;
        const std::array<float, 2> corners[4] = {
            {ax + nx, ay + ny}, {bx + nx, by + ny}, {bx - nx, by - ny}, {ax - nx, ay - ny}};
        quad(out, corners, s.color);
    }
    for (const OverlayDot& d : overlay.dots) {
        const Clip c = project(viewProjection, d.at);
        if (!inFront(c)) continue;
        const float x = c[0] / c[3], y = c[1] / c[3];
        const float hx = 0.5f * d.sizePixels / halfW, hy = 0.5f * d.sizePixels / halfH;
        const std::array<float, 2> corners[4] = {
            {x - hx, y - hy}, {x + hx, y - hy}, {x + hx, y + hy}, {x - hx, y + hy}};
        quad(out, corners, d.color);
    }
    // Text last, over the segments and dots (help and status lines stay readable):
    // stb_easy_font's quads, in pixels, mapped to clip space.
    std::vector<char> quads;
    for (const OverlayText& t : overlay.texts) {
        std::vector<char> text(t.text.begin(), t.text.end());
        text.push_back('\0');
        auto toNdc = [&](float px, float py) {
            return std::array<float, 2>{(t.x + px * t.scale) / halfW - 1.0f, (t.y + py * t.scale) / halfH - 1.0f};
        };
        if (t.backdrop[3] > 0.0f) {
            const float w = static_cast<float>(stb_easy_font_width(text.data()));
            const float h = static_cast<float>(stb_easy_font_height(text.data()));
            const std::array<float, 2> corners[4] = {toNdc(-3.0f, -3.0f), toNdc(w + 3.0f, -3.0f),
                                                     toNdc(w + 3.0f, h + 1.0f), toNdc(-3.0f, h + 1.0f)};
            quad(out, corners, t.backdrop);
        }
        // 270 bytes a character covers the font's densest glyphs.
        quads.assign(text.size() * 270 + 64, 0);
        const int count =
            stb_easy_font_print(0.0f, 0.0f, text.data(), nullptr, quads.data(), static_cast<int>(quads.size()));
        for (int q = 0; q < count; ++q) {
            std::array<float, 2> corners[4];
            for (int v = 0; v < 4; ++v) {
                float xy[2];
                std::memcpy(xy, quads.data() + (q * 4 + v) * 16, sizeof xy);  // x, y, z, colour bytes
                corners[v] = toNdc(xy[0], xy[1]);
            }
            quad(out, corners, t.color);
        }
    }
}

}  // namespace kinema::detail
