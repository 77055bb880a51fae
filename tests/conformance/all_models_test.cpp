// Conformance: every shared sample model imports, is internally consistent, and
// samples every clip at its boundaries into finite model-space matrices.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "conformance/ref_gltf.hpp"
#include "kinema/asset/model.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/sample.hpp"
#include "support/assets.hpp"

namespace {

namespace fs = std::filesystem;

// Each model folder holds exactly one .gltf or .glb.
std::vector<fs::path> modelFiles(const fs::path& root, std::vector<std::string>& problems) {
    std::vector<fs::path> files;
    for (const auto& dir : fs::directory_iterator(root)) {
        if (!dir.is_directory() || dir.path().filename() == "LICENSES") continue;
        std::vector<fs::path> found;
        for (const auto& f : fs::directory_iterator(dir.path())) {
            const auto ext = f.path().extension();
            if (ext == ".gltf" || ext == ".glb") found.push_back(f.path());
        }
        if (found.size() != 1) {
            problems.push_back(dir.path().filename().string() + ": " + std::to_string(found.size()) +
                               " .gltf/.glb files");
            continue;
        }
        files.push_back(found.front());
    }
    std::sort(files.begin(), files.end());
    return files;
}

bool finite(const kinema::Transform& t) {
    const float v[] = {t.translation.x, t.translation.y, t.translation.z, t.rotation.x, t.rotation.y,
                       t.rotation.z,    t.rotation.w,    t.scale.x,       t.scale.y,    t.scale.z};
    return std::all_of(std::begin(v), std::end(v), [](float f) { return std::isfinite(f); });
}

bool finite(const kinema::Mat4& m) {
    return std::all_of(m.m.begin(), m.m.end(), [](float f) { return std::isfinite(f); });
}

TEST(AllModels, EveryModelImportsWithoutFaultsAndSamplesFinite) {
    const auto root = kinema::test::assetRoot();
    if (!root) GTEST_SKIP() << "shared assets not found (set KINEMA_ASSETS)";
    std::vector<std::string> problems;
    const auto files = modelFiles(*root, problems);
    EXPECT_TRUE(problems.empty()) << ::testing::PrintToString(problems);
    // CATALOG.md lists 13 models; fewer means the enumeration silently lost some.
    EXPECT_GE(files.size(), 13u);

    std::size_t clipsSampled = 0;
    for (const auto& file : files) {
        SCOPED_TRACE(file.filename().string());
        auto imported = kinema::importGltfFile(file);
        ASSERT_TRUE(imported.ok()) << imported.message();
        const kinema::Model& model = imported.value();

        const auto faults = kinema::findModelFaults(model);
        EXPECT_TRUE(faults.empty()) << kinema::describe(faults);

        // Counts against our own reading of the JSON: every node is a joint, every
        // animation (all channels here target nodes) is a clip, every mesh kept.
        const conformance::RefGltf ref = conformance::loadGltf(file);
        EXPECT_EQ(model.nodeCount(), ref.nodes.size());
        EXPECT_EQ(model.skeleton.jointCount(), ref.nodes.size());
        EXPECT_EQ(model.clips.size(), ref.animations.size());
        EXPECT_EQ(model.meshes.size(), ref.meshes.size());
        EXPECT_EQ(model.skins.size(), ref.skins.size());

        kinema::Pose pose = kinema::makeRestPose(model);
        ASSERT_EQ(pose.local.size(), model.skeleton.jointCount());
        for (const auto& clip : model.clips) {
            SCOPED_TRACE(std::string(clip.name()));
            const float d = clip.duration();
            EXPECT_GT(d, 0.0f);
            for (const float t : {0.0f, 0.5f * d, d, d + 0.75f, 10.0f * d + 3.0f}) {
                SCOPED_TRACE("t = " + std::to_string(t));
                kinema::resetToRest(model, pose);
                ASSERT_TRUE(kinema::reference::sample(clip, t, pose.local, pose.weights));
                kinema::reference::localToModel(model.skeleton.parents(), pose.local, pose.model);
                for (std::size_t j = 0; j < pose.local.size(); ++j) {
                    ASSERT_TRUE(finite(pose.local[j])) << "joint " << j;
                    ASSERT_TRUE(finite(pose.model[j])) << "joint " << j;
                }
                for (float w : pose.weights) ASSERT_TRUE(std::isfinite(w));
            }
            ++clipsSampled;
        }
    }
    // 9 clips in InterpolationTest plus one in each of the 10 other animated models.
    EXPECT_GE(clipsSampled, 19u);
}

}  // namespace
