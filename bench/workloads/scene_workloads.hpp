// Scenes for the render workload of `kinema bench` and kinema_bench: what one frame
// of scene work costs on the CPU (advance every binding, resolve world transforms,
// fill the draw list) before anything reaches a GPU. docs/PERFORMANCE.md describes both.
#pragma once

#include <cstddef>
#include <string>

#include "kinema/scene/scene.hpp"

namespace kinema::bench {

struct SceneWorkload {
    Scene scene;
    std::size_t nodes = 0;  // what the figures are per: animated nodes, or characters
    std::string error;      // set (and the scene empty) if setup refused the data: a bug here
};

// `nodes` rigid animated nodes: each an animator turning about its own axis by one
// rotation channel shared by all (61 LINEAR keys over 2 s), started at its own time,
// with a renderable child drawing render object 0. 100 nodes per group, groups as roots.
SceneWorkload rigidNodes(std::size_t nodes);

// `characters` copies of W1's skeleton of `joints` joints as scene nodes, every joint
// driven by W1's clip (translation, rotation and scale bindings, each copy started at
// its own time), one skin over the joints and one skinned renderable per character.
SceneWorkload skinnedCharacters(std::size_t characters, std::size_t joints);

}  // namespace kinema::bench
