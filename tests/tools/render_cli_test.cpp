// `kinema render` as a user runs it: the files it writes, read back with decoders
// of their own (kinema's PNG reader, giflib), and the refusals of bad arguments.
// Headless on lavapipe, or on the device KINEMA_TEST_GPU names.
#include <gif_lib.h>
#include <gtest/gtest.h>
#include <simdjson.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "cli_process.hpp"
#include "kinema/io/image.hpp"
#include "support/assets.hpp"
#include "support/gltf_writer.hpp"

namespace {

namespace fs = std::filesystem;

using kinema::test::CliRun;

CliRun runKinema(const std::string& args) { return kinema::test::runCli(kinema::test::kDriverProcess, args); }

using kinema::test::quoted;

using kinema::test::contains;

// The device every render runs on: the one the GPU tests use.
std::string gpuArg() {
    const char* wanted = std::getenv("KINEMA_TEST_GPU");
    return std::string(" --gpu ") + (wanted != nullptr ? wanted : "lavapipe");
}

std::vector<std::byte> readBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<char> chars((std::istreambuf_iterator<char>(in)), {});
    std::vector<std::byte> bytes(chars.size());
    std::transform(chars.begin(), chars.end(), bytes.begin(), [](char c) { return static_cast<std::byte>(c); });
    return bytes;
}

std::optional<kinema::ImageRGBA8> readPng(const fs::path& path) {
    auto decoded = kinema::decodeImageBytes(readBytes(path), path.string());
    if (!decoded) {
        ADD_FAILURE() << path << ": " << decoded.message();
        return std::nullopt;
    }
    return std::move(*decoded);
}

std::uint8_t alphaAt(const kinema::ImageRGBA8& image, std::uint32_t x, std::uint32_t y) {
    return image.pixels[(std::size_t{y} * image.width + x) * 4 + 3];
}

// Pixels with any coverage.
std::size_t coveredPixels(const kinema::ImageRGBA8& image) {
    std::size_t covered = 0;
    for (std::size_t p = 3; p < image.pixels.size(); p += 4)
        if (image.pixels[p] > 0) ++covered;
    return covered;
}

// An animated GIF as giflib reads it.
struct GifFile {
    int width = 0, height = 0;  // the logical screen
    struct Frame {
        int left = 0, top = 0, width = 0, height = 0;
        int delay = -1;  // centiseconds; -1 without a graphics control block
    };
    std::vector<Frame> frames;
};

std::optional<GifFile> readGif(const fs::path& path) {
    int error = 0;
    GifFileType* gif = DGifOpenFileName(path.c_str(), &error);
    if (gif == nullptr) {
        ADD_FAILURE() << path << ": " << GifErrorString(error);
        return std::nullopt;
    }
    std::optional<GifFile> out;
    if (DGifSlurp(gif) != GIF_OK) {
        ADD_FAILURE() << path << ": " << GifErrorString(gif->Error);
    } else {
        out.emplace();
        out->width = gif->SWidth;
        out->height = gif->SHeight;
        for (int i = 0; i < gif->ImageCount; ++i) {
            const GifImageDesc& d = gif->SavedImages[i].ImageDesc;
            GifFile::Frame f{d.Left, d.Top, d.Width, d.Height, -1};
            GraphicsControlBlock gcb{};
            if (DGifSavedExtensionToGCB(gif, i, &gcb) == GIF_OK) f.delay = gcb.DelayTime;
            out->frames.push_back(f);
        }
    }
    DGifCloseFile(gif, &error);
    return out;
}

// The JSON chunk of a .glb, parsed: the file's own account of its animations and cameras.
simdjson::dom::element glbJson(const fs::path& path, simdjson::dom::parser& parser) {
    const std::vector<std::byte> bytes = readBytes(path);
    auto u32 = [&](std::size_t at) {
        std::uint32_t v = 0;
        for (std::size_t i = 0; i < 4; ++i) v |= std::to_integer<std::uint32_t>(bytes.at(at + i)) << (8 * i);
        return v;
    };
    EXPECT_EQ(u32(0), 0x46546C67u) << "not a GLB: " << path;  // "glTF"
    EXPECT_EQ(u32(16), 0x4E4F534Au) << "first chunk is not JSON: " << path;
    const std::size_t length = u32(12);
    const std::string text(reinterpret_cast<const char*>(bytes.data()) + 20, length);
    simdjson::dom::element doc;
    EXPECT_FALSE(parser.parse(text).get(doc)) << path;
    return doc;
}

// A folder of its own for one test's outputs, emptied first.
fs::path freshDir() {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    const fs::path dir = fs::path(testing::TempDir()) /
        ("kinema_render_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

class RenderCli : public testing::Test {
protected:
    void SetUp() override { dir_ = freshDir(); }
    void TearDown() override {
        if (!dir_.empty() && !HasFailure()) fs::remove_all(dir_);
    }
    // The names of the files in dir_, sorted.
    std::vector<std::string> fileNames() const {
        std::vector<std::string> names;
        for (const fs::directory_entry& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }
    fs::path dir_;
};

// Refusal of bad arguments: exit code, every expected part of the message on stderr,
// and no output file.
void expectRefusal(const std::string& args, int exitCode, const std::vector<std::string>& parts, const fs::path& out) {
    const CliRun r = runKinema("render " + args + " --out " + quoted(out) + gpuArg());
    EXPECT_EQ(r.exitCode, exitCode) << args << "\n" << r.err;
    for (const std::string& part : parts)
        EXPECT_TRUE(contains(r.err, part)) << args << ": no '" << part << "' in\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << args << ": " << r.out;
    EXPECT_FALSE(fs::exists(out)) << args;
}

}  // namespace

TEST_F(RenderCli, GifHasTheFramesAskedFor) {
    KINEMA_REQUIRE_ASSET(file, "BoxAnimated/BoxAnimated.glb");
    const fs::path out = dir_ / "box.gif";
    const CliRun r =
        runKinema("render " + quoted(file) + " --frames 5 --fps 10 --size 64x48 --out " + quoted(out) + gpuArg());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto gif = readGif(out);
    ASSERT_TRUE(gif);
    EXPECT_EQ(gif->width, 64);
    EXPECT_EQ(gif->height, 48);
    ASSERT_EQ(gif->frames.size(), 5u);
    for (const GifFile::Frame& f : gif->frames) {
        EXPECT_EQ(f.left, 0);
        EXPECT_EQ(f.top, 0);
        EXPECT_EQ(f.width, 64);
        EXPECT_EQ(f.height, 48);
        EXPECT_EQ(f.delay, 10);  // 1/10 s in centiseconds
    }
}

// Without --frames a GIF plays the clip once at 30 fps: ceil(duration * 30) frames,
// the duration being the latest key time the file's samplers declare.
TEST_F(RenderCli, GifWithoutFramesPlaysTheWholeClip) {
    KINEMA_REQUIRE_ASSET(file, "BoxAnimated/BoxAnimated.glb");
    simdjson::dom::parser parser;
    const simdjson::dom::element doc = glbJson(file, parser);
    double duration = 0.0;
    for (simdjson::dom::element sampler : doc["animations"].at(0)["samplers"].get_array()) {
        const std::uint64_t input = sampler["input"].get_uint64();
        duration = std::max(duration, double(doc["accessors"].at(input)["max"].at(0)));
    }
    ASSERT_NEAR(duration, 3.7083, 1e-3);  // the sample's documented length
    const auto expected = static_cast<std::size_t>(std::ceil(duration * 30.0));

    const fs::path out = dir_ / "box.gif";
    const CliRun r = runKinema("render " + quoted(file) + " --size 64x48 --out " + quoted(out) + gpuArg());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto gif = readGif(out);
    ASSERT_TRUE(gif);
    EXPECT_EQ(gif->frames.size(), expected);
    // Frame i starts at round(i * 100 / 30) cs: the whole GIF lasts N / 30 s to the centisecond.
    int total = 0;
    for (const GifFile::Frame& f : gif->frames) total += f.delay;
    EXPECT_EQ(total, static_cast<int>(std::lround(static_cast<double>(expected) * 100.0 / 30.0)));
}

// --time picks one frame: a GIF with --time and without --frames has one image.
TEST_F(RenderCli, GifAtATimeHasOneFrame) {
    KINEMA_REQUIRE_ASSET(file, "BoxAnimated/BoxAnimated.glb");
    const fs::path out = dir_ / "box.gif";
    const CliRun r = runKinema("render " + quoted(file) + " --time 1 --size 64x48 --out " + quoted(out) + gpuArg());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto gif = readGif(out);
    ASSERT_TRUE(gif);
    EXPECT_EQ(gif->frames.size(), 1u);
}

// A size may be written with spaces around its numbers, as every number option may.
TEST_F(RenderCli, ASizeWithSpacesAroundItsNumbersIsTaken) {
    KINEMA_REQUIRE_ASSET(file, "BoxAnimated/BoxAnimated.glb");
    const fs::path out = dir_ / "box.png";
    const CliRun r = runKinema("render " + quoted(file) + " --size ' 20 x 12 ' --out " + quoted(out) + gpuArg());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto image = readPng(out);
    ASSERT_TRUE(image);
    EXPECT_EQ(image->width, 20u);
    EXPECT_EQ(image->height, 12u);
}

TEST_F(RenderCli, TransparentBackgroundGivesCoverageInAlpha) {
    KINEMA_REQUIRE_ASSET(file, "CesiumMan/CesiumMan.glb");
    const fs::path out = dir_ / "man.png";
    const CliRun r =
        runKinema("render " + quoted(file) + " --background transparent --size 64x48 --out " + quoted(out) + gpuArg());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto image = readPng(out);
    ASSERT_TRUE(image);
    ASSERT_EQ(image->width, 64u);
    ASSERT_EQ(image->height, 48u);
    // The auto camera frames the figure: the corners are background, the centre is the figure.
    EXPECT_EQ(alphaAt(*image, 0, 0), 0);
    EXPECT_EQ(alphaAt(*image, 63, 0), 0);
    EXPECT_EQ(alphaAt(*image, 0, 47), 0);
    EXPECT_EQ(alphaAt(*image, 63, 47), 0);
    bool opaqueInMiddle = false;
    for (std::uint32_t y = 16; y < 32; ++y)
        for (std::uint32_t x = 24; x < 40; ++x) opaqueInMiddle = opaqueInMiddle || alphaAt(*image, x, y) == 255;
    EXPECT_TRUE(opaqueInMiddle);
    const std::size_t covered = coveredPixels(*image);
    EXPECT_GT(covered, 0u);
    EXPECT_LT(covered, std::size_t{64} * 48);
}

TEST_F(RenderCli, SameFrameTwiceGivesTheSameBytes) {
    KINEMA_REQUIRE_ASSET(file, "CesiumMan/CesiumMan.glb");
    const fs::path a = dir_ / "a.png", b = dir_ / "b.png";
    const std::string args = "render " + quoted(file) + " --time 0.75 --skeleton --size 64x48" + gpuArg() + " --out ";
    const CliRun ra = runKinema(args + quoted(a));
    ASSERT_EQ(ra.exitCode, 0) << ra.err;
    const CliRun rb = runKinema(args + quoted(b));
    ASSERT_EQ(rb.exitCode, 0) << rb.err;
    const std::vector<std::byte> bytesA = readBytes(a), bytesB = readBytes(b);
    EXPECT_FALSE(bytesA.empty());
    EXPECT_TRUE(bytesA == bytesB);
}

// A cooked file draws what its source draws: stored exact, the same bytes; compressed
// (within 0.01 cm), a picture with the textured figure in it.
TEST_F(RenderCli, ACookedFileDrawsAsItsSource) {
    KINEMA_REQUIRE_ASSET(file, "CesiumMan/CesiumMan.glb");
    const CliRun exact = runKinema("cook " + quoted(file) + " --exact --out " + quoted(dir_ / "exact"));
    ASSERT_EQ(exact.exitCode, 0) << exact.err;
    const CliRun small = runKinema("cook " + quoted(file) + " --out " + quoted(dir_ / "small"));
    ASSERT_EQ(small.exitCode, 0) << small.err;
    std::string args = " --time 0.75 --size 64x48";
    args.append(gpuArg()).append(" --out ");
    const fs::path fromGltf = dir_ / "gltf.png", fromExact = dir_ / "exact.png", fromSmall = dir_ / "small.png";
    ASSERT_EQ(runKinema("render " + quoted(file) + args + quoted(fromGltf)).exitCode, 0);
    const CliRun r = runKinema("render " + quoted(dir_ / "exact" / "CesiumMan.kinc") + args + quoted(fromExact));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const CliRun c = runKinema("render " + quoted(dir_ / "small" / "CesiumMan.kinc") + args + quoted(fromSmall));
    ASSERT_EQ(c.exitCode, 0) << c.err;
    EXPECT_FALSE(readBytes(fromGltf).empty());
    EXPECT_TRUE(readBytes(fromGltf) == readBytes(fromExact));
    const auto image = readPng(fromSmall);
    ASSERT_TRUE(image);
    const auto reference = readPng(fromGltf);
    ASSERT_TRUE(reference);
    // At 64x48 a 0.01 cm difference moves no pixel's coverage; allow a few at edges.
    std::size_t differing = 0;
    for (std::size_t i = 0; i < image->pixels.size(); i += 4) {
        if (image->pixels[i + 3] != reference->pixels[i + 3]) ++differing;
    }
    EXPECT_LE(differing, 4u);
    EXPECT_GT(coveredPixels(*image), 0u);
}

TEST_F(RenderCli, SeveralPngFramesAreNumberedFiles) {
    KINEMA_REQUIRE_ASSET(file, "BoxAnimated/BoxAnimated.glb");
    const CliRun r =
        runKinema("render " + quoted(file) + " --frames 3 --size 64x48 --out " + quoted(dir_ / "box.png") + gpuArg());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::vector<std::string> names = fileNames();
    EXPECT_EQ(names, (std::vector<std::string>{"box-0000.png", "box-0001.png", "box-0002.png"}));
    for (const std::string& name : names) {
        const auto image = readPng(dir_ / name);
        ASSERT_TRUE(image) << name;
        EXPECT_EQ(image->width, 64u) << name;
        EXPECT_EQ(image->height, 48u) << name;
    }
}

TEST_F(RenderCli, FramesOfAnOutputNamedOnlyByItsExtensionStartWithTheirNumber) {
    KINEMA_REQUIRE_ASSET(file, "BoxAnimated/BoxAnimated.glb");
    const CliRun r =
        runKinema("render " + quoted(file) + " --frames 2 --size 32x24 --out " + quoted(dir_ / ".png") + gpuArg());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::vector<std::string> names = fileNames();
    EXPECT_EQ(names, (std::vector<std::string>{"0000.png", "0001.png"}));
}

// A sequence writes numbered files only: a folder with the name given is no obstacle.
TEST_F(RenderCli, ASequenceIsNotRefusedForItsBaseName) {
    KINEMA_REQUIRE_ASSET(file, "BoxAnimated/BoxAnimated.glb");
    fs::create_directories(dir_ / "shots.png");
    const CliRun r =
        runKinema("render " + quoted(file) + " --frames 2 --size 32x24 --out " + quoted(dir_ / "shots.png") + gpuArg());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(fileNames(), (std::vector<std::string>{"shots-0000.png", "shots-0001.png", "shots.png"}));
}

// Links are followed to the file the last one names: a link whose target folder is
// missing is refused before anything is drawn.
TEST_F(RenderCli, AnOutputLinkIsCheckedWhereItLeads) {
    KINEMA_REQUIRE_ASSET(file, "BoxAnimated/BoxAnimated.glb");
    fs::create_directories(dir_);
    fs::create_symlink(dir_ / "missing" / "x.png", dir_ / "dangling.png");
    const CliRun r =
        runKinema("render " + quoted(file) + " --size 32x24 --out " + quoted(dir_ / "dangling.png") + gpuArg());
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("its folder " + (dir_ / "missing").string() + " (through the link) does not exist"),
              std::string::npos)
        << r.err;
}

TEST_F(RenderCli, OnePngFrameKeepsTheName) {
    KINEMA_REQUIRE_ASSET(file, "BoxAnimated/BoxAnimated.glb");
    const CliRun r = runKinema("render " + quoted(file) + " --size 64x48 --out " + quoted(dir_ / "box.png") + gpuArg());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(fileNames(), std::vector<std::string>{"box.png"});
}

TEST_F(RenderCli, RefusesBadImageArguments) {
    KINEMA_REQUIRE_ASSET(file, "BoxAnimated/BoxAnimated.glb");
    const fs::path png = dir_ / "x.png";
    const std::string f = quoted(file) + " ";
    expectRefusal(f + "--size 0x10", 2, {"--size", "0x10"}, png);
    expectRefusal(f + "--size 16385x10", 2, {"--size", "16385x10", "16384"}, png);
    expectRefusal(f + "--size abc", 2, {"--size", "abc", "WIDTHxHEIGHT"}, png);
    expectRefusal(f + "--background 12345", 2, {"--background", "12345"}, png);
    expectRefusal(f, 2, {"--out", "x.jpg", ".png"}, dir_ / "x.jpg");
    expectRefusal(f + "--frames 0", 2, {"--frames", "'0' is not a whole number in 1..100000"}, png);
    expectRefusal(f + "--frames 1.5", 2, {"--frames", "'1.5' is not a whole number in 1..100000"}, png);
    // Echoed as typed, not as the largest integer it overflowed to.
    expectRefusal(f + "--frames 99999999999999999999", 2, {"--frames", "'99999999999999999999' is not a whole number"},
                  png);
    // An output whose folder is missing, or is a file.
    expectRefusal(f, 2, {"missing/x.png: its folder", "does not exist"}, dir_ / "missing" / "x.png");
    fs::create_directories(dir_);
    std::ofstream(dir_ / "plain") << "a file";
    expectRefusal(f, 2, {"plain/x.png: ", "plain is a file, not a folder"}, dir_ / "plain" / "x.png");
    // A numbered frame's name taken by a folder: refused before the first frame is drawn.
    fs::create_directories(dir_ / "frames-0002.png");
    expectRefusal(f + "--frames 3", 2, {"--out", "frames-0002.png: is a folder"}, dir_ / "frames.png");
    EXPECT_FALSE(fs::exists(dir_ / "frames-0000.png"));
}

TEST_F(RenderCli, RefusesBadCameras) {
    KINEMA_REQUIRE_ASSET(file, "BoxAnimated/BoxAnimated.glb");
    const fs::path png = dir_ / "x.png";
    expectRefusal(quoted(file) + " --camera 'eye=0,0,0 target=0,0,0'", 2, {"--camera", "eye=0,0,0", "target"}, png);
    expectRefusal(quoted(file) + " --camera 'fov=abc'", 2, {"--camera", "fov=abc"}, png);
    // Each fault at the option typed, not at the library's name for it.
    expectRefusal(quoted(file) + " --camera 'eye=1,2 target=0,0,0'", 2,
                  {"kinema render: --camera: eye=1,2 is not three numbers X,Y,Z\n"}, png);
    // BoxAnimated declares no camera.
    simdjson::dom::parser parser;
    const simdjson::dom::element doc = glbJson(file, parser);
    ASSERT_TRUE(doc["cameras"].error() == simdjson::NO_SUCH_FIELD);
    expectRefusal(quoted(file) + " --camera file", 2, {"--camera file", "no camera"}, png);
}

// An unknown name is answered with the names the file has, read here from its JSON.
TEST_F(RenderCli, RefusesUnknownAnimations) {
    KINEMA_REQUIRE_ASSET(file, "InterpolationTest/InterpolationTest.glb");
    simdjson::dom::parser parser;
    const simdjson::dom::element doc = glbJson(file, parser);
    std::vector<std::string> names;
    for (simdjson::dom::element a : doc["animations"].get_array())
        names.push_back(std::string(1, '\'').append(std::string_view(a["name"])).append(1, '\''));
    ASSERT_EQ(names.size(), 9u);
    std::vector<std::string> parts = names;
    parts.push_back("Nope");
    const fs::path png = dir_ / "x.png";
    expectRefusal(quoted(file) + " --animation Nope", 2, parts, png);
    const std::string pastEnd = std::to_string(names.size());
    expectRefusal(quoted(file) + " --animation " + pastEnd, 2, {"animation " + pastEnd, pastEnd + " animations"}, png);
    // '' names a clip without a name (every clip here has one), as `kinema sample` reads it.
    std::vector<std::string> unnamed = names;
    unnamed.push_back("no animation is named ''");
    expectRefusal(quoted(file) + " --animation ''", 2, unnamed, png);
}

TEST_F(RenderCli, RefusesAnUnknownDevice) {
    KINEMA_REQUIRE_ASSET(file, "BoxAnimated/BoxAnimated.glb");
    const fs::path out = dir_ / "x.png";
    const CliRun r = runKinema("render " + quoted(file) + " --gpu no-such-device --out " + quoted(out));
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "kinema render: --gpu: no Vulkan device named like \"no-such-device\"")) << r.err;
    EXPECT_TRUE(contains(r.err, "devices present")) << r.err;
    EXPECT_TRUE(contains(r.err, "lavapipe")) << r.err;
    // Lavapipe's device is named after llvmpipe; it is present wherever these tests run on it.
    if (std::getenv("KINEMA_TEST_GPU") == nullptr) {
        EXPECT_TRUE(contains(r.err, "llvmpipe")) << r.err;
    }
    EXPECT_FALSE(fs::exists(out));
}

// A vertex at 1e38 is a finite float, but a camera around it is not: the automatic
// framing says so (exit 1) and writes nothing; a camera given with --camera draws it.
TEST_F(RenderCli, BoundsTooLargeToFrameAreRefusedWithTheirReason) {
    const fs::path file = dir_ / "huge.gltf";
    std::ofstream(file, std::ios::binary)
        << R"({"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],
      "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
      "buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAmXaWfgAAAAAAAAAAAAAAAAAAgD8AAAAA"}],
      "bufferViews":[{"buffer":0,"byteLength":36}],
      "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],
                    "max":[9.999999680285692e+37,1,0]}]})";
    const fs::path out = dir_ / "huge.png";
    const CliRun r = runKinema("render " + quoted(file) + " --size 16x16 --out " + quoted(out) + gpuArg());
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_TRUE(contains(r.err, "its bounds are too large to frame a camera around (camera/")) << r.err;
    EXPECT_TRUE(contains(r.err, "give one with --camera")) << r.err;
    EXPECT_FALSE(fs::exists(out));
    const CliRun given = runKinema("render " + quoted(file) + " --size 16x16 --camera 'eye=0,0,5 target=0,0,0' --out " +
                                   quoted(out) + gpuArg());
    EXPECT_EQ(given.exitCode, 0) << given.err;
    EXPECT_TRUE(fs::exists(out));
}

TEST_F(RenderCli, RefusesAMissingFile) {
    const fs::path missing = dir_ / "missing.glb";
    const fs::path out = dir_ / "x.png";
    const CliRun r = runKinema("render " + quoted(missing) + " --out " + quoted(out) + gpuArg());
    EXPECT_NE(r.exitCode, 0);
    EXPECT_TRUE(contains(r.err, missing.string())) << r.err;
    EXPECT_FALSE(fs::exists(out));

    const CliRun none = runKinema("render --out " + quoted(out) + gpuArg());
    EXPECT_NE(none.exitCode, 0);
    EXPECT_TRUE(contains(none.err, "FILE")) << none.err;
    EXPECT_FALSE(fs::exists(out));
}

// A rig without meshes: three nodes in a chain, the root turning about Y. The
// render draws its skeleton instead of nothing.
TEST_F(RenderCli, FileWithoutMeshesDrawsItsSkeleton) {
    kinema::test::GltfWriter w;
    const auto tip = w.addNode({.name = "tip", .translation = std::array<double, 3>{0.0, 1.0, 0.0}});
    const auto mid = w.addNode({.name = "mid", .translation = std::array<double, 3>{0.0, 1.0, 0.0}, .children = {tip}});
    const auto root = w.addNode({.name = "root", .children = {mid}});
    const auto times = w.addFloats("SCALAR", {0.0f, 1.0f});
    const float s = std::sqrt(0.5f);
    const auto turns = w.addFloats("VEC4", {0.0f, 0.0f, 0.0f, 1.0f, 0.0f, s, 0.0f, s});
    w.addAnimation({{.input = times, .output = turns}}, {{.sampler = 0, .node = root, .path = "rotation"}}, "turn");
    w.addScene({root});
    const fs::path file = dir_ / "rig.gltf";
    std::ofstream(file, std::ios::binary) << w.gltf();

    const fs::path out = dir_ / "rig.png";
    const CliRun r =
        runKinema("render " + quoted(file) + " --background transparent --size 64x48 --out " + quoted(out) + gpuArg());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "no meshes")) << r.err;
    EXPECT_TRUE(contains(r.err, "skeleton")) << r.err;
    const auto image = readPng(out);
    ASSERT_TRUE(image);
    EXPECT_GT(coveredPixels(*image), 0u);
}

TEST_F(RenderCli, FileWithoutNodesHasNothingToDraw) {
    const fs::path file = dir_ / "empty.gltf";
    std::ofstream(file, std::ios::binary) << R"({"asset": {"version": "2.0"}})";
    const fs::path out = dir_ / "empty.png";
    const CliRun r = runKinema("render " + quoted(file) + " --size 64x48 --out " + quoted(out) + gpuArg());
    EXPECT_NE(r.exitCode, 0);
    EXPECT_TRUE(contains(r.err, "nothing to draw")) << r.err;
    EXPECT_FALSE(fs::exists(out));
}

TEST_F(RenderCli, SkeletonChangesThePicture) {
    KINEMA_REQUIRE_ASSET(file, "CesiumMan/CesiumMan.glb");
    const fs::path plain = dir_ / "plain.png", rig = dir_ / "rig.png";
    const std::string args = "render " + quoted(file) + " --time 0.5 --size 64x48" + gpuArg();
    const CliRun a = runKinema(args + " --out " + quoted(plain));
    ASSERT_EQ(a.exitCode, 0) << a.err;
    const CliRun b = runKinema(args + " --skeleton --out " + quoted(rig));
    ASSERT_EQ(b.exitCode, 0) << b.err;
    const auto imageA = readPng(plain), imageB = readPng(rig);
    ASSERT_TRUE(imageA && imageB);
    ASSERT_EQ(imageA->pixels.size(), imageB->pixels.size());
    std::size_t changed = 0;
    for (std::size_t p = 0; p < imageA->pixels.size(); p += 4) {
        bool same = true;
        for (std::size_t c = 0; c < 4; ++c) same = same && imageA->pixels[p + c] == imageB->pixels[p + c];
        if (!same) ++changed;
    }
    EXPECT_GT(changed, 0u);
}

TEST_F(RenderCli, ValidationLayersReportNothing) {
    KINEMA_REQUIRE_ASSET(file, "CesiumMan/CesiumMan.glb");
    const fs::path out = dir_ / "man.png";
    const CliRun r =
        runKinema("render " + quoted(file) + " --validation --skeleton --size 64x48 --out " + quoted(out) + gpuArg());
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_FALSE(contains(r.err, "validation")) << r.err;
    EXPECT_TRUE(fs::exists(out));
}

TEST_F(RenderCli, HelpNamesTheOptions) {
    const CliRun r = runKinema("render --help");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    for (const char* option : {"--camera", "--background", "--out", "--size", "--frames", "--skeleton"})
        EXPECT_TRUE(contains(r.out, option)) << option;
}
