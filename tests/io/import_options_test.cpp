// ImportOptions: allowExternalFiles keeps untrusted input off the file system;
// memoryBudget bounds what one import may hold.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "io_fixtures.hpp"
#include "kinema/io/gltf.hpp"

namespace kinema::test {
namespace {

// The rig with buffer 0 in an external file "rig.bin" in `dir`.
GltfSource externalRig(const std::filesystem::path& dir, const std::string& uri = "rig.bin") {
    Rig rig = makeRig();
    writeFile(dir / "rig.bin", rig.w.bin());
    rig.w.json()["buffers"][0]["uri"] = uri;
    return makeSource(rig.w.gltf(), "rig.gltf", dir);
}

TEST(ImportOptions, ExternalBufferLoadsWhenAllowed) {
    TempDir dir;
    EXPECT_TRUE(imported(importGltf(externalRig(dir.path()))));
}

TEST(ImportOptions, ExternalBufferUriIsPercentDecoded) {
    TempDir dir;
    Rig rig = makeRig();
    writeFile(dir.path() / "my rig.bin", rig.w.bin());
    rig.w.json()["buffers"][0]["uri"] = "my%20rig.bin";
    EXPECT_TRUE(imported(importGltf(makeSource(rig.w.gltf(), "rig.gltf", dir.path()))));
}

TEST(ImportOptions, ExternalBufferIsRejectedWhenNotAllowed) {
    TempDir dir;
    ImportOptions options;
    options.allowExternalFiles = false;
    for (const std::string uri : {"rig.bin", "../rig.bin", "/etc/passwd", "file:///etc/passwd", "missing.bin"}) {
        const auto r = importGltf(externalRig(dir.path(), uri), options);
        EXPECT_TRUE(faultAt(r, "rig.gltf#/buffers/0/uri")) << uri;
    }
}

TEST(ImportOptions, EmbeddedBuffersNeedNoFileAccess) {
    ImportOptions options;
    options.allowExternalFiles = false;
    const Rig rig = makeRig();
    EXPECT_TRUE(imported(importGltf(rig.w.gltfSource("rig.gltf"), options)));
    EXPECT_TRUE(imported(importGltf(rig.w.glbSource("rig.glb"), options)));
}

TEST(ImportOptions, MissingExternalBufferIsAFault) {
    TempDir dir;
    const auto r = importGltf(externalRig(dir.path(), "nothere.bin"));
    EXPECT_TRUE(faultAt(r, "rig.gltf#/buffers/0/uri"));
}

TEST(ImportOptions, ExternalBufferThatIsAFolderIsAFault) {
    TempDir dir;
    std::filesystem::create_directories(dir.path() / "folder.bin");
    for (const std::string uri : {"folder.bin", ".", ""}) {
        SCOPED_TRACE("uri '" + uri + "'");
        Result<Model> r = Fault{"", "not run"};
        EXPECT_NO_THROW(r = importGltf(externalRig(dir.path(), uri)));
        EXPECT_TRUE(faultAt(r, "rig.gltf#/buffers/0/uri"));
    }
}

TEST(ImportOptions, ImportFileUsesTheFileNameInFaults) {
    TempDir dir;
    Rig rig = makeRig();
    rig.w.json()["asset"].erase("version");
    const std::string text = rig.w.gltf();
    writeFile(dir.path() / "broken.gltf", toBytes(text));
    const auto r = importGltfFile(dir.path() / "broken.gltf");
    EXPECT_TRUE(faultAt(r, "broken.gltf#/asset/version"));
    const auto missing = importGltfFile(dir.path() / "nope.gltf");
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.faults()[0].where.find("nope.gltf"), std::string::npos);
}

// ---- memoryBudget ------------------------------------------------------------------

// One mesh of `vertices` float positions and nothing else, as a GLB (its BIN chunk is
// read in place): the import holds the file plus vertices * 12 decoded bytes.
GltfSource positionsOnly(std::size_t vertices) {
    GltfWriter w;
    std::vector<float> p(vertices * 3);
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = static_cast<float>(i);
    const auto acc = w.addFloats("VEC3", p);
    const auto mesh = w.addMesh({{.attributes = {{"POSITION", acc}}}});
    w.addNode({.mesh = mesh});
    return w.glbSource("p.glb");
}

TEST(ImportOptions, MemoryBudgetIsHonoured) {
    const GltfSource source = positionsOnly(100);
    // The smallest budget that imports (found by bisection); one byte less must fail on
    // the last thing charged, the 1200 bytes of decoded positions, with exact numbers.
    std::size_t low = 0, high = std::size_t{1} << 24;
    ImportOptions options;
    while (low + 1 < high) {
        options.memoryBudget = low + (high - low) / 2;
        (importGltf(source, options).ok() ? high : low) = options.memoryBudget;
    }
    options.memoryBudget = high;
    EXPECT_TRUE(imported(importGltf(source, options)));
    options.memoryBudget = high - 1;
    const auto r = importGltf(source, options);
    ASSERT_TRUE(faultAt(r, "p.glb#/meshes/0/primitives/0/attributes/POSITION"));
    EXPECT_EQ(r.faults()[0].what,
              "decoded data needs 1200 bytes; the import's memory budget of " + std::to_string(high - 1) +
                  " bytes has 1199 left");
    // The faults say the budget stopped it, not a rule of the file; a broken file's do not.
    EXPECT_TRUE(outOfMemoryBudget(r.faults()));
    GltfSource broken = source;
    const std::string text = R"({"asset":{"version":"2.0"},"nodes":[{"mesh":7}]})";
    broken.bytes = std::make_shared<const std::vector<std::byte>>(
        reinterpret_cast<const std::byte*>(text.data()), reinterpret_cast<const std::byte*>(text.data()) + text.size());
    broken.name = "broken.gltf";
    const auto refused = importGltf(broken);
    ASSERT_FALSE(refused.ok());
    EXPECT_FALSE(outOfMemoryBudget(refused.faults())) << refused.message();
}

TEST(ImportOptions, TheFileItselfCountsAgainstTheBudget) {
    const GltfSource source = positionsOnly(100);
    ImportOptions options;
    options.memoryBudget = source.bytes->size() - 1;
    const auto r = importGltf(source, options);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(describe(r.faults()[0]),
              "p.glb: the file needs " + std::to_string(source.bytes->size()) +
                  " bytes; the import's memory budget of " + std::to_string(source.bytes->size() - 1) + " bytes has " +
                  std::to_string(source.bytes->size() - 1) + " left");
}

TEST(ImportOptions, MemoryBudgetCoversEveryRole) {
    // The rig decodes positions, normals, skinning, indices, targets, matrices and keys;
    // with a limit of a few bytes something must trip, and cleanly.
    const Rig rig = makeRig();
    for (const std::size_t limit : {0u, 1u, 16u, 64u, 128u, 256u, 512u}) {
        ImportOptions options;
        options.memoryBudget = limit;
        const auto r = importGltf(rig.w.gltfSource("rig.gltf"), options);
        ASSERT_FALSE(r.ok()) << "limit " << limit;
        EXPECT_TRUE(cleanOutcome(r, "rig.gltf"));
        bool mentionsBudget = false;
        for (const Fault& f : r.faults()) mentionsBudget |= f.what.find("memory budget") != std::string::npos;
        EXPECT_TRUE(mentionsBudget) << faultList(r);
    }
}

// A budget that runs out says so and nothing else: no fault follows from data it left
// undecoded (a skinned primitive "without" the JOINTS_0 it could not decode), at
// whatever point of the file it runs out.
TEST(ImportOptions, AnExhaustedBudgetIsTheOnlyFault) {
    const Rig rig = makeRig();
    std::size_t budgets = 0;
    for (std::size_t limit = 0;; limit += 97) {
        ImportOptions options;
        options.memoryBudget = limit;
        const auto r = importGltf(rig.w.gltfSource("rig.gltf"), options);
        if (r.ok()) break;
        ++budgets;
        for (const Fault& f : r.faults())
            EXPECT_NE(f.what.find("memory budget"), std::string::npos)
                << "limit " << limit << ": [" << f.where << "] [" << f.what << "]";
    }
    EXPECT_GT(budgets, 20u) << "the sweep crosses many points of the import";
}

TEST(ImportOptions, HugeDeclaredDataFailsInsteadOfAllocating) {
    // No bufferView: a 4294967295-element accessor of zeros would need 48 GiB as floats.
    GltfWriter w;
    const auto acc = w.addAccessorJson(std::nullopt, 0, kFloat, "VEC3", 4294967295u);
    const auto mesh = w.addMesh({{.attributes = {{"POSITION", acc}}}});
    w.addNode({.mesh = mesh});
    const auto r = importGltf(w.gltfSource("huge.gltf"));
    EXPECT_TRUE(faultAt(r, "huge.gltf#/meshes/0/primitives/0/attributes/POSITION"));
}

TEST(ImportOptions, ManyChannelsOnOneHugeSamplerStayWithinTheLimit) {
    // 200 channels share one 65536-key output: each decodes it again, so the sum
    // (200 * 64 KiB * 4 floats) must trip a 16 MiB limit instead of allocating it.
    GltfWriter w;
    std::vector<float> times(65536), rot(65536 * 4, 0.0f);
    for (std::size_t i = 0; i < times.size(); ++i) {
        times[i] = static_cast<float>(i);
        rot[i * 4 + 3] = 1.0f;
    }
    const auto in = w.addFloats("SCALAR", times);
    const auto out = w.addFloats("VEC4", rot);
    std::vector<ChannelSpec> channels;
    for (std::uint32_t n = 0; n < 200; ++n) {
        w.addNode({});
        channels.push_back({.sampler = 0, .node = n, .path = "rotation"});
    }
    w.addAnimation({{.input = in, .output = out}}, channels);
    ImportOptions options;
    options.memoryBudget = std::size_t{16} << 20;
    const auto r = importGltf(w.glbSource("many.glb"), options);
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(cleanOutcome(r, "many.glb"));
}

// ---- decodeRenderAttributes ---------------------------------------------------------------

TEST(ImportOptions, AnimationOnlyImportKeepsWhatAnimationNeeds) {
    const Rig rig = makeRig();
    const auto full = importGltf(rig.w.gltfSource("rig.gltf"));
    ImportOptions options;
    options.decodeRenderAttributes = false;
    const auto lean = importGltf(rig.w.gltfSource("rig.gltf"), options);
    ASSERT_TRUE(imported(full));
    ASSERT_TRUE(imported(lean));
    const MeshPrimitive& f = full->meshes.at(0).primitives.at(0);
    const MeshPrimitive& l = lean->meshes.at(0).primitives.at(0);
    EXPECT_FALSE(f.normals.empty());
    EXPECT_FALSE(f.indices.empty());
    EXPECT_TRUE(l.normals.empty());
    EXPECT_TRUE(l.texcoords.empty());
    EXPECT_TRUE(l.indices.empty());
    EXPECT_EQ(l.positions, f.positions);
    EXPECT_EQ(l.joints, f.joints);
    EXPECT_EQ(l.weights, f.weights);
    ASSERT_EQ(l.targets.size(), f.targets.size());
    for (std::size_t t = 0; t < l.targets.size(); ++t) EXPECT_EQ(l.targets[t].positions, f.targets[t].positions);
    ASSERT_EQ(lean->clips.size(), full->clips.size());
    for (std::size_t i = 0; i < lean->clips[0].tracks().size(); ++i) {
        EXPECT_EQ(lean->clips[0].tracks()[i].values, full->clips[0].tracks()[i].values);
    }
}

TEST(ImportOptions, AnimationOnlyImportStillChecksRenderAccessors) {
    ImportOptions options;
    options.decodeRenderAttributes = false;
    {
        Rig rig = makeRig();
        rig.w.json()["accessors"][rig.normals]["count"] = 4294967295u;
        EXPECT_TRUE(faultAt(importGltf(rig.w.gltfSource("rig.gltf"), options), "rig.gltf#/accessors/1"));
    }
    {
        Rig rig = makeRig();
        rig.w.json()["meshes"][0]["primitives"][0]["indices"] = rig.times;  // float indices
        EXPECT_TRUE(
            faultAt(importGltf(rig.w.gltfSource("rig.gltf"), options), "rig.gltf#/meshes/0/primitives/0/indices"));
    }
    {
        Rig rig = makeRig();
        rig.w.json()["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_0"] = rig.positions;  // VEC3
        EXPECT_TRUE(faultAt(importGltf(rig.w.gltfSource("rig.gltf"), options),
                            "rig.gltf#/meshes/0/primitives/0/attributes/TEXCOORD_0"));
    }
}

}  // namespace
}  // namespace kinema::test
