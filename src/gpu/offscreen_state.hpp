// The inside of an OffscreenRenderer, shared with the window presenter, which
// records the same frame and then copies the image to a swapchain.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "device_resources.hpp"
#include "gpu_memory.hpp"
#include "kinema/gpu/offscreen_renderer.hpp"
#include "kinema/render/preparation.hpp"
#include "pipelines.hpp"
#include "vulkan_device.hpp"

namespace kinema {

namespace detail {
// A render target or window is 1..16384 pixels a side; else a fault at "size".
inline Result<bool> checkTargetSize(std::uint32_t width, std::uint32_t height) {
    if (width == 0 || height == 0 || width > 16384 || height > 16384) {
        return Fault{"size",
                     std::to_string(width) + "x" + std::to_string(height) + " is outside 1..16384 pixels per side"};
    }
    return true;
}
}  // namespace detail

struct OffscreenRenderer::State {
    std::shared_ptr<detail::VulkanDevice> device;
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    VkFormat depth = VK_FORMAT_UNDEFINED;
    detail::Pipelines pipelines;
    detail::GpuImage color;
    detail::GpuImage depthImage;
    VkFramebuffer framebuffer = VK_NULL_HANDLE;
    VkCommandPool commandPool = VK_NULL_HANDLE;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
    VkDescriptorPool framePool = VK_NULL_HANDLE;
    VkDescriptorSet frameSet = VK_NULL_HANDLE;
    VkDescriptorSet deformSet = VK_NULL_HANDLE;
    VkDescriptorSet computeSet = VK_NULL_HANDLE;
    detail::GpuBuffer uniforms;
    detail::GpuBuffer palettes;
    detail::GpuBuffer weights;
    detail::GpuBuffer overlayVertices;
    detail::GpuBuffer readback;
    detail::GpuBuffer computeOut;
    bool deformSetCurrent = false;
    bool frameSetCurrent = false;
    // The compute rasteriser's per-frame data (compute_raster.cpp): draw records, clip
    // positions, the visibility buffer, the sRGB-encoded colours before their copy
    // into the colour image, and the buffers its set was last written with.
    VkDescriptorSet rasterSet = VK_NULL_HANDLE;
    detail::GpuBuffer rasterDraws;
    detail::GpuBuffer clipPositions;
    detail::GpuBuffer visibility;
    detail::GpuBuffer colorWords;
    std::vector<detail::RasterDrawRecord> rasterRecords;
    std::array<VkBuffer, 9> rasterSetBuffers{};
    std::uint64_t rasterSetGeneration = 0;
    detail::GpuBuffer instances;
    std::vector<detail::InstanceRecord> records;
    RenderPreparation preparation;
    std::uint64_t builtGeneration = 0;
    detail::DeviceResources resources;
    // Per frame, reused: draw order and overlay geometry.
    std::vector<RenderObjectId> drawnObjects;  // the draw list's objects, the preparation's key
    std::vector<std::uint32_t> order;
    std::vector<float> blendDistance;
    std::vector<detail::OverlayVertex> overlay;

    ~State() {
        if (!device) return;
        const VkDevice d = device->device;
        vkDeviceWaitIdle(d);
        resources.release();
        if (framePool != VK_NULL_HANDLE) vkDestroyDescriptorPool(d, framePool, nullptr);
        if (queries != VK_NULL_HANDLE) vkDestroyQueryPool(d, queries, nullptr);
        if (fence != VK_NULL_HANDLE) vkDestroyFence(d, fence, nullptr);
        if (commandPool != VK_NULL_HANDLE) vkDestroyCommandPool(d, commandPool, nullptr);
        if (framebuffer != VK_NULL_HANDLE) vkDestroyFramebuffer(d, framebuffer, nullptr);
    }

    Result<bool> init();
    Result<bool> prepare(const FrameDesc& frame, bool& built);
    Result<bool> checkFrame(const FrameDesc& frame) const;
    void computeOrder(const FrameDesc& frame);
    Result<bool> uploadFrameData(const FrameDesc& frame);
    Result<bool> writeInstances();
    void writeDeformSet();
    detail::DrawConstants constantsOf(const FrameDesc& frame, const DrawItem& item) const;
    Result<bool> submit();
    // Records the graphics pipeline's frame: the colour image ends in TRANSFER_SRC_OPTIMAL.
    Result<bool> recordGraphics(const FrameDesc& frame, FrameStats& stats);
    // Whether the compute rasteriser draws this frame (after uploadFrameData).
    bool computeRasterFits(const FrameDesc& frame) const;
    // Records the compute rasteriser's frame: the colour image ends in TRANSFER_SRC_OPTIMAL.
    Result<bool> recordComputeRaster(const FrameDesc& frame, FrameStats& stats);

    // Set by a presenter for the next frame: commands recorded after the render pass
    // (the colour image is then in TRANSFER_SRC_OPTIMAL), and the semaphores the
    // frame's submission waits on (at the transfer stage) and signals.
    std::function<void(VkCommandBuffer, VkImage)> afterPass;
    VkSemaphore waitSemaphore = VK_NULL_HANDLE;
    VkSemaphore signalSemaphore = VK_NULL_HANDLE;
};

}  // namespace kinema
