// The render ids are distinct types: one kind is never accepted where another is
// expected, nor built silently from a bare integer; a default id is invalid.
#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

#include "kinema/render/catalogue.hpp"
#include "kinema/render/ids.hpp"

namespace {

using namespace kinema;

// Neither converts, constructs nor assigns from the other.
template <class A, class B>
constexpr bool unmixable() {
    return !std::is_convertible_v<A, B> && !std::is_convertible_v<B, A> && !std::is_constructible_v<A, B> &&
        !std::is_constructible_v<B, A> && !std::is_assignable_v<A&, B> && !std::is_assignable_v<B&, A>;
}

static_assert(unmixable<MeshId, ImageId>());
static_assert(unmixable<MeshId, TextureId>());
static_assert(unmixable<MeshId, MaterialId>());
static_assert(unmixable<MeshId, RenderObjectId>());
static_assert(unmixable<ImageId, TextureId>());
static_assert(unmixable<ImageId, MaterialId>());
static_assert(unmixable<ImageId, RenderObjectId>());
static_assert(unmixable<TextureId, MaterialId>());
static_assert(unmixable<TextureId, RenderObjectId>());
static_assert(unmixable<MaterialId, RenderObjectId>());

// An index becomes an id only when written out as one (MeshId{3}).
static_assert(!std::is_convertible_v<std::uint32_t, MeshId>);
static_assert(!std::is_convertible_v<MeshId, std::uint32_t>);
static_assert(!std::is_assignable_v<MeshId&, std::uint32_t>);

// A description's fields take only their own kind.
static_assert(!std::is_assignable_v<decltype(RenderObjectDesc::mesh)&, MaterialId>);
static_assert(!std::is_assignable_v<decltype(RenderObjectDesc::material)&, MeshId>);
static_assert(!std::is_assignable_v<decltype(TextureDesc::image)&, TextureId>);

// The catalogue's accessors answer with the entry of the id's own kind.
static_assert(std::is_same_v<decltype(std::declval<const RenderCatalogue&>().at(MeshId{})), const RenderMesh&>);
static_assert(std::is_same_v<decltype(std::declval<const RenderCatalogue&>().at(ImageId{})), const ImageRGBA8&>);
static_assert(std::is_same_v<decltype(std::declval<const RenderCatalogue&>().find(MaterialId{})), const MaterialDesc*>);

TEST(RenderIds, DefaultIdIsInvalid) {
    EXPECT_FALSE(MeshId{}.valid());
    EXPECT_FALSE(ImageId{}.valid());
    EXPECT_FALSE(TextureId{}.valid());
    EXPECT_FALSE(MaterialId{}.valid());
    EXPECT_FALSE(RenderObjectId{}.valid());
    EXPECT_EQ(MeshId{}.value, 0xFFFFFFFFu);
}

TEST(RenderIds, AnIndexWrittenAsAnIdIsValidAndComparesByValue) {
    EXPECT_TRUE(MeshId{0}.valid());
    EXPECT_EQ(MeshId{4}, MeshId{4});
    EXPECT_LT(MeshId{2}, MeshId{4});
    EXPECT_NE(MeshId{2}, MeshId{});
}

}  // namespace
