// The fuzzer's seed corpus (fuzz/corpus, written by fuzz/make_seeds.cpp) must keep
// importing cleanly as the importer evolves, or fuzzing starts from rejected files.
#include <gtest/gtest.h>

#include <filesystem>

#include "io_fixtures.hpp"
#include "kinema/io/gltf.hpp"

namespace kinema::test {
namespace {

std::filesystem::path fuzzDir(const char* sub) {
    // tests/io/<this file> -> <repository>/fuzz/<sub>
    return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "fuzz" / sub;
}
std::filesystem::path corpusDir() { return fuzzDir("corpus"); }

TEST(FuzzSeeds, EverySeedImportsWithoutFileAccess) {
    const auto dir = corpusDir();
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) GTEST_SKIP() << dir << " not found";
    ImportOptions options;
    options.allowExternalFiles = false;
    int seeds = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (!entry.is_regular_file()) continue;
        auto bytes = readFileBytes(entry.path());
        ASSERT_TRUE(bytes.ok()) << bytes.message();
        const auto r = importGltf(GltfSource{*bytes, dir, entry.path().filename().string()}, options);
        EXPECT_TRUE(imported(r)) << entry.path();
        ++seeds;
    }
    EXPECT_GE(seeds, 3);
}

// Inputs that once crashed the importer or produced an inconsistent model: each
// must now be rejected with located faults, or accepted as a consistent model.
TEST(FuzzRegressions, EveryFormerCrashIsHandled) {
    const auto dir = fuzzDir("regressions");
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) GTEST_SKIP() << dir << " not found";
    ImportOptions options;
    options.allowExternalFiles = false;
    options.decodeImages = true;  // one of them broke the image decoder
    int inputs = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (!entry.is_regular_file() || entry.path().extension() == ".md") continue;
        auto bytes = readFileBytes(entry.path());
        ASSERT_TRUE(bytes.ok()) << bytes.message();
        const std::string name = entry.path().filename().string();
        const auto r = importGltf(GltfSource{*bytes, dir, name}, options);
        if (r.ok()) {
            EXPECT_TRUE(findModelFaults(*r).empty()) << name << ": " << describe(findModelFaults(*r));
        } else {
            for (const Fault& f : r.faults()) EXPECT_EQ(f.where.rfind(name, 0), 0u) << describe(f);
        }
        ++inputs;
    }
    EXPECT_GE(inputs, 5);
}

}  // namespace
}  // namespace kinema::test
