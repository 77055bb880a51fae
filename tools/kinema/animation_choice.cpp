#include "animation_choice.hpp"

#include <charconv>
#include <cstdint>

#include "kinema/core/counted.hpp"

namespace kinema::cli {

Result<std::optional<std::size_t>> chooseAnimation(const Model& model, const std::string& spec) {
    if (spec == "none" || (model.clips.empty() && spec == "0")) return std::optional<std::size_t>{};
    std::int64_t i = 0;
    const auto r = std::from_chars(spec.data(), spec.data() + spec.size(), i);
    // Digits past int64's range are an index too, out of range like any past the clips.
    if (!spec.empty() && r.ptr == spec.data() + spec.size() &&
        (r.ec == std::errc{} || r.ec == std::errc::result_out_of_range)) {
        if (r.ec == std::errc{} && i >= 0 && i < static_cast<std::int64_t>(model.clips.size())) {
            return std::optional<std::size_t>{static_cast<std::size_t>(i)};
        }
        return Fault{
            "--animation",
            "animation " + spec + " is out of range: the file has " + counted(model.clips.size(), "animation")};
    }
    for (std::size_t c = 0; c < model.clips.size(); ++c) {
        if (model.clips[c].name() == spec) return std::optional<std::size_t>{c};
    }
    return Fault{"--animation", "no animation is named '" + spec + "'; the file has " + clipNames(model.clips)};
}

}  // namespace kinema::cli
