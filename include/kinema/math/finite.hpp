// kinema/math: checks on whole arrays of floats, written to vectorise.
#pragma once

#include <span>

namespace kinema {

// True when no value is NaN or infinite. Branch-free over the whole span.
bool allFinite(std::span<const float> values) noexcept;

}  // namespace kinema
