// RenderCatalogue: dense ids per kind, accessors, the revision that advances on
// every change (adds, assignments, being moved from) and the identity that no two
// catalogue objects share.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <set>
#include <utility>

#include "kinema/render/catalogue.hpp"

namespace {

using namespace kinema;

ImageRGBA8 pixel(std::uint8_t red) { return ImageRGBA8{1, 1, {red, 0, 0, 255}}; }

TEST(RenderCatalogue, StartsEmptyAtRevisionZero) {
    const RenderCatalogue c;
    EXPECT_EQ(c.revision(), 0u);
    EXPECT_TRUE(c.images().empty());
    EXPECT_TRUE(c.textures().empty());
    EXPECT_TRUE(c.materials().empty());
    EXPECT_TRUE(c.meshes().empty());
    EXPECT_TRUE(c.renderObjects().empty());
}

TEST(RenderCatalogue, EachKindNumbersItsEntriesFromZero) {
    RenderCatalogue c;
    EXPECT_EQ(c.addImage(pixel(1)), ImageId{0});
    EXPECT_EQ(c.addImage(pixel(2)), ImageId{1});
    EXPECT_EQ(c.addTexture({ImageId{1}}), TextureId{0});
    EXPECT_EQ(c.addMaterial({}), MaterialId{0});
    EXPECT_EQ(c.addMaterial({}), MaterialId{1});
    EXPECT_EQ(c.addMaterial({}), MaterialId{2});
    EXPECT_EQ(c.addMesh({}), MeshId{0});
    EXPECT_EQ(c.addRenderObject({MeshId{0}, MaterialId{2}}), RenderObjectId{0});
    EXPECT_EQ(c.images().size(), 2u);
    EXPECT_EQ(c.textures().size(), 1u);
    EXPECT_EQ(c.materials().size(), 3u);
    EXPECT_EQ(c.meshes().size(), 1u);
    EXPECT_EQ(c.renderObjects().size(), 1u);
}

TEST(RenderCatalogue, RevisionAdvancesByOneOnEveryAdd) {
    RenderCatalogue c;
    c.addImage(pixel(1));
    EXPECT_EQ(c.revision(), 1u);
    c.addTexture({ImageId{0}});
    EXPECT_EQ(c.revision(), 2u);
    c.addMaterial({});
    EXPECT_EQ(c.revision(), 3u);
    c.addMesh({});
    EXPECT_EQ(c.revision(), 4u);
    c.addRenderObject({MeshId{0}, MaterialId{0}});
    EXPECT_EQ(c.revision(), 5u);
    c.addImage(pixel(2));
    EXPECT_EQ(c.revision(), 6u);
}

TEST(RenderCatalogue, AtAndFindReturnTheEntryOfTheId) {
    RenderCatalogue c;
    c.addImage(pixel(10));
    const ImageId second = c.addImage(pixel(20));
    MaterialDesc red;
    red.baseColorFactor = {1.0f, 0.0f, 0.0f, 1.0f};
    const MaterialId material = c.addMaterial(red);
    EXPECT_EQ(c.at(second).pixels[0], 20);
    ASSERT_NE(c.find(second), nullptr);
    EXPECT_EQ(c.find(second)->pixels[0], 20);
    EXPECT_EQ(c.at(material).baseColorFactor[1], 0.0f);
    EXPECT_EQ(&c.at(second), &c.images()[1]);
}

TEST(RenderCatalogue, IdsPastTheEndAndInvalidIdsAreNotContained) {
    RenderCatalogue c;
    c.addImage(pixel(1));
    EXPECT_TRUE(c.contains(ImageId{0}));
    EXPECT_FALSE(c.contains(ImageId{1}));
    EXPECT_FALSE(c.contains(ImageId{}));
    EXPECT_EQ(c.find(ImageId{1}), nullptr);
    EXPECT_EQ(c.find(ImageId{}), nullptr);
    EXPECT_EQ(c.find(MeshId{0}), nullptr);
}

TEST(RenderCatalogue, EveryObjectHasItsOwnNonZeroIdentity) {
    const RenderCatalogue a;
    const RenderCatalogue b;
    EXPECT_NE(a.identity(), 0u);
    EXPECT_NE(b.identity(), 0u);
    EXPECT_NE(a.identity(), b.identity());
}

TEST(RenderCatalogue, ACatalogueBuiltWhereAnotherWasDestroyedHasANewIdentity) {
    std::optional<RenderCatalogue> slot;
    slot.emplace();
    const std::uint64_t first = slot->identity();
    const void* address = &*slot;
    slot.reset();
    slot.emplace();
    EXPECT_EQ(static_cast<const void*>(&*slot), address);  // the same storage, reused
    EXPECT_NE(slot->identity(), first);
}

TEST(RenderCatalogue, IdentitiesDoNotRepeatOverManyObjects) {
    std::set<std::uint64_t> seen;
    for (int i = 0; i < 1000; ++i) {
        const RenderCatalogue c;
        EXPECT_TRUE(seen.insert(c.identity()).second);
    }
}

TEST(RenderCatalogue, ACopyHasTheContentsAndRevisionUnderANewIdentity) {
    RenderCatalogue a;
    a.addImage(pixel(7));
    a.addMaterial({});
    const RenderCatalogue b = a;
    EXPECT_NE(b.identity(), a.identity());
    EXPECT_EQ(b.revision(), 2u);
    ASSERT_EQ(b.images().size(), 1u);
    EXPECT_EQ(b.images()[0].pixels[0], 7);
    EXPECT_EQ(b.materials().size(), 1u);
    EXPECT_EQ(a.revision(), 2u);  // the source is untouched
    EXPECT_EQ(a.images().size(), 1u);
}

TEST(RenderCatalogue, MovingGivesTheContentsAndAdvancesTheSourcesRevision) {
    RenderCatalogue a;
    a.addImage(pixel(7));
    a.addMesh({});
    a.addMesh({});
    const std::uint64_t identity = a.identity();
    const RenderCatalogue b = std::move(a);
    EXPECT_NE(b.identity(), identity);
    EXPECT_EQ(b.revision(), 3u);
    EXPECT_EQ(b.images().size(), 1u);
    EXPECT_EQ(b.meshes().size(), 2u);
    // The moved-from catalogue keeps its identity, holds nothing, and is at a revision
    // it never had before (3 adds, then the move).
    EXPECT_EQ(a.identity(), identity);  // the state after a move is specified
    EXPECT_EQ(a.revision(), 4u);
    EXPECT_TRUE(a.images().empty());
    EXPECT_TRUE(a.meshes().empty());
}

TEST(RenderCatalogue, MoveAssignmentAdvancesBothRevisions) {
    RenderCatalogue a;
    a.addImage(pixel(1));
    a.addImage(pixel(2));
    RenderCatalogue b;
    b.addMesh({});
    const std::uint64_t identityA = a.identity();
    const std::uint64_t identityB = b.identity();
    b = std::move(a);
    EXPECT_EQ(b.identity(), identityB);
    EXPECT_EQ(b.revision(), 2u);  // one add, then the assignment
    EXPECT_EQ(b.images().size(), 2u);
    EXPECT_TRUE(b.meshes().empty());
    EXPECT_EQ(a.identity(), identityA);
    EXPECT_EQ(a.revision(), 3u);  // two adds, then being moved from
    EXPECT_TRUE(a.images().empty());
}

TEST(RenderCatalogue, CopyAssignmentAdvancesTheDestinationsRevisionOnly) {
    RenderCatalogue a;
    a.addImage(pixel(1));
    RenderCatalogue b;
    b.addMesh({});
    b.addMesh({});
    const std::uint64_t identityB = b.identity();
    b = a;
    EXPECT_EQ(b.identity(), identityB);
    EXPECT_EQ(b.revision(), 3u);  // two adds, then the assignment
    EXPECT_EQ(b.images().size(), 1u);
    EXPECT_TRUE(b.meshes().empty());
    EXPECT_EQ(a.revision(), 1u);
}

TEST(RenderCatalogue, AssigningACatalogueToItselfChangesNothing) {
    RenderCatalogue a;
    a.addImage(pixel(1));
    RenderCatalogue& same = a;
    a = same;
    EXPECT_EQ(a.revision(), 1u);
    a = std::move(same);
    EXPECT_EQ(a.revision(), 1u);
    EXPECT_EQ(a.images().size(), 1u);
}

}  // namespace
