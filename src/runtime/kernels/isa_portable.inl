// Plain arrays of four floats with the operations the kernels use: the portable
// instruction "set". Included inside an anonymous namespace by kernels_portable.cpp.

struct S {
    static constexpr unsigned W = 4;
    struct F {
        float v[4];
    };
    using M = F;  // lanes of all-ones / all-zero bit patterns, like SSE masks
    using V4 = F;

    template <class Op>
    static F map(F a, F b, Op op) noexcept {
        F r;
        for (unsigned i = 0; i < 4; ++i) r.v[i] = op(a.v[i], b.v[i]);
        return r;
    }
    static F set1(float x) noexcept { return F{{x, x, x, x}}; }
    static F zero() noexcept { return set1(0.0f); }
    static F load(const float* p) noexcept { return F{{p[0], p[1], p[2], p[3]}}; }
    static F loadu(const float* p) noexcept { return load(p); }
    static void store(float* p, F a) noexcept {
        for (unsigned i = 0; i < 4; ++i) p[i] = a.v[i];
    }
    static void storeu(float* p, F a) noexcept { store(p, a); }
    static F add(F a, F b) noexcept {
        return map(a, b, [](float x, float y) { return x + y; });
    }
    static F sub(F a, F b) noexcept {
        return map(a, b, [](float x, float y) { return x - y; });
    }
    static F mul(F a, F b) noexcept {
        return map(a, b, [](float x, float y) { return x * y; });
    }
    static F div(F a, F b) noexcept {
        return map(a, b, [](float x, float y) { return x / y; });
    }
    static F fmadd(F a, F b, F c) noexcept { return add(mul(a, b), c); }
    static F fnmadd(F a, F b, F c) noexcept { return sub(c, mul(a, b)); }
    static F sqrt(F a) noexcept {
        F r;
        for (unsigned i = 0; i < 4; ++i) r.v[i] = __builtin_sqrtf(a.v[i]);
        return r;
    }
    static F min(F a, F b) noexcept {
        return map(a, b, [](float x, float y) { return y < x ? y : x; });
    }
    static F max(F a, F b) noexcept {
        return map(a, b, [](float x, float y) { return x < y ? y : x; });
    }
    // Quantized lanes (kernel_abi.hpp, PackedBlock) as floats: 4 unsigned 16- or
    // 32-bit integers.
    template <class T>
    static F fromUnsigned(const T* p) noexcept {
        return F{
            {static_cast<float>(p[0]), static_cast<float>(p[1]), static_cast<float>(p[2]), static_cast<float>(p[3])}};
    }
    static F fromU16(const std::uint16_t* p) noexcept { return fromUnsigned(p); }
    static F fromU32(const std::uint32_t* p) noexcept { return fromUnsigned(p); }
    static M bits(bool b) noexcept { return set1(__builtin_bit_cast(float, b ? 0xffffffffu : 0u)); }
    static M cmplt(F a, F b) noexcept {
        F r;
        for (unsigned i = 0; i < 4; ++i) r.v[i] = bits(a.v[i] < b.v[i]).v[0];
        return r;
    }
    static M cmpeq(F a, F b) noexcept {
        F r;
        for (unsigned i = 0; i < 4; ++i) r.v[i] = bits(a.v[i] == b.v[i]).v[0];
        return r;
    }
    static F select(M m, F a, F b) noexcept {  // m ? a : b per lane
        F r;
        for (unsigned i = 0; i < 4; ++i) {
            const unsigned mb = __builtin_bit_cast(unsigned, m.v[i]);
            r.v[i] = mb != 0u ? a.v[i] : b.v[i];
        }
        return r;
    }
    static bool allLanes(M m) noexcept {
        for (unsigned i = 0; i < 4; ++i) {
            if (__builtin_bit_cast(unsigned, m.v[i]) == 0u) return false;
        }
        return true;
    }
    static F abs(F a) noexcept {
        F r;
        for (unsigned i = 0; i < 4; ++i)
            r.v[i] = __builtin_bit_cast(float, __builtin_bit_cast(unsigned, a.v[i]) & 0x7fffffffu);
        return r;
    }

    static F rsqrt(F a) noexcept {
        F r;
        for (unsigned i = 0; i < 4; ++i) r.v[i] = 1.0f / __builtin_sqrtf(a.v[i]);
        return r;
    }
    // All-ones sign bit where a is negative (or -0), else zero bits.
    static F signOf(F a) noexcept {
        F r;
        for (unsigned i = 0; i < 4; ++i)
            r.v[i] = __builtin_bit_cast(float, __builtin_bit_cast(unsigned, a.v[i]) & 0x80000000u);
        return r;
    }
    static F xorSign(F a, F sign) noexcept {
        F r;
        for (unsigned i = 0; i < 4; ++i)
            r.v[i] = __builtin_bit_cast(float,
                                        __builtin_bit_cast(unsigned, a.v[i]) ^ __builtin_bit_cast(unsigned, sign.v[i]));
        return r;
    }

    // Four-float columns of 4x4 matrices.
    static V4 load4(const float* p) noexcept { return load(p); }
    static void store4(float* p, V4 a) noexcept { store(p, a); }
    static V4 bcast4(float x) noexcept { return set1(x); }
    static V4 bcastLoad4(const float* p) noexcept { return set1(*p); }
    static V4 add4(V4 a, V4 b) noexcept { return add(a, b); }
    static V4 mul4(V4 a, V4 b) noexcept { return mul(a, b); }
    static V4 fmadd4(V4 a, V4 b, V4 c) noexcept { return fmadd(a, b, c); }
};
