#include "kinema/runtime/simd.hpp"

#include "kinema/runtime/detail/kernel_abi.hpp"

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
        case SimdLevel::Avx2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
        case SimdLevel::Avx512:
            return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                   __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw");
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

}  // namespace kinema
