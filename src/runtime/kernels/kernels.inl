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

// Summed as a tree: the sampler is bound by the latency of its longest chain
// (slerp holds three of these), not by how many operations it issues.
inline F dot4(const F* a, const F* b) noexcept {
    return S::add(S::fmadd(a[1], b[1], S::mul(a[0], b[0])), S::fmadd(a[3], b[3], S::mul(a[2], b[2])));
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

// a blended toward b by t: lerp for translation and scale, the normalised
// shortest-arc lerp (b becomes the result) for rotations, and lerpWeight for morph
// weights. blend2Kernel and the sampler's blend-over path both use these, so
// sampling over a pose gives the bits of sampling and blending apart.
inline F lerpOver(F a, F b, F t) noexcept { return S::fmadd(S::sub(b, a), t, a); }

inline void nlerpOver(const F* a, F* b, F t) noexcept {
    const F sign = S::signOf(dot4(a, b));
    for (int c = 0; c < 4; ++c) b[c] = S::fmadd(S::sub(S::xorSign(b[c], sign), a[c]), t, a[c]);
    normalize4(b);
}

template <unsigned C>
inline void blendOver(const F* a, F* b, F t) noexcept {
    if constexpr (C == 4) {
        nlerpOver(a, b, t);
    } else {
        for (unsigned c = 0; c < C; ++c) b[c] = lerpOver(a[c], b[c], t);
    }
}

inline float lerpWeight(float a, float b, float t) noexcept { return a + (b - a) * t; }

// sin(t w) / sin(w) as a power series in y = cos(w) - 1. The ratio satisfies
// Chebyshev's equation (1 - x^2) f'' - 3 x f' + (t^2 - 1) f = 0 in x = cos(w);
// expanding about x = 1 gives c0 = t, c(i) = c(i-1) (t^2 - i^2) / (i (2i + 1)).
// For |y| <= 1 - cos(pi/4) the terms shrink by more than 6.8x each; eight terms
// leave an error below 1e-7.
constexpr int kSlerpTerms = 8;

struct SlerpSeries {
    F c[kSlerpTerms];
};

// 1 / (i (2i + 1)) for i = 1..7: the series are set up per rotation block, on the
// pose's critical path, where fourteen double divisions took about 60 cycles.
constexpr double kSeriesDivisor[kSlerpTerms] = {0.0,       1.0 / 3.0,  1.0 / 10.0, 1.0 / 21.0,
                                                1.0 / 36.0, 1.0 / 55.0, 1.0 / 78.0, 1.0 / 105.0};

inline SlerpSeries slerpSeries(float t) noexcept {
    SlerpSeries s;
    double c = t;
    s.c[0] = S::set1(t);
    for (int i = 1; i < kSlerpTerms; ++i) {
        c *= (static_cast<double>(t) * t - static_cast<double>(i) * i) * kSeriesDivisor[i];
        s.c[i] = S::set1(static_cast<float>(c));
    }
    return s;
}

// Estrin's scheme: 11 cycles of dependent latency where Horner's takes seven
// multiply-adds in a row (28 on current cores), for three more multiplies.
static_assert(kSlerpTerms == 8, "evalSeries is written for eight terms");
inline F evalSeries(const SlerpSeries& s, F y) noexcept {
    const F y2 = S::mul(y, y);
    const F y4 = S::mul(y2, y2);
    const F p01 = S::fmadd(s.c[1], y, s.c[0]), p23 = S::fmadd(s.c[3], y, s.c[2]);
    const F p45 = S::fmadd(s.c[5], y, s.c[4]), p67 = S::fmadd(s.c[7], y, s.c[6]);
    return S::fmadd(S::fmadd(p67, y2, p45), y4, S::fmadd(p23, y2, p01));
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

// N independent registers of lanes at once, each step written for all N before
// the next: the chain from the keys to the result is long (about 80 cycles), and
// interleaving puts N chains into the core's window where one would fill it.
template <unsigned N>
inline void slerp(const F (&a)[N][4], const F (&bIn)[N][4], const HalfArcSlerp& h, F (&out)[N][4]) noexcept {
    F b[N][4], m[N][4], scale[N], y[N];
    for (unsigned k = 0; k < N; ++k) {
        const F sign = S::signOf(dot4(a[k], bIn[k]));
        for (int c = 0; c < 4; ++c) {
            b[k][c] = S::xorSign(bIn[k][c], sign);
            m[k][c] = S::add(a[k][c], b[k][c]);
        }
    }
    // |a + b| = 2 cos(w / 2): the midpoint's scale, and the cosine of the half angle.
    for (unsigned k = 0; k < N; ++k) {
        const F len2 = dot4(m[k], m[k]);
        scale[k] = invSqrt(len2);
        y[k] = S::fmadd(S::mul(len2, scale[k]), S::set1(0.5f), S::set1(-1.0f));
    }
    for (unsigned k = 0; k < N; ++k) {
        // The midpoint's scale folds into its weight: m is used unnormalised.
        const F wp = evalSeries(h.wp, y[k]), wq = evalSeries(h.wq, y[k]);
        if (h.firstHalf) {
            const F wm = S::mul(wq, scale[k]);
            for (int c = 0; c < 4; ++c) out[k][c] = S::fmadd(wp, a[k][c], S::mul(wm, m[k][c]));
        } else {
            const F wm = S::mul(wp, scale[k]);
            for (int c = 0; c < 4; ++c) out[k][c] = S::fmadd(wm, m[k][c], S::mul(wq, b[k][c]));
        }
    }
    // |out|^2 = 1 + e with |e| of a few 1e-6 at most (unit keys, Clip::create's
    // tolerance, and the series' 1e-7), so 1 / sqrt(1 + e) = 1 - e / 2 to within
    // 3 e^2 / 8 (below 1e-11): one multiply-add instead of an estimate and a
    // Newton step on the chain's critical path.
    for (unsigned k = 0; k < N; ++k) {
        const F rescale = S::fmadd(dot4(out[k], out[k]), S::set1(-0.5f), S::set1(1.5f));
        for (int c = 0; c < 4; ++c) out[k][c] = S::mul(out[k][c], rescale);
    }
}

// Corrected nlerp for nearby keys. normalize(a + s (b - a)) lies at angle
// atan(s sin w / (1 - s (1 - cos w))) from a, which is s w - w^3 s (1 - s)(1 - 2s) / 6
// + O(w^5); so s = u + (1 - cos w) u (1 - u)(1 - 2u) / 3 puts it at u w to within
// 0.00223 w^5 (computed). Where every lane's keys satisfy cos w > 0.984 (w < 0.179
// rad, a 20.5 degree turn per key interval: any baked clip but the fastest spins)
// that is below 4.1e-7, and this costs about half the series slerp's operations with
// half its chain.
constexpr float kNlerpMinCos = 0.984f;

struct NlerpFraction {
    F u;     // the fraction
    F bend;  // u (1 - u)(1 - 2u) / 3
};

inline NlerpFraction nlerpFraction(float u) noexcept {
    return {S::set1(u), S::set1(u * (1.0f - u) * (1.0f - 2.0f * u) / 3.0f)};
}

// `d` is dot(a, b) per lane.
inline void correctedNlerp(const F* a, const F* bIn, F d, const NlerpFraction& f, F* out) noexcept {
    const F sign = S::signOf(d);
    const F cosw = S::xorSign(d, sign);
    const F s = S::fmadd(S::sub(S::set1(1.0f), cosw), f.bend, f.u);
    for (int c = 0; c < 4; ++c) out[c] = S::fmadd(S::sub(S::xorSign(bIn[c], sign), a[c]), s, a[c]);
    normalize4(out);
}

// Where a block's lanes go: one output array per component, and the lane -> target map.
// With blending over (SampleArgs::over) also the weight, and the per-joint mask
// (null for morph weights, which blend by the weight alone, or without a mask).
template <unsigned C>
struct BlockOutput {
    float* dst[C];
    const std::uint32_t* targets;
    unsigned lanes;
    bool contiguous;
    F weight;
    float weightScalar;
    const float* mask;
};

template <unsigned C>
BlockOutput<C> blockOutput(const detail::PackedBlock& block, const detail::SampleArgs& args) noexcept {
    BlockOutput<C> o;
    const unsigned first = block.path == kPathTranslation ? 0u : block.path == kPathRotation ? 3u : 7u;
    for (unsigned c = 0; c < C; ++c) o.dst[c] = block.path == kPathWeights ? args.out.weights : args.out.c[first + c];
    o.targets = args.targets + block.targetOffset;
    o.lanes = block.lanes;
    o.contiguous = block.contiguous != 0;
    o.weight = S::set1(args.overWeight);
    o.weightScalar = args.overWeight;
    o.mask = block.path == kPathWeights ? nullptr : args.overMask;
    return o;
}

// Runs `lanesOf(chunk, v)` for every register of lanes and stores the C results:
// whole registers of consecutive targets straight into the pose (pointers set up
// once per block), the rest lane by lane through the target map. With `Over` the
// results are blended over the pose's values instead (blendOver, lerpWeight).
// `lanesOf` may also take N registers at once (N chunks from `ch`): then whole
// groups of N are done that way first.
template <unsigned C, unsigned N = 1, bool Over = false, class LanesOf>
inline void forEachChunk(const BlockOutput<C>& out, LanesOf&& lanesOf) noexcept {
    // A one-register `lanesOf` takes F*; a grouped one F (&)[K][C] for K = 1 or N.
    const auto call = [&](unsigned at, auto& v) __attribute__((always_inline)) {
        if constexpr (N == 1) {
            lanesOf(at, v[0]);
        } else {
            lanesOf(at, v);
        }
    };
    // Register v of the lanes from `at` of a contiguous block, whose pose values start at d.
    const auto put = [&](float* const* d, unsigned at, F* v) __attribute__((always_inline)) {
        if constexpr (Over && C == 1) {
            alignas(64) float tmp[W];
            S::store(tmp, v[0]);
            for (unsigned l = 0; l < W; ++l) d[0][at + l] = lerpWeight(d[0][at + l], tmp[l], out.weightScalar);
        } else {
            if constexpr (Over) {
                F prev[C];
                for (unsigned c = 0; c < C; ++c) prev[c] = S::loadu(d[c] + at);
                const F t = out.mask != nullptr ? S::mul(out.weight, S::loadu(out.mask + out.targets[0] + at)) : out.weight;
                blendOver<C>(prev, v, t);
            }
            for (unsigned c = 0; c < C; ++c) S::storeu(d[c] + at, v[c]);
        }
    };
    const unsigned direct = out.contiguous ? out.lanes / W * W : 0;
    unsigned ch = 0;
    if (direct != 0) {
        float* d[C];
        for (unsigned c = 0; c < C; ++c) d[c] = out.dst[c] + out.targets[0];
        if constexpr (N > 1) {
            for (; ch + N * W <= direct; ch += N * W) {
                F v[N][C];
                call(ch, v);
                for (unsigned k = 0; k < N; ++k) put(d, ch + k * W, v[k]);
            }
        }
        for (; ch < direct; ch += W) {
            F v[1][C];
            call(ch, v);
            put(d, ch, v[0]);
        }
    }
    for (; ch < out.lanes; ch += W) {
        F v[1][C];
        call(ch, v);
        const unsigned valid = out.lanes - ch < W ? out.lanes - ch : W;
        alignas(64) float tmp[C][W];
        for (unsigned c = 0; c < C; ++c) S::store(tmp[c], v[0][c]);
        if constexpr (Over && C == 1) {
            for (unsigned l = 0; l < valid; ++l) {
                float& x = out.dst[0][out.targets[ch + l]];
                x = lerpWeight(x, tmp[0][l], out.weightScalar);
            }
            continue;
        } else if constexpr (Over) {
            // The pose's values (and mask) of the valid lanes gathered into registers;
            // the others repeat the sampled values, so they stay finite.
            alignas(64) float prev[C][W];
            alignas(64) float m[W];
            for (unsigned l = 0; l < W; ++l) {
                const bool in = l < valid;
                for (unsigned c = 0; c < C; ++c) prev[c][l] = in ? out.dst[c][out.targets[ch + l]] : tmp[c][l];
                m[l] = in && out.mask != nullptr ? out.mask[out.targets[ch + l]] : 0.0f;
            }
            F a[C];
            for (unsigned c = 0; c < C; ++c) a[c] = S::load(prev[c]);
            const F t = out.mask != nullptr ? S::mul(out.weight, S::load(m)) : out.weight;
            blendOver<C>(a, v[0], t);
            for (unsigned c = 0; c < C; ++c) S::store(tmp[c], v[0][c]);
        }
        for (unsigned c = 0; c < C; ++c) {
            for (unsigned l = 0; l < valid; ++l) out.dst[c][out.targets[ch + l]] = tmp[c][l];
        }
    }
}

// One block with C components per lane.
template <unsigned C, bool Over>
void sampleBlock(const detail::PackedBlock& block, const detail::SampleArgs& args) noexcept {
    const BlockOutput<C> out = blockOutput<C>(block, args);
    const detail::TimelinePoint point = args.points[block.timeline];
    const unsigned lanes = block.paddedLanes;
    const float* key0 = args.values + block.valueOffset + static_cast<std::size_t>(point.key) * block.keyStride;
    const float* key1 = key0 + block.keyStride;
    const float u = point.u;
    if (block.interpolation == kCubic) {
        // Per key: in-tangents, values, out-tangents, each C rows of `lanes`.
        const float* v0 = key0 + C * lanes;
        if (u == 0.0f) {
            forEachChunk<C, 1, Over>(out, [&](unsigned ch, F* v) {
                for (unsigned c = 0; c < C; ++c) v[c] = S::load(v0 + c * lanes + ch);
            });
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
        forEachChunk<C, 1, Over>(out, [&](unsigned ch, F* v) {
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
        });
        return;
    }
    const float* r0[C];
    const float* r1[C];
    for (unsigned c = 0; c < C; ++c) {
        r0[c] = key0 + c * lanes;
        r1[c] = key1 + c * lanes;
    }
    if (block.interpolation == kStep || u == 0.0f) {
        forEachChunk<C, 1, Over>(out, [&](unsigned ch, F* v) {
            for (unsigned c = 0; c < C; ++c) v[c] = S::load(r0[c] + ch);
        });
        return;
    }
    if constexpr (C == 4) {
        // The series are set up only when a register of lanes needs them: clips
        // baked at common rates take the corrected nlerp everywhere, and the set-up
        // (two chains of seven double multiplies, sixteen broadcasts) sits on each
        // pose's critical path.
        HalfArcSlerp h;
        bool haveSeries = false;
        const NlerpFraction nf = nlerpFraction(u);
        forEachChunk<4, 2, Over>(out, [&](unsigned ch, auto& v) __attribute__((always_inline)) {
            constexpr unsigned kGroup = sizeof(v) / sizeof(v[0]);
            F a[kGroup][4], b[kGroup][4], d[kGroup];
            bool near = true;
            for (unsigned k = 0; k < kGroup; ++k) {
                for (unsigned c = 0; c < 4; ++c) {
                    a[k][c] = S::load(r0[c] + ch + k * W);
                    b[k][c] = S::load(r1[c] + ch + k * W);
                }
                d[k] = dot4(a[k], b[k]);
                near = near && S::allLanes(S::cmplt(S::set1(kNlerpMinCos), S::abs(d[k])));
            }
            if (near) {
                for (unsigned k = 0; k < kGroup; ++k) correctedNlerp(a[k], b[k], d[k], nf, v[k]);
            } else {
                if (!haveSeries) {
                    h = halfArcSlerp(u);
                    haveSeries = true;
                }
                slerp(a, b, h, v);
            }
        });
        return;
    }
    const F fu = S::set1(u);
    forEachChunk<C, 1, Over>(out, [&](unsigned ch, F* v) {
        for (unsigned c = 0; c < C; ++c) {
            const F a = S::load(r0[c] + ch);
            v[c] = S::fmadd(S::sub(S::load(r1[c] + ch), a), fu, a);
        }
    });
}

template <bool Over>
void sampleBlocks(const detail::SampleArgs& args) noexcept {
    for (std::uint32_t bi = 0; bi < args.blockCount; ++bi) {
        const detail::PackedBlock& block = args.blocks[bi];
        switch (block.components) {
            case 1: sampleBlock<1, Over>(block, args); break;
            case 3: sampleBlock<3, Over>(block, args); break;
            default: sampleBlock<4, Over>(block, args); break;
        }
    }
}

void sampleKernel(const detail::SampleArgs& args) noexcept {
    if (args.over != 0) {
        sampleBlocks<true>(args);
    } else {
        sampleBlocks<false>(args);
    }
}

void blend2Kernel(detail::SoaPoseConstView a, detail::SoaPoseConstView b, float t, const float* mask,
                  detail::SoaPoseView out, std::uint32_t lanes, std::uint32_t weightCount) noexcept {
    constexpr unsigned kLerped[6] = {0, 1, 2, 7, 8, 9};  // translation and scale components
    const F uniform = S::set1(t);
    for (std::uint32_t ch = 0; ch < lanes; ch += W) {
        const F ft = mask != nullptr ? S::mul(uniform, S::load(mask + ch)) : uniform;
        for (const unsigned c : kLerped) {
            S::store(out.c[c] + ch, lerpOver(S::load(a.c[c] + ch), S::load(b.c[c] + ch), ft));
        }
        F qa[4], r[4];
        for (unsigned c = 0; c < 4; ++c) {
            qa[c] = S::load(a.c[3 + c] + ch);
            r[c] = S::load(b.c[3 + c] + ch);
        }
        nlerpOver(qa, r, ft);
        for (unsigned c = 0; c < 4; ++c) S::store(out.c[3 + c] + ch, r[c]);
    }
    for (std::uint32_t i = 0; i < weightCount; ++i) out.weights[i] = lerpWeight(a.weights[i], b.weights[i], t);
}

// Hamilton product a * b of quaternions stored x, y, z, w.
inline void quatMul(const F* a, const F* b, F* out) noexcept {
    out[0] = S::fmadd(a[3], b[0], S::fmadd(a[0], b[3], S::fnmadd(a[2], b[1], S::mul(a[1], b[2]))));
    out[1] = S::fmadd(a[3], b[1], S::fmadd(a[1], b[3], S::fnmadd(a[0], b[2], S::mul(a[2], b[0]))));
    out[2] = S::fmadd(a[3], b[2], S::fmadd(a[2], b[3], S::fnmadd(a[1], b[0], S::mul(a[0], b[1]))));
    out[3] = S::fnmadd(a[2], b[2], S::fnmadd(a[1], b[1], S::fnmadd(a[0], b[0], S::mul(a[3], b[3]))));
}

void addKernel(detail::SoaPoseConstView base, detail::SoaPoseConstView pose, detail::SoaPoseConstView reference,
               float t, const float* mask, detail::SoaPoseView out, std::uint32_t lanes,
               std::uint32_t weightCount) noexcept {
    const F uniform = S::set1(t), one = S::set1(1.0f), zero = S::zero();
    for (std::uint32_t ch = 0; ch < lanes; ch += W) {
        const F w = mask != nullptr ? S::mul(uniform, S::load(mask + ch)) : uniform;
        for (unsigned c = 0; c < 3; ++c) {
            const F d = S::sub(S::load(pose.c[c] + ch), S::load(reference.c[c] + ch));
            S::store(out.c[c] + ch, S::fmadd(d, w, S::load(base.c[c] + ch)));
        }
        for (unsigned c = 7; c < 10; ++c) {
            // A zero reference scale has no ratio: that axis keeps the base scale.
            const F r = S::load(reference.c[c] + ch);
            const auto usable = S::cmplt(zero, S::abs(r));
            const F ratio = S::select(usable, S::div(S::load(pose.c[c] + ch), r), one);
            S::store(out.c[c] + ch, S::mul(S::load(base.c[c] + ch), S::fmadd(S::sub(ratio, one), w, one)));
        }
        F b[4], p[4], rc[4], d[4], q[4];
        for (unsigned c = 0; c < 4; ++c) {
            b[c] = S::load(base.c[3 + c] + ch);
            p[c] = S::load(pose.c[3 + c] + ch);
            rc[c] = S::load(reference.c[3 + c] + ch);
        }
        for (unsigned c = 0; c < 3; ++c) rc[c] = S::sub(zero, rc[c]);  // conjugate
        quatMul(rc, p, d);
        // The delta on the short way from identity, scaled by w, renormalised.
        const F sign = S::signOf(d[3]);
        for (unsigned c = 0; c < 3; ++c) d[c] = S::mul(S::xorSign(d[c], sign), w);
        d[3] = S::fmadd(S::sub(S::xorSign(d[3], sign), one), w, one);
        normalize4(d);
        quatMul(b, d, q);
        for (unsigned c = 0; c < 4; ++c) S::store(out.c[3 + c] + ch, q[c]);
    }
    for (std::uint32_t i = 0; i < weightCount; ++i) {
        out.weights[i] = base.weights[i] + (pose.weights[i] - reference.weights[i]) * t;
    }
}

alignas(16) constexpr float kIdentity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

// The doubled quaternion products of W joints, from which every local matrix
// element is one or two operations. Doubling is exact, so each element rounds
// exactly as toMatrix's (1 - 2 (yy + zz)) * sx and 2 (xy + wz) * sx do.
struct LocalProducts {
    F xx, yy, zz, xy, xz, yz, wx, wy, wz, sx, sy, sz;
};

// `at` points at lane `base` of component 0; components are `stride` floats apart
// (detail::SoaPoseView), so one pointer and one stride stand for all ten.
inline LocalProducts localProducts(const float* at, std::size_t stride) noexcept {
    const F x = S::load(at + 3 * stride), y = S::load(at + 4 * stride);
    const F z = S::load(at + 5 * stride), w = S::load(at + 6 * stride);
    const F x2 = S::add(x, x), y2 = S::add(y, y), z2 = S::add(z, z);
    return {S::mul(x, x2), S::mul(y, y2), S::mul(z, z2), S::mul(x, y2), S::mul(x, z2), S::mul(y, z2),
            S::mul(w, x2), S::mul(w, y2), S::mul(w, z2), S::load(at + 7 * stride), S::load(at + 8 * stride),
            S::load(at + 9 * stride)};
}

// Element e of the local matrices (e = column * 3 + row for the rotation-scale
// part, 9..11 for the translation).
inline F localElement(const LocalProducts& q, const float* at, std::size_t stride, int e) noexcept {
    const F one = S::set1(1.0f);
    switch (e) {
        case 0: return S::mul(S::sub(one, S::add(q.yy, q.zz)), q.sx);
        case 1: return S::mul(S::add(q.xy, q.wz), q.sx);
        case 2: return S::mul(S::sub(q.xz, q.wy), q.sx);
        case 3: return S::mul(S::sub(q.xy, q.wz), q.sy);
        case 4: return S::mul(S::sub(one, S::add(q.xx, q.zz)), q.sy);
        case 5: return S::mul(S::add(q.yz, q.wx), q.sy);
        case 6: return S::mul(S::add(q.xz, q.wy), q.sz);
        case 7: return S::mul(S::sub(q.yz, q.wx), q.sz);
        case 8: return S::mul(S::sub(one, S::add(q.xx, q.yy)), q.sz);
        default: return S::load(at + static_cast<std::size_t>(e - 9) * stride);
    }
}

#if defined(__AVX512F__)
// g++ 12 warns falsely (-Wmaybe-uninitialized) on the unmasked forms of these,
// whose intrinsics pass _mm512_undefined_ps; the all-lanes zero-masking forms
// are the same instructions.
inline __m512 permute16(__m512i index, __m512 a) noexcept { return _mm512_maskz_permutexvar_ps(0xffff, index, a); }
template <int Imm>
inline __m512 blocks(__m512 a, __m512 b) noexcept { return _mm512_maskz_shuffle_f32x4(0xffff, a, b, Imm); }
template <int Imm>
inline __m512 withinBlocks(__m512 a) noexcept { return _mm512_maskz_permute_ps(0xffff, a, Imm); }
// [a | a | a | a] from four floats in memory: one load, no shuffle.
inline __m512 quarters(const float* p) noexcept { return _mm512_maskz_broadcast_f32x4(0xffff, _mm_loadu_ps(p)); }

// One register per model matrix, [c0 | c1 | c2 | c3], as in the palette: column
// c is the sum over k < 3 of parent.ck * L(k, c), plus parent.c3 for c = 3. Each
// joint's local rows (L(k, 0), L(k, 1), L(k, 2), t_k) are stored as 16-byte
// records; one 128-bit broadcast load and one in-lane permute spread row k over
// the quarters: three per joint, for any parent order. (A 64-byte read of a
// record would span two of the transpose's stores, which cannot forward to it.)
void localToModelKernel(const std::int32_t* parents, detail::SoaPoseConstView local, std::uint32_t joints,
                        float* model) noexcept {
    // rows[k][4 * slot + i]: element i of row k of the joint in `slot`. The 4x4
    // transposes below leave joint l of a block in slot (l % 4) * 4 + l / 4.
    alignas(64) float rows[3][4 * W];
    const __m512i spread = _mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3);
    for (std::uint32_t base = 0; base < joints; base += W) {
        const float* at = local.c[0] + base;
        const std::size_t st = local.lanes;
        const LocalProducts q = localProducts(at, st);
        for (int k = 0; k < 3; ++k) {
            const F e0 = localElement(q, at, st, k), e1 = localElement(q, at, st, 3 + k);
            const F e2 = localElement(q, at, st, 6 + k), e3 = localElement(q, at, st, 9 + k);
            // A 4x4 transpose within each 128-bit block (zero-masking forms, see permute16).
            const __m512 a = _mm512_maskz_unpacklo_ps(0xffff, e0, e1), b = _mm512_maskz_unpackhi_ps(0xffff, e0, e1);
            const __m512 c = _mm512_maskz_unpacklo_ps(0xffff, e2, e3), d = _mm512_maskz_unpackhi_ps(0xffff, e2, e3);
            const auto lo = [](__m512 x, __m512 y) {
                return _mm512_castpd_ps(_mm512_maskz_unpacklo_pd(0xff, _mm512_castps_pd(x), _mm512_castps_pd(y)));
            };
            const auto hi = [](__m512 x, __m512 y) {
                return _mm512_castpd_ps(_mm512_maskz_unpackhi_pd(0xff, _mm512_castps_pd(x), _mm512_castps_pd(y)));
            };
            _mm512_store_ps(rows[k], lo(a, c));
            _mm512_store_ps(rows[k] + 16, hi(a, c));
            _mm512_store_ps(rows[k] + 32, lo(b, d));
            _mm512_store_ps(rows[k] + 48, hi(b, d));
        }
        const std::uint32_t end = joints - base < W ? joints - base : W;
        const std::int32_t* par = parents + base;
        float* o = model + static_cast<std::size_t>(base) * 16;
        for (std::uint32_t l = 0; l < end; ++l, o += 16) {
            const std::int32_t p = par[l];
            // A root is multiplied by the identity: one path, no branch to mispredict.
            const float* pm = p < 0 ? kIdentity : model + static_cast<std::ptrdiff_t>(p) * 16;
            // Opaque to the optimiser: otherwise it splits the loop on p < 0 and turns
            // the broadcast loads into register shuffles, which compete with the permutes.
            asm("" : "+r"(pm));
            const std::size_t slot = ((l & 3u) << 2) | (l >> 2);
            const auto row = [&](int k) {
                return _mm512_maskz_permutevar_ps(0xffff, quarters(rows[k] + 4 * slot), spread);
            };
            __m512 r = _mm512_maskz_broadcast_f32x4(0xF000, _mm_loadu_ps(pm + 12));
            r = _mm512_fmadd_ps(quarters(pm), row(0), r);
            r = _mm512_fmadd_ps(quarters(pm + 4), row(1), r);
            r = _mm512_fmadd_ps(quarters(pm + 8), row(2), r);
            _mm512_storeu_ps(o, r);
        }
    }
}
#elif defined(__AVX2__)
// [p[0] x4 | p[1] x4]: one 8-byte broadcast read (through memcpy: p may be only
// 4-byte aligned, and the intrinsic reads a double) spread by an in-lane permute.
inline __m256 pairSpread(const float* p) noexcept {
    double pair;
    __builtin_memcpy(&pair, p, sizeof pair);
    return _mm256_permutevar_ps(_mm256_castpd_ps(_mm256_set1_pd(pair)), _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1));
}

// Two result columns per register, [c0 | c1] and [c2 | c3], as in the palette.
// Each pair of local elements (X, Y) = (L(row, 0), L(row, 1)) or (L(row, 2), t_row)
// is kept as two halves, [X of lanes 0-3 | Y of lanes 0-3] and [X of lanes 4-7 | Y of
// lanes 4-7]: for joint l, half l / 4 holds X in the low 128 bits and Y in the high
// ones, both at position l % 4, so one in-lane permute by an immediate gives
// [X x4 | Y x4]. A whole block of 8 joints is unrolled with l known when compiled, and
// the halves stay in registers (the ones that do not fit are spilled once); a
// partial block stores them and permutes them from memory, where each read is
// exactly one of the stores (forwarded).
void localToModelKernel(const std::int32_t* parents, detail::SoaPoseConstView local, std::uint32_t joints,
                        float* model) noexcept {
    // half[k]: k < 3: elements (k, k + 3) (columns 0 and 1 of row k); k >= 3:
    // elements (k + 3, k + 6) (column 2 and the translation of row k - 3).
    const auto halves = [](__m256 (&h)[2], __m256 x, __m256 y) __attribute__((always_inline)) {
        h[0] = _mm256_permute2f128_ps(x, y, 0x20);
        h[1] = _mm256_permute2f128_ps(x, y, 0x31);
    };
    for (std::uint32_t base = 0; base < joints; base += W) {
        const float* at = local.c[0] + base;
        const std::size_t st = local.lanes;
        __m256 half[6][2];
        {
            // Columns 0 and 1 need every product and two scales.
            const F x = S::load(at + 3 * st), y = S::load(at + 4 * st), z = S::load(at + 5 * st);
            const F w = S::load(at + 6 * st), sx = S::load(at + 7 * st), sy = S::load(at + 8 * st);
            const F x2 = S::add(x, x), y2 = S::add(y, y), z2 = S::add(z, z), one = S::set1(1.0f);
            const F xy = S::mul(x, y2), wz = S::mul(w, z2);
            halves(half[0], S::mul(S::sub(one, S::add(S::mul(y, y2), S::mul(z, z2))), sx), S::mul(S::sub(xy, wz), sy));
            halves(half[1], S::mul(S::add(xy, wz), sx), S::mul(S::sub(one, S::add(S::mul(x, x2), S::mul(z, z2))), sy));
            const F xz = S::mul(x, z2), wy = S::mul(w, y2), yz = S::mul(y, z2), wx = S::mul(w, x2);
            halves(half[2], S::mul(S::sub(xz, wy), sx), S::mul(S::add(yz, wx), sy));
        }
        {
            // Column 2 and the translation.
            const F x = S::load(at + 3 * st), y = S::load(at + 4 * st), z = S::load(at + 5 * st);
            const F w = S::load(at + 6 * st), sz = S::load(at + 9 * st);
            const F x2 = S::add(x, x), y2 = S::add(y, y), z2 = S::add(z, z), one = S::set1(1.0f);
            halves(half[3], S::mul(S::add(S::mul(x, z2), S::mul(w, y2)), sz), S::load(at));
            halves(half[4], S::mul(S::sub(S::mul(y, z2), S::mul(w, x2)), sz), S::load(at + st));
            halves(half[5], S::mul(S::sub(one, S::add(S::mul(x, x2), S::mul(y, y2))), sz), S::load(at + 2 * st));
        }
        const std::uint32_t end = joints - base < W ? joints - base : W;
        const std::int32_t* par = parents + base;
        float* o = model + static_cast<std::size_t>(base) * 16;
        // Joint l of the block, its six [X x4 | Y x4] from e(k). A root is multiplied
        // by the identity; `MayBeRoot` false skips that test in a block without roots.
        const auto joint = [&]<bool MayBeRoot = true>(std::uint32_t l, auto&& e) __attribute__((always_inline)) {
            const std::int32_t p = par[l];
            const float* pm = MayBeRoot && p < 0 ? kIdentity : model + static_cast<std::ptrdiff_t>(p) * 16;
            const __m256 p0 = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(pm));
            const __m256 p1 = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(pm + 4));
            const __m256 p2 = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(pm + 8));
            const __m256 p3 = _mm256_insertf128_ps(_mm256_setzero_ps(), _mm_loadu_ps(pm + 12), 1);
            const __m256 r01 = _mm256_fmadd_ps(p2, e(2), _mm256_fmadd_ps(p1, e(1), _mm256_mul_ps(p0, e(0))));
            const __m256 r23 = _mm256_fmadd_ps(p2, e(5), _mm256_fmadd_ps(p1, e(4), _mm256_fmadd_ps(p0, e(3), p3)));
            float* out = o + static_cast<std::size_t>(l) * 16;
            _mm256_storeu_ps(out, r01);
            _mm256_storeu_ps(out + 8, r23);
        };
        if (end == W) {
            // No bound checks and no offset arithmetic: every l is a constant.
            const auto block = [&]<bool MayBeRoot, int... L>(std::integer_sequence<int, L...>)
                                   __attribute__((always_inline)) {
                (joint.template operator()<MayBeRoot>(L, [&](std::size_t k) __attribute__((always_inline)) {
                     return _mm256_permute_ps(half[k][L / 4], (L % 4) * 0x55);
                 }),
                 ...);
            };
            // Roots (parent -1) are rare past the first block: the sign bits of the
            // block's eight parents tell.
            const bool anyRoot = _mm256_movemask_ps(_mm256_castsi256_ps(
                                     _mm256_loadu_si256(reinterpret_cast<const __m256i*>(par)))) != 0;
            if (anyRoot) {
                block.template operator()<true>(std::make_integer_sequence<int, static_cast<int>(W)>{});
            } else {
                block.template operator()<false>(std::make_integer_sequence<int, static_cast<int>(W)>{});
            }
            continue;
        }
        alignas(64) float pairs[6][2 * W];
        for (std::size_t k = 0; k < 6; ++k) {
            _mm256_store_ps(pairs[k], half[k][0]);
            _mm256_store_ps(pairs[k] + W, half[k][1]);
        }
        // I = l % 4 picks the permute's immediate.
        const auto partial = [&]<int I>(std::integral_constant<int, I>, std::uint32_t l) __attribute__((always_inline)) {
            const float* h = &pairs[0][0] + (l & 4u) * 2;
            joint(l, [&](std::size_t k) __attribute__((always_inline)) {
                return _mm256_permute_ps(_mm256_load_ps(h + k * 2 * W), I * 0x55);
            });
        };
        for (std::uint32_t l = 0; l < end; l += 4) {
            partial(std::integral_constant<int, 0>{}, l);
            if (l + 1 < end) partial(std::integral_constant<int, 1>{}, l + 1);
            if (l + 2 < end) partial(std::integral_constant<int, 2>{}, l + 2);
            if (l + 3 < end) partial(std::integral_constant<int, 3>{}, l + 3);
        }
    }
}
#else
void localToModelKernel(const std::int32_t* parents, detail::SoaPoseConstView local, std::uint32_t joints,
                        float* model) noexcept {
    // Local matrices of W joints, element after element (rotation-scale columns, then
    // translation). Rows are padded so that eight floats can be read from any lane.
    alignas(64) float m[12][W];
    for (std::uint32_t base = 0; base < joints; base += W) {
        const float* at = local.c[0] + base;
        const LocalProducts q = localProducts(at, local.lanes);
        for (int k = 0; k < 12; ++k) S::store(m[k], localElement(q, at, local.lanes, k));
        const std::uint32_t end = joints - base < W ? joints - base : W;
        for (std::uint32_t j = 0; j < end; ++j) {
            float* o = model + static_cast<std::size_t>(base + j) * 16;
            const std::int32_t p = parents[base + j];
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
#endif

#if defined(__AVX512F__)
// One register per matrix, [c0 | c1 | c2 | c3]: quarter c of term k is the
// model's column k (loaded into all four quarters) times the inverse bind's
// element (k, c) (spread within its quarter), so a palette entry is four
// multiply-adds and one store.
void paletteKernel(const float* model, const std::uint32_t* joints, const float* inverseBind, std::uint32_t count,
                   float* out) noexcept {
    for (std::uint32_t i = 0; i < count; ++i) {
        const float* pm = model + static_cast<std::size_t>(joints[i]) * 16;
        const __m512 b = _mm512_loadu_ps(inverseBind + static_cast<std::size_t>(i) * 16);
        __m512 r = _mm512_mul_ps(quarters(pm), withinBlocks<0x00>(b));
        r = _mm512_fmadd_ps(quarters(pm + 4), withinBlocks<0x55>(b), r);
        r = _mm512_fmadd_ps(quarters(pm + 8), withinBlocks<0xAA>(b), r);
        r = _mm512_fmadd_ps(quarters(pm + 12), withinBlocks<0xFF>(b), r);
        _mm512_storeu_ps(out + static_cast<std::size_t>(i) * 16, r);
    }
}
#else
void paletteKernel(const float* model, const std::uint32_t* joints, const float* inverseBind, std::uint32_t count,
                   float* out) noexcept {
    for (std::uint32_t i = 0; i < count; ++i) {
        const float* pm = model + static_cast<std::size_t>(joints[i]) * 16;
        const float* b = inverseBind + static_cast<std::size_t>(i) * 16;
        float* o = out + static_cast<std::size_t>(i) * 16;
#if defined(__AVX2__)
        // Two result columns per register: [c0 | c1] and [c2 | c3]. Each needs the
        // parent's columns twice ([P.ck | P.ck], one 128-bit broadcast) and the
        // inverse bind's elements of row k of both columns spread over the halves:
        // element k of each half of [B.c0 | B.c1], an in-lane permute (a cross-lane
        // one costs two operations and several cycles more on AMD's cores).
        const __m256 p0 = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(pm));
        const __m256 p1 = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(pm + 4));
        const __m256 p2 = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(pm + 8));
        const __m256 p3 = _mm256_insertf128_ps(_mm256_setzero_ps(), _mm_loadu_ps(pm + 12), 1);
        const __m256 b01 = _mm256_loadu_ps(b), b23 = _mm256_loadu_ps(b + 8);
        const __m256 r01 = _mm256_fmadd_ps(
            p2, _mm256_permute_ps(b01, 0xAA),
            _mm256_fmadd_ps(p1, _mm256_permute_ps(b01, 0x55), _mm256_mul_ps(p0, _mm256_permute_ps(b01, 0x00))));
        const __m256 r23 = _mm256_fmadd_ps(
            p2, _mm256_permute_ps(b23, 0xAA),
            _mm256_fmadd_ps(p1, _mm256_permute_ps(b23, 0x55), _mm256_fmadd_ps(p0, _mm256_permute_ps(b23, 0x00), p3)));
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

#endif

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
    const auto c23 = [&](int i) {
        return _mm256_loadu_ps(reinterpret_cast<const float*>(rows + j.rowOffset(i) + 32));
    };
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

#if defined(__AVX512F__)
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

// Whether a skinning loop also transforms normals, as a type (one loop each).
template <bool Normals>
struct NormalsTag {
    static constexpr bool value = Normals;
};

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
                   float* outNormals) noexcept {
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
        const __m512 r = _mm512_fmadd_ps(
            c2, permute16(spreadZ, p),
            _mm512_fmadd_ps(c1, permute16(spreadY, p), _mm512_fmadd_ps(c0, permute16(spreadX, p), c3)));
        _mm512_mask_storeu_ps(outPositions + static_cast<std::size_t>(v) * 3, lanes, permute16(pack, r));
        if constexpr (!decltype(normalsTag)::value) return;

        // Cofactor matrix (det * inverse-transpose) as three cross products of the
        // blended columns, as the scalar reference computes it element by element.
        const __m512 y0 = withinBlocks<kYzx>(c0), y1 = withinBlocks<kYzx>(c1);
        const __m512 y2 = withinBlocks<kYzx>(c2);
        const auto cross = [&](__m512 a, __m512 ya, __m512 bb, __m512 yb) {
            return withinBlocks<kYzx>(_mm512_fmsub_ps(a, yb, _mm512_mul_ps(ya, bb)));
        };
        const __m512 r0 = cross(c1, y1, c2, y2), r1 = cross(c2, y2, c0, y0), r2 = cross(c0, y0, c1, y1);
        const __m512 nv = _mm512_maskz_loadu_ps(lanes, normals + static_cast<std::size_t>(v) * 3);
        const __m512 o = _mm512_fmadd_ps(
            r2, permute16(spreadZ, nv),
            _mm512_fmadd_ps(r1, permute16(spreadY, nv), _mm512_mul_ps(r0, permute16(spreadX, nv))));
        // x + y + z of each vertex in its lanes 0..2 (lane 3 is ignored).
        const auto sum3 = [&](__m512 a) {
            return _mm512_add_ps(_mm512_add_ps(a, withinBlocks<kYzx>(a)), withinBlocks<kZxy>(a));
        };
        const __m512 det = sum3(_mm512_mul_ps(c0, r0)), len2 = sum3(_mm512_mul_ps(o, o));
        // -1 where det < 0, as the reference decides it (a sign bit alone would also
        // flip det == -0).
        const __m512 sign = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(det, _mm512_setzero_ps(), _CMP_LT_OQ),
                                                 _mm512_set1_ps(1.0f), _mm512_set1_ps(-1.0f));
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
        constexpr bool halves = SplitBlend && !decltype(normalsTag)::value;
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
    if (normals != nullptr && outNormals != nullptr) {
        run(NormalsTag<true>{});
    } else {
        run(NormalsTag<false>{});
    }
}

void skinKernel(const float* palette, const std::uint16_t* joints, const float* weights, std::uint32_t influences,
                const float* positions, const float* normals, std::uint32_t count, float* outPositions,
                float* outNormals) noexcept {
    skinKernelFor<false>(palette, joints, weights, influences, positions, normals, count, outPositions, outNormals);
}

void skinKernelSplitBlend(const float* palette, const std::uint16_t* joints, const float* weights,
                          std::uint32_t influences, const float* positions, const float* normals, std::uint32_t count,
                          float* outPositions, float* outNormals) noexcept {
    skinKernelFor<true>(palette, joints, weights, influences, positions, normals, count, outPositions, outNormals);
}
#elif defined(__AVX2__)
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
        m23 = _mm256_add_ps(m23, _mm256_fmadd_ps(_mm256_loadu_ps(pb + 8), wb, _mm256_mul_ps(_mm256_loadu_ps(pa + 8), wa)));
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
                float* outNormals) noexcept {
    const bool doNormals = normals != nullptr && outNormals != nullptr;
    const auto disjoint = [count](const float* a, const float* b) {
        if (a == nullptr || b == nullptr) return true;
        const auto x = reinterpret_cast<std::uintptr_t>(a), y = reinterpret_cast<std::uintptr_t>(b);
        const std::uintptr_t bytes = static_cast<std::uintptr_t>(count) * 3 * sizeof(float);
        return x + bytes <= y || y + bytes <= x;
    };
    const bool separate = disjoint(outPositions, positions) && disjoint(outPositions, normals) &&
                          (!doNormals || (disjoint(outNormals, positions) && disjoint(outNormals, normals)));
    const std::uint32_t wide = separate ? count : 0;
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
    const auto normalPair = [&](std::uint32_t a, std::uint32_t b, const Blended2& ma, const Blended2& mb) {
        const __m256 c0 = _mm256_permute2f128_ps(ma.c01, mb.c01, 0x20);
        const __m256 c1 = _mm256_permute2f128_ps(ma.c01, mb.c01, 0x31);
        const __m256 c2 = _mm256_permute2f128_ps(ma.c23, mb.c23, 0x20);
        const auto yzx = [](__m256 x) { return _mm256_permute_ps(x, _MM_SHUFFLE(3, 0, 2, 1)); };
        const auto zxy = [](__m256 x) { return _mm256_permute_ps(x, _MM_SHUFFLE(3, 1, 0, 2)); };
        const auto cross = [&](__m256 x, __m256 y) { return yzx(_mm256_fmsub_ps(x, yzx(y), _mm256_mul_ps(yzx(x), y))); };
        const __m256 r0 = cross(c1, c2), r1 = cross(c2, c0), r2 = cross(c0, c1);
        const float* na = normals + static_cast<std::size_t>(a) * 3;
        const float* nb = normals + static_cast<std::size_t>(b) * 3;
        const __m256 nx = halves(na, nb), ny = halves(na + 1, nb + 1), nz = halves(na + 2, nb + 2);
        const __m256 o = _mm256_fmadd_ps(r2, nz, _mm256_fmadd_ps(r1, ny, _mm256_mul_ps(r0, nx)));
        // x + y + z of each vertex in lanes 0..2 of its half (lane 3 is ignored).
        const auto sum3 = [&](__m256 x) { return _mm256_add_ps(_mm256_add_ps(x, yzx(x)), zxy(x)); };
        const __m256 det = sum3(_mm256_mul_ps(c0, r0)), len2 = sum3(_mm256_mul_ps(o, o));
        const __m256 one = _mm256_set1_ps(1.0f);
        const __m256 sign = _mm256_blendv_ps(one, _mm256_set1_ps(-1.0f), _mm256_cmp_ps(det, _mm256_setzero_ps(), _CMP_LT_OQ));
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
            normalPair(first, first + 1, a, b);
        }
    }
    Blended2 even{};
    for (std::uint32_t v = first; v < count; ++v) {
        const Blended2 m = blendAt(v);
        position(v, m);
        if ((v & 1u) == 0) {
            even = m;
        } else {
            normalPair(v - 1, v, even, m);
        }
    }
    if ((count & 1u) != 0) normalPair(count - 1, count - 1, even, even);
}
#else
void skinKernel(const float* palette, const std::uint16_t* joints, const float* weights, std::uint32_t influences,
                const float* positions, const float* normals, std::uint32_t count, float* outPositions,
                float* outNormals) noexcept {
    for (std::uint32_t v = 0; v < count; ++v) {
        const std::uint16_t* jv = joints + static_cast<std::size_t>(v) * influences;
        const float* wv = weights + static_cast<std::size_t>(v) * influences;
        float* op = outPositions + static_cast<std::size_t>(v) * 3;
        const float* p = positions + static_cast<std::size_t>(v) * 3;
        alignas(16) float m[16];
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

#endif

constexpr detail::KernelTable kTable{sampleKernel, blend2Kernel, addKernel, localToModelKernel, paletteKernel, skinKernel};
