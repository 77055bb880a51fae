#include "gpu_memory.hpp"

#include <cstring>
#include <utility>

namespace kinema::detail {
namespace {

// A memory type allowed by `typeBits` with every flag of `wanted`, or -1.
int findMemoryType(const VulkanDevice& device, std::uint32_t typeBits, VkMemoryPropertyFlags wanted) {
    for (std::uint32_t i = 0; i < device.memory.memoryTypeCount; ++i) {
        if ((typeBits & (1u << i)) != 0 && (device.memory.memoryTypes[i].propertyFlags & wanted) == wanted)
            return static_cast<int>(i);
    }
    return -1;
}

Result<VkDeviceMemory> allocate(const VulkanDevice& device, const VkMemoryRequirements& needs, bool hostVisible) {
    int type = -1;
    if (hostVisible) {
        type = findMemoryType(device, needs.memoryTypeBits,
                              VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    } else {
        type = findMemoryType(device, needs.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        if (type < 0) type = findMemoryType(device, needs.memoryTypeBits, 0);
    }
    if (type < 0) return Fault{"gpu", "no memory type fits the resource"};
    VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    info.allocationSize = needs.size;
    info.memoryTypeIndex = static_cast<std::uint32_t>(type);
    VkDeviceMemory memory = VK_NULL_HANDLE;
    if (VkResult r = vkAllocateMemory(device.device, &info, nullptr, &memory); r != VK_SUCCESS)
        return vulkanFault("vkAllocateMemory", r);
    return memory;
}

}  // namespace

Result<GpuBuffer> GpuBuffer::create(const VulkanDevice& device, VkDeviceSize size, VkBufferUsageFlags usage,
                                    bool hostVisible) {
    GpuBuffer b;
    b.device_ = device.device;
    b.size_ = size;
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size > 0 ? size : 16;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    if (VkResult r = vkCreateBuffer(device.device, &info, nullptr, &b.buffer_); r != VK_SUCCESS)
        return vulkanFault("vkCreateBuffer", r);
    VkMemoryRequirements needs;
    vkGetBufferMemoryRequirements(device.device, b.buffer_, &needs);
    auto memory = allocate(device, needs, hostVisible);
    if (!memory) return std::vector<Fault>(memory.faults().begin(), memory.faults().end());
    b.memory_ = *memory;
    if (VkResult r = vkBindBufferMemory(device.device, b.buffer_, b.memory_, 0); r != VK_SUCCESS)
        return vulkanFault("vkBindBufferMemory", r);
    if (hostVisible) {
        void* data = nullptr;
        if (VkResult r = vkMapMemory(device.device, b.memory_, 0, VK_WHOLE_SIZE, 0, &data); r != VK_SUCCESS)
            return vulkanFault("vkMapMemory", r);
        b.mapped_ = static_cast<std::byte*>(data);
    }
    return b;
}

void GpuBuffer::reset() noexcept {
    if (device_ == VK_NULL_HANDLE) return;
    if (buffer_ != VK_NULL_HANDLE) vkDestroyBuffer(device_, buffer_, nullptr);
    if (memory_ != VK_NULL_HANDLE) vkFreeMemory(device_, memory_, nullptr);
    buffer_ = VK_NULL_HANDLE;
    memory_ = VK_NULL_HANDLE;
    mapped_ = nullptr;
    size_ = 0;
}

void GpuBuffer::swap(GpuBuffer& other) noexcept {
    std::swap(device_, other.device_);
    std::swap(buffer_, other.buffer_);
    std::swap(memory_, other.memory_);
    std::swap(size_, other.size_);
    std::swap(mapped_, other.mapped_);
}

Result<GpuImage> GpuImage::create(const VulkanDevice& device, std::uint32_t width, std::uint32_t height,
                                  VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect) {
    GpuImage img;
    img.device_ = device.device;
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = {width, height, 1};
    info.mipLevels = 1;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    if (VkResult r = vkCreateImage(device.device, &info, nullptr, &img.image_); r != VK_SUCCESS)
        return vulkanFault("vkCreateImage", r);
    VkMemoryRequirements needs;
    vkGetImageMemoryRequirements(device.device, img.image_, &needs);
    auto memory = allocate(device, needs, false);
    if (!memory) return std::vector<Fault>(memory.faults().begin(), memory.faults().end());
    img.memory_ = *memory;
    if (VkResult r = vkBindImageMemory(device.device, img.image_, img.memory_, 0); r != VK_SUCCESS)
        return vulkanFault("vkBindImageMemory", r);
    VkImageViewCreateInfo viewInfo{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    viewInfo.image = img.image_;
    viewInfo.viewType = VK_IMAGE_VIEW_TYPE_2D;
    viewInfo.format = format;
    viewInfo.subresourceRange = {aspect, 0, 1, 0, 1};
    if (VkResult r = vkCreateImageView(device.device, &viewInfo, nullptr, &img.view_); r != VK_SUCCESS)
        return vulkanFault("vkCreateImageView", r);
    return img;
}

void GpuImage::reset() noexcept {
    if (device_ == VK_NULL_HANDLE) return;
    if (view_ != VK_NULL_HANDLE) vkDestroyImageView(device_, view_, nullptr);
    if (image_ != VK_NULL_HANDLE) vkDestroyImage(device_, image_, nullptr);
    if (memory_ != VK_NULL_HANDLE) vkFreeMemory(device_, memory_, nullptr);
    view_ = VK_NULL_HANDLE;
    image_ = VK_NULL_HANDLE;
    memory_ = VK_NULL_HANDLE;
}

void GpuImage::swap(GpuImage& other) noexcept {
    std::swap(device_, other.device_);
    std::swap(image_, other.image_);
    std::swap(view_, other.view_);
    std::swap(memory_, other.memory_);
}

void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags srcStage, VkAccessFlags srcAccess,
                   VkPipelineStageFlags dstStage, VkAccessFlags dstAccess) {
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = srcAccess;
    barrier.dstAccessMask = dstAccess;
    vkCmdPipelineBarrier(cmd, srcStage, dstStage, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

Result<GpuBuffer> uploadBuffer(const VulkanDevice& device, VkCommandPool pool, std::span<const std::byte> bytes,
                               VkBufferUsageFlags usage) {
    auto staging = GpuBuffer::create(device, bytes.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
    if (!staging) return std::vector<Fault>(staging.faults().begin(), staging.faults().end());
    if (!bytes.empty()) std::memcpy(staging->mapped(), bytes.data(), bytes.size());
    auto target = GpuBuffer::create(device, bytes.size(), usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, false);
    if (!target) return target;
    auto done = submitAndWait(device, pool, [&](VkCommandBuffer cmd) {
        if (bytes.empty()) return;
        VkBufferCopy region{0, 0, bytes.size()};
        vkCmdCopyBuffer(cmd, staging->handle(), target->handle(), 1, &region);
        // Later submissions read it in any stage: make the copy visible to all.
        memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_READ_BIT);
    });
    if (!done) return std::vector<Fault>(done.faults().begin(), done.faults().end());
    return target;
}

Result<GpuImage> uploadImage(const VulkanDevice& device, VkCommandPool pool, std::uint32_t width, std::uint32_t height,
                             std::span<const std::uint8_t> pixels) {
    auto staging = GpuBuffer::create(device, pixels.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
    if (!staging) return std::vector<Fault>(staging.faults().begin(), staging.faults().end());
    std::memcpy(staging->mapped(), pixels.data(), pixels.size());
    auto image =
        GpuImage::create(device, width, height, VK_FORMAT_R8G8B8A8_SRGB,
                         VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
    if (!image) return image;
    auto done = submitAndWait(device, pool, [&](VkCommandBuffer cmd) {
        VkImageMemoryBarrier toCopy{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
        toCopy.srcAccessMask = 0;
        toCopy.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        toCopy.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        toCopy.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        toCopy.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        toCopy.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        toCopy.image = image->handle();
        toCopy.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                             nullptr, 1, &toCopy);
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.imageExtent = {width, height, 1};
        vkCmdCopyBufferToImage(cmd, staging->handle(), image->handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                               &region);
        VkImageMemoryBarrier toRead = toCopy;
        toRead.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        toRead.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
        toRead.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        toRead.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0, nullptr,
                             0, nullptr, 1, &toRead);
    });
    if (!done) return std::vector<Fault>(done.faults().begin(), done.faults().end());
    return image;
}

}  // namespace kinema::detail
