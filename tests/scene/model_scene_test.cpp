// Imported models as scenes. The oracle is the runtime's skeleton path, which
// evaluates the same file another way: the whole clip sampled into a pose, composed
// parent by parent (reference::sample, localToModel, skinPalette). The scene
// instead advances one binding per property and resolves its own node tree.
#include "kinema/scene/model_scene.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "kinema/io/gltf.hpp"
#include "kinema/render/preparation.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/sample.hpp"
#include "support/assets.hpp"
#include "support/gltf_writer.hpp"
#include "support/png_writer.hpp"

namespace kinema {
namespace {

Model load(const std::filesystem::path& file) {
    ImportOptions options;
    auto model = importGltfFile(file, options);
    EXPECT_TRUE(model.ok()) << model.message();
    return std::move(model).value();
}

float largestDifference(const Mat4& a, const Mat4& b) {
    float d = 0.0f;
    for (std::size_t e = 0; e < 16; ++e)
        d = std::max(d, std::fabs(a.m[e] - b.m[e]) / std::max(1.0f, std::fabs(b.m[e])));
    return d;
}

// The skeleton path's model matrices and weights of clip `clip` at `time`.
struct ReferencePose {
    std::vector<Mat4> model;
    std::vector<float> weights;
};
ReferencePose referencePose(const Model& m, std::size_t clip, double time) {
    std::vector<Transform> local(m.skeleton.restPose().begin(), m.skeleton.restPose().end());
    ReferencePose r{std::vector<Mat4>(local.size()), m.restWeights};
    EXPECT_TRUE(reference::sample(m.clips[clip], time, local, r.weights));
    EXPECT_TRUE(reference::localToModel(m.skeleton.parents(), local, r.model));
    return r;
}

// Every node and every draw of the scene against the skeleton path, at times
// inside, on and past the keys of the first clip (played looping from 0).
void expectSceneFollowsTheSkeletonPath(const std::string& relative) {
    KINEMA_REQUIRE_ASSET(file, relative);
    const Model m = load(file);
    auto built = buildModelScene(m);
    ASSERT_TRUE(built.ok()) << built.message();
    ModelScene& ms = *built;
    ASSERT_FALSE(m.clips.empty());
    const double duration = m.clips[0].duration();
    double played = 0.0;
    for (const double step : {0.0, 0.37 * duration, 0.21 * duration, 0.5 * duration, 0.61 * duration}) {
        ASSERT_TRUE(ms.scene.advance(step).ok());
        played += step;
        ms.scene.updateWorldTransforms();
        const double clipTime = duration > 0.0 ? std::fmod(played, duration) : 0.0;
        const ReferencePose ref = referencePose(m, 0, clipTime);
        for (std::size_t j = 0; j < m.skeleton.jointCount(); ++j) {
            const NodeId node = ms.nodeOfJoint[j];
            if (!node.valid()) continue;
            EXPECT_LT(largestDifference(ms.scene.world(node), ref.model[j]), 2e-5f)
                << relative << " joint " << j << " at " << clipTime << " s";
        }
        DrawList list;
        ms.scene.fillDrawList(list);
        for (const DrawItem& item : list.items) {
            const NodeId owner = ms.scene.parent(item.node);
            const auto joint = static_cast<std::size_t>(std::find(ms.nodeOfJoint.begin(), ms.nodeOfJoint.end(), owner) -
                                                        ms.nodeOfJoint.begin());
            ASSERT_LT(joint, m.skeleton.jointCount());
            const auto mi = std::find_if(m.meshInstances.begin(), m.meshInstances.end(),
                                         [&](const MeshInstance& x) { return x.joint == joint; });
            ASSERT_NE(mi, m.meshInstances.end());
            if (mi->skin >= 0) {
                const Skin& skin = m.skins[static_cast<std::size_t>(mi->skin)];
                std::vector<Mat4> palette(skin.joints.size());
                ASSERT_TRUE(reference::skinPalette(skin, ref.model, palette));
                ASSERT_EQ(item.paletteCount, palette.size());
                for (std::size_t k = 0; k < palette.size(); ++k) {
                    EXPECT_LT(largestDifference(list.palettes[item.paletteOffset + k], palette[k]), 2e-5f)
                        << relative << " skin joint " << k;
                }
            } else {
                EXPECT_LT(largestDifference(item.world, ref.model[joint]), 2e-5f) << relative;
            }
            if (item.weightCount > 0) {
                for (std::uint32_t w = 0; w < item.weightCount; ++w) {
                    const auto at = static_cast<std::size_t>(m.weightOffsetOfJoint[joint]) + w;
                    EXPECT_NEAR(list.weights[item.weightOffset + w], ref.weights[at], 1e-6f) << relative;
                }
            }
        }
    }
}

TEST(ModelScene, RigidNodeAnimationFollowsTheSkeletonPath) {
    expectSceneFollowsTheSkeletonPath("AnimatedCube/AnimatedCube.gltf");
    expectSceneFollowsTheSkeletonPath("BoxAnimated/BoxAnimated.glb");
    expectSceneFollowsTheSkeletonPath("InterpolationTest/InterpolationTest.glb");
}

TEST(ModelScene, SkinnedMeshesFollowTheSkeletonPath) {
    expectSceneFollowsTheSkeletonPath("CesiumMan/CesiumMan.glb");
    expectSceneFollowsTheSkeletonPath("RiggedFigure/RiggedFigure.glb");
    expectSceneFollowsTheSkeletonPath("SimpleSkin/SimpleSkin.gltf");
}

TEST(ModelScene, MorphWeightsFollowTheSkeletonPath) {
    expectSceneFollowsTheSkeletonPath("AnimatedMorphCube/AnimatedMorphCube.glb");
    expectSceneFollowsTheSkeletonPath("SimpleMorph/SimpleMorph.gltf");
}

TEST(ModelScene, EveryPrimitiveIsARenderableChildWithItsOwnRenderObject) {
    KINEMA_REQUIRE_ASSET(file, "BoxAnimated/BoxAnimated.glb");
    const Model m = load(file);
    auto built = buildModelScene(m);
    ASSERT_TRUE(built.ok()) << built.message();
    std::size_t primitives = 0;
    for (const MeshInstance& mi : m.meshInstances) primitives += m.meshes[mi.mesh].primitives.size();
    DrawList list;
    built->scene.fillDrawList(list);
    EXPECT_EQ(list.items.size(), primitives);
    for (const DrawItem& item : list.items) {
        EXPECT_TRUE(std::holds_alternative<RenderableRole>(built->scene.role(item.node)));
        EXPECT_TRUE(built->catalogue.contains(item.object));
    }
}

TEST(ModelScene, AnUnknownAnimationNameListsTheNames) {
    KINEMA_REQUIRE_ASSET(file, "InterpolationTest/InterpolationTest.glb");
    const Model m = load(file);
    ModelSceneOptions options;
    options.animation = "Nope";
    auto built = buildModelScene(m, options);
    ASSERT_FALSE(built.ok());
    EXPECT_NE(built.message().find("no animation is named 'Nope'"), std::string::npos) << built.message();
    EXPECT_NE(built.message().find(std::string(m.clips[1].name())), std::string::npos) << built.message();
    options.animation = std::string(m.clips[2].name());
    auto chosen = buildModelScene(m, options);
    ASSERT_TRUE(chosen.ok()) << chosen.message();
    EXPECT_EQ(chosen->boundAnimation, AnimationId{2});
    options.scene = 9;
    EXPECT_FALSE(buildModelScene(m, options).ok());
    // An index below -1 (the "by name" value) is no animation either.
    options.scene = -1;
    options.animationIndex = -7;
    auto negative = buildModelScene(m, options);
    ASSERT_FALSE(negative.ok());
    EXPECT_NE(negative.message().find("animation -7 is out of range"), std::string::npos) << negative.message();
}

// Three meshes skinned by one glTF skin: one scene skin, one palette written once,
// three draws reading it.
TEST(ModelScene, MeshesSharingOneSkinShareOnePalette) {
    Model m;
    std::vector<JointDesc> joints(2);
    joints[0].name = "root";
    joints[1].name = "tip";
    joints[1].parent = 0;
    joints[1].rest.translation = {0.0f, 1.0f, 0.0f};
    auto skeleton = Skeleton::create(joints);
    ASSERT_TRUE(skeleton.ok()) << skeleton.message();
    m.skeleton = std::move(*skeleton);
    m.nodeOfJoint = {0, 1};
    m.jointOfNode = {0, 1};
    m.weightOffsetOfJoint = {-1, -1};
    Skin skin;
    skin.joints = {0, 1};
    Mat4 inverseBind;
    inverseBind.m[13] = -1.0f;
    skin.inverseBindMatrices = {Mat4::identity(), inverseBind};
    m.skins.push_back(skin);
    Mesh mesh;
    MeshPrimitive p;
    p.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    p.influencesPerVertex = 4;
    p.joints = {0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    p.weights = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    mesh.primitives.push_back(p);
    m.meshes = {mesh, mesh, mesh};
    for (std::uint32_t i = 0; i < 3; ++i) m.meshInstances.push_back({0, i, 0, 0});
    auto built = buildModelScene(m);
    ASSERT_TRUE(built.ok()) << built.message();
    EXPECT_EQ(built->scene.skins().size(), 1u);
    DrawList list;
    built->scene.fillDrawList(list);
    ASSERT_EQ(list.items.size(), 3u);
    EXPECT_EQ(list.palettes.size(), 2u);
    for (const DrawItem& item : list.items) {
        EXPECT_EQ(item.paletteOffset, 0u);
        EXPECT_EQ(item.paletteCount, 2u);
    }
    // The tip's palette entry: world (translation 0, 1, 0) x inverse bind (0, -1, 0) = identity.
    EXPECT_LT(largestDifference(list.palettes[1], Mat4::identity()), 1e-6f);
}

// Animation changes world matrices, never the render plan: the same catalogue
// revision and the same drawn objects keep the plan's generation, frame after frame.
TEST(ModelScene, AnimatedFramesKeepTheRenderPlanWhileWorldMatricesChange) {
    KINEMA_REQUIRE_ASSET(file, "AnimatedCube/AnimatedCube.gltf");
    const Model m = load(file);
    auto built = buildModelScene(m);
    ASSERT_TRUE(built.ok()) << built.message();
    ModelScene& ms = *built;
    RenderPreparation preparation;
    DrawList list;
    std::vector<RenderObjectId> drawn;
    auto frame = [&](double elapsed) {
        EXPECT_TRUE(ms.scene.advance(elapsed).ok());
        ms.scene.updateWorldTransforms();
        ms.scene.fillDrawList(list);
        drawn.clear();
        for (const DrawItem& item : list.items) drawn.push_back(item.object);
        return preparation.prepare(ms.catalogue, drawn).ok();
    };
    ASSERT_TRUE(frame(0.0));
    ASSERT_EQ(preparation.generation(), 1u);
    ASSERT_FALSE(list.items.empty());
    const Mat4 first = list.items[0].world;
    ASSERT_TRUE(frame(0.4));
    ASSERT_TRUE(frame(0.4));
    EXPECT_EQ(preparation.generation(), 1u);
    EXPECT_GT(largestDifference(list.items[0].world, first), 1e-3f);  // the cube turned
    // An image nothing draws is still a new catalogue revision: the plan is rebuilt.
    static_cast<void>(ms.catalogue.addImage(ImageRGBA8{1, 1, {255, 255, 255, 255}}));
    ASSERT_TRUE(frame(0.1));
    EXPECT_EQ(preparation.generation(), 2u);
}

// Strips and fans become triangle lists with glTF's winding (strip triangle i is
// {i, i+1, i+2}, flipped to {i+1, i, i+2} for odd i; fan triangle i is {i+1, i+2, 0});
// lines and points are left out with a warning.
TEST(ModelScene, StripsAndFansBecomeTriangleListsAndLinesAreLeftOut) {
    Model m;
    auto skeleton = Skeleton::create({{"root", kNoParent, {}}});
    ASSERT_TRUE(skeleton.ok());
    m.skeleton = std::move(*skeleton);
    m.nodeOfJoint = {0};
    m.jointOfNode = {0};
    m.weightOffsetOfJoint = {-1};
    Mesh mesh;
    MeshPrimitive strip;
    strip.mode = PrimitiveMode::TriangleStrip;
    strip.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {2, 1, 0}};
    MeshPrimitive fan = strip;
    fan.mode = PrimitiveMode::TriangleFan;
    fan.indices = {4, 3, 2, 1};
    MeshPrimitive lines = strip;
    lines.mode = PrimitiveMode::Lines;
    mesh.primitives = {strip, fan, lines};
    m.meshes = {mesh};
    m.meshInstances.push_back({0, 0, -1, 0});
    auto built = buildModelScene(m);
    ASSERT_TRUE(built.ok()) << built.message();
    ASSERT_EQ(built->catalogue.meshes().size(), 2u);
    const std::vector<std::uint32_t> stripList{0, 1, 2, 2, 1, 3, 2, 3, 4};
    const std::vector<std::uint32_t> fanList{3, 2, 4, 2, 1, 4};
    EXPECT_EQ(built->catalogue.meshes()[0].indices, stripList);
    EXPECT_EQ(built->catalogue.meshes()[1].indices, fanList);
    ASSERT_EQ(built.warnings().size(), 1u);
    EXPECT_NE(built.warnings()[0].what.find("line"), std::string::npos);
}

// The catalogue carries what the import read for rendering: the texture's sampler
// (LINEAR_MIPMAP_NEAREST draws with its base filter, LINEAR), the material's alpha mode,
// cutoff and sidedness, and the primitive's vertex colours; the camera node is listed.
TEST(ModelScene, TheCatalogueCarriesTheImportedSamplerAlphaColoursAndCameras) {
    test::GltfWriter w;
    const std::uint32_t positions = w.addFloats("VEC3", {0, 0, 0, 1, 0, 0, 0, 1, 0});
    const std::uint32_t uvs = w.addFloats("VEC2", {0, 0, 1, 0, 0, 1});
    const std::uint32_t colors = w.addAccessor({.componentType = test::kUnsignedByte,
                                                .type = "VEC4",
                                                .values = {255, 0, 0, 255, 0, 255, 0, 51, 0, 0, 255, 0},
                                                .normalized = true});
    w.addMesh({{.attributes = {{"POSITION", positions}, {"TEXCOORD_0", uvs}, {"COLOR_0", colors}}}});
    const std::uint32_t body = w.addNode({.name = "body", .mesh = 0});
    const std::uint32_t eye = w.addNode({.name = "eye", .translation = std::array<double, 3>{0, 0, 5}});
    w.addScene({body, eye});
    // A 1x1 RGBA PNG: one scanline, filter byte 0, then the pixel.
    const test::Bytes pngFile = test::png(1, 1, 6, test::zlibStored({0, 255, 255, 255, 255}));
    std::vector<std::byte> pngBytes(pngFile.size());
    std::transform(pngFile.begin(), pngFile.end(), pngBytes.begin(), [](std::uint8_t b) { return std::byte{b}; });
    test::Json& doc = w.json();
    test::Json image = test::Json::object();
    image["bufferView"] = w.addBufferView(pngBytes);
    image["mimeType"] = "image/png";
    doc["images"].push(std::move(image));
    test::Json sampler = test::Json::object();
    sampler["magFilter"] = 9728u;
    sampler["minFilter"] = 9985u;
    sampler["wrapS"] = 33071u;
    sampler["wrapT"] = 33648u;
    doc["samplers"].push(std::move(sampler));
    test::Json texture = test::Json::object();
    texture["sampler"] = 0u;
    texture["source"] = 0u;
    doc["textures"].push(std::move(texture));
    test::Json material = test::Json::object();
    material["alphaMode"] = "MASK";
    material["alphaCutoff"] = 0.25;
    material["doubleSided"] = true;
    material["pbrMetallicRoughness"]["baseColorTexture"]["index"] = 0u;
    doc["materials"].push(std::move(material));
    doc["meshes"][0]["primitives"][0]["material"] = 0u;
    test::Json camera = test::Json::object();
    camera["type"] = "perspective";
    camera["perspective"]["yfov"] = 0.75;
    camera["perspective"]["znear"] = 0.5;
    doc["cameras"].push(std::move(camera));
    doc["nodes"][eye]["camera"] = 0u;

    ImportOptions options;
    options.decodeImages = true;
    auto model = importGltf(w.glbSource("render.glb"), options);
    ASSERT_TRUE(model.ok()) << model.message();
    auto built = buildModelScene(*model);
    ASSERT_TRUE(built.ok()) << built.message();
    const RenderCatalogue& catalogue = built->catalogue;

    ASSERT_EQ(catalogue.textures().size(), 1u);
    const TextureDesc& t = catalogue.textures()[0];
    EXPECT_EQ(t.magFilter, TextureFilter::Nearest);
    EXPECT_EQ(t.minFilter, TextureFilter::Linear);
    EXPECT_EQ(t.wrapU, TextureWrap::ClampToEdge);
    EXPECT_EQ(t.wrapV, TextureWrap::MirroredRepeat);

    ASSERT_EQ(catalogue.materials().size(), 1u);
    const MaterialDesc& m = catalogue.materials()[0];
    EXPECT_EQ(m.alphaMode, AlphaMode::Mask);
    EXPECT_EQ(m.alphaCutoff, 0.25f);
    EXPECT_TRUE(m.doubleSided);
    ASSERT_TRUE(m.baseColorTexture.has_value());

    ASSERT_EQ(catalogue.meshes().size(), 1u);
    const std::vector<std::array<float, 4>> expected{{1, 0, 0, 1}, {0, 1, 0, 0.2f}, {0, 0, 1, 0}};
    EXPECT_EQ(catalogue.meshes()[0].colors, expected);

    ASSERT_EQ(built->cameras.size(), 1u);
    const SceneCamera& c = built->cameras[0];
    EXPECT_EQ(c.node, built->nodeOfJoint[model->jointOfNode[eye]]);
    EXPECT_EQ(built->scene.name(c.node), "eye");
    EXPECT_EQ(c.modelCamera, 0u);
    EXPECT_EQ(c.camera.projection, CameraProjection::Perspective);
    EXPECT_EQ(c.camera.yfov, 0.75f);
    EXPECT_EQ(c.camera.znear, 0.5f);
    EXPECT_FALSE(c.camera.zfar.has_value());
    EXPECT_EQ(built->scene.world(c.node).m[14], 5.0f);  // the node's translation
}

}  // namespace
}  // namespace kinema
