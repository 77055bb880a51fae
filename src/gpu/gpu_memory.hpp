// Buffers and images with their own memory, and one-off command submission: the
// small set of Vulkan chores the renderer repeats. Every object is move-only and
// frees itself.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include "kinema/core/result.hpp"
#include "vulkan_device.hpp"

namespace kinema::detail {

class GpuBuffer {
public:
    GpuBuffer() = default;
    GpuBuffer(GpuBuffer&& other) noexcept { swap(other); }
    GpuBuffer& operator=(GpuBuffer&& other) noexcept {
        GpuBuffer moved(std::move(other));
        swap(moved);
        return *this;
    }
    ~GpuBuffer() { reset(); }

    // Host-visible buffers stay mapped (mapped() != nullptr) and are coherent.
    static Result<GpuBuffer> create(const VulkanDevice& device, VkDeviceSize size, VkBufferUsageFlags usage,
                                    bool hostVisible);

    void reset() noexcept;
    VkBuffer handle() const noexcept { return buffer_; }
    VkDeviceSize size() const noexcept { return size_; }
    std::byte* mapped() const noexcept { return mapped_; }

private:
    void swap(GpuBuffer& other) noexcept;
    VkDevice device_ = VK_NULL_HANDLE;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    VkDeviceSize size_ = 0;
    std::byte* mapped_ = nullptr;
};

class GpuImage {
public:
    GpuImage() = default;
    GpuImage(GpuImage&& other) noexcept { swap(other); }
    GpuImage& operator=(GpuImage&& other) noexcept {
        GpuImage moved(std::move(other));
        swap(moved);
        return *this;
    }
    ~GpuImage() { reset(); }

    // A 2D image of one mip level with a view of `aspect`.
    static Result<GpuImage> create(const VulkanDevice& device, std::uint32_t width, std::uint32_t height,
                                   VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect);

    void reset() noexcept;
    VkImage handle() const noexcept { return image_; }
    VkImageView view() const noexcept { return view_; }

private:
    void swap(GpuImage& other) noexcept;
    VkDevice device_ = VK_NULL_HANDLE;
    VkImage image_ = VK_NULL_HANDLE;
    VkImageView view_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
};

// Records commands into a fresh command buffer of `pool`, submits it and waits.
template <class Record>
Result<bool> submitAndWait(const VulkanDevice& device, VkCommandPool pool, Record&& record);

// A buffer of `bytes` copied into device memory through a staging buffer.
Result<GpuBuffer> uploadBuffer(const VulkanDevice& device, VkCommandPool pool, std::span<const std::byte> bytes,
                               VkBufferUsageFlags usage);

// A sampled RGBA8 image (sRGB) holding `pixels`, left in SHADER_READ_ONLY_OPTIMAL.
Result<GpuImage> uploadImage(const VulkanDevice& device, VkCommandPool pool, std::uint32_t width, std::uint32_t height,
                             std::span<const std::uint8_t> pixels);

// One memory barrier between two stages (the common case: a whole-resource hazard).
void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags srcStage, VkAccessFlags srcAccess,
                   VkPipelineStageFlags dstStage, VkAccessFlags dstAccess);

template <class Record>
Result<bool> submitAndWait(const VulkanDevice& device, VkCommandPool pool, Record&& record) {
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    if (VkResult r = vkAllocateCommandBuffers(device.device, &alloc, &cmd); r != VK_SUCCESS)
        return vulkanFault("vkAllocateCommandBuffers", r);
    VkFence fence = VK_NULL_HANDLE;
    auto release = [&] {
        if (fence != VK_NULL_HANDLE) vkDestroyFence(device.device, fence, nullptr);
        vkFreeCommandBuffers(device.device, pool, 1, &cmd);
    };
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cmd, &begin);
    record(cmd);
    VkResult r = vkEndCommandBuffer(cmd);
    if (r != VK_SUCCESS) {
        release();
        return vulkanFault("vkEndCommandBuffer", r);
    }
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    r = vkCreateFence(device.device, &fenceInfo, nullptr, &fence);
    if (r == VK_SUCCESS) {
        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &cmd;
        r = vkQueueSubmit(device.queue, 1, &submit, fence);
        if (r == VK_SUCCESS) r = vkWaitForFences(device.device, 1, &fence, VK_TRUE, UINT64_MAX);
    }
    release();
    if (r != VK_SUCCESS) return vulkanFault("vkQueueSubmit", r);
    return true;
}

}  // namespace kinema::detail
