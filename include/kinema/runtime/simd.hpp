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

// True on a CPU with AVX-512 that executes each 512-bit operation as two 256-bit
// halves (AMD family 19h, Zen 4): there 512-bit loads and shuffles run at half the
// rate of 256-bit ones, and some passes are faster with the avx2 kernels.
bool splitsWideVectors() noexcept;

// Which kernel each pass runs at a level. `Tuned`: at avx512 on a CPU that
// splitsWideVectors(), local->model and palettes use the avx2 kernels, measured
// faster there (docs/SIMD.md, "Kernels per CPU"); sampling, blending and skinning
// keep the 512-bit ones. `Uniform`: every pass runs the level's own kernels. On any
// other level or CPU the two are the same.
enum class KernelMix : std::uint8_t { Tuned, Uniform };

}  // namespace kinema
