#include "kinema/scene/skeleton_overlay.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace kinema {
namespace {

Vec3 positionOf(const Mat4& m) { return {m.m[12], m.m[13], m.m[14]}; }

Vec3 unitColumn(const Mat4& m, std::size_t c) {
    const Vec3 v{m.m[c * 4], m.m[c * 4 + 1], m.m[c * 4 + 2]};
    const float len = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    if (!(len > 0.0f)) return {0, 0, 0};
    return {v.x / len, v.y / len, v.z / len};
}

}  // namespace

void appendSkeletonOverlay(const Scene& scene, std::span<const NodeId> joints, const SkeletonOverlayStyle& style,
                           Overlay& out) {
    const std::size_t nodes = scene.nodeCount();
    std::vector<bool> inRig(nodes, false);
    for (NodeId j : joints)
        if (j.valid() && j.value < nodes) inRig[j.value] = true;

    float axis = style.axisLength;
    if (axis == 0.0f) {
        Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
        for (std::size_t n = 0; n < nodes; ++n) {
            if (!inRig[n]) continue;
            const Vec3 p = positionOf(scene.world(NodeId{static_cast<std::uint32_t>(n)}));
            lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
            hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
        }
        const Vec3 d{hi.x - lo.x, hi.y - lo.y, hi.z - lo.z};
        const float diagonal = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
        axis = std::isfinite(diagonal) ? 0.06f * diagonal : 0.0f;
    }
    constexpr std::array<std::array<float, 4>, 3> kAxisColors{
        {{1.0f, 0.15f, 0.15f, 1.0f}, {0.15f, 1.0f, 0.15f, 1.0f}, {0.2f, 0.4f, 1.0f, 1.0f}}};

    for (std::size_t n = 0; n < nodes; ++n) {
        if (!inRig[n]) continue;
        const NodeId node{static_cast<std::uint32_t>(n)};
        const Vec3 at = positionOf(scene.world(node));
        NodeId up = scene.parent(node);
        while (up.valid() && !inRig[up.value]) up = scene.parent(up);
        if (up.valid())
            out.segments.push_back({positionOf(scene.world(up)), at, style.boneColor, style.boneWidthPixels});
        if (axis > 0.0f) {
            for (std::size_t c = 0; c < 3; ++c) {
                const Vec3 dir = unitColumn(scene.world(node), c);
                out.segments.push_back({at,
                                        {at.x + dir.x * axis, at.y + dir.y * axis, at.z + dir.z * axis},
                                        kAxisColors[c],
                                        style.axisWidthPixels});
            }
        }
        out.dots.push_back({at, style.jointColor, style.jointSizePixels});
    }
}

}  // namespace kinema
