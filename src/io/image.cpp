#include "kinema/io/image.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <string>

#include "container.hpp"
#include "kinema/io/gltf.hpp"
#include "resource.hpp"
#include "stb_image_decoder.hpp"

namespace kinema {

namespace {

enum class Format { Png, Jpeg, Unknown };

constexpr std::array<unsigned char, 8> kPngSignature{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

Format sniff(std::span<const std::byte> bytes) {
    if (bytes.size() >= kPngSignature.size() &&
        std::memcmp(bytes.data(), kPngSignature.data(), kPngSignature.size()) == 0) {
        return Format::Png;
    }
    if (bytes.size() >= 3 && bytes[0] == std::byte{0xff} && bytes[1] == std::byte{0xd8} &&
        bytes[2] == std::byte{0xff}) {
        return Format::Jpeg;
    }
    return Format::Unknown;
}

std::uint32_t bigEndian32(std::span<const std::byte> bytes, std::size_t at) {
    return std::uint32_t(bytes[at]) << 24 | std::uint32_t(bytes[at + 1]) << 16 | std::uint32_t(bytes[at + 2]) << 8 |
        std::uint32_t(bytes[at + 3]);
}

struct Size {
    std::uint64_t width = 0;
    std::uint64_t height = 0;
};

// stb_image's header reader refuses PNGs it would not decode (over 2^30 bytes); the
// size is still read from IHDR so that the budget fault can name it.
bool pngHeaderSize(std::span<const std::byte> bytes, Size& size) {
    // signature, IHDR length (13), "IHDR", width, height
    if (bytes.size() < 24 || bigEndian32(bytes, 8) != 13 || std::memcmp(bytes.data() + 12, "IHDR", 4) != 0)
        return false;
    size = {bigEndian32(bytes, 16), bigEndian32(bytes, 20)};
    return size.width != 0 && size.height != 0;
}

// The limits, from the header alone; the empty string when the size is within them.
// `held`: bytes of the limit already spent on the encoded file (named in the fault).
std::string overLimits(Size size, const ImageLimits& limits, std::uint64_t held = 0) {
    // Both factors are below 2^32, so their product fits in 64 bits; times 4 may not.
    const std::uint64_t pixels = size.width * size.height;
    const std::string dims = std::to_string(size.width) + " x " + std::to_string(size.height);
    if (pixels > limits.maxPixels) {
        return "image is " + dims + " = " + std::to_string(pixels) + " pixels, over the limit of " +
            std::to_string(limits.maxPixels) + " pixels";
    }
    const std::uint64_t room = limits.maxBytes - std::min<std::uint64_t>(held, limits.maxBytes);
    if (pixels > room / 4) {
        const std::string bytes =
            pixels > std::numeric_limits<std::uint64_t>::max() / 4 ? "over 2^64" : std::to_string(pixels * 4);
        const std::string file = held > 0 ? " (with the file's " + std::to_string(held) + ")" : "";
        return "image is " + dims + " pixels = " + bytes + " bytes as RGBA8" + file + ", over the limit of " +
            std::to_string(limits.maxBytes) + " bytes";
    }
    return {};
}

}  // namespace

namespace {

// stb's reasons are the decoder's own short codes: the common ones in plain words
// (the code kept after them), others as they are.
std::string plainReason(const char* reason) {
    if (reason == nullptr || *reason == '\0') return "the data is damaged or cut short";
    const std::string code(reason);
    struct Plain {
        const char* code;
        const char* words;
    };
    static constexpr Plain kPlain[] = {
        {"outofdata", "the data ends early (cut short or damaged)"},
        {"unknown image type", "its header is damaged or cut short"},
        {"0-pixel image", "the image is 0 pixels wide or high"},
        {"unknown marker", "the JPEG data is damaged or cut short"},
        {"bad huffman code", "the compressed data is damaged"},
        {"bad IHDR len", "the PNG header is damaged"},
        {"first not IHDR", "the PNG header is missing"},
        {"no IDAT", "the PNG has no image data"},
        {"bad zlib header", "the PNG's compressed data is damaged"},
        {"bad codelengths", "the PNG's compressed data is damaged"},
        {"bad CRC", "the PNG data is damaged (a checksum does not match)"},
    };
    for (const Plain& p : kPlain) {
        if (code == p.code) return std::string(p.words) + " (" + code + ")";
    }
    return code;
}

// `held`: bytes of the caller's budget already spent on the encoded bytes; faults
// give the caller's limit.
Result<ImageRGBA8> decodeBytesWithin(std::span<const std::byte> bytes, const std::string& where,
                                     const ImageLimits& callerLimits, std::size_t held = 0) {
    ImageLimits limits = callerLimits;
    limits.maxBytes -= std::min(held, limits.maxBytes);
    const Format format = sniff(bytes);
    if (format == Format::Unknown)
        return Fault{where, "cannot decode image: unknown format (glTF images are PNG or JPEG)"};
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        return Fault{where, "image is too large to decode"};
    }
    // Every allocation of the decoder, from the header read to the output, is charged
    // to this call's budget.
    stb::AllocationBudget budget{.limit = limits.maxBytes};
    const stb::BudgetScope scope(budget);
    const auto decodeFault = [&] {
        if (budget.refused) {
            return Fault{where,
                         "decoding the image needs more than the limit of " + std::to_string(callerLimits.maxBytes) +
                             " bytes" + (held > 0 ? " (the file's " + std::to_string(held) + " included)" : "")};
        }
        return Fault{where, "cannot decode image: " + plainReason(stb::failureReason())};
    };

    Size size;
    int w = 0, h = 0, channels = 0;
    if (stb::info(bytes, w, h, channels)) {
        size = {static_cast<std::uint64_t>(w), static_cast<std::uint64_t>(h)};
    } else if (format != Format::Png || budget.refused || !pngHeaderSize(bytes, size)) {
        return decodeFault();
    }
    if (auto over = overLimits(size, callerLimits, held); !over.empty()) return Fault{where, std::move(over)};

    unsigned char* decoded = stb::loadRGBA(bytes, w, h);
    if (!decoded) return decodeFault();
    // Released before the scope ends, so the free is charged to this budget.
    std::unique_ptr<unsigned char, void (*)(unsigned char*)> owner(decoded, &stb::freeImage);
    ImageRGBA8 image;
    image.width = static_cast<std::uint32_t>(w);
    image.height = static_cast<std::uint32_t>(h);
    image.pixels.assign(decoded, decoded + std::size_t(image.width) * image.height * 4);
    return image;
}

Result<ImageRGBA8> decodeModelImage(const Model& model, std::size_t index, const ImageLimits& limits,
                                    const std::string& where) {
    if (index >= model.images.size()) return Fault{where, "no such image"};
    const ImageSource& img = model.images[index];
    if (img.buffer >= 0) {
        if (static_cast<std::size_t>(img.buffer) >= model.buffers.size() ||
            !model.buffers[static_cast<std::size_t>(img.buffer)]) {
            return Fault{where, "image buffer is missing"};
        }
        const auto& bytes = *model.buffers[static_cast<std::size_t>(img.buffer)];
        if (img.byteOffset > bytes.size() || img.byteLength > bytes.size() - img.byteOffset) {
            return Fault{where, "image bytes lie outside their buffer"};
        }
        return decodeImageBytes(std::span<const std::byte>(bytes).subspan(img.byteOffset, img.byteLength), where,
                                limits);
    }
    if (gltf::isDataUri(img.uri)) {
        std::string error;
        const auto data = gltf::decodeDataUri(img.uri, error);
        if (!data) return Fault{where, error};
        return decodeImageBytes(data->bytes, where, limits);
    }
    if (!img.path.empty()) {
        // Opened under the rules import checked the URI with: inside img.folder,
        // no symbolic link out, a regular file, no more bytes than the budget.
        std::string error;
        const gltf::OpenFile file = gltf::openLocated({img.folder, img.path, {}}, error);
        if (!file.isOpen()) return Fault{where, error};
        if (file.size() > limits.maxBytes) {
            return Fault{where,
                         "image file " + img.path + " has " + std::to_string(file.size()) +
                             " bytes, over the limit of " + std::to_string(limits.maxBytes) + " bytes"};
        }
        const std::vector<std::byte> bytes = file.readPrefix(file.size(), error);
        if (!error.empty()) return Fault{where, error};
        // The file is named in every fault: the location names only the image.
        if (bytes.empty()) return Fault{where, "image file " + img.path + " is empty"};
        auto decoded = decodeBytesWithin(bytes, where, limits, bytes.size());
        if (decoded) return decoded;
        std::vector<Fault> faults(decoded.faults().begin(), decoded.faults().end());
        for (Fault& f : faults) f.what = "image file " + img.path + ": " + f.what;
        return faults;
    }
    return Fault{where, "image has no data"};
}

}  // namespace

// The budgets bound what the decoder asks for; an allocation that fails anyway is a
// fault too, never an exception out of the library.
Result<ImageRGBA8> decodeImageBytes(std::span<const std::byte> bytes, const std::string& where,
                                    const ImageLimits& limits) {
    try {
        return decodeBytesWithin(bytes, where, limits);
    } catch (const std::bad_alloc&) {
        return Fault{where, "out of memory decoding the image"};
    }
}

Result<ImageRGBA8> decodeImage(const Model& model, std::size_t index, const ImageLimits& limits) {
    const std::string where = model.source + "#/images/" + std::to_string(index);
    try {
        return decodeModelImage(model, index, limits, where);
    } catch (const std::bad_alloc&) {
        return Fault{where, "out of memory decoding the image"};
    }
}

}  // namespace kinema
