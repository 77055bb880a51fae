// AVX2 + FMA (x86-64-v3): eight lanes. Included inside an anonymous namespace by
// kernels_avx2.cpp, which is compiled with -mavx2 -mfma.

struct S {
    static constexpr unsigned W = 8;
    using F = __m256;
    using M = __m256;
    using V4 = __m128;

    static F set1(float x) noexcept { return _mm256_set1_ps(x); }
    static F zero() noexcept { return _mm256_setzero_ps(); }
    static F load(const float* p) noexcept { return _mm256_load_ps(p); }
    static F loadu(const float* p) noexcept { return _mm256_loadu_ps(p); }
    static void store(float* p, F a) noexcept { _mm256_store_ps(p, a); }
    static void storeu(float* p, F a) noexcept { _mm256_storeu_ps(p, a); }
    static F add(F a, F b) noexcept { return _mm256_add_ps(a, b); }
    static F sub(F a, F b) noexcept { return _mm256_sub_ps(a, b); }
    static F mul(F a, F b) noexcept { return _mm256_mul_ps(a, b); }
    static F div(F a, F b) noexcept { return _mm256_div_ps(a, b); }
    static F fmadd(F a, F b, F c) noexcept { return _mm256_fmadd_ps(a, b, c); }
    static F fnmadd(F a, F b, F c) noexcept { return _mm256_fnmadd_ps(a, b, c); }
    static F sqrt(F a) noexcept { return _mm256_sqrt_ps(a); }
    static F min(F a, F b) noexcept { return _mm256_min_ps(a, b); }
    static F max(F a, F b) noexcept { return _mm256_max_ps(a, b); }
    // Quantized lanes (kernel_abi.hpp, PackedBlock) as floats: 8 unsigned 16- or
    // 32-bit integers.
    static F fromU16(const std::uint16_t* p) noexcept {
        return _mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
    }
    static F fromU32(const std::uint32_t* p) noexcept {
        return _mm256_cvtepi32_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
    }
    static M cmplt(F a, F b) noexcept { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
    static M cmpeq(F a, F b) noexcept { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
    static F select(M m, F a, F b) noexcept { return _mm256_blendv_ps(b, a, m); }
    static bool allLanes(M m) noexcept { return _mm256_movemask_ps(m) == 0xFF; }
    static F abs(F a) noexcept { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a); }

    static F rsqrt(F a) noexcept { return _mm256_rsqrt_ps(a); }
    static F signOf(F a) noexcept { return _mm256_and_ps(a, _mm256_set1_ps(-0.0f)); }
    static F xorSign(F a, F sign) noexcept { return _mm256_xor_ps(a, sign); }

    static V4 load4(const float* p) noexcept { return _mm_loadu_ps(p); }
    static void store4(float* p, V4 a) noexcept { _mm_storeu_ps(p, a); }
    static V4 bcast4(float x) noexcept { return _mm_set1_ps(x); }
    static V4 bcastLoad4(const float* p) noexcept { return _mm_broadcast_ss(p); }
    static V4 add4(V4 a, V4 b) noexcept { return _mm_add_ps(a, b); }
    static V4 mul4(V4 a, V4 b) noexcept { return _mm_mul_ps(a, b); }
    static V4 fmadd4(V4 a, V4 b, V4 c) noexcept { return _mm_fmadd_ps(a, b, c); }
};
