// Skinning with 256-bit registers: a vertex's blended matrix in two registers,
// normals two vertices at a time.

// [p[0] x4 | p[1] x4]: one 8-byte broadcast read (through memcpy: p may be only
// 4-byte aligned, and the intrinsic reads a double) spread by an in-lane permute.
inline __m256 pairSpread(const float* p) noexcept {
    double pair;
    __builtin_memcpy(&pair, p, sizeof pair);
    return _mm256_permutevar_ps(_mm256_castpd_ps(_mm256_set1_pd(pair)), _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1));
}

// Four influences with the weights as broadcast loads.
inline Blended2 blendedMatrix4(const float* palette, const std::uint16_t* jv, const float* wv) noexcept {
    return blendedHalves4(palette, jv, _mm256_broadcast_ss(wv), _mm256_broadcast_ss(wv + 1),
                          _mm256_broadcast_ss(wv + 2), _mm256_broadcast_ss(wv + 3));
}

inline Blended2 blendedMatrix2(const float* palette, const std::uint16_t* jv, const float* wv,
                               std::uint32_t influences) noexcept {
    if (influences == 4) return blendedMatrix4(palette, jv, wv);
    // Other counts are summed in pairs so the dependent chain is short (the
    // multiply-add latency, not the throughput, bounds a serial sum).
    __m256 m01 = _mm256_setzero_ps(), m23 = _mm256_setzero_ps();
    std::uint32_t i = 0;
    for (; i + 2 <= influences; i += 2) {
        const float* pa = palette + static_cast<std::size_t>(jv[i]) * 16;
        const float* pb = palette + static_cast<std::size_t>(jv[i + 1]) * 16;
        const __m256 wa = _mm256_broadcast_ss(wv + i), wb = _mm256_broadcast_ss(wv + i + 1);
        m01 = _mm256_add_ps(m01, _mm256_fmadd_ps(_mm256_loadu_ps(pb), wb, _mm256_mul_ps(_mm256_loadu_ps(pa), wa)));
        m23 = _mm256_add_ps(m23,
                            _mm256_fmadd_ps(_mm256_loadu_ps(pb + 8), wb, _mm256_mul_ps(_mm256_loadu_ps(pa + 8), wa)));
    }
    if (i < influences) {
        const float* pm = palette + static_cast<std::size_t>(jv[i]) * 16;
        const __m256 w = _mm256_broadcast_ss(wv + i);
        m01 = _mm256_fmadd_ps(_mm256_loadu_ps(pm), w, m01);
        m23 = _mm256_fmadd_ps(_mm256_loadu_ps(pm + 8), w, m23);
    }
    return {m01, m23};
}

inline void store3(float* o, __m128 r) noexcept {
    _mm_storel_pi(reinterpret_cast<__m64*>(o), r);
    o[2] = _mm_cvtss_f32(_mm_movehl_ps(r, r));
}

// Vertex v's three floats. Below `wide`, all four lanes are stored: the fourth lands
// on the next vertex's x, which that vertex's store then writes (one store instead
// of two, and stores are what AMD's Zen 3 has least of). `wide` is 0 where the
// outputs overlap the inputs, whose next vertex would otherwise be overwritten
// before it is read.
inline void storeVertex(float* base, std::uint32_t v, std::uint32_t wide, __m128 r) noexcept {
    float* o = base + static_cast<std::size_t>(v) * 3;
    if (v + 1 < wide) {
        _mm_storeu_ps(o, r);
    } else {
        store3(o, r);
    }
}

// [a x4 | b x4] from two floats in memory.
inline __m256 halves(const float* a, const float* b) noexcept {
    return _mm256_blend_ps(_mm256_broadcast_ss(a), _mm256_broadcast_ss(b), 0xf0);
}

// Positions vertex by vertex; normals two vertices at a time, vertex A in the low
// half of each register and B in the high one, so the cofactor matrix (three
// cross products of the blended columns), the determinant's sign, the length, the
// square root and the division are each one instruction for both.
void skinKernel(const float* palette, const std::uint16_t* joints, const float* weights, std::uint32_t influences,
                const float* positions, const float* normals, std::uint32_t count, float* outPositions,
                float* outNormals, std::uint32_t normalTransform) noexcept {
    const bool doNormals = normals != nullptr && outNormals != nullptr;
    const std::uint32_t wide = outputsApart(positions, normals, count, outPositions, outNormals, doNormals) ? count : 0;
    const auto blendAt = [&](std::uint32_t v) {
        const std::size_t at = static_cast<std::size_t>(v) * influences;
        return blendedMatrix2(palette, joints + at, weights + at, influences);
    };
    // [c0 px + c2 pz | c1 py + c3], then the two halves added. [px x4 | py x4] and
    // [pz x4 | 1 x4] (a broadcast and a blend) need no lane-crossing operation.
    const auto transform = [](const float* p, const Blended2& m) {
        const __m256 pxy = pairSpread(p);
        const __m256 pz1 = _mm256_blend_ps(_mm256_broadcast_ss(p + 2), _mm256_set1_ps(1.0f), 0xf0);
        const __m256 h = _mm256_fmadd_ps(m.c01, pxy, _mm256_mul_ps(m.c23, pz1));
        return _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
    };
    const auto position = [&](std::uint32_t v, const Blended2& m) {
        storeVertex(outPositions, v, wide, transform(positions + static_cast<std::size_t>(v) * 3, m));
    };
    // Vertices a and b (b == a for a last, unpaired vertex, stored once).
    const auto normalPair = [&](auto normalsTag, std::uint32_t a, std::uint32_t b, const Blended2& ma,
                                const Blended2& mb) {
        const __m256 c0 = _mm256_permute2f128_ps(ma.c01, mb.c01, 0x20);
        const __m256 c1 = _mm256_permute2f128_ps(ma.c01, mb.c01, 0x31);
        const __m256 c2 = _mm256_permute2f128_ps(ma.c23, mb.c23, 0x20);
        const auto yzx = [](__m256 x) { return _mm256_permute_ps(x, _MM_SHUFFLE(3, 0, 2, 1)); };
        const auto zxy = [](__m256 x) { return _mm256_permute_ps(x, _MM_SHUFFLE(3, 1, 0, 2)); };
        // x + y + z of each vertex in lanes 0..2 of its half (lane 3 is ignored).
        const auto sum3 = [&](__m256 x) { return _mm256_add_ps(_mm256_add_ps(x, yzx(x)), zxy(x)); };
        const float* na = normals + static_cast<std::size_t>(a) * 3;
        const float* nb = normals + static_cast<std::size_t>(b) * 3;
        const __m256 nx = halves(na, nb), ny = halves(na + 1, nb + 1), nz = halves(na + 2, nb + 2);
        const __m256 one = _mm256_set1_ps(1.0f);
        __m256 o, sign;
        if constexpr (decltype(normalsTag)::value == NormalsBy::Cofactor) {
            const auto cross = [&](__m256 x, __m256 y) {
                return yzx(_mm256_fmsub_ps(x, yzx(y), _mm256_mul_ps(yzx(x), y)));
            };
            const __m256 r0 = cross(c1, c2), r1 = cross(c2, c0), r2 = cross(c0, c1);
            o = _mm256_fmadd_ps(r2, nz, _mm256_fmadd_ps(r1, ny, _mm256_mul_ps(r0, nx)));
            const __m256 det = sum3(_mm256_mul_ps(c0, r0));
            sign = _mm256_blendv_ps(one, _mm256_set1_ps(-1.0f), _mm256_cmp_ps(det, _mm256_setzero_ps(), _CMP_LT_OQ));
        } else {
            o = _mm256_fmadd_ps(c2, nz, _mm256_fmadd_ps(c1, ny, _mm256_mul_ps(c0, nx)));
            sign = one;
        }
        const __m256 len2 = sum3(_mm256_mul_ps(o, o));
        const __m256 unit = _mm256_mul_ps(o, _mm256_div_ps(sign, _mm256_sqrt_ps(len2)));
        // A vertex whose normal collapses (len2 == 0, or NaN) keeps its input normal.
        const __m256 input = _mm256_blend_ps(_mm256_blend_ps(nx, ny, 0x22), nz, 0x44);
        const __m256 chosen = _mm256_blendv_ps(input, unit, _mm256_cmp_ps(len2, _mm256_setzero_ps(), _CMP_GT_OQ));
        storeVertex(outNormals, a, b != a ? wide : 0, _mm256_castps256_ps128(chosen));
        if (b != a) storeVertex(outNormals, b, wide, _mm256_extractf128_ps(chosen, 1));
    };
    // Other influence counts: one vertex per iteration (with two blends of the
    // general kind per iteration the loop ran out of registers and spilled); an even
    // vertex's matrix waits for its odd partner. Positions alone get their own
    // loops, so the normals' constants do not take registers from them.
    if (!doNormals) {
        std::uint32_t v = 0;
        if (influences == 4) {
            // Two vertices per iteration, pointers stepped once (fewer instructions
            // again: 2.50 -> 2.16 ns/vertex on Zen 4 with the blend above). Both are
            // transformed before either is stored, so a's four-float store may land
            // on b's input x; b's store writes four floats only where outputs and
            // inputs are apart, and never on the last vertex (storeVertex).
            const std::uint16_t* jv = joints;
            const float* wv = weights;
            const float* p = positions;
            float* o = outPositions;
            for (; v + 3 <= count; v += 2, jv += 8, wv += 8, p += 6, o += 6) {
                const __m128 a = transform(p, blendedMatrix4(palette, jv, wv));
                const __m128 b = transform(p + 3, blendedMatrix4(palette, jv + 4, wv + 4));
                _mm_storeu_ps(o, a);
                if (wide != 0) {
                    _mm_storeu_ps(o + 3, b);
                } else {
                    store3(o + 3, b);
                }
            }
        }
        for (; v < count; ++v) position(v, blendAt(v));
        return;
    }
    const auto withNormals = [&](auto normalsTag) {
        std::uint32_t first = 0;
        if (influences == 4) {
            // The common case as its own loop: a pair per iteration, no per-vertex test of
            // the influence count or of which vertex of the pair this is.
            for (; first + 2 <= count; first += 2) {
                const std::size_t at = static_cast<std::size_t>(first) * 4;
                const Blended2 a = blendedMatrix4(palette, joints + at, weights + at);
                const Blended2 b = blendedMatrix4(palette, joints + at + 4, weights + at + 4);
                position(first, a);
                position(first + 1, b);
                normalPair(normalsTag, first, first + 1, a, b);
            }
        }
        Blended2 even{};
        for (std::uint32_t v = first; v < count; ++v) {
            const Blended2 m = blendAt(v);
            position(v, m);
            if ((v & 1u) == 0) {
                even = m;
            } else {
                normalPair(normalsTag, v - 1, v, even, m);
            }
        }
        if ((count & 1u) != 0) normalPair(normalsTag, count - 1, count - 1, even, even);
    };
    if (normalTransform == detail::kNormalsByBlendedMatrix) {
        withNormals(NormalsTag<NormalsBy::BlendedMatrix>{});
    } else {
        withNormals(NormalsTag<NormalsBy::Cofactor>{});
    }
}
