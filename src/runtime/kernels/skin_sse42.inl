// Skinning with 128-bit registers and no FMA: a vertex's blended matrix as four
// column registers, positions vertex by vertex, normals four vertices at a time.

// The blended matrix of one vertex, column after column.
struct Columns {
    __m128 c[4];
};

// v's lanes reordered by Imm (as _MM_SHUFFLE), and lane I of v in all four lanes:
// one shuffle that does not overwrite its source (SSE's float shuffle does, which
// costs a register copy where the source is still needed).
template <int Imm>
inline __m128 spread4(__m128 v) noexcept {
    return _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(v), Imm));
}

template <int I>
inline __m128 spread(__m128 v) noexcept {
    return spread4<I * 0x55>(v);
}

// Summed in the reference's order with the portable kernel's operations (so that
// both give the same bits), from the first product (0 + x would only turn -0 into
// +0). Four influences: their weights from one load. Aligned loads (the palette is
// Mat4) can fold into the multiplies.
template <bool Four>
inline Columns blendedColumns(const float* palette, const std::uint16_t* jv, const float* wv,
                              std::uint32_t influences) noexcept {
    Columns m;
    if constexpr (Four) {
        const __m128 w = _mm_loadu_ps(wv);
        const __m128 ws[4] = {spread<0>(w), spread<1>(w), spread<2>(w), spread<3>(w)};
        const float* pm[4];
        for (unsigned i = 0; i < 4; ++i) pm[i] = palette + static_cast<std::size_t>(jv[i]) * 16;
        for (unsigned c = 0; c < 4; ++c) {
            m.c[c] = _mm_mul_ps(_mm_load_ps(pm[0] + 4 * c), ws[0]);
            for (unsigned i = 1; i < 4; ++i) m.c[c] = _mm_add_ps(_mm_mul_ps(_mm_load_ps(pm[i] + 4 * c), ws[i]), m.c[c]);
        }
        return m;
    }
    if (influences == 0) return Columns{{_mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps()}};
    const __m128 w0 = _mm_set1_ps(wv[0]);
    const float* p0 = palette + static_cast<std::size_t>(jv[0]) * 16;
    for (unsigned c = 0; c < 4; ++c) m.c[c] = _mm_mul_ps(_mm_load_ps(p0 + 4 * c), w0);
    for (std::uint32_t i = 1; i < influences; ++i) {
        const float* pm = palette + static_cast<std::size_t>(jv[i]) * 16;
        const __m128 w = _mm_set1_ps(wv[i]);
        for (unsigned c = 0; c < 4; ++c) m.c[c] = _mm_add_ps(_mm_mul_ps(_mm_load_ps(pm + 4 * c), w), m.c[c]);
    }
    return m;
}

// The point p = (px, py, pz, any) through m: c2 pz + (c1 py + (c0 px + c3)), as the
// portable kernel.
inline __m128 transformedPoint(const Columns& m, __m128 p) noexcept {
    __m128 r = _mm_add_ps(_mm_mul_ps(m.c[0], spread<0>(p)), m.c[3]);
    r = _mm_add_ps(_mm_mul_ps(m.c[1], spread<1>(p)), r);
    return _mm_add_ps(_mm_mul_ps(m.c[2], spread<2>(p)), r);
}

// The three floats at p; four where a fourth is readable (`Inside`: not the array's
// last vertex).
template <bool Inside>
inline __m128 loadPoint(const float* p) noexcept {
    if constexpr (Inside) return _mm_loadu_ps(p);
    return _mm_movelh_ps(_mm_castpd_ps(_mm_load_sd(reinterpret_cast<const double*>(p))), _mm_load_ss(p + 2));
}

inline void store3(float* o, __m128 r) noexcept {
    _mm_storel_pi(reinterpret_cast<__m64*>(o), r);
    _mm_store_ss(o + 2, _mm_movehl_ps(r, r));
}

// x, y and z of four vertices, one register each.
struct Xyz4 {
    __m128 x, y, z;
};

// From twelve floats, x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3.
inline Xyz4 loadXyz4(const float* p) noexcept {
    const __m128 a = _mm_loadu_ps(p), b = _mm_loadu_ps(p + 4), c = _mm_loadu_ps(p + 8);
    const __m128 xy23 = _mm_shuffle_ps(b, c, _MM_SHUFFLE(2, 1, 3, 2));  // x2 y2 x3 y3
    const __m128 yz01 = _mm_shuffle_ps(a, b, _MM_SHUFFLE(1, 0, 2, 1));  // y0 z0 y1 z1
    return {_mm_shuffle_ps(a, xy23, _MM_SHUFFLE(2, 0, 3, 0)), _mm_shuffle_ps(yz01, xy23, _MM_SHUFFLE(3, 1, 2, 0)),
            _mm_shuffle_ps(yz01, c, _MM_SHUFFLE(3, 0, 3, 1))};
}

inline void storeXyz4(float* p, const Xyz4& v) noexcept {
    const __m128 xy01 = _mm_unpacklo_ps(v.x, v.y), xy23 = _mm_unpackhi_ps(v.x, v.y);  // x0 y0 x1 y1, x2 y2 x3 y3
    const __m128 z0x1 = _mm_shuffle_ps(v.z, xy01, _MM_SHUFFLE(2, 0, 0, 0));           // z0 . . x1
    const __m128 y1z1 = _mm_shuffle_ps(xy01, v.z, _MM_SHUFFLE(1, 0, 0, 3));           // y1 . . z1
    const __m128 z2z3x3y3 = _mm_shuffle_ps(v.z, xy23, _MM_SHUFFLE(3, 2, 3, 2));
    _mm_storeu_ps(p, _mm_shuffle_ps(xy01, z0x1, _MM_SHUFFLE(3, 0, 1, 0)));
    _mm_storeu_ps(p + 4, _mm_shuffle_ps(y1z1, xy23, _MM_SHUFFLE(1, 0, 3, 0)));
    _mm_storeu_ps(p + 8, spread4<_MM_SHUFFLE(1, 3, 2, 0)>(z2z3x3y3));
}

// Elements 0..2 of one column of four matrices (the fourth row is not needed).
inline Xyz4 transposed(__m128 a, __m128 b, __m128 c, __m128 d) noexcept {
    const __m128 ab = _mm_unpacklo_ps(a, b), cd = _mm_unpacklo_ps(c, d);
    return {_mm_movelh_ps(ab, cd), _mm_movehl_ps(cd, ab), _mm_movelh_ps(_mm_unpackhi_ps(a, b), _mm_unpackhi_ps(c, d))};
}

inline __m128 mulSub(__m128 a, __m128 b, __m128 c, __m128 d) noexcept {
    return _mm_sub_ps(_mm_mul_ps(a, b), _mm_mul_ps(c, d));
}

// a x + b y + c z, summed left to right.
inline __m128 dot3(__m128 a, __m128 x, __m128 b, __m128 y, __m128 c, __m128 z) noexcept {
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(a, x), _mm_mul_ps(b, y)), _mm_mul_ps(c, z));
}

// The normals of four vertices through their blended matrices, one vertex per lane:
// the portable kernel's scalar operations in its order, so the same bits, with no
// branch for a collapsed normal. In four steps, which the loop below interleaves
// with the next group's blends: each step's inputs are then ready when it is
// issued, and the steps' long chain (square root, division) does not hold the
// scheduler's entries while the blends wait behind it.
template <NormalsBy By>
struct Normals4 {
    Xyz4 n, c0, c1, c2, o;
    __m128 sign, len2, s;

    // Input normals from twelve floats at `in`; the matrices' columns as x, y, z registers.
    void load(const Columns* m, const float* in) noexcept {
        n = loadXyz4(in);
        c0 = transposed(m[0].c[0], m[1].c[0], m[2].c[0], m[3].c[0]);
        c1 = transposed(m[0].c[1], m[1].c[1], m[2].c[1], m[3].c[1]);
        c2 = transposed(m[0].c[2], m[1].c[2], m[2].c[2], m[3].c[2]);
    }
    void transform() noexcept {
        const __m128 one = _mm_set1_ps(1.0f);
        if constexpr (By == NormalsBy::Cofactor) {
            // Cofactor matrix (det * inverse-transpose): rows r0 = c1 x c2, r1 = c2 x c0,
            // r2 = c0 x c1; the sign of det keeps the normal facing out when the blend mirrors.
            const Xyz4 r0{mulSub(c1.y, c2.z, c1.z, c2.y), mulSub(c1.z, c2.x, c1.x, c2.z),
                          mulSub(c1.x, c2.y, c1.y, c2.x)};
            const Xyz4 r1{mulSub(c2.y, c0.z, c2.z, c0.y), mulSub(c2.z, c0.x, c2.x, c0.z),
                          mulSub(c2.x, c0.y, c2.y, c0.x)};
            const Xyz4 r2{mulSub(c0.y, c1.z, c0.z, c1.y), mulSub(c0.z, c1.x, c0.x, c1.z),
                          mulSub(c0.x, c1.y, c0.y, c1.x)};
            o = {dot3(r0.x, n.x, r1.x, n.y, r2.x, n.z), dot3(r0.y, n.x, r1.y, n.y, r2.y, n.z),
                 dot3(r0.z, n.x, r1.z, n.y, r2.z, n.z)};
            const __m128 det = dot3(c0.x, r0.x, c0.y, r0.y, c0.z, r0.z);
            sign = _mm_blendv_ps(one, _mm_set1_ps(-1.0f), _mm_cmplt_ps(det, _mm_setzero_ps()));
        } else {
            o = {dot3(c0.x, n.x, c1.x, n.y, c2.x, n.z), dot3(c0.y, n.x, c1.y, n.y, c2.y, n.z),
                 dot3(c0.z, n.x, c1.z, n.y, c2.z, n.z)};
            sign = one;
        }
        len2 = dot3(o.x, o.x, o.y, o.y, o.z, o.z);
    }
    void scale() noexcept { s = _mm_div_ps(sign, _mm_sqrt_ps(len2)); }
    void store(float* out) const noexcept {
        // A vertex whose normal collapses (len2 == 0, or NaN) keeps its input normal.
        const __m128 valid = _mm_cmpgt_ps(len2, _mm_setzero_ps());
        storeXyz4(out,
                  {_mm_blendv_ps(n.x, _mm_mul_ps(o.x, s), valid), _mm_blendv_ps(n.y, _mm_mul_ps(o.y, s), valid),
                   _mm_blendv_ps(n.z, _mm_mul_ps(o.z, s), valid)});
    }
};

template <NormalsBy By>
inline void normals4(const Columns* m, const float* in, float* out) noexcept {
    Normals4<By> a;
    a.load(m, in);
    a.transform();
    a.scale();
    a.store(out);
}

// Each vertex's matrix is blended and its position transformed and stored; with
// normals, vertices go in groups of four whose matrices then go to Normals4. The
// last group, of one to four vertices, reads and writes its normals through a copy,
// so nothing past the arrays is touched. Every vertex's inputs are read before its
// outputs are written, and a group's normals all before any is written, so skinning
// in place is correct.
template <bool Four, NormalsBy By>
void skinGroups(const float* palette, const std::uint16_t* joints, const float* weights, std::uint32_t influences,
                const float* positions, const float* normals, std::uint32_t count, float* outPositions,
                float* outNormals, bool wide) noexcept {
    const std::uint32_t k = Four ? 4u : influences;
    // Vertex v into m. Below the last vertex (`Inside`) its position is read as four
    // floats, and where outputs and inputs are apart (`wide`) it is stored as four,
    // the fourth landing on the next vertex's x, which that vertex's store then
    // writes (one store instead of two).
    const auto vertex = [&]<bool Inside>(std::uint32_t v, Columns & m) __attribute__((always_inline)) {
        const std::size_t at = static_cast<std::size_t>(v) * k;
        m = blendedColumns<Four>(palette, joints + at, weights + at, influences);
        const std::size_t p = static_cast<std::size_t>(v) * 3;
        const __m128 r = transformedPoint(m, loadPoint<Inside>(positions + p));
        if (Inside && wide) {
            _mm_storeu_ps(outPositions + p, r);
        } else {
            store3(outPositions + p, r);
        }
    };
    std::uint32_t v = 0;
    if constexpr (By == NormalsBy::None) {
        // Every vertex but the last, through pointers stepped once per vertex, with the
        // store's width chosen once (fewer instructions: the loop is bound by how many
        // it issues as much as by its arithmetic).
        const auto positionsLoop = [&]<bool Wide>() __attribute__((always_inline)) {
            const std::uint16_t* jv = joints;
            const float* wv = weights;
            const float* p = positions;
            float* o = outPositions;
            for (; v + 1 < count; ++v, jv += k, wv += k, p += 3, o += 3) {
                const __m128 r = transformedPoint(blendedColumns<Four>(palette, jv, wv, influences), _mm_loadu_ps(p));
                if constexpr (Wide) {
                    _mm_storeu_ps(o, r);
                } else {
                    store3(o, r);
                }
            }
        };
        if (wide) {
            positionsLoop.template operator()<true>();
        } else {
            positionsLoop.template operator()<false>();
        }
    } else if (count > 4) {
        // Software-pipelined by one group: a group's normals are computed in four
        // steps between the next group's four blends (docs/SIMD.md, "SSE4.2 kernel
        // shapes").
        Columns groups[2][4];
        for (std::uint32_t i = 0; i < 4; ++i) vertex.template operator()<true>(i, groups[0][i]);
        unsigned cur = 1;
        for (v = 4; v + 4 < count; v += 4, cur ^= 1u) {
            Columns* m = groups[cur];
            const std::size_t at = static_cast<std::size_t>(v - 4) * 3;
            Normals4<By> prev;
            vertex.template operator()<true>(v, m[0]);
            prev.load(groups[cur ^ 1u], normals + at);
            vertex.template operator()<true>(v + 1, m[1]);
            prev.transform();
            vertex.template operator()<true>(v + 2, m[2]);
            prev.scale();
            vertex.template operator()<true>(v + 3, m[3]);
            prev.store(outNormals + at);
        }
        const std::size_t at = static_cast<std::size_t>(v - 4) * 3;
        normals4<By>(groups[cur ^ 1u], normals + at, outNormals + at);
    }
    // The last group, of one to four vertices.
    const std::uint32_t rest = count - v;
    Columns m[4];
    for (std::uint32_t i = 0; i < 4; ++i) {
        if (i + 1 < rest) {
            vertex.template operator()<true>(v + i, m[i]);
        } else if (i + 1 == rest) {
            vertex.template operator()<false>(v + i, m[i]);
        } else {
            m[i] = Columns{{_mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps()}};
        }
    }
    if constexpr (By != NormalsBy::None) {
        alignas(16) float in[12] = {}, out[12];
        const std::size_t at = static_cast<std::size_t>(v) * 3;
        for (std::uint32_t i = 0; i < 3 * rest; ++i) in[i] = normals[at + i];
        normals4<By>(m, in, out);
        for (std::uint32_t i = 0; i < 3 * rest; ++i) outNormals[at + i] = out[i];
    }
}

void skinKernel(const float* palette, const std::uint16_t* joints, const float* weights, std::uint32_t influences,
                const float* positions, const float* normals, std::uint32_t count, float* outPositions,
                float* outNormals, std::uint32_t normalTransform) noexcept {
    const bool doNormals = normals != nullptr && outNormals != nullptr;
    const bool wide = outputsApart(positions, normals, count, outPositions, outNormals, doNormals);
    runForNormals(doNormals, normalTransform, [&](auto normalsTag) {
        constexpr NormalsBy by = decltype(normalsTag)::value;
        if (influences == 4) {
            skinGroups<true, by>(palette, joints, weights, influences, positions, normals, count, outPositions,
                                 outNormals, wide);
        } else {
            skinGroups<false, by>(palette, joints, weights, influences, positions, normals, count, outPositions,
                                  outNormals, wide);
        }
    });
}
