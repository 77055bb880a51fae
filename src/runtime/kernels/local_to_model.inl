// The local -> model pass: one kernel per instruction set, chosen when the file
// that includes this one is compiled.

#include "local_matrix.inl"

#if defined(__AVX512F__)
#include "local_to_model_avx512.inl"
#elif defined(__AVX2__)
#include "local_to_model_avx2.inl"
#else
#include "local_to_model_portable.inl"
#endif
