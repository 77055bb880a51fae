#include "kinema/asset/skeleton.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "kinema/math/mat4.hpp"
#include "kinema/math/transform.hpp"

namespace kinema {

namespace {
// Rest rotations whose squared length is this close to 1 are kept as given.
constexpr float kUnitTolerance = 1e-6f;
}  // namespace

std::uint64_t jointNamesFingerprint(std::span<const std::string> names) noexcept {
    std::uint64_t h = 14695981039346656037ull;
    const auto mix = [&](unsigned char c) {
        h ^= c;
        h *= 1099511628211ull;
    };
    for (const std::string& name : names) {
        for (const char c : name) mix(static_cast<unsigned char>(c));
        for (int k = 0; k < 8; ++k) mix(static_cast<unsigned char>(name.size() >> (8 * k)));
    }
    return h == 0 ? 1 : h;
}

Result<Skeleton> Skeleton::create(std::vector<JointDesc> joints) {
    std::vector<Fault> faults;
    Skeleton s;
    s.names_.reserve(joints.size());
    s.parents_.reserve(joints.size());
    s.rest_.reserve(joints.size());
    for (std::size_t i = 0; i < joints.size(); ++i) {
        JointDesc& j = joints[i];
        auto at = [i] { return "joints/" + std::to_string(i); };
        if (j.parent != kNoParent && (j.parent < 0 || static_cast<std::size_t>(j.parent) >= i)) {
            faults.push_back({at() + "/parent",
                              "parent " + std::to_string(j.parent) +
                                  " is not an earlier joint (parents must come before children)"});
        }
        if (!isFinite(j.rest.translation)) faults.push_back({at() + "/rest/translation", "not finite"});
        if (!isFinite(j.rest.scale)) faults.push_back({at() + "/rest/scale", "not finite"});
        const auto q = tryNormalize(j.rest.rotation);
        if (!q) {
            faults.push_back({at() + "/rest/rotation", "zero or non-finite quaternion"});
        } else if (std::abs(dot(j.rest.rotation, j.rest.rotation) - 1.0f) > kUnitTolerance) {
            // Within the tolerance the rotation is kept bit for bit, so a skeleton
            // built again from its own rest pose (a cooked file) is the same skeleton.
            j.rest.rotation = *q;
        }
        s.names_.push_back(std::move(j.name));
        s.parents_.push_back(j.parent);
        s.rest_.push_back(j.rest);
    }
    if (!faults.empty()) return faults;
    // Finite transforms can still compose to infinity (scales of 1e30 on nested joints):
    // every pose would then place the joint nowhere. Only the topmost such joint is
    // named; those below it follow from it.
    std::vector<Mat4> model(s.rest_.size());
    for (std::size_t i = 0; i < s.rest_.size(); ++i) {
        const std::int32_t p = s.parents_[i];
        const Mat4 local = toMatrix(s.rest_[i]);
        if (p == kNoParent) {
            model[i] = local;
            continue;
        }
        const Mat4& parent = model[static_cast<std::size_t>(p)];
        model[i] = mulAffine(parent, local);
        if (isFinite(parent) && !isFinite(model[i])) {
            faults.push_back({"joints/" + std::to_string(i) + "/rest",
                              "composed with the joints above it, the rest transform is not finite (a float "
                              "overflows)"});
        }
    }
    if (!faults.empty()) return faults;
    s.byName_.resize(s.names_.size());
    std::iota(s.byName_.begin(), s.byName_.end(), 0u);
    std::stable_sort(s.byName_.begin(), s.byName_.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return s.names_[a] < s.names_[b]; });
    s.fingerprint_ = jointNamesFingerprint(s.names_);
    return s;
}

std::optional<std::uint32_t> Skeleton::findJoint(std::string_view name) const {
    const auto it = std::lower_bound(byName_.begin(), byName_.end(), name,
                                     [&](std::uint32_t j, std::string_view n) { return names_[j] < n; });
    if (it == byName_.end() || names_[*it] != name) return std::nullopt;
    return *it;
}

}  // namespace kinema
