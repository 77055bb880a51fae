// Checks an output file's path before the work that fills it: a folder that is not
// there or not writable, or a path that is a folder, a FIFO or a device, is refused
// at once rather than after minutes of rendering.
#pragma once

#include <string>

#include "kinema/core/result.hpp"

namespace kinema::cli {

Result<bool> checkOutputPath(const std::string& path);

// The part of checkOutputPath about the name alone (not a folder, a FIFO or a
// device), for more files in a folder checkOutputPath has already checked.
Result<bool> checkOutputName(const std::string& path);

}  // namespace kinema::cli
