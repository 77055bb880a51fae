// `kinema render` and `kinema view` in a build without the Vulkan renderer.
#include <iostream>

#include "commands.hpp"

namespace kinema::cli {
namespace {

int unavailable(const char* command) {
    std::cerr << "kinema " << command
              << ": this kinema was built without the Vulkan renderer (KINEMA_BUILD_GPU=OFF); "
                 "rebuild with -DKINEMA_BUILD_GPU=ON (Debian: libvulkan-dev glslc)\n";
    return 1;
}

}  // namespace

int runRender(const RenderOptions&) { return unavailable("render"); }
int runView(const ViewOptions&) { return unavailable("view"); }

}  // namespace kinema::cli
