// kinema/core: the library's version, as the build that produced it was told
// (CMake's project(VERSION)); the same text `kinema --version` prints.
#pragma once

#include <string_view>

namespace kinema {

// "MAJOR.MINOR.PATCH", e.g. "0.1.0".
std::string_view version() noexcept;

}  // namespace kinema
