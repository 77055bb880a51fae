#include "kinema/io/asset_cache.hpp"

#include <exception>
#include <future>
#include <system_error>
#include <utility>
#include <vector>

#include "kinema/io/model_file.hpp"

namespace kinema {

namespace {

// The key a file is cached under; the path as given when it cannot be resolved
// (the import then reports the real problem).
std::filesystem::path keyOf(const std::filesystem::path& path) {
    std::error_code ec;
    auto canonical = std::filesystem::weakly_canonical(path, ec);
    return ec ? path : canonical;
}

using LoadResult = Result<std::shared_ptr<const Model>>;

}  // namespace

// The caller that created it imports the file and fulfils the promise; every other
// caller for the same key waits on the shared future, outside the cache's lock.
struct AssetCache::Flight {
    std::promise<LoadResult> promise;
    std::shared_future<LoadResult> result = promise.get_future().share();
};

AssetCache::AssetCache(ImportOptions options) : options_(std::move(options)) {}

AssetCache::~AssetCache() = default;

LoadResult AssetCache::load(const std::filesystem::path& path) {
    const auto key = keyOf(path);
    std::shared_ptr<Flight> flight;
    {
        std::unique_lock lock(mutex_);
        if (const auto it = models_.find(key); it != models_.end()) return it->second;
        if (const auto it = inFlight_.find(key); it != inFlight_.end()) {
            auto pending = it->second->result;
            lock.unlock();
            return pending.get();
        }
        flight = std::make_shared<Flight>();
        inFlight_.emplace(key, flight);
    }

    // The import runs without the lock, so other files load meanwhile.
    try {
        auto imported = loadModelFile(path, options_);
        LoadResult result = imported.ok()
            ? LoadResult(std::make_shared<const Model>(std::move(imported).value()))
            : LoadResult(std::vector<Fault>(imported.faults().begin(), imported.faults().end()));
        result.addWarnings(imported.warnings());
        const std::lock_guard lock(mutex_);
        // Still ours unless clear() ran meanwhile; then the model is not kept (see clear()).
        if (const auto it = inFlight_.find(key); it != inFlight_.end() && it->second == flight) {
            inFlight_.erase(it);
            // The model and its names appear together, before any waiter wakes, so a
            // caller that got it from load() also finds it and its clips.
            if (result.ok()) {
                const auto& model = result.value();
                models_.emplace(key, model);
                for (std::size_t i = 0; i < model->clips.size(); ++i) {
                    const std::string_view name = model->clips[i].name();
                    if (!name.empty()) clips_.try_emplace(std::string(name), ClipHandle{model, &model->clips[i]});
                }
            }
        }
        flight->promise.set_value(std::move(result));
    } catch (...) {
        // Out of memory, typically: the waiters get the same exception, and the
        // next load() of the file tries again.
        {
            const std::lock_guard lock(mutex_);
            if (const auto it = inFlight_.find(key); it != inFlight_.end() && it->second == flight) inFlight_.erase(it);
        }
        flight->promise.set_exception(std::current_exception());
        throw;
    }
    return flight->result.get();
}

std::shared_ptr<const Model> AssetCache::find(const std::filesystem::path& path) const {
    const auto key = keyOf(path);
    const std::lock_guard lock(mutex_);
    const auto it = models_.find(key);
    return it == models_.end() ? nullptr : it->second;
}

std::optional<ClipHandle> AssetCache::clip(std::string_view name) const {
    const std::lock_guard lock(mutex_);
    const auto it = clips_.find(name);
    if (it == clips_.end()) return std::nullopt;
    return it->second;
}

bool AssetCache::registerClip(std::string name, std::shared_ptr<const Model> model, std::size_t index) {
    if (!model || index >= model->clips.size()) return false;
    const Clip* clip = &model->clips[index];
    const std::lock_guard lock(mutex_);
    return clips_.try_emplace(std::move(name), ClipHandle{std::move(model), clip}).second;
}

std::size_t AssetCache::modelCount() const noexcept {
    const std::lock_guard lock(mutex_);
    return models_.size();
}

void AssetCache::clear() noexcept {
    // Taken out under the lock, destroyed after it: the last handle to a model may
    // be here, and freeing a large model should not stall other callers.
    decltype(models_) models;
    decltype(inFlight_) inFlight;
    decltype(clips_) clips;
    {
        const std::lock_guard lock(mutex_);
        models.swap(models_);
        inFlight.swap(inFlight_);
        clips.swap(clips_);
    }
}

}  // namespace kinema
