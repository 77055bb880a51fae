#include "kinema/scene/posed_vertices.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "kinema/math/mat4.hpp"

namespace kinema {
namespace {

// The normal of a surface transformed by m: the cofactor matrix of m's upper 3x3
// (det(m) m^-T) applied to n, flipped where det < 0, normalised. Where it collapses
// to zero, n is kept.
Vec3 transformNormal(const Mat4& m, Vec3 n) {
    const Vec3 c0{m.m[0], m.m[1], m.m[2]}, c1{m.m[4], m.m[5], m.m[6]}, c2{m.m[8], m.m[9], m.m[10]};
    const Vec3 r0 = cross(c1, c2), r1 = cross(c2, c0), r2 = cross(c0, c1);
    Vec3 out = r0 * n.x + r1 * n.y + r2 * n.z;
    if (dot(c0, r0) < 0.0f) out = -out;
    const float len = length(out);
    return len > 0.0f ? out * (1.0f / len) : n;
}

}  // namespace

void posedVertices(const RenderCatalogue& catalogue, const DrawList& list, const DrawItem& item,
                   std::vector<Vec3>& outPositions, std::vector<Vec3>* outNormals) {
    outPositions.clear();
    if (outNormals) outNormals->clear();
    const RenderObjectDesc* object = catalogue.find(item.object);
    const RenderMesh* mesh = object ? catalogue.find(object->mesh) : nullptr;
    if (!mesh) return;
    const std::size_t n = mesh->vertexCount();
    const bool normals = outNormals && mesh->normals.size() == n;

    // Morph: the same sums, in the same order, as applyMorphTargets.
    outPositions.assign(mesh->positions.begin(), mesh->positions.end());
    if (normals) outNormals->assign(mesh->normals.begin(), mesh->normals.end());
    const std::size_t weightEnd =
        std::min<std::size_t>(std::size_t{item.weightOffset} + item.weightCount, list.weights.size());
    const std::size_t weightCount = weightEnd > item.weightOffset ? weightEnd - item.weightOffset : 0;
    const std::size_t targets = std::min(weightCount, mesh->targets.size());
    for (std::size_t t = 0; t < targets; ++t) {
        const float w = list.weights[item.weightOffset + t];
        if (w == 0.0f) continue;
        const MorphTarget& target = mesh->targets[t];
        if (target.positions.size() == n) {
            for (std::size_t v = 0; v < n; ++v) outPositions[v] = outPositions[v] + target.positions[v] * w;
        }
        if (normals && target.normals.size() == n) {
            for (std::size_t v = 0; v < n; ++v) (*outNormals)[v] = (*outNormals)[v] + target.normals[v] * w;
        }
    }

    const std::size_t k = mesh->influencesPerVertex;
    const bool skinned = item.paletteCount > 0 &&
        std::size_t{item.paletteOffset} + item.paletteCount <= list.palettes.size() && k > 0 &&
        mesh->joints.size() >= n * k && mesh->weights.size() >= n * k;
    if (!skinned) {
        for (std::size_t v = 0; v < n; ++v) outPositions[v] = transformPoint(item.world, outPositions[v]);
        if (normals) {
            for (std::size_t v = 0; v < n; ++v) (*outNormals)[v] = transformNormal(item.world, (*outNormals)[v]);
        }
        return;
    }
    const Mat4* palette = list.palettes.data() + item.paletteOffset;
    for (std::size_t v = 0; v < n; ++v) {
        // The blended matrix sum_i w_i * palette[j_i], accumulated as reference::skinVertices does.
        Mat4 m;
        m.m.fill(0.0f);
        for (std::size_t i = 0; i < k; ++i) {
            const float w = mesh->weights[v * k + i];
            const std::uint16_t joint = mesh->joints[v * k + i];
            if (w == 0.0f || joint >= item.paletteCount) continue;
            const Mat4& j = palette[joint];
            for (std::size_t e = 0; e < 16; ++e) m.m[e] += w * j.m[e];  // row 3 is never read
        }
        outPositions[v] = transformPoint(m, outPositions[v]);
        if (normals) (*outNormals)[v] = transformNormal(m, (*outNormals)[v]);
    }
}

bool posedBounds(const RenderCatalogue& catalogue, const DrawList& list, Vec3& min, Vec3& max) {
    bool any = false;
    Vec3 lo, hi;
    std::vector<Vec3> positions;
    for (const DrawItem& item : list.items) {
        posedVertices(catalogue, list, item, positions);
        if (positions.empty()) continue;
        const RenderMesh& mesh = catalogue.at(catalogue.at(item.object).mesh);
        // Whole triangles only, as a renderer draws them.
        const std::size_t indexCount = mesh.indices.size() - mesh.indices.size() % 3;
        for (std::size_t i = 0; i < indexCount; ++i) {
            const std::uint32_t index = mesh.indices[i];
            if (index >= positions.size()) continue;
            const Vec3 p = positions[index];
            if (!any) {
                lo = hi = p;
                any = true;
                continue;
            }
            lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
            hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
        }
    }
    if (any) {
        min = lo;
        max = hi;
    }
    return any;
}

}  // namespace kinema
