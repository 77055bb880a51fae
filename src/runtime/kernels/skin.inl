// The skinning pass: one kernel per instruction set, chosen when the file that
// includes this one is compiled.

#include "skin_common.inl"

#if defined(__AVX512F__)
#include "skin_avx512.inl"
#elif defined(__AVX2__)
#include "skin_avx2.inl"
#elif defined(__SSE4_2__)
#include "skin_sse42.inl"
#else
#include "skin_portable.inl"
#endif
