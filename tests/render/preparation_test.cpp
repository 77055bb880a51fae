// The render plan (what the drawn objects reach, each once, in id order) and the
// RenderPreparation cache (rebuilt only when catalogue identity, revision or the
// ordered draw sequence change).
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kinema/render/preparation.hpp"

namespace {

using namespace kinema;

ImageRGBA8 pixel() { return ImageRGBA8{1, 1, {255, 255, 255, 255}}; }

RenderMesh triangle() {
    RenderMesh m;
    m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    m.indices = {0, 1, 2};
    return m;
}

MaterialDesc textured(std::uint32_t texture) {
    MaterialDesc m;
    m.baseColorTexture = TextureId{texture};
    return m;
}

// images     0, 1 (used by no texture), 2
// textures   0 -> image 2, 1 -> image 2 (the two share it), 2 -> image 0, 3 -> image 0
// materials  0 -> texture 1, 1 -> texture 0, 2 -> texture 2, 3 -> texture 3
// meshes     0, 1, 2
// objects    0 {mesh 1, material 1}, 1 {mesh 0, material 0}, 2 {mesh 1, material 2},
//            3 {mesh 2, material 3}
// Drawing objects 2, 0, 1, 0 reaches meshes {1, 0, 1} -> 0, 1; materials {1, 0, 2}
// -> 0, 1, 2; textures {0, 1, 2}; images {2, 2, 0} -> 0, 2. Object 3, mesh 2,
// material 3, texture 3 and image 1 are not reached.
RenderCatalogue sharedImageCatalogue() {
    RenderCatalogue c;
    for (int i = 0; i < 3; ++i) c.addImage(pixel());
    c.addTexture({ImageId{2}});
    c.addTexture({ImageId{2}, TextureFilter::Nearest, TextureFilter::Nearest});
    c.addTexture({ImageId{0}});
    c.addTexture({ImageId{0}});
    c.addMaterial(textured(1));
    c.addMaterial(textured(0));
    c.addMaterial(textured(2));
    c.addMaterial(textured(3));
    for (int i = 0; i < 3; ++i) c.addMesh(triangle());
    c.addRenderObject({MeshId{1}, MaterialId{1}});
    c.addRenderObject({MeshId{0}, MaterialId{0}});
    c.addRenderObject({MeshId{1}, MaterialId{2}});
    c.addRenderObject({MeshId{2}, MaterialId{3}});
    return c;
}

const std::vector<RenderObjectId> kDraws{RenderObjectId{2}, RenderObjectId{0}, RenderObjectId{1}, RenderObjectId{0}};

std::vector<std::string> wheres(std::span<const Fault> faults) {
    std::vector<std::string> w;
    for (const Fault& f : faults) w.push_back(f.where);
    return w;
}

TEST(RenderPlan, ListsWhatTheDrawnObjectsReachEachOnceInIdOrder) {
    const RenderCatalogue c = sharedImageCatalogue();
    const auto plan = planRender(c, kDraws);
    ASSERT_TRUE(plan) << plan.message();
    EXPECT_EQ(plan->draws, kDraws);
    EXPECT_EQ(plan->objects, (std::vector<RenderObjectId>{RenderObjectId{0}, RenderObjectId{1}, RenderObjectId{2}}));
    EXPECT_EQ(plan->meshes, (std::vector<MeshId>{MeshId{0}, MeshId{1}}));
    EXPECT_EQ(plan->materials, (std::vector<MaterialId>{MaterialId{0}, MaterialId{1}, MaterialId{2}}));
    EXPECT_EQ(plan->textures, (std::vector<TextureId>{TextureId{0}, TextureId{1}, TextureId{2}}));
    EXPECT_EQ(plan->images, (std::vector<ImageId>{ImageId{0}, ImageId{2}}));
}

TEST(RenderPlan, TwoTexturesSharingAnImageListTheImageOnce) {
    const RenderCatalogue c = sharedImageCatalogue();
    // Objects 0 and 1 use materials 1 and 0, textures 0 and 1, both on image 2.
    const auto plan = planRender(c, std::vector<RenderObjectId>{RenderObjectId{1}, RenderObjectId{0}});
    ASSERT_TRUE(plan) << plan.message();
    EXPECT_EQ(plan->textures, (std::vector<TextureId>{TextureId{0}, TextureId{1}}));
    EXPECT_EQ(plan->images, (std::vector<ImageId>{ImageId{2}}));
}

TEST(RenderPlan, MaterialWithoutTextureReachesNoImage) {
    RenderCatalogue c;
    c.addImage(pixel());
    c.addMaterial({});
    c.addMesh(triangle());
    c.addRenderObject({MeshId{0}, MaterialId{0}});
    const auto plan = planRender(c, std::vector<RenderObjectId>{RenderObjectId{0}});
    ASSERT_TRUE(plan) << plan.message();
    EXPECT_EQ(plan->materials, std::vector<MaterialId>{MaterialId{0}});
    EXPECT_TRUE(plan->textures.empty());
    EXPECT_TRUE(plan->images.empty());
}

TEST(RenderPlan, NothingDrawnIsAnEmptyPlan) {
    const RenderCatalogue c = sharedImageCatalogue();
    const auto plan = planRender(c, {});
    ASSERT_TRUE(plan) << plan.message();
    EXPECT_TRUE(plan->draws.empty());
    EXPECT_TRUE(plan->objects.empty());
    EXPECT_TRUE(plan->meshes.empty());
    EXPECT_TRUE(plan->images.empty());
}

TEST(RenderPlan, DrawIdsOutOfRangeOrInvalidAreFaults) {
    const RenderCatalogue c = sharedImageCatalogue();
    const std::vector<RenderObjectId> draws{RenderObjectId{0}, RenderObjectId{4}, RenderObjectId{}};
    const auto plan = planRender(c, draws);
    ASSERT_FALSE(plan);
    EXPECT_EQ(wheres(plan.faults()), (std::vector<std::string>{"draws/1", "draws/2"}));
    EXPECT_EQ(plan.faults()[0].what, "render object 4 is out of range: the catalogue has 4 render objects");
}

TEST(RenderPlan, AnInvalidCatalogueGivesItsFaultsAndNoPlan) {
    RenderCatalogue c = sharedImageCatalogue();
    c.addImage({1, 1, {}});  // image 3: 0 bytes for 1 x 1 x 4; nothing uses it
    const auto plan = planRender(c, kDraws);
    ASSERT_FALSE(plan);
    EXPECT_EQ(wheres(plan.faults()), std::vector<std::string>{"images/3/pixels"});
}

// The example of docs/RENDER.md, as written there.
TEST(RenderPlan, TheDocumentedExampleGivesItsPlan) {
    kinema::RenderCatalogue catalogue;
    const kinema::ImageId image = catalogue.addImage({1, 1, {255, 255, 255, 255}});
    kinema::MaterialDesc white;
    white.baseColorTexture = catalogue.addTexture({image});
    const kinema::MaterialId material = catalogue.addMaterial(white);
    kinema::RenderMesh triangle;
    triangle.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    triangle.indices = {0, 1, 2};
    const kinema::RenderObjectId object = catalogue.addRenderObject({catalogue.addMesh(triangle), material});

    kinema::RenderPreparation preparation;
    const std::vector<kinema::RenderObjectId> draws{object};
    const auto& plan = preparation.prepare(catalogue, draws);
    ASSERT_TRUE(plan) << plan.message();
    EXPECT_EQ(plan->meshes, std::vector<MeshId>{MeshId{0}});
    EXPECT_EQ(plan->materials, std::vector<MaterialId>{MaterialId{0}});
    EXPECT_EQ(plan->textures, std::vector<TextureId>{TextureId{0}});
    EXPECT_EQ(plan->images, std::vector<ImageId>{ImageId{0}});
}

TEST(RenderPreparation, NothingPreparedIsGenerationZero) {
    const RenderPreparation cache;
    EXPECT_EQ(cache.generation(), 0u);
}

TEST(RenderPreparation, SameRevisionAndSameDrawsKeepTheGeneration) {
    const RenderCatalogue c = sharedImageCatalogue();
    RenderPreparation cache;
    const Result<RenderPlan>* first = &cache.prepare(c, kDraws);
    ASSERT_TRUE(*first);
    EXPECT_EQ(cache.generation(), 1u);
    const std::vector<RenderObjectId> sameAgain = kDraws;  // equal, in other storage
    const Result<RenderPlan>* second = &cache.prepare(c, sameAgain);
    EXPECT_EQ(cache.generation(), 1u);
    EXPECT_EQ(second, first);
    EXPECT_EQ((*second)->images, (std::vector<ImageId>{ImageId{0}, ImageId{2}}));
}

TEST(RenderPreparation, AddingAnUnusedImageRebuilds) {
    RenderCatalogue c = sharedImageCatalogue();
    RenderPreparation cache;
    ASSERT_TRUE(cache.prepare(c, kDraws));
    c.addImage(pixel());  // reached by nothing, but the revision moved
    const auto& plan = cache.prepare(c, kDraws);
    EXPECT_EQ(cache.generation(), 2u);
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->images, (std::vector<ImageId>{ImageId{0}, ImageId{2}}));
}

TEST(RenderPreparation, TheSameIdsInAnotherOrderRebuild) {
    const RenderCatalogue c = sharedImageCatalogue();
    RenderPreparation cache;
    ASSERT_TRUE(cache.prepare(c, kDraws));
    const std::vector<RenderObjectId> reordered{RenderObjectId{0}, RenderObjectId{2}, RenderObjectId{1},
                                                RenderObjectId{0}};
    const auto& plan = cache.prepare(c, reordered);
    EXPECT_EQ(cache.generation(), 2u);
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->draws, reordered);
}

TEST(RenderPreparation, ARepeatedDrawIsPartOfTheKey) {
    const RenderCatalogue c = sharedImageCatalogue();
    RenderPreparation cache;
    ASSERT_TRUE(cache.prepare(c, std::vector<RenderObjectId>{RenderObjectId{0}}));
    ASSERT_TRUE(cache.prepare(c, std::vector<RenderObjectId>{RenderObjectId{0}, RenderObjectId{0}}));
    EXPECT_EQ(cache.generation(), 2u);
}

TEST(RenderPreparation, OnlyTheLastKeyIsRemembered) {
    const RenderCatalogue c = sharedImageCatalogue();
    const std::vector<RenderObjectId> other{RenderObjectId{3}};
    RenderPreparation cache;
    ASSERT_TRUE(cache.prepare(c, kDraws));
    ASSERT_TRUE(cache.prepare(c, other));
    ASSERT_TRUE(cache.prepare(c, kDraws));
    EXPECT_EQ(cache.generation(), 3u);
}

TEST(RenderPreparation, AMovedFromCatalogueDoesNotHitTheCache) {
    RenderCatalogue c = sharedImageCatalogue();
    RenderPreparation cache;
    ASSERT_TRUE(cache.prepare(c, kDraws));
    RenderCatalogue moved = std::move(c);
    // The same object, the same draws: only the revision says the contents left.
    const auto& stale = cache.prepare(c, kDraws);
    EXPECT_EQ(cache.generation(), 2u);
    ASSERT_FALSE(stale);  // the emptied catalogue has no render object 0, 1 or 2
    EXPECT_EQ(wheres(stale.faults()), (std::vector<std::string>{"draws/0", "draws/1", "draws/2", "draws/3"}));
    // The destination is another catalogue object: a rebuild too.
    ASSERT_TRUE(cache.prepare(moved, kDraws));
    EXPECT_EQ(cache.generation(), 3u);
}

TEST(RenderPreparation, ACatalogueAssignedToRebuilds) {
    RenderCatalogue c = sharedImageCatalogue();
    RenderPreparation cache;
    ASSERT_TRUE(cache.prepare(c, kDraws));
    c = sharedImageCatalogue();  // equal contents, but it changed
    ASSERT_TRUE(cache.prepare(c, kDraws));
    EXPECT_EQ(cache.generation(), 2u);
}

TEST(RenderPreparation, AnEqualCatalogueAtTheSameAddressIsAnotherKey) {
    std::optional<RenderCatalogue> slot(sharedImageCatalogue());
    RenderPreparation cache;
    ASSERT_TRUE(cache.prepare(*slot, kDraws));
    const std::uint64_t revision = slot->revision();
    slot.reset();
    slot.emplace(sharedImageCatalogue());  // same storage, same contents, same revision
    ASSERT_EQ(slot->revision(), revision);
    ASSERT_TRUE(cache.prepare(*slot, kDraws));
    EXPECT_EQ(cache.generation(), 2u);
}

TEST(RenderPreparation, ACopyIsAnotherKey) {
    const RenderCatalogue c = sharedImageCatalogue();
    const RenderCatalogue copy = c;
    RenderPreparation cache;
    ASSERT_TRUE(cache.prepare(c, kDraws));
    ASSERT_TRUE(cache.prepare(copy, kDraws));
    EXPECT_EQ(cache.generation(), 2u);
}

TEST(RenderPreparation, FaultsAreRememberedUntilTheKeyChanges) {
    RenderCatalogue c = sharedImageCatalogue();
    c.addMesh(RenderMesh{});  // mesh 3: no vertices, no indices
    RenderPreparation cache;
    const auto& first = cache.prepare(c, kDraws);
    ASSERT_FALSE(first);
    EXPECT_EQ(wheres(first.faults()), (std::vector<std::string>{"meshes/3/positions", "meshes/3/indices"}));
    ASSERT_FALSE(cache.prepare(c, kDraws));
    EXPECT_EQ(cache.generation(), 1u);
    c = sharedImageCatalogue();  // repaired: the revision moves, validation runs again
    ASSERT_TRUE(cache.prepare(c, kDraws));
    EXPECT_EQ(cache.generation(), 2u);
}

}  // namespace
