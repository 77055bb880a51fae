#include "kinema/runtime/bone_adjust.hpp"

#include <limits>

namespace kinema {

namespace {

bool usableQuat(Quat q) noexcept { return tryNormalize(q).has_value(); }

// The smallest joint named by an entry that is above `after` (-1: any), or -1 when
// none is. Entries are few and unsorted, so a scan per distinct joint is cheaper
// than sorting into scratch memory the caller would have to provide.
std::int64_t nextAdjustedJoint(std::span<const BoneAdjustment> adjustments, std::int64_t after) noexcept {
    std::int64_t best = -1;
    for (const BoneAdjustment& a : adjustments) {
        const std::int64_t j = a.joint;
        if (j > after && (best < 0 || j < best)) best = j;
    }
    return best;
}

// Applies every entry naming `joint` to its local transform `t`, in list order,
// given the parent's model matrix (null for a root, whose parent frame is model space).
Transform adjusted(Transform t, std::uint32_t joint, const Mat4* parentModel,
                   std::span<const BoneAdjustment> adjustments) noexcept {
    Quat rp{};
    Mat4 inverseParent{};
    if (parentModel != nullptr) {
        rp = decompose(*parentModel).rotation;
        inverseParent = inverseAffine(*parentModel);
    }
    const Quat rpConj = conjugate(rp);
    for (const BoneAdjustment& a : adjustments) {
        if (a.joint != joint) continue;
        // Validated non-zero and finite; the double-precision normalisation keeps
        // tiny but legal quaternions from underflowing.
        if (a.absolute) t.rotation = normalize(rpConj * *tryNormalize(*a.absolute));
        t.rotation = normalize(rpConj * *tryNormalize(a.rotation) * rp * t.rotation);
        t.translation = t.translation + transformDirection(inverseParent, a.offset);
        t.scale = mulComponents(t.scale, a.scale);
    }
    return t;
}

constexpr Status kSizes = Status::failure(
    StatusCode::WrongCount, "bone adjustments: parents, local transforms and model matrices differ in count");

}  // namespace

Status checkBoneAdjustments(std::span<const BoneAdjustment> adjustments, std::size_t jointCount) noexcept {
    for (std::size_t i = 0; i < adjustments.size(); ++i) {
        const BoneAdjustment& a = adjustments[i];
        const auto bad = [&](StatusCode code, const char* what) {
            return Status::failure(code, what).withIndex(static_cast<std::int64_t>(i));
        };
        if (a.joint >= jointCount) return bad(StatusCode::OutOfRange, "bone adjustment: joint outside the skeleton");
        if (!usableQuat(a.rotation))
            return bad(StatusCode::NotFinite, "bone adjustment: rotation is zero or not finite");
        if (a.absolute && !usableQuat(*a.absolute)) {
            return bad(StatusCode::NotFinite, "bone adjustment: absolute orientation is zero or not finite");
        }
        if (!isFinite(a.offset)) return bad(StatusCode::NotFinite, "bone adjustment: offset is not finite");
        if (!isFinite(a.scale)) return bad(StatusCode::NotFinite, "bone adjustment: scale is not finite");
    }
    return Status::success();
}

Status localToModel(std::span<const std::int32_t> parents, std::span<Transform> local,
                    std::span<const BoneAdjustment> adjustments, std::span<Mat4> model) noexcept {
    const std::size_t n = parents.size();
    if (local.size() != n || model.size() != n) return kSizes;
    if (Status s = checkBoneAdjustments(adjustments, n); !s) return s;
    auto compose = [&](std::size_t i) {
        const Mat4 m = toMatrix(local[i]);
        const std::int32_t p = parents[i];
        model[i] = p < 0 ? m : mulAffine(model[static_cast<std::size_t>(p)], m);
    };
    std::size_t i = 0;
    for (std::int64_t j = nextAdjustedJoint(adjustments, -1); j >= 0; j = nextAdjustedJoint(adjustments, j)) {
        const auto joint = static_cast<std::size_t>(j);
        for (; i < joint; ++i) compose(i);
        const std::int32_t p = parents[joint];
        local[joint] = adjusted(local[joint], static_cast<std::uint32_t>(joint),
                                p < 0 ? nullptr : &model[static_cast<std::size_t>(p)], adjustments);
    }
    for (; i < n; ++i) compose(i);
    return Status::success();
}

Status applyBoneAdjustments(std::span<const std::int32_t> parents, SoaPose& local,
                            std::span<const BoneAdjustment> adjustments) noexcept {
    const std::size_t n = parents.size();
    if (local.jointCount() != n) return kSizes;
    if (Status s = checkBoneAdjustments(adjustments, n); !s) return s;
    // The last adjusted bone's model matrix: bent chains (spine1, spine2, spine3)
    // are common, and each link's walk toward the root can stop there.
    std::size_t cachedJoint = std::numeric_limits<std::size_t>::max();
    Mat4 cachedModel{};
    for (std::int64_t j = nextAdjustedJoint(adjustments, -1); j >= 0; j = nextAdjustedJoint(adjustments, j)) {
        const auto joint = static_cast<std::size_t>(j);
        const std::int32_t p = parents[joint];
        Mat4 parentModel{};
        if (p >= 0) {
            // Ancestors have lower indices, so their adjustments are already in
            // `local`; premultiplying while walking up needs no stack.
            auto a = static_cast<std::size_t>(p);
            parentModel = a == cachedJoint ? cachedModel : toMatrix(local.joint(a));
            while (a != cachedJoint && parents[a] >= 0) {
                a = static_cast<std::size_t>(parents[a]);
                parentModel = mulAffine(a == cachedJoint ? cachedModel : toMatrix(local.joint(a)), parentModel);
            }
        }
        const Transform t = adjusted(local.joint(joint), static_cast<std::uint32_t>(joint),
                                     p < 0 ? nullptr : &parentModel, adjustments);
        local.setJoint(joint, t);
        cachedJoint = joint;
        cachedModel = p < 0 ? toMatrix(t) : mulAffine(parentModel, toMatrix(t));
    }
    return Status::success();
}

Status localToModel(const PoseKernels& kernels, std::span<const std::int32_t> parents, SoaPose& local,
                    std::span<const BoneAdjustment> adjustments, std::span<Mat4> model) noexcept {
    if (model.size() < local.jointCount()) return kSizes;
    if (Status s = applyBoneAdjustments(parents, local, adjustments); !s) return s;
    kernels.localToModel(parents, local, model);
    return Status::success();
}

}  // namespace kinema
