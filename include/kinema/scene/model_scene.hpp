// kinema/scene: an imported Model as a scene and a render catalogue.
//
// Every node of the chosen glTF scene becomes a scene node with the file's rest
// transform: an animator when the chosen animation drives it or it holds morph
// weights, a group otherwise. Each primitive of a node's mesh becomes a renderable
// child of that node (identity local transform) drawing one render object; a
// skinned mesh's renderables share one scene skin per glTF skin, so several meshes
// on one skeleton are posed by one palette. Every clip of the model is added as an
// animation; the chosen one is bound.
//
// The render descriptions carry what the model imported: each texture's filters and
// wrap modes (a mipmapped minification filter becomes its base filter), each
// material's alpha mode, cutoff and sidedness, and each primitive's vertex colours.
// Cameras of nodes in the chosen scene are listed with the node that carries them.
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
    // The clip to bind by index into Model::clips; -1: by `animation` (below -1: refused).
    std::int32_t animationIndex = -1;
    bool bindAnimation = true;
    bool loop = true;
};

// A camera of the model on a node of the scene. It looks down the node's -Z axis,
// +Y up, and moves with the node: its view matrix is the inverse of Scene::world(node)
// with the scale taken out (glTF ignores a camera node's scaling).
struct SceneCamera {
    NodeId node;
    Camera camera;                  // the imported parameters (asset/model.hpp)
    std::uint32_t modelCamera = 0;  // index into Model::cameras
};

struct ModelScene {
    Scene scene;
    RenderCatalogue catalogue;
    std::vector<NodeId> nodeOfJoint;   // skeleton joint -> scene node (invalid outside the chosen scene)
    AnimationId boundAnimation;        // invalid when none is bound
    std::vector<SceneCamera> cameras;  // in Model::cameraInstances order, those in the chosen scene
};

// Refused: a scene index or animation name the model does not have, a skin with a
// joint outside the chosen scene. Points, lines and primitives without a whole
// triangle are left out with a warning (the catalogue draws triangle lists); strips
// and fans become lists. Textures whose images were not decoded are left out with a
// warning too (import with ImportOptions::decodeImages).
Result<ModelScene> buildModelScene(const Model& model, const ModelSceneOptions& options = {});

}  // namespace kinema
