// kinema/render: the RenderCatalogue owns every render description of a scene
// (images, textures, materials, meshes, render objects) in dense vectors and hands
// out typed ids into them.
//
// A renderer caches what it compiled from a catalogue under the key
// {identity(), revision()}: identity() tells catalogue objects apart for the whole
// process, revision() advances on every change of one. Ids are meaningful only with
// the catalogue that issued them; nothing records which one that was.
//
// Entries are only appended, never removed, so an id stays valid for as long as its
// catalogue holds contents. Adding checks nothing: findRenderFaults
// (render/validation.hpp) checks the whole catalogue before it is drawn.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/render/descriptions.hpp"
#include "kinema/render/ids.hpp"

namespace kinema {

class RenderCatalogue {
public:
    // Empty, revision 0, with an identity no other catalogue object has had.
    RenderCatalogue();
    // A copy is another object: the same contents and revision under a new identity.
    RenderCatalogue(const RenderCatalogue& other);
    // The destination takes the contents and revision under a new identity; the
    // source is left empty and its revision advances, because its contents changed.
    RenderCatalogue(RenderCatalogue&& other) noexcept;
    // The destination keeps its identity and its revision advances; assigning a
    // catalogue to itself changes nothing.
    RenderCatalogue& operator=(const RenderCatalogue& other);
    // As copy assignment, and the source is left empty with its revision advanced.
    RenderCatalogue& operator=(RenderCatalogue&& other) noexcept;
    ~RenderCatalogue() = default;

    // Each appends one entry, advances revision() and returns the entry's id. A
    // collection already holding 2^32 - 1 entries (every valid id issued) takes
    // nothing more: the id returned is invalid and nothing changes.
    ImageId addImage(ImageRGBA8 image);
    TextureId addTexture(TextureDesc texture);
    MaterialId addMaterial(MaterialDesc material);
    MeshId addMesh(RenderMesh mesh);
    RenderObjectId addRenderObject(RenderObjectDesc object);

    // Every entry, in id order: entry i has the id whose value is i.
    std::span<const ImageRGBA8> images() const noexcept { return images_; }
    std::span<const TextureDesc> textures() const noexcept { return textures_; }
    std::span<const MaterialDesc> materials() const noexcept { return materials_; }
    std::span<const RenderMesh> meshes() const noexcept { return meshes_; }
    std::span<const RenderObjectDesc> renderObjects() const noexcept { return renderObjects_; }

    // Whether the id names an entry of this catalogue (valid and in range).
    bool contains(ImageId id) const noexcept { return id.value < images_.size(); }
    bool contains(TextureId id) const noexcept { return id.value < textures_.size(); }
    bool contains(MaterialId id) const noexcept { return id.value < materials_.size(); }
    bool contains(MeshId id) const noexcept { return id.value < meshes_.size(); }
    bool contains(RenderObjectId id) const noexcept { return id.value < renderObjects_.size(); }

    // The entry, or nullptr when contains(id) is false.
    const ImageRGBA8* find(ImageId id) const noexcept { return contains(id) ? &images_[id.value] : nullptr; }
    const TextureDesc* find(TextureId id) const noexcept { return contains(id) ? &textures_[id.value] : nullptr; }
    const MaterialDesc* find(MaterialId id) const noexcept { return contains(id) ? &materials_[id.value] : nullptr; }
    const RenderMesh* find(MeshId id) const noexcept { return contains(id) ? &meshes_[id.value] : nullptr; }
    const RenderObjectDesc* find(RenderObjectId id) const noexcept {
        return contains(id) ? &renderObjects_[id.value] : nullptr;
    }

    // The entry. Precondition: contains(id) (checked by assert); find() is the
    // form for ids that have not been checked.
    const ImageRGBA8& at(ImageId id) const noexcept;
    const TextureDesc& at(TextureId id) const noexcept;
    const MaterialDesc& at(MaterialId id) const noexcept;
    const RenderMesh& at(MeshId id) const noexcept;
    const RenderObjectDesc& at(RenderObjectId id) const noexcept;

    // Advances by one on every change of this object's contents (every add, every
    // assignment to it, and being moved from). Meaningful only together with identity().
    std::uint64_t revision() const noexcept { return revision_; }
    // Unique to this catalogue object among all catalogue objects of the process,
    // including those already destroyed; never 0.
    std::uint64_t identity() const noexcept { return identity_; }

private:
    void clearAfterMove() noexcept;

    std::uint64_t identity_;
    std::uint64_t revision_ = 0;
    std::vector<ImageRGBA8> images_;
    std::vector<TextureDesc> textures_;
    std::vector<MaterialDesc> materials_;
    std::vector<RenderMesh> meshes_;
    std::vector<RenderObjectDesc> renderObjects_;
};

}  // namespace kinema
