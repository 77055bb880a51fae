// Test helper: where the shared Khronos glTF sample models are.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace kinema::test {

// The folder holding the sample model folders: $KINEMA_ASSETS when set, else
// ../shared/assets/gltf beside the repository. nullopt when it does not exist.
std::optional<std::filesystem::path> assetRoot();

// assetRoot() / relative, or nullopt when absent (the caller skips visibly).
std::optional<std::filesystem::path> assetPath(const std::string& relative);

}  // namespace kinema::test

// Skips the current test with a visible message when a shared model is absent.
#define KINEMA_REQUIRE_ASSET(var, relative)                                                            \
    const auto var##_opt = ::kinema::test::assetPath(relative);                                        \
    if (!var##_opt) GTEST_SKIP() << "shared asset " << (relative) << " not found (set KINEMA_ASSETS)"; \
    const std::filesystem::path var = *var##_opt
