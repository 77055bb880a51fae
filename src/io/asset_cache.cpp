#include "kinema/io/asset_cache.hpp"

#include <system_error>

namespace kinema {

namespace {

// The key a file is cached under; the path as given when it cannot be resolved
// (the import then reports the real problem).
std::filesystem::path keyOf(const std::filesystem::path& path) {
    std::error_code ec;
    auto canonical = std::filesystem::weakly_canonical(path, ec);
    return ec ? path : canonical;
}

}  // namespace

Result<std::shared_ptr<const Model>> AssetCache::load(const std::filesystem::path& path) {
    const auto key = keyOf(path);
    if (const auto it = models_.find(key); it != models_.end()) return it->second;
    auto imported = importGltfFile(path, options_);
    if (!imported) return std::vector<Fault>(imported.faults().begin(), imported.faults().end());
    auto model = std::make_shared<const Model>(std::move(imported).value());
    models_.emplace(key, model);
    for (std::size_t i = 0; i < model->clips.size(); ++i) {
        const std::string name(model->clips[i].name());
        if (!name.empty()) registerClip(name, model, i);
    }
    return model;
}

std::shared_ptr<const Model> AssetCache::find(const std::filesystem::path& path) const {
    const auto it = models_.find(keyOf(path));
    return it == models_.end() ? nullptr : it->second;
}

std::optional<ClipHandle> AssetCache::clip(std::string_view name) const {
    const auto it = clips_.find(name);
    if (it == clips_.end()) return std::nullopt;
    return it->second;
}

bool AssetCache::registerClip(std::string name, std::shared_ptr<const Model> model, std::size_t index) {
    if (!model || index >= model->clips.size()) return false;
    const Clip* clip = &model->clips[index];
    return clips_.try_emplace(std::move(name), ClipHandle{std::move(model), clip}).second;
}

void AssetCache::clear() noexcept {
    models_.clear();
    clips_.clear();
}

}  // namespace kinema
