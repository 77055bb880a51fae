#include "kinema/runtime/pose_kernels.hpp"

#include <algorithm>

namespace kinema {

namespace {

static_assert(static_cast<std::uint32_t>(NormalTransform::InverseTranspose) == detail::kNormalsByCofactor &&
              static_cast<std::uint32_t>(NormalTransform::BlendedMatrix) == detail::kNormalsByBlendedMatrix);

const detail::KernelTable* levelTable(SimdLevel level) noexcept {
    switch (level) {
#ifdef KINEMA_HAS_X86_KERNELS
        case SimdLevel::Sse42: return &detail::kSse42Kernels;
        case SimdLevel::Avx2: return &detail::kAvx2Kernels;
        case SimdLevel::Avx512: return &detail::kAvx512Kernels;
#endif
        default: return &detail::kPortableKernels;
    }
}

detail::SoaPoseView view(SoaPose& p) noexcept {
    detail::SoaPoseView v{};
    for (std::size_t c = 0; c < kSoaComponents; ++c) v.c[c] = p.component(static_cast<SoaComponent>(c));
    v.weights = p.weights().data();
    v.lanes = static_cast<std::uint32_t>(p.laneCount());
    return v;
}

detail::SoaPoseConstView view(const SoaPose& p) noexcept {
    detail::SoaPoseConstView v{};
    for (std::size_t c = 0; c < kSoaComponents; ++c) v.c[c] = p.component(static_cast<SoaComponent>(c));
    v.weights = p.weights().data();
    v.lanes = static_cast<std::uint32_t>(p.laneCount());
    return v;
}

}  // namespace

PoseKernels::PoseKernels() noexcept : PoseKernels(bestSimdLevel()) {}

PoseKernels::PoseKernels(SimdLevel level, KernelMix mix) noexcept
    : level_(isSupported(level) ? level : bestSimdLevel()), table_(*levelTable(level_)) {
#ifdef KINEMA_HAS_X86_KERNELS
    if (level_ == SimdLevel::Avx512 && mix == KernelMix::Tuned) {
        switch (wideVectorCost()) {
            case WideVectorCost::Native: break;
            case WideVectorCost::SplitHalves:
                // docs/SIMD.md, "Kernels per CPU": the 256-bit kernels of these two
                // passes load and shuffle 128- and 256-bit pieces, which such a CPU
                // runs at twice the rate of the 512-bit kernels' whole-register ones.
                // Skinning's positions blend in 256-bit halves for the same reason.
                table_.localToModel = detail::kAvx2Kernels.localToModel;
                table_.palette = detail::kAvx2Kernels.palette;
                table_.skin = detail::kAvx512SplitBlendSkin;
                name_ = "avx512 (local->model, palette: avx2)";
                break;
            case WideVectorCost::Downclocked:
                // 512-bit loads issue at half the rate of narrower ones and the
                // clock drops while 512-bit arithmetic runs: only skinning gains from
                // the width in a frame of 256-bit work (docs/SIMD.md, "Kernels per CPU").
                table_ = detail::kAvx2Kernels;
                table_.skin = detail::kAvx512Kernels.skin;
                name_ = "avx512 (skinning; other passes: avx2)";
                break;
        }
    }
#else
    (void)mix;
#endif
}

std::string_view PoseKernels::name() const noexcept { return name_.empty() ? toString(level_) : name_; }

bool PoseKernels::sample(const PackedClip& clip, double time, PackedClipCursor& cursor, SoaPose& pose) const noexcept {
    return sampleInto(clip, time, cursor, pose, false, 0.0f, nullptr);
}

bool PoseKernels::sampleOver(const PackedClip& clip, double time, PackedClipCursor& cursor, float weight,
                             const JointMask* mask, SoaPose& pose) const noexcept {
    if (!clip.coversPose(pose.jointCount(), pose.weights().size())) return false;
    if (mask != nullptr && mask->jointCount() != pose.jointCount()) return false;
    return sampleInto(clip, time, cursor, pose, true, weight, mask != nullptr ? mask->lanes() : nullptr);
}

bool PoseKernels::sampleInto(const PackedClip& clip, double time, PackedClipCursor& cursor, SoaPose& pose, bool over,
                             float overWeight, const float* overMask) const noexcept {
    if (!cursor.isBoundTo(clip) || pose.jointCount() < clip.jointsNeeded() ||
        pose.weights().size() < clip.weightsNeeded()) {
        return false;
    }
    const auto timelines = clip.timelines();
    const auto hints = cursor.hints();
    const auto points = cursor.points();
    const float* allTimes = clip.times().data();
    for (std::size_t i = 0; i < timelines.size(); ++i) {
        const PackedTimeline& tl = timelines[i];
        const float* times = allTimes + tl.firstTime;
        const std::uint32_t n = tl.keyCount;
        detail::TimelinePoint& p = points[i];
        if (n == 1 || !(time > times[0])) {
            p = {0, 0.0f, times[1] - times[0]};
        } else if (time >= times[n - 1]) {
            p = {n - 1, 0.0f, 0.0f};
        } else {
            const std::uint32_t k = findPackedInterval(clip, tl, time, hints[i]);
            // u as reference::sample computes it, in double; the span (float) scales cubic tangents.
            const float t0 = times[k], span = times[k + 1] - t0;
            const double u = (time - t0) / (static_cast<double>(times[k + 1]) - t0);
            p = {k, static_cast<float>(std::min(u, 1.0)), span};
        }
    }
    detail::SampleArgs args{clip.blocks().data(), static_cast<std::uint32_t>(clip.blocks().size()),
                            clip.values().data(), clip.targets().data(),
                            points.data(),        clip.quantizedLanes(),
                            view(pose),           over ? 1u : 0u,
                            overWeight,           overMask};
    table_.sample(args);
    return true;
}

bool PoseKernels::blend(const SoaPose& a, const SoaPose& b, float t, SoaPose& out) const noexcept {
    if (a.jointCount() != out.jointCount() || b.jointCount() != out.jointCount() ||
        a.weights().size() != out.weights().size() || b.weights().size() != out.weights().size()) {
        return false;
    }
    table_.blend2(view(a), view(b), t, nullptr, view(out), static_cast<std::uint32_t>(out.laneCount()),
                  static_cast<std::uint32_t>(out.weights().size()));
    return true;
}

bool PoseKernels::blend(const SoaPose& a, const SoaPose& b, float t, const JointMask& mask,
                        SoaPose& out) const noexcept {
    if (a.jointCount() != out.jointCount() || b.jointCount() != out.jointCount() ||
        a.weights().size() != out.weights().size() || b.weights().size() != out.weights().size() ||
        mask.jointCount() != out.jointCount()) {
        return false;
    }
    table_.blend2(view(a), view(b), t, mask.lanes(), view(out), static_cast<std::uint32_t>(out.laneCount()),
                  static_cast<std::uint32_t>(out.weights().size()));
    return true;
}

bool PoseKernels::add(const SoaPose& base, const SoaPose& pose, const SoaPose& reference, float t,
                      const JointMask* mask, SoaPose& out) const noexcept {
    const std::size_t n = out.jointCount(), w = out.weights().size();
    for (const SoaPose* p : {&base, &pose, &reference}) {
        if (p->jointCount() != n || p->weights().size() != w) return false;
    }
    if (mask != nullptr && mask->jointCount() != n) return false;
    table_.add(view(base), view(pose), view(reference), t, mask != nullptr ? mask->lanes() : nullptr, view(out),
               static_cast<std::uint32_t>(out.laneCount()), static_cast<std::uint32_t>(w));
    return true;
}

bool PoseKernels::localToModel(std::span<const std::int32_t> parents, const SoaPose& local,
                               std::span<Mat4> model) const noexcept {
    if (parents.size() != local.jointCount() || model.size() < local.jointCount()) return false;
    if (local.jointCount() == 0) return true;
    table_.localToModel(parents.data(), view(local), static_cast<std::uint32_t>(local.jointCount()),
                        model.data()->m.data());
    return true;
}

bool PoseKernels::skinPalette(const Skin& skin, std::span<const Mat4> model, std::span<Mat4> palette) const noexcept {
    const std::size_t n = skin.joints.size();
    if (palette.size() < n || skin.inverseBindMatrices.size() < n) return false;
    if (n == 0) return true;
    if (model.empty()) return false;
    table_.palette(model.data()->m.data(), skin.joints.data(), skin.inverseBindMatrices.data()->m.data(),
                   static_cast<std::uint32_t>(n), palette.data()->m.data());
    return true;
}

bool PoseKernels::skinVertices(const MeshPrimitive& primitive, std::span<const Mat4> palette,
                               std::span<const Vec3> positions, std::span<const Vec3> normals,
                               std::span<Vec3> outPositions, std::span<Vec3> outNormals,
                               NormalTransform normalTransform) const noexcept {
    const std::size_t n = positions.size();
    const std::size_t k = primitive.influencesPerVertex;
    const bool doNormals = !outNormals.empty();
    if (outPositions.size() < n || primitive.joints.size() < n * k || primitive.weights.size() < n * k ||
        (doNormals && (normals.size() < n || outNormals.size() < n)) || (k > 0 && palette.empty())) {
        return false;
    }
    if (n == 0) return true;
    static_assert(sizeof(Vec3) == 3 * sizeof(float), "Vec3 is three packed floats");
    table_.skin(palette.data()->m.data(), primitive.joints.data(), primitive.weights.data(),
                static_cast<std::uint32_t>(k), &positions.data()->x, doNormals ? &normals.data()->x : nullptr,
                static_cast<std::uint32_t>(n), &outPositions.data()->x, doNormals ? &outNormals.data()->x : nullptr,
                static_cast<std::uint32_t>(normalTransform));
    return true;
}

}  // namespace kinema
