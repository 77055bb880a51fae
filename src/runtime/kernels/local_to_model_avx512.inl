// Local -> model with 512-bit registers: one register per model matrix.

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
