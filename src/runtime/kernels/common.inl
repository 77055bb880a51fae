// What every pass shares: the wrapper's types and width, the path and
// interpolation numbers, and the dot products and normalisation of quaternion lanes.
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
