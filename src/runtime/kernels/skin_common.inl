// What the skinning kernels share: which normals a loop computes, whether the
// outputs lie apart from the inputs, and (AVX2 and AVX-512) a four-influence
// vertex's joint indices as one word and its blended matrix as two 256-bit
// registers.

// Which normals a skinning loop computes, as a type (one loop each): none, by the
// cofactor matrix (detail::kNormalsByCofactor) or by the blended matrix itself.
enum class NormalsBy { None, Cofactor, BlendedMatrix };

template <NormalsBy By>
struct NormalsTag {
    static constexpr NormalsBy value = By;
};

// Whether no output overlaps an input (of `count` vertices, 3 floats each): then a
// vertex's store may write four floats, the fourth landing on the next vertex's x,
// which that vertex's store writes next.
inline bool outputsApart(const float* positions, const float* normals, std::uint32_t count, const float* outPositions,
                         const float* outNormals, bool withNormals) noexcept {
    const auto disjoint = [count](const float* a, const float* b) {
        if (a == nullptr || b == nullptr) return true;
        const auto x = reinterpret_cast<std::uintptr_t>(a), y = reinterpret_cast<std::uintptr_t>(b);
        const std::uintptr_t bytes = static_cast<std::uintptr_t>(count) * 3 * sizeof(float);
        return x + bytes <= y || y + bytes <= x;
    };
    return disjoint(outPositions, positions) && disjoint(outPositions, normals) &&
        (!withNormals || (disjoint(outNormals, positions) && disjoint(outNormals, normals)));
}

// The loop of `run` for `normalTransform`, or the positions-only one without normals.
template <class Run>
inline void runForNormals(bool withNormals, std::uint32_t normalTransform, Run&& run) noexcept {
    if (!withNormals) {
        run(NormalsTag<NormalsBy::None>{});
    } else if (normalTransform == detail::kNormalsByBlendedMatrix) {
        run(NormalsTag<NormalsBy::BlendedMatrix>{});
    } else {
        run(NormalsTag<NormalsBy::Cofactor>{});
    }
}

// A four-influence vertex's joint indices, read as one 64-bit word (one load
// instead of four), and the byte offset of influence i's palette matrix (64 bytes
// each) within it: a rotate and a mask. The files that build the AVX2 and AVX-512
// kernels enable BMI2, whose `rorx` writes a register other than its source, so
// each offset is two instructions and no register copy (the skinning loops are
// bound partly by how many instructions the front end issues).
struct FourJoints {
    std::uint64_t indices;
    std::uint64_t rowOffset(int i) const noexcept {
        constexpr std::uint64_t kRowOffset = 0xffffull << 6;  // a 16-bit joint index times 64 bytes
        // A rotate right written out (std::rotr is a template the kernel files must not
        // instantiate, see docs/SIMD.md); compilers turn the idiom into one rotate.
        const int r = i == 0 ? 58 : 16 * i - 6;
        return ((indices >> r) | (indices << (64 - r))) & kRowOffset;
    }
};

inline FourJoints fourJoints(const std::uint16_t* jv) noexcept {
    FourJoints j;
    __builtin_memcpy(&j.indices, jv, sizeof j.indices);
    return j;
}

#if defined(__AVX2__)
// The blended matrix of one vertex as two registers, [c0 | c1] and [c2 | c3].
struct Blended2 {
    __m256 c01, c23;
};

// Four influences, the common case: the blended matrix with each palette row
// addressed as base + byte offset (FourJoints), summed as a serial chain in the
// reference's order (the loops overlap vertices, so its latency is hidden); wi
// holds weight i in all eight lanes. Fewer instructions than the pairs and per-row
// pointers of other counts (below): the AVX2 positions loop is bound by how many
// the front end issues (about 50 per vertex before, at six per cycle on Zen 3 and
// Zen 4), not by its loads or multiply-adds.
inline Blended2 blendedHalves4(const float* palette, const std::uint16_t* jv, __m256 w0, __m256 w1, __m256 w2,
                               __m256 w3) noexcept {
    const FourJoints j = fourJoints(jv);
    const char* rows = reinterpret_cast<const char*>(palette);
    const auto c01 = [&](int i) { return _mm256_loadu_ps(reinterpret_cast<const float*>(rows + j.rowOffset(i))); };
    const auto c23 = [&](int i) { return _mm256_loadu_ps(reinterpret_cast<const float*>(rows + j.rowOffset(i) + 32)); };
    __m256 m01 = _mm256_mul_ps(c01(0), w0), m23 = _mm256_mul_ps(c23(0), w0);
    m01 = _mm256_fmadd_ps(c01(1), w1, m01);
    m23 = _mm256_fmadd_ps(c23(1), w1, m23);
    m01 = _mm256_fmadd_ps(c01(2), w2, m01);
    m23 = _mm256_fmadd_ps(c23(2), w2, m23);
    m01 = _mm256_fmadd_ps(c01(3), w3, m01);
    m23 = _mm256_fmadd_ps(c23(3), w3, m23);
    return {m01, m23};
}
#endif
