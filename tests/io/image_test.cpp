// Images are located at import and decoded to RGBA8 only on request.
#include <gtest/gtest.h>

#include "kinema/io/gltf.hpp"
#include "kinema/io/image.hpp"
#include "support/assets.hpp"

namespace {

// CesiumMan embeds a 1024 x 1024 JPEG in a bufferView (CATALOG.md).
TEST(ImageDecode, EmbeddedJpegDecodesOnRequest) {
    KINEMA_REQUIRE_ASSET(file, "CesiumMan/CesiumMan.glb");
    auto model = kinema::importGltfFile(file);
    ASSERT_TRUE(model) << model.message();
    ASSERT_EQ(model->images.size(), 1u);
    EXPECT_EQ(model->images[0].mimeType, "image/jpeg");
    EXPECT_GE(model->images[0].buffer, 0);
    auto image = kinema::decodeImage(*model, 0);
    ASSERT_TRUE(image) << image.message();
    EXPECT_EQ(image->width, 1024u);
    EXPECT_EQ(image->height, 1024u);
    EXPECT_EQ(image->pixels.size(), 1024u * 1024u * 4u);
}

// AnimatedCube's base colour is an external 512 x 512 PNG next to the .gltf.
TEST(ImageDecode, ExternalPngResolvesAgainstTheModelFolder) {
    KINEMA_REQUIRE_ASSET(file, "AnimatedCube/AnimatedCube.gltf");
    auto model = kinema::importGltfFile(file);
    ASSERT_TRUE(model) << model.message();
    ASSERT_EQ(model->images.size(), 2u);
    ASSERT_EQ(model->materials.size(), 1u);
    ASSERT_TRUE(model->materials[0].baseColorTexture.has_value());
    const auto texture = model->materials[0].baseColorTexture->texture;
    const auto imageIndex = static_cast<std::size_t>(model->textures[texture].image);
    EXPECT_EQ(model->images[imageIndex].uri, "AnimatedCube_BaseColor.png");
    auto image = kinema::decodeImage(*model, imageIndex);
    ASSERT_TRUE(image) << image.message();
    EXPECT_EQ(image->width, 512u);
    EXPECT_EQ(image->height, 512u);
    // Every decoded pixel is opaque: the PNG has no transparency.
    for (std::size_t p = 3; p < image->pixels.size(); p += 4) ASSERT_EQ(image->pixels[p], 255);
}

TEST(ImageDecode, OutOfRangeIndexAndCorruptBytesAreFaults) {
    KINEMA_REQUIRE_ASSET(file, "CesiumMan/CesiumMan.glb");
    auto model = kinema::importGltfFile(file);
    ASSERT_TRUE(model) << model.message();
    auto missing = kinema::decodeImage(*model, 5);
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.message().find("#/images/5"), std::string::npos);
    // The same image pointed at bytes that are not an image.
    kinema::Model broken = *model;
    broken.images[0].byteLength = 16;
    auto corrupt = kinema::decodeImage(broken, 0);
    ASSERT_FALSE(corrupt);
    EXPECT_NE(corrupt.message().find("cannot decode image"), std::string::npos);
}

}  // namespace
