// The Vulkan objects behind a GpuContext: instance, debug messenger, device, queue.
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "kinema/core/result.hpp"
#include "kinema/gpu/gpu_context.hpp"

namespace kinema::detail {

struct VulkanDevice {
    VkInstance instance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    std::uint32_t queueFamily = 0;
    VkPhysicalDeviceProperties properties{};
    VkPhysicalDeviceMemoryProperties memory{};
    std::uint32_t timestampValidBits = 0;
    // The compute rasteriser's features were present and are enabled: 64-bit integers
    // and 64-bit buffer atomics (the visibility buffer).
    bool computeRaster = false;
    GpuDeviceInfo info;

    std::atomic<std::uint64_t> messageCount{0};
    mutable std::mutex messagesMutex;
    std::vector<std::string> messages;

    VulkanDevice() = default;
    VulkanDevice(const VulkanDevice&) = delete;
    VulkanDevice& operator=(const VulkanDevice&) = delete;
    ~VulkanDevice();

    void record(std::string message);
};

// Instance and device extensions beyond kinema's own (a window's surface and swapchain).
struct ContextExtensions {
    std::vector<const char*> instance;
    std::vector<const char*> device;
};

// "VK_ERROR_OUT_OF_DEVICE_MEMORY" and the like.
const char* resultName(VkResult result) noexcept;

// A fault for a failed Vulkan call: where "gpu", what "<call> failed: <result>".
Fault vulkanFault(const char* call, VkResult result);

}  // namespace kinema::detail
