// kinema/io: the JSON form of a state machine description (docs/STATE-MACHINES.md).
//
// Reading is fail-closed like the glTF importer: a field of the wrong type, an
// unknown key (a typo would otherwise be a silently ignored setting), an unknown
// enumeration name or a number that is not finite as a float rejects the whole
// text, and every fault names its JSON pointer. Names are only resolved later by
// StateMachineDefinition::create, whose faults use the same pointers.
#pragma once

#include <string>
#include <string_view>

#include "kinema/core/result.hpp"
#include "kinema/play/state_machine.hpp"

namespace kinema {

// Parses `json`. `source` (a file name, or empty) prefixes every fault location as
// "source#/states/1/speed".
Result<StateMachineDesc> parseStateMachineJson(std::string_view json, std::string_view source = {});

// parseStateMachineJson, then StateMachineDefinition::create, faults of both located
// in `source`.
Result<StateMachineDefinition> loadStateMachineJson(std::string_view json, const ClipLookup& clips,
                                                    std::string_view source = {});

// Reads the file at `path` (a regular file of at most 64 MiB) and loads it as
// loadStateMachineJson does.
Result<StateMachineDefinition> loadStateMachineFile(const std::string& path, const ClipLookup& clips);

// The JSON text of `desc`: parseStateMachineJson gives back an equal description
// (floats are written as their shortest round-trip decimals).
std::string toJson(const StateMachineDesc& desc);

}  // namespace kinema
