// Conformance tests: small GLB files built in memory, for rows of the glTF
// specification that the shared sample models do not exercise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "kinema/io/gltf.hpp"

namespace conformance {

inline void putU32(std::vector<std::byte>& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::byte>((v >> (8 * i)) & 0xFFu));
}

// A GLB with one JSON chunk and one BIN chunk (JSON padded with spaces, BIN with zeros).
inline std::shared_ptr<const std::vector<std::byte>> makeGlb(std::string json, std::vector<std::uint8_t> bin) {
    while (json.size() % 4) json.push_back(' ');
    while (bin.size() % 4) bin.push_back(0);
    std::vector<std::byte> out;
    putU32(out, 0x46546C67);  // "glTF"
    putU32(out, 2);
    putU32(out, static_cast<std::uint32_t>(12 + 8 + json.size() + 8 + bin.size()));
    putU32(out, static_cast<std::uint32_t>(json.size()));
    putU32(out, 0x4E4F534A);  // "JSON"
    for (char c : json) out.push_back(static_cast<std::byte>(c));
    putU32(out, static_cast<std::uint32_t>(bin.size()));
    putU32(out, 0x004E4942);  // "BIN\0"
    for (std::uint8_t b : bin) out.push_back(static_cast<std::byte>(b));
    return std::make_shared<const std::vector<std::byte>>(std::move(out));
}

// Appends typed arrays to a BIN chunk, each starting on a 4-byte boundary, and
// remembers one bufferView per array.
struct BinWriter {
    std::vector<std::uint8_t> bytes;
    std::string views;  // JSON array body
    int viewCount = 0;

    // `byteStride` 0 leaves it out of the view (tightly packed data).
    template <class T>
    int add(const std::vector<T>& values, std::size_t byteStride = 0) {
        while (bytes.size() % 4) bytes.push_back(0);
        const std::size_t at = bytes.size();
        bytes.resize(at + values.size() * sizeof(T));
        std::memcpy(bytes.data() + at, values.data(), values.size() * sizeof(T));
        if (viewCount) views += ",";
        views += R"({"buffer":0,"byteOffset":)" + std::to_string(at) + R"(,"byteLength":)" +
            std::to_string(values.size() * sizeof(T));
        if (byteStride) views += R"(,"byteStride":)" + std::to_string(byteStride);
        views += "}";
        return viewCount++;
    }
    std::size_t paddedSize() const { return (bytes.size() + 3) / 4 * 4; }
    // "buffers" and "bufferViews" members for the document.
    std::string json() const {
        return R"("buffers":[{"byteLength":)" + std::to_string(paddedSize()) + R"(}],"bufferViews":[)" + views + "]";
    }
};

// One accessor's JSON object; `extra` is appended inside it (min/max, sparse...).
inline std::string accessor(int view, int componentType, int count, const char* type, bool normalized = false,
                            const std::string& extra = "") {
    std::string s = R"({"bufferView":)" + std::to_string(view) + R"(,"componentType":)" +
        std::to_string(componentType) + R"(,"count":)" + std::to_string(count) + R"(,"type":")" + type + "\"";
    if (normalized) s += R"(,"normalized":true)";
    if (!extra.empty()) s += "," + extra;
    return s + "}";
}

inline kinema::Result<kinema::Model> importSynthetic(const std::string& json, std::vector<std::uint8_t> bin,
                                                     kinema::Conformance conformance = kinema::Conformance::Strict) {
    kinema::GltfSource src;
    src.bytes = makeGlb(json, std::move(bin));
    src.name = "synthetic.glb";
    kinema::ImportOptions options;
    options.allowExternalFiles = false;
    options.conformance = conformance;
    return kinema::importGltf(src, options);
}

}  // namespace conformance
