#include "kinema/io/image_write.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

#include <gif_lib.h>

#include "gif_palette.hpp"

// stb_image_write's implementation, compiled here from the system header (libstb-dev):
// internal linkage, so a program that links its own copy sees no clash, and no stdio,
// since the bytes come back in memory. Of its globals only the defaults are read.
#define STB_IMAGE_WRITE_STATIC
#define STBI_WRITE_NO_STDIO
#define STB_IMAGE_WRITE_IMPLEMENTATION
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

namespace kinema {
namespace {

std::string sizeText(const ImageRGBA8& image) {
    return std::to_string(image.width) + "x" + std::to_string(image.height);
}

// The empty string when the pixel buffer is width * height * 4 bytes.
std::string pixelBytesFault(const ImageRGBA8& image) {
    // Both factors are below 2^32, so their product fits in 64 bits; times 4 may not.
    const std::uint64_t pixels = std::uint64_t{image.width} * image.height;
    const bool fits = pixels <= SIZE_MAX / 4;
    if (fits && image.pixels.size() == pixels * 4) return {};
    return "pixels hold " + std::to_string(image.pixels.size()) + " bytes, not " + std::to_string(image.width) + " x " +
        std::to_string(image.height) + " x 4" + (fits ? " = " + std::to_string(pixels * 4) : std::string());
}

// stb_image_write holds the filtered scanlines, and the zlib stream that doubles its
// buffer as it grows, in int-sized buffers; 2^29 bytes of scanlines keep both well
// inside them.
constexpr std::uint64_t kMaxPngScanlineBytes = std::uint64_t{1} << 29;

struct ByteSink {
    std::vector<std::byte> bytes;
    bool failed = false;  // out of memory: the callers' C code cannot take an exception
};

bool append(ByteSink& sink, const void* data, int size) noexcept {
    if (sink.failed || size < 0) return false;
    try {
        const auto* first = static_cast<const std::byte*>(data);
        sink.bytes.insert(sink.bytes.end(), first, first + size);
        return true;
    } catch (const std::bad_alloc&) {
        sink.failed = true;
        return false;
    }
}

void appendPng(void* context, void* data, int size) { append(*static_cast<ByteSink*>(context), data, size); }

int appendGif(GifFileType* gif, const GifByteType* data, int size) {
    return append(*static_cast<ByteSink*>(gif->UserData), data, size) ? size : 0;
}

// --- GIF

constexpr std::uint32_t kMaxGifSide = 65535;

void checkFrames(std::span<const ImageRGBA8> frames, std::vector<Fault>& faults) {
    if (frames.empty()) {
        faults.push_back({"frames", "no frames; a GIF needs at least one"});
        return;
    }
    const ImageRGBA8& first = frames[0];
    // A frame 0 of no size or too large already has its fault; others are not compared with it.
    const bool firstSizeValid =
        first.width != 0 && first.height != 0 && first.width <= kMaxGifSide && first.height <= kMaxGifSide;
    for (std::size_t i = 0; i < frames.size(); ++i) {
        const ImageRGBA8& frame = frames[i];
        std::string what;
        if (frame.width == 0 || frame.height == 0) {
            what = "size " + sizeText(frame) + " has no pixels";
        } else if (frame.width > kMaxGifSide || frame.height > kMaxGifSide) {
            what = "size " + sizeText(frame) + " is over 65535 pixels on a side, the GIF limit";
        } else if (i > 0 && firstSizeValid && (frame.width != first.width || frame.height != first.height)) {
            what = "size " + sizeText(frame) + " differs from frame 0's " + sizeText(first);
        } else {
            what = pixelBytesFault(frame);
        }
        if (!what.empty()) faults.push_back({"frames/" + std::to_string(i), std::move(what)});
    }
}

// 100 / fps above this could give one frame a delay over 65535 cs, the format's limit.
constexpr double kMaxCentisecondsPerFrame = 65534.0;

void checkOptions(const GifOptions& options, std::vector<Fault>& faults) {
    const double fps = options.fps;
    if (!std::isfinite(fps) || fps <= 0) {
        faults.push_back({"options/fps", exactNumber(fps) + " is not a frame rate; it must be finite and above 0"});
    } else if (100.0 / fps > kMaxCentisecondsPerFrame) {
        faults.push_back(
            {"options/fps", exactNumber(fps) + " frames per second is too slow: a GIF frame lasts at most 655.35 s"});
    }
}

// Frame i starts at round(i * 100 / fps) cs, so the rounding never accumulates: the
// whole lasts round(N * 100 / fps) cs, within half a centisecond of N / fps seconds.
int delayCentiseconds(std::size_t frame, double fps) {
    const auto start = [fps](std::size_t i) { return std::llround(static_cast<double>(i) * 100.0 / fps); };
    return static_cast<int>(start(frame + 1) - start(frame));
}

// Owns an encoder until it is closed; closing writes the trailer and frees it.
struct GifCloser {
    void operator()(GifFileType* gif) const noexcept { EGifCloseFile(gif, nullptr); }
};
using GifWriter = std::unique_ptr<GifFileType, GifCloser>;

Fault gifFault(int error) {
    const char* text = GifErrorString(error);
    return {"frames", std::string("the GIF encoder failed: ") + (text ? text : "unknown error")};
}

Fault outOfMemory() { return {"frames", "out of memory encoding the GIF"}; }

Result<std::vector<std::byte>> writeGif(std::span<const ImageRGBA8> frames, const GifOptions& options) {
    const int width = static_cast<int>(frames[0].width);
    const int height = static_cast<int>(frames[0].height);

    bool transparent = false;
    for (std::size_t f = 0; f < frames.size() && !transparent; ++f) {
        const std::vector<std::uint8_t>& pixels = frames[f].pixels;
        for (std::size_t i = 3; i < pixels.size() && !transparent; i += 4) transparent = pixels[i] < gif::kOpaqueAlpha;
    }
    std::vector<gif::Rgb> palette = gif::choosePalette(frames, transparent ? 255 : 256);
    // The transparent index follows the colours; the table is a power of two of at
    // least 2 entries, as the format requires.
    const int transparentIndex = transparent ? static_cast<int>(palette.size()) : NO_TRANSPARENT_COLOR;
    const std::size_t used = palette.size() + (transparent ? 1 : 0);
    std::vector<GifColorType> table(std::max<std::size_t>(2, std::bit_ceil(used)), GifColorType{0, 0, 0});
    for (std::size_t i = 0; i < palette.size(); ++i) table[i] = {palette[i].r, palette[i].g, palette[i].b};
    ColorMapObject colourMap{static_cast<int>(table.size()), std::countr_zero(table.size()), false, table.data()};
    std::optional<gif::NearestColour> nearest;
    if (!palette.empty()) nearest.emplace(std::move(palette));

    ByteSink sink;
    int error = 0;
    GifWriter gif(EGifOpen(&sink, appendGif, &error));
    if (!gif) return gifFault(error);
    // A write refused for memory reaches giflib only as a failed write.
    const auto failed = [&](int code) { return sink.failed ? outOfMemory() : gifFault(code); };
    // Without a saved image to inspect, giflib would otherwise write a GIF87a header,
    // which has no extensions (no delays, no transparency, no looping).
    EGifSetGifVersion(gif.get(), true);
    const int background = transparent ? transparentIndex : 0;
    if (EGifPutScreenDesc(gif.get(), width, height, 8, background, &colourMap) == GIF_ERROR) return failed(gif->Error);
    if (options.loop) {
        // Loop count 0: forever.
        static const GifByteType kLoopForever[3] = {1, 0, 0};
        if (EGifPutExtensionLeader(gif.get(), APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
            EGifPutExtensionBlock(gif.get(), 11, "NETSCAPE2.0") == GIF_ERROR ||
            EGifPutExtensionBlock(gif.get(), 3, kLoopForever) == GIF_ERROR ||
            EGifPutExtensionTrailer(gif.get()) == GIF_ERROR)
            return failed(gif->Error);
    }

    std::vector<GifPixelType> row(static_cast<std::size_t>(width));
    for (std::size_t f = 0; f < frames.size(); ++f) {
        GraphicsControlBlock control{};
        control.DisposalMode = transparent ? DISPOSE_BACKGROUND : DISPOSE_DO_NOT;
        control.UserInputFlag = false;
        control.DelayTime = delayCentiseconds(f, options.fps);
        control.TransparentColor = transparentIndex;
        GifByteType extension[4];
        const auto length = static_cast<int>(EGifGCBToExtension(&control, extension));
        if (EGifPutExtension(gif.get(), GRAPHICS_EXT_FUNC_CODE, length, extension) == GIF_ERROR ||
            EGifPutImageDesc(gif.get(), 0, 0, width, height, false, nullptr) == GIF_ERROR)
            return failed(gif->Error);

        // Neighbouring pixels mostly repeat: the last lookup is kept.
        std::uint32_t lastPixel = 0;
        GifPixelType lastIndex = 0;
        bool haveLast = false;
        const std::uint8_t* pixel = frames[f].pixels.data();
        for (int y = 0; y < height; ++y) {
            for (GifPixelType& index : row) {
                std::uint32_t rgba;
                std::memcpy(&rgba, pixel, 4);
                if (!haveLast || rgba != lastPixel) {
                    lastIndex = pixel[3] < gif::kOpaqueAlpha ? static_cast<GifPixelType>(transparentIndex)
                                                             : (*nearest)({pixel[0], pixel[1], pixel[2]});
                    lastPixel = rgba;
                    haveLast = true;
                }
                index = lastIndex;
                pixel += 4;
            }
            if (EGifPutLine(gif.get(), row.data(), width) == GIF_ERROR) return failed(gif->Error);
        }
    }
    if (EGifCloseFile(gif.release(), &error) == GIF_ERROR || sink.failed) return failed(error);
    return std::move(sink.bytes);
}

}  // namespace

Result<std::vector<std::byte>> encodePng(const ImageRGBA8& image) {
    if (image.width == 0 || image.height == 0) return Fault{"image", "size " + sizeText(image) + " has no pixels"};
    if (std::string what = pixelBytesFault(image); !what.empty()) return Fault{"image", std::move(what)};
    // Each scanline is its bytes plus one filter byte.
    const std::uint64_t scanlineBytes = (std::uint64_t{image.width} * 4 + 1) * image.height;
    if (scanlineBytes > kMaxPngScanlineBytes) {
        return Fault{"image",
                     "size " + sizeText(image) + " needs " + std::to_string(scanlineBytes) +
                         " bytes of scanlines, over the encoder's limit of 2^29"};
    }
    ByteSink sink;
    try {
        const int width = static_cast<int>(image.width);
        const int ok = stbi_write_png_to_func(appendPng, &sink, width, static_cast<int>(image.height), 4,
                                              image.pixels.data(), width * 4);
        if (!ok || sink.failed) return Fault{"image", "out of memory encoding the PNG"};
        return std::move(sink.bytes);
    } catch (const std::bad_alloc&) {
        return Fault{"image", "out of memory encoding the PNG"};
    }
}

Result<std::vector<std::byte>> encodeGif(std::span<const ImageRGBA8> frames, const GifOptions& options) {
    std::vector<Fault> faults;
    checkFrames(frames, faults);
    checkOptions(options, faults);
    if (!faults.empty()) return faults;
    try {
        return writeGif(frames, options);
    } catch (const std::bad_alloc&) {
        return outOfMemory();
    }
}

Result<std::filesystem::path> writeTarget(const std::filesystem::path& path) {
    if (path.empty()) return Fault{"path", "is empty: no file to write"};
    constexpr int kMostLinks = 40;  // as Linux follows them (ELOOP past that)
    std::filesystem::path target = path;
    for (int links = 0;; ++links) {
        struct stat seen {};
        if (::lstat(target.c_str(), &seen) != 0 || !S_ISLNK(seen.st_mode)) return target;
        if (links == kMostLinks) {
            return Fault{path.string(), "more than " + std::to_string(kMostLinks) + " links in a row (a loop?)"};
        }
        std::error_code error;
        const std::filesystem::path named = std::filesystem::read_symlink(target, error);
        if (error) return Fault{path.string(), "cannot follow the link " + target.string() + ": " + error.message()};
        target = named.is_absolute() ? named : target.parent_path() / named;
    }
}

Result<std::size_t> writeFileBytes(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    const std::string shown = path.string();
    // Links are written through: the file they name is replaced, the links kept.
    const auto resolved = writeTarget(path);
    if (!resolved) return std::vector<Fault>(resolved.faults().begin(), resolved.faults().end());
    const std::filesystem::path& target = *resolved;
    struct stat seen {};
    const bool exists = ::stat(target.c_str(), &seen) == 0;
    if (exists && !S_ISREG(seen.st_mode)) {
        return Fault{shown,
                     S_ISDIR(seen.st_mode) ? "is a folder, not a file name"
                                           : "is not a regular file (a FIFO or a device): the bytes go to a file"};
    }
    // Written beside the target under a temporary name, then renamed over it: a
    // failure at any point (a full disk, a signal) leaves the old file or none, never
    // a part of the new one.
    // The name is kept short, so that a target name near the file system's limit
    // still leaves room for it: at most 100 bytes of the target's, a hash of the whole.
    const std::string base = target.filename().string();
    char tail[64];
    std::snprintf(tail, sizeof tail, ".%016zx.%ld.tmp", std::hash<std::string>{}(base), static_cast<long>(::getpid()));
    std::string name(1, '.');
    name.append(base, 0, 100).append(tail);
    const std::filesystem::path temp = target.parent_path() / name;
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW, 0666);
    if (fd < 0) return Fault{shown, std::string("cannot open for writing: ") + std::strerror(errno)};
    const auto fail = [&](std::string what) {
        ::unlink(temp.c_str());
        return Fault{shown, std::move(what)};
    };
    if (exists && ::fchmod(fd, seen.st_mode & 0777) != 0) {
        const int error = errno;
        ::close(fd);
        return fail(std::string("cannot give the new file the old one's permissions: ") + std::strerror(error));
    }
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int error = n < 0 ? errno : EIO;
            ::close(fd);
            return fail("write failed after " + std::to_string(written) + " of " + std::to_string(bytes.size()) +
                        " bytes: " + std::strerror(error));
        }
        written += static_cast<std::size_t>(n);
    }
    // Some file systems report a failed write only at close.
    if (::close(fd) != 0) return fail(std::string("write failed at close: ") + std::strerror(errno));
    if (::rename(temp.c_str(), target.c_str()) != 0)
        return fail(std::string("cannot replace it: ") + std::strerror(errno));
    return written;
}

}  // namespace kinema
