// The PNG and GIF writers, checked through independent decoders: stb_image (by way of
// decodeImageBytes) for PNG, giflib's own decoder (DGifSlurp) for GIF. Expected pixels,
// delays and messages are written out by hand or come from closed forms.
#include <gif_lib.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "kinema/io/image.hpp"
#include "kinema/io/image_write.hpp"

namespace {

using kinema::GifOptions;
using kinema::ImageRGBA8;
using Rgba = std::array<std::uint8_t, 4>;

ImageRGBA8 makeImage(std::uint32_t width, std::uint32_t height,
                     const std::function<Rgba(std::uint32_t, std::uint32_t)>& at) {
    ImageRGBA8 image{width, height, {}};
    image.pixels.reserve(std::size_t{width} * height * 4);
    for (std::uint32_t y = 0; y < height; ++y) {
        for (std::uint32_t x = 0; x < width; ++x) {
            const Rgba p = at(x, y);
            image.pixels.insert(image.pixels.end(), p.begin(), p.end());
        }
    }
    return image;
}

ImageRGBA8 flat(std::uint32_t width, std::uint32_t height, Rgba colour) {
    return makeImage(width, height, [&](std::uint32_t, std::uint32_t) { return colour; });
}

Rgba pixel(const ImageRGBA8& image, std::uint32_t x, std::uint32_t y) {
    const std::size_t at = (std::size_t{y} * image.width + x) * 4;
    return {image.pixels[at], image.pixels[at + 1], image.pixels[at + 2], image.pixels[at + 3]};
}

std::string firstMessage(const kinema::Result<std::vector<std::byte>>& result) {
    return result.ok() ? std::string("(no fault)") : kinema::describe(result.faults()[0]);
}

// --- PNG

TEST(EncodePng, RoundTripsBitExactIncludingAlpha) {
    // Every alpha from 0 to 255 appears, with colours that differ from their neighbours
    // (so the encoder's filters have work) and colours under alpha 0 that must survive.
    const ImageRGBA8 image = makeImage(37, 23, [](std::uint32_t x, std::uint32_t y) {
        return Rgba{static_cast<std::uint8_t>(x * 29 + y * 3), static_cast<std::uint8_t>((x * 7) ^ (y * 11)),
                    static_cast<std::uint8_t>(255 - x - y), static_cast<std::uint8_t>((y * 37 + x) % 256)};
    });
    const auto png = kinema::encodePng(image);
    ASSERT_TRUE(png.ok()) << png.message();
    const std::array<unsigned char, 8> signature{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    ASSERT_GE(png->size(), signature.size());
    EXPECT_EQ(std::memcmp(png->data(), signature.data(), signature.size()), 0);

    const auto decoded = kinema::decodeImageBytes(*png, "written.png");
    ASSERT_TRUE(decoded.ok()) << decoded.message();
    EXPECT_EQ(decoded->width, 37u);
    EXPECT_EQ(decoded->height, 23u);
    EXPECT_EQ(decoded->pixels, image.pixels);
}

TEST(EncodePng, OnePixelAndOneRowRoundTrip) {
    for (const ImageRGBA8& image : {flat(1, 1, {1, 2, 3, 4}), makeImage(300, 1, [](std::uint32_t x, std::uint32_t) {
                                        return Rgba{static_cast<std::uint8_t>(x), 0, 255, 128};
                                    })}) {
        const auto png = kinema::encodePng(image);
        ASSERT_TRUE(png.ok()) << png.message();
        const auto decoded = kinema::decodeImageBytes(*png, "written.png");
        ASSERT_TRUE(decoded.ok()) << decoded.message();
        EXPECT_EQ(decoded->width, image.width);
        EXPECT_EQ(decoded->pixels, image.pixels);
    }
}

TEST(EncodePng, RefusesImagesWithoutPixelsOrWithWrongBufferSize) {
    EXPECT_EQ(firstMessage(kinema::encodePng(ImageRGBA8{0, 4, {}})), "image: size 0x4 has no pixels");
    EXPECT_EQ(firstMessage(kinema::encodePng(ImageRGBA8{3, 0, {}})), "image: size 3x0 has no pixels");
    EXPECT_EQ(firstMessage(kinema::encodePng(ImageRGBA8{2, 2, std::vector<std::uint8_t>(12)})),
              "image: pixels hold 12 bytes, not 2 x 2 x 4 = 16");
    EXPECT_EQ(firstMessage(kinema::encodePng(ImageRGBA8{2, 2, std::vector<std::uint8_t>(17)})),
              "image: pixels hold 17 bytes, not 2 x 2 x 4 = 16");
    // Declared far larger than the buffer: refused before anything is allocated.
    EXPECT_EQ(firstMessage(kinema::encodePng(ImageRGBA8{100000, 100000, {}})),
              "image: pixels hold 0 bytes, not 100000 x 100000 x 4 = 40000000000");
}

// --- GIF, decoded by giflib

struct DecodedGif {
    int width = 0, height = 0;
    std::vector<std::array<std::uint8_t, 3>> colourMap;
    struct Frame {
        std::vector<std::uint8_t> indices;  // width * height, rows top to bottom
        int delay = -1;                     // centiseconds
        int transparentIndex = NO_TRANSPARENT_COLOR;
        int disposal = DISPOSAL_UNSPECIFIED;
        bool fullCanvas = false;
        bool localColourMap = false;
    };
    std::vector<Frame> frames;
    bool loops = false;
    int loopCount = -1;

    // The colour a viewer shows for frame f at (x, y): alpha 0 where transparent.
    Rgba rgba(std::size_t f, std::size_t x, std::size_t y) const {
        const std::uint8_t index = frames[f].indices[y * static_cast<std::size_t>(width) + x];
        if (index == frames[f].transparentIndex) return {0, 0, 0, 0};
        const auto& c = colourMap.at(index);
        return {c[0], c[1], c[2], 255};
    }
};

struct Reader {
    std::span<const std::byte> bytes;
    std::size_t at = 0;
};

int readGif(GifFileType* gif, GifByteType* out, int wanted) {
    auto* reader = static_cast<Reader*>(gif->UserData);
    const std::size_t n = std::min(static_cast<std::size_t>(wanted), reader->bytes.size() - reader->at);
    std::memcpy(out, reader->bytes.data() + reader->at, n);
    reader->at += n;
    return static_cast<int>(n);
}

struct GifDecoderCloser {
    void operator()(GifFileType* gif) const { DGifCloseFile(gif, nullptr); }
};

// Fails the test (returning nothing useful) when giflib cannot read the bytes.
DecodedGif decodeGif(std::span<const std::byte> bytes) {
    DecodedGif out;
    Reader reader{bytes};
    int error = 0;
    std::unique_ptr<GifFileType, GifDecoderCloser> gif(DGifOpen(&reader, readGif, &error));
    if (!gif) {
        ADD_FAILURE() << "DGifOpen: " << GifErrorString(error);
        return out;
    }
    if (DGifSlurp(gif.get()) != GIF_OK) {
        ADD_FAILURE() << "DGifSlurp: " << GifErrorString(gif->Error);
        return out;
    }
    EXPECT_EQ(std::memcmp(bytes.data(), "GIF89a", 6), 0);
    out.width = gif->SWidth;
    out.height = gif->SHeight;
    if (gif->SColorMap) {
        for (int i = 0; i < gif->SColorMap->ColorCount; ++i) {
            const GifColorType c = gif->SColorMap->Colors[i];
            out.colourMap.push_back({c.Red, c.Green, c.Blue});
        }
    }
    for (int i = 0; i < gif->ImageCount; ++i) {
        const SavedImage& image = gif->SavedImages[i];
        DecodedGif::Frame frame;
        const GifImageDesc& desc = image.ImageDesc;
        frame.fullCanvas = desc.Left == 0 && desc.Top == 0 && desc.Width == out.width && desc.Height == out.height;
        frame.localColourMap = desc.ColorMap != nullptr;
        const std::size_t count = static_cast<std::size_t>(desc.Width) * static_cast<std::size_t>(desc.Height);
        frame.indices.assign(image.RasterBits, image.RasterBits + count);
        GraphicsControlBlock control{};
        if (DGifSavedExtensionToGCB(gif.get(), i, &control) == GIF_OK) {
            frame.delay = control.DelayTime;
            frame.transparentIndex = control.TransparentColor;
            frame.disposal = control.DisposalMode;
        }
        // NETSCAPE2.0: an application block named so, then a sub-block {1, count lo, count hi}.
        for (int e = 0; e + 1 < image.ExtensionBlockCount; ++e) {
            const ExtensionBlock& block = image.ExtensionBlocks[e];
            const ExtensionBlock& next = image.ExtensionBlocks[e + 1];
            if (block.Function == APPLICATION_EXT_FUNC_CODE && block.ByteCount == 11 &&
                std::memcmp(block.Bytes, "NETSCAPE2.0", 11) == 0 && next.Function == CONTINUE_EXT_FUNC_CODE &&
                next.ByteCount == 3 && next.Bytes[0] == 1) {
                out.loops = true;
                out.loopCount = next.Bytes[1] | next.Bytes[2] << 8;
            }
        }
        out.frames.push_back(std::move(frame));
    }
    return out;
}

// Four quadrants of one colour each.
ImageRGBA8 quadrants(std::uint32_t size, const std::array<Rgba, 4>& colours) {
    return makeImage(size, size, [&](std::uint32_t x, std::uint32_t y) {
        return colours[(y < size / 2 ? 0u : 2u) + (x < size / 2 ? 0u : 1u)];
    });
}

TEST(EncodeGif, FrameCountDelaysAndLoopAt30Fps) {
    std::vector<ImageRGBA8> frames;
    for (std::uint8_t i = 0; i < 10; ++i) frames.push_back(flat(8, 6, {static_cast<std::uint8_t>(i * 20), 0, 0, 255}));
    const auto gif = kinema::encodeGif(frames);
    ASSERT_TRUE(gif.ok()) << gif.message();
    const DecodedGif decoded = decodeGif(*gif);
    EXPECT_EQ(decoded.width, 8);
    EXPECT_EQ(decoded.height, 6);
    ASSERT_EQ(decoded.frames.size(), 10u);
    // Frame i starts at round(i * 10 / 3) cs: 0, 3, 7, 10, 13, 17, 20, 23, 27, 30 and ends at 33.
    const std::vector<int> expected{3, 4, 3, 3, 4, 3, 3, 4, 3, 3};
    std::vector<int> delays;
    for (const auto& frame : decoded.frames) delays.push_back(frame.delay);
    EXPECT_EQ(delays, expected);
    EXPECT_TRUE(decoded.loops);
    EXPECT_EQ(decoded.loopCount, 0);  // forever
    for (std::size_t f = 0; f < decoded.frames.size(); ++f) {
        EXPECT_TRUE(decoded.frames[f].fullCanvas);
        EXPECT_FALSE(decoded.frames[f].localColourMap);
        EXPECT_EQ(decoded.frames[f].transparentIndex, NO_TRANSPARENT_COLOR);
        EXPECT_EQ(decoded.rgba(f, 7, 5), (Rgba{static_cast<std::uint8_t>(f * 20), 0, 0, 255}));
    }
}

TEST(EncodeGif, DelaysSumToTheDurationWithinOneCentisecond) {
    struct Case {
        double fps;
        std::size_t frames;
        int lowDelay;  // every delay is floor(100 / fps) or one more
    };
    for (const Case c :
         {Case{30, 60, 3}, Case{30, 61, 3}, Case{24, 24, 4}, Case{60, 7, 1}, Case{12.5, 5, 8}, Case{7, 30, 14}}) {
        std::vector<ImageRGBA8> frames(c.frames, flat(2, 2, {9, 9, 9, 255}));
        const auto gif = kinema::encodeGif(frames, GifOptions{c.fps, true});
        ASSERT_TRUE(gif.ok()) << gif.message();
        const DecodedGif decoded = decodeGif(*gif);
        ASSERT_EQ(decoded.frames.size(), c.frames);
        int sum = 0;
        for (const auto& frame : decoded.frames) {
            EXPECT_TRUE(frame.delay == c.lowDelay || frame.delay == c.lowDelay + 1)
                << frame.delay << " at " << c.fps << " fps";
            sum += frame.delay;
        }
        const double exact = static_cast<double>(c.frames) * 100.0 / c.fps;
        EXPECT_LE(std::abs(sum - exact), 1.0) << c.fps << " fps, " << c.frames << " frames: " << sum << " cs";
    }
    // 12.5 fps is exactly 8 cs a frame; 60 fps gives 1 or 2 (1.67 cs a frame).
}

TEST(EncodeGif, WithoutLoopHasNoLoopExtension) {
    const std::vector<ImageRGBA8> frames(3, flat(4, 4, {1, 2, 3, 255}));
    const auto gif = kinema::encodeGif(frames, GifOptions{30, false});
    ASSERT_TRUE(gif.ok()) << gif.message();
    const DecodedGif decoded = decodeGif(*gif);
    EXPECT_EQ(decoded.frames.size(), 3u);
    EXPECT_FALSE(decoded.loops);
    const std::string text(reinterpret_cast<const char*>(gif->data()), gif->size());
    EXPECT_EQ(text.find("NETSCAPE2.0"), std::string::npos);
}

TEST(EncodeGif, FourFlatColoursDecodeExactly) {
    const std::array<Rgba, 4> colours{Rgba{255, 0, 0, 255}, Rgba{0, 255, 0, 255}, Rgba{0, 0, 255, 255},
                                      Rgba{250, 251, 252, 255}};
    const std::vector<ImageRGBA8> frames{quadrants(16, colours)};
    const auto gif = kinema::encodeGif(frames);
    ASSERT_TRUE(gif.ok()) << gif.message();
    const DecodedGif decoded = decodeGif(*gif);
    ASSERT_EQ(decoded.frames.size(), 1u);
    EXPECT_EQ(decoded.colourMap.size(), 4u);  // the smallest power of two that holds them
    EXPECT_EQ(decoded.rgba(0, 0, 0), colours[0]);
    EXPECT_EQ(decoded.rgba(0, 15, 0), colours[1]);
    EXPECT_EQ(decoded.rgba(0, 0, 15), colours[2]);
    EXPECT_EQ(decoded.rgba(0, 15, 15), colours[3]);
    for (std::uint32_t y = 0; y < 16; ++y) {
        for (std::uint32_t x = 0; x < 16; ++x)
            ASSERT_EQ(decoded.rgba(0, x, y), pixel(frames[0], x, y)) << x << "," << y;
    }
}

TEST(EncodeGif, UpTo256ColoursOverAllFramesDecodeExactly) {
    // 256 distinct colours, 128 in each frame: the palette is chosen over both.
    auto colourOf = [](std::uint32_t i) {
        return Rgba{static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(255 - i),
                    static_cast<std::uint8_t>((i * 7) % 256), 255};
    };
    const std::vector<ImageRGBA8> frames{
        makeImage(16, 8, [&](std::uint32_t x, std::uint32_t y) { return colourOf(y * 16 + x); }),
        makeImage(16, 8, [&](std::uint32_t x, std::uint32_t y) { return colourOf(128 + y * 16 + x); })};
    const auto gif = kinema::encodeGif(frames);
    ASSERT_TRUE(gif.ok()) << gif.message();
    const DecodedGif decoded = decodeGif(*gif);
    ASSERT_EQ(decoded.frames.size(), 2u);
    EXPECT_EQ(decoded.colourMap.size(), 256u);
    for (std::size_t f = 0; f < 2; ++f) {
        for (std::uint32_t y = 0; y < 8; ++y) {
            for (std::uint32_t x = 0; x < 16; ++x) ASSERT_EQ(decoded.rgba(f, x, y), pixel(frames[f], x, y));
        }
    }
}

TEST(EncodeGif, SmoothGradientStaysWithinTheErrorBound) {
    // 65536 colours on a plane of RGB space (red x, green y, blue their mean). Cut into
    // 256 boxes, the plane gives boxes about 16 levels on a side, whose mean lies within
    // 8 of every colour in them; 16 allows for uneven cuts.
    const ImageRGBA8 image = makeImage(256, 256, [](std::uint32_t x, std::uint32_t y) {
        return Rgba{static_cast<std::uint8_t>(x), static_cast<std::uint8_t>(y), static_cast<std::uint8_t>((x + y) / 2),
                    255};
    });
    const std::vector<ImageRGBA8> frames{image};
    const auto gif = kinema::encodeGif(frames);
    ASSERT_TRUE(gif.ok()) << gif.message();
    const DecodedGif decoded = decodeGif(*gif);
    ASSERT_EQ(decoded.frames.size(), 1u);
    EXPECT_EQ(decoded.colourMap.size(), 256u);
    int worst = 0;
    double total = 0;
    for (std::uint32_t y = 0; y < 256; ++y) {
        for (std::uint32_t x = 0; x < 256; ++x) {
            const Rgba got = decoded.rgba(0, x, y), want = pixel(image, x, y);
            ASSERT_EQ(got[3], 255);
            for (std::size_t c = 0; c < 3; ++c) {
                const int error = std::abs(int{got[c]} - int{want[c]});
                worst = std::max(worst, error);
                total += error;
            }
        }
    }
    const double mean = total / (256.0 * 256.0 * 3.0);
    std::cout << "gradient: max per-channel error " << worst << ", mean " << mean << '\n';
    EXPECT_LE(worst, 16);
    EXPECT_LE(mean, 6.0);
}

TEST(EncodeGif, NearestColourIsThePaletteEntryClosestToEachPixel) {
    // Over 256 colours, so the palette is a median cut; each decoded pixel must be a
    // palette entry at least as close to the source as every other entry.
    const ImageRGBA8 image = makeImage(64, 64, [](std::uint32_t x, std::uint32_t y) {
        return Rgba{static_cast<std::uint8_t>(x * 4), static_cast<std::uint8_t>((x * y) % 256),
                    static_cast<std::uint8_t>(y * 4), 255};
    });
    const std::vector<ImageRGBA8> frames{image};
    const auto gif = kinema::encodeGif(frames);
    ASSERT_TRUE(gif.ok()) << gif.message();
    const DecodedGif decoded = decodeGif(*gif);
    ASSERT_EQ(decoded.frames.size(), 1u);
    auto distance = [](const Rgba& a, const std::array<std::uint8_t, 3>& b) {
        int d = 0;
        for (std::size_t c = 0; c < 3; ++c) d += (int{a[c]} - int{b[c]}) * (int{a[c]} - int{b[c]});
        return d;
    };
    for (std::uint32_t y = 0; y < 64; ++y) {
        for (std::uint32_t x = 0; x < 64; ++x) {
            const Rgba want = pixel(image, x, y);
            const std::uint8_t chosen = decoded.frames[0].indices[y * 64 + x];
            int best = 1 << 30;
            for (const auto& entry : decoded.colourMap) best = std::min(best, distance(want, entry));
            ASSERT_EQ(distance(want, decoded.colourMap.at(chosen)), best) << x << "," << y;
        }
    }
}

TEST(EncodeGif, PixelsUnderHalfAlphaDecodeAsTheTransparentIndex) {
    // Left half: alpha 0 and 127 (transparent); right half: alpha 128 and 255 (opaque).
    const ImageRGBA8 first = makeImage(8, 4, [](std::uint32_t x, std::uint32_t y) {
        if (x < 4) return Rgba{200, 100, 50, static_cast<std::uint8_t>(y % 2 ? 127 : 0)};
        return Rgba{10, 20, 30, static_cast<std::uint8_t>(y % 2 ? 128 : 255)};
    });
    const ImageRGBA8 second = flat(8, 4, {0, 0, 0, 0});
    const std::vector<ImageRGBA8> frames{first, second};
    const auto gif = kinema::encodeGif(frames);
    ASSERT_TRUE(gif.ok()) << gif.message();
    const DecodedGif decoded = decodeGif(*gif);
    ASSERT_EQ(decoded.frames.size(), 2u);
    const int transparent = decoded.frames[0].transparentIndex;
    ASSERT_NE(transparent, NO_TRANSPARENT_COLOR);
    for (const auto& frame : decoded.frames) {
        EXPECT_EQ(frame.transparentIndex, transparent);
        // Each frame is cleared before the next, so frame 0 does not show through frame 1.
        EXPECT_EQ(frame.disposal, DISPOSE_BACKGROUND);
    }
    for (std::uint32_t y = 0; y < 4; ++y) {
        for (std::uint32_t x = 0; x < 8; ++x) {
            const std::uint8_t index = decoded.frames[0].indices[y * 8 + x];
            if (x < 4) {
                EXPECT_EQ(index, transparent) << x << "," << y;
            } else {
                EXPECT_NE(index, transparent) << x << "," << y;
                EXPECT_EQ(decoded.rgba(0, x, y), (Rgba{10, 20, 30, 255}));
            }
            EXPECT_EQ(decoded.frames[1].indices[y * 8 + x], transparent);
        }
    }
}

TEST(EncodeGif, TransparencyLeaves255ColoursThatSurviveExactly) {
    // 255 opaque colours and one transparent pixel fill the 256 entries exactly.
    const ImageRGBA8 image = makeImage(16, 16, [](std::uint32_t x, std::uint32_t y) {
        const std::uint32_t i = y * 16 + x;
        if (i == 255) return Rgba{1, 2, 3, 0};
        return Rgba{static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(i / 2), 77, 255};
    });
    const std::vector<ImageRGBA8> frames{image};
    const auto gif = kinema::encodeGif(frames);
    ASSERT_TRUE(gif.ok()) << gif.message();
    const DecodedGif decoded = decodeGif(*gif);
    ASSERT_EQ(decoded.frames.size(), 1u);
    EXPECT_EQ(decoded.colourMap.size(), 256u);
    for (std::uint32_t y = 0; y < 16; ++y) {
        for (std::uint32_t x = 0; x < 16; ++x) {
            const Rgba want = y * 16 + x == 255 ? Rgba{0, 0, 0, 0} : pixel(image, x, y);
            ASSERT_EQ(decoded.rgba(0, x, y), want) << x << "," << y;
        }
    }
}

TEST(EncodeGif, AllTransparentAndOnePixelFramesEncode) {
    const std::vector<ImageRGBA8> clear{flat(3, 2, {5, 5, 5, 0})};
    const auto a = kinema::encodeGif(clear);
    ASSERT_TRUE(a.ok()) << a.message();
    const DecodedGif da = decodeGif(*a);
    ASSERT_EQ(da.frames.size(), 1u);
    for (std::uint8_t index : da.frames[0].indices) EXPECT_EQ(index, da.frames[0].transparentIndex);

    const std::vector<ImageRGBA8> dot{flat(1, 1, {9, 8, 7, 255})};
    const auto b = kinema::encodeGif(dot);
    ASSERT_TRUE(b.ok()) << b.message();
    const DecodedGif db = decodeGif(*b);
    ASSERT_EQ(db.frames.size(), 1u);
    EXPECT_EQ(db.colourMap.size(), 2u);  // the format's smallest table
    EXPECT_EQ(db.rgba(0, 0, 0), (Rgba{9, 8, 7, 255}));
}

// A few frames of a moving shaded disc on a gradient, with transparent corners: many
// colours, repeated runs, and transparency.
std::vector<ImageRGBA8> animation(std::uint32_t size, std::size_t count) {
    std::vector<ImageRGBA8> frames;
    for (std::size_t f = 0; f < count; ++f) {
        const double cx = size * (0.3 + 0.4 * static_cast<double>(f) / static_cast<double>(count));
        const double cy = size * 0.5, radius = size * 0.25;
        frames.push_back(makeImage(size, size, [&](std::uint32_t x, std::uint32_t y) {
            const double dx = x - cx, dy = y - cy;
            const double r = std::sqrt(dx * dx + dy * dy);
            const std::uint8_t alpha = x + y < size / 8 ? 0 : 255;
            if (r < radius) {
                const auto shade = static_cast<std::uint8_t>(255.0 * (1.0 - r / radius));
                return Rgba{shade, static_cast<std::uint8_t>(shade / 2), 40, alpha};
            }
            return Rgba{static_cast<std::uint8_t>(x * 255 / size), static_cast<std::uint8_t>(y * 255 / size), 160,
                        alpha};
        }));
    }
    return frames;
}

TEST(EncodeGif, SameInputGivesTheSameBytes) {
    const std::vector<ImageRGBA8> frames = animation(64, 6);
    const auto a = kinema::encodeGif(frames);
    const auto b = kinema::encodeGif(frames);
    ASSERT_TRUE(a.ok()) << a.message();
    ASSERT_TRUE(b.ok()) << b.message();
    EXPECT_EQ(*a, *b);
    const DecodedGif decoded = decodeGif(*a);
    EXPECT_EQ(decoded.frames.size(), 6u);
}

TEST(EncodeGif, LargeAnimationEncodesInSeconds) {
    const std::vector<ImageRGBA8> frames = animation(512, 60);
    const auto start = std::chrono::steady_clock::now();
    const auto gif = kinema::encodeGif(frames);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    ASSERT_TRUE(gif.ok()) << gif.message();
    std::cout << "512x512x60 GIF: " << elapsed.count() << " s, " << gif->size() << " bytes\n";
    const DecodedGif decoded = decodeGif(*gif);
    EXPECT_EQ(decoded.frames.size(), 60u);
    // Generous, for sanitizer builds; an optimised build takes well under a second.
    EXPECT_LT(elapsed.count(), 30.0);
}

TEST(EncodeGif, RefusesBadFramesAndOptionsWithLocatedFaults) {
    const ImageRGBA8 square = flat(64, 64, {1, 1, 1, 255});
    EXPECT_EQ(firstMessage(kinema::encodeGif({})), "frames: no frames; a GIF needs at least one");

    std::vector<ImageRGBA8> frames{square, square, square, flat(64, 32, {1, 1, 1, 255})};
    EXPECT_EQ(firstMessage(kinema::encodeGif(frames)), "frames/3: size 64x32 differs from frame 0's 64x64");

    frames = {square, ImageRGBA8{0, 64, {}}};
    EXPECT_EQ(firstMessage(kinema::encodeGif(frames)), "frames/1: size 0x64 has no pixels");

    frames = {ImageRGBA8{65536, 1, std::vector<std::uint8_t>(65536 * 4)}};
    EXPECT_EQ(firstMessage(kinema::encodeGif(frames)),
              "frames/0: size 65536x1 is over 65535 pixels on a side, the GIF limit");

    frames = {square, ImageRGBA8{64, 64, std::vector<std::uint8_t>(100)}};
    EXPECT_EQ(firstMessage(kinema::encodeGif(frames)), "frames/1: pixels hold 100 bytes, not 64 x 64 x 4 = 16384");

    // Every fault is reported, each at its frame.
    frames = {square, flat(2, 2, {0, 0, 0, 0}), square, ImageRGBA8{64, 64, {}}};
    const auto many = kinema::encodeGif(frames, GifOptions{0.0, true});
    ASSERT_FALSE(many.ok());
    EXPECT_EQ(many.message(),
              "frames/1: size 2x2 differs from frame 0's 64x64\n"
              "frames/3: pixels hold 0 bytes, not 64 x 64 x 4 = 16384\n"
              "options/fps: 0 is not a frame rate; it must be finite and above 0");

    const std::vector<ImageRGBA8> one{square};
    EXPECT_EQ(firstMessage(kinema::encodeGif(one, GifOptions{-30.0, true})),
              "options/fps: -30 is not a frame rate; it must be finite and above 0");
    EXPECT_EQ(firstMessage(kinema::encodeGif(one, GifOptions{std::nan(""), true})),
              "options/fps: nan is not a frame rate; it must be finite and above 0");
    EXPECT_EQ(firstMessage(kinema::encodeGif(one, GifOptions{INFINITY, true})),
              "options/fps: inf is not a frame rate; it must be finite and above 0");
    EXPECT_EQ(firstMessage(kinema::encodeGif(one, GifOptions{0.001, true})),
              "options/fps: 0.001 frames per second is too slow: a GIF frame lasts at most 655.35 s");
    // 100 / 0.0016 = 62500 cs a frame fits.
    EXPECT_TRUE(kinema::encodeGif(one, GifOptions{0.0016, true}).ok());
}

// --- files

TEST(WriteFileBytes, WritesAndReplacesAFile) {
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("kinema_image_write_" + std::to_string(::getpid()) + ".bin");
    const std::vector<std::byte> first{std::byte{1}, std::byte{2}, std::byte{3}, std::byte{0}, std::byte{255}};
    const std::vector<std::byte> second{std::byte{9}};
    auto written = kinema::writeFileBytes(path, first);
    ASSERT_TRUE(written.ok()) << written.message();
    EXPECT_EQ(*written, 5u);
    written = kinema::writeFileBytes(path, second);  // shorter: the file is truncated
    ASSERT_TRUE(written.ok()) << written.message();
    std::ifstream in(path, std::ios::binary);
    const std::vector<char> back{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    EXPECT_EQ(back, std::vector<char>{9});
    std::filesystem::remove(path);
}

// The bytes go to a temporary file renamed into place: nothing but the file is left
// in its folder; a link is written through (the file it names replaced, the link
// kept); a FIFO at the path is refused, not written into (which would wait for a reader).
TEST(WriteFileBytes, ReplacesThroughATemporaryFileFollowsLinksAndRefusesFifos) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("kinema_write_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::vector<std::byte> bytes{std::byte{7}, std::byte{8}};
    ASSERT_TRUE(kinema::writeFileBytes(dir / "a.png", bytes).ok());
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    EXPECT_EQ(names, std::vector<std::string>{"a.png"});

    fs::create_symlink("real.png", dir / "link.png");
    ASSERT_TRUE(kinema::writeFileBytes(dir / "link.png", bytes).ok());
    EXPECT_TRUE(fs::is_symlink(dir / "link.png"));
    EXPECT_EQ(fs::file_size(dir / "real.png"), 2u);

    ASSERT_EQ(::mkfifo((dir / "fifo.png").c_str(), 0600), 0);
    const auto fifo = kinema::writeFileBytes(dir / "fifo.png", bytes);
    ASSERT_FALSE(fifo.ok());
    EXPECT_EQ(fifo.message(),
              (dir / "fifo.png").string() + ": is not a regular file (a FIFO or a device): the bytes go to a file");
    EXPECT_FALSE(kinema::writeFileBytes(dir, bytes).ok());  // a folder
    fs::remove_all(dir);
}

// Links are followed to the end: a chain of two replaces the file the last names,
// both links kept; a loop is refused; the file replaced keeps its permission bits; a
// name near the file system's 255-byte limit is written (the temporary name is short).
TEST(WriteFileBytes, FollowsChainsOfLinksKeepsPermissionsAndTakesLongNames) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("kinema_write_links_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "sub");
    const std::vector<std::byte> bytes{std::byte{1}, std::byte{2}, std::byte{3}};
    { std::ofstream(dir / "sub" / "real.png") << "old"; }
    fs::permissions(dir / "sub" / "real.png", fs::perms::owner_read | fs::perms::owner_write);
    fs::create_symlink("sub/real.png", dir / "l1.png");
    fs::create_symlink("l1.png", dir / "l2.png");
    const auto target = kinema::writeTarget(dir / "l2.png");
    ASSERT_TRUE(target.ok()) << target.message();
    EXPECT_EQ(*target, dir / "sub/real.png");
    ASSERT_TRUE(kinema::writeFileBytes(dir / "l2.png", bytes).ok());
    EXPECT_TRUE(fs::is_symlink(dir / "l1.png"));
    EXPECT_TRUE(fs::is_symlink(dir / "l2.png"));
    EXPECT_EQ(fs::file_size(dir / "sub" / "real.png"), 3u);
    EXPECT_EQ(fs::status(dir / "sub" / "real.png").permissions(), fs::perms::owner_read | fs::perms::owner_write);

    fs::create_symlink("loop2.png", dir / "loop1.png");
    fs::create_symlink("loop1.png", dir / "loop2.png");
    const auto loop = kinema::writeFileBytes(dir / "loop2.png", bytes);
    ASSERT_FALSE(loop.ok());
    EXPECT_EQ(loop.message(), (dir / "loop2.png").string() + ": more than 40 links in a row (a loop?)");
    EXPECT_TRUE(fs::is_symlink(dir / "loop2.png"));

    const std::string longName = std::string(251, 'x') + ".png";  // 255 bytes
    const auto written = kinema::writeFileBytes(dir / longName, bytes);
    ASSERT_TRUE(written.ok()) << written.message();
    EXPECT_EQ(fs::file_size(dir / longName), 3u);

    const auto empty = kinema::writeFileBytes("", bytes);
    ASSERT_FALSE(empty.ok());
    EXPECT_EQ(empty.message(), "path: is empty: no file to write");
    fs::remove_all(dir);
}

TEST(WriteFileBytes, FaultNamesThePathAndTheSystemsReason) {
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / "kinema_no_such_folder_for_image_write" / "out.gif";
    const auto written = kinema::writeFileBytes(path, std::vector<std::byte>(4));
    ASSERT_FALSE(written.ok());
    EXPECT_EQ(written.message(), path.string() + ": cannot open for writing: No such file or directory");
}

}  // namespace
