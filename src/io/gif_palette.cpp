#include "gif_palette.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <utility>

namespace kinema::gif {
namespace {

constexpr std::uint32_t kNoColour = 0xffffffffu;

std::uint32_t packed(const std::uint8_t* pixel) {
    return std::uint32_t{pixel[0]} << 16 | std::uint32_t{pixel[1]} << 8 | pixel[2];
}

Rgb unpacked(std::uint32_t colour) {
    return {static_cast<std::uint8_t>(colour >> 16), static_cast<std::uint8_t>(colour >> 8),
            static_cast<std::uint8_t>(colour)};
}

// Calls visit(0xRRGGBB, n) for each run of n consecutive opaque pixels of one colour,
// in order; animation frames are mostly flat areas, so runs save most of the work.
// Stops early, returning false, when visit does.
template <class Visit>
bool forEachOpaqueRun(std::span<const ImageRGBA8> frames, Visit&& visit) {
    std::uint32_t last = kNoColour;
    std::uint64_t run = 0;
    for (const ImageRGBA8& frame : frames) {
        const std::uint8_t* pixel = frame.pixels.data();
        const std::uint8_t* end = pixel + frame.pixels.size();
        for (; pixel != end; pixel += 4) {
            if (pixel[3] < kOpaqueAlpha) continue;
            const std::uint32_t colour = packed(pixel);
            if (colour == last) {
                ++run;
                continue;
            }
            if (run != 0 && !visit(last, run)) return false;
            last = colour;
            run = 1;
        }
    }
    return run == 0 || visit(last, run);
}

// Every distinct opaque colour, ascending, or false once there are more than `limit`
// (at most 256): an open-addressing set four times that size, so probes stay short.
bool distinctColours(std::span<const ImageRGBA8> frames, std::size_t limit, std::vector<std::uint32_t>& colours) {
    constexpr unsigned kBits = 10;
    std::vector<std::uint32_t> table(std::size_t{1} << kBits, kNoColour);
    colours.clear();
    const bool fits = forEachOpaqueRun(frames, [&](std::uint32_t colour, std::uint64_t) {
        std::size_t slot = (colour * 0x9e3779b1u) >> (32 - kBits);
        while (table[slot] != kNoColour) {
            if (table[slot] == colour) return true;
            slot = (slot + 1) & (table.size() - 1);
        }
        if (colours.size() == limit) return false;
        table[slot] = colour;
        colours.push_back(colour);
        return true;
    });
    std::sort(colours.begin(), colours.end());
    return fits;
}

// The median cut works on a 6-bit-per-channel histogram: each bin keeps its pixel
// count and the sums of their exact channel values, so a box's colour is the true mean
// of its pixels while the work is bounded by the 2^18 bins, not the pixel count.
constexpr unsigned kBinBits = 6;
constexpr unsigned kBinShift = 8 - kBinBits;

struct Bin {
    std::uint64_t count = 0;
    std::array<std::uint64_t, 3> sum{};
};

struct Entry {
    std::uint32_t bin = 0;
    std::uint64_t count = 0;
    std::array<std::uint64_t, 3> sum{};
    std::array<double, 3> mean{};
};

struct Box {
    std::size_t begin = 0, end = 0;  // a range of the entries
    std::uint64_t count = 0;
    std::array<std::uint64_t, 3> sum{};
    double error = 0;      // the pixels' summed squared distance to the box mean; 0: not splittable
    std::size_t axis = 0;  // the channel of largest spread, which a split cuts
};

Box makeBox(const std::vector<Entry>& entries, std::size_t begin, std::size_t end) {
    Box box;
    box.begin = begin;
    box.end = end;
    for (std::size_t i = begin; i < end; ++i) {
        box.count += entries[i].count;
        for (std::size_t c = 0; c < 3; ++c) box.sum[c] += entries[i].sum[c];
    }
    if (end - begin < 2) return box;
    std::array<double, 3> mean{};
    for (std::size_t c = 0; c < 3; ++c) mean[c] = static_cast<double>(box.sum[c]) / static_cast<double>(box.count);
    std::array<double, 3> spread{};
    for (std::size_t i = begin; i < end; ++i) {
        for (std::size_t c = 0; c < 3; ++c) {
            const double d = entries[i].mean[c] - mean[c];
            spread[c] += static_cast<double>(entries[i].count) * d * d;
        }
    }
    box.axis = static_cast<std::size_t>(std::max_element(spread.begin(), spread.end()) - spread.begin());
    box.error = spread[0] + spread[1] + spread[2];
    return box;
}

// Cuts the box at the population median of its widest channel; both halves keep at
// least one entry.
std::pair<Box, Box> split(std::vector<Entry>& entries, const Box& box) {
    const auto first = entries.begin() + static_cast<std::ptrdiff_t>(box.begin);
    const auto last = entries.begin() + static_cast<std::ptrdiff_t>(box.end);
    const std::size_t axis = box.axis;
    std::sort(first, last, [axis](const Entry& a, const Entry& b) {
        return a.mean[axis] != b.mean[axis] ? a.mean[axis] < b.mean[axis] : a.bin < b.bin;
    });
    std::size_t cut = box.begin;
    std::uint64_t below = 0;
    while (cut < box.end && 2 * below < box.count) below += entries[cut++].count;
    cut = std::clamp(cut, box.begin + 1, box.end - 1);
    return {makeBox(entries, box.begin, cut), makeBox(entries, cut, box.end)};
}

std::vector<Rgb> medianCut(std::span<const ImageRGBA8> frames, std::size_t maxColours) {
    std::vector<Bin> bins(std::size_t{1} << (3 * kBinBits));
    forEachOpaqueRun(frames, [&](std::uint32_t colour, std::uint64_t run) {
        const Rgb rgb = unpacked(colour);
        const std::size_t index = (std::size_t{rgb.r} >> kBinShift) << (2 * kBinBits) |
            (std::size_t{rgb.g} >> kBinShift) << kBinBits | (std::size_t{rgb.b} >> kBinShift);
        Bin& bin = bins[index];
        bin.count += run;
        bin.sum[0] += std::uint64_t{rgb.r} * run;
        bin.sum[1] += std::uint64_t{rgb.g} * run;
        bin.sum[2] += std::uint64_t{rgb.b} * run;
        return true;
    });
    std::vector<Entry> entries;
    for (std::size_t i = 0; i < bins.size(); ++i) {
        const Bin& bin = bins[i];
        if (bin.count == 0) continue;
        Entry entry{static_cast<std::uint32_t>(i), bin.count, bin.sum, {}};
        for (std::size_t c = 0; c < 3; ++c)
            entry.mean[c] = static_cast<double>(bin.sum[c]) / static_cast<double>(bin.count);
        entries.push_back(entry);
    }
    if (entries.empty()) return {};

    // The box whose pixels lie farthest from their mean is cut next, until there are
    // enough boxes or none can be cut.
    std::vector<Box> boxes{makeBox(entries, 0, entries.size())};
    while (boxes.size() < maxColours) {
        const auto worst =
            std::max_element(boxes.begin(), boxes.end(), [](const Box& a, const Box& b) { return a.error < b.error; });
        if (worst->error <= 0) break;
        auto [low, high] = split(entries, *worst);
        *worst = low;
        boxes.push_back(high);
    }

    std::vector<Rgb> palette;
    palette.reserve(boxes.size());
    for (const Box& box : boxes) {
        std::array<std::uint8_t, 3> mean{};
        for (std::size_t c = 0; c < 3; ++c)
            mean[c] = static_cast<std::uint8_t>((box.sum[c] + box.count / 2) / box.count);
        palette.push_back({mean[0], mean[1], mean[2]});
    }
    return palette;
}

}  // namespace

std::vector<Rgb> choosePalette(std::span<const ImageRGBA8> frames, std::size_t maxColours) {
    assert(maxColours >= 1 && maxColours <= 256);
    std::vector<std::uint32_t> colours;
    if (distinctColours(frames, maxColours, colours)) {
        std::vector<Rgb> palette;
        palette.reserve(colours.size());
        for (std::uint32_t colour : colours) palette.push_back(unpacked(colour));
        return palette;
    }
    return medianCut(frames, maxColours);
}

NearestColour::NearestColour(std::vector<Rgb> palette)
    : palette_(std::move(palette)), cellStart_(std::size_t{1} << 15, kUnset), cellCount_(std::size_t{1} << 15, 0) {
    assert(!palette_.empty() && palette_.size() <= 256);
}

// An entry can be nearest to some colour of the cell only if its distance to the cell
// (0 inside it) is no more than the smallest farthest-corner distance of any entry.
void NearestColour::fillCell(std::size_t cell) {
    const std::array<int, 3> low{static_cast<int>(cell >> 10) << 3, static_cast<int>((cell >> 5) & 31) << 3,
                                 static_cast<int>(cell & 31) << 3};
    auto nearestAndFarthest = [&](Rgb p) {
        const std::array<int, 3> v{p.r, p.g, p.b};
        int nearest = 0, farthest = 0;
        for (std::size_t c = 0; c < 3; ++c) {
            const int lo = low[c], hi = low[c] + 7;
            const int inside = v[c] < lo ? lo - v[c] : v[c] > hi ? v[c] - hi : 0;
            const int corner = std::max(v[c] - lo, hi - v[c]);
            nearest += inside * inside;
            farthest += corner * corner;
        }
        return std::pair{nearest, farthest};
    };
    int bound = 1 << 30;
    for (Rgb p : palette_) bound = std::min(bound, nearestAndFarthest(p).second);
    cellStart_[cell] = static_cast<std::uint32_t>(candidates_.size());
    for (std::size_t i = 0; i < palette_.size(); ++i) {
        if (nearestAndFarthest(palette_[i]).first <= bound) candidates_.push_back(static_cast<std::uint8_t>(i));
    }
    cellCount_[cell] = static_cast<std::uint16_t>(candidates_.size() - cellStart_[cell]);
}

}  // namespace kinema::gif
