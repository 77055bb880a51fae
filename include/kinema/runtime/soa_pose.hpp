// kinema/runtime: a local pose stored as structure of arrays, the layout the SIMD
// kernels read and write. Each of the ten TRS components (translation x/y/z,
// rotation x/y/z/w, scale x/y/z) is one contiguous array over joints, padded to a
// multiple of kSoaLanes (the widest SIMD register in floats) and aligned to 64
// bytes. Padding lanes hold the identity transform, so kernels run over whole
// registers without masks and the padding never turns into NaN.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <vector>

#include "kinema/math/transform.hpp"

namespace kinema {

inline constexpr std::size_t kSoaLanes = 16;
inline constexpr std::size_t kSoaAlignment = 64;

enum class SoaComponent : std::uint8_t { Tx, Ty, Tz, Rx, Ry, Rz, Rw, Sx, Sy, Sz };
inline constexpr std::size_t kSoaComponents = 10;

// std::allocator with a fixed over-alignment, for SIMD arrays.
template <class T, std::size_t Align>
struct AlignedAllocator {
    using value_type = T;
    template <class U>
    struct rebind {
        using other = AlignedAllocator<U, Align>;
    };
    AlignedAllocator() = default;
    template <class U>
    constexpr AlignedAllocator(const AlignedAllocator<U, Align>&) noexcept {}
    T* allocate(std::size_t n) { return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{Align})); }
    void deallocate(T* p, std::size_t) noexcept { ::operator delete (p, std::align_val_t{Align}); }
    template <class U>
    friend constexpr bool operator==(const AlignedAllocator&, const AlignedAllocator<U, Align>&) noexcept {
        return true;
    }
};

template <class T>
using SimdVector = std::vector<T, AlignedAllocator<T, kSoaAlignment>>;

class SoaPose {
public:
    SoaPose() = default;
    // `joints` identity transforms and `weights` zero morph weights.
    SoaPose(std::size_t joints, std::size_t weights);
    // A copy of `local` (one Transform per joint) and `weights`.
    SoaPose(std::span<const Transform> local, std::span<const float> weights);

    std::size_t jointCount() const noexcept { return joints_; }
    // Joints rounded up to a multiple of kSoaLanes: the length of each component array.
    std::size_t laneCount() const noexcept { return lanes_; }

    float* component(SoaComponent c) noexcept { return data_.data() + static_cast<std::size_t>(c) * lanes_; }
    const float* component(SoaComponent c) const noexcept {
        return data_.data() + static_cast<std::size_t>(c) * lanes_;
    }
    std::span<float> weights() noexcept { return weights_; }
    std::span<const float> weights() const noexcept { return weights_; }

    Transform joint(std::size_t i) const noexcept;
    void setJoint(std::size_t i, const Transform& t) noexcept;

    // Copies every joint and weight of `other`, which has the same joint and weight
    // counts (checked: returns false and copies nothing otherwise). Never allocates.
    bool assign(const SoaPose& other) noexcept;
    // Writes the pose as one Transform per joint (`out` holds jointCount()).
    void toTransforms(std::span<Transform> out) const noexcept;

private:
    std::size_t joints_ = 0;
    std::size_t lanes_ = 0;
    SimdVector<float> data_;
    std::vector<float> weights_;
};

// The first joint of `pose` holding a value that is not finite or a zero rotation
// (which no normalisation can turn into one), jointCount() when only a morph weight
// is not finite, -1 when the pose is sound: a pose given from outside (an external,
// a reference or an IK pose) is checked with it before use. Allocates nothing.
std::int64_t firstUnsoundJoint(const SoaPose& pose) noexcept;

}  // namespace kinema
