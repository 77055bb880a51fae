// The kernels for the avx2 instruction set (see isa_avx2.inl; the build gives
// this file its own target flags).
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <immintrin.h>

#include "kinema/runtime/detail/kernel_abi.hpp"

namespace kinema::detail {
namespace {
#include "isa_avx2.inl"
#include "kernels.inl"
}  // namespace

const KernelTable kAvx2Kernels = kTable;
}  // namespace kinema::detail
