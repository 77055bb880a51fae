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

bool splitsWideVectors() noexcept {
#ifdef KINEMA_HAS_X86_KERNELS
    if (!isSupported(SimdLevel::Avx512)) return false;
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid(0, &a, &b, &c, &d) == 0) return false;
    // "AuthenticAMD", as cpuid leaf 0 spells it in ebx, edx, ecx.
    if (b != 0x68747541u || d != 0x69746e65u || c != 0x444d4163u) return false;
    if (__get_cpuid(1, &a, &b, &c, &d) == 0) return false;
    unsigned family = (a >> 8) & 0xfu;
    if (family == 0xfu) family += (a >> 20) & 0xffu;
    // Family 19h is Zen 3 and Zen 4; only Zen 4 has AVX-512, and it runs it in
    // halves. Zen 5 (1Ah) has full-width 512-bit units.
    return family == 0x19u;
#else
    return false;
#endif
}

}  // namespace kinema
