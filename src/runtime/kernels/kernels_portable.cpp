// The kernels for the portable instruction set (see isa_portable.inl; the build gives
// this file its own target flags).
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "kinema/runtime/detail/kernel_abi.hpp"

namespace kinema::detail {
namespace {
#include "isa_portable.inl"
#include "kernels.inl"
}  // namespace

const KernelTable kPortableKernels = kTable;
}  // namespace kinema::detail
