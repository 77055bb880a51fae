// The compute rasteriser's frame (offscreen_renderer.hpp, docs/GPU.md): one record per
// draw, then three dispatches in the frame's command buffer (transform, raster,
// resolve) and the copy of the encoded colours into the colour image.
#include <algorithm>
#include <array>
#include <cstring>
#include <span>
#include <tuple>

#include "offscreen_state.hpp"

namespace kinema {

using namespace detail;

namespace {

std::vector<Fault> faultsOf(std::span<const Fault> faults) { return {faults.begin(), faults.end()}; }

// A buffer that grows to at least `bytes` (never shrinks), to a power of two where
// that stays inside the device's storage buffer range.
Result<bool> grow(const VulkanDevice& device, GpuBuffer& buffer, VkDeviceSize bytes, VkBufferUsageFlags usage,
                  bool hostVisible) {
    if (buffer.handle() != VK_NULL_HANDLE && buffer.size() >= bytes) return true;
    VkDeviceSize size = 256;
    while (size < bytes) size *= 2;
    if (size > device.properties.limits.maxStorageBufferRange) size = bytes;
    auto grown = GpuBuffer::create(device, size, usage, hostVisible);
    if (!grown) return faultsOf(grown.faults());
    buffer = std::move(*grown);
    return false;
}

float determinant3(const Mat4& m) {
    const auto& a = m.m;
    return a[0] * (a[5] * a[10] - a[6] * a[9]) - a[4] * (a[1] * a[10] - a[2] * a[9]) +
        a[8] * (a[1] * a[6] - a[2] * a[5]);
}

// `groups` workgroups; past 65535 the grid takes a second dimension.
void dispatchGroups(VkCommandBuffer cmd, std::uint64_t groups) {
    const std::uint64_t x = std::min<std::uint64_t>(groups, 32768);
    vkCmdDispatch(cmd, static_cast<std::uint32_t>(x), static_cast<std::uint32_t>((groups + x - 1) / x), 1);
}

// One thread per item in groups of 64.
void dispatchFlat(VkCommandBuffer cmd, std::uint64_t threads) { dispatchGroups(cmd, (threads + 63) / 64); }

}  // namespace

bool OffscreenRenderer::State::computeRasterFits(const FrameDesc& frame) const {
    if (frame.raster != RasterPath::Compute || !pipelines.hasComputeRaster() || rasterSet == VK_NULL_HANDLE ||
        resources.textureArraySet() == VK_NULL_HANDLE || !overlay.empty())
        return false;
    const RenderCatalogue& catalogue = *frame.catalogue;
    std::uint64_t vertices = 0, triangles = 0, mostVertices = 0;
    for (const DrawItem& item : frame.draws->items) {
        const RenderObjectDesc& object = catalogue.at(item.object);
        if (catalogue.at(object.material).alphaMode != AlphaMode::Opaque) return false;
        const DeviceMesh& mesh = resources.mesh(object.mesh);
        vertices += mesh.vertexCount;
        triangles += mesh.indexCount / 3;
        mostVertices = std::max<std::uint64_t>(mostVertices, mesh.vertexCount);
    }
    // The per-draw pass keeps no clip positions in memory.
    if (pipelines.rasterDrawsFit(mostVertices)) vertices = 0;
    // Triangle ids are 32 bits with all ones meaning "empty"; every buffer must fit one binding.
    const std::uint64_t range = device->properties.limits.maxStorageBufferRange;
    const std::uint64_t pixels = std::uint64_t{width} * height;
    return triangles < 0xFFFFFFFFull && vertices * 16 <= range && pixels * 8 <= range &&
        frame.draws->items.size() * sizeof(RasterDrawRecord) <= range;
}

Result<bool> OffscreenRenderer::State::recordComputeRaster(const FrameDesc& frame, FrameStats& stats) {
    const DrawList& list = *frame.draws;
    const RenderCatalogue& catalogue = *frame.catalogue;
    const VulkanDevice& dev = *device;

    // --- one record per draw, in draw order; vertices and triangles numbered across the frame
    rasterRecords.clear();
    std::uint32_t vertexBase = 0, triangleBase = 0, mostVertices = 0;
    stats.draws = 0;
    stats.drawCalls = 0;
    for (std::uint32_t index : order) {
        const DrawItem& item = list.items[index];
        const RenderObjectDesc& object = catalogue.at(item.object);
        const MaterialDesc& material = catalogue.at(object.material);
        const DeviceMesh& mesh = resources.mesh(object.mesh);
        const DrawConstants c = constantsOf(frame, item);
        RasterDrawRecord r{};
        r.world = item.world.m;
        r.baseColor = c.baseColor;
        r.paletteBase = item.paletteOffset;
        r.weightBase = item.weightOffset;
        r.vertexBase = vertexBase;
        r.triangleBase = triangleBase;
        r.firstIndex = mesh.firstIndex;
        r.triangleCount = mesh.indexCount / 3;
        r.vertexCount = mesh.vertexCount;
        r.flags = c.flags;
        r.skinBase = c.skinBase;
        r.influences = c.influences;
        r.morphBase = c.morphBase;
        r.morphTargets = c.morphTargets;
        // The graphics pipeline's culling: single-sided materials cull back faces, and a
        // rigid draw whose world matrix mirrors swaps the front winding.
        const bool deform = (c.flags & kFlagSkinned) != 0 || c.morphTargets > 0;
        if (!material.doubleSided) r.flags |= kRasterCullBack;
        if (!deform && determinant3(item.world) < 0.0f) r.flags |= kRasterClockwise;
        r.positions = static_cast<std::uint32_t>(mesh.positions / 4);
        r.normals = static_cast<std::uint32_t>(mesh.normals / 4);
        r.texcoords = static_cast<std::uint32_t>(mesh.texcoords / 4);
        r.colors = static_cast<std::uint32_t>(mesh.colors / 4);
        r.material = resources.textureSlot(object.material);
        rasterRecords.push_back(r);
        mostVertices = std::max(mostVertices, mesh.vertexCount);
        vertexBase += mesh.vertexCount;
        triangleBase += r.triangleCount;
        if (r.triangleCount > 0) ++stats.draws;
        if (deform) stats.deformationBound = true;
    }

    // Draws whose vertices fit a workgroup's shared memory are transformed and
    // rasterised by one pass, a workgroup per draw; otherwise two passes, a thread per
    // vertex and then per triangle, meet through the clip positions in memory.
    const bool perDraw = pipelines.rasterDrawsFit(mostVertices);

    // --- buffers: grown to the frame, the set written again when one was replaced
    const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    const VkDeviceSize pixels = VkDeviceSize{width} * height;
    const VkDeviceSize recordBytes = std::max<std::size_t>(rasterRecords.size(), 1) * sizeof(RasterDrawRecord);
    for (auto [buffer, bytes, usage, host] :
         {std::tuple{&rasterDraws, recordBytes, storage, true},
          std::tuple{&clipPositions, std::max<VkDeviceSize>(perDraw ? 0 : vertexBase, 1) * 16, storage, false},
          std::tuple{&visibility, pixels * 8, storage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, false},
          std::tuple{&colorWords, pixels * 4, storage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, false},
          std::tuple{&palettes, VkDeviceSize{256}, storage, true},
          std::tuple{&weights, VkDeviceSize{256}, storage, true}}) {
        auto ok = grow(dev, *buffer, bytes, usage, host);
        if (!ok) return ok;
        if (!*ok && (buffer == &palettes || buffer == &weights)) deformSetCurrent = false;
    }
    if (!rasterRecords.empty())
        std::memcpy(rasterDraws.mapped(), rasterRecords.data(), rasterRecords.size() * sizeof(RasterDrawRecord));
    const std::array<VkBuffer, 9> buffers = {rasterDraws.handle(),
                                             palettes.handle(),
                                             weights.handle(),
                                             resources.meshData().handle(),
                                             resources.vertices().handle(),
                                             resources.indices().handle(),
                                             clipPositions.handle(),
                                             visibility.handle(),
                                             colorWords.handle()};
    if (buffers != rasterSetBuffers || rasterSetGeneration != builtGeneration) {
        VkDescriptorBufferInfo infos[10];
        infos[0] = {uniforms.handle(), 0, sizeof(FrameUniforms)};
        for (std::size_t i = 0; i < buffers.size(); ++i) infos[i + 1] = {buffers[i], 0, VK_WHOLE_SIZE};
        VkWriteDescriptorSet writes[2]{};
        writes[0].sType = writes[1].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        writes[0].dstSet = writes[1].dstSet = rasterSet;
        writes[0].dstBinding = 0;
        writes[0].descriptorCount = 1;
        writes[0].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
        writes[0].pBufferInfo = infos;
        writes[1].dstBinding = 1;
        writes[1].descriptorCount = 9;
        writes[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[1].pBufferInfo = infos + 1;
        vkUpdateDescriptorSets(dev.device, 2, writes, 0, nullptr);
        rasterSetBuffers = buffers;
        rasterSetGeneration = builtGeneration;
    }

    // --- the passes
    const VkPipelineStageFlags work = VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    // The previous frame's use of these buffers comes before this one's.
    memoryBarrier(cmd, work, VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT, work,
                  VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    // All ones: no triangle, beyond every depth.
    vkCmdFillBuffer(cmd, visibility.handle(), 0, pixels * 8, 0xFFFFFFFFu);
    const VkPipelineLayout layout = pipelines.rasterPipelineLayout();
    const VkDescriptorSet sets[] = {rasterSet, resources.textureArraySet()};
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, sets, 0, nullptr);
    RasterConstants constants;
    constants.background = frame.background;
    constants.drawCount = static_cast<std::uint32_t>(rasterRecords.size());
    constants.width = width;
    constants.height = height;
    const auto pass = [&](VkPipeline pipeline, std::uint32_t items) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        constants.itemCount = items;
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof constants, &constants);
    };
    if (vertexBase > 0 && !perDraw) {
        pass(pipelines.rasterTransform(), vertexBase);
        dispatchFlat(cmd, vertexBase);
    }
    // The pass boundaries for FrameStats::computePassMilliseconds (queries 0 and 1 are the frame's).
    if (queries != VK_NULL_HANDLE) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, queries, 2);
    memoryBarrier(cmd, work, VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    if (triangleBase > 0 && perDraw) {
        pass(pipelines.rasterDraws(), triangleBase);
        dispatchGroups(cmd, rasterRecords.size());
    } else if (triangleBase > 0) {
        pass(pipelines.rasterTriangles(), triangleBase);
        dispatchFlat(cmd, triangleBase);
    }
    if (queries != VK_NULL_HANDLE) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, queries, 3);
    memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    pass(pipelines.rasterResolve(), static_cast<std::uint32_t>(pixels));
    vkCmdDispatch(cmd, (width + 7) / 8, (height + 7) / 8, 1);

    // --- the encoded colours into the colour image, left as the graphics path leaves it
    VkMemoryBarrier written{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    written.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    written.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    VkImageMemoryBarrier toDestination{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    // The previous frame's writes of the image (either path) and its copy out come first.
    toDestination.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    toDestination.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toDestination.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    toDestination.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    toDestination.srcQueueFamilyIndex = toDestination.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    toDestination.image = color.handle();
    toDestination.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cmd,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT |
                             VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &written, 0, nullptr, 1, &toDestination);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {width, height, 1};
    vkCmdCopyBufferToImage(cmd, colorWords.handle(), color.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    VkImageMemoryBarrier toSource = toDestination;
    toSource.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toSource.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    toSource.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    toSource.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr,
                         1, &toSource);
    return true;
}

}  // namespace kinema
