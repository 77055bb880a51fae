// Internal to kinema/io: stb_image, compiled in stb_image_decoder.cpp, with every
// allocation it makes charged to a budget that belongs to one decode call.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace kinema::stb {

// What one decode call may hold at once. The decoder's allocator charges each block to
// the budget installed on the calling thread and refuses (the decoder then fails with
// "outofmem") any block that would take `live` past `limit`. A realloc is charged its
// new size while the old block is still held, since it may copy.
struct AllocationBudget {
    std::size_t limit = 0;
    std::size_t live = 0;  // bytes held now
    bool refused = false;  // an allocation was refused for the limit
};

// Installs `budget` for the calling thread while it lives, then restores the one before.
// Without an installed budget the decoder's allocator refuses everything, so no decode
// can run unbounded.
class BudgetScope {
public:
    explicit BudgetScope(AllocationBudget& budget) noexcept;
    ~BudgetScope();
    BudgetScope(const BudgetScope&) = delete;
    BudgetScope& operator=(const BudgetScope&) = delete;

private:
    AllocationBudget* previous_;
};

// `bytes.size()` must fit in an int (stb_image's length type).
// Width, height and channel count from the header; false (see failureReason) when the
// bytes are not a PNG or JPEG that stb_image accepts.
bool info(std::span<const std::byte> bytes, int& width, int& height, int& channels);
// The whole image as RGBA8, to be released with freeImage; null on failure.
unsigned char* loadRGBA(std::span<const std::byte> bytes, int& width, int& height);
// A PNG's bytes without its empty IDAT chunks (which stb_image cannot take), or
// nothing when the bytes are not a PNG or have none.
std::vector<std::byte> withoutEmptyImageData(std::span<const std::byte> bytes);
void freeImage(unsigned char* pixels);
// Why the last info or loadRGBA on this thread failed.
const char* failureReason();

}  // namespace kinema::stb
