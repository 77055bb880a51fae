// Names to indices, looked up by std::string_view without building a string: the
// lookups of names in definitions (states, parameters, curves, clips) in constant
// time, so a file with many names loads in time linear in its size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace kinema {

struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view name) const noexcept { return std::hash<std::string_view>{}(name); }
};

using NameIndex = std::unordered_map<std::string, std::uint32_t, NameHash, std::equal_to<>>;

}  // namespace kinema
