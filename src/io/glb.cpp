#include <cstdint>
#include <cstring>

#include "container.hpp"

namespace kinema::gltf {

namespace {

constexpr std::uint32_t kMagic = 0x46546C67;      // "glTF"
constexpr std::uint32_t kChunkJson = 0x4E4F534A;  // "JSON"
constexpr std::uint32_t kChunkBin = 0x004E4942;   // "BIN\0"

std::uint32_t readU32(std::span<const std::byte> b, std::size_t at) noexcept {
    std::uint32_t v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}

}  // namespace

bool isGlb(std::span<const std::byte> bytes) noexcept { return bytes.size() >= 4 && readU32(bytes, 0) == kMagic; }

std::optional<GlbChunks> splitGlb(std::span<const std::byte> bytes, GlbError& error) {
    if (bytes.size() < 12) {
        error = {0, "GLB header needs 12 bytes, the file has " + std::to_string(bytes.size())};
        return std::nullopt;
    }
    if (readU32(bytes, 0) != kMagic) {
        error = {0, "not a GLB file (magic is not 'glTF')"};
        return std::nullopt;
    }
    const std::uint32_t version = readU32(bytes, 4);
    if (version != 2) {
        error = {4, "GLB version " + std::to_string(version) + " is not supported (2 expected)"};
        return std::nullopt;
    }
    const std::uint32_t length = readU32(bytes, 8);
    if (length > bytes.size() || length < 12) {
        error = {8,
                 "GLB length " + std::to_string(length) + " does not match the file's " + std::to_string(bytes.size()) +
                     " bytes (truncated?)"};
        return std::nullopt;
    }
    const auto file = bytes.first(length);
    GlbChunks chunks;
    std::size_t at = 12;
    bool first = true;
    while (at < file.size()) {
        if (file.size() - at < 8) {
            error = {at, "chunk header truncated"};
            return std::nullopt;
        }
        const std::uint32_t chunkLength = readU32(file, at);
        const std::uint32_t chunkType = readU32(file, at + 4);
        const std::size_t dataAt = at + 8;
        if (chunkLength > file.size() - dataAt) {
            error = {at,
                     "chunk length " + std::to_string(chunkLength) + " runs past the end of the file (" +
                         std::to_string(file.size() - dataAt) + " bytes left)"};
            return std::nullopt;
        }
        const auto data = file.subspan(dataAt, chunkLength);
        if (first) {
            if (chunkType != kChunkJson) {
                error = {at + 4, "the first chunk must be JSON"};
                return std::nullopt;
            }
            chunks.json = data;
            chunks.jsonOffset = dataAt;
        } else if (chunkType == kChunkBin) {
            if (chunks.hasBin) {
                error = {at + 4, "a second BIN chunk"};
                return std::nullopt;
            }
            chunks.bin = data;
            chunks.hasBin = true;
            chunks.binOffset = dataAt;
        } else if (chunkType == kChunkJson) {
            error = {at + 4, "a second JSON chunk"};
            return std::nullopt;
        }
        // Chunks of unknown type are skipped, as the GLB specification asks.
        first = false;
        // Chunks start on 4-byte boundaries; the padding belongs to the previous chunk.
        const std::size_t next = dataAt + ((std::size_t{chunkLength} + 3) & ~std::size_t{3});
        at = next;
    }
    if (first) {
        error = {12, "GLB has no JSON chunk"};
        return std::nullopt;
    }
    return chunks;
}

}  // namespace kinema::gltf
