// Skinning with 512-bit registers: four vertices per register, and the variant
// that blends positions in 256-bit halves (kAvx512SplitBlendSkin).

inline __m512 paletteAt(const float* palette, std::size_t joint) noexcept {
    return _mm512_loadu_ps(palette + joint * 16);
}

// The blended matrix, sum of w_i palette[j_i], of one vertex as one register
// [c0 | c1 | c2 | c3]. Four influences, the common case, are summed in the
// reference's order (a serial chain: the kernel below overlaps groups, so its
// latency is hidden). Shaped for the load ports, which bound the skinning loop on
// Zen 4 (one 512-bit load per cycle, and a 512-bit broadcast counts as one): the
// indices are one load (FourJoints); the palette rows are kept as separate loads
// so that each weight's broadcast folds into its multiply-add; where `wv` is a
// plain register (the main loop steps it), that folded load is base +
// displacement and stays one micro-operation.
inline __m512 blendedMatrix4(const float* palette, const std::uint16_t* jv, const float* wv) noexcept {
    const FourJoints j = fourJoints(jv);
    const char* rows = reinterpret_cast<const char*>(palette);
    const auto row = [&](int i) {
        __m512 p = _mm512_loadu_ps(reinterpret_cast<const float*>(rows + j.rowOffset(i)));
        asm("" : "+v"(p));
        return p;
    };
    __m512 m = _mm512_mul_ps(row(0), _mm512_set1_ps(wv[0]));
    m = _mm512_fmadd_ps(row(1), _mm512_set1_ps(wv[1]), m);
    m = _mm512_fmadd_ps(row(2), _mm512_set1_ps(wv[2]), m);
    return _mm512_fmadd_ps(row(3), _mm512_set1_ps(wv[3]), m);
}

// The same blended matrix in two 256-bit halves (blendedHalves4), for CPUs that
// execute a 512-bit operation as two 256-bit ones (Zen 4: WideVectorCost::
// SplitHalves). There a 512-bit load or 512-bit broadcast load takes a whole cycle
// of the load pipes and a multiply-add's {1to16} broadcast most of one, and the
// loads bound the loop; 256-bit loads issue two per cycle. The weights come from
// one 128-bit load spread by in-lane permutes (which three of the four FP pipes
// run) instead of four broadcast loads. Each lane sees the same operations in the
// same order as in blendedMatrix4, so the result is the same bit for bit.
inline Blended2 splitBlendedMatrix4(const float* palette, const std::uint16_t* jv, const float* wv) noexcept {
    __m256 w = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(wv));
    // Opaque, or the compiler turns each permute of the load back into a broadcast load.
    asm("" : "+v"(w));
    return blendedHalves4(palette, jv, _mm256_permute_ps(w, 0x00), _mm256_permute_ps(w, 0x55),
                          _mm256_permute_ps(w, 0xAA), _mm256_permute_ps(w, 0xFF));
}

// [a | b] from two 256-bit halves.
inline __m512 joined(__m256 a, __m256 b) noexcept {
    return blocks<0x44>(_mm512_castps256_ps512(a), _mm512_castps256_ps512(b));
}

inline __m512 blendedMatrix(const float* palette, const std::uint16_t* jv, const float* wv,
                            std::uint32_t influences) noexcept {
    if (influences == 4) return blendedMatrix4(palette, jv, wv);
    __m512 even = _mm512_setzero_ps(), odd = _mm512_setzero_ps();
    std::uint32_t i = 0;
    for (; i + 2 <= influences; i += 2) {
        even = _mm512_fmadd_ps(paletteAt(palette, jv[i]), _mm512_set1_ps(wv[i]), even);
        odd = _mm512_fmadd_ps(paletteAt(palette, jv[i + 1]), _mm512_set1_ps(wv[i + 1]), odd);
    }
    if (i < influences) even = _mm512_fmadd_ps(paletteAt(palette, jv[i]), _mm512_set1_ps(wv[i]), even);
    return _mm512_add_ps(even, odd);
}

// Four vertices at a time: their blended matrices are transposed by 128-bit
// blocks into Ck = [A.ck | B.ck | C.ck | D.ck], so the point transform is three
// multiply-adds for all four and the normals' cross products and dot products
// run on four vertices per instruction. Groups of fewer than four (the tail) use
// masked loads and stores, so nothing is read or written past the arrays.
// `SplitBlend`: the positions-only loop blends in 256-bit halves (splitBlendedMatrix4;
// the loop with normals stays on whole registers: 3-6 % slower in halves).
template <bool SplitBlend>
void skinKernelFor(const float* palette, const std::uint16_t* joints, const float* weights, std::uint32_t influences,
                   const float* positions, const float* normals, std::uint32_t count, float* outPositions,
                   float* outNormals, std::uint32_t normalTransform) noexcept {
    // Lane l of a group register belongs to vertex l / 4; these spread component
    // k of each vertex over its four lanes (the translation column is added as is).
    const __m512i spreadX = _mm512_setr_epi32(0, 0, 0, 0, 3, 3, 3, 3, 6, 6, 6, 6, 9, 9, 9, 9);
    const __m512i spreadY = _mm512_add_epi32(spreadX, _mm512_set1_epi32(1));
    const __m512i spreadZ = _mm512_add_epi32(spreadX, _mm512_set1_epi32(2));
    // xyz of each vertex packed back to 12 consecutive floats.
    const __m512i pack = _mm512_setr_epi32(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0, 0, 0, 0);
    const __m512i unpack = _mm512_setr_epi32(0, 1, 2, 0, 3, 4, 5, 0, 6, 7, 8, 0, 9, 10, 11, 0);
    constexpr int kYzx = _MM_SHUFFLE(3, 0, 2, 1), kZxy = _MM_SHUFFLE(3, 1, 0, 2);
    // Vertices v .. v + n - 1 (n <= 4) from t0 = [A.c0 | A.c1 | B.c0 | B.c1],
    // t1 = [A.c2 | A.c3 | B.c2 | B.c3] and t2, t3 the same of C and D.
    const auto finish = [&](auto normalsTag, std::uint32_t v, std::uint32_t n, __m512 t0, __m512 t1, __m512 t2,
                            __m512 t3) {
        const __mmask16 lanes = static_cast<__mmask16>((1u << (3 * n)) - 1);
        const __m512 c0 = blocks<0x88>(t0, t2), c1 = blocks<0xDD>(t0, t2);
        const __m512 c2 = blocks<0x88>(t1, t3), c3 = blocks<0xDD>(t1, t3);

        const __m512 p = _mm512_maskz_loadu_ps(lanes, positions + static_cast<std::size_t>(v) * 3);
        const __m512 r =
            _mm512_fmadd_ps(c2, permute16(spreadZ, p),
                            _mm512_fmadd_ps(c1, permute16(spreadY, p), _mm512_fmadd_ps(c0, permute16(spreadX, p), c3)));
        _mm512_mask_storeu_ps(outPositions + static_cast<std::size_t>(v) * 3, lanes, permute16(pack, r));
        constexpr NormalsBy by = decltype(normalsTag)::value;
        if constexpr (by == NormalsBy::None) return;

        // x + y + z of each vertex in its lanes 0..2 (lane 3 is ignored).
        const auto sum3 = [&](__m512 a) {
            return _mm512_add_ps(_mm512_add_ps(a, withinBlocks<kYzx>(a)), withinBlocks<kZxy>(a));
        };
        __m512 nv, o, len2, sign;
        if constexpr (by == NormalsBy::Cofactor) {
            // Cofactor matrix (det * inverse-transpose) as three cross products of the
            // blended columns, as the scalar reference computes it element by element.
            const __m512 y0 = withinBlocks<kYzx>(c0), y1 = withinBlocks<kYzx>(c1);
            const __m512 y2 = withinBlocks<kYzx>(c2);
            const auto cross = [&](__m512 a, __m512 ya, __m512 bb, __m512 yb) {
                return withinBlocks<kYzx>(_mm512_fmsub_ps(a, yb, _mm512_mul_ps(ya, bb)));
            };
            const __m512 r0 = cross(c1, y1, c2, y2), r1 = cross(c2, y2, c0, y0), r2 = cross(c0, y0, c1, y1);
            nv = _mm512_maskz_loadu_ps(lanes, normals + static_cast<std::size_t>(v) * 3);
            o = _mm512_fmadd_ps(r2, permute16(spreadZ, nv),
                                _mm512_fmadd_ps(r1, permute16(spreadY, nv), _mm512_mul_ps(r0, permute16(spreadX, nv))));
            const __m512 det = sum3(_mm512_mul_ps(c0, r0));
            len2 = sum3(_mm512_mul_ps(o, o));
            // -1 where det < 0, as the reference decides it (a sign bit alone would also
            // flip det == -0).
            sign = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(det, _mm512_setzero_ps(), _CMP_LT_OQ), _mm512_set1_ps(1.0f),
                                        _mm512_set1_ps(-1.0f));
        } else {
            nv = _mm512_maskz_loadu_ps(lanes, normals + static_cast<std::size_t>(v) * 3);
            o = _mm512_fmadd_ps(c2, permute16(spreadZ, nv),
                                _mm512_fmadd_ps(c1, permute16(spreadY, nv), _mm512_mul_ps(c0, permute16(spreadX, nv))));
            len2 = sum3(_mm512_mul_ps(o, o));
            sign = _mm512_set1_ps(1.0f);
        }
        const __m512 unit = _mm512_mul_ps(o, _mm512_div_ps(sign, S::sqrt(len2)));
        // A vertex whose normal collapses (len2 == 0, or NaN) keeps its input normal.
        const __mmask16 valid = _mm512_cmp_ps_mask(len2, _mm512_setzero_ps(), _CMP_GT_OQ);
        const __m512 chosen = _mm512_mask_blend_ps(valid, permute16(unpack, nv), unit);
        _mm512_mask_storeu_ps(outNormals + static_cast<std::size_t>(v) * 3, lanes, permute16(pack, chosen));
    };
    // Positions alone and positions with normals are two loops: one loop for both
    // keeps the normals' constants in registers the blends then lack.
    // Four blended matrices [c0 | c1 | c2 | c3] as finish() takes them.
    const auto finishBlended = [&](auto normalsTag, std::uint32_t v, std::uint32_t n, const __m512* b) {
        finish(normalsTag, v, n, blocks<0x44>(b[0], b[1]), blocks<0xEE>(b[0], b[1]), blocks<0x44>(b[2], b[3]),
               blocks<0xEE>(b[2], b[3]));
    };
    const auto run = [&](auto normalsTag) {
        constexpr bool halves = SplitBlend && decltype(normalsTag)::value == NormalsBy::None;
        std::uint32_t v = 0;
        if (influences == 4 && count >= 4) {
            // Software-pipelined by one group: the next group's blends are issued before
            // this group's transpose and transform, whose inputs are then ready, so the
            // scheduler is not filled with a long dependent chain per group.
            // The group's indices and weights by pointers stepped once per group: the
            // weights' folded loads are then base + displacement, one micro-operation
            // each, and no index arithmetic is redone per group.
            const std::uint16_t* jv = joints;
            const float* wv = weights;
            const auto blend = [&](__m512* t) {
                if constexpr (halves) {
                    for (int k = 0; k < 4; k += 2) {
                        const Blended2 a = splitBlendedMatrix4(palette, jv + 4 * k, wv + 4 * k);
                        const Blended2 b = splitBlendedMatrix4(palette, jv + 4 * k + 4, wv + 4 * k + 4);
                        t[k] = joined(a.c01, b.c01);
                        t[k + 1] = joined(a.c23, b.c23);
                    }
                } else {
                    // The four blended matrices; their transpose waits for `group`
                    // (measured: 1-2 % faster with normals than transposing here).
                    for (int k = 0; k < 4; ++k) t[k] = blendedMatrix4(palette, jv + 4 * k, wv + 4 * k);
                }
                jv += 16;
                wv += 16;
                asm("" : "+r"(wv), "+r"(jv));
            };
            const auto group = [&](std::uint32_t at, const __m512* t) {
                if constexpr (halves) {
                    finish(normalsTag, at, 4, t[0], t[1], t[2], t[3]);
                } else {
                    finishBlended(normalsTag, at, 4, t);
                }
            };
            // Two groups per iteration with the two register sets trading roles, so no
            // blended matrix is copied from one set to the other.
            __m512 cur[4], next[4];
            blend(cur);
            for (; v + 12 <= count; v += 8) {
                blend(next);
                group(v, cur);
                blend(cur);
                group(v + 4, next);
            }
            if (v + 8 <= count) {
                blend(next);
                group(v, cur);
                for (int k = 0; k < 4; ++k) cur[k] = next[k];
                v += 4;
            }
            group(v, cur);
            v += 4;
        }
        for (; v < count; v += 4) {
            const std::uint32_t n = count - v < 4 ? count - v : 4;
            __m512 b[4];
            for (std::uint32_t k = 0; k < 4; ++k) {
                const std::size_t at = static_cast<std::size_t>(v + k) * influences;
                b[k] = k < n ? blendedMatrix(palette, joints + at, weights + at, influences) : _mm512_setzero_ps();
            }
            finishBlended(normalsTag, v, n, b);
        }
    };
    runForNormals(normals != nullptr && outNormals != nullptr, normalTransform, run);
}

void skinKernel(const float* palette, const std::uint16_t* joints, const float* weights, std::uint32_t influences,
                const float* positions, const float* normals, std::uint32_t count, float* outPositions,
                float* outNormals, std::uint32_t normalTransform) noexcept {
    skinKernelFor<false>(palette, joints, weights, influences, positions, normals, count, outPositions, outNormals,
                         normalTransform);
}

void skinKernelSplitBlend(const float* palette, const std::uint16_t* joints, const float* weights,
                          std::uint32_t influences, const float* positions, const float* normals, std::uint32_t count,
                          float* outPositions, float* outNormals, std::uint32_t normalTransform) noexcept {
    skinKernelFor<true>(palette, joints, weights, influences, positions, normals, count, outPositions, outNormals,
                        normalTransform);
}
