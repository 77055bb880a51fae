// stb_image's implementation, compiled here from the system header (libstb-dev) so
// that its allocations go through a counting allocator with a per-call limit.
#include "stb_image_decoder.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace kinema::stb {
namespace {

// The budget of the decode call running on this thread; set only by BudgetScope.
thread_local AllocationBudget* tCurrentBudget = nullptr;

// Each block starts with a header holding its size, because stb_image frees without
// a size and its sized realloc is only a hint. The header keeps malloc's alignment.
constexpr std::size_t kHeader = alignof(std::max_align_t);

bool charge(AllocationBudget& budget, std::size_t wanted) {
    if (wanted > budget.limit || budget.live > budget.limit - wanted) {
        budget.refused = true;
        return false;
    }
    budget.live += wanted;
    return true;
}

std::size_t blockSize(void* user) {
    std::size_t size = 0;
    std::memcpy(&size, static_cast<unsigned char*>(user) - kHeader, sizeof size);
    return size;
}

void* toUser(void* block, std::size_t size) {
    std::memcpy(block, &size, sizeof size);
    return static_cast<unsigned char*>(block) + kHeader;
}

void* budgetMalloc(std::size_t size) {
    AllocationBudget* budget = tCurrentBudget;
    if (!budget || size > SIZE_MAX - kHeader || !charge(*budget, size)) return nullptr;
    void* block = std::malloc(kHeader + size);
    if (!block) {
        budget->live -= size;
        return nullptr;
    }
    return toUser(block, size);
}

void budgetFree(void* user) {
    if (!user) return;
    const std::size_t size = blockSize(user);
    // A block is freed on the thread (and so under the budget) that allocated it.
    if (AllocationBudget* budget = tCurrentBudget) budget->live -= size;
    std::free(static_cast<unsigned char*>(user) - kHeader);
}

void* budgetRealloc(void* user, std::size_t size) {
    if (!user) return budgetMalloc(size);
    AllocationBudget* budget = tCurrentBudget;
    // The new block is charged while the old one is still held: realloc may copy.
    if (!budget || size > SIZE_MAX - kHeader || !charge(*budget, size)) return nullptr;
    const std::size_t old = blockSize(user);
    void* block = std::realloc(static_cast<unsigned char*>(user) - kHeader, kHeader + size);
    if (!block) {
        budget->live -= size;
        return nullptr;
    }
    budget->live -= old;
    return toUser(block, size);
}

}  // namespace
}  // namespace kinema::stb

#define STBI_MALLOC(size) ::kinema::stb::budgetMalloc(size)
#define STBI_REALLOC_SIZED(pointer, oldSize, newSize) ::kinema::stb::budgetRealloc(pointer, newSize)
#define STBI_FREE(pointer) ::kinema::stb::budgetFree(pointer)
// Bytes only: kinema reads files itself.
#define STBI_NO_STDIO
// Only the formats of core glTF images (PNG and JPEG): every other decoder would be
// attack surface that no valid file needs.
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
// Internal linkage, so a program that also links its own stb_image sees no clash.
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
// This stb_image declares its failure reason STBI_THREAD_LOCAL (thread_local in C++),
// so concurrent decodes on different threads do not overwrite each other's reason.
// Internal linkage leaves the functions we do not call unused; that warning is stb's,
// silenced for this include only. (The header's directory is a system one besides.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb/stb_image.h>
#pragma GCC diagnostic pop

namespace kinema::stb {

BudgetScope::BudgetScope(AllocationBudget& budget) noexcept : previous_(tCurrentBudget) { tCurrentBudget = &budget; }

BudgetScope::~BudgetScope() { tCurrentBudget = previous_; }

bool info(std::span<const std::byte> bytes, int& width, int& height, int& channels) {
    return stbi_info_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()), static_cast<int>(bytes.size()), &width,
                                 &height, &channels) != 0;
}

std::vector<std::byte> withoutEmptyImageData(std::span<const std::byte> bytes) {
    constexpr unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    const auto at = [&](std::size_t i) { return static_cast<unsigned char>(bytes[i]); };
    if (bytes.size() < 8 || std::memcmp(bytes.data(), kSignature, 8) != 0) return {};
    // Each chunk: a big-endian length, a four-letter type, the data, a CRC.
    const auto emptyIdat = [&](std::size_t offset) {
        return at(offset) == 0 && at(offset + 1) == 0 && at(offset + 2) == 0 && at(offset + 3) == 0 &&
            at(offset + 4) == 'I' && at(offset + 5) == 'D' && at(offset + 6) == 'A' && at(offset + 7) == 'T';
    };
    const auto chunkEnd = [&](std::size_t offset) -> std::size_t {
        const std::size_t length = std::size_t{at(offset)} << 24 | std::size_t{at(offset + 1)} << 16 |
            std::size_t{at(offset + 2)} << 8 | std::size_t{at(offset + 3)};
        return length > bytes.size() - offset - 12 ? bytes.size() : offset + 12 + length;
    };
    bool any = false;
    for (std::size_t offset = 8; offset + 12 <= bytes.size(); offset = chunkEnd(offset)) any = any || emptyIdat(offset);
    if (!any) return {};
    std::vector<std::byte> out(bytes.begin(), bytes.begin() + 8);
    out.reserve(bytes.size());
    std::size_t offset = 8;
    for (; offset + 12 <= bytes.size(); offset = chunkEnd(offset)) {
        if (!emptyIdat(offset))
            out.insert(out.end(), bytes.begin() + static_cast<std::ptrdiff_t>(offset),
                       bytes.begin() + static_cast<std::ptrdiff_t>(chunkEnd(offset)));
    }
    out.insert(out.end(), bytes.begin() + static_cast<std::ptrdiff_t>(offset), bytes.end());  // a truncated tail
    return out;
}

unsigned char* loadRGBA(std::span<const std::byte> bytes, int& width, int& height) {
    // stb_image copies an IDAT chunk's data with memcpy into a buffer it has not yet
    // allocated when the first one is empty (a null pointer, even for 0 bytes, is
    // undefined behaviour); an empty chunk adds nothing to the image data, so the
    // decoder gets the file without them.
    const std::vector<std::byte> repacked = withoutEmptyImageData(bytes);
    if (!repacked.empty()) bytes = repacked;
    int channels = 0;
    return stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()), static_cast<int>(bytes.size()), &width,
                                 &height, &channels, 4);
}

void freeImage(unsigned char* pixels) { stbi_image_free(pixels); }

const char* failureReason() { return stbi_failure_reason(); }

}  // namespace kinema::stb
