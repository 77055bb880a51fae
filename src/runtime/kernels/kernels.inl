// The per-frame kernels, written once against the instruction-set wrapper `S`
// (isa_*.inl) and compiled once per instruction set: this file gathers the passes
// in order and builds the table. Included inside an anonymous namespace: nothing
// here may call a function defined outside this translation unit (see
// detail/kernel_abi.hpp for why). A pass whose shape differs by instruction set
// has a small file that includes the one for the set being compiled.

#include "common.inl"
#include "blend_lanes.inl"
#include "slerp.inl"
#include "sample.inl"
#include "blend.inl"
#include "local_to_model.inl"
#include "palette.inl"
#include "skin.inl"

constexpr detail::KernelTable kTable{sampleKernel,       blend2Kernel,  addKernel,
                                     localToModelKernel, paletteKernel, skinKernel};
