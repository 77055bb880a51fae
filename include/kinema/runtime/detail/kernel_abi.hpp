// Internal: the plain data the SIMD kernels see. Kernels are compiled once per
// instruction set, each in its own translation unit with its own target flags; so
// that no inline function compiled for a wider set can be picked by the linker for
// a narrower caller, everything crossing that boundary is a plain struct or a
// function pointer, and the kernels call nothing defined outside their own TU.
#pragma once

#include <cstdint>

namespace kinema::detail {

// One block of lanes sharing a timeline, an interpolation and a path. Values are
// laid out key after key; within a key (and, for CUBICSPLINE, within each of
// in-tangent, value, out-tangent) component after component, each `paddedLanes`
// floats. The key after the last repeats it, so key k + 1 is always readable.
//
// A quantized block (LINEAR, translation, rotation or scale) holds its keys as rows
// of unsigned integers of `quantized` bytes (2 or 4) instead: row k starts at byte
// valueOffset + k * keyStride of the clip's row array, and holds the stored
// components one after another, each `paddedLanes` integers. Lane l's integer q of
// stored component c in row k is worth q * steps[i] + minimums[i], i = quantOffset +
// ((k >> segmentShift) * 3 + c) * paddedLanes + l (QuantizedLanes): each segment of
// rows has its own scales. A rotation stores the three components other than
// `dropped`, which is rebuilt (>= 0) from unit length. Padding lanes decode to 0
// (identity for a rotation).
struct PackedBlock {
    std::uint32_t timeline = 0;
    std::uint8_t path = 0;           // TrackPath
    std::uint8_t interpolation = 0;  // Interpolation
    std::uint8_t components = 0;     // 3 (translation, scale), 4 (rotation), 1 (one morph weight)
    std::uint8_t contiguous = 0;     // targets are first, first + 1, ...: full registers store directly
    std::uint32_t lanes = 0;         // tracks (or morph weights) in the block
    std::uint32_t paddedLanes = 0;   // lanes rounded up to kSoaLanes
    std::uint32_t keyStride = 0;     // floats per key
    std::uint32_t valueOffset = 0;   // first float of key 0 in the clip's value array
    std::uint32_t targetOffset = 0;  // first entry in the clip's target array (joint or weight index per lane)
    std::uint8_t quantized = 0;      // 2 or 4: keys are rows of integers of that size (above); offsets in bytes
    std::uint8_t dropped = 3;        // a quantized rotation's rebuilt component (x, y, z, w: 0-3)
    std::uint8_t segmentShift = 31;  // a quantized row k's scales are those of segment k >> segmentShift
    std::uint32_t quantOffset = 0;   // a quantized block's first entry in the QuantizedLanes arrays
};

// The quantized blocks' rows, and per stored component and lane their scale.
struct QuantizedLanes {
    const std::uint8_t* rows;
    const float* steps;
    const float* minimums;
};

// Where a timeline is at the sampled time: interval [key, key + 1), fraction u in
// [0, 1), and the interval length (for CUBICSPLINE tangents).
struct TimelinePoint {
    std::uint32_t key = 0;
    float u = 0.0f;
    float span = 0.0f;
};

// The ten component arrays of a SoaPose: c[k] == c[0] + k * lanes (SoaPose stores
// them back to back; localToModel relies on it).
struct SoaPoseView {
    float* c[10];
    float* weights;
    std::uint32_t lanes;
};

struct SoaPoseConstView {
    const float* c[10];
    const float* weights;
    std::uint32_t lanes;
};

struct SampleArgs {
    const PackedBlock* blocks;
    std::uint32_t blockCount;
    const float* values;
    const std::uint32_t* targets;
    const TimelinePoint* points;  // one per timeline
    QuantizedLanes quantized;
    SoaPoseView out;
    // Non-zero: the sampled values are not written but blended over what `out`
    // holds, exactly as blend2(out, sampled, overWeight, overMask, out) would give
    // (the sampled pose never exists in memory).
    std::uint32_t over;
    float overWeight;
    const float* overMask;
};

// KernelTable::skin's normalTransform: kinema::NormalTransform's values (checked
// in pose_kernels.cpp).
constexpr std::uint32_t kNormalsByCofactor = 0, kNormalsByBlendedMatrix = 1;

struct KernelTable {
    void (*sample)(const SampleArgs& args) noexcept;
    // out = a + (b - a) * w for translation, scale and weights; rotation is the
    // normalised shortest-arc lerp (nlerp). w = t, times mask[joint] when `mask` is
    // not null (morph weights always use t). `lanes` floats per component.
    void (*blend2)(SoaPoseConstView a, SoaPoseConstView b, float t, const float* mask, SoaPoseView out,
                   std::uint32_t lanes, std::uint32_t weightCount) noexcept;
    // Additive layer: out = base + w (pose - reference) for translation and weights,
    // base * (1 + w (pose / reference - 1)) for scale, base * nlerp(identity,
    // conj(reference) * pose, w) for rotation; w as for blend2.
    void (*add)(SoaPoseConstView base, SoaPoseConstView pose, SoaPoseConstView reference, float t, const float* mask,
                SoaPoseView out, std::uint32_t lanes, std::uint32_t weightCount) noexcept;
    // model[i] = model[parents[i]] * toMatrix(local i), 16 floats per matrix.
    void (*localToModel)(const std::int32_t* parents, SoaPoseConstView local, std::uint32_t joints,
                         float* model) noexcept;
    // out[i] = model[joints[i]] * inverseBind[i] (affine).
    void (*palette)(const float* model, const std::uint32_t* joints, const float* inverseBind, std::uint32_t count,
                    float* out) noexcept;
    // Linear-blend skinning of `count` vertices with `influences` (joint, weight)
    // pairs each; normals (when both pointers are non-null) by the cofactor matrix
    // (kNormalsByCofactor) or by the blended matrix (kNormalsByBlendedMatrix),
    // normalised. Positions and normals are 3 floats per vertex; the palette is
    // 16-byte aligned (Mat4). An output may be its own input array (in place).
    void (*skin)(const float* palette, const std::uint16_t* joints, const float* weights, std::uint32_t influences,
                 const float* positions, const float* normals, std::uint32_t count, float* outPositions,
                 float* outNormals, std::uint32_t normalTransform) noexcept;
};

extern const KernelTable kPortableKernels;
#if defined(__x86_64__) || defined(_M_X64)
#define KINEMA_HAS_X86_KERNELS 1
extern const KernelTable kSse42Kernels;
extern const KernelTable kAvx2Kernels;
extern const KernelTable kAvx512Kernels;
// The AVX-512 skinning kernel for CPUs that split 512-bit operations into two
// 256-bit halves (WideVectorCost::SplitHalves): the same results bit for bit,
// positions blended in 256-bit halves (docs/SIMD.md, "Kernels per CPU").
extern const decltype(KernelTable::skin) kAvx512SplitBlendSkin;
#endif

}  // namespace kinema::detail
