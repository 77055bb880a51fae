// Palette entries on four-float columns (portable and SSE4.2).

void paletteKernel(const float* model, const std::uint32_t* joints, const float* inverseBind, std::uint32_t count,
                   float* out) noexcept {
    for (std::uint32_t i = 0; i < count; ++i) {
        const float* pm = model + static_cast<std::size_t>(joints[i]) * 16;
        const float* b = inverseBind + static_cast<std::size_t>(i) * 16;
        float* o = out + static_cast<std::size_t>(i) * 16;
        const V4 c0 = S::load4(pm), c1 = S::load4(pm + 4), c2 = S::load4(pm + 8), c3 = S::load4(pm + 12);
        for (int c = 0; c < 3; ++c) {
            const V4 r = S::fmadd4(c2, S::bcastLoad4(b + c * 4 + 2),
                                   S::fmadd4(c1, S::bcastLoad4(b + c * 4 + 1), S::mul4(c0, S::bcastLoad4(b + c * 4))));
            S::store4(o + c * 4, r);
        }
        const V4 t = S::fmadd4(c2, S::bcastLoad4(b + 14),
                               S::fmadd4(c1, S::bcastLoad4(b + 13), S::fmadd4(c0, S::bcastLoad4(b + 12), c3)));
        S::store4(o + 12, t);
    }
}
