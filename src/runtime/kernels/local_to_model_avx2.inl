// Local -> model with 256-bit registers: two result columns per register.

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
    const auto halves = [](__m256(&h)[2], __m256 x, __m256 y) __attribute__((always_inline)) {
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
                (joint.template operator()<MayBeRoot>(
                     L,
                     [&](std::size_t k)
                         __attribute__((always_inline)) { return _mm256_permute_ps(half[k][L / 4], (L % 4) * 0x55); }),
                 ...);
            };
            // Roots (parent -1) are rare past the first block: the sign bits of the
            // block's eight parents tell.
            const bool anyRoot =
                _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(par)))) != 0;
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
        const auto partial = [&]<int I>(std::integral_constant<int, I>, std::uint32_t l)
            __attribute__((always_inline)) {
            const float* h = &pairs[0][0] + (l & 4u) * 2;
            joint(
                l, [&](std::size_t k) __attribute__((always_inline)) {
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
