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

std::string sizeMessage(std::size_t parents, std::size_t local, std::size_t model) {
    return "bone adjustments: " + std::to_string(parents) + " parents, " + std::to_string(local) +
           " local transforms and " + std::to_string(model) + " model matrices do not fit";
}

}  // namespace

std::string checkBoneAdjustments(std::span<const BoneAdjustment> adjustments, std::size_t jointCount) {
    for (std::size_t i = 0; i < adjustments.size(); ++i) {
        const BoneAdjustment& a = adjustments[i];
        const auto where = [&] { return "bone adjustment " + std::to_string(i) + ": "; };
        if (a.joint >= jointCount) {
            return where() + "joint " + std::to_string(a.joint) + " outside the skeleton (" +
                   std::to_string(jointCount) + " joints)";
        }
        if (!usableQuat(a.rotation)) return where() + "rotation is zero or not finite";
        if (a.absolute && !usableQuat(*a.absolute)) return where() + "absolute orientation is zero or not finite";
        if (!isFinite(a.offset)) return where() + "offset is not finite";
        if (!isFinite(a.scale)) return where() + "scale is not finite";
    }
    return {};
}

std::string localToModel(std::span<const std::int32_t> parents, std::span<Transform> local,
                         std::span<const BoneAdjustment> adjustments, std::span<Mat4> model) {
    const std::size_t n = parents.size();
    if (local.size() != n || model.size() != n) return sizeMessage(n, local.size(), model.size());
    if (std::string error = checkBoneAdjustments(adjustments, n); !error.empty()) return error;
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
    return {};
}

std::string applyBoneAdjustments(std::span<const std::int32_t> parents, SoaPose& local,
                                 std::span<const BoneAdjustment> adjustments) {
    const std::size_t n = parents.size();
    if (local.jointCount() != n) return sizeMessage(n, local.jointCount(), n);
    if (std::string error = checkBoneAdjustments(adjustments, n); !error.empty()) return error;
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
    return {};
}

std::string localToModel(const PoseKernels& kernels, std::span<const std::int32_t> parents, SoaPose& local,
                         std::span<const BoneAdjustment> adjustments, std::span<Mat4> model) {
    if (model.size() < local.jointCount()) return sizeMessage(parents.size(), local.jointCount(), model.size());
    if (std::string error = applyBoneAdjustments(parents, local, adjustments); !error.empty()) return error;
    kernels.localToModel(parents, local, model);
    return {};
}

}  // namespace kinema
