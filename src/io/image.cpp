#include "kinema/io/image.hpp"

#include <stb/stb_image.h>

#include <cstring>
#include <limits>
#include <memory>

#include "container.hpp"
#include "kinema/io/gltf.hpp"

namespace kinema {

namespace {

Result<ImageRGBA8> decodeBytes(std::span<const std::byte> bytes, const std::string& where) {
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        return Fault{where, "image is too large to decode"};
    }
    int w = 0, h = 0, channels = 0;
    stbi_uc* pixels = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()),
                                            static_cast<int>(bytes.size()), &w, &h, &channels, 4);
    if (!pixels) return Fault{where, std::string("cannot decode image: ") + stbi_failure_reason()};
    std::unique_ptr<stbi_uc, void (*)(void*)> owner(pixels, &stbi_image_free);
    ImageRGBA8 image;
    image.width = static_cast<std::uint32_t>(w);
    image.height = static_cast<std::uint32_t>(h);
    image.pixels.assign(pixels, pixels + std::size_t(w) * std::size_t(h) * 4);
    return image;
}

}  // namespace

Result<ImageRGBA8> decodeImage(const Model& model, std::size_t index) {
    const std::string where = model.source + "#/images/" + std::to_string(index);
    if (index >= model.images.size()) return Fault{where, "no such image"};
    const ImageSource& img = model.images[index];
    if (img.buffer >= 0) {
        if (static_cast<std::size_t>(img.buffer) >= model.buffers.size() || !model.buffers[static_cast<std::size_t>(img.buffer)]) {
            return Fault{where, "image buffer is missing"};
        }
        const auto& bytes = *model.buffers[static_cast<std::size_t>(img.buffer)];
        if (img.byteOffset > bytes.size() || img.byteLength > bytes.size() - img.byteOffset) {
            return Fault{where, "image bytes lie outside their buffer"};
        }
        return decodeBytes(std::span<const std::byte>(bytes).subspan(img.byteOffset, img.byteLength), where);
    }
    if (gltf::isDataUri(img.uri)) {
        std::string error;
        const auto data = gltf::decodeDataUri(img.uri, error);
        if (!data) return Fault{where, error};
        return decodeBytes(data->bytes, where);
    }
    if (!img.path.empty()) {
        auto bytes = readFileBytes(img.path);
        if (!bytes) return Fault{where, "cannot read " + img.path};
        return decodeBytes(**bytes, where);
    }
    return Fault{where, "image has no data"};
}

}  // namespace kinema
