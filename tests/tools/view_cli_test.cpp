// `kinema view` as a user meets it: without a display it says so and exits non-zero;
// under a virtual X server (Xvfb) it opens its window, draws frames with the
// validation layers clean and closes. `kinema demo --gif` writes one GIF frame per
// 1/30 s of the demo.
#include <gif_lib.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "cli_process.hpp"
#include "support/assets.hpp"

namespace {

using CommandRun = kinema::test::CliRun;

// `prefix` runs before the program (an environment change, a wrapper). The command
// loads a Vulkan driver (kDriverProcess).
CommandRun runWith(const std::string& prefix, const std::string& args) {
    return kinema::test::runCli(std::string(kinema::test::kDriverProcess) + prefix, args);
}

bool haveXvfb() { return std::system("command -v xvfb-run >/dev/null 2>&1") == 0; }

TEST(ViewCli, WithoutADisplayExitsNonZeroAndSaysWhy) {
    KINEMA_REQUIRE_ASSET(file, "BoxAnimated/BoxAnimated.glb");
    const CommandRun r = runWith("env -u DISPLAY -u WAYLAND_DISPLAY", "view '" + file_opt->string() + "' --frames 1");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("no display"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("kinema render"), std::string::npos) << r.err;
}

TEST(ViewCli, UnderXvfbDrawsFramesWithValidationClean) {
    if (!haveXvfb()) GTEST_SKIP() << "xvfb-run not installed (Debian: xvfb): the window test needs a virtual display";
    KINEMA_REQUIRE_ASSET(file, "CesiumMan/CesiumMan.glb");
    const CommandRun r =
        runWith("xvfb-run -a", "view '" + file_opt->string() + "' --frames 4 --validation --gpu lavapipe");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("4 frames"), std::string::npos) << r.out;
}

TEST(ViewCli, AnUnknownAnimationIsRefusedBeforeAnyWindowOpens) {
    KINEMA_REQUIRE_ASSET(file, "InterpolationTest/InterpolationTest.glb");
    const CommandRun r =
        runWith("env -u DISPLAY -u WAYLAND_DISPLAY", "view '" + file_opt->string() + "' --animation Nope");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("no animation is named 'Nope'"), std::string::npos) << r.err;
}

// '' names a clip without a name (every clip here has one), as `kinema sample` reads it.
TEST(ViewCli, AnEmptyAnimationNameNamesAnUnnamedClip) {
    KINEMA_REQUIRE_ASSET(file, "InterpolationTest/InterpolationTest.glb");
    const CommandRun r =
        runWith("env -u DISPLAY -u WAYLAND_DISPLAY", "view '" + file_opt->string() + "' --animation ''");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("no animation is named ''; the file has 'Step Scale'"), std::string::npos) << r.err;
}

// A --gpu naming no device is a usage error (exit 2), found before a display is looked for.
TEST(ViewCli, AnUnknownDeviceIsAUsageErrorWithoutADisplay) {
    KINEMA_REQUIRE_ASSET(file, "BoxAnimated/BoxAnimated.glb");
    const CommandRun r =
        runWith("env -u DISPLAY -u WAYLAND_DISPLAY", "view '" + file_opt->string() + "' --gpu no-such-device");
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_NE(r.err.find("kinema view: --gpu: no Vulkan device named like \"no-such-device\""), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("devices present"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("no display"), std::string::npos) << r.err;
}

TEST(DemoCli, GifHasAFramePerThirtiethOfASecond) {
    const std::string gif = testing::TempDir() + "kinema_demo_" + std::to_string(::getpid()) + ".gif";
    const CommandRun r = runWith("", "demo --seconds 1 --gif '" + gif + "' --gpu lavapipe");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("30 frames"), std::string::npos) << r.out;
    int error = 0;
    GifFileType* file = DGifOpenFileName(gif.c_str(), &error);
    ASSERT_NE(file, nullptr);
    ASSERT_EQ(DGifSlurp(file), GIF_OK);
    EXPECT_EQ(file->ImageCount, 30);  // 60 ticks of 1/60 s, every other one drawn
    EXPECT_EQ(file->SWidth, 480);
    EXPECT_EQ(file->SHeight, 360);
    DGifCloseFile(file, &error);
    std::remove(gif.c_str());
}

// A --gpu naming no device is a usage error (exit 2), said before the demo prints anything.
TEST(DemoCli, GifOnAnUnknownDeviceIsAUsageError) {
    const std::string gif = testing::TempDir() + "kinema_demo_nodevice_" + std::to_string(::getpid()) + ".gif";
    const CommandRun r = runWith("", "demo --seconds 1 --gif '" + gif + "' --gpu no-such-device");
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("kinema demo: --gif: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("no Vulkan device named like \"no-such-device\""), std::string::npos) << r.err;
    EXPECT_NE(::access(gif.c_str(), F_OK), 0);
}

}  // namespace
