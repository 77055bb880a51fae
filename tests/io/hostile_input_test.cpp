// Hostile and broken input: each row damages one thing in a valid model and
// expects the import to be rejected with a fault at the JSON pointer (or GLB
// byte offset) that names the damage. Nothing here may crash, hang or leak.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <ostream>
#include <limits>
#include <string>
#include <vector>

#include "io_fixtures.hpp"
#include "kinema/io/gltf.hpp"

namespace kinema::test {
namespace {

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// Rejected with a fault at one of `pointers` (each prefixed with "<name>#").
::testing::AssertionResult faultAtAny(const Result<Model>& r, const std::string& name,
                                      const std::vector<std::string>& pointers) {
    if (r.ok()) return ::testing::AssertionFailure() << "import succeeded; expected a fault";
    for (const Fault& f : r.faults()) {
        for (const std::string& p : pointers) {
            if (f.where == name + "#" + p) return ::testing::AssertionSuccess();
        }
    }
    auto failure = ::testing::AssertionFailure() << "no fault at";
    for (const std::string& p : pointers) failure << " " << name << "#" << p;
    return failure << "; faults:" << faultList(r);
}

// The rig's layout, relied on by the table below (checked by RigLayoutIsAsDocumented).
constexpr std::uint32_t kPositions = 0, kNormals = 1, kJoints = 2, kWeights = 3, kIndices = 4, kTarget0 = 5,
                        kTarget1 = 6, kIbm = 7, kTimes = 8, kRotations = 9, kTranslations = 10, kMorphWeights = 11;
constexpr std::uint32_t kRoot = 0, kJointA = 1, kJointB = 2, kMeshNode = 3;

TEST(Hostile, RigLayoutIsAsDocumented) {
    const Rig r = makeRig();
    EXPECT_EQ(r.positions, kPositions);
    EXPECT_EQ(r.normals, kNormals);
    EXPECT_EQ(r.joints, kJoints);
    EXPECT_EQ(r.weights, kWeights);
    EXPECT_EQ(r.indices, kIndices);
    EXPECT_EQ(r.target0, kTarget0);
    EXPECT_EQ(r.target1, kTarget1);
    EXPECT_EQ(r.ibm, kIbm);
    EXPECT_EQ(r.times, kTimes);
    EXPECT_EQ(r.rotations, kRotations);
    EXPECT_EQ(r.translations, kTranslations);
    EXPECT_EQ(r.morphWeights, kMorphWeights);
    EXPECT_EQ(r.root, kRoot);
    EXPECT_EQ(r.jointA, kJointA);
    EXPECT_EQ(r.jointB, kJointB);
    EXPECT_EQ(r.meshNode, kMeshNode);
}

TEST(Hostile, RigImportsCleanly) {
    const Rig r = makeRig();
    for (const bool glb : {false, true}) {
        const auto m = importGltf(glb ? r.w.glbSource("rig.glb") : r.w.gltfSource("rig.gltf"));
        ASSERT_TRUE(imported(m));
        EXPECT_EQ(m->nodeCount(), 4u);
        ASSERT_EQ(m->clips.size(), 1u);
        EXPECT_EQ(m->clips[0].tracks().size(), 3u);
        EXPECT_EQ(m->skins.size(), 1u);
        EXPECT_EQ(m->meshes.at(0).targetCount, 2u);
    }
}

// ---- one damaged field per row ------------------------------------------------------

struct Damage {
    std::string name;
    std::function<void(Rig&)> edit;
    std::vector<std::string> where;  // JSON pointers; a fault at any of them passes
};

void PrintTo(const Damage& d, std::ostream* os) { *os << d.name; }

Json& node(Rig& r, std::uint32_t i) { return r.w.json()["nodes"][i]; }
Json& accessor(Rig& r, std::uint32_t i) { return r.w.json()["accessors"][i]; }
Json& view(Rig& r, std::uint32_t i) { return r.w.json()["bufferViews"][i]; }
Json& prim(Rig& r) { return r.w.json()["meshes"][0]["primitives"][0]; }
Json& skin(Rig& r) { return r.w.json()["skins"][0]; }
Json& anim(Rig& r) { return r.w.json()["animations"][0]; }
Json& sampler(Rig& r, std::size_t i) { return anim(r)["samplers"][i]; }
Json& channel(Rig& r, std::size_t i) { return anim(r)["channels"][i]; }

std::vector<Damage> damages() {
    return {
        // --- asset and extensions
        {"MissingAsset", [](Rig& r) { r.w.json().erase("asset"); }, {"/asset"}},
        {"MissingAssetVersion", [](Rig& r) { r.w.json()["asset"].erase("version"); }, {"/asset/version"}},
        {"AssetVersionNotString", [](Rig& r) { r.w.json()["asset"]["version"] = 2; }, {"/asset/version"}},
        {"AssetVersion1", [](Rig& r) { r.w.json()["asset"]["version"] = "1.0"; }, {"/asset/version"}},
        {"MinVersionTooNew", [](Rig& r) { r.w.json()["asset"]["minVersion"] = "2.1"; }, {"/asset/minVersion"}},
        {"UnsupportedRequiredExtension",
         [](Rig& r) { r.w.useExtension("KHR_draco_mesh_compression", true); },
         {"/extensionsRequired/0"}},
        {"UnsupportedRequiredExtensionAfterASupportedOne",
         [](Rig& r) {
             r.w.useExtension("KHR_mesh_quantization", true);
             r.w.useExtension("EXT_meshopt_compression", true);
         },
         {"/extensionsRequired/1"}},
        {"RequiredExtensionNotString",
         [](Rig& r) { r.w.json()["extensionsRequired"].push(5); },
         {"/extensionsRequired/0"}},

        // --- buffers, views, accessors: sizes and offsets
        {"HugeAccessorCountOnTinyBuffer",
         [](Rig& r) { accessor(r, kPositions)["count"] = 4294967295u; },
         {"/accessors/0", "/accessors/0/count"}},
        {"HugeAccessorCountWithoutBufferView",
         [](Rig& r) {
             accessor(r, kPositions).erase("bufferView");
             accessor(r, kPositions)["count"] = 4294967295u;
         },
         {"/meshes/0/primitives/0/attributes/POSITION", "/accessors/0", "/accessors/0/count"}},
        {"HugeKeyCountWithoutBufferView",
         [](Rig& r) {
             accessor(r, kTimes).erase("bufferView");
             accessor(r, kTimes)["count"] = 4294967295u;
         },
         {"/animations/0/samplers/0/input", "/accessors/8", "/accessors/8/count"}},
        {"HugeMatrixCount",
         [](Rig& r) { accessor(r, kIbm)["count"] = 1152921504606846975ull; },
         {"/accessors/7", "/accessors/7/count"}},
        {"CountBeyondUint64",
         [](Rig& r) { accessor(r, kPositions)["count"] = Json::raw("1e30"); },
         {"/accessors/0/count"}},
        {"NegativeCount", [](Rig& r) { accessor(r, kPositions)["count"] = -1; }, {"/accessors/0/count"}},
        {"FractionalCount", [](Rig& r) { accessor(r, kPositions)["count"] = 1.5; }, {"/accessors/0/count"}},
        {"ZeroCount", [](Rig& r) { accessor(r, kPositions)["count"] = 0; }, {"/accessors/0", "/accessors/0/count"}},
        {"CountOneTooMany",
         [](Rig& r) { accessor(r, kPositions)["count"] = 5; },
         {"/accessors/0", "/accessors/0/count"}},
        {"ViewByteOffsetMax",
         [](Rig& r) { view(r, 0)["byteOffset"] = kU64Max; },
         {"/bufferViews/0", "/bufferViews/0/byteOffset"}},
        {"ViewByteLengthMax",
         [](Rig& r) { view(r, 0)["byteLength"] = kU64Max; },
         {"/bufferViews/0", "/bufferViews/0/byteLength"}},
        {"ViewOffsetPlusLengthWraps",
         [](Rig& r) {
             view(r, 1)["byteOffset"] = 16;
             view(r, 1)["byteLength"] = kU64Max - 7;  // 16 + length wraps to 8
         },
         {"/bufferViews/1", "/bufferViews/1/byteLength"}},
        {"ViewPastBufferEnd",
         [](Rig& r) { view(r, kMorphWeights)["byteLength"] = 17; },
         {"/bufferViews/11", "/bufferViews/11/byteLength"}},
        {"ViewZeroLength", [](Rig& r) { view(r, 0)["byteLength"] = 0; }, {"/bufferViews/0/byteLength"}},
        {"ViewStrideNotMultipleOf4", [](Rig& r) { view(r, 0)["byteStride"] = 14; }, {"/bufferViews/0/byteStride"}},
        {"ViewStrideTooLarge", [](Rig& r) { view(r, 0)["byteStride"] = 256; }, {"/bufferViews/0/byteStride"}},
        {"ViewStrideSmallerThanElement", [](Rig& r) { view(r, 0)["byteStride"] = 8; }, {"/accessors/0"}},
        {"AccessorByteOffsetMax",
         [](Rig& r) { accessor(r, kPositions)["byteOffset"] = kU64Max - 3; },
         {"/accessors/0/byteOffset"}},
        {"AccessorByteOffsetPastView",
         [](Rig& r) { accessor(r, kPositions)["byteOffset"] = 52; },
         {"/accessors/0/byteOffset"}},
        {"AccessorByteOffsetLeavesTooLittle",
         [](Rig& r) { accessor(r, kPositions)["byteOffset"] = 4; },
         {"/accessors/0"}},
        {"AccessorMisaligned", [](Rig& r) { accessor(r, kPositions)["byteOffset"] = 2; }, {"/accessors/0/byteOffset"}},
        {"BufferByteLengthMax",
         [](Rig& r) { r.w.json()["buffers"][0]["byteLength"] = kU64Max; },
         {"/buffers/0/byteLength"}},
        {"BufferByteLengthZero", [](Rig& r) { r.w.json()["buffers"][0]["byteLength"] = 0; }, {"/buffers/0/byteLength"}},
        {"BufferByteLengthMissing",
         [](Rig& r) { r.w.json()["buffers"][0].erase("byteLength"); },
         {"/buffers/0/byteLength"}},
        {"UnknownComponentType",
         [](Rig& r) { accessor(r, kIndices)["componentType"] = 5124; },
         {"/accessors/4/componentType"}},
        {"UnknownAccessorType", [](Rig& r) { accessor(r, kPositions)["type"] = "VEC5"; }, {"/accessors/0/type"}},
        {"NormalizedFloat", [](Rig& r) { accessor(r, kPositions)["normalized"] = true; }, {"/accessors/0/normalized"}},
        {"NormalizedNotBool", [](Rig& r) { accessor(r, kJoints)["normalized"] = 1; }, {"/accessors/2/normalized"}},

        // --- indices out of range
        {"NodeMeshOutOfRange", [](Rig& r) { node(r, kMeshNode)["mesh"] = 7; }, {"/nodes/3/mesh"}},
        {"NodeMeshNegative", [](Rig& r) { node(r, kMeshNode)["mesh"] = -1; }, {"/nodes/3/mesh"}},
        {"NodeSkinOutOfRange", [](Rig& r) { node(r, kMeshNode)["skin"] = 1; }, {"/nodes/3/skin"}},
        {"NodeChildOutOfRange", [](Rig& r) { node(r, kRoot)["children"][1] = 4; }, {"/nodes/0/children/1"}},
        {"NodeChildHuge", [](Rig& r) { node(r, kRoot)["children"][1] = kU64Max; }, {"/nodes/0/children/1"}},
        {"SceneNodeOutOfRange", [](Rig& r) { r.w.json()["scenes"][0]["nodes"][0] = 4; }, {"/scenes/0/nodes/0"}},
        {"SceneOutOfRange", [](Rig& r) { r.w.json()["scene"] = 1; }, {"/scene"}},
        {"SkinJointOutOfRange", [](Rig& r) { skin(r)["joints"][1] = 4; }, {"/skins/0/joints/1"}},
        {"SkinInverseBindMatricesOutOfRange",
         [](Rig& r) { skin(r)["inverseBindMatrices"] = 12; },
         {"/skins/0/inverseBindMatrices"}},
        {"SkinSkeletonOutOfRange", [](Rig& r) { skin(r)["skeleton"] = 4; }, {"/skins/0/skeleton"}},
        {"AccessorBufferViewOutOfRange",
         [](Rig& r) { accessor(r, kNormals)["bufferView"] = 99; },
         {"/accessors/1/bufferView"}},
        {"ViewBufferOutOfRange", [](Rig& r) { view(r, 1)["buffer"] = 1; }, {"/bufferViews/1/buffer"}},
        {"PositionAccessorOutOfRange",
         [](Rig& r) { prim(r)["attributes"]["POSITION"] = 12; },
         {"/meshes/0/primitives/0/attributes/POSITION"}},
        {"NormalAccessorOutOfRange",
         [](Rig& r) { prim(r)["attributes"]["NORMAL"] = 12; },
         {"/meshes/0/primitives/0/attributes/NORMAL"}},
        {"JointsAccessorOutOfRange",
         [](Rig& r) { prim(r)["attributes"]["JOINTS_0"] = 12; },
         {"/meshes/0/primitives/0/attributes/JOINTS_0"}},
        {"IndicesAccessorOutOfRange", [](Rig& r) { prim(r)["indices"] = 12; }, {"/meshes/0/primitives/0/indices"}},
        {"TargetAccessorOutOfRange",
         [](Rig& r) { prim(r)["targets"][1]["POSITION"] = 12; },
         {"/meshes/0/primitives/0/targets/1/POSITION"}},
        {"MaterialOutOfRange", [](Rig& r) { prim(r)["material"] = 0; }, {"/meshes/0/primitives/0/material"}},
        {"SamplerInputOutOfRange", [](Rig& r) { sampler(r, 0)["input"] = 12; }, {"/animations/0/samplers/0/input"}},
        {"SamplerOutputOutOfRange", [](Rig& r) { sampler(r, 1)["output"] = 12; }, {"/animations/0/samplers/1/output"}},
        {"ChannelSamplerOutOfRange",
         [](Rig& r) { channel(r, 2)["sampler"] = 3; },
         {"/animations/0/channels/2/sampler"}},
        {"AnimationWithoutChannels", [](Rig& r) { anim(r)["channels"] = Json::array(); }, {"/animations/0/channels"}},
        {"AnimationWithoutSamplers",
         [](Rig& r) {
             anim(r)["samplers"] = Json::array();
             anim(r)["channels"] = Json::array();
         },
         {"/animations/0/samplers", "/animations/0/channels"}},
        {"ChannelNodeOutOfRange",
         [](Rig& r) { channel(r, 0)["target"]["node"] = 4; },
         {"/animations/0/channels/0/target/node"}},
        {"TextureSourceOutOfRange",
         [](Rig& r) { r.w.json()["textures"].push(Json::object())["source"] = 0; },
         {"/textures/0/source"}},
        {"MaterialTextureOutOfRange",
         [](Rig& r) {
             r.w.json()["materials"].push(Json::object())["pbrMetallicRoughness"]["baseColorTexture"]["index"] = 0;
         },
         {"/materials/0/pbrMetallicRoughness/baseColorTexture/index"}},

        // --- sparse
        {"SparseIndicesViewOutOfRange",
         [](Rig& r) {
             accessor(r, kTarget1)["sparse"]["count"] = 1;
             accessor(r, kTarget1)["sparse"]["indices"]["bufferView"] = 40;
             accessor(r, kTarget1)["sparse"]["indices"]["componentType"] = kUnsignedByte;
             accessor(r, kTarget1)["sparse"]["values"]["bufferView"] = 5;
         },
         {"/accessors/6/sparse/indices/bufferView"}},
        {"SparseValuesViewOutOfRange",
         [](Rig& r) {
             accessor(r, kTarget1)["sparse"]["count"] = 1;
             accessor(r, kTarget1)["sparse"]["indices"]["bufferView"] = 4;
             accessor(r, kTarget1)["sparse"]["indices"]["componentType"] = kUnsignedShort;
             accessor(r, kTarget1)["sparse"]["values"]["bufferView"] = 40;
         },
         {"/accessors/6/sparse/values/bufferView"}},
        {"SparseIndicesByteOffsetMax",
         [](Rig& r) {
             Json& s = accessor(r, kTarget1)["sparse"];
             s["count"] = 1;
             s["indices"]["bufferView"] = 4;
             s["indices"]["byteOffset"] = kU64Max;
             s["indices"]["componentType"] = kUnsignedShort;
             s["values"]["bufferView"] = 5;
         },
         {"/accessors/6/sparse/indices/byteOffset"}},
        {"SparseValuesByteOffsetMax",
         [](Rig& r) {
             Json& s = accessor(r, kTarget1)["sparse"];
             s["count"] = 1;
             s["indices"]["bufferView"] = 4;
             s["indices"]["componentType"] = kUnsignedShort;
             s["values"]["bufferView"] = 5;
             s["values"]["byteOffset"] = kU64Max;
         },
         {"/accessors/6/sparse/values/byteOffset"}},
        {"SparseCountHuge",
         [](Rig& r) {
             Json& s = accessor(r, kTarget1)["sparse"];
             s["count"] = 4294967295u;
             s["indices"]["bufferView"] = 4;
             s["indices"]["componentType"] = kUnsignedShort;
             s["values"]["bufferView"] = 5;
         },
         {"/accessors/6", "/accessors/6/sparse/count"}},
        {"SparseIndexTypeSigned",
         [](Rig& r) {
             Json& s = accessor(r, kTarget1)["sparse"];
             s["count"] = 1;
             s["indices"]["bufferView"] = 4;
             s["indices"]["componentType"] = kShort;
             s["values"]["bufferView"] = 5;
         },
         {"/accessors/6/sparse/indices/componentType"}},
        {"SparseMissingValues",
         [](Rig& r) {
             Json& s = accessor(r, kTarget1)["sparse"];
             s["count"] = 1;
             s["indices"]["bufferView"] = 4;
             s["indices"]["componentType"] = kUnsignedShort;
         },
         {"/accessors/6/sparse/values"}},

        // --- wrong accessor for a role
        {"PositionIsVec4",
         [](Rig& r) { prim(r)["attributes"]["POSITION"] = kWeights; },
         {"/meshes/0/primitives/0/attributes/POSITION"}},
        {"NormalIsScalar",
         [](Rig& r) { prim(r)["attributes"]["NORMAL"] = kTimes; },
         {"/meshes/0/primitives/0/attributes/NORMAL"}},
        {"JointsAreFloat",
         [](Rig& r) { prim(r)["attributes"]["JOINTS_0"] = kWeights; },
         {"/meshes/0/primitives/0/attributes/JOINTS_0"}},
        {"WeightsAreUnnormalizedBytes",
         [](Rig& r) { prim(r)["attributes"]["WEIGHTS_0"] = kJoints; },
         {"/meshes/0/primitives/0/attributes/WEIGHTS_0"}},
        {"IndicesAreFloat", [](Rig& r) { prim(r)["indices"] = kTimes; }, {"/meshes/0/primitives/0/indices"}},
        {"IndicesAreVec3", [](Rig& r) { prim(r)["indices"] = kPositions; }, {"/meshes/0/primitives/0/indices"}},
        {"MorphTargetIsVec4",
         [](Rig& r) { prim(r)["targets"][0]["POSITION"] = kWeights; },
         {"/meshes/0/primitives/0/targets/0/POSITION"}},
        {"InverseBindMatricesAreVec3",
         [](Rig& r) { skin(r)["inverseBindMatrices"] = kPositions; },
         {"/skins/0/inverseBindMatrices"}},
        {"SamplerInputIsVec3",
         [](Rig& r) { sampler(r, 0)["input"] = kTranslations; },
         {"/animations/0/samplers/0/input"}},
        {"SamplerInputIsUnsignedShort",
         [](Rig& r) { sampler(r, 0)["input"] = kIndices; },
         {"/animations/0/samplers/0/input"}},
        {"RotationOutputIsVec3",
         [](Rig& r) { sampler(r, 0)["output"] = kTranslations; },
         {"/animations/0/samplers/0/output"}},
        {"TranslationOutputIsVec4",
         [](Rig& r) { sampler(r, 1)["output"] = kRotations; },
         {"/animations/0/samplers/1/output"}},
        {"WeightsOutputIsVec3",
         [](Rig& r) { sampler(r, 2)["output"] = kTranslations; },
         {"/animations/0/samplers/2/output"}},

        // --- animation keys
        {"KeyTimesNotIncreasing",
         [](Rig& r) { r.w.patchComponent(kTimes, 1, 0.0); },
         {"/animations/0/samplers/0/input"}},
        {"KeyTimeNaN", [](Rig& r) { r.w.patchComponent(kTimes, 1, kNaN); }, {"/accessors/8"}},
        {"KeyTimeInfinite",
         [](Rig& r) { r.w.patchComponent(kTimes, 1, std::numeric_limits<double>::infinity()); },
         {"/accessors/8"}},
        {"KeyTimeNegative", [](Rig& r) { r.w.patchComponent(kTimes, 0, -1.0); }, {"/animations/0/samplers/0/input"}},
        {"ZeroQuaternionKey",
         [](Rig& r) {
             for (std::size_t c = 4; c < 8; ++c) r.w.patchComponent(kRotations, c, 0.0);
         },
         {"/animations/0/channels/0", "/animations/0/samplers/0/output", "/accessors/9"}},
        {"NaNOutputValue",
         [](Rig& r) { r.w.patchComponent(kTranslations, 2, kNaN); },
         {"/animations/0/channels/1", "/animations/0/samplers/1/output", "/accessors/10"}},
        {"InputOutputCountMismatch",
         [](Rig& r) {
             sampler(r, 1)["input"] = r.w.addFloats("SCALAR", {0.0f, 1.0f, 2.0f});
         },
         {"/animations/0/samplers/1/output"}},
        {"DuplicateNodePathInOneAnimation",
         [](Rig& r) {
             Json& c = anim(r)["channels"].push(Json::object());
             c["sampler"] = 0;
             c["target"]["node"] = 1;
             c["target"]["path"] = "rotation";
         },
         {"/animations/0/channels/3"}},
        {"UnknownInterpolation",
         [](Rig& r) { sampler(r, 0)["interpolation"] = "CUBIC"; },
         {"/animations/0/samplers/0/interpolation"}},
        {"UnknownPath",
         [](Rig& r) { channel(r, 1)["target"]["path"] = "pointer"; },
         {"/animations/0/channels/1/target/path"}},
        {"ChannelWithoutTarget", [](Rig& r) { channel(r, 1).erase("target"); }, {"/animations/0/channels/1/target"}},
        {"WeightsOnNodeWithoutTargets",
         [](Rig& r) { channel(r, 2)["target"]["node"] = 1; },
         {"/animations/0/channels/2/target/node"}},
        {"AnimatedNodeHasMatrix",
         [](Rig& r) {
             node(r, kJointA).erase("translation");
             node(r, kJointA)["matrix"] =
                 Json::numbers(std::vector<double>{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1});
         },
         {"/nodes/1", "/nodes/1/matrix", "/animations/0/channels/0", "/animations/0/channels/0/target/node"}},

        // --- hierarchy
        {"NodeCycle",
         [](Rig& r) {
             r.w.addNode({.name = "a", .children = {5}});
             r.w.addNode({.name = "b", .children = {4}});
         },
         {"/nodes/4", "/nodes/5"}},
        {"NodeIsItsOwnChild", [](Rig& r) { node(r, kJointB)["children"] = Json::array({2}); }, {"/nodes/2/children/0"}},
        // Each scale finite, their product (1e60) not: the node whose composition
        // overflows first is named, not its descendants.
        {"NestedScalesOverflow",
         [](Rig& r) {
             node(r, kRoot)["scale"] = Json::array({1e30, 1e30, 1e30});
             node(r, kJointA)["scale"] = Json::array({1e30, 1e30, 1e30});
         },
         {"/nodes/1"}},
        {"NodeWithTwoParents",
         [](Rig& r) { node(r, kJointB)["children"] = Json::array({3}); },
         {"/nodes/2/children/0"}},
        {"ChildListedTwice", [](Rig& r) { node(r, kRoot)["children"].push(1); }, {"/nodes/0/children/2"}},
        {"SceneRootHasParent", [](Rig& r) { r.w.json()["scenes"][0]["nodes"][0] = 1; }, {"/scenes/0/nodes/0"}},

        // --- node properties
        {"MatrixAndTrs",
         [](Rig& r) {
             node(r, kJointB)["matrix"] =
                 Json::numbers(std::vector<double>{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
         },
         {"/nodes/2"}},
        {"MatrixLastRowNotAffine",
         [](Rig& r) {
             node(r, kRoot)["matrix"] =
                 Json::numbers(std::vector<double>{1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
         },
         {"/nodes/0/matrix"}},
        {"MatrixWrongSize",
         [](Rig& r) {
             node(r, kRoot)["matrix"] = Json::numbers(std::vector<double>{1, 0, 0});
         },
         {"/nodes/0/matrix"}},
        {"MatrixOverflowsWhenDecomposed",
         [](Rig& r) {
             node(r, kRoot)["matrix"] =
                 Json::numbers(std::vector<double>{3e38, 3e38, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
         },
         {"/nodes/0", "/nodes/0/matrix"}},
        {"TranslationOverflowsFloat",
         [](Rig& r) {
             node(r, kJointA)["translation"] = Json::numbers(std::vector<double>{1e39, 0, 0});
         },
         {"/nodes/1/translation/0"}},
        {"TranslationNotNumber",
         [](Rig& r) {
             node(r, kJointA)["translation"] = Json::array({0, "x", 0});
         },
         {"/nodes/1/translation/1"}},
        {"ZeroRotation",
         [](Rig& r) {
             node(r, kJointA)["rotation"] = Json::numbers(std::vector<double>{0, 0, 0, 0});
         },
         {"/nodes/1/rotation"}},
        {"NodeWeightsCountMismatch",
         [](Rig& r) { node(r, kMeshNode)["weights"] = Json::array({1}); },
         {"/nodes/3/weights"}},
        {"NodeWeightsWithoutMesh",
         [](Rig& r) { node(r, kJointA)["weights"] = Json::array({1}); },
         {"/nodes/1/weights"}},
        {"SkinWithoutMesh", [](Rig& r) { node(r, kJointB)["skin"] = 0; }, {"/nodes/2/skin"}},

        // --- meshes
        {"MeshWeightsCountMismatch",
         [](Rig& r) { r.w.json()["meshes"][0]["weights"] = Json::array({0}); },
         {"/meshes/0/weights"}},
        {"PrimitiveModeOutOfRange", [](Rig& r) { prim(r)["mode"] = 7; }, {"/meshes/0/primitives/0/mode"}},
        {"NoPrimitives",
         [](Rig& r) { r.w.json()["meshes"][0]["primitives"] = Json::array(); },
         {"/meshes/0/primitives"}},
        {"TargetCountDiffersBetweenPrimitives",
         [](Rig& r) {
             Json& p = r.w.json()["meshes"][0]["primitives"].push(Json::object());
             p["attributes"]["POSITION"] = kPositions;
             p["targets"].push(Json::object())["POSITION"] = kTarget0;
         },
         {"/meshes/0/primitives/1/targets"}},
        {"MorphTargetCountMismatchesVertices",
         [](Rig& r) {
             prim(r)["targets"][0]["POSITION"] = r.w.addFloats("VEC3", {1, 2, 3});
         },
         {"/meshes/0/primitives/0/targets/0/POSITION"}},
        {"NormalCountMismatchesVertices",
         [](Rig& r) {
             prim(r)["attributes"]["NORMAL"] = r.w.addFloats("VEC3", {0, 0, 1});
         },
         {"/meshes/0/primitives/0/attributes/NORMAL"}},
        {"IndexPastVertexCount", [](Rig& r) { r.w.patchComponent(kIndices, 5, 4); }, {"/accessors/4"}},
        {"NegativeSkinWeight", [](Rig& r) { r.w.patchComponent(kWeights, 1, -0.5); }, {"/accessors/3"}},
        {"NaNSkinWeight", [](Rig& r) { r.w.patchComponent(kWeights, 0, kNaN); }, {"/accessors/3"}},
        {"JointsWithoutWeights",
         [](Rig& r) { prim(r)["attributes"]["JOINTS_1"] = kJoints; },
         {"/meshes/0/primitives/0/attributes/JOINTS_1"}},
        {"WeightsWithoutJoints",
         [](Rig& r) { prim(r)["attributes"]["WEIGHTS_1"] = kWeights; },
         {"/meshes/0/primitives/0/attributes/WEIGHTS_1"}},
        {"SkinningSetGap",
         [](Rig& r) {
             prim(r)["attributes"]["JOINTS_2"] = kJoints;
             prim(r)["attributes"]["WEIGHTS_2"] = kWeights;
         },
         {"/meshes/0/primitives/0/attributes/JOINTS_2", "/meshes/0/primitives/0/attributes/WEIGHTS_2"}},
        {"JointIndexPastSkinJoints",
         [](Rig& r) { skin(r)["joints"] = Json::array({1}); },
         {"/meshes/0/primitives/0/attributes", "/meshes/0/primitives/0/attributes/JOINTS_0", "/nodes/3/skin"}},
        {"SkinnedMeshWithoutJoints",
         [](Rig& r) {
             prim(r)["attributes"].erase("JOINTS_0");
             prim(r)["attributes"].erase("WEIGHTS_0");
         },
         {"/meshes/0/primitives/0/attributes", "/nodes/3/skin"}},

        // --- skins
        {"SkinJointsWithoutCommonRoot",
         [](Rig& r) {
             r.w.addNode({.name = "elsewhere"});
             skin(r)["joints"] = Json::array({2, 4});
         },
         {"/skins/0/joints"}},
        {"SkinSkeletonNotAnAncestor", [](Rig& r) { skin(r)["skeleton"] = 3; }, {"/skins/0/skeleton"}},
        {"SkinJointListedTwice",
         [](Rig& r) {
             skin(r)["joints"] = Json::array({1, 1});
         },
         {"/skins/0/joints/1"}},
        {"SkinWithoutJoints", [](Rig& r) { skin(r)["joints"] = Json::array(); }, {"/skins/0/joints"}},
        {"TooFewInverseBindMatrices",
         [](Rig& r) {
             skin(r)["joints"] = Json::array({1, 2, 0});
         },
         {"/skins/0/inverseBindMatrices"}},
        {"InverseBindMatrixNotAffine", [](Rig& r) { r.w.patchComponent(kIbm, 3, 1.0); }, {"/accessors/7"}},
        {"InverseBindMatrixNaN", [](Rig& r) { r.w.patchComponent(kIbm, 16 + 12, kNaN); }, {"/accessors/7"}},

        // --- buffers' URIs
        {"DataUriNotBase64",
         [](Rig& r) { r.w.json()["buffers"][0]["uri"] = "data:application/octet-stream;base64,@@@@"; },
         {"/buffers/0/uri"}},
        {"DataUriWithoutComma",
         [](Rig& r) { r.w.json()["buffers"][0]["uri"] = "data:application/octet-stream"; },
         {"/buffers/0/uri"}},
        {"SecondBufferWithoutUri",
         [](Rig& r) { r.w.json()["buffers"].push(Json::object())["byteLength"] = 4; },
         {"/buffers/1"}},
        {"ImageWithUriAndBufferView",
         [](Rig& r) {
             Json& img = r.w.json()["images"].push(Json::object());
             img["uri"] = "a.png";
             img["bufferView"] = 0;
         },
         {"/images/0"}},
        {"ImageInBufferViewWithoutMimeType",
         [](Rig& r) { r.w.json()["images"].push(Json::object())["bufferView"] = 0; },
         {"/images/0/mimeType"}},

        // --- structure types
        {"NodesNotArray", [](Rig& r) { r.w.json()["nodes"] = Json::object(); }, {"/nodes"}},
        {"NodeNotObject", [](Rig& r) { node(r, kJointB) = 5; }, {"/nodes/2"}},
        {"AccessorsNotArray", [](Rig& r) { r.w.json()["accessors"] = "x"; }, {"/accessors"}},
        {"ChannelsMissing", [](Rig& r) { anim(r).erase("channels"); }, {"/animations/0/channels"}},
    };
}

class DamagedRig : public ::testing::TestWithParam<Damage> {};

TEST_P(DamagedRig, IsRejectedAtTheDamage) {
    for (const bool glb : {false, true}) {
        Rig rig = makeRig();
        GetParam().edit(rig);
        const std::string name = glb ? "rig.glb" : "rig.gltf";
        const auto r = importGltf(glb ? rig.w.glbSource(name) : rig.w.gltfSource(name));
        EXPECT_TRUE(faultAtAny(r, name, GetParam().where)) << (glb ? "as .glb" : "as .gltf");
        EXPECT_TRUE(cleanOutcome(r, name));
    }
}

INSTANTIATE_TEST_SUITE_P(Hostile, DamagedRig, ::testing::ValuesIn(damages()),
                         [](const auto& p) { return p.param.name; });

// Key times shared by several samplers are judged once, where the first of them reads
// them, not once per channel.
TEST(Hostile, SharedKeyTimesAreFaultedOnce) {
    Rig rig = makeRig();
    std::size_t sharing = 0;
    const Json& samplers = rig.w.json()["animations"][0]["samplers"];
    for (std::size_t i = 0; i < samplers.size(); ++i) sharing += samplers[i].at("input").number() == kTimes;
    ASSERT_GE(sharing, 2u) << "the rig's samplers share their key times";
    rig.w.patchComponent(kTimes, 1, 0.0);
    const auto r = importGltf(rig.w.gltfSource("rig.gltf"));
    ASSERT_FALSE(r.ok());
    std::size_t told = 0;
    for (const Fault& f : r.faults()) told += f.what.find("key time") != std::string::npos;
    EXPECT_EQ(told, 1u) << faultList(r);
    EXPECT_EQ(r.faults()[0].where, "rig.gltf#/animations/0/samplers/0/input") << faultList(r);
    EXPECT_NE(r.faults()[0].what.find("key time 1 (0) is not after key time 0 (0)"), std::string::npos)
        << r.faults()[0].what;
}

// ---- things that look odd but are valid --------------------------------------------

TEST(Hostile, UnknownUsedExtensionIsFine) {
    Rig rig = makeRig();
    rig.w.useExtension("EXT_unknown_but_optional", false);
    EXPECT_TRUE(imported(importGltf(rig.w.gltfSource("rig.gltf"))));
}

TEST(Hostile, ChannelWithoutNodeIsSkipped) {
    // KHR_animation_pointer channels have no target.node; a loader without the extension skips them.
    Rig rig = makeRig();
    Json& c = rig.w.json()["animations"][0]["channels"].push(Json::object());
    c["sampler"] = 1;
    c["target"]["path"] = "pointer";
    c["target"]["extensions"]["KHR_animation_pointer"]["pointer"] = "/nodes/0/translation";
    const auto r = importGltf(rig.w.gltfSource("rig.gltf"));
    ASSERT_TRUE(imported(r));
    EXPECT_EQ(r->clips.at(0).tracks().size(), 3u);
}

TEST(Hostile, SameNodePathInTwoAnimationsIsFine) {
    Rig rig = makeRig();
    rig.w.addAnimation({{.input = kTimes, .output = kRotations}},
                       {{.sampler = 0, .node = kJointA, .path = "rotation"}});
    const auto r = importGltf(rig.w.gltfSource("rig.gltf"));
    ASSERT_TRUE(imported(r));
    EXPECT_EQ(r->clips.size(), 2u);
}

TEST(Hostile, UnknownGlbChunkIsSkipped) {
    Rig rig = makeRig();
    std::vector<std::byte> glb = rig.w.glb();
    // Append a chunk of an unknown type after BIN.
    const std::size_t at = glb.size();
    glb.resize(at + 8 + 4);
    writeU32(glb, at, 4);
    writeU32(glb, at + 4, 0x12345678);
    writeU32(glb, 8, static_cast<std::uint32_t>(glb.size()));
    EXPECT_TRUE(imported(importGltf(makeSource(glb, "rig.glb"))));
}

// ---- primitives without POSITION (valid glTF; kinema must not accept them half-checked) ---

// A mesh node drawing one primitive with `attributes` (no POSITION) and maybe indices.
Result<Model> withoutPositions(const Attributes& attributes, bool withIndices) {
    GltfWriter w;
    PrimitiveSpec p{.attributes = attributes};
    for (auto& [semantic, accessor] : p.attributes) {
        if (semantic == "NORMAL") accessor = w.addFloats("VEC3", {0, 0, 1, 0, 0, 1, 0, 0, 1});
        if (semantic == "TEXCOORD_0") accessor = w.addFloats("VEC2", {0, 0, 1, 0, 0, 1});
    }
    if (withIndices) p.indices = w.addAccessor({.componentType = kUnsignedByte, .type = "SCALAR", .values = {0, 1, 2}});
    w.addNode({.mesh = w.addMesh({p})});
    return importGltf(w.gltfSource("np.gltf"));
}

// Found by the fuzzer (fuzz/crashes/crash-2bf1245f...): with no POSITION every
// vertex-count check is skipped, and the accepted model fails findModelFaults.
TEST(Hostile, PrimitiveWithoutPositionButIndicesIsRejectedOrConsistent) {
    const auto r = withoutPositions({}, true);
    EXPECT_TRUE(cleanOutcome(r, "np.gltf"));
    if (!r.ok()) {
        EXPECT_TRUE(faultUnder(r, "np.gltf#/meshes/0/primitives/0"));
    }
}

TEST(Hostile, PrimitiveWithoutPositionButNormalsIsRejectedOrConsistent) {
    const auto r = withoutPositions({{"NORMAL", 0}, {"TEXCOORD_0", 0}}, false);
    EXPECT_TRUE(cleanOutcome(r, "np.gltf"));
    if (!r.ok()) {
        EXPECT_TRUE(faultUnder(r, "np.gltf#/meshes/0/primitives/0"));
    }
}

// ---- not JSON, not glTF ----------------------------------------------------------------

TEST(Hostile, InvalidJsonIsRejectedAtTheOffendingByte) {
    // Text, and the byte offset of the first byte that cannot continue it (counted by hand).
    const std::vector<std::pair<std::string, std::size_t>> cases = {
        {"{", 1},
        {"}", 0},
        {"nul", 3},
        {"{\"asset\":", 9},
        {"{\"asset\":{\"version\":\"2.0\"}} trailing", 28},
        {"{\"asset\":{\"version\":\"2.0\",}}", 26},
        {"\xff\xfe{}", 0},
        {"{\"a\":NaN}", 5},
        {"{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"\x01\"}]}", 45}};
    for (const auto& [text, offset] : cases) {
        const auto r = importGltf(makeSource(text, "bad.gltf"));
        ASSERT_FALSE(r.ok()) << text;
        ASSERT_EQ(r.faults().size(), 1u) << text;
        // One line: the column is the offset + 1.
        EXPECT_EQ(r.faults()[0].where,
                  "bad.gltf@byte " + std::to_string(offset) + " (line 1, column " + std::to_string(offset + 1) + ")")
            << text;
        EXPECT_NE(r.faults()[0].what.find("JSON"), std::string::npos) << r.faults()[0].what;
    }
}

TEST(Hostile, JsonRootMustBeAnObject) {
    for (const std::string text : {"[]", "2", "\"glTF\"", "null"}) {
        const auto r = importGltf(makeSource(text, "bad.gltf"));
        ASSERT_FALSE(r.ok()) << text;
        EXPECT_EQ(r.faults()[0].where, "bad.gltf#") << text;
    }
}

// Under UBSan this currently aborts: an empty byte vector has data() == nullptr and
// the importer hands it to simdjson, which memcpy()s from it (library bug, reported).
TEST(Hostile, EmptyInputIsRejected) {
    const auto r = importGltf(makeSource(std::vector<std::byte>{}, "empty.gltf"));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.faults()[0].where.rfind("empty.gltf", 0), 0u);
}

TEST(Hostile, MissingBytesAreRejected) {
    const auto r = importGltf(GltfSource{nullptr, {}, "none.gltf"});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.faults()[0].where, "none.gltf");
}

TEST(Hostile, DeeplyNestedJsonIsRejectedCleanly) {
    std::string text = "{\"asset\":{\"version\":\"2.0\"},\"extras\":";
    text += std::string(5000, '[') + std::string(5000, ']') + "}";
    const auto r = importGltf(makeSource(text, "deep.gltf"));
    EXPECT_TRUE(cleanOutcome(r, "deep.gltf"));
}

TEST(Hostile, ManyFaultsAreCapped) {
    Rig rig = makeRig();
    for (int i = 0; i < 2000; ++i) rig.w.json()["nodes"][0]["children"].push(100000 + i);
    const auto r = importGltf(rig.w.gltfSource("rig.gltf"));
    ASSERT_FALSE(r.ok());
    EXPECT_LE(r.faults().size(), 501u);
    EXPECT_TRUE(cleanOutcome(r, "rig.gltf"));
}

}  // namespace
}  // namespace kinema::test
