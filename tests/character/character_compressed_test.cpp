// A character playing from a cooked file's compressed clips: what it shows is what the
// same character shows playing the clips those compressed forms rebuild (the model's
// clips as a cooked file gives them), to float rounding of the decoding, frame after
// frame, model matrices and skinned vertices; a list of compressed clips that does not
// fit the model is refused.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "kinema/character/character.hpp"
#include "kinema/io/cooked.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/runtime/clip_compression.hpp"
#include "support/assets.hpp"

namespace kinema {
namespace {

TEST(CharacterCompressed, PlaysAsTheClipsTheCompressedFormsRebuild) {
    KINEMA_REQUIRE_ASSET(path, "CesiumMan/CesiumMan.glb");
    auto model = importGltfFile(path);
    ASSERT_TRUE(model.ok()) << model.message();
    CookedModel source{*model, {}, {}};
    for (const Clip& clip : model->clips) source.compressedClips.push_back(compressClip(model->skeleton, clip).value());
    auto cooked = readCooked(cookModel(source), "CesiumMan.kinc");
    ASSERT_TRUE(cooked.ok()) << cooked.message();
    // The cooked model holds no meshes: skin the source's mesh with the cooked skeleton.
    cooked->model.meshes = model->meshes;
    cooked->model.meshInstances = model->meshInstances;

    auto fromFloats = Character::create(cooked->model);
    auto fromIntegers = Character::create(cooked->model, {.compressedClips = cooked->compressedClips});
    ASSERT_TRUE(fromFloats.ok()) << fromFloats.message();
    ASSERT_TRUE(fromIntegers.ok()) << fromIntegers.message();
    const std::string clip(cooked->model.clips[0].name());
    ASSERT_TRUE(fromFloats->play(clip));
    ASSERT_TRUE(fromIntegers->play(clip));
    for (int frame = 0; frame < 150; ++frame) {
        ASSERT_TRUE(fromFloats->update(1.0 / 60.0));
        ASSERT_TRUE(fromIntegers->update(1.0 / 60.0));
        const auto a = fromFloats->model(), b = fromIntegers->model();
        ASSERT_EQ(a.size(), b.size());
        for (std::size_t j = 0; j < a.size(); ++j) {
            for (std::size_t k = 0; k < 16; ++k)
                ASSERT_NEAR(a[j].m[k], b[j].m[k], 2e-5f) << "frame " << frame << " joint " << j;
        }
        const auto pa = fromFloats->skinnedPositions(0), pb = fromIntegers->skinnedPositions(0);
        ASSERT_EQ(pa.size(), pb.size());
        ASSERT_FALSE(pa.empty());
        for (std::size_t v = 0; v < pa.size(); v += 7) {
            ASSERT_NEAR(pa[v].x, pb[v].x, 2e-5f) << frame;
            ASSERT_NEAR(pa[v].y, pb[v].y, 2e-5f) << frame;
            ASSERT_NEAR(pa[v].z, pb[v].z, 2e-5f) << frame;
        }
    }
}

TEST(CharacterCompressed, CompressedClipsThatDoNotFitAreRefused) {
    KINEMA_REQUIRE_ASSET(path, "CesiumMan/CesiumMan.glb");
    auto model = importGltfFile(path);
    ASSERT_TRUE(model.ok()) << model.message();
    std::vector<CompressedClip> two(2);
    auto wrongCount = Character::create(*model, {.compressedClips = two});
    ASSERT_FALSE(wrongCount.ok());
    EXPECT_EQ(wrongCount.faults().front().where, "compressedClips");

    std::vector<CompressedClip> one{compressClip(model->skeleton, model->clips[0]).value()};
    one[0].samples += 1;
    auto damaged = Character::create(*model, {.compressedClips = one});
    ASSERT_FALSE(damaged.ok());
    EXPECT_EQ(damaged.faults().front().where, "compressedClips/0/compressed") << damaged.message();
}

}  // namespace
}  // namespace kinema
