// Quaternion interpolation for the sampler: slerp by the half-arc power series
// (no trigonometry, no per-lane branch) and the corrected nlerp for nearby keys.

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
constexpr double kSeriesDivisor[kSlerpTerms] = {0.0,        1.0 / 3.0,  1.0 / 10.0, 1.0 / 21.0,
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
// atan(s sin w / (1 - s (1 - cos w))) from a; it is exactly u w for
// s = sin(u w) / (sin((1 - u) w) + sin(u w)), whose series in y = 1 - cos w is
// u + y u (1 - u)(1 - 2u) / 3 + y^2 2u (1 - u)(1 - 2u)(2u^2 - 2u + 1) / 15 + O(y^3).
// With both correction terms the result sits at u w to within 4.1e-7 wherever
// cos w > 0.93 (w < 0.376 rad, a 43 degree turn per key interval; computed over u
// for each w): every baked clip but the fastest spins. It costs about half the
// series slerp's operations with half its chain; a register with a lane beyond it
// takes the series slerp, which holds on the whole sphere.
constexpr float kNlerpMinCos = 0.93f;

struct NlerpFraction {
    F u;      // the fraction
    F bend1;  // u (1 - u)(1 - 2u) / 3
    F bend2;  // 2u (1 - u)(1 - 2u)(2u^2 - 2u + 1) / 15
};

inline NlerpFraction nlerpFraction(float u) noexcept {
    const float odd = u * (1.0f - u) * (1.0f - 2.0f * u);
    return {S::set1(u), S::set1(odd / 3.0f), S::set1(odd * (2.0f * u * u - 2.0f * u + 1.0f) * (2.0f / 15.0f))};
}

// `d` is dot(a, b) per lane.
__attribute__((always_inline)) inline void correctedNlerp(const F* a, const F* bIn, F d, const NlerpFraction& f,
                                                          F* out) noexcept {
    const F sign = S::signOf(d);
    const F y = S::sub(S::set1(1.0f), S::xorSign(d, sign));
    const F s = S::fmadd(S::fmadd(y, f.bend2, f.bend1), y, f.u);
    for (int c = 0; c < 4; ++c) out[c] = S::fmadd(S::sub(S::xorSign(bIn[c], sign), a[c]), s, a[c]);
    normalize4(out);
}
