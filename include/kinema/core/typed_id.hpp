// kinema/core: dense indices that cannot be mixed up.
//
// A TypedId<Tag> is an index into the one collection that issued it (a mesh of a
// render catalogue, a node of a scene). Ids of different tags are different types,
// so a mesh id is never accepted where a material id is expected, although both
// are a 32-bit index underneath. A default-constructed id is invalid.
#pragma once

#include <compare>
#include <cstdint>
#include <limits>

namespace kinema {

template <class Tag>
struct TypedId {
    static constexpr std::uint32_t kInvalid = std::numeric_limits<std::uint32_t>::max();

    std::uint32_t value = kInvalid;

    constexpr bool valid() const noexcept { return value != kInvalid; }
    friend constexpr bool operator==(TypedId, TypedId) noexcept = default;
    friend constexpr auto operator<=>(TypedId, TypedId) noexcept = default;
};

}  // namespace kinema
