// kinema/scene: an imported Model as a scene and a render catalogue.
//
// Every node of the chosen glTF scene becomes a scene node with the file's rest
// transform: an animator when the chosen animation drives it or it holds morph
// weights, a group otherwise. Each primitive of a node's mesh becomes a renderable
// child of that node (identity local transform) drawing one render object; a
// skinned mesh's renderables share one scene skin per glTF skin, so several meshes
// on one skeleton are posed by one palette. Every clip of the model is added as an
// animation; the chosen one is bound.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/core/result.hpp"
#include "kinema/render/catalogue.hpp"
#include "kinema/scene/scene.hpp"

namespace kinema {

struct ModelSceneOptions {
    // The glTF scene to build: -1 for the file's default scene (all nodes when the
    // file names none).
    std::int32_t scene = -1;
    // The clip whose channels are bound, by name; empty: the model's first clip.
    std::string animation;
    bool bindAnimation = true;
    bool loop = true;
};

struct ModelScene {
    Scene scene;
    RenderCatalogue catalogue;
    std::vector<NodeId> nodeOfJoint;  // skeleton joint -> scene node (invalid outside the chosen scene)
    AnimationId boundAnimation;       // invalid when none is bound
};

// Refused: a scene index or animation name the model does not have, a skin with a
// joint outside the chosen scene. Points, lines and primitives without a whole
// triangle are left out with a warning (the catalogue draws triangle lists); strips
// and fans become lists. Textures whose images were not decoded are left out with a
// warning too (import with ImportOptions::decodeImages).
Result<ModelScene> buildModelScene(const Model& model, const ModelSceneOptions& options = {});

}  // namespace kinema
