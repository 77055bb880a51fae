// The blend passes: two poses blended by a weight (optionally per joint), and an
// additive layer applied to a base pose.

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
