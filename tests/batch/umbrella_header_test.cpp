// kinema/kinema.hpp includes every public header: it compiles on its own, names a
// type from each module, and lists every header found under include/kinema (outside
// detail/ and the optional renderer's gpu/, which kinema::gpu brings), so a new
// header cannot be forgotten in it.
#include "kinema/kinema.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

TEST(UmbrellaHeader, NamesATypeOfEveryModule) {
    const kinema::Fault fault{"where", "what"};            // core
    const kinema::Vec3 v{1, 2, 3};                         // math
    const kinema::Track track{};                           // asset
    const kinema::LoopMode loop = kinema::LoopMode::Loop;  // runtime
    const kinema::ImportOptions options{};                 // io
    const kinema::FixedTickDriver* tick = nullptr;         // play
    const kinema::BatchOptions batch{};                    // batch
    EXPECT_EQ(kinema::describe(fault), "where: what");
    EXPECT_EQ(v.y, 2.0f);
    EXPECT_TRUE(track.times.empty());
    EXPECT_EQ(loop, kinema::LoopMode::Loop);
    EXPECT_EQ(options.conformance, kinema::Conformance::Strict);
    EXPECT_EQ(tick, nullptr);
    EXPECT_TRUE(batch.skins.empty());
}

TEST(UmbrellaHeader, IncludesEveryPublicHeader) {
    // tests/batch/<this file> -> <repository>/include
    const std::filesystem::path include =
        std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "include";
    std::ifstream in(include / "kinema" / "kinema.hpp");
    std::stringstream text;
    text << in.rdbuf();
    int headers = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(include / "kinema")) {
        const std::string relative = std::filesystem::relative(entry.path(), include).generic_string();
        if (entry.path().extension() != ".hpp" || relative == "kinema/kinema.hpp" ||
            relative.find("/detail/") != std::string::npos || relative.starts_with("kinema/gpu/")) {
            continue;
        }
        EXPECT_NE(text.str().find("#include \"" + relative + "\""), std::string::npos) << relative;
        ++headers;
    }
    EXPECT_GE(headers, 30);
}

}  // namespace
