#include "kinema/render/preparation.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "kinema/core/counted.hpp"
#include "kinema/render/validation.hpp"

namespace kinema {
namespace {

// Sorted and each once: the id order a renderer creates resources in, whatever
// order the objects are drawn in.
template <class Id>
void sortUnique(std::vector<Id>& ids) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
}

}  // namespace

Result<RenderPlan> planRender(const RenderCatalogue& catalogue, std::span<const RenderObjectId> draws) {
    std::vector<Fault> faults = findRenderFaults(catalogue);
    const std::size_t objectCount = catalogue.renderObjects().size();
    for (std::size_t i = 0; i < draws.size(); ++i) {
        const RenderObjectId id = draws[i];
        if (!id.valid()) {
            faults.push_back({"draws/" + std::to_string(i), "not a render object id (invalid)"});
        } else if (!catalogue.contains(id)) {
            faults.push_back({"draws/" + std::to_string(i),
                              "render object " + std::to_string(id.value) + " is out of range: the catalogue has " +
                                  counted(objectCount, "render object")});
        }
    }
    if (!faults.empty()) return faults;

    // The catalogue passed validation, so every reference followed below is in range.
    RenderPlan plan;
    plan.draws.assign(draws.begin(), draws.end());
    plan.objects = plan.draws;
    sortUnique(plan.objects);
    for (const RenderObjectId object : plan.objects) {
        const RenderObjectDesc& desc = catalogue.at(object);
        plan.meshes.push_back(desc.mesh);
        plan.materials.push_back(desc.material);
    }
    sortUnique(plan.meshes);
    sortUnique(plan.materials);
    for (const MaterialId material : plan.materials) {
        if (const auto& texture = catalogue.at(material).baseColorTexture) plan.textures.push_back(*texture);
    }
    sortUnique(plan.textures);
    for (const TextureId texture : plan.textures) plan.images.push_back(catalogue.at(texture).image);
    sortUnique(plan.images);
    return plan;
}

const Result<RenderPlan>& RenderPreparation::prepare(const RenderCatalogue& catalogue,
                                                     std::span<const RenderObjectId> draws) {
    // The exact sequence is compared, not a hash of it: a collision would hand back
    // the plan of other objects, and comparing costs no more than hashing would.
    const bool same = result_ && identity_ == catalogue.identity() && revision_ == catalogue.revision() &&
        std::equal(draws.begin(), draws.end(), draws_.begin(), draws_.end());
    if (same) return *result_;
    // Dropped first: if building runs out of memory, no stale result survives to be
    // matched against a half-updated key.
    result_.reset();
    identity_ = catalogue.identity();
    revision_ = catalogue.revision();
    draws_.assign(draws.begin(), draws.end());
    result_.emplace(planRender(catalogue, draws));
    ++generation_;
    return *result_;
}

}  // namespace kinema
