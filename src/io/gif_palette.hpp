// Internal to kinema/io: the one palette of an animated GIF, chosen over all its frames,
// and the nearest-colour lookup that maps pixels to it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "kinema/asset/model.hpp"

namespace kinema::gif {

struct Rgb {
    std::uint8_t r = 0, g = 0, b = 0;
    friend bool operator==(const Rgb&, const Rgb&) = default;
};

// Pixels with alpha below this are transparent; the others are drawn opaque.
constexpr std::uint8_t kOpaqueAlpha = 128;

// At most `maxColours` (1 to 256) colours for the opaque pixels of `frames`: every distinct
// colour, in ascending 0xRRGGBB order, when there are no more than that; otherwise a
// median cut of all of them, weighted by how many pixels have each. Empty when no
// pixel is opaque. The frames are assumed valid (pixels of width * height * 4 bytes).
std::vector<Rgb> choosePalette(std::span<const ImageRGBA8> frames, std::size_t maxColours);

// The index of the palette colour nearest (squared RGB distance; the lower index on a
// tie) to a colour. Each 8x8x8 cell of RGB space keeps, once first asked, the palette
// entries that can be nearest to some colour in it, so a lookup compares a handful of
// entries instead of all; the answer is the exact nearest, not the cell's.
class NearestColour {
public:
    // `palette` holds 1 to 256 colours.
    explicit NearestColour(std::vector<Rgb> palette);

    std::uint8_t operator()(Rgb colour) {
        const std::size_t cell =
            (std::size_t{colour.r} >> 3) << 10 | (std::size_t{colour.g} >> 3) << 5 | std::size_t{colour.b} >> 3;
        if (cellStart_[cell] == kUnset) fillCell(cell);
        const std::uint8_t* candidate = candidates_.data() + cellStart_[cell];
        const std::uint8_t* end = candidate + cellCount_[cell];
        std::uint8_t best = *candidate;
        int bestDistance = distance(palette_[best], colour);
        for (++candidate; candidate != end; ++candidate) {
            const int d = distance(palette_[*candidate], colour);
            if (d < bestDistance) {
                bestDistance = d;
                best = *candidate;
            }
        }
        return best;
    }

private:
    static constexpr std::uint32_t kUnset = 0xffffffffu;

    static int distance(Rgb a, Rgb b) {
        const int dr = a.r - b.r, dg = a.g - b.g, db = a.b - b.b;
        return dr * dr + dg * dg + db * db;
    }
    void fillCell(std::size_t cell);

    std::vector<Rgb> palette_;
    std::vector<std::uint32_t> cellStart_;  // into candidates_, or kUnset
    std::vector<std::uint16_t> cellCount_;  // 1 to 256
    std::vector<std::uint8_t> candidates_;  // palette indices, ascending within a cell
};

}  // namespace kinema::gif
