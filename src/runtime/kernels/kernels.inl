// The per-frame kernels, written once against the instruction-set wrapper `S`
// (isa_*.inl) and compiled once per instruction set. Included inside an anonymous
// namespace: nothing here may call a function defined outside this translation
// unit (see detail/kernel_abi.hpp for why).
//
// Path and interpolation numbers are those of kinema::TrackPath and
// kinema::Interpolation (checked by static_assert in packed_clip.cpp).

using F = S::F;
using V4 = S::V4;
constexpr unsigned W = S::W;

constexpr unsigned kPathTranslation = 0, kPathRotation = 1, kPathScale = 2, kPathWeights = 3;
constexpr unsigned kStep = 0, kLinear = 1, kCubic = 2;

inline F dot4(const F* a, const F* b) noexcept {
    return S::fmadd(a[3], b[3], S::fmadd(a[2], b[2], S::fmadd(a[1], b[1], S::mul(a[0], b[0]))));
}

// 1 / sqrt(x) to about 1 ulp: the hardware estimate (where there is one) and one
// Newton step.
inline F invSqrt(F x) noexcept {
    const F r = S::rsqrt(x);
    return S::mul(S::mul(S::set1(0.5f), r), S::fnmadd(S::mul(x, r), r, S::set1(3.0f)));
}

inline void normalize4(F* q) noexcept {
    const F inv = invSqrt(dot4(q, q));
    for (int c = 0; c < 4; ++c) q[c] = S::mul(q[c], inv);
}

// sin(t w) / sin(w) as a power series in y = cos(w) - 1. The ratio satisfies
// Chebyshev's equation (1 - x^2) f'' - 3 x f' + (t^2 - 1) f = 0 in x = cos(w);
// expanding about x = 1 gives c0 = t, c(i) = c(i-1) (t^2 - i^2) / (i (2i + 1)).
// For |y| <= 1 - cos(pi/4) the terms shrink by more than 6.8x each; eight terms
// leave an error below 1e-7.
constexpr int kSlerpTerms = 8;

struct SlerpSeries {
    F c[kSlerpTerms];
};

inline SlerpSeries slerpSeries(float t) noexcept {
    SlerpSeries s;
    double c = t;
    s.c[0] = S::set1(t);
    for (int i = 1; i < kSlerpTerms; ++i) {
        c *= (static_cast<double>(t) * t - static_cast<double>(i) * i) / (static_cast<double>(i) * (2 * i + 1));
        s.c[i] = S::set1(static_cast<float>(c));
    }
    return s;
}

inline F evalSeries(const SlerpSeries& s, F y) noexcept {
    F r = s.c[kSlerpTerms - 1];
    for (int i = kSlerpTerms - 2; i >= 0; --i) r = S::fmadd(r, y, s.c[i]);
    return r;
}

// Shortest-arc slerp of unit quaternions a -> b at fraction u, the same u for all
// lanes. The arc is first halved at its midpoint m = (a + b) / |a + b| (the
// angle between the halves is then at most pi/4, where the series above
// converges fast); u picks the half once for every lane, so there is no
// per-lane branch, no inverse trigonometry and no division by sin(w).
struct HalfArcSlerp {
    bool firstHalf;
    SlerpSeries wp, wq;  // weights of the half's start and end
};

inline HalfArcSlerp halfArcSlerp(float u) noexcept {
    const bool first = u < 0.5f;
    const float t = first ? 2.0f * u : 2.0f * u - 1.0f;
    return {first, slerpSeries(1.0f - t), slerpSeries(t)};
}

inline void slerp(const F* a, const F* bIn, const HalfArcSlerp& h, F* out) noexcept {
    const F sign = S::signOf(dot4(a, bIn));
    F b[4], m[4];
    for (int c = 0; c < 4; ++c) {
        b[c] = S::xorSign(bIn[c], sign);
        m[c] = S::add(a[c], b[c]);
    }
    // |a + b| = 2 cos(w / 2): the midpoint, and the cosine of the half angle.
    const F len2 = dot4(m, m);
    const F inv = invSqrt(len2);
    for (int c = 0; c < 4; ++c) m[c] = S::mul(m[c], inv);
    const F y = S::fmadd(S::mul(len2, inv), S::set1(0.5f), S::set1(-1.0f));
    const F wp = evalSeries(h.wp, y), wq = evalSeries(h.wq, y);
    const F* p = h.firstHalf ? a : m;
    const F* q = h.firstHalf ? m : b;
    for (int c = 0; c < 4; ++c) out[c] = S::fmadd(wp, p[c], S::mul(wq, q[c]));
    normalize4(out);
}

// Where a block's lanes go: one output array per component, and the lane -> target map.
template <unsigned C>
struct BlockOutput {
    float* dst[C];
    const std::uint32_t* targets;
    unsigned lanes;
    bool contiguous;

    // Writes lanes [chunk, chunk + W) (as far as the block has lanes).
    void store(unsigned chunk, const F* v) const noexcept {
        const unsigned valid = lanes - chunk < W ? lanes - chunk : W;
        if (contiguous && valid == W) {
            const std::uint32_t t0 = targets[chunk];
            for (unsigned c = 0; c < C; ++c) S::storeu(dst[c] + t0, v[c]);
            return;
        }
        alignas(64) float tmp[W];
        for (unsigned c = 0; c < C; ++c) {
            S::store(tmp, v[c]);
            for (unsigned l = 0; l < valid; ++l) dst[c][targets[chunk + l]] = tmp[l];
        }
    }
};

template <unsigned C>
BlockOutput<C> blockOutput(const detail::PackedBlock& block, const detail::SampleArgs& args) noexcept {
    BlockOutput<C> o;
    const unsigned first = block.path == kPathTranslation ? 0u : block.path == kPathRotation ? 3u : 7u;
    for (unsigned c = 0; c < C; ++c) o.dst[c] = block.path == kPathWeights ? args.out.weights : args.out.c[first + c];
    o.targets = args.targets + block.targetOffset;
    o.lanes = block.lanes;
    o.contiguous = block.contiguous != 0;
    return o;
}

// One block with C components per lane.
template <unsigned C>
void sampleBlock(const detail::PackedBlock& block, const detail::SampleArgs& args) noexcept {
    const BlockOutput<C> out = blockOutput<C>(block, args);
    const detail::TimelinePoint point = args.points[block.timeline];
    const unsigned lanes = block.paddedLanes;
    const float* key0 = args.values + block.valueOffset + static_cast<std::size_t>(point.key) * block.keyStride;
    const float* key1 = key0 + block.keyStride;
    const float u = point.u;
    F v[C];
    if (block.interpolation == kCubic) {
        // Per key: in-tangents, values, out-tangents, each C rows of `lanes`.
        const float* v0 = key0 + C * lanes;
        if (u == 0.0f) {
            for (unsigned ch = 0; ch < block.lanes; ch += W) {
                for (unsigned c = 0; c < C; ++c) v[c] = S::load(v0 + c * lanes + ch);
                out.store(ch, v);
            }
            return;
        }
        const float* b0 = key0 + 2 * C * lanes;  // out-tangent of key k
        const float* a1 = key1;                  // in-tangent of key k + 1
        const float* v1 = key1 + C * lanes;
        const float u2 = u * u, u3 = u2 * u, td = point.span;
        const F h00 = S::set1(2.0f * u3 - 3.0f * u2 + 1.0f);
        const F h10 = S::set1((u3 - 2.0f * u2 + u) * td);
        const F h01 = S::set1(-2.0f * u3 + 3.0f * u2);
        const F h11 = S::set1((u3 - u2) * td);
        for (unsigned ch = 0; ch < block.lanes; ch += W) {
            F start[C];
            for (unsigned c = 0; c < C; ++c) {
                const unsigned o = c * lanes + ch;
                start[c] = S::load(v0 + o);
                v[c] = S::fmadd(h11, S::load(a1 + o),
                                S::fmadd(h01, S::load(v1 + o), S::fmadd(h10, S::load(b0 + o), S::mul(h00, start[c]))));
            }
            if constexpr (C == 4) {
                // A spline through unit keys reaches zero only with absurd tangents;
                // such a lane holds the interval's first key instead of turning NaN.
                const F len2 = dot4(v, v);
                const auto ok = S::cmplt(S::set1(1e-30f), len2);
                const F inv = S::div(S::set1(1.0f), S::sqrt(len2));
                for (int c = 0; c < 4; ++c) v[c] = S::select(ok, S::mul(v[c], inv), start[c]);
            }
            out.store(ch, v);
        }
        return;
    }
    if (block.interpolation == kStep || u == 0.0f) {
        for (unsigned ch = 0; ch < block.lanes; ch += W) {
            for (unsigned c = 0; c < C; ++c) v[c] = S::load(key0 + c * lanes + ch);
            out.store(ch, v);
        }
        return;
    }
    if constexpr (C == 4) {
        const HalfArcSlerp h = halfArcSlerp(u);
        for (unsigned ch = 0; ch < block.lanes; ch += W) {
            F a[4], b[4];
            for (unsigned c = 0; c < 4; ++c) {
                a[c] = S::load(key0 + c * lanes + ch);
                b[c] = S::load(key1 + c * lanes + ch);
            }
            slerp(a, b, h, v);
            out.store(ch, v);
        }
        return;
    }
    const F fu = S::set1(u);
    for (unsigned ch = 0; ch < block.lanes; ch += W) {
        for (unsigned c = 0; c < C; ++c) {
            const F a = S::load(key0 + c * lanes + ch);
            const F b = S::load(key1 + c * lanes + ch);
            v[c] = S::fmadd(S::sub(b, a), fu, a);
        }
        out.store(ch, v);
    }
}

void sampleKernel(const detail::SampleArgs& args) noexcept {
    for (std::uint32_t bi = 0; bi < args.blockCount; ++bi) {
        const detail::PackedBlock& block = args.blocks[bi];
        switch (block.components) {
            case 1: sampleBlock<1>(block, args); break;
            case 3: sampleBlock<3>(block, args); break;
            default: sampleBlock<4>(block, args); break;
        }
    }
}

void blend2Kernel(detail::SoaPoseConstView a, detail::SoaPoseConstView b, float t, detail::SoaPoseView out,
                  std::uint32_t lanes, std::uint32_t weightCount) noexcept {
    constexpr unsigned kLerped[6] = {0, 1, 2, 7, 8, 9};  // translation and scale components
    const F ft = S::set1(t);
    for (std::uint32_t ch = 0; ch < lanes; ch += W) {
        for (const unsigned c : kLerped) {
            const F x = S::load(a.c[c] + ch);
            S::store(out.c[c] + ch, S::fmadd(S::sub(S::load(b.c[c] + ch), x), ft, x));
        }
        F qa[4], qb[4], r[4];
        for (unsigned c = 0; c < 4; ++c) {
            qa[c] = S::load(a.c[3 + c] + ch);
            qb[c] = S::load(b.c[3 + c] + ch);
        }
        const F sign = S::signOf(dot4(qa, qb));
        for (unsigned c = 0; c < 4; ++c) r[c] = S::fmadd(S::sub(S::xorSign(qb[c], sign), qa[c]), ft, qa[c]);
        normalize4(r);
        for (unsigned c = 0; c < 4; ++c) S::store(out.c[3 + c] + ch, r[c]);
    }
    for (std::uint32_t i = 0; i < weightCount; ++i) out.weights[i] = a.weights[i] + (b.weights[i] - a.weights[i]) * t;
}

alignas(16) constexpr float kIdentity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

#if defined(__AVX2__)
inline __m256 columnPair(const float* a, const float* b) noexcept {
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(a)), _mm_loadu_ps(b), 1);
}

inline void storePair(float* a, float* b, __m256 v) noexcept {
    _mm_storeu_ps(a, _mm256_castps256_ps128(v));
    _mm_storeu_ps(b, _mm256_extractf128_ps(v, 1));
}

// model[j] = pa * local(j) and model[j + 1] = pb * local(j + 1): the same
// arithmetic as the one-joint path, in both halves of a 256-bit register.
template <std::size_t Row>
inline void composePair(const float* pa, const float* pb, const float (*m)[Row], std::uint32_t j, float* oa,
                        float* ob) noexcept {
    const __m256 p0 = columnPair(pa, pb), p1 = columnPair(pa + 4, pb + 4);
    const __m256 p2 = columnPair(pa + 8, pb + 8), p3 = columnPair(pa + 12, pb + 12);
    const __m256i lo4hi4 = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    const auto e = [&](int k) { return _mm256_permutevar8x32_ps(_mm256_loadu_ps(&m[k][j]), lo4hi4); };
    for (int c = 0; c < 3; ++c) {
        const __m256 r = _mm256_fmadd_ps(p2, e(c * 3 + 2), _mm256_fmadd_ps(p1, e(c * 3 + 1), _mm256_mul_ps(p0, e(c * 3))));
        storePair(oa + c * 4, ob + c * 4, r);
    }
    storePair(oa + 12, ob + 12, _mm256_fmadd_ps(p2, e(11), _mm256_fmadd_ps(p1, e(10), _mm256_fmadd_ps(p0, e(9), p3))));
}
#endif

void localToModelKernel(const std::int32_t* parents, detail::SoaPoseConstView local, std::uint32_t joints,
                        float* model) noexcept {
    // Local matrices of W joints, element after element (rotation-scale columns, then
    // translation). Rows are padded so that eight floats can be read from any lane.
    alignas(64) float m[12][W + 16];
    const F one = S::set1(1.0f), two = S::set1(2.0f);
    for (std::uint32_t base = 0; base < joints; base += W) {
        const F x = S::load(local.c[3] + base), y = S::load(local.c[4] + base);
        const F z = S::load(local.c[5] + base), w = S::load(local.c[6] + base);
        const F sx = S::load(local.c[7] + base), sy = S::load(local.c[8] + base), sz = S::load(local.c[9] + base);
        const F xx = S::mul(x, x), yy = S::mul(y, y), zz = S::mul(z, z);
        const F xy = S::mul(x, y), xz = S::mul(x, z), yz = S::mul(y, z);
        const F wx = S::mul(w, x), wy = S::mul(w, y), wz = S::mul(w, z);
        S::store(m[0], S::mul(S::fnmadd(two, S::add(yy, zz), one), sx));
        S::store(m[1], S::mul(S::mul(two, S::add(xy, wz)), sx));
        S::store(m[2], S::mul(S::mul(two, S::sub(xz, wy)), sx));
        S::store(m[3], S::mul(S::mul(two, S::sub(xy, wz)), sy));
        S::store(m[4], S::mul(S::fnmadd(two, S::add(xx, zz), one), sy));
        S::store(m[5], S::mul(S::mul(two, S::add(yz, wx)), sy));
        S::store(m[6], S::mul(S::mul(two, S::add(xz, wy)), sz));
        S::store(m[7], S::mul(S::mul(two, S::sub(yz, wx)), sz));
        S::store(m[8], S::mul(S::fnmadd(two, S::add(xx, yy), one), sz));
        S::store(m[9], S::load(local.c[0] + base));
        S::store(m[10], S::load(local.c[1] + base));
        S::store(m[11], S::load(local.c[2] + base));
        const std::uint32_t end = joints - base < W ? joints - base : W;
        for (std::uint32_t j = 0; j < end; ++j) {
            float* o = model + static_cast<std::size_t>(base + j) * 16;
            const std::int32_t p = parents[base + j];
#if defined(__AVX2__)
            // Two joints at once, one per 128-bit half, unless the second is the
            // first's child (it needs the first's result).
            if (j + 1 < end && parents[base + j + 1] != static_cast<std::int32_t>(base + j)) {
                const std::int32_t q = parents[base + j + 1];
                const float* pa = p < 0 ? kIdentity : model + static_cast<std::size_t>(p) * 16;
                const float* pb = q < 0 ? kIdentity : model + static_cast<std::size_t>(q) * 16;
                composePair(pa, pb, m, j, o, o + 16);
                ++j;
                continue;
            }
#endif
            // A root is multiplied by the identity: one path, no branch to mispredict.
            const float* pm = p < 0 ? kIdentity : model + static_cast<std::size_t>(p) * 16;
            const V4 c0 = S::load4(pm), c1 = S::load4(pm + 4), c2 = S::load4(pm + 8), c3 = S::load4(pm + 12);
            for (int c = 0; c < 3; ++c) {
                const V4 r = S::fmadd4(c2, S::bcastLoad4(&m[c * 3 + 2][j]),
                                       S::fmadd4(c1, S::bcastLoad4(&m[c * 3 + 1][j]), S::mul4(c0, S::bcastLoad4(&m[c * 3][j]))));
                S::store4(o + c * 4, r);
            }
            const V4 t = S::fmadd4(c2, S::bcastLoad4(&m[11][j]),
                                   S::fmadd4(c1, S::bcastLoad4(&m[10][j]), S::fmadd4(c0, S::bcastLoad4(&m[9][j]), c3)));
            S::store4(o + 12, t);
        }
    }
}

void paletteKernel(const float* model, const std::uint32_t* joints, const float* inverseBind, std::uint32_t count,
                   float* out) noexcept {
    for (std::uint32_t i = 0; i < count; ++i) {
        const float* pm = model + static_cast<std::size_t>(joints[i]) * 16;
        const float* b = inverseBind + static_cast<std::size_t>(i) * 16;
        float* o = out + static_cast<std::size_t>(i) * 16;
#if defined(__AVX2__)
        // Two result columns per register: [c0 | c1] and [c2 | c3]. Each needs the
        // parent's columns twice ([P.ck | P.ck], one 128-bit broadcast) and the
        // inverse bind's elements of row k of both columns spread over the halves.
        const __m256 p0 = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(pm));
        const __m256 p1 = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(pm + 4));
        const __m256 p2 = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(pm + 8));
        const __m256 p3 = _mm256_insertf128_ps(_mm256_setzero_ps(), _mm_loadu_ps(pm + 12), 1);
        const __m256 b01 = _mm256_loadu_ps(b), b23 = _mm256_loadu_ps(b + 8);
        const __m256i row0 = _mm256_setr_epi32(0, 0, 0, 0, 4, 4, 4, 4);
        const __m256i row1 = _mm256_setr_epi32(1, 1, 1, 1, 5, 5, 5, 5);
        const __m256i row2 = _mm256_setr_epi32(2, 2, 2, 2, 6, 6, 6, 6);
        const __m256 r01 = _mm256_fmadd_ps(
            p2, _mm256_permutevar8x32_ps(b01, row2),
            _mm256_fmadd_ps(p1, _mm256_permutevar8x32_ps(b01, row1), _mm256_mul_ps(p0, _mm256_permutevar8x32_ps(b01, row0))));
        const __m256 r23 = _mm256_fmadd_ps(
            p2, _mm256_permutevar8x32_ps(b23, row2),
            _mm256_fmadd_ps(p1, _mm256_permutevar8x32_ps(b23, row1),
                            _mm256_fmadd_ps(p0, _mm256_permutevar8x32_ps(b23, row0), p3)));
        _mm256_storeu_ps(o, r01);
        _mm256_storeu_ps(o + 8, r23);
#else
        const V4 c0 = S::load4(pm), c1 = S::load4(pm + 4), c2 = S::load4(pm + 8), c3 = S::load4(pm + 12);
        for (int c = 0; c < 3; ++c) {
            const V4 r = S::fmadd4(c2, S::bcastLoad4(b + c * 4 + 2),
                                   S::fmadd4(c1, S::bcastLoad4(b + c * 4 + 1), S::mul4(c0, S::bcastLoad4(b + c * 4))));
            S::store4(o + c * 4, r);
        }
        const V4 t = S::fmadd4(c2, S::bcastLoad4(b + 14),
                               S::fmadd4(c1, S::bcastLoad4(b + 13), S::fmadd4(c0, S::bcastLoad4(b + 12), c3)));
        S::store4(o + 12, t);
#endif
    }
}

void skinKernel(const float* palette, const std::uint16_t* joints, const float* weights, std::uint32_t influences,
                const float* positions, const float* normals, std::uint32_t count, float* outPositions,
                float* outNormals) noexcept {
    alignas(32) float m[16];
    for (std::uint32_t v = 0; v < count; ++v) {
        const std::uint16_t* jv = joints + static_cast<std::size_t>(v) * influences;
        const float* wv = weights + static_cast<std::size_t>(v) * influences;
        float* op = outPositions + static_cast<std::size_t>(v) * 3;
        const float* p = positions + static_cast<std::size_t>(v) * 3;
#if defined(__AVX2__)
        // The blended matrix as two registers, [c0 | c1] and [c2 | c3].
        __m256 m01 = _mm256_setzero_ps(), m23 = _mm256_setzero_ps();
        for (std::uint32_t i = 0; i < influences; ++i) {
            const float* pm = palette + static_cast<std::size_t>(jv[i]) * 16;
            const __m256 w = _mm256_broadcast_ss(wv + i);
            m01 = _mm256_fmadd_ps(_mm256_loadu_ps(pm), w, m01);
            m23 = _mm256_fmadd_ps(_mm256_loadu_ps(pm + 8), w, m23);
        }
        // [c0 px + c2 pz | c1 py + c3], then the two halves added.
        const __m256 pxy = _mm256_setr_m128(_mm_broadcast_ss(p), _mm_broadcast_ss(p + 1));
        const __m256 pz1 = _mm256_setr_m128(_mm_broadcast_ss(p + 2), _mm_set1_ps(1.0f));
        const __m256 halves = _mm256_fmadd_ps(m01, pxy, _mm256_mul_ps(m23, pz1));
        const __m128 r = _mm_add_ps(_mm256_castps256_ps128(halves), _mm256_extractf128_ps(halves, 1));
        _mm_storel_pi(reinterpret_cast<__m64*>(op), r);
        op[2] = _mm_cvtss_f32(_mm_movehl_ps(r, r));
        if (normals != nullptr && outNormals != nullptr) {
            _mm256_store_ps(m, m01);
            _mm256_store_ps(m + 8, m23);
        }
#else
        V4 a0 = S::bcast4(0.0f), a1 = a0, a2 = a0, a3 = a0;
        for (std::uint32_t i = 0; i < influences; ++i) {
            const float* pm = palette + static_cast<std::size_t>(jv[i]) * 16;
            const V4 w = S::bcast4(wv[i]);
            a0 = S::fmadd4(S::load4(pm), w, a0);
            a1 = S::fmadd4(S::load4(pm + 4), w, a1);
            a2 = S::fmadd4(S::load4(pm + 8), w, a2);
            a3 = S::fmadd4(S::load4(pm + 12), w, a3);
        }
        const V4 r = S::fmadd4(a2, S::bcast4(p[2]), S::fmadd4(a1, S::bcast4(p[1]), S::fmadd4(a0, S::bcast4(p[0]), a3)));
        S::store4(m, r);
        op[0] = m[0];
        op[1] = m[1];
        op[2] = m[2];
        S::store4(m, a0);
        S::store4(m + 4, a1);
        S::store4(m + 8, a2);
#endif
        if (normals == nullptr || outNormals == nullptr) continue;
        // Cofactor matrix (det * inverse-transpose) of the blended 3x3; the sign of
        // det keeps the normal facing out when the blend mirrors.
        const float* n = normals + static_cast<std::size_t>(v) * 3;
        const float r0x = m[5] * m[10] - m[6] * m[9], r0y = m[6] * m[8] - m[4] * m[10], r0z = m[4] * m[9] - m[5] * m[8];
        const float r1x = m[9] * m[2] - m[10] * m[1], r1y = m[10] * m[0] - m[8] * m[2], r1z = m[8] * m[1] - m[9] * m[0];
        const float r2x = m[1] * m[6] - m[2] * m[5], r2y = m[2] * m[4] - m[0] * m[6], r2z = m[0] * m[5] - m[1] * m[4];
        const float det = m[0] * r0x + m[1] * r0y + m[2] * r0z;
        float ox = r0x * n[0] + r1x * n[1] + r2x * n[2];
        float oy = r0y * n[0] + r1y * n[1] + r2y * n[2];
        float oz = r0z * n[0] + r1z * n[1] + r2z * n[2];
        const float len2 = ox * ox + oy * oy + oz * oz;
        float* on = outNormals + static_cast<std::size_t>(v) * 3;
        if (!(len2 > 0.0f)) {
            on[0] = n[0];
            on[1] = n[1];
            on[2] = n[2];
            continue;
        }
        const float s = (det < 0.0f ? -1.0f : 1.0f) / __builtin_sqrtf(len2);
        on[0] = ox * s;
        on[1] = oy * s;
        on[2] = oz * s;
    }
}

constexpr detail::KernelTable kTable{sampleKernel, blend2Kernel, localToModelKernel, paletteKernel, skinKernel};
