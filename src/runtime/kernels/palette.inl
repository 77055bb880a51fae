// The palette pass, out[i] = model[joints[i]] * inverseBind[i]: one kernel per
// instruction set, chosen when the file that includes this one is compiled.

#if defined(__AVX512F__)
#include "palette_avx512.inl"
#elif defined(__AVX2__)
#include "palette_avx2.inl"
#else
#include "palette_portable.inl"
#endif
