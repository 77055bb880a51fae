// Images are located at import and decoded to RGBA8 only on request, within limits:
// a hostile file can neither declare nor inflate its way to unbounded memory.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "kinema/io/gltf.hpp"
#include "kinema/io/image.hpp"
#include "support/assets.hpp"
#include "support/png_writer.hpp"

namespace {

using kinema::test::Bytes;
using kinema::test::png;
using kinema::test::zlibBomb;
using kinema::test::zlibStored;

// Pixel values from position alone, so the expected image needs no decoder.
std::array<std::uint8_t, 4> pixelAt(std::uint32_t x, std::uint32_t y) {
    return {static_cast<std::uint8_t>(x * 31 + y * 17), static_cast<std::uint8_t>((x * 7) ^ (y * 13)),
            static_cast<std::uint8_t>((x + y * 5) * 3), static_cast<std::uint8_t>(255 - x * y)};
}

// Scanlines with filter None on even rows and Sub on odd rows, so both are exercised.
Bytes scanlines(std::uint32_t width, std::uint32_t height, std::size_t channels) {
    Bytes raw;
    for (std::uint32_t y = 0; y < height; ++y) {
        Bytes row;
        for (std::uint32_t x = 0; x < width; ++x) {
            const auto p = pixelAt(x, y);
            row.insert(row.end(), p.begin(), p.begin() + static_cast<std::ptrdiff_t>(channels));
        }
        const bool sub = y % 2 == 1;
        raw.push_back(sub ? 1 : 0);
        for (std::size_t i = 0; i < row.size(); ++i) {
            raw.push_back(static_cast<std::uint8_t>(row[i] - (sub && i >= channels ? row[i - channels] : 0)));
        }
    }
    return raw;
}

std::span<const std::byte> asBytes(const Bytes& bytes) { return std::as_bytes(std::span(bytes)); }

// --- peak memory -------------------------------------------------------------------

long peakRssKiB() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

// Restarts the peak at the current resident size (Linux), so that the growth measured
// across one call is that call's own; where this is not allowed the growth is only
// what the call added above an earlier, higher peak.
void restartPeakRss() {
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";
}

// ------------------------------------------------------------------------------------

void expectPixels(const kinema::ImageRGBA8& image, std::uint32_t width, std::uint32_t height, bool opaque) {
    ASSERT_EQ(image.width, width);
    ASSERT_EQ(image.height, height);
    ASSERT_EQ(image.pixels.size(), std::size_t{width} * height * 4);
    for (std::uint32_t y = 0; y < height; ++y) {
        for (std::uint32_t x = 0; x < width; ++x) {
            auto expected = pixelAt(x, y);
            if (opaque) expected[3] = 255;
            const std::size_t at = (std::size_t{y} * width + x) * 4;
            for (std::size_t c = 0; c < 4; ++c) {
                ASSERT_EQ(image.pixels[at + c], expected[c]) << "pixel " << x << "," << y << " channel " << c;
            }
        }
    }
}

TEST(ImageDecodeBytes, RgbaPngDecodesToTheWrittenPixels) {
    const Bytes file = png(7, 5, 6, zlibStored(scanlines(7, 5, 4)));
    auto image = kinema::decodeImageBytes(asBytes(file), "rgba.png");
    ASSERT_TRUE(image) << image.message();
    expectPixels(*image, 7, 5, false);
}

// PNG allows an IDAT chunk with no data; it adds nothing to the image. (The decoder
// underneath cannot take one before the first chunk with data: they are dropped first.)
TEST(ImageDecodeBytes, EmptyImageDataChunksAddNothing) {
    Bytes file = png(7, 5, 6, zlibStored(scanlines(7, 5, 4)));
    // Length 0, "IDAT", and the CRC-32 of "IDAT" (0x35AF061E).
    const Bytes empty = {0, 0, 0, 0, 'I', 'D', 'A', 'T', 0x35, 0xAF, 0x06, 0x1E};
    const std::size_t afterHeader = 8 + 12 + 13;  // signature, IHDR (13 bytes of data)
    ASSERT_EQ(file[afterHeader + 4], 'I');
    ASSERT_EQ(file[afterHeader + 5], 'D');  // the IDAT with the data
    const std::size_t dataLength = std::size_t{file[afterHeader]} << 24 | std::size_t{file[afterHeader + 1]} << 16 |
        std::size_t{file[afterHeader + 2]} << 8 | file[afterHeader + 3];
    file.insert(file.begin() + static_cast<std::ptrdiff_t>(afterHeader + 12 + dataLength), empty.begin(), empty.end());
    file.insert(file.begin() + static_cast<std::ptrdiff_t>(afterHeader), empty.begin(), empty.end());
    auto image = kinema::decodeImageBytes(asBytes(file), "empty-idat.png");
    ASSERT_TRUE(image) << image.message();
    expectPixels(*image, 7, 5, false);
}

TEST(ImageDecodeBytes, RgbPngDecodesOpaque) {
    const Bytes file = png(6, 4, 2, zlibStored(scanlines(6, 4, 3)));
    auto image = kinema::decodeImageBytes(asBytes(file), "rgb.png");
    ASSERT_TRUE(image) << image.message();
    expectPixels(*image, 6, 4, true);
}

TEST(ImageDecodeBytes, UnknownFormatsAndCorruptDataAreFaults) {
    const Bytes gif{'G', 'I', 'F', '8', '9', 'a', 1, 0, 1, 0, 0, 0, 0};
    auto unknown = kinema::decodeImageBytes(asBytes(gif), "a.gif");
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.message().find("a.gif: cannot decode image: unknown format"), std::string::npos)
        << unknown.message();
    // BMP is a format stb_image can read, but not one of glTF's.
    const Bytes bmp{'B', 'M', 0, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0};
    EXPECT_FALSE(kinema::decodeImageBytes(asBytes(bmp), "a.bmp"));
    EXPECT_FALSE(kinema::decodeImageBytes({}, "empty"));
    // A PNG cut inside its image data.
    Bytes cut = png(7, 5, 6, zlibStored(scanlines(7, 5, 4)));
    cut.resize(cut.size() - 40);
    auto corrupt = kinema::decodeImageBytes(asBytes(cut), "cut.png");
    ASSERT_FALSE(corrupt);
    EXPECT_NE(corrupt.message().find("cannot decode image"), std::string::npos) << corrupt.message();
    // Cut after the header: the message still gives a reason.
    Bytes header = png(7, 5, 6, zlibStored(scanlines(7, 5, 4)));
    header.resize(33);
    auto short33 = kinema::decodeImageBytes(asBytes(header), "cut33.png");
    ASSERT_FALSE(short33);
    EXPECT_EQ(short33.message().find("cannot decode image: \n"), std::string::npos) << short33.message();
    EXPECT_NE(short33.message().back(), ' ') << short33.message();
    // The decoder's short codes come in plain words: a cut file says it is cut short.
    EXPECT_NE(corrupt.message().find("cut short"), std::string::npos) << corrupt.message();
    EXPECT_NE(short33.message().find("cut short"), std::string::npos) << short33.message();
}

// A 20000 x 20000 header over a few bytes of data: refused from the header alone.
TEST(ImageDecodeBytes, DeclaredSizeOverThePixelLimitIsRefusedWithoutAllocating) {
    const Bytes file = png(20000, 20000, 6, Bytes{0x78, 0x01, 0x01, 0x00, 0x00, 0xff, 0xff});
    restartPeakRss();
    const long before = peakRssKiB();
    const auto start = std::chrono::steady_clock::now();
    auto image = kinema::decodeImageBytes(asBytes(file), "bomb.png");
    const auto elapsed = std::chrono::steady_clock::now() - start;
    const long grown = peakRssKiB() - before;
    ASSERT_FALSE(image);
    EXPECT_EQ(image.message(),
              "bomb.png: image is 20000 x 20000 = 400000000 pixels, over the limit of 67108864 pixels");
    EXPECT_LT(grown, 50 * 1024) << "peak RSS grew by " << grown << " KiB";
    EXPECT_LT(elapsed, std::chrono::seconds(1));
    std::cout << "[ measure  ] peak RSS growth " << grown << " KiB\n";

    // Within the pixel limit, the RGBA8 size is still checked against the byte limit.
    auto bytes = kinema::decodeImageBytes(asBytes(file), "bomb.png", {.maxPixels = std::uint64_t{1} << 40});
    ASSERT_FALSE(bytes);
    EXPECT_EQ(
        bytes.message(),
        "bomb.png: image is 20000 x 20000 pixels = 1600000000 bytes as RGBA8, over the limit of 1073741824 bytes");
}

// A 1 x 1 image whose data inflates to 64 MiB (a PNG of about 400 KB).
TEST(ImageDecodeBytes, InflationPastTheByteLimitIsRefused) {
    const std::array<std::uint8_t, 4> pixel{10, 20, 30, 40};
    const Bytes file = png(1, 1, 6, zlibBomb({0, pixel[0], pixel[1], pixel[2], pixel[3]}, std::size_t{64} << 20));
    EXPECT_LT(file.size(), std::size_t{500} << 10);

    restartPeakRss();
    const long before = peakRssKiB();
    auto refused = kinema::decodeImageBytes(asBytes(file), "inflate.png", {.maxBytes = std::size_t{8} << 20});
    const long grown = peakRssKiB() - before;
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.message(), "inflate.png: decoding the image needs more than the limit of 8388608 bytes");
    EXPECT_LT(grown, 20 * 1024) << "peak RSS grew by " << grown << " KiB";
    std::cout << "[ measure  ] peak RSS growth " << grown << " KiB\n";

    // Within the default limit stb_image inflates it all and ignores the data past the
    // one row it needs: the pixel is the one written.
    auto image = kinema::decodeImageBytes(asBytes(file), "inflate.png");
    ASSERT_TRUE(image) << image.message();
    ASSERT_EQ(image->pixels.size(), 4u);
    EXPECT_EQ(image->pixels, (std::vector<std::uint8_t>{pixel.begin(), pixel.end()}));
}

TEST(ImageDecodeBytes, ImageOfExactlyMaxPixelsDecodesAndOneMoreIsRefused) {
    const kinema::ImageLimits limits{.maxPixels = 64 * 64};
    const Bytes exact = png(64, 64, 6, zlibStored(scanlines(64, 64, 4)));
    auto image = kinema::decodeImageBytes(asBytes(exact), "exact.png", limits);
    ASSERT_TRUE(image) << image.message();
    expectPixels(*image, 64, 64, false);

    const Bytes over = png(4097, 1, 6, zlibStored(scanlines(4097, 1, 4)));
    auto refused = kinema::decodeImageBytes(asBytes(over), "over.png", limits);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.message(), "over.png: image is 4097 x 1 = 4097 pixels, over the limit of 4096 pixels");
    EXPECT_TRUE(kinema::decodeImageBytes(asBytes(over), "over.png", {.maxPixels = 4097}));

    // The RGBA8 size against maxBytes, from the header as well.
    auto bytes = kinema::decodeImageBytes(asBytes(exact), "exact.png", {.maxBytes = 64 * 64 * 4 - 1});
    ASSERT_FALSE(bytes);
    EXPECT_EQ(bytes.message(),
              "exact.png: image is 64 x 64 pixels = 16384 bytes as RGBA8, over the limit of 16383 bytes");
}

// The budget belongs to the call: a refused decode on one thread does not limit a
// decode on another, and both get their own failure reason.
TEST(ImageDecodeBytes, ConcurrentDecodesKeepTheirOwnBudgets) {
    const Bytes bomb = png(1, 1, 6, zlibBomb({0, 1, 2, 3, 4}, std::size_t{16} << 20));
    const Bytes good = png(7, 5, 6, zlibStored(scanlines(7, 5, 4)));
    Bytes cut = good;
    cut.resize(cut.size() - 40);
    bool bombsRefused = true, goodDecoded = true, cutReported = true;
    std::thread tight([&] {
        for (int i = 0; i < 20; ++i) {
            auto r = kinema::decodeImageBytes(asBytes(bomb), "bomb.png", {.maxBytes = std::size_t{1} << 20});
            bombsRefused = bombsRefused && !r && r.message().find("limit of 1048576 bytes") != std::string::npos;
        }
    });
    std::thread loose([&] {
        for (int i = 0; i < 20; ++i) {
            auto r = kinema::decodeImageBytes(asBytes(good), "good.png");
            goodDecoded = goodDecoded && r && r->pixels.size() == 7u * 5u * 4u;
            auto c = kinema::decodeImageBytes(asBytes(cut), "cut.png");
            cutReported = cutReported && !c && c.message().find("cannot decode image") != std::string::npos;
        }
    });
    tight.join();
    loose.join();
    EXPECT_TRUE(bombsRefused);
    EXPECT_TRUE(goodDecoded);
    EXPECT_TRUE(cutReported);
}

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

// The limits apply to JPEG, and reach decodeImage.
TEST(ImageDecode, LimitsApplyToAModelsJpeg) {
    KINEMA_REQUIRE_ASSET(file, "CesiumMan/CesiumMan.glb");
    auto model = kinema::importGltfFile(file);
    ASSERT_TRUE(model) << model.message();
    auto pixels = kinema::decodeImage(*model, 0, {.maxPixels = 1024 * 1024 - 1});
    ASSERT_FALSE(pixels);
    EXPECT_NE(
        pixels.message().find("#/images/0: image is 1024 x 1024 = 1048576 pixels, over the limit of 1048575 pixels"),
        std::string::npos)
        << pixels.message();
    // Output fits, but the decoder's working buffers do not.
    auto bytes = kinema::decodeImage(*model, 0, {.maxBytes = 1024 * 1024 * 4});
    ASSERT_FALSE(bytes);
    EXPECT_NE(bytes.message().find("decoding the image needs more than the limit of 4194304 bytes"), std::string::npos)
        << bytes.message();
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

// An external image's faults name its file (the location names only the image),
// and a byte limit is reported as the caller gave it.
TEST(ImageDecode, FaultsOfAnExternalImageNameItsFile) {
    KINEMA_REQUIRE_ASSET(file, "AnimatedCube/AnimatedCube.gltf");
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("kinema_image_faults_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const char* name : {"AnimatedCube.gltf", "AnimatedCube.bin", "AnimatedCube_BaseColor.png",
                             "AnimatedCube_MetallicRoughness.png"}) {
        fs::copy_file(file.parent_path() / name, dir / name);
    }
    auto model = kinema::importGltfFile(dir / "AnimatedCube.gltf");
    ASSERT_TRUE(model) << model.message();
    std::size_t color = model->images.size();
    for (std::size_t i = 0; i < model->images.size(); ++i) {
        if (model->images[i].uri == "AnimatedCube_BaseColor.png") color = i;
    }
    ASSERT_LT(color, model->images.size());
    const std::string where = model->source + "#/images/" + std::to_string(color);

    // The caller's limit, not what is left of it once the file is read.
    const std::size_t limit = 512 * 512 * 4 + 1000;
    const auto tight = kinema::decodeImage(*model, color, {.maxBytes = limit});
    ASSERT_FALSE(tight);
    EXPECT_NE(tight.message().find("AnimatedCube_BaseColor.png"), std::string::npos) << tight.message();
    EXPECT_NE(tight.message().find("limit of " + std::to_string(limit) + " bytes"), std::string::npos)
        << tight.message();

    fs::resize_file(dir / "AnimatedCube_BaseColor.png", fs::file_size(dir / "AnimatedCube_BaseColor.png") / 2);
    const auto cut = kinema::decodeImage(*model, color);
    ASSERT_FALSE(cut);
    EXPECT_EQ(cut.message().rfind(where + ": image file AnimatedCube_BaseColor.png: cannot decode image: ", 0), 0u)
        << cut.message();
    EXPECT_NE(cut.message().find("cut short"), std::string::npos) << cut.message();

    fs::resize_file(dir / "AnimatedCube_BaseColor.png", 0);
    const auto empty = kinema::decodeImage(*model, color);
    ASSERT_FALSE(empty);
    EXPECT_EQ(empty.message(), where + ": image file AnimatedCube_BaseColor.png is empty");
    fs::remove_all(dir);
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
