// Skinning one vertex at a time on four-float columns, normals in scalar code: the
// portable kernel, and the reference whose bits the SSE4.2 kernel reproduces.

void skinKernel(const float* palette, const std::uint16_t* joints, const float* weights, std::uint32_t influences,
                const float* positions, const float* normals, std::uint32_t count, float* outPositions,
                float* outNormals, std::uint32_t normalTransform) noexcept {
    for (std::uint32_t v = 0; v < count; ++v) {
        const std::uint16_t* jv = joints + static_cast<std::size_t>(v) * influences;
        const float* wv = weights + static_cast<std::size_t>(v) * influences;
        float* op = outPositions + static_cast<std::size_t>(v) * 3;
        const float* p = positions + static_cast<std::size_t>(v) * 3;
        alignas(16) float m[16];
        // Summed in the reference's order from the first product (0 + x would only
        // turn -0 into +0).
        V4 a0 = S::bcast4(0.0f), a1 = a0, a2 = a0, a3 = a0;
        if (influences != 0) {
            const float* pm = palette + static_cast<std::size_t>(jv[0]) * 16;
            const V4 w = S::bcast4(wv[0]);
            a0 = S::mul4(S::load4(pm), w);
            a1 = S::mul4(S::load4(pm + 4), w);
            a2 = S::mul4(S::load4(pm + 8), w);
            a3 = S::mul4(S::load4(pm + 12), w);
        }
        for (std::uint32_t i = 1; i < influences; ++i) {
            const float* pm = palette + static_cast<std::size_t>(jv[i]) * 16;
            const V4 w = S::bcast4(wv[i]);
            a0 = S::fmadd4(S::load4(pm), w, a0);
            a1 = S::fmadd4(S::load4(pm + 4), w, a1);
            a2 = S::fmadd4(S::load4(pm + 8), w, a2);
            a3 = S::fmadd4(S::load4(pm + 12), w, a3);
        }
        const V4 r = S::fmadd4(a2, S::bcast4(p[2]), S::fmadd4(a1, S::bcast4(p[1]), S::fmadd4(a0, S::bcast4(p[0]), a3)));
        S::store4(m, r);
        op[0] = m[0];
        op[1] = m[1];
        op[2] = m[2];
        S::store4(m, a0);
        S::store4(m + 4, a1);
        S::store4(m + 8, a2);
        if (normals == nullptr || outNormals == nullptr) continue;
        const float* n = normals + static_cast<std::size_t>(v) * 3;
        float ox, oy, oz, sign = 1.0f;
        if (normalTransform == detail::kNormalsByBlendedMatrix) {
            ox = m[0] * n[0] + m[4] * n[1] + m[8] * n[2];
            oy = m[1] * n[0] + m[5] * n[1] + m[9] * n[2];
            oz = m[2] * n[0] + m[6] * n[1] + m[10] * n[2];
        } else {
            // Cofactor matrix (det * inverse-transpose) of the blended 3x3; the sign of
            // det keeps the normal facing out when the blend mirrors.
            const float r0x = m[5] * m[10] - m[6] * m[9], r0y = m[6] * m[8] - m[4] * m[10];
            const float r0z = m[4] * m[9] - m[5] * m[8];
            const float r1x = m[9] * m[2] - m[10] * m[1], r1y = m[10] * m[0] - m[8] * m[2];
            const float r1z = m[8] * m[1] - m[9] * m[0];
            const float r2x = m[1] * m[6] - m[2] * m[5], r2y = m[2] * m[4] - m[0] * m[6];
            const float r2z = m[0] * m[5] - m[1] * m[4];
            ox = r0x * n[0] + r1x * n[1] + r2x * n[2];
            oy = r0y * n[0] + r1y * n[1] + r2y * n[2];
            oz = r0z * n[0] + r1z * n[1] + r2z * n[2];
            if (m[0] * r0x + m[1] * r0y + m[2] * r0z < 0.0f) sign = -1.0f;
        }
        const float len2 = ox * ox + oy * oy + oz * oz;
        float* on = outNormals + static_cast<std::size_t>(v) * 3;
        if (!(len2 > 0.0f)) {
            on[0] = n[0];
            on[1] = n[1];
            on[2] = n[2];
            continue;
        }
        const float s = sign / __builtin_sqrtf(len2);
        on[0] = ox * s;
        on[1] = oy * s;
        on[2] = oz * s;
    }
}
