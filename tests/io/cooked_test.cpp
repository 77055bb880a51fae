// Cooked files of the shared sample models: the model read back equals the imported
// one in every part the format holds, float for float (compared by bit pattern, so
// -0 and NaN payloads count too), and cooking what was read back gives the same bytes.
// The hostile inputs are in cooked_hostile_test.cpp.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <unistd.h>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "kinema/io/asset_cache.hpp"
#include "kinema/io/cooked.hpp"
#include "cooked_fixtures.hpp"
#include "kinema/io/gltf.hpp"
#include "support/assets.hpp"

namespace kinema {
namespace {

class CookedSample : public ::testing::TestWithParam<const char*> {};

TEST_P(CookedSample, RoundTripsExactlyAndCooksToTheSameBytes) {
    KINEMA_REQUIRE_ASSET(path, GetParam());
    ImportOptions options;
    options.decodeImages = true;  // the pixels go into the cooked file
    auto model = importGltfFile(path, options);
    ASSERT_TRUE(model.ok()) << model.message();
    auto source = readFileBytes(path);
    ASSERT_TRUE(source.ok());
    const std::uint64_t hash = sourceHash(**source);
    const std::vector<std::byte> bytes = cookModel(*model, hash);
    EXPECT_TRUE(looksCooked(bytes));

    auto read = readCookedModel(bytes, "sample.kinc");
    ASSERT_TRUE(read.ok()) << read.message();
    EXPECT_EQ(read->source, "sample.kinc");
    test::expectSameModel(*read, *model);
    EXPECT_EQ(cookModel(*read, hash), bytes);

    auto recorded = cookedSourceHash(bytes, "sample.kinc");
    ASSERT_TRUE(recorded.ok());
    EXPECT_EQ(*recorded, hash);
}

INSTANTIATE_TEST_SUITE_P(
    SharedModels, CookedSample,
    ::testing::Values("CesiumMan/CesiumMan.glb", "RiggedFigure/RiggedFigure.glb", "RiggedSimple/RiggedSimple.glb",
                      "BoxAnimated/BoxAnimated.glb", "AnimatedMorphCube/AnimatedMorphCube.glb",
                      "InterpolationTest/InterpolationTest.glb", "AnimatedTriangle/AnimatedTriangle.gltf",
                      "SimpleSkin/SimpleSkin.gltf", "AnimatedCube/AnimatedCube.gltf",
                      "MorphPrimitivesTest/MorphPrimitivesTest.glb", "SimpleMorph/SimpleMorph.gltf"));

TEST(CookedFile, SourceChangedNoticesAnEditedSource) {
    KINEMA_REQUIRE_ASSET(path, "BoxAnimated/BoxAnimated.glb");
    const auto dir = std::filesystem::temp_directory_path() / ("kinema_cooked_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto copy = dir / "box.glb";
    const auto cooked = dir / "box.kinc";
    std::filesystem::copy_file(path, copy, std::filesystem::copy_options::overwrite_existing);
    auto model = importGltfFile(copy);
    ASSERT_TRUE(model.ok());
    auto source = readFileBytes(copy);
    ASSERT_TRUE(source.ok());
    const auto bytes = cookModel(*model, sourceHash(**source));
    {
        std::ofstream out(cooked, std::ios::binary);
        out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    auto changed = sourceChanged(cooked, copy);
    ASSERT_TRUE(changed.ok()) << changed.message();
    EXPECT_FALSE(*changed);
    {
        std::ofstream append(copy, std::ios::binary | std::ios::app);
        append.put('\0');
    }
    changed = sourceChanged(cooked, copy);
    ASSERT_TRUE(changed.ok());
    EXPECT_TRUE(*changed);

    auto loaded = readCookedModelFile(cooked);
    ASSERT_TRUE(loaded.ok()) << loaded.message();
    EXPECT_EQ(loaded->clips.size(), model->clips.size());
    std::filesystem::remove_all(dir);
}

TEST(CookedFile, TheAssetCacheLoadsCookedFilesByTheirContent) {
    KINEMA_REQUIRE_ASSET(path, "CesiumMan/CesiumMan.glb");
    const auto dir = std::filesystem::temp_directory_path() / ("kinema_cooked_cache_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    auto model = importGltfFile(path);
    ASSERT_TRUE(model.ok());
    ASSERT_FALSE(model->clips.empty());
    {
        // The sample's animation has no name; the cache registers clips by name.
        const Clip& first = model->clips[0];
        auto named = Clip::create(
            "walk", {first.tracks().begin(), first.tracks().end()}, {},
            std::make_shared<const std::vector<std::string>>(first.jointNames().begin(), first.jointNames().end()));
        ASSERT_TRUE(named.ok());
        model->clips[0] = std::move(named).value();
    }
    // A cooked file under a glTF-like name: the content decides, not the name.
    const auto cooked = dir / "man.glb";
    const auto bytes = cookModel(*model);
    {
        std::ofstream out(cooked, std::ios::binary);
        out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    AssetCache cache;
    auto loaded = cache.load(cooked);
    ASSERT_TRUE(loaded.ok()) << loaded.message();
    test::expectSameModel(**loaded, *model);
    const auto clip = cache.clip("walk");
    ASSERT_TRUE(clip.has_value());
    EXPECT_EQ(clip->model, *loaded);

    // A damaged cooked file fails with its byte offset and leaves nothing cached.
    auto damaged = bytes;
    damaged[damaged.size() / 2] ^= std::byte{0x40};
    const auto bad = dir / "bad.kinc";
    {
        std::ofstream out(bad, std::ios::binary);
        out.write(reinterpret_cast<const char*>(damaged.data()), static_cast<std::streamsize>(damaged.size()));
    }
    auto failed = cache.load(bad);
    ASSERT_FALSE(failed.ok());
    EXPECT_NE(failed.message().find("bad.kinc@byte"), std::string::npos) << failed.message();
    EXPECT_EQ(cache.find(bad), nullptr);
    EXPECT_EQ(cache.modelCount(), 1u);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace kinema
