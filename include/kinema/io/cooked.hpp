// kinema/io: cooked files, a model in kinema's own binary form.
//
// A cooked file holds a skeleton (names, parents, rest pose), the node and morph
// weight layout, skins, clips (tracks, markers, user curves, length, joint names),
// state machines (their descriptions, as the JSON form gives them), and what draws
// the model (meshes, materials, textures, decoded images, scenes, cameras) as
// little-endian arrays that load with one read and bulk copies: no text, no per-key
// parsing. A clip's joint tracks are stored exact or compressed
// (runtime/clip_compression.hpp). Reading a cooked file and writing it back gives the
// same bytes; a model of exact clips reads back float for float (docs/COOKED.md).
//
// The reader trusts nothing: magic, byte order, version, size, checksum, every
// count against the bytes left, every section's length, and then the same
// validation as models built in code (Skeleton::create, Clip::create,
// findModelFaults). A fault names the file and the byte offset ("walk.kinc@byte
// 1234") or the part of the model ("walk.kinc#clips/2/tracks/5/times").
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/play/state_machine.hpp"
#include "kinema/runtime/clip_compression.hpp"
#include "kinema/core/result.hpp"

namespace kinema {

// The format version this build writes and reads.
inline constexpr std::uint32_t kCookedVersion = 3;

// The FNV-1a 64-bit hash of `bytes`: how a cooked file records its source file.
std::uint64_t sourceHash(std::span<const std::byte> bytes) noexcept;

// Whether `bytes` start as a cooked file does (its magic), whatever follows.
bool looksCooked(std::span<const std::byte> bytes) noexcept;

// A state machine a cooked file carries beside its model, by name.
struct CookedStateMachine {
    std::string name;
    StateMachineDesc desc;
};

// A cooked file's contents: the model; per clip the compressed joint tracks the file
// stores (no tracks: the clip is stored exact, and fromCompressed packs it as it is),
// model.clips[i] being the clip they
// play (decompressClip), so that PackedClip::fromCompressed(compressedClips[i],
// model.clips[i]) samples it from the integers; and state machines, each checked
// against the model's clips (StateMachineDefinition::create) when read.
struct CookedModel {
    Model model;
    std::vector<CompressedClip> compressedClips;  // empty, or one per clip
    std::vector<CookedStateMachine> stateMachines;
};

// The cooked form of `model`'s animation data, its clips stored exact. `sourceHash`
// (0: none) is kept in the header, for sourceChanged(). The model must be consistent
// (findModelFaults empty), as an import or a builder leaves it.
std::vector<std::byte> cookModel(const Model& model, std::uint64_t sourceHash = 0);
// The same for `cooked`: compressedClips[i], where it holds tracks (compressClip's
// result for clip i on the model's skeleton), is stored in place of the clip's joint
// tracks; the state machines must name the model's clips.
std::vector<std::byte> cookModel(const CookedModel& cooked, std::uint64_t sourceHash = 0);

Result<CookedModel> readCooked(std::span<const std::byte> bytes, std::string source);
Result<CookedModel> readCookedFile(const std::filesystem::path& path);

// The model a cooked file holds (readCooked's, without the compressed forms);
// `source` names it in faults and becomes Model::source.
Result<Model> readCookedModel(std::span<const std::byte> bytes, std::string source);
Result<Model> readCookedModelFile(const std::filesystem::path& path);

// The source hash a cooked file's header records (0: none), after checking the
// header alone.
Result<std::uint64_t> cookedSourceHash(std::span<const std::byte> bytes, std::string source);

// Whether the cooked file at `cooked` was made from other bytes than `source` now
// holds (or records no source at all).
Result<bool> sourceChanged(const std::filesystem::path& cooked, const std::filesystem::path& source);

}  // namespace kinema
