// kinema/io: an asset cache. It loads each file once and hands out
// shared, immutable models; clips are registered by name as their files load, so a
// state machine or a script can ask for "walk" without knowing which file holds it.
// A failed load is not cached: once the file is repaired, the next load() reads it.
// It is an ordinary object: make one per world, per editor, per test.
//
// Threads: every member function may be called concurrently, from any number of
// threads, on one cache. A model handed out is const and shared; nothing changes it
// afterwards, so any number of threads may read it (and clips through ClipHandle)
// without locking, and it lives as long as any handle to it, whatever the cache does
// later (clear(), destruction). The cache itself must outlive the calls in progress.
// The cache's lock is held only to look up and update its maps, never while a file is
// imported: imports of different files run in parallel, and an import in progress
// blocks no other call except load() of that same file, which waits for it. A
// resolver in the options is therefore called from several threads at once: it must
// be safe for that, and must not load() through this cache (that would wait on itself).
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
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
    explicit AssetCache(ImportOptions options = {});
    ~AssetCache();
    // Not copyable or movable: loads in progress refer to this cache.
    AssetCache(const AssetCache&) = delete;
    AssetCache& operator=(const AssetCache&) = delete;

    // The model of `path` (a glTF or a cooked file: loadModelFile), imported on the
    // first call and shared afterwards. Files
    // are told apart by their canonical path, so "a/../x.glb" and "x.glb" are one.
    // Each clip of a newly loaded model is registered under its name unless the
    // name is empty or already taken (the first file to finish loading keeps it).
    // A file is imported by one call at a time: calls for a file whose import is in
    // progress wait for it and return its result, the same model or the same faults
    // (or rethrow the same exception, e.g. std::bad_alloc). A failure is not kept:
    // the next load() of the path imports the file again. The import's warnings come
    // with the result of that import only; later loads served from the cache have none.
    Result<std::shared_ptr<const Model>> load(const std::filesystem::path& path);

    // The model of a file already loaded, or null (also while its import is in progress).
    std::shared_ptr<const Model> find(const std::filesystem::path& path) const;

    // The clip registered under `name`.
    std::optional<ClipHandle> clip(std::string_view name) const;
    // Registers clip `index` of `model` under `name`; false when the name is taken
    // or the index is out of range. Of concurrent calls for one free name, exactly
    // one succeeds, and every later clip(name) sees its clip.
    bool registerClip(std::string name, std::shared_ptr<const Model> model, std::size_t index);

    // Models loaded (imports in progress not counted).
    std::size_t modelCount() const noexcept;
    // Forgets every model and name; handles already given out stay valid. Imports
    // in progress finish and their callers get the model, but it is not kept and its
    // clips are not registered: it may have been read before the clear, and a clear
    // is how a host makes the cache read changed files again. A load() after clear()
    // returns imports the file anew, without waiting for an import begun before it.
    void clear() noexcept;

private:
    struct Flight;  // one import in progress, and the callers waiting for it

    ImportOptions options_;
    mutable std::mutex mutex_;  // guards the three maps below
    std::map<std::filesystem::path, std::shared_ptr<const Model>> models_;
    std::map<std::filesystem::path, std::shared_ptr<Flight>> inFlight_;
    std::map<std::string, ClipHandle, std::less<>> clips_;
};

}  // namespace kinema
