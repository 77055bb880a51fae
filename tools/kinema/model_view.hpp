// What `kinema render` and `kinema view` share: a glTF file loaded as a scene with a
// chosen animation, the rig to draw as a skeleton, and the bounds the camera frames.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "import_flags.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/scene/model_scene.hpp"

namespace kinema::cli {

// The file imported with its images decoded (the renderer draws its textures); warnings
// and the fault go to stderr after "kinema <command>: ". Nullopt when it failed.
std::optional<Model> importForDrawing(const std::string& file, const ImportFlags& flags, const char* command);

// The model's scene with the animation `spec` names bound (looping), or the fault
// (chooseAnimation): "none" (or "0" on a file without animations) binds none, the rest
// pose; no spec binds the first animation, if the file has any.
Result<ModelScene> modelSceneFor(const Model& model, const std::optional<std::string>& spec);

// The rig a skeleton overlay draws: the joints of every skin, or every node that is
// not a renderable when there are no skins. Sorted, each once.
std::vector<NodeId> rigJoints(const Scene& scene);

// Bounds of what the scene shows (posed vertices, and the rig's joints) over its
// bound animation: 33 times spread over the clip and `moreTimes`, from a copy of the
// scene started at time 0. False when nothing is drawn and the rig is empty.
bool animatedBounds(const ModelScene& built, std::span<const NodeId> rig, std::span<const double> moreTimes, Vec3& lo,
                    Vec3& hi);

// The bound animation's duration in seconds (0 without one).
double boundDuration(const ModelScene& built);

// `text` with its line breaks as "; ": several faults on the one line of a message.
std::string oneLine(std::string text);

}  // namespace kinema::cli
