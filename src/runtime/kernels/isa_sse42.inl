// SSE4.2 (x86-64-v2): four lanes, no FMA. Included inside an anonymous namespace by
// kernels_sse42.cpp, which is compiled with -msse4.2.

struct S {
    static constexpr unsigned W = 4;
    using F = __m128;
    using M = __m128;
    using V4 = __m128;

    static F set1(float x) noexcept { return _mm_set1_ps(x); }
    static F zero() noexcept { return _mm_setzero_ps(); }
    static F load(const float* p) noexcept { return _mm_load_ps(p); }
    static F loadu(const float* p) noexcept { return _mm_loadu_ps(p); }
    static void store(float* p, F a) noexcept { _mm_store_ps(p, a); }
    static void storeu(float* p, F a) noexcept { _mm_storeu_ps(p, a); }
    static F add(F a, F b) noexcept { return _mm_add_ps(a, b); }
    static F sub(F a, F b) noexcept { return _mm_sub_ps(a, b); }
    static F mul(F a, F b) noexcept { return _mm_mul_ps(a, b); }
    static F div(F a, F b) noexcept { return _mm_div_ps(a, b); }
    static F fmadd(F a, F b, F c) noexcept { return _mm_add_ps(_mm_mul_ps(a, b), c); }
    static F fnmadd(F a, F b, F c) noexcept { return _mm_sub_ps(c, _mm_mul_ps(a, b)); }
    static F sqrt(F a) noexcept { return _mm_sqrt_ps(a); }
    static F min(F a, F b) noexcept { return _mm_min_ps(a, b); }
    static F max(F a, F b) noexcept { return _mm_max_ps(a, b); }
    // Quantized lanes (kernel_abi.hpp, PackedBlock) as floats: 4 unsigned 16- or
    // 32-bit integers.
    static F fromU16(const std::uint16_t* p) noexcept {
        return _mm_cvtepi32_ps(_mm_cvtepu16_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
    }
    static F fromU32(const std::uint32_t* p) noexcept {
        return _mm_cvtepi32_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    }
    static M cmplt(F a, F b) noexcept { return _mm_cmplt_ps(a, b); }
    static M cmpeq(F a, F b) noexcept { return _mm_cmpeq_ps(a, b); }
    static F select(M m, F a, F b) noexcept { return _mm_blendv_ps(b, a, m); }
    static bool allLanes(M m) noexcept { return _mm_movemask_ps(m) == 0xF; }
    static F abs(F a) noexcept { return _mm_andnot_ps(_mm_set1_ps(-0.0f), a); }

    static F rsqrt(F a) noexcept { return _mm_rsqrt_ps(a); }
    static F signOf(F a) noexcept { return _mm_and_ps(a, _mm_set1_ps(-0.0f)); }
    static F xorSign(F a, F sign) noexcept { return _mm_xor_ps(a, sign); }

    static V4 load4(const float* p) noexcept { return _mm_loadu_ps(p); }
    static void store4(float* p, V4 a) noexcept { _mm_storeu_ps(p, a); }
    static V4 bcast4(float x) noexcept { return _mm_set1_ps(x); }
    static V4 bcastLoad4(const float* p) noexcept { return _mm_load1_ps(p); }
    static V4 add4(V4 a, V4 b) noexcept { return _mm_add_ps(a, b); }
    static V4 mul4(V4 a, V4 b) noexcept { return _mm_mul_ps(a, b); }
    static V4 fmadd4(V4 a, V4 b, V4 c) noexcept { return _mm_add_ps(_mm_mul_ps(a, b), c); }
};
