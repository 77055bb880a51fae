// Palette entries with 256-bit registers: two result columns per register.

void paletteKernel(const float* model, const std::uint32_t* joints, const float* inverseBind, std::uint32_t count,
                   float* out) noexcept {
    for (std::uint32_t i = 0; i < count; ++i) {
        const float* pm = model + static_cast<std::size_t>(joints[i]) * 16;
        const float* b = inverseBind + static_cast<std::size_t>(i) * 16;
        float* o = out + static_cast<std::size_t>(i) * 16;
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
    }
}
