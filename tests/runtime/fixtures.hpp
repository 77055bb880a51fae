// Helpers shared by the runtime tests: tracks built in code, random local poses,
// and the SIMD levels this CPU runs.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "kinema/asset/clip.hpp"
#include "kinema/math/transform.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "kinema/runtime/simd.hpp"
#include "math/reference.hpp"

namespace kinema::test {

inline Track makeTrack(std::uint32_t target, TrackPath path, Interpolation interp, std::vector<float> times,
                       std::vector<float> values, std::uint32_t width = 0, std::uint32_t weightOffset = 0) {
    Track t;
    t.target = target;
    t.path = path;
    t.interpolation = interp;
    t.width = width != 0 ? width : (path == TrackPath::Rotation ? 4u : 3u);
    t.weightOffset = weightOffset;
    t.times = std::move(times);
    t.values = std::move(values);
    return t;
}

// `n` transforms: translations in [-1, 1]^3, uniform unit rotations, scales in [0.5, 1.5]^3.
inline std::vector<Transform> randomTransforms(std::size_t n, std::mt19937& rng) {
    std::uniform_real_distribution<float> v(-1.0f, 1.0f), s(0.5f, 1.5f);
    std::vector<Transform> out(n);
    for (Transform& t : out) {
        t.translation = {v(rng), v(rng), v(rng)};
        t.rotation = kref::randomUnitQuat(rng);
        t.scale = {s(rng), s(rng), s(rng)};
    }
    return out;
}

inline std::vector<SimdLevel> supportedSimdLevels() {
    std::vector<SimdLevel> out;
    for (const SimdLevel l : {SimdLevel::Portable, SimdLevel::Sse42, SimdLevel::Avx2, SimdLevel::Avx512}) {
        if (isSupported(l)) out.push_back(l);
    }
    return out;
}

// A level and how its passes pick kernels (simd.hpp).
struct KernelConfig {
    SimdLevel level;
    KernelMix mix;
};

// A parameterised test's name for its KernelConfig: "sse42", "avx512" or "avx512Uniform".
inline std::string kernelConfigName(const ::testing::TestParamInfo<KernelConfig>& info) {
    std::string s(toString(info.param.level));
    s.erase(std::remove(s.begin(), s.end(), '.'), s.end());
    return info.param.mix == KernelMix::Uniform ? s + "Uniform" : s;
}

// For test names and failure messages: "avx512" or "avx512, uniform".
inline void PrintTo(const KernelConfig& c, std::ostream* os) {
    *os << toString(c.level) << (c.mix == KernelMix::Uniform ? ", uniform" : "");
}

// Every supported level as PoseKernels picks it by default, plus avx512 with its
// own kernels on every pass where that differs (a CPU whose wideVectorCost() is not
// Native), so that the 512-bit kernels the mix replaces are tested there too.
inline std::vector<KernelConfig> supportedKernelConfigs() {
    std::vector<KernelConfig> out;
    for (const SimdLevel l : supportedSimdLevels()) out.push_back({l, KernelMix::Tuned});
    if (PoseKernels(SimdLevel::Avx512, KernelMix::Tuned).mixed())
        out.push_back({SimdLevel::Avx512, KernelMix::Uniform});
    return out;
}

}  // namespace kinema::test
