// kinema/render: what a renderer must have on the device to draw a sequence of
// render objects, and a cache that works it out again only when its inputs change.
//
// Animation changes transforms, morph weights and palettes every frame, none of
// which is in a catalogue; so a frame that draws the same objects of an unchanged
// catalogue reuses the plan (and whatever the renderer built from it) as it is.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "kinema/core/result.hpp"
#include "kinema/render/catalogue.hpp"
#include "kinema/render/ids.hpp"

namespace kinema {

// The resources reachable from the drawn render objects. Every list but `draws` is
// in id order and names each entry once: two textures sharing an image list both
// textures and the image once; entries nothing drawn reaches are left out.
struct RenderPlan {
    std::vector<RenderObjectId> draws;    // the drawn objects as given: order and repeats kept
    std::vector<RenderObjectId> objects;  // the distinct drawn objects
    std::vector<MeshId> meshes;
    std::vector<MaterialId> materials;
    std::vector<TextureId> textures;  // the drawn materials' base colour textures
    std::vector<ImageId> images;      // those textures' images
};

// The plan for drawing `draws` (in that order) from `catalogue`. The whole catalogue
// is validated first (findRenderFaults); its faults, and every draw id that is
// invalid or out of range ("draws/4"), come back instead of a plan.
Result<RenderPlan> planRender(const RenderCatalogue& catalogue, std::span<const RenderObjectId> draws);

// Remembers the last plan and its key: the catalogue's identity and revision and the
// exact ordered sequence of drawn ids. prepare() with the same key returns the
// remembered result (a plan or the faults) without looking at the catalogue; any
// change of key builds it again through planRender, validation included.
class RenderPreparation {
public:
    // The result for this catalogue and draw sequence; valid until the next call.
    const Result<RenderPlan>& prepare(const RenderCatalogue& catalogue, std::span<const RenderObjectId> draws);

    // How many times prepare() has built a result: 0 before the first call.
    std::uint64_t generation() const noexcept { return generation_; }

private:
    std::uint64_t identity_ = 0;  // no catalogue has identity 0
    std::uint64_t revision_ = 0;
    std::vector<RenderObjectId> draws_;
    std::optional<Result<RenderPlan>> result_;
    std::uint64_t generation_ = 0;
};

}  // namespace kinema
