// kinema/runtime: the per-frame passes on the SoA pose, with SIMD kernels chosen
// at run time (see simd.hpp). The scalar functions of sample.hpp, pose.hpp and
// skinning.hpp stay the reference these are tested against; the differences are
// bounded in docs/SIMD.md.
//
// Nothing here allocates. Every function checks sizes first (O(1)) and returns
// false without writing anything when they do not fit.
#pragma once

#include <span>
#include <string_view>

#include "kinema/asset/model.hpp"
#include "kinema/math/mat4.hpp"
#include "kinema/math/vec3.hpp"
#include "kinema/runtime/detail/kernel_abi.hpp"
#include "kinema/runtime/joint_mask.hpp"
#include "kinema/runtime/packed_clip.hpp"
#include "kinema/runtime/simd.hpp"
#include "kinema/runtime/skinning.hpp"
#include "kinema/runtime/soa_pose.hpp"

namespace kinema {

class PoseKernels {
public:
    // The kernels of bestSimdLevel().
    PoseKernels() noexcept;
    // The kernels of `level`, or of bestSimdLevel() when `level` is not supported
    // here; `mix` says whether a pass may take another level's kernel where that was
    // measured faster on this CPU (simd.hpp). Construction reads the CPU's
    // identification (cpuid, which traps to the hypervisor in a VM): make one and
    // keep it, as PoseBatch does; copies are cheap.
    explicit PoseKernels(SimdLevel level, KernelMix mix = KernelMix::Tuned) noexcept;

    SimdLevel level() const noexcept { return level_; }
    // True when some pass runs another level's kernel (KernelMix::Tuned at avx512 on
    // a CPU whose wideVectorCost() is not Native).
    bool mixed() const noexcept { return !name_.empty(); }
    // The level's name, with the passes that run other kernels: "avx512",
    // "avx512 (local->model, palette: avx2)" or "avx512 (skinning; other passes: avx2)".
    std::string_view name() const noexcept;

    // Samples every track of `clip` at `time` (on the clip's timeline: apply
    // clipTime() first) into `pose`. Joints and weights no track animates keep their
    // values (start from the rest pose). Same boundary rules, and the same double
    // time through the key search and the interpolation factor, as reference::sample().
    bool sample(const PackedClip& clip, double time, PackedClipCursor& cursor, SoaPose& pose) const noexcept;

    // pose = blend(pose, clip sampled at `time`, weight[, mask]) in one pass, bit for
    // bit what sample() into a second pose and blend() give, without that pose (an
    // override layer). The clip must cover `pose` exactly (coversPose: no rest
    // values under it) and a mask must have pose's joint count; else false.
    bool sampleOver(const PackedClip& clip, double time, PackedClipCursor& cursor, float weight, const JointMask* mask,
                    SoaPose& pose) const noexcept;

    // out = a blended toward b by t in [0, 1]: translation, scale and weights lerp,
    // rotation the normalised shortest-arc lerp (nlerp). `out` may be `a` or `b`.
    bool blend(const SoaPose& a, const SoaPose& b, float t, SoaPose& out) const noexcept;
    // The same with t scaled per joint by `mask` (an override layer on part of the
    // body); morph weights blend by t.
    bool blend(const SoaPose& a, const SoaPose& b, float t, const JointMask& mask, SoaPose& out) const noexcept;

    // Additive layer: what `pose` adds to `reference` (the rest pose, or a chosen
    // frame of the additive clip), applied to `base` with weight t (times `mask`
    // per joint when given): translation base + w (pose - reference); rotation
    // base * nlerp(identity, conj(reference) * pose, w), i.e. the delta in the
    // bone's own frame; scale base * (1 + w (pose / reference - 1)), an axis with a
    // zero reference scale keeping the base's; morph weights base + t (pose -
    // reference). `out` may be `base`.
    bool add(const SoaPose& base, const SoaPose& pose, const SoaPose& reference, float t, const JointMask* mask,
             SoaPose& out) const noexcept;

    // model[i] = model[parents[i]] * toMatrix(local joint i); roots as is.
    bool localToModel(std::span<const std::int32_t> parents, const SoaPose& local,
                      std::span<Mat4> model) const noexcept;

    // palette[i] = model[skin.joints[i]] * skin.inverseBindMatrices[i]. Like every
    // per-frame pass it checks sizes only (O(1)): the skin's joint indices must be
    // below model.size(), as findModelFaults checks at load and PoseBatch::evaluate
    // checks once per call (scanning them here cost a third of a small palette).
    bool skinPalette(const Skin& skin, std::span<const Mat4> model, std::span<Mat4> palette) const noexcept;

    // Linear-blend skinning as reference::skinVertices() does, normals transformed as
    // `normalTransform` says; normals are skipped when `outNormals` is empty. Like
    // the reference it trusts the primitive's joint indices to be within `palette`
    // (findModelFaults checks them at load). An output may be its own input array
    // (skinning in place).
    bool skinVertices(const MeshPrimitive& primitive, std::span<const Mat4> palette, std::span<const Vec3> positions,
                      std::span<const Vec3> normals, std::span<Vec3> outPositions, std::span<Vec3> outNormals,
                      NormalTransform normalTransform = NormalTransform::InverseTranspose) const noexcept;

private:
    // sample() (over false) and sampleOver().
    bool sampleInto(const PackedClip& clip, double time, PackedClipCursor& cursor, SoaPose& pose, bool over,
                    float overWeight, const float* overMask) const noexcept;

    SimdLevel level_;
    std::string_view name_;  // empty unless mixed
    detail::KernelTable table_;
};

}  // namespace kinema
