// Local -> model on four-float columns (portable and SSE4.2): the local matrices'
// elements stored per block of W joints, then one joint after another.

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
                const V4 r =
                    S::fmadd4(c2, S::bcastLoad4(&m[c * 3 + 2][j]),
                              S::fmadd4(c1, S::bcastLoad4(&m[c * 3 + 1][j]), S::mul4(c0, S::bcastLoad4(&m[c * 3][j]))));
                S::store4(o + c * 4, r);
            }
            const V4 t = S::fmadd4(c2, S::bcastLoad4(&m[11][j]),
                                   S::fmadd4(c1, S::bcastLoad4(&m[10][j]), S::fmadd4(c0, S::bcastLoad4(&m[9][j]), c3)));
            S::store4(o + 12, t);
        }
    }
}
