// kinema/io: user curves as data. A JSON file gives clips their curves by clip name,
// so weights such as a foot-IK curve need no code and no re-export of the glTF file:
//
//   {"clips": {"Walk": {"footIkLeft": {"times": [0, 0.6, 1], "values": [1, 0, 1]},
//                       "blink": {"times": [0, 0.1], "values": [0, 1], "interpolation": "STEP"}}}}
//
// Read fail-closed like the marker JSON: an unknown or duplicate key, a curve without
// times or values, a non-finite number, an interpolation other than "LINEAR" (the
// default) or "STEP", or a clip name the model lacks is a fault at its JSON pointer,
// and nothing is applied; so is a curve Clip::withCurves refuses (times not strictly
// increasing, a value count other than the key count). The curves a file gives a clip
// replace the clip's own (from glTF extras.curves, say); clips it does not name keep theirs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kinema/asset/clip.hpp"
#include "kinema/asset/model.hpp"
#include "kinema/core/result.hpp"

namespace kinema {

struct ClipCurves {
    std::string clip;
    std::vector<CurveTrack> curves;
};

// The file's clips in their order of appearance. `source` (a file name, or empty)
// prefixes every fault location as "source#/clips/Walk/footIkLeft/times".
Result<std::vector<ClipCurves>> parseCurveJson(std::string_view json, std::string_view source = {});

// parseCurveJson, then every named clip of `model` gets its curves (the first clip of
// that name). Returns how many clips changed; on a fault the model is unchanged.
Result<std::size_t> applyCurveJson(std::string_view json, Model& model, std::string_view source = {});

// Reads the file at `path` (a regular file of at most 64 MiB) and applies it as
// applyCurveJson does.
Result<std::size_t> applyCurveFile(const std::string& path, Model& model);

}  // namespace kinema
