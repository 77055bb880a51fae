// Images (located now, decoded last or on demand), textures and materials.
#include "gltf_importer.hpp"

#include <string>

#include "container.hpp"
#include "kinema/io/image.hpp"

namespace kinema::gltf_import {

// An image file is checked now, under the same rules as buffers, and read only
// when decoded. A resolver cannot be called later (the Model keeps no callback),
// so with one the bytes are fetched now and kept as a model buffer.
void Importer::locateImage(std::size_t index, std::string_view uri, const Pointer& at, ImageSource& img) {
    if (opt_.resolver) {
        ResourceBytes bytes = fetchResource(uri, budgetLeft(), at, at);
        if (!bytes) return;
        if (!charge(bytes->size(), at, "image " + std::to_string(index))) return;
        img.buffer = static_cast<std::int32_t>(model_.buffers.size());
        img.byteOffset = 0;
        img.byteLength = bytes->size();
        model_.buffers.push_back(std::move(bytes));
        return;
    }
    bool ok = false;
    const gltf::UriPath path = checkedUri(uri, at, ok);
    if (!ok) return;
    std::string error;
    gltf::ResourceLocation location = locate(path, error);
    if (!error.empty()) {
        fault(at, error);
        return;
    }
    img.folder = std::move(location.folder);
    img.path = std::move(location.path);
}

void Importer::readImagesTexturesMaterials() {
    model_.images.resize(table("images", sizeof(ImageSource)));
    forEachObject("images", [&](std::size_t i, const dom::object& o, const Pointer& at) {
        ImageSource& img = model_.images[i];
        readName(o, at, img.name);
        std::string_view mimeType;
        if (getString(o, "mimeType", at, mimeType, false)) img.mimeType = mimeType;
        std::string_view uri;
        const bool hasUri = getString(o, "uri", at, uri, false);
        const std::int32_t view = getIndex(o, "bufferView", at, views_.size(), "bufferView", false);
        if (hasUri == (member(o, "bufferView").has_value())) {
            fault(at, "an image has exactly one of uri and bufferView");
            return;
        }
        if (hasUri) {
            img.uri = uri;
            if (!gltf::isDataUri(uri)) locateImage(i, uri, at / "uri", img);
        } else if (view >= 0 && views_[static_cast<std::size_t>(view)].ok) {
            const View& v = views_[static_cast<std::size_t>(view)];
            const Buffer& b = buffers_[v.buffer];
            img.buffer = b.modelBuffer;
            img.byteOffset = static_cast<std::size_t>(v.bytes.data() - b.owner->data());
            img.byteLength = v.bytes.size();
            if (img.mimeType.empty()) fault(at / "mimeType", "required when the image is in a bufferView");
        }
    });
    model_.textures.resize(table("textures", sizeof(Texture)));
    forEachObject("textures", [&](std::size_t i, const dom::object& o, const Pointer& at) {
        model_.textures[i].image = getIndex(o, "source", at, model_.images.size(), "image", false);
    });
    model_.materials.resize(table("materials", sizeof(Material)));
    forEachObject("materials", [&](std::size_t i, const dom::object& o, const Pointer& at) {
        Material& m = model_.materials[i];
        readName(o, at, m.name);
        dom::object pbr;
        if (!getObject(o, "pbrMetallicRoughness", at, pbr, false)) return;
        const Pointer pat = at / "pbrMetallicRoughness";
        getFloats(pbr, "baseColorFactor", pat, m.baseColorFactor.data(), 4);
        dom::object tex;
        if (getObject(pbr, "baseColorTexture", pat, tex, false)) {
            const Pointer tat = pat / "baseColorTexture";
            const std::int32_t t = getIndex(tex, "index", tat, model_.textures.size(), "texture", true);
            std::uint64_t texCoord = 0;
            getUint(tex, "texCoord", tat, texCoord, false);
            if (t >= 0)
                m.baseColorTexture = TextureRef{static_cast<std::uint32_t>(t),
                                                static_cast<std::uint32_t>(std::min<std::uint64_t>(texCoord, 0xFFFF))};
        }
    });
}

// Last, when everything else is valid: decoding costs far more than checking.
// Each image gets what is left of the memory budget.
void Importer::decodeImages() {
    model_.decodedImages.reserve(model_.images.size());
    for (std::size_t i = 0; i < model_.images.size(); ++i) {
        auto image = decodeImage(model_, i, ImageLimits{opt_.maxImagePixels, budgetLeft()});
        if (!image) {
            for (const Fault& f : image.faults()) faults_.push_back(f);
            continue;
        }
        if (!charge(image->pixels.size(), Pointer{} / "images" / i, "image " + std::to_string(i))) continue;
        model_.decodedImages.push_back(std::move(*image));
    }
}

}  // namespace kinema::gltf_import
