// What a renderer needs beyond the animated data: texture samplers, material alpha
// modes and sidedness, vertex colours (COLOR_0) and cameras. Each fixture is a small
// glTF built in code; expected values are written by hand from the glTF 2.0
// specification, and refusals are checked at their JSON pointers in strict and
// lenient mode (an unknown sampler or alpha code is only a warning for the Khronos
// validator, so lenient import keeps the default; everything else stays a fault).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "io_fixtures.hpp"
#include "kinema/io/gltf.hpp"
#include "support/assets.hpp"

namespace kinema::test {
namespace {

constexpr const char* kName = "t.gltf";

// One triangle (accessor 0: POSITION) on node 0, in scene 0.
GltfWriter triangle() {
    GltfWriter w;
    const std::uint32_t positions = w.addFloats("VEC3", {0, 0, 0, 1, 0, 0, 0, 1, 0});
    w.addMesh({{.attributes = {{"POSITION", positions}}}});
    w.addNode({.name = "tri", .mesh = 0});
    w.addScene({0});
    return w;
}

ImportOptions lenientOptions() {
    ImportOptions options;
    options.conformance = Conformance::Lenient;
    return options;
}

Result<Model> importStrict(const GltfWriter& w) { return importGltf(w.gltfSource(kName)); }
Result<Model> importLenient(const GltfWriter& w) { return importGltf(w.gltfSource(kName), lenientOptions()); }

std::string at(const std::string& pointer) { return std::string(kName).append("#").append(pointer); }

// Imported, with a warning located exactly at `where`.
::testing::AssertionResult warnedAt(const Result<Model>& r, const std::string& where) {
    if (!r.ok()) return ::testing::AssertionFailure() << "import failed:" << faultList(r);
    for (const Fault& f : r.warnings()) {
        if (f.where == where) return ::testing::AssertionSuccess();
    }
    auto failure = ::testing::AssertionFailure() << "no warning at " << where << "; warnings:";
    for (const Fault& f : r.warnings()) failure << "\n    " << f.where << ": " << f.what;
    return failure;
}

// ---- samplers ------------------------------------------------------------------

// One texture (no image needed) using sampler 0, given as JSON members.
GltfWriter withSampler(Json sampler) {
    GltfWriter w = triangle();
    w.json()["samplers"].push(std::move(sampler));
    Json texture = Json::object();
    texture["sampler"] = 0u;
    w.json()["textures"].push(std::move(texture));
    return w;
}

TEST(GltfSamplers, ATextureWithoutSamplerUsesTheGltfDefaults) {
    GltfWriter w = triangle();
    w.json()["textures"].push(Json::object());
    const auto r = importStrict(w);
    ASSERT_TRUE(imported(r));
    ASSERT_EQ(r->textures.size(), 1u);
    const Texture& t = r->textures[0];
    EXPECT_EQ(t.sampler, -1);
    EXPECT_EQ(t.image, -1);
    EXPECT_EQ(t.magFilter, SamplerFilter::Linear);
    EXPECT_EQ(t.minFilter, SamplerFilter::Linear);
    EXPECT_EQ(t.mipmapFilter, SamplerMipmap::None);
    EXPECT_EQ(t.wrapS, SamplerWrap::Repeat);
    EXPECT_EQ(t.wrapT, SamplerWrap::Repeat);
}

TEST(GltfSamplers, AnEmptySamplerUsesTheGltfDefaults) {
    const auto r = importStrict(withSampler(Json::object()));
    ASSERT_TRUE(imported(r));
    const Texture& t = r->textures[0];
    EXPECT_EQ(t.sampler, 0);
    EXPECT_EQ(t.magFilter, SamplerFilter::Linear);
    EXPECT_EQ(t.minFilter, SamplerFilter::Linear);
    EXPECT_EQ(t.mipmapFilter, SamplerMipmap::None);
    EXPECT_EQ(t.wrapS, SamplerWrap::Repeat);
    EXPECT_EQ(t.wrapT, SamplerWrap::Repeat);
}

TEST(GltfSamplers, EveryMagnificationFilter) {
    for (const auto& [code, filter] :
         {std::pair{9728u, SamplerFilter::Nearest}, std::pair{9729u, SamplerFilter::Linear}}) {
        SCOPED_TRACE(code);
        Json s = Json::object();
        s["magFilter"] = code;
        const auto r = importStrict(withSampler(std::move(s)));
        ASSERT_TRUE(imported(r));
        EXPECT_EQ(r->textures[0].magFilter, filter);
        EXPECT_EQ(r->textures[0].minFilter, SamplerFilter::Linear);
    }
}

TEST(GltfSamplers, EveryMinificationFilterGivesItsBaseAndMipmapFilter) {
    struct Row {
        unsigned code;
        SamplerFilter base;
        SamplerMipmap mipmap;
    };
    const Row rows[] = {
        {9728, SamplerFilter::Nearest, SamplerMipmap::None},     // NEAREST
        {9729, SamplerFilter::Linear, SamplerMipmap::None},      // LINEAR
        {9984, SamplerFilter::Nearest, SamplerMipmap::Nearest},  // NEAREST_MIPMAP_NEAREST
        {9985, SamplerFilter::Linear, SamplerMipmap::Nearest},   // LINEAR_MIPMAP_NEAREST
        {9986, SamplerFilter::Nearest, SamplerMipmap::Linear},   // NEAREST_MIPMAP_LINEAR
        {9987, SamplerFilter::Linear, SamplerMipmap::Linear},    // LINEAR_MIPMAP_LINEAR
    };
    for (const Row& row : rows) {
        SCOPED_TRACE(row.code);
        Json s = Json::object();
        s["minFilter"] = row.code;
        const auto r = importStrict(withSampler(std::move(s)));
        ASSERT_TRUE(imported(r));
        EXPECT_EQ(r->textures[0].minFilter, row.base);
        EXPECT_EQ(r->textures[0].mipmapFilter, row.mipmap);
        EXPECT_EQ(r->textures[0].magFilter, SamplerFilter::Linear);
    }
}

TEST(GltfSamplers, EveryWrapModeOnEachAxis) {
    struct Row {
        unsigned code;
        SamplerWrap wrap;
    };
    const Row rows[] = {
        {33071, SamplerWrap::ClampToEdge}, {33648, SamplerWrap::MirroredRepeat}, {10497, SamplerWrap::Repeat}};
    for (const Row& row : rows) {
        SCOPED_TRACE(row.code);
        Json onS = Json::object();
        onS["wrapS"] = row.code;
        const auto s = importStrict(withSampler(std::move(onS)));
        ASSERT_TRUE(imported(s));
        EXPECT_EQ(s->textures[0].wrapS, row.wrap);
        EXPECT_EQ(s->textures[0].wrapT, SamplerWrap::Repeat);
        Json onT = Json::object();
        onT["wrapT"] = row.code;
        const auto t = importStrict(withSampler(std::move(onT)));
        ASSERT_TRUE(imported(t));
        EXPECT_EQ(t->textures[0].wrapS, SamplerWrap::Repeat);
        EXPECT_EQ(t->textures[0].wrapT, row.wrap);
    }
}

TEST(GltfSamplers, SeveralTexturesShareOneSampler) {
    Json s = Json::object();
    s["magFilter"] = 9728u;
    s["wrapT"] = 33071u;
    GltfWriter w = withSampler(std::move(s));
    w.json()["samplers"].push(Json::object());
    Json second = Json::object();
    second["sampler"] = 1u;
    w.json()["textures"].push(std::move(second));
    Json third = Json::object();
    third["sampler"] = 0u;
    w.json()["textures"].push(std::move(third));
    const auto r = importStrict(w);
    ASSERT_TRUE(imported(r));
    ASSERT_EQ(r->textures.size(), 3u);
    EXPECT_EQ(r->textures[1].sampler, 1);
    EXPECT_EQ(r->textures[1].magFilter, SamplerFilter::Linear);
    EXPECT_EQ(r->textures[2].sampler, 0);
    EXPECT_EQ(r->textures[2].magFilter, SamplerFilter::Nearest);
    EXPECT_EQ(r->textures[2].wrapT, SamplerWrap::ClampToEdge);
}

// Codes outside glTF's lists: a warning for the Khronos validator, so both modes
// import the file, keep glTF's defaults and warn at each code.
TEST(GltfSamplers, UnknownCodesKeepTheDefaultsWithAWarningInBothModes) {
    Json s = Json::object();
    s["magFilter"] = 9984u;  // a minification filter
    s["minFilter"] = 1234u;
    s["wrapS"] = 1u;
    s["wrapT"] = 9729u;  // a filter
    const GltfWriter w = withSampler(std::move(s));
    for (const auto& r : {importStrict(w), importLenient(w)}) {
        ASSERT_TRUE(imported(r));
        for (const char* key : {"magFilter", "minFilter", "wrapS", "wrapT"}) {
            EXPECT_TRUE(warnedAt(r, at(std::string("/samplers/0/").append(key))));
        }
        const Texture& t = r->textures[0];
        EXPECT_EQ(t.magFilter, SamplerFilter::Linear);
        EXPECT_EQ(t.minFilter, SamplerFilter::Linear);
        EXPECT_EQ(t.mipmapFilter, SamplerMipmap::None);
        EXPECT_EQ(t.wrapS, SamplerWrap::Repeat);
        EXPECT_EQ(t.wrapT, SamplerWrap::Repeat);
    }
}

// Not an integer at all: a schema error for the validator, a fault in both modes.
TEST(GltfSamplers, CodesThatAreNotIntegersAreFaultsInBothModes) {
    Json s = Json::object();
    s["magFilter"] = "LINEAR";
    s["minFilter"] = -1;
    s["wrapS"] = 10497.5;
    s["wrapT"] = Json::object();
    const GltfWriter w = withSampler(std::move(s));
    for (const auto& r : {importStrict(w), importLenient(w)}) {
        for (const char* key : {"magFilter", "minFilter", "wrapS", "wrapT"}) {
            EXPECT_TRUE(faultAt(r, at(std::string("/samplers/0/").append(key))));
        }
    }
}

TEST(GltfSamplers, ATextureSamplerOutOfRangeIsAFault) {
    GltfWriter w = withSampler(Json::object());
    w.json()["textures"][0]["sampler"] = 1u;
    EXPECT_TRUE(faultAt(importStrict(w), at("/textures/0/sampler")));
    EXPECT_TRUE(faultAt(importLenient(w), at("/textures/0/sampler")));
    GltfWriter none = triangle();
    Json texture = Json::object();
    texture["sampler"] = 0u;
    none.json()["textures"].push(std::move(texture));
    EXPECT_TRUE(faultAt(importStrict(none), at("/textures/0/sampler")));
}

TEST(GltfSamplers, ASamplerThatIsNotAnObjectIsAFault) {
    GltfWriter w = withSampler(Json::object());
    w.json()["samplers"][0] = 7;
    EXPECT_TRUE(faultAt(importStrict(w), at("/samplers/0")));
}

// ---- materials -----------------------------------------------------------------

GltfWriter withMaterial(Json material) {
    GltfWriter w = triangle();
    w.json()["materials"].push(std::move(material));
    w.json()["meshes"][0]["primitives"][0]["material"] = 0u;
    return w;
}

TEST(GltfMaterials, DefaultsAreOpaqueCutoffHalfAndSingleSided) {
    const auto r = importStrict(withMaterial(Json::object()));
    ASSERT_TRUE(imported(r));
    const Material& m = r->materials[0];
    EXPECT_EQ(m.alphaMode, MaterialAlpha::Opaque);
    EXPECT_EQ(m.alphaCutoff, 0.5f);
    EXPECT_FALSE(m.doubleSided);
}

TEST(GltfMaterials, EveryAlphaModeAndDoubleSided) {
    struct Row {
        const char* mode;
        MaterialAlpha alpha;
    };
    for (const Row& row :
         {Row{"OPAQUE", MaterialAlpha::Opaque}, Row{"MASK", MaterialAlpha::Mask}, Row{"BLEND", MaterialAlpha::Blend}}) {
        SCOPED_TRACE(row.mode);
        Json m = Json::object();
        m["alphaMode"] = row.mode;
        m["doubleSided"] = true;
        const auto r = importStrict(withMaterial(std::move(m)));
        ASSERT_TRUE(imported(r));
        EXPECT_EQ(r->materials[0].alphaMode, row.alpha);
        EXPECT_TRUE(r->materials[0].doubleSided);
        EXPECT_EQ(r->materials[0].alphaCutoff, 0.5f);
    }
    Json single = Json::object();
    single["doubleSided"] = false;
    const auto r = importStrict(withMaterial(std::move(single)));
    ASSERT_TRUE(imported(r));
    EXPECT_FALSE(r->materials[0].doubleSided);
}

// The cutoff is read as written: 0 and values above 1 are valid glTF, and a
// cutoff on a material that is not MASK is kept (glTF ignores it there).
TEST(GltfMaterials, AlphaCutoffIsKeptAsWritten) {
    for (const auto& [mode, cutoff] :
         {std::pair{"MASK", 0.25}, std::pair{"MASK", 0.0}, std::pair{"MASK", 2.0}, std::pair{"BLEND", 0.75}}) {
        SCOPED_TRACE(std::string(mode) + " " + std::to_string(cutoff));
        Json m = Json::object();
        m["alphaMode"] = mode;
        m["alphaCutoff"] = cutoff;
        const auto r = importStrict(withMaterial(std::move(m)));
        ASSERT_TRUE(imported(r));
        EXPECT_EQ(r->materials[0].alphaCutoff, static_cast<float>(cutoff));
        EXPECT_TRUE(r.warnings().empty());
    }
    Json noMode = Json::object();
    noMode["alphaCutoff"] = 0.3;
    const auto r = importStrict(withMaterial(std::move(noMode)));
    ASSERT_TRUE(imported(r));
    EXPECT_EQ(r->materials[0].alphaMode, MaterialAlpha::Opaque);
    EXPECT_EQ(r->materials[0].alphaCutoff, 0.3f);
}

// An unknown alpha mode string: a warning for the Khronos validator; both modes draw
// the material opaque and warn.
TEST(GltfMaterials, AnUnknownAlphaModeIsOpaqueWithAWarningInBothModes) {
    for (const char* mode : {"TRANSLUCENT", "mask", ""}) {
        SCOPED_TRACE(mode);
        Json m = Json::object();
        m["alphaMode"] = mode;
        const GltfWriter w = withMaterial(std::move(m));
        for (const auto& r : {importStrict(w), importLenient(w)}) {
            ASSERT_TRUE(imported(r));
            EXPECT_TRUE(warnedAt(r, at("/materials/0/alphaMode")));
            EXPECT_EQ(r->materials[0].alphaMode, MaterialAlpha::Opaque);
        }
    }
}

TEST(GltfMaterials, MalformedAlphaAndSidednessAreFaultsInBothModes) {
    struct Row {
        const char* key;
        Json value;
    };
    const Row rows[] = {
        {"alphaMode", Json(1)},              // not a string
        {"alphaCutoff", Json(-0.1)},         // negative
        {"alphaCutoff", Json("0.5")},        // not a number
        {"alphaCutoff", Json::raw("1e39")},  // not finite as a float
        {"doubleSided", Json("yes")},        // not a boolean
        {"doubleSided", Json(1)},
    };
    for (const Row& row : rows) {
        SCOPED_TRACE(std::string(row.key) + " = " + row.value.dump());
        Json m = Json::object();
        m["alphaMode"] = "MASK";
        m[row.key] = row.value;
        const GltfWriter w = withMaterial(std::move(m));
        EXPECT_TRUE(faultAt(importStrict(w), at(std::string("/materials/0/").append(row.key))));
        EXPECT_TRUE(faultAt(importLenient(w), at(std::string("/materials/0/").append(row.key))));
    }
}

// ---- vertex colours ------------------------------------------------------------

// The triangle with COLOR_0 = accessor `colors`.
GltfWriter withColors(const AccessorData& data) {
    GltfWriter w = triangle();
    const std::uint32_t colors = w.addAccessor(data);
    w.json()["meshes"][0]["primitives"][0]["attributes"]["COLOR_0"] = colors;
    return w;
}

void expectColor(const std::array<float, 4>& actual, const std::array<float, 4>& expected) {
    for (std::size_t c = 0; c < 4; ++c) EXPECT_FLOAT_EQ(actual[c], expected[c]) << "component " << c;
}

TEST(GltfVertexColors, FloatRgbGetsAlphaOne) {
    const auto r = importStrict(withColors({.type = "VEC3", .values = {1, 0, 0, 0, 0.5, 0, 0.25, 0.75, 1}}));
    ASSERT_TRUE(imported(r));
    const auto& colors = r->meshes[0].primitives[0].colors;
    ASSERT_EQ(colors.size(), 3u);
    expectColor(colors[0], {1, 0, 0, 1});
    expectColor(colors[1], {0, 0.5f, 0, 1});
    expectColor(colors[2], {0.25f, 0.75f, 1, 1});
}

TEST(GltfVertexColors, FloatRgbaIsKeptAsWritten) {
    const auto r = importStrict(withColors({.type = "VEC4", .values = {1, 0, 0, 0.5, 0, 1, 0, 0, 0.1, 0.2, 0.3, 1}}));
    ASSERT_TRUE(imported(r));
    const auto& colors = r->meshes[0].primitives[0].colors;
    ASSERT_EQ(colors.size(), 3u);
    expectColor(colors[0], {1, 0, 0, 0.5f});
    expectColor(colors[1], {0, 1, 0, 0});
    expectColor(colors[2], {0.1f, 0.2f, 0.3f, 1});
}

// Normalised unsigned bytes: c / 255, so 255 is exactly 1 and 51 is 0.2.
TEST(GltfVertexColors, NormalizedUnsignedBytes) {
    const auto r = importStrict(withColors({.componentType = kUnsignedByte,
                                            .type = "VEC4",
                                            .values = {255, 0, 0, 255, 0, 255, 51, 0, 0, 0, 255, 102},
                                            .normalized = true}));
    ASSERT_TRUE(imported(r));
    const auto& colors = r->meshes[0].primitives[0].colors;
    ASSERT_EQ(colors.size(), 3u);
    expectColor(colors[0], {1, 0, 0, 1});
    expectColor(colors[1], {0, 1, 0.2f, 0});
    expectColor(colors[2], {0, 0, 1, 0.4f});
    EXPECT_EQ(colors[0][0], 1.0f);  // exactly
}

// Normalised unsigned shorts: c / 65535; RGB gets alpha 1.
TEST(GltfVertexColors, NormalizedUnsignedShortsRgb) {
    const auto r = importStrict(withColors({.componentType = kUnsignedShort,
                                            .type = "VEC3",
                                            .values = {65535, 0, 0, 0, 65535, 13107, 0, 0, 65535},
                                            .normalized = true}));
    ASSERT_TRUE(imported(r));
    const auto& colors = r->meshes[0].primitives[0].colors;
    ASSERT_EQ(colors.size(), 3u);
    expectColor(colors[0], {1, 0, 0, 1});
    expectColor(colors[1], {0, 1, 0.2f, 1});  // 13107 / 65535 = 0.2
    expectColor(colors[2], {0, 0, 1, 1});
    EXPECT_EQ(colors[0][0], 1.0f);
}

TEST(GltfVertexColors, NormalizedUnsignedBytesRgbInAStridedView) {
    const auto r = importStrict(withColors({.componentType = kUnsignedByte,
                                            .type = "VEC3",
                                            .values = {255, 0, 0, 0, 255, 0, 0, 0, 255},
                                            .normalized = true,
                                            .byteStride = 4}));
    ASSERT_TRUE(imported(r));
    const auto& colors = r->meshes[0].primitives[0].colors;
    ASSERT_EQ(colors.size(), 3u);
    expectColor(colors[0], {1, 0, 0, 1});
    expectColor(colors[1], {0, 1, 0, 1});
    expectColor(colors[2], {0, 0, 1, 1});
}

TEST(GltfVertexColors, WithoutColor0TheStreamIsEmpty) {
    const auto r = importStrict(triangle());
    ASSERT_TRUE(imported(r));
    EXPECT_TRUE(r->meshes[0].primitives[0].colors.empty());
}

// An animation-only import leaves colours out, and still checks their accessor.
TEST(GltfVertexColors, NotDecodedWithoutRenderAttributesButStillChecked) {
    ImportOptions options;
    options.decodeRenderAttributes = false;
    const GltfWriter good = withColors({.type = "VEC3", .values = {1, 0, 0, 0, 1, 0, 0, 0, 1}});
    const auto r = importGltf(good.gltfSource(kName), options);
    ASSERT_TRUE(imported(r));
    EXPECT_TRUE(r->meshes[0].primitives[0].colors.empty());
    const GltfWriter signedBytes = withColors({.componentType = kByte,
                                               .type = "VEC4",
                                               .values = {127, 0, 0, 127, 0, 127, 0, 0, 0, 0, 127, 0},
                                               .normalized = true});
    EXPECT_TRUE(
        faultAt(importGltf(signedBytes.gltfSource(kName), options), at("/meshes/0/primitives/0/attributes/COLOR_0")));
    const GltfWriter shortCount = withColors({.type = "VEC3", .values = {1, 0, 0, 0, 1, 0}});
    EXPECT_TRUE(
        faultAt(importGltf(shortCount.gltfSource(kName), options), at("/meshes/0/primitives/0/attributes/COLOR_0")));
}

TEST(GltfVertexColors, WrongFormatsAreFaultsAtTheAttribute) {
    const std::vector<AccessorData> rows = {
        // signed normalised bytes and shorts
        {.componentType = kByte,
         .type = "VEC4",
         .values = {127, 0, 0, 127, 0, 127, 0, 0, 0, 0, 127, 0},
         .normalized = true},
        {.componentType = kShort, .type = "VEC3", .values = {1, 0, 0, 0, 1, 0, 0, 0, 1}, .normalized = true},
        // unsigned bytes that are not normalised
        {.componentType = kUnsignedByte, .type = "VEC4", .values = {255, 0, 0, 255, 0, 255, 0, 0, 0, 0, 255, 0}},
        // unsigned int
        {.componentType = kUnsignedInt, .type = "VEC3", .values = {1, 0, 0, 0, 1, 0, 0, 0, 1}},
        // two components, or a scalar
        {.type = "VEC2", .values = {1, 0, 0, 1, 1, 1}},
        {.type = "SCALAR", .values = {1, 0, 1}},
        // one element short of the vertex count
        {.type = "VEC4", .values = {1, 0, 0, 1, 0, 1, 0, 1}},
    };
    for (std::size_t i = 0; i < rows.size(); ++i) {
        SCOPED_TRACE(i);
        const GltfWriter w = withColors(rows[i]);
        EXPECT_TRUE(faultAt(importStrict(w), at("/meshes/0/primitives/0/attributes/COLOR_0")));
        EXPECT_TRUE(faultAt(importLenient(w), at("/meshes/0/primitives/0/attributes/COLOR_0")));
    }
    GltfWriter missing = triangle();
    missing.json()["meshes"][0]["primitives"][0]["attributes"]["COLOR_0"] = 9u;
    EXPECT_TRUE(faultAt(importStrict(missing), at("/meshes/0/primitives/0/attributes/COLOR_0")));
}

// Float colours outside 0..1: an error for the validator (ACCESSOR_NON_CLAMPED);
// lenient import clamps them.
TEST(GltfVertexColors, FloatColoursOutsideZeroToOneAreFaultsWhenStrictAndClampedWhenLenient) {
    const GltfWriter w = withColors({.type = "VEC4", .values = {2, 0, 0, 1, 0, -1, 0, 1, 0, 0, 1, 1.5}});
    const std::uint32_t colors = 1;  // after the triangle's positions
    EXPECT_TRUE(faultAt(importStrict(w), at("/accessors/" + std::to_string(colors))));
    const auto lenient = importLenient(w);
    ASSERT_TRUE(warnedAt(lenient, at("/accessors/" + std::to_string(colors))));
    const auto& c = lenient->meshes[0].primitives[0].colors;
    ASSERT_EQ(c.size(), 3u);
    expectColor(c[0], {1, 0, 0, 1});
    expectColor(c[1], {0, 0, 0, 1});
    expectColor(c[2], {0, 0, 1, 1});
}

TEST(GltfVertexColors, NonFiniteColoursAreFaultsInBothModes) {
    GltfWriter w = withColors({.type = "VEC3", .values = {1, 0, 0, 0, 1, 0, 0, 0, 1}});
    w.patchComponent(1, 4, std::numeric_limits<double>::quiet_NaN());
    EXPECT_TRUE(faultAt(importStrict(w), at("/accessors/1")));
    EXPECT_TRUE(faultAt(importLenient(w), at("/accessors/1")));
}

// glTF says to skip drawing a primitive without POSITION: COLOR_0 is checked, not decoded.
TEST(GltfVertexColors, APrimitiveWithoutPositionKeepsNoColours) {
    GltfWriter w = withColors({.type = "VEC3", .values = {1, 0, 0, 0, 1, 0, 0, 0, 1}});
    w.json()["meshes"][0]["primitives"][0]["attributes"].erase("POSITION");
    const auto r = importStrict(w);
    ASSERT_TRUE(imported(r));
    EXPECT_TRUE(r->meshes[0].primitives[0].colors.empty());
}

// ---- cameras -------------------------------------------------------------------

GltfWriter withCamera(Json camera) {
    GltfWriter w = triangle();
    w.json()["cameras"].push(std::move(camera));
    return w;
}

Json perspective(double yfov, double znear) {
    Json c = Json::object();
    c["type"] = "perspective";
    c["perspective"]["yfov"] = yfov;
    c["perspective"]["znear"] = znear;
    return c;
}

Json orthographic(double xmag, double ymag, double znear, double zfar) {
    Json c = Json::object();
    c["type"] = "orthographic";
    c["orthographic"]["xmag"] = xmag;
    c["orthographic"]["ymag"] = ymag;
    c["orthographic"]["znear"] = znear;
    c["orthographic"]["zfar"] = zfar;
    return c;
}

TEST(GltfCameras, APerspectiveCameraWithEveryMember) {
    Json c = perspective(0.8, 0.1);
    c["name"] = "eye";
    c["perspective"]["zfar"] = 100.0;
    c["perspective"]["aspectRatio"] = 1.5;
    GltfWriter w = withCamera(std::move(c));
    w.json()["nodes"][0]["camera"] = 0u;
    const auto r = importStrict(w);
    ASSERT_TRUE(imported(r));
    ASSERT_EQ(r->cameras.size(), 1u);
    const Camera& cam = r->cameras[0];
    EXPECT_EQ(cam.name, "eye");
    EXPECT_EQ(cam.projection, CameraProjection::Perspective);
    EXPECT_EQ(cam.yfov, 0.8f);
    EXPECT_EQ(cam.znear, 0.1f);
    ASSERT_TRUE(cam.zfar.has_value());
    EXPECT_EQ(*cam.zfar, 100.0f);
    ASSERT_TRUE(cam.aspectRatio.has_value());
    EXPECT_EQ(*cam.aspectRatio, 1.5f);
    ASSERT_EQ(r->cameraInstances.size(), 1u);
    EXPECT_EQ(r->cameraInstances[0].joint, r->jointOfNode[0]);
    EXPECT_EQ(r->cameraInstances[0].camera, 0u);
}

// Without zfar the projection is infinite; without aspectRatio the viewport's is used.
TEST(GltfCameras, APerspectiveCameraWithOnlyTheRequiredMembers) {
    const auto r = importStrict(withCamera(perspective(1.0, 0.01)));
    ASSERT_TRUE(imported(r));
    const Camera& cam = r->cameras[0];
    EXPECT_EQ(cam.projection, CameraProjection::Perspective);
    EXPECT_EQ(cam.yfov, 1.0f);
    EXPECT_EQ(cam.znear, 0.01f);
    EXPECT_FALSE(cam.zfar.has_value());
    EXPECT_FALSE(cam.aspectRatio.has_value());
    EXPECT_TRUE(r->cameraInstances.empty());  // no node carries it
}

TEST(GltfCameras, AnOrthographicCamera) {
    const auto r = importStrict(withCamera(orthographic(2.0, 1.0, 0.0, 10.0)));
    ASSERT_TRUE(imported(r));
    const Camera& cam = r->cameras[0];
    EXPECT_EQ(cam.projection, CameraProjection::Orthographic);
    EXPECT_EQ(cam.xmag, 2.0f);
    EXPECT_EQ(cam.ymag, 1.0f);
    EXPECT_EQ(cam.znear, 0.0f);
    ASSERT_TRUE(cam.zfar.has_value());
    EXPECT_EQ(*cam.zfar, 10.0f);
    EXPECT_FALSE(cam.aspectRatio.has_value());
}

// Only warnings for the validator: a negative magnification (a mirrored view) and a
// field of view of pi or more. Accepted as written, without warnings.
TEST(GltfCameras, ValuesTheValidatorOnlyWarnsAboutAreAccepted) {
    const auto mirrored = importStrict(withCamera(orthographic(-2.0, -1.0, 0.5, 10.0)));
    ASSERT_TRUE(imported(mirrored));
    EXPECT_EQ(mirrored->cameras[0].xmag, -2.0f);
    EXPECT_EQ(mirrored->cameras[0].ymag, -1.0f);
    EXPECT_TRUE(mirrored.warnings().empty());
    const auto wide = importStrict(withCamera(perspective(3.5, 0.1)));
    ASSERT_TRUE(imported(wide));
    EXPECT_EQ(wide->cameras[0].yfov, 3.5f);
    EXPECT_TRUE(wide.warnings().empty());
}

// Nodes carry cameras in file node order, as skeleton joints; one camera may be on
// several nodes.
TEST(GltfCameras, CameraInstancesFollowTheNodes) {
    GltfWriter w = triangle();
    w.json()["cameras"].push(perspective(0.5, 0.1));
    w.json()["cameras"].push(orthographic(1, 1, 0, 1));
    // Node 2 is node 1's parent: the skeleton puts it first, the instances keep file order.
    const std::uint32_t child = w.addNode({.name = "child"});
    const std::uint32_t parent = w.addNode({.name = "parent", .children = {child}});
    w.json()["scenes"][0]["nodes"].push(parent);
    w.json()["nodes"][child]["camera"] = 1u;
    w.json()["nodes"][parent]["camera"] = 0u;
    w.json()["nodes"][0]["camera"] = 1u;
    const auto r = importStrict(w);
    ASSERT_TRUE(imported(r));
    ASSERT_EQ(r->cameraInstances.size(), 3u);
    EXPECT_EQ(r->cameraInstances[0].joint, r->jointOfNode[0]);
    EXPECT_EQ(r->cameraInstances[0].camera, 1u);
    EXPECT_EQ(r->cameraInstances[1].joint, r->jointOfNode[child]);
    EXPECT_EQ(r->cameraInstances[1].camera, 1u);
    EXPECT_EQ(r->cameraInstances[2].joint, r->jointOfNode[parent]);
    EXPECT_EQ(r->cameraInstances[2].camera, 0u);
}

// Every refusal, at its pointer, in both modes (none has a repair).
TEST(GltfCameras, InvalidCamerasAreFaultsInBothModes) {
    struct Row {
        const char* what;
        Json camera;
        const char* pointer;
    };
    std::vector<Row> rows;
    {
        Json c = perspective(1, 1);
        c.erase("type");
        rows.push_back({"no type", c, "/cameras/0/type"});
    }
    {
        Json c = perspective(1, 1);
        c["type"] = "fisheye";
        rows.push_back({"unknown type", c, "/cameras/0/type"});
    }
    {
        Json c = perspective(1, 1);
        c["type"] = 1;
        rows.push_back({"type not a string", c, "/cameras/0/type"});
    }
    {
        Json c = perspective(1, 1);
        c["orthographic"] = orthographic(1, 1, 0, 1).at("orthographic");
        rows.push_back({"both projections", c, "/cameras/0"});
    }
    {
        Json c = Json::object();
        c["type"] = "perspective";
        rows.push_back({"no perspective", c, "/cameras/0/perspective"});
    }
    {
        Json c = perspective(1, 1);
        c["type"] = "orthographic";
        rows.push_back({"perspective members for an orthographic camera", c, "/cameras/0/orthographic"});
    }
    {
        Json c = perspective(1, 1);
        c["perspective"] = 3;
        rows.push_back({"perspective not an object", c, "/cameras/0/perspective"});
    }
    rows.push_back({"yfov 0", perspective(0, 1), "/cameras/0/perspective/yfov"});
    rows.push_back({"yfov negative", perspective(-1, 1), "/cameras/0/perspective/yfov"});
    {
        Json c = perspective(1, 1);
        c["perspective"].erase("yfov");
        rows.push_back({"no yfov", c, "/cameras/0/perspective/yfov"});
    }
    {
        Json c = perspective(1, 1);
        c["perspective"]["yfov"] = "wide";
        rows.push_back({"yfov not a number", c, "/cameras/0/perspective/yfov"});
    }
    rows.push_back({"znear 0", perspective(1, 0), "/cameras/0/perspective/znear"});
    {
        Json c = perspective(1, 1);
        c["perspective"].erase("znear");
        rows.push_back({"no znear", c, "/cameras/0/perspective/znear"});
    }
    {
        Json c = perspective(1, 1);
        c["perspective"]["zfar"] = 0.5;
        rows.push_back({"zfar below znear", c, "/cameras/0/perspective/zfar"});
    }
    {
        Json c = perspective(1, 1);
        c["perspective"]["zfar"] = 1.0;
        rows.push_back({"zfar equal to znear", c, "/cameras/0/perspective/zfar"});
    }
    {
        Json c = perspective(1, 1);
        c["perspective"]["aspectRatio"] = 0.0;
        rows.push_back({"aspectRatio 0", c, "/cameras/0/perspective/aspectRatio"});
    }
    {
        Json c = perspective(1, 1);
        c["perspective"]["zfar"] = Json::raw("1e39");
        rows.push_back({"zfar not finite", c, "/cameras/0/perspective/zfar"});
    }
    rows.push_back({"xmag 0", orthographic(0, 1, 0, 1), "/cameras/0/orthographic/xmag"});
    rows.push_back({"ymag 0", orthographic(1, 0, 0, 1), "/cameras/0/orthographic/ymag"});
    rows.push_back({"orthographic znear negative", orthographic(1, 1, -1, 1), "/cameras/0/orthographic/znear"});
    rows.push_back({"orthographic zfar 0", orthographic(1, 1, 0, 0), "/cameras/0/orthographic/zfar"});
    rows.push_back({"orthographic zfar below znear", orthographic(1, 1, 5, 4), "/cameras/0/orthographic/zfar"});
    {
        Json c = orthographic(1, 1, 0, 1);
        c["orthographic"].erase("zfar");
        rows.push_back({"orthographic without zfar", c, "/cameras/0/orthographic/zfar"});
    }
    {
        Json c = orthographic(1, 1, 0, 1);
        c["orthographic"].erase("xmag");
        rows.push_back({"orthographic without xmag", c, "/cameras/0/orthographic/xmag"});
    }
    for (const Row& row : rows) {
        SCOPED_TRACE(row.what);
        const GltfWriter w = withCamera(row.camera);
        EXPECT_TRUE(faultAt(importStrict(w), at(row.pointer)));
        EXPECT_TRUE(faultAt(importLenient(w), at(row.pointer)));
    }
}

TEST(GltfCameras, ANodeCameraOutOfRangeIsAFault) {
    GltfWriter w = withCamera(perspective(1, 1));
    w.json()["nodes"][0]["camera"] = 1u;
    EXPECT_TRUE(faultAt(importStrict(w), at("/nodes/0/camera")));
    w.json()["nodes"][0]["camera"] = -1;
    EXPECT_TRUE(faultAt(importStrict(w), at("/nodes/0/camera")));
    GltfWriter none = triangle();
    none.json()["nodes"][0]["camera"] = 0u;
    EXPECT_TRUE(faultAt(importLenient(none), at("/nodes/0/camera")));
}

TEST(GltfCameras, TheSameFileAsGlb) {
    GltfWriter w = withCamera(orthographic(3, 2, 1, 9));
    w.json()["nodes"][0]["camera"] = 0u;
    const auto r = importGltf(w.glbSource("t.glb"));
    ASSERT_TRUE(imported(r));
    ASSERT_EQ(r->cameraInstances.size(), 1u);
    EXPECT_EQ(r->cameras[0].xmag, 3.0f);
    EXPECT_EQ(*r->cameras[0].zfar, 9.0f);
}

// ---- shared sample models -------------------------------------------------------

// CesiumMan.glb: samplers[0] = {magFilter 9729, minFilter 9986, wrapS 10497, wrapT 10497},
// textures[0] = {sampler 0, source 0}; materials[0] "Cesium_Man-effect" with
// alphaMode "OPAQUE", doubleSided false, no alphaCutoff; no COLOR_0, no cameras.
TEST(GltfRenderDataSamples, CesiumManSamplerAndMaterial) {
    KINEMA_REQUIRE_ASSET(file, "CesiumMan/CesiumMan.glb");
    const auto r = importGltfFile(file);
    ASSERT_TRUE(imported(r));
    ASSERT_EQ(r->textures.size(), 1u);
    const Texture& t = r->textures[0];
    EXPECT_EQ(t.sampler, 0);
    EXPECT_EQ(t.image, 0);
    EXPECT_EQ(t.magFilter, SamplerFilter::Linear);
    EXPECT_EQ(t.minFilter, SamplerFilter::Nearest);  // NEAREST_MIPMAP_LINEAR
    EXPECT_EQ(t.mipmapFilter, SamplerMipmap::Linear);
    EXPECT_EQ(t.wrapS, SamplerWrap::Repeat);
    EXPECT_EQ(t.wrapT, SamplerWrap::Repeat);
    ASSERT_EQ(r->materials.size(), 1u);
    const Material& m = r->materials[0];
    EXPECT_EQ(m.name, "Cesium_Man-effect");
    EXPECT_EQ(m.alphaMode, MaterialAlpha::Opaque);
    EXPECT_EQ(m.alphaCutoff, 0.5f);
    EXPECT_FALSE(m.doubleSided);
    EXPECT_TRUE(r->meshes[0].primitives[0].colors.empty());
    EXPECT_TRUE(r->cameras.empty());
    EXPECT_TRUE(r->cameraInstances.empty());
}

// MorphPrimitivesTest.glb: samplers[0] = {minFilter 9729} only; two materials "red"
// and "green" without alpha or sidedness members.
TEST(GltfRenderDataSamples, MorphPrimitivesTestSamplerDefaults) {
    KINEMA_REQUIRE_ASSET(file, "MorphPrimitivesTest/MorphPrimitivesTest.glb");
    const auto r = importGltfFile(file);
    ASSERT_TRUE(imported(r));
    ASSERT_EQ(r->textures.size(), 1u);
    const Texture& t = r->textures[0];
    EXPECT_EQ(t.sampler, 0);
    EXPECT_EQ(t.minFilter, SamplerFilter::Linear);
    EXPECT_EQ(t.mipmapFilter, SamplerMipmap::None);
    EXPECT_EQ(t.magFilter, SamplerFilter::Linear);
    EXPECT_EQ(t.wrapS, SamplerWrap::Repeat);
    EXPECT_EQ(t.wrapT, SamplerWrap::Repeat);
    ASSERT_EQ(r->materials.size(), 2u);
    for (const Material& m : r->materials) {
        SCOPED_TRACE(m.name);
        EXPECT_EQ(m.alphaMode, MaterialAlpha::Opaque);
        EXPECT_EQ(m.alphaCutoff, 0.5f);
        EXPECT_FALSE(m.doubleSided);
    }
    EXPECT_EQ(r->materials[0].name, "red");
    EXPECT_EQ(r->materials[1].name, "green");
}

}  // namespace
}  // namespace kinema::test
