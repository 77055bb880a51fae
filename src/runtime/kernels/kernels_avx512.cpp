// The kernels for the avx512 instruction set (see isa_avx512.inl; the build gives
// this file its own target flags).
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <immintrin.h>

#include "kinema/runtime/detail/kernel_abi.hpp"

namespace kinema::detail {
namespace {
#include "isa_avx512.inl"
#include "kernels.inl"
}  // namespace

const KernelTable kAvx512Kernels = kTable;
const decltype(KernelTable::skin) kAvx512SplitBlendSkin = skinKernelSplitBlend;
}  // namespace kinema::detail
