// kinema/io: on-demand image decoding (PNG, JPEG and what stb_image reads) to RGBA8.
#pragma once

#include <cstdint>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/core/result.hpp"

namespace kinema {

struct ImageRGBA8 {
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    std::vector<std::uint8_t> pixels;  // width * height * 4, rows top to bottom
};

// Decodes model.images[index] from its embedded bytes, data: URI or external file.
Result<ImageRGBA8> decodeImage(const Model& model, std::size_t index);

}  // namespace kinema
