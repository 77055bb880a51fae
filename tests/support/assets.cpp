#include "support/assets.hpp"

#include <cstdlib>

namespace kinema::test {

std::optional<std::filesystem::path> assetRoot() {
    std::filesystem::path root;
    if (const char* env = std::getenv("KINEMA_ASSETS"); env && *env) {
        root = env;
    } else {
        root = KINEMA_DEFAULT_ASSETS;
    }
    std::error_code ec;
    if (!std::filesystem::is_directory(root, ec)) return std::nullopt;
    return root;
}

std::optional<std::filesystem::path> assetPath(const std::string& relative) {
    const auto root = assetRoot();
    if (!root) return std::nullopt;
    const auto p = *root / relative;
    std::error_code ec;
    if (!std::filesystem::exists(p, ec)) return std::nullopt;
    return p;
}

}  // namespace kinema::test
