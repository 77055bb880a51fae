// kinema/io: the joint map of retargeting (asset/retarget.hpp) as data, so a clip
// authored on one rig plays on another with no code:
//
//   {"joints":    {"mixamorig:Hips": "hips", "mixamorig:LeftUpLeg": "thigh_l"},
//    "reference": {"source": "mixamorig:Hips", "target": "hips"}}
//
// "joints" (required, at least one entry): source joint name -> target joint name,
// in the order given. "reference" (optional): the hips joints whose rest heights give
// the translation ratio; "source", "target" or both (a missing one is found through
// the map). Read fail-closed like the marker and state-machine JSON: an unknown or
// duplicate key, a value of the wrong type, an empty name, or two source joints
// mapped to one target joint is a fault at its JSON pointer
// ("map.json#/joints/mixamorig:Hips"), and nothing is returned. Whether the names
// exist in the skeletons is checked when the map is used (retargetClip, checkRetarget).
#pragma once

#include <string>
#include <string_view>

#include "kinema/asset/retarget.hpp"
#include "kinema/core/result.hpp"

namespace kinema {

// `source` (a file name, or empty) prefixes every fault location as "source#/joints/hips",
// and becomes the map's origin: the faults retargetClip and checkRetarget find in its
// entries later (a name the skeleton lacks) point into the file the same way.
Result<RetargetMap> parseJointMapJson(std::string_view json, std::string_view source = {});

// Reads the file at `path` (a regular file of at most 64 MiB) and parses it as
// parseJointMapJson does, with `path` as the source.
Result<RetargetMap> loadJointMapFile(const std::string& path);

}  // namespace kinema
