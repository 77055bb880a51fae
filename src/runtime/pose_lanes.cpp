#include "pose_lanes.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>

#include "kinema/runtime/detail/kernel_abi.hpp"
#include "kinema/runtime/simd.hpp"

#ifdef KINEMA_HAS_X86_KERNELS
#include <immintrin.h>
#endif

namespace kinema::detail {
namespace {

constexpr std::size_t L = kIkLanes;
constexpr std::size_t kBlockJoints = PoseLanes::kBlockJoints;
static_assert(kIkLanes == 16, "one 512-bit register of floats per lane row; a 32-bit mask holds the lanes");
static_assert(kBlockJoints == 16, "a block is one 64-byte line of each component array");
static_assert(kSoaComponents == 10);

constexpr std::size_t kFirstRotation = static_cast<std::size_t>(SoaComponent::Rx);
constexpr std::size_t kRotationEnd = static_cast<std::size_t>(SoaComponent::Rw) + 1;

// Where component c (SoaComponent order) of a lane frame lies, in bytes from its
// start: a table, so that loops over components and joints address it directly.
constexpr std::array<std::size_t, kSoaComponents> kComponentAt = {
    offsetof(LaneFrame, p) + offsetof(LaneVec3, x), offsetof(LaneFrame, p) + offsetof(LaneVec3, y),
    offsetof(LaneFrame, p) + offsetof(LaneVec3, z), offsetof(LaneFrame, r) + offsetof(LaneQuat, x),
    offsetof(LaneFrame, r) + offsetof(LaneQuat, y), offsetof(LaneFrame, r) + offsetof(LaneQuat, z),
    offsetof(LaneFrame, r) + offsetof(LaneQuat, w), offsetof(LaneFrame, s) + offsetof(LaneVec3, x),
    offsetof(LaneFrame, s) + offsetof(LaneVec3, y), offsetof(LaneFrame, s) + offsetof(LaneVec3, z)};

float* componentOf(LaneFrame& f, std::size_t c) noexcept {
    return reinterpret_cast<float*>(reinterpret_cast<std::byte*>(&f) + kComponentAt[c]);
}

const float* componentOf(const LaneFrame& f, std::size_t c) noexcept {
    return reinterpret_cast<const float*>(reinterpret_cast<const std::byte*>(&f) + kComponentAt[c]);
}

// rows[l]: where lane l's translation x array holds the block's first joint; the
// other components follow `stride` floats apart.
using Rows = std::array<float*, L>;

// The joints of the block whose bits are set, one by one.
void readJoints(const Rows& rows, std::size_t stride, std::uint32_t joints,
                std::array<LaneFrame, kBlockJoints>& out) noexcept {
    for (std::uint32_t rest = joints; rest != 0; rest &= rest - 1) {
        const auto k = static_cast<std::size_t>(std::countr_zero(rest));
        for (std::size_t c = 0; c < kSoaComponents; ++c) {
            float* to = componentOf(out[k], c);
            for (std::size_t l = 0; l < L; ++l) to[l] = rows[l][c * stride + k];
        }
    }
}

void writeRotations(const Rows& rows, std::size_t stride, std::size_t count, std::uint32_t joints,
                    const std::array<LaneFrame, kBlockJoints>& in) noexcept {
    for (std::uint32_t rest = joints; rest != 0; rest &= rest - 1) {
        const auto k = static_cast<std::size_t>(std::countr_zero(rest));
        for (std::size_t c = kFirstRotation; c < kRotationEnd; ++c) {
            const float* from = componentOf(in[k], c);
            for (std::size_t l = 0; l < count; ++l) rows[l][c * stride + k] = from[l];
        }
    }
}

#ifdef KINEMA_HAS_X86_KERNELS
#define KINEMA_WIDE __attribute__((target("avx512f")))
// GCC's AVX-512 shuffles pass a deliberately undefined register as their unused
// merge source, which -Wuninitialized reports once they are inlined here.
#if !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

// r[i] = element i of every register: a 16 x 16 transposition (its own inverse).
KINEMA_WIDE inline void transpose(__m512 (&r)[16]) noexcept {
    __m512 t[16];
    // Pairs of rows interleaved, then pairs of pairs: r[4g + m] holds, in 128-bit
    // block b, element 4b + m of rows 4g .. 4g + 3.
    for (int i = 0; i < 16; i += 2) {
        t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int i = 0; i < 16; i += 4) {
        const __m512d a = _mm512_castps_pd(t[i]), b = _mm512_castps_pd(t[i + 1]);
        const __m512d c = _mm512_castps_pd(t[i + 2]), d = _mm512_castps_pd(t[i + 3]);
        r[i] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, c));
        r[i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, c));
        r[i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(b, d));
        r[i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(b, d));
    }
    // Then the 4 x 4 transposition of 128-bit blocks across groups g.
    for (int m = 0; m < 4; ++m) {
        t[m] = _mm512_shuffle_f32x4(r[m], r[4 + m], 0x44);
        t[4 + m] = _mm512_shuffle_f32x4(r[m], r[4 + m], 0xEE);
        t[8 + m] = _mm512_shuffle_f32x4(r[8 + m], r[12 + m], 0x44);
        t[12 + m] = _mm512_shuffle_f32x4(r[8 + m], r[12 + m], 0xEE);
    }
    for (int m = 0; m < 4; ++m) {
        r[m] = _mm512_shuffle_f32x4(t[m], t[8 + m], 0x88);
        r[4 + m] = _mm512_shuffle_f32x4(t[m], t[8 + m], 0xDD);
        r[8 + m] = _mm512_shuffle_f32x4(t[4 + m], t[12 + m], 0x88);
        r[12 + m] = _mm512_shuffle_f32x4(t[4 + m], t[12 + m], 0xDD);
    }
}

KINEMA_WIDE void readBlock(const Rows& rows, std::size_t stride, std::array<LaneFrame, kBlockJoints>& out) noexcept {
    for (std::size_t c = 0; c < kSoaComponents; ++c) {
        __m512 r[16];
        for (std::size_t l = 0; l < L; ++l) r[l] = _mm512_loadu_ps(rows[l] + c * stride);
        transpose(r);
        for (std::size_t k = 0; k < kBlockJoints; ++k) _mm512_store_ps(componentOf(out[k], c), r[k]);
    }
}

KINEMA_WIDE void writeBlockRotations(const Rows& rows, std::size_t stride, std::size_t count,
                                     const std::array<LaneFrame, kBlockJoints>& in) noexcept {
    for (std::size_t c = kFirstRotation; c < kRotationEnd; ++c) {
        __m512 r[16];
        for (std::size_t k = 0; k < kBlockJoints; ++k) r[k] = _mm512_load_ps(componentOf(in[k], c));
        transpose(r);
        for (std::size_t l = 0; l < count; ++l) _mm512_storeu_ps(rows[l] + c * stride, r[l]);
    }
}
KINEMA_WIDE void wideRecordsToLanes(std::span<const void* const, kIkLanes> records, std::size_t floats,
                                    std::span<std::array<float, kIkLanes>> out) noexcept {
    const auto mask = static_cast<__mmask16>((1u << floats) - 1u);
    __m512 r[16];
    for (std::size_t l = 0; l < L; ++l) r[l] = _mm512_maskz_loadu_ps(mask, records[l]);
    transpose(r);
    for (std::size_t k = 0; k < floats; ++k) _mm512_storeu_ps(out[k].data(), r[k]);
}

#define KINEMA_HALF __attribute__((target("avx2")))

// r[i] = element i of every register: an 8 x 8 transposition (its own inverse).
KINEMA_HALF inline void transpose(__m256 (&r)[8]) noexcept {
    __m256 t[8];
    // Pairs of rows interleaved: t[2g], t[2g + 1] hold elements 0, 1 | 4, 5 and 2, 3 | 6, 7
    // of rows 2g and 2g + 1.
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
    }
    // Then pairs of pairs: u[4q + m] holds element m (low half) and m + 4 (high half)
    // of rows 4q .. 4q + 3.
    __m256 u[8];
    for (int q = 0; q < 8; q += 4) {
        u[q] = _mm256_shuffle_ps(t[q], t[q + 2], 0x44);
        u[q + 1] = _mm256_shuffle_ps(t[q], t[q + 2], 0xEE);
        u[q + 2] = _mm256_shuffle_ps(t[q + 1], t[q + 3], 0x44);
        u[q + 3] = _mm256_shuffle_ps(t[q + 1], t[q + 3], 0xEE);
    }
    for (int m = 0; m < 4; ++m) {
        r[m] = _mm256_permute2f128_ps(u[m], u[4 + m], 0x20);
        r[4 + m] = _mm256_permute2f128_ps(u[m], u[4 + m], 0x31);
    }
}

// The 256-bit twins: each 16 x 16 move as four 8 x 8 ones, lanes h * 8 .. h * 8 + 7
// by joints g * 8 .. g * 8 + 7.
KINEMA_HALF void halfReadBlock(const Rows& rows, std::size_t stride,
                               std::array<LaneFrame, kBlockJoints>& out) noexcept {
    for (std::size_t c = 0; c < kSoaComponents; ++c) {
        for (std::size_t h = 0; h < 2; ++h) {
            for (std::size_t g = 0; g < 2; ++g) {
                __m256 r[8];
                for (std::size_t i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(rows[8 * h + i] + c * stride + 8 * g);
                transpose(r);
                for (std::size_t k = 0; k < 8; ++k) _mm256_store_ps(componentOf(out[8 * g + k], c) + 8 * h, r[k]);
            }
        }
    }
}

// Only the halves of the block (joints 0-7, 8-15) with a rotation set (bits of `changed`).
KINEMA_HALF void halfWriteBlockRotations(const Rows& rows, std::size_t stride, std::size_t count, std::uint32_t changed,
                                         const std::array<LaneFrame, kBlockJoints>& in) noexcept {
    for (std::size_t c = kFirstRotation; c < kRotationEnd; ++c) {
        for (std::size_t h = 0; h < 2 && 8 * h < count; ++h) {
            for (std::size_t g = 0; g < 2; ++g) {
                if ((changed >> (8 * g) & 0xFFu) == 0) continue;
                __m256 r[8];
                for (std::size_t k = 0; k < 8; ++k) r[k] = _mm256_load_ps(componentOf(in[8 * g + k], c) + 8 * h);
                transpose(r);
                for (std::size_t i = 0; i < 8 && 8 * h + i < count; ++i) {
                    _mm256_storeu_ps(rows[8 * h + i] + c * stride + 8 * g, r[i]);
                }
            }
        }
    }
}

KINEMA_HALF void halfRecordsToLanes(std::span<const void* const, kIkLanes> records, std::size_t floats,
                                    std::span<std::array<float, kIkLanes>> out) noexcept {
    for (std::size_t g = 0; 8 * g < floats; ++g) {
        // Float k of the record is read where k < floats, the rest of the 8 left at 0.
        alignas(32) std::array<std::int32_t, 8> take{};
        for (std::size_t k = 0; k < 8; ++k) take[k] = 8 * g + k < floats ? -1 : 0;
        const __m256i mask = _mm256_load_si256(reinterpret_cast<const __m256i*>(take.data()));
        for (std::size_t h = 0; h < 2; ++h) {
            __m256 r[8];
            for (std::size_t i = 0; i < 8; ++i) {
                r[i] = _mm256_maskload_ps(static_cast<const float*>(records[8 * h + i]) + 8 * g, mask);
            }
            transpose(r);
            for (std::size_t k = 0; k < 8 && 8 * g + k < floats; ++k)
                _mm256_storeu_ps(out[8 * g + k].data() + 8 * h, r[k]);
        }
    }
}
#if !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

}  // namespace

BlockMoves bestBlockMoves() noexcept {
#ifdef KINEMA_HAS_X86_KERNELS
    static const BlockMoves moves = isSupported(SimdLevel::Avx512) ? BlockMoves::Full
        : isSupported(SimdLevel::Avx2)                             ? BlockMoves::Halves
                                                                   : BlockMoves::OneByOne;
    return moves;
#else
    return BlockMoves::OneByOne;
#endif
}

bool recordsToLanes(std::span<const void* const, kIkLanes> records, std::size_t floats,
                    std::span<std::array<float, kIkLanes>> out, BlockMoves moves) noexcept {
#ifdef KINEMA_HAS_X86_KERNELS
    switch (std::min(moves, bestBlockMoves())) {
        case BlockMoves::Full: wideRecordsToLanes(records, floats, out); return true;
        case BlockMoves::Halves: halfRecordsToLanes(records, floats, out); return true;
        case BlockMoves::OneByOne: break;
    }
#endif
    (void)records;
    (void)floats;
    (void)out;
    (void)moves;
    return false;
}

PoseLanes::PoseLanes(std::span<SoaPose* const> poses, BlockMoves moves) noexcept
    : count_(poses.size()),
      stride_(poses[0]->laneCount()),
      allLanes_((1u << count_) - 1u),
      moves_(std::min(moves, bestBlockMoves())) {
    for (std::size_t l = 0; l < L; ++l) poses_[l] = poses[l < count_ ? l : 0];
}

PoseLanes::Slot& PoseLanes::slotFor(std::uint32_t block) noexcept {
    ++clock_;
    Slot* oldest = &slots_[0];
    for (Slot& s : slots_) {
        if (s.block == block) {
            s.used = clock_;
            return s;
        }
        if (s.used < oldest->used) oldest = &s;
    }
    writeBack(*oldest);
    oldest->block = block;
    oldest->read = 0;
    oldest->used = clock_;
    return *oldest;
}

PoseLanes::Slot& PoseLanes::holding(std::uint32_t j) noexcept {
    const auto block = static_cast<std::uint32_t>(j / kBlockJoints);
    const std::uint32_t bit = 1u << (j % kBlockJoints);
    Slot& slot = slotFor(block);
    if ((slot.read & bit) == 0) {
        Rows rows;
        for (std::size_t l = 0; l < L; ++l) rows[l] = poses_[l]->component(SoaComponent::Tx) + block * kBlockJoints;
#ifdef KINEMA_HAS_X86_KERNELS
        if (moves_ != BlockMoves::OneByOne) {
            if (moves_ == BlockMoves::Full) {
                readBlock(rows, stride_, slot.joints);
            } else {
                halfReadBlock(rows, stride_, slot.joints);
            }
            slot.read = ~0u;
        }
#endif
        if ((slot.read & bit) == 0) {
            readJoints(rows, stride_, bit, slot.joints);
            slot.read |= bit;
        }
    }
    return slot;
}

const LaneFrame& PoseLanes::joint(std::uint32_t j) noexcept { return holding(j).joints[j % kBlockJoints]; }

void PoseLanes::setRotation(std::uint32_t j, const LaneQuat& q, std::uint32_t lanes) noexcept {
    // Read first: the lanes not set keep the poses' values, which a write-back repeats.
    Slot& slot = holding(j);
    LaneQuat& r = slot.joints[j % kBlockJoints].r;
    if ((lanes & allLanes_) == allLanes_) {
        r = q;  // lanes past the poses hold the first pose's copy, never written back
    } else {
        for (std::size_t l = 0; l < L; ++l) {
            if ((lanes >> l & 1u) != 0) r.set(l, q[l]);
        }
    }
    slot.changed |= 1u << (j % kBlockJoints);
}

void PoseLanes::writeBack(Slot& slot) noexcept {
    if (slot.changed == 0) return;
    Rows rows;
    for (std::size_t l = 0; l < L; ++l) rows[l] = poses_[l]->component(SoaComponent::Tx) + slot.block * kBlockJoints;
#ifdef KINEMA_HAS_X86_KERNELS
    if (slot.read == ~0u && moves_ != BlockMoves::OneByOne) {
        if (moves_ == BlockMoves::Full) {
            writeBlockRotations(rows, stride_, count_, slot.joints);
        } else {
            halfWriteBlockRotations(rows, stride_, count_, slot.changed, slot.joints);
        }
        slot.changed = 0;
        return;
    }
#endif
    writeRotations(rows, stride_, count_, slot.changed, slot.joints);
    slot.changed = 0;
}

void PoseLanes::flush() noexcept {
    for (Slot& s : slots_) {
        writeBack(s);
        s.block = kNoBlock;
        s.read = 0;
        s.used = 0;
    }
}

}  // namespace kinema::detail
