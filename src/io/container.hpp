// Internal to kinema/io: the GLB container, base64 data URIs and file reading.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kinema::gltf {

struct GlbChunks {
    std::span<const std::byte> json;
    std::span<const std::byte> bin;  // empty when the file has no BIN chunk
    bool hasBin = false;
    std::size_t jsonOffset = 0;  // byte offset of the JSON chunk data in the file
    std::size_t binOffset = 0;
};

bool isGlb(std::span<const std::byte> bytes) noexcept;

struct GlbError {
    std::size_t byteOffset = 0;  // where in the file the problem is
    std::string what;
};

// Splits a GLB file. On failure returns nullopt and says what is wrong, and where.
std::optional<GlbChunks> splitGlb(std::span<const std::byte> bytes, GlbError& error);

// The value of a hexadecimal digit (either case), or -1: percent-escapes in URIs.
inline int hexDigit(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Decodes standard base64 (RFC 4648, '=' padding optional). nullopt on a bad character.
std::optional<std::vector<std::byte>> decodeBase64(std::string_view text);

// A "data:[<mime>][;base64],<payload>" URI: the mime type and decoded bytes.
struct DataUri {
    std::string mimeType;
    std::vector<std::byte> bytes;
};
bool isDataUri(std::string_view uri) noexcept;
std::optional<DataUri> decodeDataUri(std::string_view uri, std::string& error);

}  // namespace kinema::gltf
