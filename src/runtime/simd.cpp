#include "kinema/runtime/simd.hpp"

#include "kinema/runtime/detail/kernel_abi.hpp"

#ifdef KINEMA_HAS_X86_KERNELS
#include <cpuid.h>
#endif

namespace kinema {

std::string_view toString(SimdLevel level) noexcept {
    switch (level) {
        case SimdLevel::Portable: return "portable";
        case SimdLevel::Sse42: return "sse4.2";
        case SimdLevel::Avx2: return "avx2";
        case SimdLevel::Avx512: return "avx512";
    }
    return "unknown";
}

std::optional<SimdLevel> parseSimdLevel(std::string_view name) noexcept {
    for (const SimdLevel l : {SimdLevel::Portable, SimdLevel::Sse42, SimdLevel::Avx2, SimdLevel::Avx512}) {
        if (toString(l) == name) return l;
    }
    return std::nullopt;
}

bool isSupported(SimdLevel level) noexcept {
    switch (level) {
        case SimdLevel::Portable: return true;
#ifdef KINEMA_HAS_X86_KERNELS
        // __builtin_cpu_supports also checks that the OS saves the wider registers.
        case SimdLevel::Sse42: return __builtin_cpu_supports("sse4.2");
        // The avx2 and avx512 kernels are also built with BMI2: x86-64-v3, the AVX2
        // level of the x86-64 psABI, includes it, and the check keeps a CPU (or a
        // virtual machine) that hides it on the sse4.2 kernels.
        case SimdLevel::Avx2:
            return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2");
        case SimdLevel::Avx512:
            return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
                __builtin_cpu_supports("bmi2");
#else
        default: return false;
#endif
    }
    return false;
}

SimdLevel bestSimdLevel() noexcept {
    for (const SimdLevel l : {SimdLevel::Avx512, SimdLevel::Avx2, SimdLevel::Sse42}) {
        if (isSupported(l)) return l;
    }
    return SimdLevel::Portable;
}

std::string_view toString(WideVectorCost cost) noexcept {
    switch (cost) {
        case WideVectorCost::Native: return "native";
        case WideVectorCost::SplitHalves: return "split halves";
        case WideVectorCost::Downclocked: return "downclocked";
    }
    return "unknown";
}

WideVectorCost wideVectorCost() noexcept {
#ifdef KINEMA_HAS_X86_KERNELS
    if (!isSupported(SimdLevel::Avx512)) return WideVectorCost::Native;
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid(0, &a, &b, &c, &d) == 0) return WideVectorCost::Native;
    // The vendor string as cpuid leaf 0 spells it in ebx, edx, ecx.
    const bool amd = b == 0x68747541u && d == 0x69746e65u && c == 0x444d4163u;    // "AuthenticAMD"
    const bool intel = b == 0x756e6547u && d == 0x49656e69u && c == 0x6c65746eu;  // "GenuineIntel"
    if (__get_cpuid(1, &a, &b, &c, &d) == 0) return WideVectorCost::Native;
    const unsigned baseFamily = (a >> 8) & 0xfu;
    const unsigned family = baseFamily == 0xfu ? baseFamily + ((a >> 20) & 0xffu) : baseFamily;
    const unsigned model =
        baseFamily == 0x6u || baseFamily == 0xfu ? (((a >> 16) & 0xfu) << 4) | ((a >> 4) & 0xfu) : (a >> 4) & 0xfu;
    // Family 19h is Zen 3 and Zen 4; only Zen 4 has AVX-512. Zen 5 (1Ah) has
    // full-width 512-bit units.
    if (amd && family == 0x19u) return WideVectorCost::SplitHalves;
    // Ice Lake server (106, 108) and client (125, 126). Measured on model 106 only
    // (docs/SIMD.md); Skylake-X and Cascade Lake (85), which also lower the clock,
    // were never measured and keep the 512-bit kernels.
    if (intel && family == 0x6u && (model == 106u || model == 108u || model == 125u || model == 126u)) {
        return WideVectorCost::Downclocked;
    }
#endif
    return WideVectorCost::Native;
}

}  // namespace kinema
