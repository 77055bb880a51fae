// Local matrices from a SoA pose, W joints at a time: the quaternion products and
// the elements built from them, for the local -> model kernels that take them
// whole (the AVX2 kernel builds its own pairs of elements).

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
    return {S::mul(x, x2),
            S::mul(y, y2),
            S::mul(z, z2),
            S::mul(x, y2),
            S::mul(x, z2),
            S::mul(y, z2),
            S::mul(w, x2),
            S::mul(w, y2),
            S::mul(w, z2),
            S::load(at + 7 * stride),
            S::load(at + 8 * stride),
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
