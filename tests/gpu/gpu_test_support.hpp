// Shared by the GPU tests: one device for the whole program (lavapipe unless
// KINEMA_TEST_GPU names another), opened with validation and synchronisation
// validation; a test fails on any message they report.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "kinema/gpu/gpu_context.hpp"
#include "kinema/gpu/offscreen_renderer.hpp"
#include "kinema/render/camera.hpp"

namespace kinema::test {

GpuContext& testGpu();

// sRGB encoding of a linear value as an 8-bit channel, the closed form of the
// standard (IEC 61966-2-1), to compare with what the sRGB target stores.
inline int srgbByte(float linear) {
    const double c = std::clamp(static_cast<double>(linear), 0.0, 1.0);
    const double s = c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055;
    return static_cast<int>(std::lround(s * 255.0));
}

// Fails the running test when the validation layers reported anything since `before`.
class GpuTest : public ::testing::Test {
protected:
    void SetUp() override { before_ = testGpu().validationMessageCount(); }
    void TearDown() override {
        const std::uint64_t now = testGpu().validationMessageCount();
        if (now != before_) {
            std::string all;
            for (const std::string& m : testGpu().validationMessages()) all.append(m).append("\n");
            ADD_FAILURE() << (now - before_) << " validation message(s):\n" << all;
        }
    }

private:
    std::uint64_t before_ = 0;
};

}  // namespace kinema::test
