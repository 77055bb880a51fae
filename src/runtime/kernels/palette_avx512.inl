// Palette entries with 512-bit registers: one register per matrix.

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
