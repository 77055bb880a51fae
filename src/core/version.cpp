#include "kinema/core/version.hpp"

namespace kinema {

// KINEMA_VERSION comes from CMake's project(VERSION), so the number lives in one place.
std::string_view version() noexcept { return KINEMA_VERSION; }

}  // namespace kinema
