// The sampling pass: each packed block of lanes interpolated at its timeline's
// point and stored into the pose (or blended over it, SampleArgs::over).

// Where a block's lanes go: one output array per component, and the lane -> target map.
// With blending over (SampleArgs::over) also the weight, and the per-joint mask
// (null for morph weights, which blend by the weight alone, or without a mask).
template <unsigned C>
struct BlockOutput {
    float* dst[C];
    const std::uint32_t* targets;
    unsigned lanes;
    bool contiguous;
    F weight;
    float weightScalar;
    const float* mask;
};

template <unsigned C>
BlockOutput<C> blockOutput(const detail::PackedBlock& block, const detail::SampleArgs& args) noexcept {
    BlockOutput<C> o;
    const unsigned first = block.path == kPathTranslation ? 0u : block.path == kPathRotation ? 3u : 7u;
    for (unsigned c = 0; c < C; ++c) o.dst[c] = block.path == kPathWeights ? args.out.weights : args.out.c[first + c];
    o.targets = args.targets + block.targetOffset;
    o.lanes = block.lanes;
    o.contiguous = block.contiguous != 0;
    o.weight = S::set1(args.overWeight);
    o.weightScalar = args.overWeight;
    o.mask = block.path == kPathWeights ? nullptr : args.overMask;
    return o;
}

// Runs `lanesOf(chunk, v)` for every register of lanes and stores the C results:
// whole registers of consecutive targets straight into the pose (pointers set up
// once per block), the rest lane by lane through the target map. With `Over` the
// results are blended over the pose's values instead (blendOver, lerpWeight).
// `lanesOf` may also take N registers at once (N chunks from `ch`): then whole
// groups of N are done that way first.
template <unsigned C, unsigned N = 1, bool Over = false, class LanesOf>
inline void forEachChunk(const BlockOutput<C>& out, LanesOf&& lanesOf) noexcept {
    // A one-register `lanesOf` takes F*; a grouped one F (&)[K][C] for K = 1 or N.
    const auto call = [&](unsigned at, auto& v) __attribute__((always_inline)) {
        if constexpr (N == 1) {
            lanesOf(at, v[0]);
        } else {
            lanesOf(at, v);
        }
    };
    // Register v of the lanes from `at` of a contiguous block, whose pose values start at d.
    const auto put = [&](float* const* d, unsigned at, F* v) __attribute__((always_inline)) {
        if constexpr (Over && C == 1) {
            alignas(64) float tmp[W];
            S::store(tmp, v[0]);
            for (unsigned l = 0; l < W; ++l) d[0][at + l] = lerpWeight(d[0][at + l], tmp[l], out.weightScalar);
        } else {
            if constexpr (Over) {
                F prev[C];
                for (unsigned c = 0; c < C; ++c) prev[c] = S::loadu(d[c] + at);
                const F t =
                    out.mask != nullptr ? S::mul(out.weight, S::loadu(out.mask + out.targets[0] + at)) : out.weight;
                blendOver<C>(prev, v, t);
            }
            for (unsigned c = 0; c < C; ++c) S::storeu(d[c] + at, v[c]);
        }
    };
    const unsigned direct = out.contiguous ? out.lanes / W * W : 0;
    unsigned ch = 0;
    if (direct != 0) {
        float* d[C];
        for (unsigned c = 0; c < C; ++c) d[c] = out.dst[c] + out.targets[0];
        if constexpr (N > 1) {
            for (; ch + N * W <= direct; ch += N * W) {
                F v[N][C];
                call(ch, v);
                for (unsigned k = 0; k < N; ++k) put(d, ch + k * W, v[k]);
            }
        }
        for (; ch < direct; ch += W) {
            F v[1][C];
            call(ch, v);
            put(d, ch, v[0]);
        }
    }
    for (; ch < out.lanes; ch += W) {
        F v[1][C];
        call(ch, v);
        const unsigned valid = out.lanes - ch < W ? out.lanes - ch : W;
        alignas(64) float tmp[C][W];
        for (unsigned c = 0; c < C; ++c) S::store(tmp[c], v[0][c]);
        if constexpr (Over && C == 1) {
            for (unsigned l = 0; l < valid; ++l) {
                float& x = out.dst[0][out.targets[ch + l]];
                x = lerpWeight(x, tmp[0][l], out.weightScalar);
            }
            continue;
        } else if constexpr (Over) {
            // The pose's values (and mask) of the valid lanes gathered into registers;
            // the others repeat the sampled values, so they stay finite.
            alignas(64) float prev[C][W];
            alignas(64) float m[W];
            for (unsigned l = 0; l < W; ++l) {
                const bool in = l < valid;
                for (unsigned c = 0; c < C; ++c) prev[c][l] = in ? out.dst[c][out.targets[ch + l]] : tmp[c][l];
                m[l] = in && out.mask != nullptr ? out.mask[out.targets[ch + l]] : 0.0f;
            }
            F a[C];
            for (unsigned c = 0; c < C; ++c) a[c] = S::load(prev[c]);
            const F t = out.mask != nullptr ? S::mul(out.weight, S::load(m)) : out.weight;
            blendOver<C>(a, v[0], t);
            for (unsigned c = 0; c < C; ++c) S::store(tmp[c], v[0][c]);
        }
        for (unsigned c = 0; c < C; ++c) {
            for (unsigned l = 0; l < valid; ++l) out.dst[c][out.targets[ch + l]] = tmp[c][l];
        }
    }
}

// Rotations interpolated between two keys' rows at fraction u: the corrected nlerp
// where every lane's keys are close, else the half-arc slerp.
struct RotationLerp {
    explicit RotationLerp(float fraction) noexcept : u(fraction), nf(nlerpFraction(fraction)) {}

    template <unsigned K>
    __attribute__((always_inline)) void operator()(const F (&a)[K][4], const F (&b)[K][4], F (&v)[K][4]) noexcept {
        F d[K];
        bool near = true;
        for (unsigned k = 0; k < K; ++k) {
            d[k] = dot4(a[k], b[k]);
            near = near && S::allLanes(S::cmplt(S::set1(kNlerpMinCos), S::abs(d[k])));
        }
        if (near) {
            for (unsigned k = 0; k < K; ++k) correctedNlerp(a[k], b[k], d[k], nf, v[k]);
            return;
        }
        // The series are set up only when a register of lanes needs them: clips baked
        // at common rates take the corrected nlerp everywhere, and the set-up (two
        // chains of seven double multiplies, sixteen broadcasts) sits on each pose's
        // critical path.
        if (!haveSeries) {
            h = halfArcSlerp(u);
            haveSeries = true;
        }
        slerp(a, b, h, v);
    }

    float u;
    NlerpFraction nf;
    HalfArcSlerp h{};
    bool haveSeries = false;
};

// One block with C components per lane.
template <unsigned C, bool Over>
void sampleBlock(const detail::PackedBlock& block, const detail::SampleArgs& args) noexcept {
    const BlockOutput<C> out = blockOutput<C>(block, args);
    const detail::TimelinePoint point = args.points[block.timeline];
    const unsigned lanes = block.paddedLanes;
    const float* key0 = args.values + block.valueOffset + static_cast<std::size_t>(point.key) * block.keyStride;
    const float* key1 = key0 + block.keyStride;
    const float u = point.u;
    if (block.interpolation == kCubic) {
        // Per key: in-tangents, values, out-tangents, each C rows of `lanes`.
        const float* v0 = key0 + C * lanes;
        if (u == 0.0f) {
            forEachChunk<C, 1, Over>(out, [&](unsigned ch, F* v) {
                for (unsigned c = 0; c < C; ++c) v[c] = S::load(v0 + c * lanes + ch);
            });
            return;
        }
        const float* b0 = key0 + 2 * C * lanes;  // out-tangent of key k
        const float* a1 = key1;                  // in-tangent of key k + 1
        const float* v1 = key1 + C * lanes;
        const float u2 = u * u, u3 = u2 * u, td = point.span;
        const F h00 = S::set1(2.0f * u3 - 3.0f * u2 + 1.0f);
        const F h10 = S::set1((u3 - 2.0f * u2 + u) * td);
        const F h01 = S::set1(-2.0f * u3 + 3.0f * u2);
        const F h11 = S::set1((u3 - u2) * td);
        forEachChunk<C, 1, Over>(out, [&](unsigned ch, F* v) {
            F start[C];
            for (unsigned c = 0; c < C; ++c) {
                const unsigned o = c * lanes + ch;
                start[c] = S::load(v0 + o);
                v[c] = S::fmadd(h11, S::load(a1 + o),
                                S::fmadd(h01, S::load(v1 + o), S::fmadd(h10, S::load(b0 + o), S::mul(h00, start[c]))));
            }
            if constexpr (C == 4) {
                // A spline through unit keys reaches zero only with absurd tangents;
                // such a lane holds the interval's first key instead of turning NaN.
                const F len2 = dot4(v, v);
                const auto ok = S::cmplt(S::set1(1e-30f), len2);
                const F inv = S::div(S::set1(1.0f), S::sqrt(len2));
                for (int c = 0; c < 4; ++c) v[c] = S::select(ok, S::mul(v[c], inv), start[c]);
            }
        });
        return;
    }
    const float* r0[C];
    const float* r1[C];
    for (unsigned c = 0; c < C; ++c) {
        r0[c] = key0 + c * lanes;
        r1[c] = key1 + c * lanes;
    }
    if (block.interpolation == kStep || u == 0.0f) {
        forEachChunk<C, 1, Over>(out, [&](unsigned ch, F* v) {
            for (unsigned c = 0; c < C; ++c) v[c] = S::load(r0[c] + ch);
        });
        return;
    }
    if constexpr (C == 4) {
        RotationLerp lerp(u);
        forEachChunk<4, 2, Over>(
            out, [&](unsigned ch, auto& v) __attribute__((always_inline)) {
                constexpr unsigned kGroup = sizeof(v) / sizeof(v[0]);
                F a[kGroup][4], b[kGroup][4];
                for (unsigned k = 0; k < kGroup; ++k) {
                    for (unsigned c = 0; c < 4; ++c) {
                        a[k][c] = S::load(r0[c] + ch + k * W);
                        b[k][c] = S::load(r1[c] + ch + k * W);
                    }
                }
                lerp(a, b, v);
            });
        return;
    }
    // a - a u + b u rather than a + (b - a) u: keys of opposite signs more than the
    // largest float apart interpolate to a finite value, as the reference sampler's.
    const F fu = S::set1(u);
    forEachChunk<C, 1, Over>(out, [&](unsigned ch, F* v) {
        for (unsigned c = 0; c < C; ++c) {
            const F a = S::load(r0[c] + ch);
            v[c] = S::fmadd(S::load(r1[c] + ch), fu, S::fnmadd(a, fu, a));
        }
    });
}

// A quantized block's stored components (kernel_abi.hpp, PackedBlock) for the
// lanes from `ch`, with the scales from entry `scales` on: the integers of a row as
// floats, and the C values they stand for, a rotation's `Dropped` component rebuilt
// from the other three.
template <unsigned C, unsigned Dropped, class Element>
struct QuantizedLanes {
    static constexpr unsigned kStored = C == 4 ? 3 : C;

    __attribute__((always_inline)) QuantizedLanes(const detail::PackedBlock& block, const detail::SampleArgs& args,
                                                  unsigned scales, unsigned ch) noexcept
        : padded(block.paddedLanes), lane(ch) {
        for (unsigned c = 0; c < kStored; ++c) {
            const unsigned i = scales + c * padded + ch;
            step[c] = S::loadu(args.quantized.steps + i);
            minimum[c] = S::loadu(args.quantized.minimums + i);
        }
    }
    __attribute__((always_inline)) void integers(const std::uint8_t* row, F* q) const noexcept {
        const auto* e = reinterpret_cast<const Element*>(row);
        for (unsigned c = 0; c < kStored; ++c) {
            if constexpr (sizeof(Element) == 2) {
                q[c] = S::fromU16(e + c * padded + lane);
            } else {
                q[c] = S::fromU32(e + c * padded + lane);
            }
        }
    }
    __attribute__((always_inline)) void values(const std::uint8_t* row, F* v) const noexcept {
        F s[kStored];
        integers(row, s);
        for (unsigned c = 0; c < kStored; ++c) s[c] = S::fmadd(s[c], step[c], minimum[c]);
        if constexpr (C == 4) {
            const F rest = S::fnmadd(s[2], s[2], S::fnmadd(s[1], s[1], S::fnmadd(s[0], s[0], S::set1(1.0f))));
            const F rebuilt = S::sqrt(S::max(rest, S::zero()));
            for (unsigned c = 0, k = 0; c < 4; ++c) v[c] = c == Dropped ? rebuilt : s[k++];
        } else {
            for (unsigned c = 0; c < C; ++c) v[c] = s[c];
        }
    }

    unsigned padded, lane;
    F step[kStored], minimum[kStored];
};

// A quantized block (PackedBlock): LINEAR keys decoded from two rows of integers.
template <unsigned C, unsigned Dropped, class Element, bool Over>
void sampleQuantizedBlock(const detail::PackedBlock& block, const detail::SampleArgs& args) noexcept {
    using Lanes = QuantizedLanes<C, Dropped, Element>;
    const BlockOutput<C> out = blockOutput<C>(block, args);
    const detail::TimelinePoint point = args.points[block.timeline];
    const std::uint8_t* row0 =
        args.quantized.rows + block.valueOffset + static_cast<std::size_t>(point.key) * block.keyStride;
    const std::uint8_t* row1 = row0 + block.keyStride;
    const float u = point.u;
    // Each row's scales are its segment's; an interval can end in the next segment.
    const unsigned perSegment = Lanes::kStored * block.paddedLanes;
    const unsigned scales0 = block.quantOffset + (point.key >> block.segmentShift) * perSegment;
    const unsigned scales1 = block.quantOffset + ((point.key + 1) >> block.segmentShift) * perSegment;
    if (u == 0.0f) {
        forEachChunk<C, 1, Over>(out, [&](unsigned ch, F* v) { Lanes(block, args, scales0, ch).values(row0, v); });
        return;
    }
    if constexpr (C == 4) {
        RotationLerp lerp(u);
        forEachChunk<4, 2, Over>(
            out, [&](unsigned ch, auto& v) __attribute__((always_inline)) {
                constexpr unsigned kGroup = sizeof(v) / sizeof(v[0]);
                F a[kGroup][4], b[kGroup][4];
                for (unsigned k = 0; k < kGroup; ++k) {
                    Lanes(block, args, scales0, ch + k * W).values(row0, a[k]);
                    Lanes(block, args, scales1, ch + k * W).values(row1, b[k]);
                }
                lerp(a, b, v);
            });
        return;
    }
    const F fu = S::set1(u);
    if (scales0 != scales1) {
        forEachChunk<C, 1, Over>(out, [&](unsigned ch, F* v) {
            F a[C], b[C];
            Lanes(block, args, scales0, ch).values(row0, a);
            Lanes(block, args, scales1, ch).values(row1, b);
            for (unsigned c = 0; c < C; ++c) v[c] = S::fmadd(S::sub(b[c], a[c]), fu, a[c]);
        });
        return;
    }
    // Within one segment translation and scale interpolate the integers, then scale
    // once: the same line as interpolating the decoded values, to float rounding.
    forEachChunk<C, 1, Over>(out, [&](unsigned ch, F* v) {
        const Lanes lanes(block, args, scales0, ch);
        F a[C], b[C];
        lanes.integers(row0, a);
        lanes.integers(row1, b);
        for (unsigned c = 0; c < C; ++c) {
            v[c] = S::fmadd(S::fmadd(S::sub(b[c], a[c]), fu, a[c]), lanes.step[c], lanes.minimum[c]);
        }
    });
}

template <unsigned C, unsigned Dropped, bool Over>
void sampleQuantizedBlock(const detail::PackedBlock& block, const detail::SampleArgs& args) noexcept {
    if (block.quantized == 2) {
        sampleQuantizedBlock<C, Dropped, std::uint16_t, Over>(block, args);
    } else {
        sampleQuantizedBlock<C, Dropped, std::uint32_t, Over>(block, args);
    }
}

template <bool Over>
void sampleBlocks(const detail::SampleArgs& args) noexcept {
    for (std::uint32_t bi = 0; bi < args.blockCount; ++bi) {
        const detail::PackedBlock& block = args.blocks[bi];
        if (block.quantized != 0) {
            if (block.components == 3) {
                sampleQuantizedBlock<3, 3, Over>(block, args);
                continue;
            }
            switch (block.dropped) {
                case 0: sampleQuantizedBlock<4, 0, Over>(block, args); break;
                case 1: sampleQuantizedBlock<4, 1, Over>(block, args); break;
                case 2: sampleQuantizedBlock<4, 2, Over>(block, args); break;
                default: sampleQuantizedBlock<4, 3, Over>(block, args); break;
            }
            continue;
        }
        switch (block.components) {
            case 1: sampleBlock<1, Over>(block, args); break;
            case 3: sampleBlock<3, Over>(block, args); break;
            default: sampleBlock<4, Over>(block, args); break;
        }
    }
}

void sampleKernel(const detail::SampleArgs& args) noexcept {
    if (args.over != 0) {
        sampleBlocks<true>(args);
    } else {
        sampleBlocks<false>(args);
    }
}
