// kinema/io: image files out: a PNG of one RGBA8 image, an animated GIF of many, and
// the bytes of either written to a file (for previews, captures and test artefacts).
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/core/result.hpp"

namespace kinema {

// ImageRGBA8 (kinema/asset/model.hpp) is what both encoders take.

// The PNG bytes of `image` (8-bit RGBA, alpha kept as given); decoding them gives back
// exactly the same pixels. Faults (located at "image"): a width or height of 0, pixels
// not width * height * 4 bytes, or (width * 4 + 1) * height over 2^29 bytes (the
// encoder keeps its buffers in ints; 2^29 leaves room for them to grow).
Result<std::vector<std::byte>> encodePng(const ImageRGBA8& image);

struct GifOptions {
    // Frames per second, finite and > 0. GIF delays are whole centiseconds: each frame's
    // delay is chosen so that frame i starts at round(i * 100 / fps) cs, and the whole
    // animation lasts N / fps seconds to within half a centisecond (3, 4, 3, 3, 4, 3, ...
    // at 30 fps). Above 50 fps some delays fall under 2 cs, which browsers stretch to
    // 10 cs; below about 0.0015 fps one delay would pass the format's 655.35 s.
    double fps = 30.0;
    // Loops forever (the NETSCAPE2.0 application extension) when true; plays once when false.
    bool loop = true;
};

// The bytes of an animated GIF89a, one frame per image, all the same size. One global
// palette serves every frame: when the opaque pixels of all frames hold at most 256
// distinct colours (255 when some pixel is transparent) they are the palette and
// survive exactly; otherwise a median cut over all frames' colours chooses 256 (255)
// and each pixel becomes its nearest palette colour. A pixel with alpha < 128 becomes
// the transparent index; any other is drawn opaque with its RGB. With transparent
// pixels each frame is disposed to the background, so the frames before it do not show
// through its holes. The same frames and options give the same bytes.
// Faults: no frames ("frames"); a frame of width or height 0 or over 65535, pixels not
// width * height * 4 bytes, or a size unlike frame 0's ("frames/3: size 64x32 differs
// from frame 0's 64x64"); fps not finite, <= 0, or so low that a delay passes 655.35 s
// ("options/fps").
Result<std::vector<std::byte>> encodeGif(std::span<const ImageRGBA8> frames, const GifOptions& options = {});

// The file a write to `path` replaces: `path` itself, or where it is a link, the file
// the chain of links ends at (each link followed, at most 40 in a row). Faults, at the
// path: an empty path, a link that cannot be read, more than 40 links (a loop).
Result<std::filesystem::path> writeTarget(const std::filesystem::path& path);

// Writes `bytes` to `path`, replacing any file there (through links, the file the last
// one names, as writeTarget finds it): to a temporary file beside it, renamed into
// place, so a failure leaves the old file or none, never part of the new one; a file
// replaced keeps its permission bits. Returns the number of bytes written; a fault is
// located at the path and gives the system's reason ("No such file or directory"). A
// folder, FIFO or device at the path is refused.
Result<std::size_t> writeFileBytes(const std::filesystem::path& path, std::span<const std::byte> bytes);

}  // namespace kinema
