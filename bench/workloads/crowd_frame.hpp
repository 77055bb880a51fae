// The GPU side of the render workload: one frame of a crowd of skinned characters,
// ready for a renderer. Built once; the timed part is the GPU's.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kinema/asset/model.hpp"
#include "kinema/core/result.hpp"
#include "kinema/render/camera.hpp"
#include "kinema/scene/model_scene.hpp"

namespace kinema::bench {

struct CrowdFrame {
    ModelScene built;  // the model's scene and catalogue
    DrawList draws;    // `count` copies of every draw, each with its own palette slice
    CameraMatrices camera;
    std::size_t vertices = 0;  // drawn per frame
};

// `count` copies of `model` on a square grid, each posed at its own time of the
// model's first clip (one of 16 distinct poses), every skinned copy with its own
// palette (the pose moved to its grid cell), seen from above the front edge for an
// image of `aspect`.
Result<CrowdFrame> crowdFrame(const Model& model, std::size_t count, float aspect);

}  // namespace kinema::bench
