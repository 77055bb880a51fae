// Conformance: container and node-tree rows of the glTF 2.0 rules: buffers as
// base64 data: URIs (every padding length), a GLB BIN chunk padded past the
// buffer's byteLength, and nodes listed children-first (the skeleton must be
// re-ordered parent-before-child with the right model matrices).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "conformance/synthetic_glb.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/runtime/pose.hpp"

namespace {

using conformance::accessor;

std::string base64(const std::vector<std::uint8_t>& in) {
    static const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (std::size_t i = 0; i < in.size(); i += 3) {
        const std::uint32_t b0 = in[i];
        const std::uint32_t b1 = i + 1 < in.size() ? in[i + 1] : 0;
        const std::uint32_t b2 = i + 2 < in.size() ? in[i + 2] : 0;
        const std::uint32_t v = (b0 << 16) | (b1 << 8) | b2;
        out += abc[(v >> 18) & 63];
        out += abc[(v >> 12) & 63];
        out += i + 1 < in.size() ? abc[(v >> 6) & 63] : '=';
        out += i + 2 < in.size() ? abc[v & 63] : '=';
    }
    return out;
}

std::vector<std::uint8_t> floatBytes(const std::vector<float>& f, std::size_t extra) {
    std::vector<std::uint8_t> b(f.size() * 4 + extra, 0xAB);
    std::memcpy(b.data(), f.data(), f.size() * 4);
    return b;
}

kinema::Result<kinema::Model> importText(const std::string& json) {
    kinema::GltfSource src;
    src.bytes = std::make_shared<const std::vector<std::byte>>(
        reinterpret_cast<const std::byte*>(json.data()), reinterpret_cast<const std::byte*>(json.data() + json.size()));
    src.name = "synthetic.gltf";
    kinema::ImportOptions options;
    options.allowExternalFiles = false;
    return kinema::importGltf(src, options);
}

// Three buffers whose lengths are 0, 1 and 2 mod 3, so their base64 ends with no,
// two and one '=' respectively; both registered MIME types are used.
TEST(ContainerRows, DataUriBuffersDecodeWithEveryPaddingLength) {
    const std::vector<float> a{0, 0, 0, 1, 0, 0, 0, 1, 0};         // 36 bytes: 0 mod 3
    const std::vector<float> b{0, 0, 1, 0, 0, 1, 0, 0, 1};         // + 1 byte: 37 = 1 mod 3
    const std::vector<float> c{0.5f, 0, 0, 0, 0.25f, 0, 0, 0, 2};  // + 2 bytes: 38 = 2 mod 3
    const auto ba = floatBytes(a, 0), bb = floatBytes(b, 1), bc = floatBytes(c, 2);
    ASSERT_EQ(base64(bb).substr(base64(bb).size() - 2), "==");
    ASSERT_EQ(base64(bc).substr(base64(bc).size() - 1), "=");
    const std::string json = R"({"asset":{"version":"2.0"},
        "buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,)" +
        base64(ba) + R"("},
                   {"byteLength":37,"uri":"data:application/gltf-buffer;base64,)" +
        base64(bb) + R"("},
                   {"byteLength":38,"uri":"data:application/octet-stream;base64,)" +
        base64(bc) + R"("}],
        "bufferViews":[{"buffer":0,"byteLength":36},{"buffer":1,"byteLength":36},{"buffer":2,"byteLength":36}],
        "accessors":[)" +
        accessor(0, 5126, 3, "VEC3", false, R"("min":[0,0,0],"max":[1,1,0])") + "," + accessor(1, 5126, 3, "VEC3") +
        "," + accessor(2, 5126, 3, "VEC3") + R"(],
        "meshes":[{"primitives":[{"attributes":{"POSITION":0,"NORMAL":1},"targets":[{"POSITION":2}]}]}],
        "nodes":[{"mesh":0}],
        "scenes":[{"nodes":[0]}],"scene":0
      })";
    auto imported = importText(json);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const auto& prim = imported.value().meshes.at(0).primitives.at(0);
    ASSERT_EQ(prim.positions.size(), 3u);
    ASSERT_EQ(prim.normals.size(), 3u);
    ASSERT_EQ(prim.targets.size(), 1u);
    for (std::size_t v = 0; v < 3; ++v) {
        EXPECT_EQ(prim.positions[v], (kinema::Vec3{a[3 * v], a[3 * v + 1], a[3 * v + 2]}));
        EXPECT_EQ(prim.normals[v], (kinema::Vec3{b[3 * v], b[3 * v + 1], b[3 * v + 2]}));
        EXPECT_EQ(prim.targets[0].positions.at(v), (kinema::Vec3{c[3 * v], c[3 * v + 1], c[3 * v + 2]}));
    }
}

// GLB: the BIN chunk is padded to 4 bytes and may exceed the buffer's byteLength
// by up to 3 bytes.
TEST(ContainerRows, GlbBinChunkMayBePaddedPastByteLength) {
    std::vector<std::uint8_t> bin = floatBytes({0, 0, 0, 1, 0, 0, 0, 1, 0}, 1);  // 37 bytes, chunk 40
    const std::string json = R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":37}],
        "bufferViews":[{"buffer":0,"byteLength":36}],
        "accessors":[)" +
        accessor(0, 5126, 3, "VEC3", false, R"("min":[0,0,0],"max":[1,1,0])") + R"(],
        "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
        "nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0})";
    auto imported = conformance::importSynthetic(json, bin);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const auto& p = imported.value().meshes.at(0).primitives.at(0).positions;
    ASSERT_EQ(p.size(), 3u);
    EXPECT_EQ(p[1], (kinema::Vec3{1, 0, 0}));
}

// Nodes listed leaf-first: 0 is a child of 1, 1 of 3, and 2 of 3; 3 is the root.
// The skeleton must put parents first, and model matrices compose the chain.
TEST(ContainerRows, ChildrenListedBeforeParentsAreReordered) {
    const std::string json = R"({"asset":{"version":"2.0"},
        "nodes":[{"name":"leaf","translation":[0,0,3]},
                 {"name":"mid","translation":[0,2,0],"scale":[2,2,2],"children":[0]},
                 {"name":"side","matrix":[0,1,0,0, -1,0,0,0, 0,0,1,0, 5,0,0,1]},
                 {"name":"root","translation":[1,0,0],"rotation":[0,0,0.7071067811865476,0.7071067811865476],
                  "children":[2,1]}],
        "scenes":[{"nodes":[3]}],"scene":0})";
    auto imported = importText(json);
    ASSERT_TRUE(imported.ok()) << imported.message();
    const kinema::Model& model = imported.value();
    const auto parents = model.skeleton.parents();
    ASSERT_EQ(parents.size(), 4u);
    for (std::size_t j = 0; j < 4; ++j) EXPECT_LT(parents[j], static_cast<std::int32_t>(j));
    const auto& jn = model.jointOfNode;
    EXPECT_EQ(parents[jn[3]], kinema::kNoParent);
    EXPECT_EQ(parents[jn[1]], static_cast<std::int32_t>(jn[3]));
    EXPECT_EQ(parents[jn[2]], static_cast<std::int32_t>(jn[3]));
    EXPECT_EQ(parents[jn[0]], static_cast<std::int32_t>(jn[1]));

    kinema::Pose pose = kinema::makeRestPose(model);
    kinema::reference::localToModel(parents, pose.local, pose.model);
    // By hand: root = T(1,0,0) Rz(90); mid = root * T(0,2,0) S(2); leaf = mid * T(0,0,3).
    // Rz(90) maps (x, y, z) -> (-y, x, z).
    auto origin = [&](std::uint32_t node) {
        const auto& m = pose.model[jn[node]].m;
        return kinema::Vec3{m[12], m[13], m[14]};
    };
    auto near = [](kinema::Vec3 a, kinema::Vec3 b) {
        return std::abs(a.x - b.x) < 1e-5f && std::abs(a.y - b.y) < 1e-5f && std::abs(a.z - b.z) < 1e-5f;
    };
    EXPECT_TRUE(near(origin(3), {1, 0, 0}));
    EXPECT_TRUE(near(origin(1), {1 - 2, 0, 0}));      // root * (0,2,0) = (1 - 2, 0, 0)
    EXPECT_TRUE(near(origin(0), {1 - 2, 0, 0 + 6}));  // mid * (0,0,3): scale 2 -> (0,0,6)
    EXPECT_TRUE(near(origin(2), {1, 5, 0}));          // root * (5,0,0) = (1, 5, 0)
    // The x axis of `side`: root's Rz(90) after side's own Rz(90): (-1, 0, 0).
    const auto& sm = pose.model[jn[2]].m;
    EXPECT_TRUE(near({sm[0], sm[1], sm[2]}, {-1, 0, 0}));
}

}  // namespace
