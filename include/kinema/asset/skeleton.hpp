// kinema/asset: immutable, shareable animation data. A Skeleton is the joint
// hierarchy a pose is laid out on: names, parents, and the rest (bind) pose.
//
// Joints are ordered parent-before-child (parent index < own index), so a pose
// composes local -> model in one forward loop. Build one with Skeleton::create,
// which checks every invariant and names each fault.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kinema/core/result.hpp"
#include "kinema/math/transform.hpp"

namespace kinema {

inline constexpr std::int32_t kNoParent = -1;

// A 64-bit digest of a joint name list (FNV-1a over the names and their lengths),
// never 0. Two skeletons with the same names in the same order have the same
// fingerprint; clips, skins and masks carry the fingerprint of the skeleton they
// were made for, so that evaluating them on another one is refused, not garbage.
std::uint64_t jointNamesFingerprint(std::span<const std::string> names) noexcept;

struct JointDesc {
    std::string name;
    std::int32_t parent = kNoParent;  // index of an earlier joint, or kNoParent
    Transform rest;                   // local rest transform relative to the parent
};

class Skeleton {
public:
    Skeleton() = default;

    // Faults (with `where` = "joints/<i>/<field>"): parent not earlier than the
    // joint, non-finite rest transform, zero rotation, a rest transform that is not
    // finite once composed with its ancestors'. Rest rotations are normalised
    // (ones already of unit length to within 1e-6 are kept bit for bit).
    static Result<Skeleton> create(std::vector<JointDesc> joints);

    std::size_t jointCount() const noexcept { return parents_.size(); }
    std::span<const std::int32_t> parents() const noexcept { return parents_; }
    std::span<const Transform> restPose() const noexcept { return rest_; }
    std::string_view name(std::size_t joint) const { return names_[joint]; }

    // The first joint with this exact name (O(log n)); not a per-frame call:
    // resolve once and keep the index.
    std::optional<std::uint32_t> findJoint(std::string_view name) const;
    std::span<const std::string> names() const noexcept { return names_; }
    // jointNamesFingerprint(names()).
    std::uint64_t fingerprint() const noexcept { return fingerprint_; }

private:
    std::vector<std::string> names_;
    std::vector<std::int32_t> parents_;
    std::vector<Transform> rest_;
    std::vector<std::uint32_t> byName_;  // joint indices sorted by (name, index)
    std::uint64_t fingerprint_ = jointNamesFingerprint({});
};

}  // namespace kinema
