#include "kinema/render/catalogue.hpp"

#include <atomic>
#include <cassert>
#include <utility>

namespace kinema {
namespace {

// The one piece of process-wide mutable state in kinema. A catalogue's address is
// not an identity: once a catalogue is destroyed, another can be constructed at the
// same address, and a cache keyed on the address (and a revision that restarts)
// would take the newcomer for the catalogue it compiled. A counter never repeats a
// value, so a key holding an identity can only ever match the object that had it.
// Relaxed order suffices: only uniqueness is needed, and fetch_add gives it.
std::uint64_t nextIdentity() noexcept {
    static std::atomic<std::uint64_t> counter{1};  // 0 is never issued: "no catalogue"
    return counter.fetch_add(1, std::memory_order_relaxed);
}

// Appends and returns the new entry's id, or returns an invalid id when every valid
// id of the collection has been issued (the last value is the invalid marker).
template <class Id, class T>
Id append(std::vector<T>& entries, T entry, std::uint64_t& revision) {
    if (entries.size() >= Id::kInvalid) return Id{};
    entries.push_back(std::move(entry));
    ++revision;
    return Id{static_cast<std::uint32_t>(entries.size() - 1)};
}

}  // namespace

RenderCatalogue::RenderCatalogue() : identity_(nextIdentity()) {}

RenderCatalogue::RenderCatalogue(const RenderCatalogue& other)
    : identity_(nextIdentity()),
      revision_(other.revision_),
      images_(other.images_),
      textures_(other.textures_),
      materials_(other.materials_),
      meshes_(other.meshes_),
      renderObjects_(other.renderObjects_) {}

RenderCatalogue::RenderCatalogue(RenderCatalogue&& other) noexcept
    : identity_(nextIdentity()),
      revision_(other.revision_),
      images_(std::move(other.images_)),
      textures_(std::move(other.textures_)),
      materials_(std::move(other.materials_)),
      meshes_(std::move(other.meshes_)),
      renderObjects_(std::move(other.renderObjects_)) {
    other.clearAfterMove();
}

RenderCatalogue& RenderCatalogue::operator=(const RenderCatalogue& other) {
    if (this == &other) return *this;
    // Copy everything first, so a failed allocation leaves this catalogue as it was.
    std::vector<ImageRGBA8> images = other.images_;
    std::vector<TextureDesc> textures = other.textures_;
    std::vector<MaterialDesc> materials = other.materials_;
    std::vector<RenderMesh> meshes = other.meshes_;
    std::vector<RenderObjectDesc> renderObjects = other.renderObjects_;
    images_ = std::move(images);
    textures_ = std::move(textures);
    materials_ = std::move(materials);
    meshes_ = std::move(meshes);
    renderObjects_ = std::move(renderObjects);
    ++revision_;
    return *this;
}

RenderCatalogue& RenderCatalogue::operator=(RenderCatalogue&& other) noexcept {
    if (this == &other) return *this;
    images_ = std::move(other.images_);
    textures_ = std::move(other.textures_);
    materials_ = std::move(other.materials_);
    meshes_ = std::move(other.meshes_);
    renderObjects_ = std::move(other.renderObjects_);
    ++revision_;
    other.clearAfterMove();
    return *this;
}

// A moved-from vector is only "valid but unspecified"; empty it for certain, and
// advance the revision so a cache keyed on this object sees that it changed.
void RenderCatalogue::clearAfterMove() noexcept {
    images_.clear();
    textures_.clear();
    materials_.clear();
    meshes_.clear();
    renderObjects_.clear();
    ++revision_;
}

ImageId RenderCatalogue::addImage(ImageRGBA8 image) { return append<ImageId>(images_, std::move(image), revision_); }
TextureId RenderCatalogue::addTexture(TextureDesc texture) {
    return append<TextureId>(textures_, std::move(texture), revision_);
}
MaterialId RenderCatalogue::addMaterial(MaterialDesc material) {
    return append<MaterialId>(materials_, std::move(material), revision_);
}
MeshId RenderCatalogue::addMesh(RenderMesh mesh) { return append<MeshId>(meshes_, std::move(mesh), revision_); }
RenderObjectId RenderCatalogue::addRenderObject(RenderObjectDesc object) {
    return append<RenderObjectId>(renderObjects_, std::move(object), revision_);
}

const ImageRGBA8& RenderCatalogue::at(ImageId id) const noexcept {
    assert(contains(id));
    return images_[id.value];
}
const TextureDesc& RenderCatalogue::at(TextureId id) const noexcept {
    assert(contains(id));
    return textures_[id.value];
}
const MaterialDesc& RenderCatalogue::at(MaterialId id) const noexcept {
    assert(contains(id));
    return materials_[id.value];
}
const RenderMesh& RenderCatalogue::at(MeshId id) const noexcept {
    assert(contains(id));
    return meshes_[id.value];
}
const RenderObjectDesc& RenderCatalogue::at(RenderObjectId id) const noexcept {
    assert(contains(id));
    return renderObjects_[id.value];
}

}  // namespace kinema
