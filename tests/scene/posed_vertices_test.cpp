// Posed vertices of a draw list: hand-built draws whose results are worked out by
// hand (a rigid placement, a morph, a two-joint skin with a known rotation), and
// imported models against the runtime's skeleton path, which poses the same file
// another way (whole-clip sampling, composition parent by parent, skinPalette,
// applyMorphTargets and reference::skinVertices on the imported primitive).
#include "kinema/scene/posed_vertices.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "kinema/io/gltf.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/sample.hpp"
#include "kinema/runtime/skinning.hpp"
#include "kinema/scene/model_scene.hpp"
#include "support/assets.hpp"

namespace kinema {
namespace {

void expectNear(Vec3 actual, Vec3 expected, float tolerance, const char* what) {
    EXPECT_NEAR(actual.x, expected.x, tolerance) << what;
    EXPECT_NEAR(actual.y, expected.y, tolerance) << what;
    EXPECT_NEAR(actual.z, expected.z, tolerance) << what;
}

// Column-major matrices written out entry by entry.
Mat4 translation(float x, float y, float z) {
    Mat4 m;
    m.m[12] = x;
    m.m[13] = y;
    m.m[14] = z;
    return m;
}
// 90 degrees about +Z: x -> y, y -> -x.
Mat4 quarterTurnZ() {
    Mat4 m;
    m.m[0] = 0;
    m.m[1] = 1;
    m.m[4] = -1;
    m.m[5] = 0;
    return m;
}

RenderObjectId addObject(RenderCatalogue& catalogue, RenderMesh mesh) {
    const MeshId id = catalogue.addMesh(std::move(mesh));
    return catalogue.addRenderObject({id, catalogue.addMaterial({})});
}

TEST(PosedVertices, ARigidDrawIsPlacedByItsWorldMatrix) {
    RenderCatalogue catalogue;
    RenderMesh mesh;
    mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    mesh.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    mesh.indices = {0, 1, 2};
    DrawList list;
    DrawItem item;
    item.object = addObject(catalogue, mesh);
    item.world = translation(2, 3, 4) * quarterTurnZ();
    list.items.push_back(item);
    std::vector<Vec3> positions, normals;
    posedVertices(catalogue, list, item, positions, &normals);
    ASSERT_EQ(positions.size(), 3u);
    ASSERT_EQ(normals.size(), 3u);
    expectNear(positions[0], {2, 3, 4}, 1e-6f, "origin");
    expectNear(positions[1], {2, 4, 4}, 1e-6f, "+x turned to +y");
    expectNear(positions[2], {1, 3, 4}, 1e-6f, "+y turned to -x");
    for (const Vec3& n : normals) expectNear(n, {0, 0, 1}, 1e-6f, "normal about the turn's axis");

    // Without the normals pointer only positions come back.
    posedVertices(catalogue, list, item, positions);
    EXPECT_EQ(positions.size(), 3u);
}

TEST(PosedVertices, NormalsFollowTheInverseTransposeUnderNonUniformScale) {
    // Stretching x by 2 tilts the plane x + y = c towards x: its normal (1, 1, 0)
    // becomes (1 / 2, 1, 0), normalised (1, 2, 0) / sqrt(5).
    RenderCatalogue catalogue;
    RenderMesh mesh;
    mesh.positions = {{1, 0, 0}, {0, 1, 0}, {0, 1, 1}};
    const float r = 1.0f / std::sqrt(2.0f);
    mesh.normals = {{r, r, 0}, {r, r, 0}, {r, r, 0}};
    mesh.indices = {0, 1, 2};
    DrawList list;
    DrawItem item;
    item.object = addObject(catalogue, mesh);
    item.world.m[0] = 2;
    std::vector<Vec3> positions, normals;
    posedVertices(catalogue, list, item, positions, &normals);
    const float s = 1.0f / std::sqrt(5.0f);
    for (const Vec3& n : normals) expectNear(n, {s, 2 * s, 0}, 1e-6f, "stretched normal");
    expectNear(positions[0], {2, 0, 0}, 1e-6f, "stretched position");
}

TEST(PosedVertices, MorphTargetsDisplaceByTheirWeightsSlice) {
    RenderCatalogue catalogue;
    RenderMesh mesh;
    mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    mesh.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    mesh.indices = {0, 1, 2};
    MorphTarget lift;  // vertex 0 up by 1 along z, vertex 2 by 0.5 along x
    lift.positions = {{0, 0, 1}, {0, 0, 0}, {0.5f, 0, 0}};
    lift.normals = {{1, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    MorphTarget shove;  // every vertex by 10 along y
    shove.positions = {{0, 10, 0}, {0, 10, 0}, {0, 10, 0}};
    mesh.targets = {lift, shove};
    DrawList list;
    list.weights = {9, 9, 0.5f, 0.25f};  // another draw's weights come first
    DrawItem item;
    item.object = addObject(catalogue, mesh);
    item.world = translation(0, 0, -1);
    item.weightOffset = 2;
    item.weightCount = 2;
    list.items.push_back(item);
    std::vector<Vec3> positions, normals;
    posedVertices(catalogue, list, item, positions, &normals);
    ASSERT_EQ(positions.size(), 3u);
    expectNear(positions[0], {0, 2.5f, -0.5f}, 1e-6f, "v0: + 0.5 z + 2.5 y, then z - 1");
    expectNear(positions[1], {1, 2.5f, -1}, 1e-6f, "v1: + 2.5 y");
    expectNear(positions[2], {0.25f, 3.5f, -1}, 1e-6f, "v2: + 0.25 x + 2.5 y");
    // (0, 0, 1) + 0.5 (1, 0, 0), normalised.
    const float s = 1.0f / std::sqrt(1.25f);
    expectNear(normals[0], {0.5f * s, 0, s}, 1e-6f, "morphed normal");

    // A slice running past the list keeps the weights that exist.
    item.weightOffset = 3;
    posedVertices(catalogue, list, item, positions);
    expectNear(positions[0], {0, 0, -0.75f}, 1e-6f, "lift by 0.25 only");
}

// Joint 0 stays put; joint 1 turns 90 degrees about +Z around the point (1, 0, 0).
struct TwoJointSkin {
    RenderCatalogue catalogue;
    DrawList list;
    DrawItem item;

    TwoJointSkin() {
        RenderMesh mesh;
        mesh.positions = {{0, 0, 0}, {2, 0, 0}, {2, 0, 0}, {2, 0, 0}, {3, 0, 0}};
        mesh.normals = {{0, 0, 1}, {1, 0, 0}, {1, 0, 0}, {0, 0, 1}, {0, 0, 1}};
        mesh.influencesPerVertex = 2;
        mesh.joints = {0, 1, /**/ 1, 0, /**/ 0, 1, /**/ 0, 1, /**/ 7, 0};
        mesh.weights = {1, 0, /**/ 1, 0, /**/ 0.5f, 0.5f, /**/ 0, 1, /**/ 0.5f, 0.5f};
        mesh.indices = {0, 1, 2, 2, 3, 4};
        MorphTarget raise;
        raise.positions = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 1}, {0, 0, 0}};
        mesh.targets = {raise};
        item.object = catalogue.addRenderObject({catalogue.addMesh(mesh), catalogue.addMaterial({})});
        // A skinned draw's world is the identity; make it something else to show it is not used.
        item.world = translation(100, 100, 100);
        Mat4 junk = translation(-50, 0, 0);
        list.palettes = {junk, Mat4::identity(), translation(1, 0, 0) * quarterTurnZ() * translation(-1, 0, 0)};
        item.paletteOffset = 1;
        item.paletteCount = 2;
        list.weights = {1.0f};
        item.weightCount = 1;
        list.items.push_back(item);
    }
};

TEST(PosedVertices, LinearBlendSkinningWithAKnownRotation) {
    const TwoJointSkin f;
    std::vector<Vec3> positions, normals;
    posedVertices(f.catalogue, f.list, f.item, positions, &normals);
    ASSERT_EQ(positions.size(), 5u);
    expectNear(positions[0], {0, 0, 0}, 1e-6f, "joint 0 only");
    // (2, 0, 0) is 1 along +x from the pivot: turned, 1 along +y.
    expectNear(positions[1], {1, 1, 0}, 1e-6f, "joint 1 only");
    expectNear(normals[1], {0, 1, 0}, 1e-6f, "joint 1 turns the normal");
    // Half of each: (2, 0, 0) / 2 + (1, 1, 0) / 2.
    expectNear(positions[2], {1.5f, 0.5f, 0}, 1e-6f, "half and half");
    // Morphed up by 1 first, then turned by joint 1: (1, 1, 1).
    expectNear(positions[3], {1, 1, 1}, 1e-6f, "morph before skin");
    // Joint 7 is past the slice and adds nothing: half of joint 0's placement.
    expectNear(positions[4], {1.5f, 0, 0}, 1e-6f, "a joint past the palette");
}

TEST(PosedVertices, MatchesTheRuntimeReferenceOnTheSamePrimitive) {
    // The fixture as a MeshPrimitive through applyMorphTargets and
    // reference::skinVertices: the same numbers bit for bit.
    const TwoJointSkin f;
    const RenderMesh& mesh = f.catalogue.meshes()[0];
    MeshPrimitive p;
    p.positions = mesh.positions;
    p.normals = mesh.normals;
    p.influencesPerVertex = 2;
    p.joints = mesh.joints;
    p.joints[8] = 1;  // the reference trusts every joint index: keep them in range
    p.weights = mesh.weights;
    p.indices = mesh.indices;
    p.targets = mesh.targets;
    RenderCatalogue catalogue = f.catalogue;
    RenderMesh inRange = mesh;
    inRange.joints = p.joints;
    DrawItem item = f.item;
    item.object = addObject(catalogue, inRange);

    std::vector<Vec3> morphed(5), morphedNormals(5), expected(5), expectedNormals(5);
    applyMorphTargets(p, f.list.weights, morphed, morphedNormals);
    const std::span<const Mat4> palette(f.list.palettes.data() + 1, 2);
    ASSERT_TRUE(reference::skinVertices(p, palette, morphed, morphedNormals, expected, expectedNormals));
    std::vector<Vec3> positions, normals;
    posedVertices(catalogue, f.list, item, positions, &normals);
    ASSERT_EQ(positions.size(), 5u);
    for (std::size_t v = 0; v < 5; ++v) {
        EXPECT_EQ(positions[v], expected[v]) << v;
        EXPECT_EQ(normals[v], expectedNormals[v]) << v;
    }
}

TEST(PosedVertices, OutOfRangeInputsDrawLittleRatherThanReadPastTheEnd) {
    TwoJointSkin f;
    std::vector<Vec3> positions{{1, 2, 3}};
    DrawItem missing = f.item;
    missing.object = RenderObjectId{42};
    posedVertices(f.catalogue, f.list, missing, positions);
    EXPECT_TRUE(positions.empty());
    // A palette slice past the list: placed rigidly by world instead.
    DrawItem past = f.item;
    past.paletteOffset = 2;
    posedVertices(f.catalogue, f.list, past, positions);
    ASSERT_EQ(positions.size(), 5u);
    expectNear(positions[1], {102, 100, 100}, 1e-6f, "rigid fallback");
}

TEST(PosedBounds, CoversEveryIndexedVertexOfEveryDraw) {
    RenderCatalogue catalogue;
    RenderMesh mesh;
    // Vertex 3 is named by no triangle: it is not drawn and not in the bounds.
    mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {50, 50, 50}};
    mesh.indices = {0, 1, 2};
    const RenderObjectId object = addObject(catalogue, mesh);
    DrawList list;
    Vec3 lo{7, 7, 7}, hi{7, 7, 7};
    EXPECT_FALSE(posedBounds(catalogue, list, lo, hi));
    EXPECT_EQ(lo, (Vec3{7, 7, 7}));
    DrawItem a;
    a.object = object;
    a.world = translation(-2, 0, 0);
    DrawItem b;
    b.object = object;
    b.world = translation(0, 3, -1);
    list.items = {a, b};
    ASSERT_TRUE(posedBounds(catalogue, list, lo, hi));
    EXPECT_EQ(lo, (Vec3{-2, 0, -1}));
    EXPECT_EQ(hi, (Vec3{1, 4, 0}));
}

// ---- imported models against the runtime's skeleton path ----

Model load(const std::filesystem::path& file) {
    auto model = importGltfFile(file);
    EXPECT_TRUE(model.ok()) << model.message();
    return std::move(model).value();
}

// Every draw of the model's scene at `time` of its first clip against the skeleton
// path: per vertex, and the bounds of the frame. Returns the frame's bounds.
std::pair<Vec3, Vec3> expectPosedLikeTheSkeletonPath(const Model& m, double time) {
    auto built = buildModelScene(m);
    EXPECT_TRUE(built.ok()) << built.message();
    if (!built.ok()) return {};
    ModelScene& ms = *built;
    EXPECT_TRUE(ms.scene.advance(time).ok());
    ms.scene.updateWorldTransforms();
    DrawList list;
    ms.scene.fillDrawList(list);

    std::vector<Transform> local(m.skeleton.restPose().begin(), m.skeleton.restPose().end());
    std::vector<float> weights = m.restWeights;
    std::vector<Mat4> model(local.size());
    if (!m.clips.empty()) {
        EXPECT_TRUE(reference::sample(m.clips[0], time, local, weights));
    }
    EXPECT_TRUE(reference::localToModel(m.skeleton.parents(), local, model));

    Vec3 lo{std::numeric_limits<float>::max(), std::numeric_limits<float>::max(), std::numeric_limits<float>::max()};
    Vec3 hi = -lo;
    std::vector<Vec3> positions;
    std::vector<std::size_t> drawnOfNode(m.nodeCount(), 0);  // primitives of each mesh node met so far
    for (const DrawItem& item : list.items) {
        const NodeId owner = ms.scene.parent(item.node);
        const auto joint = static_cast<std::size_t>(std::find(ms.nodeOfJoint.begin(), ms.nodeOfJoint.end(), owner) -
                                                    ms.nodeOfJoint.begin());
        const auto mi = std::find_if(m.meshInstances.begin(), m.meshInstances.end(),
                                     [&](const MeshInstance& x) { return x.joint == joint; });
        EXPECT_NE(mi, m.meshInstances.end());
        if (mi == m.meshInstances.end()) continue;
        const Mesh& mesh = m.meshes[mi->mesh];
        const MeshPrimitive& p = mesh.primitives[drawnOfNode[joint]++];
        const std::size_t n = p.vertexCount();

        std::vector<Vec3> morphed(n), normals(p.normals.size()), expected(n), expectedNormals(p.normals.size());
        std::span<const float> nodeWeights;
        if (m.weightOffsetOfJoint[joint] >= 0) {
            nodeWeights = std::span<const float>(weights).subspan(
                static_cast<std::size_t>(m.weightOffsetOfJoint[joint]), mesh.targetCount);
        }
        applyMorphTargets(p, nodeWeights, morphed, normals);
        if (mi->skin >= 0) {
            const Skin& skin = m.skins[static_cast<std::size_t>(mi->skin)];
            std::vector<Mat4> palette(skin.joints.size());
            EXPECT_TRUE(reference::skinPalette(skin, model, palette));
            EXPECT_TRUE(reference::skinVertices(p, palette, morphed, {}, expected, {}));
        } else {
            for (std::size_t v = 0; v < n; ++v) expected[v] = transformPoint(model[joint], morphed[v]);
        }

        posedVertices(ms.catalogue, list, item, positions);
        EXPECT_EQ(positions.size(), n);
        if (positions.size() != n) continue;
        float worst = 0.0f;
        for (std::size_t v = 0; v < n; ++v) {
            const Vec3 d = positions[v] - expected[v];
            worst = std::max({worst, std::fabs(d.x), std::fabs(d.y), std::fabs(d.z)});
        }
        EXPECT_LT(worst, 1e-4f) << m.source << " at " << time << " s";
        const std::vector<std::uint32_t>& drawn = p.indices;  // empty: every vertex in order
        for (std::size_t i = 0; i < (drawn.empty() ? n : drawn.size()); ++i) {
            const Vec3 q = expected[drawn.empty() ? i : drawn[i]];
            lo = {std::min(lo.x, q.x), std::min(lo.y, q.y), std::min(lo.z, q.z)};
            hi = {std::max(hi.x, q.x), std::max(hi.y, q.y), std::max(hi.z, q.z)};
        }
    }
    Vec3 bmin, bmax;
    EXPECT_TRUE(posedBounds(ms.catalogue, list, bmin, bmax));
    expectNear(bmin, lo, 1e-4f, "bounds min");
    expectNear(bmax, hi, 1e-4f, "bounds max");
    return {bmin, bmax};
}

TEST(PosedVertices, CesiumManFollowsTheSkeletonPath) {
    KINEMA_REQUIRE_ASSET(file, "CesiumMan/CesiumMan.glb");
    const Model m = load(file);
    const auto [lo, hi] = expectPosedLikeTheSkeletonPath(m, 0.0);
    // The figure stands on the ground (y = 0) facing +Z, about 1.5 units tall and
    // narrower than it is tall.
    EXPECT_NEAR(lo.y, 0.0f, 0.05f);
    EXPECT_GT(hi.y, 1.3f);
    EXPECT_LT(hi.y, 1.7f);
    EXPECT_LT(hi.x - lo.x, hi.y - lo.y);
    EXPECT_LT(hi.z - lo.z, hi.y - lo.y);
    expectPosedLikeTheSkeletonPath(m, 0.37 * m.clips[0].duration());
}

TEST(PosedVertices, MorphedModelsFollowTheSkeletonPath) {
    for (const char* relative : {"AnimatedMorphCube/AnimatedMorphCube.glb", "SimpleMorph/SimpleMorph.gltf",
                                 "RiggedFigure/RiggedFigure.glb", "BoxAnimated/BoxAnimated.glb"}) {
        KINEMA_REQUIRE_ASSET(file, relative);
        const Model m = load(file);
        const double duration = m.clips.empty() ? 0.0 : m.clips[0].duration();
        for (const double t : {0.0, 0.3 * duration, 0.7 * duration}) expectPosedLikeTheSkeletonPath(m, t);
    }
}

}  // namespace
}  // namespace kinema
