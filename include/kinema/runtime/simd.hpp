// kinema/runtime: which SIMD instruction set the per-frame kernels use.
//
// The library is built for the x86-64 baseline; the kernels exist once per
// instruction set (each compiled in its own translation unit with its own target
// flags) and one is chosen at run time from what the CPU reports. `Portable` is
// the same kernel source on plain 4-float arrays: it runs everywhere and is what
// non-x86 builds use.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace kinema {

enum class SimdLevel : std::uint8_t { Portable, Sse42, Avx2, Avx512 };

// "portable", "sse4.2", "avx2", "avx512".
std::string_view toString(SimdLevel level) noexcept;
std::optional<SimdLevel> parseSimdLevel(std::string_view name) noexcept;

// True when this build has the kernels for `level` and the CPU runs them
// (AVX2 also needs FMA and BMI2; AVX-512 means F + VL + DQ + BW, with BMI2, and OS support for
// the state).
bool isSupported(SimdLevel level) noexcept;

// The widest supported level.
SimdLevel bestSimdLevel() noexcept;

// How this CPU runs 512-bit operations, where that changes which kernels are the
// fastest (docs/SIMD.md, "Kernels per CPU"). Read from cpuid; `Native` without AVX-512.
enum class WideVectorCost : std::uint8_t {
    Native,       // full-width units at the full clock (Intel Sapphire Rapids, AMD Zen 5)
    SplitHalves,  // AMD family 19h (Zen 4): each 512-bit operation as two 256-bit halves,
                  // so 512-bit loads and shuffles run at half the rate of 256-bit ones
    Downclocked,  // Intel's Sunny Cove cores (Ice Lake, family 6 models 106, 108, 125,
                  // 126): a lower clock while 512-bit arithmetic runs, and 512-bit loads
                  // at half the rate of narrower ones
};
WideVectorCost wideVectorCost() noexcept;
std::string_view toString(WideVectorCost cost) noexcept;  // "native", "split halves", "downclocked"

// Which kernel each pass runs at a level. `Tuned`: at avx512, the passes measured
// faster with the avx2 kernels on this CPU's wideVectorCost() run those: local->model
// and palettes where 512-bit operations are split in halves (skinning there blends in
// 256-bit halves, the same results bit for bit); every pass but skinning where they
// lower the clock. `Uniform`: every pass runs the level's own kernels. On any other
// level or CPU the two are the same.
enum class KernelMix : std::uint8_t { Tuned, Uniform };

}  // namespace kinema
