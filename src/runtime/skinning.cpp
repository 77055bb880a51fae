#include "kinema/runtime/skinning.hpp"

#include <algorithm>
#include <cmath>

namespace kinema {

void applyMorphTargets(const MeshPrimitive& primitive, std::span<const float> weights, std::span<Vec3> outPositions,
                       std::span<Vec3> outNormals) noexcept {
    const std::size_t n = primitive.vertexCount();
    if (outPositions.size() >= n)
        std::copy(primitive.positions.begin(), primitive.positions.end(), outPositions.begin());
    const bool normals = outNormals.size() >= n && primitive.normals.size() == n;
    if (normals) std::copy(primitive.normals.begin(), primitive.normals.end(), outNormals.begin());
    const std::size_t targets = std::min(weights.size(), primitive.targets.size());
    for (std::size_t t = 0; t < targets; ++t) {
        const float w = weights[t];
        if (w == 0.0f) continue;
        const MorphTarget& target = primitive.targets[t];
        if (outPositions.size() >= n && target.positions.size() == n) {
            for (std::size_t v = 0; v < n; ++v) outPositions[v] = outPositions[v] + target.positions[v] * w;
        }
        if (normals && target.normals.size() == n) {
            for (std::size_t v = 0; v < n; ++v) outNormals[v] = outNormals[v] + target.normals[v] * w;
        }
    }
}

bool reference::skinVertices(const MeshPrimitive& primitive, std::span<const Mat4> palette,
                             std::span<const Vec3> positions, std::span<const Vec3> normals,
                             std::span<Vec3> outPositions, std::span<Vec3> outNormals,
                             NormalTransform normalTransform) noexcept {
    const std::size_t n = positions.size();
    const std::size_t k = primitive.influencesPerVertex;
    const bool doNormals = !outNormals.empty();
    if (outPositions.size() < n || primitive.joints.size() < n * k || primitive.weights.size() < n * k ||
        (doNormals && (normals.size() < n || outNormals.size() < n)) || (k > 0 && n > 0 && palette.empty())) {
        return false;
    }
    for (std::size_t v = 0; v < n; ++v) {
        Mat4 m;
        m.m.fill(0.0f);
        for (std::size_t i = 0; i < k; ++i) {
            const float w = primitive.weights[v * k + i];
            if (w == 0.0f) continue;
            const Mat4& j = palette[primitive.joints[v * k + i]];
            for (std::size_t e = 0; e < 12; ++e) m.m[e] += w * j.m[e];
            m.m[12] += w * j.m[12];
            m.m[13] += w * j.m[13];
            m.m[14] += w * j.m[14];
        }
        outPositions[v] = transformPoint(m, positions[v]);
        if (doNormals) {
            const Vec3 c0{m.m[0], m.m[1], m.m[2]}, c1{m.m[4], m.m[5], m.m[6]}, c2{m.m[8], m.m[9], m.m[10]};
            const Vec3 nv = normals[v];
            Vec3 out;
            if (normalTransform == NormalTransform::BlendedMatrix) {
                out = c0 * nv.x + c1 * nv.y + c2 * nv.z;
            } else {
                // Cofactor matrix = det * inverse-transpose; the sign of det keeps the
                // normal facing out when the blended matrix mirrors.
                const Vec3 r0 = cross(c1, c2), r1 = cross(c2, c0), r2 = cross(c0, c1);
                out = r0 * nv.x + r1 * nv.y + r2 * nv.z;
                if (dot(c0, r0) < 0.0f) out = -out;
            }
            const float len = length(out);
            outNormals[v] = len > 0.0f ? out * (1.0f / len) : nv;
        }
    }
    return true;
}

}  // namespace kinema
