// Conformance of the fast path on real files: every clip of every shared sample model,
// packed and sampled by the SIMD kernels of every instruction set this CPU runs, then
// composed by a PoseBatch, against the scalar reference path (reference::sample +
// localToModel + reference::skinPalette) at keys, between keys and outside the clip.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "support/batch_maker.hpp"
#include "kinema/batch/pose_batch.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/runtime/pose.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "kinema/runtime/sample.hpp"
#include "support/assets.hpp"

namespace {

namespace fs = std::filesystem;
using namespace kinema;

std::vector<fs::path> modelFiles(const fs::path& root) {
    std::vector<fs::path> files;
    for (const auto& dir : fs::directory_iterator(root)) {
        if (!dir.is_directory()) continue;
        for (const auto& f : fs::directory_iterator(dir.path())) {
            const auto ext = f.path().extension();
            if (ext == ".gltf" || ext == ".glb") files.push_back(f.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

// Times that visit every key, every interval's middle, and both sides of the clip.
std::vector<float> probeTimes(const Clip& clip) {
    std::vector<float> times{-0.25f, 0.0f, clip.duration(), clip.duration() + 0.5f};
    for (const Track& t : clip.tracks()) {
        for (std::size_t k = 0; k < t.times.size(); ++k) {
            times.push_back(t.times[k]);
            if (k + 1 < t.times.size()) times.push_back(0.5f * (t.times[k] + t.times[k + 1]));
        }
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    return times;
}

void expectNear(const Mat4& got, const Mat4& want, const std::string& where) {
    for (std::size_t e = 0; e < 16; ++e) {
        ASSERT_NEAR(got.m[e], want.m[e], 5e-5f * std::max(1.0f, std::fabs(want.m[e]))) << where << " element " << e;
    }
}

TEST(SimdOnSampleModels, EveryClipMatchesTheScalarPathAtEveryLevel) {
    const auto root = test::assetRoot();
    if (!root) GTEST_SKIP() << "shared assets not found (set KINEMA_ASSETS)";
    std::size_t clipsChecked = 0;
    for (const fs::path& file : modelFiles(*root)) {
        auto imported = importGltfFile(file);
        ASSERT_TRUE(imported.ok()) << file << ": " << imported.message();
        const Model& model = imported.value();
        const std::size_t joints = model.skeleton.jointCount();
        for (const Clip& clip : model.clips) {
            ++clipsChecked;
            const PackedClip packed(clip);
            for (const SimdLevel level : {SimdLevel::Portable, SimdLevel::Sse42, SimdLevel::Avx2, SimdLevel::Avx512}) {
                if (!isSupported(level)) continue;
                const PoseKernels kernels(level);
                PackedClipCursor cursor(packed);
                const SoaPose rest(model.skeleton.restPose(), model.restWeights);
                SoaPose pose(joints, model.restWeights.size());
                std::vector<Transform> local(joints);
                std::vector<float> weights(model.restWeights);
                std::vector<Mat4> want(joints), got(joints);
                for (const float t : probeTimes(clip)) {
                    const std::string where = file.filename().string() + " clip '" + std::string(clip.name()) + "' " +
                        std::string(toString(level)) + " t=" + std::to_string(t);
                    std::copy(model.skeleton.restPose().begin(), model.skeleton.restPose().end(), local.begin());
                    std::copy(model.restWeights.begin(), model.restWeights.end(), weights.begin());
                    ASSERT_TRUE(reference::sample(clip, t, local, weights)) << where;
                    ASSERT_TRUE(pose.assign(rest));
                    ASSERT_TRUE(kernels.sample(packed, t, cursor, pose)) << where;
                    for (std::size_t i = 0; i < weights.size(); ++i) {
                        ASSERT_NEAR(pose.weights()[i], weights[i], 1e-5f * std::max(1.0f, std::fabs(weights[i])))
                            << where << " weight " << i;
                    }
                    reference::localToModel(model.skeleton.parents(), local, want);
                    ASSERT_TRUE(kernels.localToModel(model.skeleton.parents(), pose, got));
                    for (std::size_t j = 0; j < joints; ++j)
                        expectNear(got[j], want[j], where + " joint " + std::to_string(j));
                }
            }

            // The batch path on the same clip: 5 instances at staggered looped times, with
            // every skin's palette.
            BatchOptions options;
            options.threads = 2;
            options.skins = model.skins;
            PoseBatch batch = test::makeBatch(model.skeleton, model.restWeights, 5, options);
            std::vector<InstanceRequest> inputs(5);
            for (std::size_t i = 0; i < inputs.size(); ++i) {
                inputs[i].layerCount = 1;
                inputs[i].layers[0] = {&packed, 0.37 * static_cast<double>(i) + 0.01, 1.0f, LoopMode::Loop};
            }
            ASSERT_TRUE(batch.evaluate(inputs).ok());
            std::vector<Transform> local(joints);
            std::vector<float> weights(model.restWeights);
            std::vector<Mat4> want(joints), palette;
            for (std::size_t i = 0; i < inputs.size(); ++i) {
                const std::string where = file.filename().string() + " batch instance " + std::to_string(i);
                std::copy(model.skeleton.restPose().begin(), model.skeleton.restPose().end(), local.begin());
                const double t = clipTime(inputs[i].layers[0].time, clip.duration(), LoopMode::Loop);
                ASSERT_TRUE(reference::sample(clip, t, local, weights));
                reference::localToModel(model.skeleton.parents(), local, want);
                for (std::size_t j = 0; j < joints; ++j)
                    expectNear(batch.model(i)[j], want[j], where + " joint " + std::to_string(j));
                for (std::size_t k = 0; k < model.skins.size(); ++k) {
                    palette.resize(model.skins[k].joints.size());
                    reference::skinPalette(model.skins[k], want, palette);
                    ASSERT_EQ(batch.palette(i, k).size(), palette.size());
                    for (std::size_t j = 0; j < palette.size(); ++j) {
                        expectNear(batch.palette(i, k)[j], palette[j],
                                   where + " skin " + std::to_string(k) + " palette " + std::to_string(j));
                    }
                }
            }
        }
    }
    EXPECT_GE(clipsChecked, 10u) << "fewer clips than the shared models hold: the enumeration lost some";
}

}  // namespace
