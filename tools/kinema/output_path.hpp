// Checks an output file's path before the work that fills it: a folder that is not
// there or not writable, or a path that is a folder, a FIFO or a device, is refused
// at once rather than after minutes of rendering.
#pragma once

#include <cstdint>
#include <string>

#include "kinema/core/result.hpp"

namespace kinema::cli {

// Checked where the bytes will go: through links, the folder of the file the last one
// names (writeTarget).
Result<bool> checkOutputPath(const std::string& path);

// The part of checkOutputPath about the name alone (not a folder, a FIFO or a
// device), for more files in a folder checkOutputPath has already checked.
Result<bool> checkOutputName(const std::string& path);

// The file name's last ".xyz", lower case; a name that is only ".png" counts too.
std::string lowerExtension(const std::string& path);

// A GIF's frames are kept until its palette is chosen: at most this many bytes of them.
inline constexpr std::uint64_t kGifFrameBytesLimit = std::uint64_t{2} << 30;

}  // namespace kinema::cli
