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
    // The unsigned integers of masks[i] bits at bit bitOffsets[i] of `row`, as floats.
    // The eight lanes' bits lie in increasing order within 28 bytes of the first
    // lane's byte: one 32-byte load, and each lane's two dwords picked by vpermd.
    static F unpackBits(const std::uint8_t* row, const std::uint32_t* bitOffsets, const std::uint32_t* masks) noexcept {
        const std::uint32_t base = bitOffsets[0] >> 3;
        const __m256i window = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + base));
        const __m256i at = _mm256_sub_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(bitOffsets)),
                                            _mm256_set1_epi32(static_cast<int>(base * 8)));
        const __m256i word = _mm256_srli_epi32(at, 5);
        const __m256i shift = _mm256_and_si256(at, _mm256_set1_epi32(31));
        const __m256i lo = _mm256_permutevar8x32_epi32(window, word);
        const __m256i hi = _mm256_permutevar8x32_epi32(window, _mm256_add_epi32(word, _mm256_set1_epi32(1)));
        const __m256i bits = _mm256_or_si256(_mm256_srlv_epi32(lo, shift),
                                             _mm256_sllv_epi32(hi, _mm256_sub_epi32(_mm256_set1_epi32(32), shift)));
        return _mm256_cvtepi32_ps(_mm256_and_si256(bits, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(masks))));
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
