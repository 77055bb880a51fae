// AVX-512 (F, VL, DQ, BW; x86-64-v4): sixteen lanes, compare results in mask
// registers. Included inside an anonymous namespace by kernels_avx512.cpp.

struct S {
    static constexpr unsigned W = 16;
    using F = __m512;
    using M = __mmask16;
    using V4 = __m128;

    static F set1(float x) noexcept { return _mm512_set1_ps(x); }
    static F zero() noexcept { return _mm512_setzero_ps(); }
    static F load(const float* p) noexcept { return _mm512_load_ps(p); }
    static F loadu(const float* p) noexcept { return _mm512_loadu_ps(p); }
    static void store(float* p, F a) noexcept { _mm512_store_ps(p, a); }
    static void storeu(float* p, F a) noexcept { _mm512_storeu_ps(p, a); }
    static F add(F a, F b) noexcept { return _mm512_add_ps(a, b); }
    static F sub(F a, F b) noexcept { return _mm512_sub_ps(a, b); }
    static F mul(F a, F b) noexcept { return _mm512_mul_ps(a, b); }
    static F div(F a, F b) noexcept { return _mm512_div_ps(a, b); }
    static F fmadd(F a, F b, F c) noexcept { return _mm512_fmadd_ps(a, b, c); }
    static F fnmadd(F a, F b, F c) noexcept { return _mm512_fnmadd_ps(a, b, c); }
    // The zero-masking forms with a full mask compile to the same instruction; the
    // plain forms trip g++ 12's false -Wmaybe-uninitialized on _mm512_undefined_ps.
    static F sqrt(F a) noexcept { return _mm512_maskz_sqrt_ps(0xffff, a); }
    static F min(F a, F b) noexcept { return _mm512_maskz_min_ps(0xffff, a, b); }
    static F max(F a, F b) noexcept { return _mm512_maskz_max_ps(0xffff, a, b); }
    // Quantized lanes (kernel_abi.hpp, PackedBlock) as floats: 16 unsigned 16- or
    // 32-bit integers.
    static F fromU16(const std::uint16_t* p) noexcept {
        return _mm512_maskz_cvtepi32_ps(
            0xffff, _mm512_maskz_cvtepu16_epi32(0xffff, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))));
    }
    static F fromU32(const std::uint32_t* p) noexcept {
        return _mm512_maskz_cvtepi32_ps(0xffff, _mm512_loadu_si512(p));
    }
    static M cmplt(F a, F b) noexcept { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
    static M cmpeq(F a, F b) noexcept { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
    static F select(M m, F a, F b) noexcept { return _mm512_mask_blend_ps(m, b, a); }
    static bool allLanes(M m) noexcept { return m == 0xFFFF; }
    static F abs(F a) noexcept { return _mm512_abs_ps(a); }

    static F rsqrt(F a) noexcept { return _mm512_maskz_rsqrt14_ps(0xffff, a); }
    static F signOf(F a) noexcept { return _mm512_and_ps(a, _mm512_set1_ps(-0.0f)); }
    static F xorSign(F a, F sign) noexcept { return _mm512_xor_ps(a, sign); }

    static V4 load4(const float* p) noexcept { return _mm_loadu_ps(p); }
    static void store4(float* p, V4 a) noexcept { _mm_storeu_ps(p, a); }
    static V4 bcast4(float x) noexcept { return _mm_set1_ps(x); }
    static V4 bcastLoad4(const float* p) noexcept { return _mm_broadcast_ss(p); }
    static V4 add4(V4 a, V4 b) noexcept { return _mm_add_ps(a, b); }
    static V4 mul4(V4 a, V4 b) noexcept { return _mm_mul_ps(a, b); }
    static V4 fmadd4(V4 a, V4 b, V4 c) noexcept { return _mm_fmadd_ps(a, b, c); }
};

// The shuffles the 512-bit kernels use beyond S. g++ 12 warns falsely
// (-Wmaybe-uninitialized) on the unmasked forms of these, whose intrinsics pass
// _mm512_undefined_ps; the all-lanes zero-masking forms are the same instructions.
inline __m512 permute16(__m512i index, __m512 a) noexcept { return _mm512_maskz_permutexvar_ps(0xffff, index, a); }
template <int Imm>
inline __m512 blocks(__m512 a, __m512 b) noexcept {
    return _mm512_maskz_shuffle_f32x4(0xffff, a, b, Imm);
}
template <int Imm>
inline __m512 withinBlocks(__m512 a) noexcept {
    return _mm512_maskz_permute_ps(0xffff, a, Imm);
}
// [a | a | a | a] from four floats in memory: one load, no shuffle.
inline __m512 quarters(const float* p) noexcept { return _mm512_maskz_broadcast_f32x4(0xffff, _mm_loadu_ps(p)); }
