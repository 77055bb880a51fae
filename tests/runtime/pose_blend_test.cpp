// Blending in local TRS: a bone blended from 0 to 90 degrees keeps its child at
// full distance at every weight, which blending the composed matrices would not.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "kinema/math/quat.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "kinema/runtime/soa_pose.hpp"
#include "runtime/fixtures.hpp"

namespace {

using namespace kinema;

TEST(PoseBlend, ABoneBlendedFromZeroToNinetyDegreesKeepsItsChildAtFullDistance) {
    const std::vector<std::int32_t> parents{-1, 0};
    Transform child;
    child.translation = {1.0f, 0.0f, 0.0f};
    Transform bent;
    bent.rotation = fromAxisAngle({0.0f, 0.0f, 1.0f}, static_cast<float>(std::numbers::pi / 2.0));
    const std::vector<Transform> straightPose{Transform{}, child}, bentPose{bent, child};
    const SoaPose a(straightPose, {}), b(bentPose, {});
    for (const SimdLevel level : test::supportedSimdLevels()) {
        const PoseKernels k(level);
        SoaPose out(2, 0);
        std::vector<Mat4> model(2), modelA(2), modelB(2);
        ASSERT_TRUE(k.localToModel(parents, a, modelA));
        ASSERT_TRUE(k.localToModel(parents, b, modelB));
        double shortestMatrixBlend = 1.0;
        for (int i = 0; i <= 100; ++i) {
            const float w = static_cast<float>(i) / 100.0f;
            ASSERT_TRUE(k.blend(a, b, w, out));
            ASSERT_TRUE(k.localToModel(parents, out, model));
            const float x = model[1].m[12], y = model[1].m[13], z = model[1].m[14];
            EXPECT_NEAR(std::sqrt(x * x + y * y + z * z), 1.0f, 2e-6f) << toString(level) << " weight " << w;
            // The same weight applied to the composed matrices cuts the corner.
            const double mx = modelA[1].m[12] + (modelB[1].m[12] - modelA[1].m[12]) * w;
            const double my = modelA[1].m[13] + (modelB[1].m[13] - modelA[1].m[13]) * w;
            shortestMatrixBlend = std::min(shortestMatrixBlend, std::sqrt(mx * mx + my * my));
        }
        EXPECT_NEAR(shortestMatrixBlend, std::sqrt(0.5), 1e-6) << "matrix blending would shrink the limb to 0.71";
        // Halfway is 45 degrees: the child at (cos 45, sin 45).
        ASSERT_TRUE(k.blend(a, b, 0.5f, out));
        ASSERT_TRUE(k.localToModel(parents, out, model));
        EXPECT_NEAR(model[1].m[12], std::sqrt(0.5), 1e-6);
        EXPECT_NEAR(model[1].m[13], std::sqrt(0.5), 1e-6);
    }
}

}  // namespace
