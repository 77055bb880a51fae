#include "kinema/runtime/external_pose.hpp"

#include <algorithm>
#include <cmath>

#include "kinema/math/quat.hpp"

namespace kinema {

namespace {

bool sameShape(const SoaPose& a, const SoaPose& b) noexcept {
    return a.jointCount() == b.jointCount() && a.weights().size() == b.weights().size();
}

// `from`'s joints into `to`, each rotation at unit length, as a blend leaves them: a
// pose may hold rotations of another length (a rotation times a scale), and taking
// the pose whole must not differ from taking it at a weight just below 1.
void copyJoints(const SoaPose& from, SoaPose& to) noexcept {
    for (std::size_t c = 0; c < kSoaComponents; ++c) {
        const auto comp = static_cast<SoaComponent>(c);
        std::copy_n(from.component(comp), from.laneCount(), to.component(comp));
    }
    float* x = to.component(SoaComponent::Rx);
    float* y = to.component(SoaComponent::Ry);
    float* z = to.component(SoaComponent::Rz);
    float* w = to.component(SoaComponent::Rw);
    for (std::size_t j = 0; j < to.jointCount(); ++j) {
        const float length2 = x[j] * x[j] + y[j] * y[j] + z[j] * z[j] + w[j] * w[j];
        if (std::abs(length2 - 1.0f) <= 1e-6f) continue;
        // In double: lengths of 1e-30 or 1e30 square out of a float's range.
        if (const auto q = tryNormalize(Quat{x[j], y[j], z[j], w[j]})) {
            x[j] = q->x;
            y[j] = q->y;
            z[j] = q->z;
            w[j] = q->w;
        }
    }
}

}  // namespace

bool blendExternalPose(const PoseKernels& kernels, const SoaPose& animated, const SoaPose& external, float weight,
                       const JointMask* mask, SoaPose& out) noexcept {
    if (!sameShape(animated, out) || !sameShape(external, out) || &out == &animated || &out == &external ||
        !(weight >= 0.0f && weight <= 1.0f) || (mask != nullptr && mask->jointCount() != out.jointCount())) {
        return false;
    }
    if (weight == 0.0f) return out.assign(animated);
    if (weight == 1.0f && mask == nullptr) {
        copyJoints(external, out);
    } else if (mask != nullptr) {
        kernels.blend(animated, external, weight, *mask, out);
    } else {
        kernels.blend(animated, external, weight, out);
    }
    const auto w = animated.weights();
    std::copy(w.begin(), w.end(), out.weights().begin());
    return true;
}

bool modelTransforms(std::span<const Mat4> model, std::span<Transform> out) noexcept {
    if (out.size() != model.size()) return false;
    for (std::size_t i = 0; i < model.size(); ++i) out[i] = decompose(model[i]);
    return true;
}

bool localFromModel(std::span<const std::int32_t> parents, std::span<const Mat4> model, SoaPose& out) noexcept {
    const std::size_t n = out.jointCount();
    if (parents.size() != n || model.size() != n) return false;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int32_t p = parents[i];
        const Mat4 local = p < 0 ? model[i] : mulAffine(inverseAffine(model[static_cast<std::size_t>(p)]), model[i]);
        out.setJoint(i, decompose(local));
    }
    return true;
}

}  // namespace kinema
