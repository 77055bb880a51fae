// What `--animation` names, read one way by `kinema sample`, `render` and `view`.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "kinema/asset/model.hpp"
#include "kinema/core/result.hpp"

namespace kinema::cli {

// The clip `spec` names, as docs/CLI.md reads it: a whole number is an index (one out
// of range, negative ones too, is refused with the file's count); "none", or "0" on a
// file without animations, is the rest pose (nullopt); any other text, '' included, is
// a clip's name (the first match), an unknown one refused listing the file's names.
Result<std::optional<std::size_t>> chooseAnimation(const Model& model, const std::string& spec);

}  // namespace kinema::cli
