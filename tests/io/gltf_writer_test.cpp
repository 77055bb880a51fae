// The test fixture writer (tests/support/gltf_writer) checked against fixed
// expectations, so that tests built on it fail for the importer's faults only.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/gltf_writer.hpp"

namespace kinema::test {
namespace {

std::vector<std::byte> bytes(std::initializer_list<int> v) {
    std::vector<std::byte> out;
    for (int b : v) out.push_back(static_cast<std::byte>(b));
    return out;
}

TEST(GltfWriter, JsonDumpsCompactAndInOrder) {
    Json j;
    j["b"] = 1;
    j["a"] = Json::array({true, nullptr, -2, 2.5, "x\"y\\z\n"});
    j["c"]["d"] = std::uint64_t{18446744073709551615u};
    j["e"] = Json::raw("1e400");
    EXPECT_EQ(j.dump(), R"({"b":1,"a":[true,null,-2,2.5,"x\"y\\z\n"],"c":{"d":18446744073709551615},"e":1e400})");
    j.erase("a");
    EXPECT_FALSE(j.contains("a"));
    EXPECT_EQ(j.at("b").number(), 1.0);
}

TEST(GltfWriter, FloatsRoundTripThroughJsonText) {
    Json j = Json::array({0.1f, 1e-30f, 3.4028235e38f});
    EXPECT_EQ(j.dump(), "[0.10000000149011612,1.0000000031710769e-30,3.4028234663852886e+38]");
}

TEST(GltfWriter, Base64MatchesRfc4648Vectors) {
    EXPECT_EQ(base64(toBytes("")), "");
    EXPECT_EQ(base64(toBytes("f")), "Zg==");
    EXPECT_EQ(base64(toBytes("fo")), "Zm8=");
    EXPECT_EQ(base64(toBytes("foo")), "Zm9v");
    EXPECT_EQ(base64(toBytes("foobar")), "Zm9vYmFy");
    EXPECT_EQ(base64(bytes({0xFF, 0xFE})), "//4=");
}

TEST(GltfWriter, EncodesComponentsLittleEndian) {
    const std::vector<double> v = {-1, 65535};
    EXPECT_EQ(encodeComponents(kShort, std::span<const double>(v).first(1)), bytes({0xFF, 0xFF}));
    EXPECT_EQ(encodeComponents(kUnsignedShort, std::span<const double>(v).last(1)), bytes({0xFF, 0xFF}));
    const std::vector<double> f = {1.0};
    EXPECT_EQ(encodeComponents(kFloat, f), bytes({0x00, 0x00, 0x80, 0x3F}));
    const std::vector<double> u = {0x01020304};
    EXPECT_EQ(encodeComponents(kUnsignedInt, u), bytes({4, 3, 2, 1}));
}

TEST(GltfWriter, PadsMatrixColumnsAndStrides) {
    EXPECT_EQ(elementBytes(kByte, "MAT2"), 8u);
    EXPECT_EQ(elementBytes(kByte, "MAT3"), 12u);
    EXPECT_EQ(elementBytes(kShort, "MAT3"), 24u);
    EXPECT_EQ(elementBytes(kFloat, "MAT4"), 64u);
    const std::vector<double> m = {1, 2, 3, 4};
    EXPECT_EQ(encodeElements(kByte, "MAT2", m), bytes({1, 2, 0xEE, 0xEE, 3, 4, 0xEE, 0xEE}));
    const std::vector<double> v = {1, 2, 3, 4};
    EXPECT_EQ(encodeElements(kUnsignedByte, "VEC2", v, 4), bytes({1, 2, 0xEE, 0xEE, 3, 4}));
}

TEST(GltfWriter, GlbFollowsTheContainerLayout) {
    GltfWriter w;
    w.addFloats("SCALAR", {1.0f});
    const auto glb = w.glb();
    ASSERT_GE(glb.size(), 28u);
    EXPECT_EQ(readU32(glb, 0), 0x46546C67u);  // "glTF"
    EXPECT_EQ(readU32(glb, 4), 2u);
    EXPECT_EQ(readU32(glb, 8), glb.size());
    const std::uint32_t jsonLength = readU32(glb, 12);
    EXPECT_EQ(jsonLength % 4, 0u);
    EXPECT_EQ(readU32(glb, 16), 0x4E4F534Au);  // "JSON"
    const std::size_t bin = 20 + jsonLength;
    EXPECT_EQ(readU32(glb, bin), 4u);
    EXPECT_EQ(readU32(glb, bin + 4), 0x004E4942u);  // "BIN\0"
    EXPECT_EQ(std::vector<std::byte>(glb.begin() + static_cast<std::ptrdiff_t>(bin + 8), glb.end()),
              bytes({0x00, 0x00, 0x80, 0x3F}));
    const std::string json(reinterpret_cast<const char*>(glb.data()) + 20, jsonLength);
    EXPECT_EQ(json.find("\"uri\""), std::string::npos);
    EXPECT_NE(json.find(R"("buffers":[{"byteLength":4}])"), std::string::npos) << json;
}

TEST(GltfWriter, GltfEmbedsBufferAsDataUri) {
    GltfWriter w;
    w.addFloats("SCALAR", {1.0f});
    const std::string text = w.gltf();
    EXPECT_NE(text.find(R"("uri":"data:application/octet-stream;base64,AACAPw==")"), std::string::npos) << text;
    EXPECT_NE(text.find(R"("asset":{"version":"2.0"})"), std::string::npos) << text;
}

TEST(GltfWriter, AccessorsGetViewsOffsetsAndMinMax) {
    GltfWriter w;
    const auto a = w.addAccessor({.componentType = kUnsignedByte, .type = "SCALAR", .values = {3, 1, 2}});
    const auto b = w.addAccessor({.componentType = kFloat, .type = "VEC2", .values = {1, -2, 3, 4}, .byteOffset = 8});
    EXPECT_EQ(a, 0u);
    EXPECT_EQ(b, 1u);
    const Json& doc = w.json();
    EXPECT_EQ(doc.at("accessors")[0].dump(),
              R"({"bufferView":0,"componentType":5121,"count":3,"type":"SCALAR","min":[1],"max":[3]})");
    EXPECT_EQ(
        doc.at("accessors")[1].dump(),
        R"({"bufferView":1,"byteOffset":8,"componentType":5126,"count":2,"type":"VEC2","min":[1,-2],"max":[3,4]})");
    // View 1 starts 4-byte aligned after the 3 bytes of view 0.
    EXPECT_EQ(doc.at("bufferViews")[1].dump(), R"({"buffer":0,"byteOffset":4,"byteLength":24})");
    EXPECT_EQ(w.accessorDataOffset(b), 12u);
    w.patchComponent(b, 1, 0.5);
    EXPECT_EQ(std::vector<std::byte>(w.bin().begin() + 16, w.bin().begin() + 20), bytes({0, 0, 0, 0x3F}));
}

TEST(GltfWriter, SparseAccessorJson) {
    GltfWriter w;
    const auto s = w.addSparseAccessor(
        {.componentType = kFloat, .type = "SCALAR"}, 3,
        {.indexComponentType = kUnsignedShort, .indices = {2}, .values = {7}, .indicesByteOffset = 2});
    EXPECT_EQ(w.json().at("accessors")[s].dump(),
              R"({"componentType":5126,"count":3,"type":"SCALAR","sparse":{"count":1,"indices":{"bufferView":0,)"
              R"("byteOffset":2,"componentType":5123},"values":{"bufferView":1}},"min":[0],"max":[7]})");
}

}  // namespace
}  // namespace kinema::test
