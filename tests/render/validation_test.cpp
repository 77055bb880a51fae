// findRenderFaults on a small catalogue built in code: a valid baseline, then one
// broken rule per test, each expecting the location (and, where the numbers matter,
// the words) worked out by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kinema/render/validation.hpp"

namespace {

using namespace kinema;
using Wheres = std::vector<std::string>;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// A skinned, morphed, coloured, textured triangle of three vertices.
RenderMesh triangle() {
    RenderMesh m;
    m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    m.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    m.texcoords = {{0, 0}, {1, 0}, {0, 1}};
    m.colors = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}};
    m.influencesPerVertex = 2;
    m.joints = {0, 1, 0, 1, 1, 0};
    m.weights = {0.5f, 0.5f, 1.0f, 0.0f, 0.75f, 0.25f};
    m.indices = {0, 1, 2};
    m.targets.resize(2);
    m.targets[0].positions = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    m.targets[1].normals = {{1, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    return m;
}

// Every kind of entry, each valid; entries are replaced one at a time by the tests.
struct Parts {
    std::vector<ImageRGBA8> images;
    std::vector<TextureDesc> textures;
    std::vector<MaterialDesc> materials;
    std::vector<RenderMesh> meshes;
    std::vector<RenderObjectDesc> objects;
};

Parts validParts() {
    Parts p;
    p.images.push_back({2, 1, std::vector<std::uint8_t>(8, 200)});  // 2 x 1 x 4 bytes
    p.images.push_back({1, 1, {0, 0, 0, 255}});
    p.textures.push_back({ImageId{0}});
    p.textures.push_back({ImageId{1}, TextureFilter::Nearest, TextureFilter::Nearest, TextureWrap::ClampToEdge,
                          TextureWrap::MirroredRepeat});
    MaterialDesc masked;
    masked.baseColorFactor = {0.5f, 0.25f, 1.0f, 1.0f};
    masked.baseColorTexture = TextureId{0};
    masked.alphaMode = AlphaMode::Mask;
    masked.alphaCutoff = 0.25f;
    masked.doubleSided = true;
    p.materials.push_back(masked);
    p.materials.push_back(MaterialDesc{});
    p.meshes.push_back(triangle());
    p.objects.push_back({MeshId{0}, MaterialId{0}});
    p.objects.push_back({MeshId{0}, MaterialId{1}});
    return p;
}

RenderCatalogue catalogueOf(const Parts& p) {
    RenderCatalogue c;
    for (const auto& image : p.images) c.addImage(image);
    for (const auto& texture : p.textures) c.addTexture(texture);
    for (const auto& material : p.materials) c.addMaterial(material);
    for (const auto& mesh : p.meshes) c.addMesh(mesh);
    for (const auto& object : p.objects) c.addRenderObject(object);
    return c;
}

std::vector<Fault> faultsOf(const Parts& p) { return findRenderFaults(catalogueOf(p)); }

Wheres wheres(const Parts& p) {
    Wheres w;
    for (const Fault& f : faultsOf(p)) {
        w.push_back(f.where);
        EXPECT_FALSE(f.what.empty()) << f.where;
    }
    return w;
}

// The one fault's text, or a note when there is not exactly one.
std::string onlyWhat(const Parts& p) {
    const auto faults = faultsOf(p);
    if (faults.size() != 1) return std::to_string(faults.size()) + " faults: " + describe(faults);
    return faults[0].what;
}

TEST(RenderFaults, ValidCatalogueHasNoFaults) { EXPECT_EQ(wheres(validParts()), Wheres{}); }

TEST(RenderFaults, EmptyCatalogueHasNoFaults) { EXPECT_TRUE(findRenderFaults(RenderCatalogue{}).empty()); }

// Images.

TEST(RenderFaults, ImageOfZeroWidth) {
    Parts p = validParts();
    p.images[1] = {0, 4, {}};
    EXPECT_EQ(wheres(p), Wheres{"images/1"});
    EXPECT_EQ(onlyWhat(p), "extent 0 x 4 has no pixels: width and height must be at least 1");
}

TEST(RenderFaults, ImageOfZeroHeight) {
    Parts p = validParts();
    p.images[0] = {3, 0, {}};
    EXPECT_EQ(wheres(p), Wheres{"images/0"});
}

TEST(RenderFaults, ImagePixelsShorterThanTheExtent) {
    Parts p = validParts();
    p.images[0].pixels.pop_back();  // 7 bytes for 2 x 1 x 4 = 8
    EXPECT_EQ(wheres(p), Wheres{"images/0/pixels"});
    EXPECT_EQ(onlyWhat(p), "holds 7 bytes; 2 x 1 RGBA8 pixels need 8");
}

TEST(RenderFaults, ImagePixelsLongerThanTheExtent) {
    Parts p = validParts();
    p.images[1].pixels.push_back(0);  // 5 bytes for 1 x 1 x 4 = 4
    EXPECT_EQ(wheres(p), Wheres{"images/1/pixels"});
    EXPECT_EQ(onlyWhat(p), "holds 5 bytes; 1 x 1 RGBA8 pixels need 4");
}

// 65536 x 65536 x 4 = 2^34 bytes: 0 in 32-bit arithmetic, so an empty pixel vector
// would pass a check made in 32 bits.
TEST(RenderFaults, ExtentWhoseByteCountWrapsIn32BitsIsCountedExactly) {
    Parts p = validParts();
    p.images[0] = {0x10000, 0x10000, {}};
    EXPECT_EQ(wheres(p), Wheres{"images/0/pixels"});
    EXPECT_EQ(onlyWhat(p), "holds 0 bytes; 65536 x 65536 RGBA8 pixels need 17179869184");
}

// 2^31 x 2^31 x 4 = 2^64 bytes: 0 in 64-bit arithmetic, so an empty pixel vector
// would pass a check that multiplied first and compared after.
TEST(RenderFaults, ExtentWhoseByteCountOverflowsASizeIsAFault) {
    Parts p = validParts();
    p.images[1] = {0x80000000u, 0x80000000u, {}};
    EXPECT_EQ(wheres(p), Wheres{"images/1"});
    EXPECT_EQ(onlyWhat(p),
              "extent 2147483648 x 2147483648 needs 4611686018427387904 pixels of 4 bytes, more bytes "
              "than a size_t can count");
}

TEST(RenderFaults, LargestExtentIsAFaultNotAWrap) {
    Parts p = validParts();
    p.images[1] = {0xFFFFFFFFu, 0xFFFFFFFFu, {}};
    EXPECT_EQ(wheres(p), Wheres{"images/1"});
}

// An image no texture uses is still checked: it is a fault the moment it is added.
TEST(RenderFaults, UnusedMalformedImageIsAFault) {
    Parts p = validParts();
    p.images.push_back({2, 2, std::vector<std::uint8_t>(12, 0)});  // 2 x 2 x 4 = 16 bytes expected
    EXPECT_EQ(wheres(p), Wheres{"images/2/pixels"});
    EXPECT_EQ(onlyWhat(p), "holds 12 bytes; 2 x 2 RGBA8 pixels need 16");
}

// Textures.

TEST(RenderFaults, TextureWithoutAnImage) {
    Parts p = validParts();
    p.textures[1].image = ImageId{};
    EXPECT_EQ(wheres(p), Wheres{"textures/1/image"});
    EXPECT_EQ(onlyWhat(p), "no image assigned");
}

TEST(RenderFaults, TextureImageOutOfRange) {
    Parts p = validParts();
    p.textures[0].image = ImageId{2};  // images 0 and 1 exist
    EXPECT_EQ(wheres(p), Wheres{"textures/0/image"});
    EXPECT_EQ(onlyWhat(p), "image 2 is out of range: the catalogue has 2 images");
}

TEST(RenderFaults, TextureFiltersAndWrapsMustBeNamedValues) {
    Parts p = validParts();
    p.textures[0].magFilter = static_cast<TextureFilter>(2);
    p.textures[1].wrapU = static_cast<TextureWrap>(3);
    EXPECT_EQ(wheres(p), (Wheres{"textures/0/magFilter", "textures/1/wrapU"}));
}

// Materials.

TEST(RenderFaults, BaseColorFactorNotFinite) {
    Parts p = validParts();
    p.materials[1].baseColorFactor[1] = kNaN;
    p.materials[1].baseColorFactor[3] = -kInf;
    EXPECT_EQ(wheres(p), (Wheres{"materials/1/baseColorFactor/1", "materials/1/baseColorFactor/3"}));
}

TEST(RenderFaults, BaseColorTextureWithoutAnId) {
    Parts p = validParts();
    p.materials[1].baseColorTexture = TextureId{};
    EXPECT_EQ(wheres(p), Wheres{"materials/1/baseColorTexture"});
    EXPECT_EQ(onlyWhat(p), "no texture assigned");
}

TEST(RenderFaults, BaseColorTextureOutOfRange) {
    Parts p = validParts();
    p.materials[0].baseColorTexture = TextureId{5};
    EXPECT_EQ(wheres(p), Wheres{"materials/0/baseColorTexture"});
    EXPECT_EQ(onlyWhat(p), "texture 5 is out of range: the catalogue has 2 textures");
}

TEST(RenderFaults, AlphaModeMustBeANamedValue) {
    Parts p = validParts();
    p.materials[0].alphaMode = static_cast<AlphaMode>(3);
    EXPECT_EQ(wheres(p), Wheres{"materials/0/alphaMode"});
}

TEST(RenderFaults, AlphaCutoffNegative) {
    Parts p = validParts();
    p.materials[0].alphaCutoff = -0.5f;
    EXPECT_EQ(wheres(p), Wheres{"materials/0/alphaCutoff"});
    EXPECT_EQ(onlyWhat(p), "-0.5 is negative");
}

TEST(RenderFaults, AlphaCutoffNotFinite) {
    Parts p = validParts();
    p.materials[1].alphaCutoff = kInf;
    EXPECT_EQ(wheres(p), Wheres{"materials/1/alphaCutoff"});
}

TEST(RenderFaults, AlphaCutoffOfZeroIsAccepted) {
    Parts p = validParts();
    p.materials[0].alphaCutoff = 0.0f;
    EXPECT_EQ(wheres(p), Wheres{});
}

// Meshes.

TEST(RenderFaults, MeshWithoutVertices) {
    Parts p = validParts();
    RenderMesh empty;
    empty.indices = {0, 1, 2};
    p.meshes[0] = empty;
    // No vertex at all, so index 0 is already out of range (and the two after it).
    EXPECT_EQ(wheres(p), (Wheres{"meshes/0/positions", "meshes/0/indices/0"}));
}

TEST(RenderFaults, MeshWithoutIndices) {
    Parts p = validParts();
    p.meshes[0].indices.clear();
    EXPECT_EQ(wheres(p), Wheres{"meshes/0/indices"});
}

TEST(RenderFaults, IndicesThatAreNotWholeTriangles) {
    Parts p = validParts();
    p.meshes[0].indices = {0, 1, 2, 0};
    EXPECT_EQ(wheres(p), Wheres{"meshes/0/indices"});
    EXPECT_EQ(onlyWhat(p), "4 indices are not whole triangles (a multiple of 3)");
}

TEST(RenderFaults, IndexNotBelowTheVertexCount) {
    Parts p = validParts();
    // Three vertices: entries 4 (value 3) and 6 (value 5) are out of range.
    p.meshes[0].indices = {0, 1, 2, 0, 3, 1, 5, 0, 2};
    EXPECT_EQ(wheres(p), Wheres{"meshes/0/indices/4"});
    EXPECT_EQ(onlyWhat(p), "index 3 is not below the vertex count 3; 1 more index is out of range too");
}

TEST(RenderFaults, NormalsNotOnePerVertex) {
    Parts p = validParts();
    p.meshes[0].normals.pop_back();
    EXPECT_EQ(wheres(p), Wheres{"meshes/0/normals"});
    EXPECT_EQ(onlyWhat(p), "holds 2 entries; normals are either absent or one per vertex (3 vertices)");
}

TEST(RenderFaults, TexcoordsNotOnePerVertex) {
    Parts p = validParts();
    p.meshes[0].texcoords.push_back({0, 0});
    EXPECT_EQ(wheres(p), Wheres{"meshes/0/texcoords"});
}

TEST(RenderFaults, ColorsNotOnePerVertex) {
    Parts p = validParts();
    p.meshes[0].colors.resize(1);
    EXPECT_EQ(wheres(p), Wheres{"meshes/0/colors"});
}

TEST(RenderFaults, OptionalStreamsMayBeAbsent) {
    Parts p = validParts();
    RenderMesh& m = p.meshes[0];
    m.normals.clear();
    m.texcoords.clear();
    m.colors.clear();
    m.influencesPerVertex = 0;
    m.joints.clear();
    m.weights.clear();
    m.targets.clear();
    EXPECT_EQ(wheres(p), Wheres{});
}

TEST(RenderFaults, InfluencesNotVerticesTimesInfluencesPerVertex) {
    Parts p = validParts();
    p.meshes[0].joints.pop_back();        // 5 of 3 x 2 = 6
    p.meshes[0].weights.push_back(0.0f);  // 7 of 6
    EXPECT_EQ(wheres(p), (Wheres{"meshes/0/joints", "meshes/0/weights"}));
    const auto faults = faultsOf(p);
    EXPECT_EQ(faults[0].what, "holds 5 entries; expected 6 (3 vertices x 2 influences)");
    EXPECT_EQ(faults[1].what, "holds 7 entries; expected 6 (3 vertices x 2 influences)");
}

TEST(RenderFaults, InfluencesWithoutInfluencesPerVertex) {
    Parts p = validParts();
    p.meshes[0].influencesPerVertex = 0;
    EXPECT_EQ(wheres(p), (Wheres{"meshes/0/joints", "meshes/0/weights"}));
}

TEST(RenderFaults, PositionNotFinite) {
    Parts p = validParts();
    p.meshes[0].positions[1].y = kNaN;
    EXPECT_EQ(wheres(p), Wheres{"meshes/0/positions/1"});
    EXPECT_EQ(onlyWhat(p), "position 1 is (1, nan, 0), which is not finite");
}

TEST(RenderFaults, ManyNonFiniteValuesAreReportedOnceWithTheirCount) {
    Parts p = validParts();
    p.meshes[0].positions[0].x = kInf;
    p.meshes[0].positions[2].z = kNaN;
    EXPECT_EQ(wheres(p), Wheres{"meshes/0/positions/0"});
    EXPECT_EQ(onlyWhat(p), "position 0 is (inf, 0, 0), which is not finite; 1 more is not finite either");
}

TEST(RenderFaults, NormalNotFinite) {
    Parts p = validParts();
    p.meshes[0].normals[2].z = -kInf;
    EXPECT_EQ(wheres(p), Wheres{"meshes/0/normals/2"});
}

TEST(RenderFaults, TexcoordNotFinite) {
    Parts p = validParts();
    p.meshes[0].texcoords[0][1] = kNaN;
    EXPECT_EQ(wheres(p), Wheres{"meshes/0/texcoords/0"});
}

TEST(RenderFaults, ColorNotFinite) {
    Parts p = validParts();
    p.meshes[0].colors[1][3] = kInf;
    EXPECT_EQ(wheres(p), Wheres{"meshes/0/colors/1"});
}

TEST(RenderFaults, WeightNotFinite) {
    Parts p = validParts();
    p.meshes[0].weights[5] = kNaN;
    EXPECT_EQ(wheres(p), Wheres{"meshes/0/weights/5"});
    EXPECT_EQ(onlyWhat(p), "weight 5 is nan, which is not finite");
}

TEST(RenderFaults, MorphTargetStreamNotOnePerVertex) {
    Parts p = validParts();
    p.meshes[0].targets[0].positions.pop_back();
    p.meshes[0].targets[1].normals.push_back({});
    EXPECT_EQ(wheres(p), (Wheres{"meshes/0/targets/0/positions", "meshes/0/targets/1/normals"}));
}

TEST(RenderFaults, MorphDisplacementNotFinite) {
    Parts p = validParts();
    p.meshes[0].targets[1].normals[2].x = kNaN;
    EXPECT_EQ(wheres(p), Wheres{"meshes/0/targets/1/normals/2"});
}

TEST(RenderFaults, UnusedMalformedMeshIsAFault) {
    Parts p = validParts();
    RenderMesh loose = triangle();
    loose.indices = {0, 1};
    p.meshes.push_back(loose);  // no render object draws mesh 1
    EXPECT_EQ(wheres(p), Wheres{"meshes/1/indices"});
}

// Render objects.

TEST(RenderFaults, RenderObjectWithoutAMesh) {
    Parts p = validParts();
    p.objects[1].mesh = MeshId{};
    EXPECT_EQ(wheres(p), Wheres{"renderObjects/1/mesh"});
    EXPECT_EQ(onlyWhat(p), "no mesh assigned");
}

TEST(RenderFaults, RenderObjectMeshOutOfRange) {
    Parts p = validParts();
    p.objects[0].mesh = MeshId{1};
    EXPECT_EQ(wheres(p), Wheres{"renderObjects/0/mesh"});
    EXPECT_EQ(onlyWhat(p), "mesh 1 is out of range: the catalogue has 1 mesh");
}

TEST(RenderFaults, RenderObjectMaterialOutOfRange) {
    Parts p = validParts();
    p.objects[0].material = MaterialId{2};
    EXPECT_EQ(wheres(p), Wheres{"renderObjects/0/material"});
    EXPECT_EQ(onlyWhat(p), "material 2 is out of range: the catalogue has 2 materials");
}

TEST(RenderFaults, RenderObjectWithoutAMaterial) {
    Parts p = validParts();
    p.objects[0].material = MaterialId{};
    EXPECT_EQ(wheres(p), Wheres{"renderObjects/0/material"});
}

// Every fault is reported, kinds in dependency order (images first).
TEST(RenderFaults, EveryFaultIsListedInKindOrder) {
    Parts p = validParts();
    p.objects[1].material = MaterialId{9};
    p.meshes[0].indices.push_back(0);
    p.materials[0].alphaCutoff = -1.0f;
    p.textures[0].image = ImageId{};
    p.images[1].pixels.clear();
    EXPECT_EQ(wheres(p),
              (Wheres{"images/1/pixels", "textures/0/image", "materials/0/alphaCutoff", "meshes/0/indices",
                      "renderObjects/1/material"}));
}

}  // namespace
