// The asset cache (B4): one import per file, shared immutable models, clips by
// name, failed loads not cached (a repaired file loads on the next call), and no
// global state (two caches are independent).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "kinema/io/asset_cache.hpp"
#include "support/assets.hpp"

namespace {

namespace fs = std::filesystem;
using kinema::AssetCache;

fs::path scratchDir(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("kinema_cache_test_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

TEST(AssetCache, LoadsEachFileOnceAndSharesTheModel) {
    KINEMA_REQUIRE_ASSET(file, "InterpolationTest/InterpolationTest.glb");
    AssetCache cache;
    auto first = cache.load(file);
    ASSERT_TRUE(first.ok()) << first.message();
    auto second = cache.load(file.parent_path() / ".." / file.parent_path().filename() / file.filename());
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(first.value().get(), second.value().get()) << "the same file, spelled differently, is one model";
    EXPECT_EQ(cache.modelCount(), 1u);
    EXPECT_EQ(cache.find(file).get(), first.value().get());
    // Its clips are registered by name.
    const auto& clips = first.value()->clips;
    ASSERT_FALSE(clips.empty());
    for (const auto& c : clips) {
        if (c.name().empty()) continue;
        const auto handle = cache.clip(c.name());
        ASSERT_TRUE(handle.has_value()) << c.name();
        EXPECT_EQ(handle->clip->name(), c.name());
        EXPECT_EQ(handle->model.get(), first.value().get());
    }
    EXPECT_FALSE(cache.clip("no such clip").has_value());
}

TEST(AssetCache, AFailedLoadIsNotCachedSoARepairedFileLoads) {
    KINEMA_REQUIRE_ASSET(good, "BoxAnimated/BoxAnimated.glb");
    const fs::path dir = scratchDir("repair");
    const fs::path file = dir / "model.glb";
    std::ofstream(file, std::ios::binary) << "glTF but not really";
    AssetCache cache;
    const auto broken = cache.load(file);
    EXPECT_FALSE(broken.ok());
    EXPECT_NE(broken.message().find("model.glb"), std::string::npos) << broken.message();
    EXPECT_EQ(cache.modelCount(), 0u);
    EXPECT_EQ(cache.find(file), nullptr);
    fs::copy_file(good, file, fs::copy_options::overwrite_existing);
    const auto repaired = cache.load(file);
    EXPECT_TRUE(repaired.ok()) << repaired.message();
    EXPECT_EQ(cache.modelCount(), 1u);
    fs::remove_all(dir);
}

TEST(AssetCache, NamesAreFirstComeAndHandlesOutliveTheCache) {
    KINEMA_REQUIRE_ASSET(file, "CesiumMan/CesiumMan.glb");
    kinema::ClipHandle kept;
    {
        AssetCache cache;
        auto model = cache.load(file);
        ASSERT_TRUE(model.ok());
        EXPECT_TRUE(cache.registerClip("walk", model.value(), 0));
        EXPECT_FALSE(cache.registerClip("walk", model.value(), 0)) << "a taken name stays with its first owner";
        EXPECT_FALSE(cache.registerClip("run", model.value(), 99)) << "no such clip";
        EXPECT_FALSE(cache.registerClip("run", nullptr, 0));
        kept = *cache.clip("walk");
        AssetCache other;
        EXPECT_FALSE(other.clip("walk").has_value()) << "caches share nothing";
        cache.clear();
        EXPECT_EQ(cache.modelCount(), 0u);
        EXPECT_FALSE(cache.clip("walk").has_value());
    }
    ASSERT_NE(kept.clip, nullptr);
    EXPECT_GT(kept.clip->duration(), 0.0f) << "the handle keeps its model alive";
}

}  // namespace
