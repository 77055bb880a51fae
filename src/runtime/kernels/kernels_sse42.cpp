// The kernels for the sse42 instruction set (see isa_sse42.inl; the build gives
// this file its own target flags).
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <immintrin.h>

#include "kinema/runtime/detail/kernel_abi.hpp"

namespace kinema::detail {
namespace {
#include "isa_sse42.inl"
#include "kernels.inl"
}  // namespace

const KernelTable kSse42Kernels = kTable;
}  // namespace kinema::detail
