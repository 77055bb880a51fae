// libFuzzer target: arbitrary bytes as a cooked model file (include/kinema/io/cooked.hpp).
//
// A mutated file almost never matches its checksum, so the target first makes the
// header's size (bytes 16..23) and checksum (bytes 32..39) fields agree with the
// input: the fuzzer then reaches the structure and validation checks behind them.
//
// Beyond "no crash, no sanitizer report", each run checks the reader's contract: a
// rejection carries faults located in the input; an accepted file gives a
// consistent model whose cooked form reads back, and cooking that again gives the
// same bytes (reading and writing reach a fixed point after one round). Each
// compressed clip accepted packs for the SIMD sampler and samples.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "kinema/io/cooked.hpp"
#include "kinema/runtime/packed_clip.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "kinema/runtime/soa_pose.hpp"

namespace {

constexpr std::size_t kHeaderBytes = 48;
const std::string kSource = "fuzz.kinc";

[[noreturn]] void contractBroken(const char* what, const std::string& detail) {
    std::fprintf(stderr, "kinema cooked fuzz: %s: %s\n", what, detail.c_str());
    std::abort();
}

void putU64(std::vector<std::byte>& bytes, std::size_t at, std::uint64_t value) {
    for (std::size_t i = 0; i < 8; ++i) bytes[at + i] = static_cast<std::byte>((value >> (8 * i)) & 0xffu);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::byte> bytes(size);
    if (size != 0) std::memcpy(bytes.data(), data, size);
    if (size >= kHeaderBytes) {
        putU64(bytes, 16, size);
        // The checksum is the FNV-1a 64 (which sourceHash computes) of the file
        // without its own field: bytes [0, 32) then [40, end).
        std::vector<std::byte> covered(bytes.begin(), bytes.begin() + 32);
        covered.insert(covered.end(), bytes.begin() + 40, bytes.end());
        putU64(bytes, 32, kinema::sourceHash(covered));
    }
    auto cookedFile = kinema::readCooked(bytes, kSource);
    if (!cookedFile) {
        for (const kinema::Fault& f : cookedFile.faults()) {
            if (f.where.rfind(kSource + "@byte ", 0) != 0 && f.where.rfind(kSource + "#", 0) != 0) {
                contractBroken("fault not located in the input", f.where);
            }
            if (f.what.empty()) contractBroken("a fault without a message", f.where);
        }
        return 0;
    }
    const kinema::Model& read = cookedFile->model;
    const auto& compressed = cookedFile->compressedClips;
    if (read.source != kSource) contractBroken("source not kept", read.source);
    if (compressed.size() != read.clips.size()) contractBroken("a compressed form per clip", "");
    const auto faults = kinema::findModelFaults(read);
    if (!faults.empty()) contractBroken("an inconsistent model accepted", kinema::describe(faults));
    const auto hash = kinema::cookedSourceHash(bytes, kSource);
    if (!hash) contractBroken("an accepted file's header refused", hash.message());

    const kinema::PoseKernels kernels;
    for (std::size_t c = 0; c < read.clips.size(); ++c) {
        if (compressed[c].tracks.empty()) continue;
        auto packed = kinema::PackedClip::fromCompressed(compressed[c], read.clips[c]);
        if (!packed) contractBroken("an accepted compressed clip does not pack", packed.message());
        kinema::SoaPose pose(packed->jointsNeeded(), packed->weightsNeeded());
        kinema::PackedClipCursor cursor(*packed);
        for (const double t : {0.0, 0.5 * packed->duration(), double(packed->duration())}) {
            if (!kernels.sample(*packed, t, cursor, pose)) contractBroken("a packed clip does not sample", "");
        }
    }

    const std::vector<std::byte> cooked = kinema::cookModel(*cookedFile, *hash);
    auto again = kinema::readCooked(cooked, "recooked.kinc");
    if (!again) contractBroken("a re-cooked model does not read back", again.message());
    if (kinema::cookModel(*again, *hash) != cooked) contractBroken("re-cooking changed the bytes", "");
    return 0;
}
