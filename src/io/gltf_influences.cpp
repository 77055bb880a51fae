// Skinning sets (JOINTS_n / WEIGHTS_n): decoded into vertex-major influences,
// checked as the glTF-Validator checks them, and renormalised.
#include "gltf_importer.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace kinema::gltf_import {

namespace {

// One set of four influences per vertex (nearly every file): whether every vertex
// passes, in one branch-free pass that the compiler can vectorise; the slower
// pass that names the first offender runs only when one does not. Zero weights
// add nothing to a float sum, and |sum - 1| is exact in float near 1, so this
// decides exactly as the validator's double-precision comparison does.
bool influencesLookRight(const std::vector<std::uint16_t>& joints, const std::vector<float>& weights,
                         std::size_t vertexCount) {
    std::uint32_t bad = 0;
    for (std::size_t v = 0; v < vertexCount; ++v) {
        const float* w = &weights[v * 4];
        const std::uint16_t* j = &joints[v * 4];
        const bool n0 = w[0] != 0.0f, n1 = w[1] != 0.0f, n2 = w[2] != 0.0f, n3 = w[3] != 0.0f;
        const bool repeated = (n0 & n1 & (j[0] == j[1])) | (n0 & n2 & (j[0] == j[2])) | (n0 & n3 & (j[0] == j[3])) |
            (n1 & n2 & (j[1] == j[2])) | (n1 & n3 & (j[1] == j[3])) | (n2 & n3 & (j[2] == j[3]));
        const float sum = ((w[0] + w[1]) + w[2]) + w[3];
        const float tolerance = float(int(n0) + int(n1) + int(n2) + int(n3)) * float(kWeightSumTolerancePerWeight);
        bad |= std::uint32_t(repeated) | std::uint32_t(std::fabs(sum - 1.0f) > tolerance);
    }
    return bad == 0;
}

}  // namespace

// JOINTS_n / WEIGHTS_n sets into the primitive's vertex-major influence arrays,
// weights checked (finite, >= 0) and renormalised to sum to 1 per vertex.
void Importer::readInfluences(const Attributes& attrs, const Pointer& aat, std::size_t sets, std::size_t vertexCount,
                              MeshPrimitive& prim) {
    const std::size_t k = sets * 4;
    const std::size_t n = vertexCount * k;
    // Joints (2 bytes) and weights (4) per influence, and as much again for the
    // per-set staging when there is more than one set.
    if (!reserveDecoded(n * (sets == 1 ? 6 : 12), aat)) return;
    prim.influencesPerVertex = static_cast<std::uint32_t>(k);
    // One set (the common case) decodes straight into place, tightly packed
    // data copied as it is.
    const bool direct = sets == 1;
    if (!direct) {
        prim.joints.resize(n);
        prim.weights.resize(n);
    }
    std::vector<std::uint16_t> js;
    std::vector<float> ws;
    std::vector<std::size_t> jointAccessor(sets), weightAccessor(sets);
    for (std::size_t set = 0; set < sets; ++set) {
        const std::string jk = "JOINTS_" + std::to_string(set), wk = "WEIGHTS_" + std::to_string(set);
        std::uint64_t ja = 0, wa = 0;
        getUint(attrs[jk], jk, aat, ja, true);
        getUint(attrs[wk], wk, aat, wa, true);
        jointAccessor[set] = static_cast<std::size_t>(ja);
        weightAccessor[set] = static_cast<std::size_t>(wa);
        const AccessorDesc* jd =
            useAccessor(static_cast<std::int64_t>(ja), aat / jk, {{4, 1}}, kInt8 | kInt16, jk.c_str());
        const AccessorDesc* wd =
            useAccessor(static_cast<std::int64_t>(wa), aat / wk, {{4, 1}}, kFloat | kInt8Norm | kInt16Norm, wk.c_str());
        if (ja >= accessors_.size()) fault(aat / jk, "no such accessor");
        if (wa >= accessors_.size()) fault(aat / wk, "no such accessor");
        if (!jd || !wd) return;
        if (jd->count != vertexCount || wd->count != vertexCount) {
            fault(aat / (jd->count != vertexCount ? jk : wk),
                  "has " + std::to_string(jd->count != vertexCount ? jd->count : wd->count) + " elements for " +
                      std::to_string(vertexCount) + " vertices");
            return;
        }
        std::vector<std::uint16_t>& jv = direct ? prim.joints : js;
        std::vector<float>& wv = direct ? prim.weights : ws;
        if (!assignPacked(jv, gltf::packedUint16s(*jd))) {
            jv.resize(vertexCount * 4);
            const std::string problem = gltf::decodeUint16s(*jd, jv);
            if (!problem.empty()) {
                fault(aat / jk, problem);
                return;
            }
        }
        if (!assignPacked(wv, gltf::packedFloats(*wd))) {
            wv.resize(vertexCount * 4);
            const std::string problem = gltf::decodeFloats(*wd, wv);
            if (!problem.empty()) {
                fault(Pointer{} / "accessors" / static_cast<std::size_t>(wa), problem);
                return;
            }
        }
        const std::span<const float> wout = wv;
        // Negative (other than -0) or non-finite weights, found with integer
        // tests on the bits so the scan vectorises.
        std::uint32_t bad = 0;
        for (const float w : wout) {
            std::uint32_t bits;
            std::memcpy(&bits, &w, sizeof bits);
            bad |= static_cast<std::uint32_t>(bits > 0x80000000u) |
                static_cast<std::uint32_t>((bits & 0x7F800000u) == 0x7F800000u);
        }
        if (bad != 0) {
            const auto it = std::find_if(wout.begin(), wout.end(), [](float w) {
                return !(w >= 0.0f && w <= std::numeric_limits<float>::max());
            });
            fault(Pointer{} / "accessors" / static_cast<std::size_t>(wa),
                  "weight of vertex " + std::to_string((it - wout.begin()) / 4) + " is negative or not finite");
            return;
        }
        if (!direct) {
            for (std::size_t v = 0; v < vertexCount; ++v) {
                std::copy_n(&js[v * 4], 4, &prim.joints[v * k + set * 4]);
                std::copy_n(&ws[v * 4], 4, &prim.weights[v * k + set * 4]);
            }
        }
    }
    if (!checkInfluences(prim, vertexCount, sets, jointAccessor, weightAccessor)) return;
    // Renormalise: quantised weights and exporters drift from a sum of 1 (within
    // the tolerance checked above, or beyond it when lenient). Branch-free so it
    // vectorises; a sum of exactly 1 multiplies by exactly 1, an all-zero vertex
    // stays all zero. (A fixed count of 4, the common case, lets the compiler unroll it.)
    auto renormalise = [&](auto influences) {
        const std::size_t per = influences;
        for (std::size_t v = 0; v < vertexCount; ++v) {
            float* w = &prim.weights[v * per];
            float sum = 0.0f;
            for (std::size_t i = 0; i < per; ++i) sum += w[i];
            const float inv = sum > 0.0f ? 1.0f / sum : 1.0f;
            for (std::size_t i = 0; i < per; ++i) w[i] *= inv;
        }
    };
    if (k == 4)
        renormalise(std::integral_constant<std::size_t, 4>{});
    else
        renormalise(k);
}

// Per vertex, as the glTF-Validator counts it: a joint may carry a non-zero weight
// once (a repeat is a fault: which of the two the file meant is unknowable); the
// non-zero weights, summed in float in component-then-set order, are 1 within 2e-7
// each (else recoverable: renormalised when lenient).
bool Importer::checkInfluences(const MeshPrimitive& prim, std::size_t vertexCount, std::size_t sets,
                               const std::vector<std::size_t>& jointAccessor,
                               const std::vector<std::size_t>& weightAccessor) {
    const std::size_t k = sets * 4;
    std::size_t offSum = 0, firstOff = 0;
    float firstSum = 0.0f;
    if (sets == 1 && influencesLookRight(prim.joints, prim.weights, vertexCount)) return true;
    for (std::size_t v = 0; v < vertexCount; ++v) {
        const std::uint16_t* joints = &prim.joints[v * k];
        const float* weights = &prim.weights[v * k];
        float sum = 0.0f;
        double tolerance = 0.0;
        for (std::size_t r = 0; r < 4; ++r) {
            for (std::size_t set = 0; set < sets; ++set) {
                const float w = weights[set * 4 + r];
                if (w == 0.0f) continue;
                sum += w;
                tolerance += kWeightSumTolerancePerWeight;
            }
        }
        bool repeated = false;
        for (std::size_t a = 0; a < k && !repeated; ++a) {
            for (std::size_t b = a + 1; b < k; ++b) {
                repeated |= weights[a] != 0.0f && weights[b] != 0.0f && joints[a] == joints[b];
            }
        }
        if (repeated) {
            // Which joint, and in which set's accessor its second listing is.
            for (std::size_t b = 1; b < k; ++b) {
                for (std::size_t a = 0; a < b; ++a) {
                    if (weights[a] != 0.0f && weights[b] != 0.0f && joints[a] == joints[b]) {
                        fault(Pointer{} / "accessors" / jointAccessor[b / 4],
                              "vertex " + std::to_string(v) + " lists joint " + std::to_string(joints[b]) +
                                  " twice with non-zero weights");
                        return false;
                    }
                }
            }
        }
        if (std::fabs(double(sum) - 1.0) > tolerance) {
            if (offSum++ == 0) {
                firstOff = v;
                firstSum = sum;
            }
        }
    }
    if (offSum > 0) {
        recoverable(Pointer{} / "accessors" / weightAccessor[0],
                    "the skin weights of " + counted(offSum, "vertex", "vertices") +
                        " do not sum to 1 (first: vertex " + std::to_string(firstOff) + ", sum " +
                        exactNumber(firstSum) + "; tolerance 2e-7 per non-zero weight)",
                    "renormalised (a vertex with no weight at all stays unskinned at the origin)");
        if (!lenient()) return false;
    }
    return true;
}

}  // namespace kinema::gltf_import
