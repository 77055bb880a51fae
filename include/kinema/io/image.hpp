// kinema/io: on-demand image decoding (PNG and JPEG, the formats of core glTF) to RGBA8,
// within limits, because image bytes come from files people download.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/core/result.hpp"

namespace kinema {

// ImageRGBA8 (kinema/asset/model.hpp) is what decoding produces.

// What one decode may cost. A small file can declare a huge image, or carry compressed
// data that inflates far beyond the declared size; both are refused, not allocated.
struct ImageLimits {
    // width * height, checked from the header before any decoding.
    std::uint64_t maxPixels = std::uint64_t{64} << 20;
    // Every byte the decoder holds at once, its output buffer included; width * height * 4
    // is checked against it from the header first. The returned pixels are a copy of that
    // output, made after the decoder's working buffers are released.
    std::size_t maxBytes = std::size_t{1} << 30;
};

// Decodes PNG or JPEG bytes to RGBA8. `where` locates faults (e.g. "file.glb#/images/2").
// Faults: unknown format, corrupt or cut-short data (the decoder's reason in plain
// words, its own code after them: "the data ends early (cut short or damaged)
// (outofdata)"), width * height over limits.maxPixels, width * height * 4 over
// limits.maxBytes, or the decoder needing more than limits.maxBytes.
Result<ImageRGBA8> decodeImageBytes(std::span<const std::byte> bytes, const std::string& where,
                                    const ImageLimits& limits = {});

// Decodes model.images[index] from its embedded bytes, data: URI or external file.
// Faults are located at the image ("model.gltf#/images/2"); those of an external
// file name it ("image file textures/skin.png: ..."), and its bytes count toward
// limits.maxBytes with the decoder's.
Result<ImageRGBA8> decodeImage(const Model& model, std::size_t index, const ImageLimits& limits = {});

}  // namespace kinema
