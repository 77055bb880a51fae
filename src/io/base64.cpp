#include <array>
#include <cstdint>

#include "container.hpp"

namespace kinema::gltf {

namespace {

constexpr std::array<std::int8_t, 256> makeTable() {
    std::array<std::int8_t, 256> t{};
    for (auto& v : t) v = -1;
    const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 64; ++i) t[static_cast<unsigned char>(alphabet[i])] = static_cast<std::int8_t>(i);
    return t;
}
constexpr auto kTable = makeTable();

}  // namespace

std::optional<std::vector<std::byte>> decodeBase64(std::string_view text) {
    while (!text.empty() && text.back() == '=') text.remove_suffix(1);
    std::vector<std::byte> out;
    out.reserve(text.size() / 4 * 3 + 3);
    std::uint32_t acc = 0;
    int bits = 0;
    for (const char c : text) {
        const int v = kTable[static_cast<unsigned char>(c)];
        if (v < 0) return std::nullopt;
        acc = (acc << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<std::byte>((acc >> bits) & 0xFF));
        }
    }
    if (bits >= 6) return std::nullopt;  // a lone trailing character carries no whole byte
    return out;
}

bool isDataUri(std::string_view uri) noexcept { return uri.substr(0, 5) == "data:"; }

std::optional<DataUri> decodeDataUri(std::string_view uri, std::string& error) {
    const std::size_t comma = uri.find(',');
    if (!isDataUri(uri) || comma == std::string_view::npos) {
        error = "malformed data URI (no ',' after the media type)";
        return std::nullopt;
    }
    std::string_view header = uri.substr(5, comma - 5);
    const std::string_view payload = uri.substr(comma + 1);
    DataUri result;
    constexpr std::string_view kBase64 = ";base64";
    const bool base64 = header.size() >= kBase64.size() && header.substr(header.size() - kBase64.size()) == kBase64;
    if (base64) header.remove_suffix(kBase64.size());
    result.mimeType = std::string(header.substr(0, header.find(';')));
    if (base64) {
        auto bytes = decodeBase64(payload);
        if (!bytes) {
            error = "data URI payload is not valid base64";
            return std::nullopt;
        }
        result.bytes = std::move(*bytes);
    } else {
        for (std::size_t i = 0; i < payload.size(); ++i) {
            if (payload[i] == '%' && i + 2 < payload.size() && hexDigit(payload[i + 1]) >= 0 &&
                hexDigit(payload[i + 2]) >= 0) {
                result.bytes.push_back(
                    static_cast<std::byte>(hexDigit(payload[i + 1]) * 16 + hexDigit(payload[i + 2])));
                i += 2;
            } else {
                result.bytes.push_back(static_cast<std::byte>(payload[i]));
            }
        }
    }
    return result;
}

}  // namespace kinema::gltf
