// One register of lanes blended over another: the operations the blend kernel and
// the sampler's blend-over path share, so that both give the same bits.

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
