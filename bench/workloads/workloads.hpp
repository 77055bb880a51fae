// The reference workload W1 built in code, and a synthetic skinned mesh: the data the
// sampling and skinning benchmarks (bench/) and `kinema bench` (tools/kinema) time.
// docs/PERFORMANCE.md describes both.
//
// W1 skeleton of n joints: a binary heap (joint k >= 1 has parent (k - 1) / 2),
// rest T = (0.05 * (k mod 3), 0.1, 0.02), R = identity, S = 1.
// W1 clip: 2 s, 61 LINEAR keys at t = f / 30 (f = 0..60) on translation, rotation
// and scale of every joint; smooth sinusoids with per-joint phases from a seeded
// hash; rotations are unit quaternions about a per-joint axis; key 60 equals key 0
// exactly, so the clip loops without a seam. Two definitions differ only in the
// rotation amplitude (W1Clip): the angle about the joint's axis is A sin(2 pi f / 60
// + phase), A = 0.6 rad (a key turns at most 2 A sin(pi / 60) = 3.6 degrees from the
// last) or A = 3.5 rad (at most 20.99 degrees: fast turns, beyond what a first-order
// corrected nlerp holds to 1e-6; the sampler's second-order form covers them).
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kinema/asset/clip.hpp"
#include "kinema/asset/model.hpp"
#include "kinema/asset/skeleton.hpp"
#include "kinema/batch/pose_batch.hpp"
#include "kinema/math/mat4.hpp"
#include "kinema/math/quat.hpp"
#include "kinema/math/transform.hpp"
#include "kinema/runtime/ik.hpp"
#include "kinema/runtime/packed_clip.hpp"
#include "kinema/runtime/pose.hpp"

namespace kinema::bench {

inline constexpr std::uint64_t kSeed = 0x6b696e656d61ull;  // "kinema"

// splitmix64: a fixed, portable hash so every run builds the same data.
constexpr std::uint64_t mix(std::uint64_t x) noexcept {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// A deterministic sequence of uniform numbers in [0, 1).
class Random {
public:
    explicit Random(std::uint64_t seed) noexcept : state_(seed) {}
    std::uint64_t next() noexcept { return state_ = mix(state_); }
    double uniform() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

private:
    std::uint64_t state_;
};

inline constexpr int kW1Frames = 60;  // key f at t = f / 30 for f = 0..60
inline constexpr double kW1FrameRate = 30.0;

// Which W1 clip definition: the rotation amplitude A above.
enum class W1Clip { Smooth, Wide };
inline constexpr double rotationAmplitude(W1Clip c) noexcept { return c == W1Clip::Smooth ? 0.6 : 3.5; }
inline constexpr const char* toString(W1Clip c) noexcept { return c == W1Clip::Smooth ? "smooth" : "wide"; }

// The W1 model: skeleton, one clip ("W1"), and one skin over every joint whose
// inverse bind matrices are the inverse rest model matrices. `error` is set (and
// the model empty) if a builder rejects the data, which would be a bug here.
struct Workload {
    Model model;
    std::string error;
};

// The W1 clip for the W1 skeleton of `jointCount` joints whose rest translations are
// `restTranslations`. `variant` 0 is the clip of buildW1(); any other value gives a
// different clip of the same shape (other phases and axes), e.g. the second clip
// of the blend workload W1c. Nullopt with `error` set if Clip::create rejects it.
std::optional<Clip> buildW1Clip(std::span<const Vec3> restTranslations, std::uint64_t variant, W1Clip definition,
                                std::string& error);

Workload buildW1(std::size_t jointCount, W1Clip definition = W1Clip::Smooth);

// W1 of `jointCount` joints, built once per process (per definition).
const Workload& w1(std::size_t jointCount, W1Clip definition = W1Clip::Smooth);

// A second W1 clip (variant 1) for W1 of `jointCount` joints, built once per
// process: the clip the blend workload W1c plays over the first one.
struct ClipWorkload {
    Clip clip;
    std::string error;
};

const ClipWorkload& w1SecondClip(std::size_t jointCount, W1Clip definition = W1Clip::Smooth);

// A synthetic skinned primitive: `vertices` positions in a 1 m box, unit normals,
// 4 influences per vertex on random joints below `jointCount` with random
// weights that sum to 1 (all non-zero: the costly case).
MeshPrimitive makeSkinnedPrimitive(std::size_t vertices, std::size_t jointCount);

// Batch inputs for `count` instances of `clip`, their start times spread evenly over
// it; layer 0 plays the clip at full weight.
std::vector<InstanceRequest> staggeredInputs(const PackedClip& clip, std::size_t count);

// W1c's inputs: `first` staggered, and `second` over it at weight 0.5, same times.
std::vector<InstanceRequest> blendedInputs(const PackedClip& first, const PackedClip& second, std::size_t count);

// The IK workload's tasks on W1's binary heap, per instance: two two-bone tasks
// (joints 1-3-7 and 2-5-11, "legs") reaching for points near their ends' rest
// positions, each instance's a little apart, then an aim (joints 2 and 6, "neck and
// head"). Needs at least 12 joints.
std::vector<std::array<IkTask, 3>> w1IkTasks(const Skeleton& skeleton, std::size_t count);

// PoseBatch::create for a benchmark's known-good options; throws std::runtime_error
// with the faults otherwise.
PoseBatch makeBatch(const Model& model, std::size_t instances, const BatchOptions& options);

}  // namespace kinema::bench
