// kinema/io: the JSON form of a tween (docs/TWEENS.md).
//
//   {"length": 2.5,
//    "position": {"easing": "outBack", "keys": [{"time": 0, "value": [0, 0, 0]},
//                                               {"time": 1, "value": [0, 2, 0]}]},
//    "rotation": {"keys": [{"time": 0, "value": [0, 0, 0, 1]}, ...]},
//    "scale": {...}}
//
// Every key of the root and of a track is optional ("easing" defaults to "linear");
// a track that is present needs "keys" (an empty list animates nothing). Reading is
// fail-closed like the state-machine JSON: a field of the wrong type, an unknown or
// duplicate key, an unknown easing name, a number that is not finite (as a 32-bit
// float for values), a negative time or length, keys that are not in strictly
// increasing time order (a file's order is checked, never repaired) or a zero
// quaternion rejects the whole text, and every fault names its JSON pointer
// ("source#/rotation/keys/2/value"). A syntax error is located by byte, line and
// column.
#pragma once

#include <string>
#include <string_view>

#include "kinema/core/result.hpp"
#include "kinema/scene/tween.hpp"

namespace kinema {

// Parses `json`. `source` (a file name, or empty) prefixes every fault location.
Result<Tween> parseTweenJson(std::string_view json, std::string_view source = {});

// Reads the file at `path` (a regular file of at most 64 MiB) and parses it; a file
// that cannot be read is one fault naming the path and the reason.
Result<Tween> loadTweenFile(const std::string& path);

// The JSON text of `tween`: parseTweenJson gives back an equal tween, every time,
// value and length bit for bit (numbers are written as their shortest round-trip
// decimals). A track is written when it has keys or an easing other than linear.
std::string toJson(const Tween& tween);

}  // namespace kinema
