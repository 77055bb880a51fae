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
// (AVX2 also needs FMA; AVX-512 means F + VL + DQ + BW and OS support for the state).
bool isSupported(SimdLevel level) noexcept;

// The widest supported level.
SimdLevel bestSimdLevel() noexcept;

}  // namespace kinema
