#include "gpu_test_support.hpp"

#include <cstdlib>
#include <memory>

namespace kinema::test {

GpuContext& testGpu() {
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
