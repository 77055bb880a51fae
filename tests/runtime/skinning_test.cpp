// CPU skinning and morphing: linear blend skinning by hand, rigid vertices,
// normals through the inverse-transpose (non-uniform scale, mirrors), and morph
// targets as base + sum of weighted displacements.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/runtime/skinning.hpp"
#include "math/reference.hpp"

namespace {

using kinema::Mat4;
using kinema::MeshPrimitive;
using kinema::Transform;
using kinema::Vec3;

Mat4 trsMatrix(Vec3 t, kinema::Quat r, Vec3 s) { return kinema::toMatrix(Transform{t, r, s}); }

kref::D3 d3(Vec3 v) { return {v.x, v.y, v.z}; }

double dotd(kref::D3 a, kref::D3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
kref::D3 crossd(kref::D3 a, kref::D3 b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
double lengthd(kref::D3 a) { return std::sqrt(dotd(a, a)); }
kref::D3 direction(const Mat4& m, kref::D3 v) {  // upper 3x3 times v, in double
    return {m(0, 0) * v.x + m(0, 1) * v.y + m(0, 2) * v.z, m(1, 0) * v.x + m(1, 1) * v.y + m(1, 2) * v.z,
            m(2, 0) * v.x + m(2, 1) * v.y + m(2, 2) * v.z};
}

// One vertex per entry, `k` influences each.
MeshPrimitive primitive(std::vector<Vec3> positions, std::uint32_t k, std::vector<std::uint16_t> joints,
                        std::vector<float> weights) {
    MeshPrimitive p;
    p.positions = std::move(positions);
    p.influencesPerVertex = k;
    p.joints = std::move(joints);
    p.weights = std::move(weights);
    return p;
}

// ---- positions ------------------------------------------------------------------------

TEST(SkinVertices, TwoInfluencesBlendTheTransformedPointsByHand) {
    const Mat4 m0 = trsMatrix({1, 2, 3}, kref::quatOf({0, 1, 0}, 0.7), {1, 1, 1});
    const Mat4 m1 = trsMatrix({-0.5f, 0, 4}, kref::quatOf({1, 1, 0}, -1.3), {0.8f, 1.2f, 1.0f});
    const std::vector<Mat4> palette{m0, m1};
    const Vec3 p{0.3f, -0.6f, 1.1f};
    // joint 1 first with 0.25, then joint 0 with 0.75
    const MeshPrimitive prim = primitive({p}, 2, {1, 0}, {0.25f, 0.75f});
    std::vector<Vec3> out(1);
    kinema::reference::skinVertices(prim, palette, prim.positions, {}, out, {});
    const kref::D3 a = kref::applyPoint(kref::widen(m1), d3(p)), b = kref::applyPoint(kref::widen(m0), d3(p));
    EXPECT_NEAR(out[0].x, 0.25 * a.x + 0.75 * b.x, 2e-6);
    EXPECT_NEAR(out[0].y, 0.25 * a.y + 0.75 * b.y, 2e-6);
    EXPECT_NEAR(out[0].z, 0.25 * a.z + 0.75 * b.z, 2e-6);
}

TEST(SkinVertices, WeightsSummingToOneKeepARigidVertexExact) {
    // Every influence uses the same rigid matrix (a quarter turn about z, then a
    // translation, all entries exact): 0.5 + 0.25 + 0.25 of it is that matrix exactly.
    Mat4 rigid;
    rigid(0, 0) = 0;
    rigid(0, 1) = -1;
    rigid(1, 0) = 1;
    rigid(1, 1) = 0;
    rigid(0, 3) = 1;
    rigid(1, 3) = 2;
    rigid(2, 3) = 3;
    const std::vector<Mat4> palette{rigid, rigid, rigid};
    const MeshPrimitive prim =
        primitive({{1, 0, 0}, {0.5f, 0.25f, -2}}, 3, {0, 1, 2, 2, 0, 1}, {0.5f, 0.25f, 0.25f, 0.25f, 0.25f, 0.5f});
    const std::vector<Vec3> normals{{1, 0, 0}, {0, 0, 1}};
    std::vector<Vec3> out(2), outN(2);
    kinema::reference::skinVertices(prim, palette, prim.positions, normals, out, outN);
    EXPECT_EQ(out[0], (Vec3{1, 3, 3}));         // R (1, 0, 0) = (0, 1, 0), + (1, 2, 3)
    EXPECT_EQ(out[1], (Vec3{0.75f, 2.5f, 1}));  // R (0.5, 0.25, -2) = (-0.25, 0.5, -2)
    EXPECT_EQ(outN[0], (Vec3{0, 1, 0}));
    EXPECT_EQ(outN[1], (Vec3{0, 0, 1}));
}

TEST(SkinVertices, WeightsSummingToOneKeepAnArbitraryRigidVertex) {
    std::mt19937 rng(701);
    for (int n = 0; n < 200; ++n) {
        const Mat4 m = trsMatrix({1.5f, -2, 0.5f}, kref::randomUnitQuat(rng), {1, 1, 1});
        const std::vector<Mat4> palette{m, m, m, m};
        const kref::D3 v = kref::randomUnitVector(rng);
        const Vec3 p{float(v.x), float(v.y), float(v.z)};
        const MeshPrimitive prim = primitive({p}, 4, {0, 1, 2, 3}, {0.1f, 0.2f, 0.3f, 0.4f});
        std::vector<Vec3> out(1);
        kinema::reference::skinVertices(prim, palette, prim.positions, {}, out, {});
        const kref::D3 want = kref::applyPoint(kref::widen(m), d3(p));
        EXPECT_NEAR(out[0].x, want.x, 1e-6);
        EXPECT_NEAR(out[0].y, want.y, 1e-6);
        EXPECT_NEAR(out[0].z, want.z, 1e-6);
    }
}

TEST(SkinVertices, IdentityPaletteLeavesVerticesAlone) {
    const std::vector<Mat4> palette{Mat4{}, Mat4{}};
    const MeshPrimitive prim = primitive({{0.1f, 0.2f, 0.3f}, {-4, 5, 6}}, 2, {0, 1, 1, 0}, {0.5f, 0.5f, 1, 0});
    const std::vector<Vec3> normals{{0, 1, 0}, {0.6f, 0, 0.8f}};
    std::vector<Vec3> out(2), outN(2);
    kinema::reference::skinVertices(prim, palette, prim.positions, normals, out, outN);
    EXPECT_EQ(out, prim.positions);
    EXPECT_NEAR(outN[1].x, 0.6, 1e-7);
    EXPECT_NEAR(outN[1].z, 0.8, 1e-7);
    EXPECT_EQ(outN[0], (Vec3{0, 1, 0}));
}

// ---- normals ----------------------------------------------------------------------------

TEST(SkinNormals, NonUniformScaleUsesTheInverseTransposeAndStaysPerpendicular) {
    // A tilted surface with tangents t1, t2 and normal t1 x t2, stretched 4x along y
    // and squashed along z, then rotated: the skinned normal must stay perpendicular
    // to the skinned tangents (M t), which the naive M n does not.
    const Mat4 m = trsMatrix({2, 0, -1}, kref::quatOf({1, 2, 0.5}, 0.8), {1, 4, 0.5f});
    const std::vector<Mat4> palette{m};
    const kref::D3 t1{1, 1, 0}, t2{0, 1, 1};
    const kref::D3 nd = crossd(t1, t2);
    const double nl = lengthd(nd);
    const Vec3 n{float(nd.x / nl), float(nd.y / nl), float(nd.z / nl)};
    const MeshPrimitive prim = primitive({{0, 0, 0}}, 1, {0}, {1.0f});
    std::vector<Vec3> out(1), outN(1);
    kinema::reference::skinVertices(prim, palette, prim.positions, std::vector<Vec3>{n}, out, outN);
    const kref::D3 got = d3(outN[0]);
    EXPECT_NEAR(lengthd(got), 1.0, 1e-6);
    const kref::D3 mt1 = direction(m, t1), mt2 = direction(m, t2);
    EXPECT_NEAR(dotd(got, mt1) / lengthd(mt1), 0.0, 1e-6);
    EXPECT_NEAR(dotd(got, mt2) / lengthd(mt2), 0.0, 1e-6);
    // it faces the same side as the naive M n (outward stays outward)
    EXPECT_GT(dotd(got, direction(m, d3(n))), 0.0);
    // and it is not the naive M n: that one is visibly tilted here
    const kref::D3 naive = direction(m, d3(n));
    EXPECT_GT(std::fabs(dotd(naive, mt1)) / (lengthd(naive) * lengthd(mt1)), 0.1);
}

TEST(SkinNormals, TwoInfluencesUseTheBlendedMatrix) {
    // Half a y-stretch and half the identity blend to diag(1, 2.5, 1): the normal of
    // the plane spanned by (1, 1, 0) and (0, 0, 1) goes from (1, -1, 0) / sqrt 2 to
    // the perpendicular of (1, 2.5, 0), i.e. (2.5, -1, 0) / |.|.
    const std::vector<Mat4> palette{trsMatrix({}, {}, {1, 4, 1}), Mat4{}};
    const MeshPrimitive prim = primitive({{0, 0, 0}}, 2, {0, 1}, {0.5f, 0.5f});
    const float h = std::sqrt(0.5f);
    std::vector<Vec3> out(1), outN(1);
    kinema::reference::skinVertices(prim, palette, prim.positions, std::vector<Vec3>{{h, -h, 0}}, out, outN);
    const double l = std::sqrt(2.5 * 2.5 + 1.0);
    EXPECT_NEAR(outN[0].x, 2.5 / l, 1e-6);
    EXPECT_NEAR(outN[0].y, -1.0 / l, 1e-6);
    EXPECT_NEAR(outN[0].z, 0.0, 1e-6);
}

// Points on a unit sphere around the origin, normals = positions (outward).
std::vector<Vec3> spherePoints(std::mt19937& rng, int count) {
    std::vector<Vec3> out;
    for (int i = 0; i < count; ++i) {
        const kref::D3 v = kref::randomUnitVector(rng);
        out.push_back({float(v.x), float(v.y), float(v.z)});
    }
    return out;
}

TEST(SkinNormals, MirroredPaletteKeepsNormalsOutward) {
    // A sphere mirrored in x (scale -2, 2, 2), rotated and moved: it is still a sphere
    // around the moved centre and its normals must still point away from the centre.
    std::mt19937 rng(702);
    const Vec3 centre{1, -2, 0.5f};
    const Mat4 m = trsMatrix(centre, kref::quatOf({0.3, 1, -0.2}, 2.1), {-2, 2, 2});
    const std::vector<Mat4> palette{m};
    const std::vector<Vec3> points = spherePoints(rng, 200);
    MeshPrimitive prim =
        primitive(points, 1, std::vector<std::uint16_t>(points.size(), 0), std::vector<float>(points.size(), 1.0f));
    std::vector<Vec3> out(points.size()), outN(points.size());
    kinema::reference::skinVertices(prim, palette, prim.positions, points, out, outN);
    for (std::size_t v = 0; v < points.size(); ++v) {
        const kref::D3 radial = d3(out[v] - centre);
        const double r = lengthd(radial);
        EXPECT_NEAR(r, 2.0, 1e-5);
        EXPECT_NEAR(outN[v].x, radial.x / r, 1e-5) << "vertex " << v;
        EXPECT_NEAR(outN[v].y, radial.y / r, 1e-5) << "vertex " << v;
        EXPECT_NEAR(outN[v].z, radial.z / r, 1e-5) << "vertex " << v;
    }
}

TEST(SkinNormals, MirroredNonUniformPaletteKeepsNormalsOutward) {
    // A mirrored ellipsoid (scale -1, 3, 0.5): convex, so an outward normal has a
    // positive dot product with the vector from the centre to the surface point.
    std::mt19937 rng(703);
    const Mat4 m = trsMatrix({0, 1, 0}, kref::quatOf({1, 0, 1}, -0.6), {-1, 3, 0.5f});
    const std::vector<Mat4> palette{m};
    const std::vector<Vec3> points = spherePoints(rng, 200);
    MeshPrimitive prim =
        primitive(points, 1, std::vector<std::uint16_t>(points.size(), 0), std::vector<float>(points.size(), 1.0f));
    std::vector<Vec3> out(points.size()), outN(points.size());
    kinema::reference::skinVertices(prim, palette, prim.positions, points, out, outN);
    for (std::size_t v = 0; v < points.size(); ++v) {
        EXPECT_GT(kinema::dot(outN[v], out[v] - Vec3{0, 1, 0}), 0.0f) << "vertex " << v;
        EXPECT_NEAR(kinema::length(outN[v]), 1.0, 1e-6);
    }
}

// ---- morph targets ----------------------------------------------------------------------

MeshPrimitive morphTriangle() {
    MeshPrimitive p;
    p.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    p.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    p.targets.resize(3);
    p.targets[0].positions = {{0, 0, 1}, {0, 0, 2}, {0, 0, 4}};
    p.targets[0].normals = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    p.targets[1].positions = {{1, 1, 1}, {-1, 0, 0}, {0.5f, 0.5f, 0.5f}};  // no normal displacements
    p.targets[2].positions = {{8, 8, 8}, {8, 8, 8}, {8, 8, 8}};
    p.targets[2].normals = {{8, 8, 8}, {8, 8, 8}, {8, 8, 8}};
    return p;
}

TEST(MorphTargets, PositionsAreBasePlusWeightedDisplacementsByHand) {
    const MeshPrimitive p = morphTriangle();
    const std::vector<float> w{0.5f, -0.25f, 0.0f};
    std::vector<Vec3> pos(3), nrm(3);
    kinema::applyMorphTargets(p, w, pos, nrm);
    // v0: (0,0,0) + 0.5 (0,0,1) - 0.25 (1,1,1)     = (-0.25, -0.25, 0.25)
    // v1: (1,0,0) + 0.5 (0,0,2) - 0.25 (-1,0,0)    = (1.25, 0, 1)
    // v2: (0,1,0) + 0.5 (0,0,4) - 0.25 (.5,.5,.5)  = (-0.125, 0.875, 1.875)
    EXPECT_EQ(pos[0], (Vec3{-0.25f, -0.25f, 0.25f}));
    EXPECT_EQ(pos[1], (Vec3{1.25f, 0, 1}));
    EXPECT_EQ(pos[2], (Vec3{-0.125f, 0.875f, 1.875f}));
}

TEST(MorphTargets, NormalsAreDisplacedAndNotRenormalised) {
    const MeshPrimitive p = morphTriangle();
    const std::vector<float> w{0.5f, -0.25f, 0.0f};
    std::vector<Vec3> pos(3), nrm(3);
    kinema::applyMorphTargets(p, w, pos, nrm);
    // target 1 has no normal displacements; target 2 has weight 0
    EXPECT_EQ(nrm[0], (Vec3{0.5f, 0, 1}));
    EXPECT_EQ(nrm[1], (Vec3{0, 0.5f, 1}));
    EXPECT_EQ(nrm[2], (Vec3{0, 0, 1.5f}));
}

TEST(MorphTargets, RandomWeightsMatchTheSumInDouble) {
    std::mt19937 rng(704);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    MeshPrimitive p;
    const int vertices = 50, targets = 4;
    for (int v = 0; v < vertices; ++v) p.positions.push_back({u(rng), u(rng), u(rng)});
    p.targets.resize(targets);
    for (auto& t : p.targets)
        for (int v = 0; v < vertices; ++v) t.positions.push_back({u(rng), u(rng), u(rng)});
    const std::vector<float> w{u(rng), u(rng), u(rng), u(rng)};
    std::vector<Vec3> pos(vertices);
    kinema::applyMorphTargets(p, w, pos, {});
    for (std::size_t v = 0; v < static_cast<std::size_t>(vertices); ++v) {
        kref::D3 want = d3(p.positions[v]);
        for (std::size_t t = 0; t < static_cast<std::size_t>(targets); ++t) {
            want.x += double(w[t]) * p.targets[t].positions[v].x;
            want.y += double(w[t]) * p.targets[t].positions[v].y;
            want.z += double(w[t]) * p.targets[t].positions[v].z;
        }
        EXPECT_NEAR(pos[v].x, want.x, 1e-6);
        EXPECT_NEAR(pos[v].y, want.y, 1e-6);
        EXPECT_NEAR(pos[v].z, want.z, 1e-6);
    }
}

TEST(MorphTargets, ZeroWeightsGiveTheBaseMesh) {
    const MeshPrimitive p = morphTriangle();
    std::vector<Vec3> pos(3), nrm(3);
    kinema::applyMorphTargets(p, std::vector<float>{0, 0, 0}, pos, nrm);
    EXPECT_EQ(pos, p.positions);
    EXPECT_EQ(nrm, p.normals);
}

TEST(MorphTargets, EmptyNormalOutputIsLeftAlone) {
    const MeshPrimitive p = morphTriangle();
    std::vector<Vec3> pos(3);
    kinema::applyMorphTargets(p, std::vector<float>{1, 0, 0}, pos, {});
    EXPECT_EQ(pos[2], (Vec3{0, 1, 4}));
}

TEST(MorphThenSkin, DisplacementsApplyBeforeSkinning) {
    // glTF: morph in the mesh's space, then skin. Morph (0, 0, 0) by 1 * (1, 0, 0),
    // then a palette that scales x by 3 and moves by (0, 5, 0): (3, 5, 0).
    MeshPrimitive p = primitive({{0, 0, 0}}, 1, {0}, {1.0f});
    p.targets.resize(1);
    p.targets[0].positions = {{1, 0, 0}};
    std::vector<Vec3> morphed(1), skinned(1);
    kinema::applyMorphTargets(p, std::vector<float>{1.0f}, morphed, {});
    const std::vector<Mat4> palette{trsMatrix({0, 5, 0}, {}, {3, 1, 1})};
    kinema::reference::skinVertices(p, palette, morphed, {}, skinned, {});
    EXPECT_EQ(skinned[0], (Vec3{3, 5, 0}));
}

}  // namespace
