// kinema/io: markers as data. A JSON file gives clips their markers by clip name,
// so footsteps, hit frames and sync points need no code:
//
//   {"clips": {"Walk": [{"name": "footstep_l", "time": 0.12},
//                       {"name": "footstep_r", "time": 0.62}],
//              "Run":  [{"name": "footstep_l", "time": 0.05}]}}
//
// Read fail-closed like the state-machine JSON: an unknown or duplicate key, a
// marker without a name, a time that is not a finite number >= 0 or is past its clip's
// end, or a clip name the model lacks is a fault at its JSON pointer, and nothing is
// applied. The markers a
// file gives a clip replace the clip's own (from glTF extras.markers, say); clips the
// file does not name keep theirs. A state machine playing the clips then reports the
// markers as events (StateMachine::events()).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kinema/asset/clip.hpp"
#include "kinema/asset/model.hpp"
#include "kinema/core/result.hpp"

namespace kinema {

struct ClipMarkers {
    std::string clip;
    std::vector<Marker> markers;
};

// The file's clips in their order of appearance. `source` (a file name, or empty)
// prefixes every fault location as "source#/clips/Walk/1/time".
Result<std::vector<ClipMarkers>> parseMarkerJson(std::string_view json, std::string_view source = {});

// parseMarkerJson, then every named clip of `model` gets its markers (the first clip
// of that name). Returns how many clips changed; on a fault the model is unchanged.
Result<std::size_t> applyMarkerJson(std::string_view json, Model& model, std::string_view source = {});

// Reads the file at `path` (a regular file of at most 64 MiB) and applies it as
// applyMarkerJson does.
Result<std::size_t> applyMarkerFile(const std::string& path, Model& model);

}  // namespace kinema
