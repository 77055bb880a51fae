#include "gpu_test_support.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <memory>

namespace kinema::test {

GpuContext& testGpu() {
    // Mesa's CPU driver and the validation layer keep allocations for the process's
    // lifetime. Pinned in memory (never unloaded), their frames can still be named when
    // LeakSanitizer reports at exit, so tests/gpu/lsan.supp can suppress them by library.
    for (const char* library : {"libvulkan_lvp.so", "libVkLayer_khronos_validation.so"})
        dlopen(library, RTLD_NOW | RTLD_NODELETE);
    static std::unique_ptr<GpuContext> context = [] {
        GpuOptions options;
        const char* wanted = std::getenv("KINEMA_TEST_GPU");
        options.device = wanted != nullptr ? wanted : "lavapipe";
        options.validation = true;
        options.synchronizationValidation = true;
        auto made = GpuContext::create(options);
        if (!made) {
            ADD_FAILURE() << "no GPU for the tests: " << made.message();
            std::abort();
        }
        return std::make_unique<GpuContext>(std::move(*made));
    }();
    return *context;
}

}  // namespace kinema::test
