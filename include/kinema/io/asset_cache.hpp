// kinema/io: an asset cache (seed feature B4). It loads each file once and hands out
// shared, immutable models; clips are registered by name as their files load, so a
// state machine or a script can ask for "walk" without knowing which file holds it.
// A failed load is not cached: once the file is repaired, the next load() reads it.
// It is an ordinary object: make one per world, per editor, per test.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "kinema/asset/model.hpp"
#include "kinema/core/result.hpp"
#include "kinema/io/gltf.hpp"

namespace kinema {

// A clip and the model that owns it (kept alive by the shared pointer).
struct ClipHandle {
    std::shared_ptr<const Model> model;
    const Clip* clip = nullptr;
};

class AssetCache {
public:
    explicit AssetCache(ImportOptions options = {}) : options_(std::move(options)) {}

    // The model of `path`, imported on the first call and shared afterwards. Files
    // are told apart by their canonical path, so "a/../x.glb" and "x.glb" are one.
    // Each clip of a newly loaded model is registered under its name unless the
    // name is empty or already taken (the first file to register a name keeps it).
    Result<std::shared_ptr<const Model>> load(const std::filesystem::path& path);

    // The model of a file already loaded, or null.
    std::shared_ptr<const Model> find(const std::filesystem::path& path) const;

    // The clip registered under `name`.
    std::optional<ClipHandle> clip(std::string_view name) const;
    // Registers clip `index` of `model` under `name`; false when the name is taken
    // or the index is out of range.
    bool registerClip(std::string name, std::shared_ptr<const Model> model, std::size_t index);

    std::size_t modelCount() const noexcept { return models_.size(); }
    // Forgets every model and name; handles already given out stay valid.
    void clear() noexcept;

private:
    ImportOptions options_;
    std::map<std::filesystem::path, std::shared_ptr<const Model>> models_;
    std::map<std::string, ClipHandle, std::less<>> clips_;
};

}  // namespace kinema
