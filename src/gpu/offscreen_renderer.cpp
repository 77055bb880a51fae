#include "kinema/gpu/offscreen_renderer.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "kinema/core/counted.hpp"
#include "offscreen_state.hpp"
#include "overlay_geometry.hpp"

namespace kinema {

using namespace detail;

namespace {

std::vector<Fault> faultsOf(std::span<const Fault> faults) { return {faults.begin(), faults.end()}; }

Fault movedFrom() { return {"renderer", "moved from: it has no target to draw into"}; }

// A host-visible buffer that grows to what a frame needs (never shrinks).
Result<bool> ensureCapacity(const VulkanDevice& device, GpuBuffer& buffer, VkDeviceSize bytes,
                            VkBufferUsageFlags usage) {
    if (buffer.handle() != VK_NULL_HANDLE && buffer.size() >= bytes) return true;
    VkDeviceSize size = std::max<VkDeviceSize>(256, buffer.size());
    while (size < bytes) size *= 2;
    auto grown = GpuBuffer::create(device, size, usage, true);
    if (!grown) return faultsOf(grown.faults());
    buffer = std::move(*grown);
    return false;  // replaced: descriptors naming it must be written again
}

Result<VkFormat> depthFormat(const VulkanDevice& device) {
    for (VkFormat f : {VK_FORMAT_D32_SFLOAT, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D16_UNORM}) {
        VkFormatProperties p;
        vkGetPhysicalDeviceFormatProperties(device.physical, f, &p);
        if ((p.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) != 0) return f;
    }
    return Fault{"gpu", "the device has no depth format"};
}

float determinant3(const Mat4& m) {
    const auto& a = m.m;
    return a[0] * (a[5] * a[10] - a[6] * a[9]) - a[4] * (a[1] * a[10] - a[2] * a[9]) +
        a[8] * (a[1] * a[6] - a[2] * a[5]);
}

}  // namespace

Result<bool> OffscreenRenderer::State::init() {
    const VulkanDevice& dev = *device;
    auto format = depthFormat(dev);
    if (!format) return faultsOf(format.faults());
    depth = *format;
    if (auto made = pipelines.create(dev, depth); !made) return made;
    auto colorImage = GpuImage::create(
        dev, width, height, kColorFormat,
        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        VK_IMAGE_ASPECT_COLOR_BIT);
    if (!colorImage) return faultsOf(colorImage.faults());
    color = std::move(*colorImage);
    auto depthTarget = GpuImage::create(dev, width, height, depth, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                                        VK_IMAGE_ASPECT_DEPTH_BIT);
    if (!depthTarget) return faultsOf(depthTarget.faults());
    depthImage = std::move(*depthTarget);

    const VkImageView views[] = {color.view(), depthImage.view()};
    VkFramebufferCreateInfo fb{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fb.renderPass = pipelines.renderPass();
    fb.attachmentCount = 2;
    fb.pAttachments = views;
    fb.width = width;
    fb.height = height;
    fb.layers = 1;
    if (VkResult r = vkCreateFramebuffer(dev.device, &fb, nullptr, &framebuffer); r != VK_SUCCESS)
        return vulkanFault("vkCreateFramebuffer", r);

    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    poolInfo.queueFamilyIndex = dev.queueFamily;
    if (VkResult r = vkCreateCommandPool(dev.device, &poolInfo, nullptr, &commandPool); r != VK_SUCCESS)
        return vulkanFault("vkCreateCommandPool", r);
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = commandPool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    if (VkResult r = vkAllocateCommandBuffers(dev.device, &alloc, &cmd); r != VK_SUCCESS)
        return vulkanFault("vkAllocateCommandBuffers", r);
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if (VkResult r = vkCreateFence(dev.device, &fenceInfo, nullptr, &fence); r != VK_SUCCESS)
        return vulkanFault("vkCreateFence", r);
    if (dev.timestampValidBits > 0) {
        VkQueryPoolCreateInfo q{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        q.queryType = VK_QUERY_TYPE_TIMESTAMP;
        q.queryCount = 4;  // frame start and end, and the compute path's pass boundaries
        if (VkResult r = vkCreateQueryPool(dev.device, &q, nullptr, &queries); r != VK_SUCCESS)
            return vulkanFault("vkCreateQueryPool", r);
    }

    // The frame's sets, and the compute rasteriser's (one uniform and nine storage buffers).
    const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2},
                                          {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 19}};
    VkDescriptorPoolCreateInfo framePoolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    framePoolInfo.maxSets = 4;
    framePoolInfo.poolSizeCount = 2;
    framePoolInfo.pPoolSizes = sizes;
    if (VkResult r = vkCreateDescriptorPool(dev.device, &framePoolInfo, nullptr, &framePool); r != VK_SUCCESS)
        return vulkanFault("vkCreateDescriptorPool", r);
    const VkDescriptorSetLayout layouts[] = {pipelines.frameLayout(), pipelines.deformLayout(),
                                             pipelines.computeLayout()};
    VkDescriptorSet sets[3];
    VkDescriptorSetAllocateInfo setAlloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    setAlloc.descriptorPool = framePool;
    setAlloc.descriptorSetCount = 3;
    setAlloc.pSetLayouts = layouts;
    if (VkResult r = vkAllocateDescriptorSets(dev.device, &setAlloc, sets); r != VK_SUCCESS)
        return vulkanFault("vkAllocateDescriptorSets", r);
    frameSet = sets[0];
    deformSet = sets[1];
    computeSet = sets[2];
    if (pipelines.hasComputeRaster()) {
        const VkDescriptorSetLayout rasterLayout = pipelines.rasterLayout();
        setAlloc.descriptorSetCount = 1;
        setAlloc.pSetLayouts = &rasterLayout;
        if (VkResult r = vkAllocateDescriptorSets(dev.device, &setAlloc, &rasterSet); r != VK_SUCCESS)
            return vulkanFault("vkAllocateDescriptorSets", r);
    }

    auto ubo = GpuBuffer::create(dev, sizeof(FrameUniforms), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, true);
    if (!ubo) return faultsOf(ubo.faults());
    uniforms = std::move(*ubo);
    auto pixels = GpuBuffer::create(dev, VkDeviceSize{width} * height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
    if (!pixels) return faultsOf(pixels.faults());
    readback = std::move(*pixels);
    return true;
}

Result<bool> OffscreenRenderer::State::checkFrame(const FrameDesc& frame) const {
    if (frame.catalogue == nullptr) return Fault{"frame/catalogue", "no render catalogue given"};
    if (frame.draws == nullptr) return Fault{"frame/draws", "no draw list given"};
    if (!isFinite(frame.viewProjection) || !std::isfinite(frame.eye.x) || !std::isfinite(frame.eye.y) ||
        !std::isfinite(frame.eye.z))
        return Fault{"frame/camera", "the camera's matrix or position is not finite"};
    return true;
}

Result<bool> OffscreenRenderer::State::prepare(const FrameDesc& frame, bool& built) {
    const DrawList& list = *frame.draws;
    drawnObjects.clear();  // its capacity is kept from frame to frame
    for (const DrawItem& item : list.items) drawnObjects.push_back(item.object);
    const Result<RenderPlan>& plan = preparation.prepare(*frame.catalogue, drawnObjects);
    if (!plan) return faultsOf(plan.faults());
    built = false;
    if (preparation.generation() != builtGeneration) {
        vkDeviceWaitIdle(device->device);
        if (auto made = resources.build(*device, commandPool, pipelines, *frame.catalogue, *plan); !made) {
            resources.release();
            builtGeneration = 0;
            return made;
        }
        builtGeneration = preparation.generation();
        deformSetCurrent = false;
        built = true;
    }
    // Per-draw checks the catalogue cannot make: slices inside the draw list, joints inside the palette slice.
    for (std::size_t i = 0; i < list.items.size(); ++i) {
        const DrawItem& item = list.items[i];
        const DeviceMesh& mesh = resources.mesh(frame.catalogue->at(item.object).mesh);
        // The location is only spelled out for a fault: nothing is formatted per draw.
        const auto at = [i] { return "draws/items/" + std::to_string(i); };
        if (std::uint64_t{item.paletteOffset} + item.paletteCount > list.palettes.size())
            return Fault{at(), "palette slice lies outside the draw list's palettes"};
        if (std::uint64_t{item.weightOffset} + item.weightCount > list.weights.size())
            return Fault{at(), "weight slice lies outside the draw list's weights"};
        if (item.paletteCount > 0 && mesh.influences > 0 && mesh.maxJoint >= item.paletteCount)
            return Fault{at(),
                         "its mesh uses joint " + std::to_string(mesh.maxJoint) + " but the palette slice has " +
                             counted(item.paletteCount, "matrix", "matrices")};
        if (!isFinite(item.world)) return Fault{at(), "world matrix is not finite"};
    }
    return true;
}

Result<bool> OffscreenRenderer::State::uploadFrameData(const FrameDesc& frame) {
    const DrawList& list = *frame.draws;
    FrameUniforms u{};
    u.viewProjection = frame.viewProjection.m;
    u.eye = {frame.eye.x, frame.eye.y, frame.eye.z, 1.0f};
    Vec3 l = frame.toLight;
    const float len = std::sqrt(l.x * l.x + l.y * l.y + l.z * l.z);
    if (len > 0.0f && std::isfinite(len)) l = {l.x / len, l.y / len, l.z / len};
    u.toLight = {l.x, l.y, l.z, 0.0f};
    u.lightColor = {frame.lightColor[0], frame.lightColor[1], frame.lightColor[2], 0.0f};
    u.ambientColor = {frame.ambientColor[0], frame.ambientColor[1], frame.ambientColor[2], 0.0f};
    std::memcpy(uniforms.mapped(), &u, sizeof u);

    const bool deforms = std::any_of(list.items.begin(), list.items.end(), [](const DrawItem& item) {
        return item.paletteCount > 0 || item.weightCount > 0;
    });
    if (deforms) {
        const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        auto p = ensureCapacity(*device, palettes, list.palettes.size() * sizeof(Mat4), storage);
        if (!p) return p;
        if (!*p) deformSetCurrent = false;
        auto w = ensureCapacity(*device, weights, list.weights.size() * sizeof(float), storage);
        if (!w) return w;
        if (!*w) deformSetCurrent = false;
        for (std::size_t i = 0; i < list.palettes.size(); ++i)
            std::memcpy(palettes.mapped() + i * 64, list.palettes[i].m.data(), 64);
        if (!list.weights.empty())
            std::memcpy(weights.mapped(), list.weights.data(), list.weights.size() * sizeof(float));
        if (!deformSetCurrent) writeDeformSet();
    }

    // One instance record per drawn item, in draw order, so a run of draws of one
    // object is a contiguous range of instances.
    records.clear();
    for (std::uint32_t index : order) {
        const DrawItem& item = list.items[index];
        records.push_back({item.world.m, item.paletteOffset, item.weightOffset, {0, 0}});
    }
    if (auto r = writeInstances(); !r) return r;

    overlay.clear();
    if (frame.overlay != nullptr) appendOverlayGeometry(*frame.overlay, frame.viewProjection, width, height, overlay);
    if (!overlay.empty()) {
        auto o = ensureCapacity(*device, overlayVertices, overlay.size() * sizeof(OverlayVertex),
                                VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
        if (!o) return o;
        std::memcpy(overlayVertices.mapped(), overlay.data(), overlay.size() * sizeof(OverlayVertex));
    }
    return true;
}

Result<bool> OffscreenRenderer::State::writeInstances() {
    const VkDeviceSize bytes = std::max<std::size_t>(records.size(), 1) * sizeof(InstanceRecord);
    auto grown = ensureCapacity(*device, instances, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    if (!grown) return grown;
    if (!*grown || !frameSetCurrent) {
        const VkDescriptorBufferInfo uboInfo{uniforms.handle(), 0, sizeof(FrameUniforms)};
        const VkDescriptorBufferInfo instanceInfo{instances.handle(), 0, VK_WHOLE_SIZE};
        VkWriteDescriptorSet writes[2]{};
        writes[0].sType = writes[1].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        writes[0].dstSet = writes[1].dstSet = frameSet;
        writes[0].descriptorCount = writes[1].descriptorCount = 1;
        writes[0].dstBinding = 0;
        writes[0].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
        writes[0].pBufferInfo = &uboInfo;
        writes[1].dstBinding = 1;
        writes[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[1].pBufferInfo = &instanceInfo;
        vkUpdateDescriptorSets(device->device, 2, writes, 0, nullptr);
        frameSetCurrent = true;
    }
    if (!records.empty()) std::memcpy(instances.mapped(), records.data(), records.size() * sizeof(InstanceRecord));
    return true;
}

void OffscreenRenderer::State::writeDeformSet() {
    const VkDescriptorBufferInfo infos[] = {{palettes.handle(), 0, VK_WHOLE_SIZE},
                                            {weights.handle(), 0, VK_WHOLE_SIZE},
                                            {resources.meshData().handle(), 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = deformSet;
    write.descriptorCount = 3;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = infos;
    vkUpdateDescriptorSets(device->device, 1, &write, 0, nullptr);
    deformSetCurrent = true;
}

void OffscreenRenderer::State::computeOrder(const FrameDesc& frame) {
    const DrawList& list = *frame.draws;
    const RenderCatalogue& catalogue = *frame.catalogue;
    // Opaque and masked draws in list order, then blended ones back to front.
    order.clear();
    blendDistance.assign(list.items.size(), 0.0f);
    std::size_t opaqueCount = 0;
    for (std::uint32_t i = 0; i < list.items.size(); ++i) {
        const MaterialDesc& m = catalogue.at(catalogue.at(list.items[i].object).material);
        if (m.alphaMode != AlphaMode::Blend) order.push_back(i);
    }
    opaqueCount = order.size();
    for (std::uint32_t i = 0; i < list.items.size(); ++i) {
        const DrawItem& item = list.items[i];
        const MaterialDesc& m = catalogue.at(catalogue.at(item.object).material);
        if (m.alphaMode != AlphaMode::Blend) continue;
        const Mat4& place = item.paletteCount > 0 ? list.palettes[item.paletteOffset] : item.world;
        const Vec3 at{place.m[12] - frame.eye.x, place.m[13] - frame.eye.y, place.m[14] - frame.eye.z};
        blendDistance[i] = at.x * at.x + at.y * at.y + at.z * at.z;
        order.push_back(i);
    }
    std::stable_sort(order.begin() + static_cast<std::ptrdiff_t>(opaqueCount), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return blendDistance[a] > blendDistance[b]; });
}

DrawConstants OffscreenRenderer::State::constantsOf(const FrameDesc& frame, const DrawItem& item) const {
    const RenderObjectDesc& object = frame.catalogue->at(item.object);
    const MaterialDesc& material = frame.catalogue->at(object.material);
    const DeviceMesh& mesh = resources.mesh(object.mesh);
    DrawConstants c{};
    c.baseColor = material.baseColorFactor;
    c.vertexCount = mesh.vertexCount;
    c.alphaCutoff = material.alphaCutoff;
    if (item.paletteCount > 0 && mesh.influences > 0) {
        c.flags |= kFlagSkinned;
        c.skinBase = mesh.skinBase;
        c.influences = mesh.influences;
    }
    if (item.weightCount > 0 && mesh.morphTargets > 0) {
        c.morphBase = mesh.morphBase;
        c.morphTargets = std::min(mesh.morphTargets, item.weightCount);
        if (mesh.morphNormals) c.flags |= kFlagMorphNormals;
    }
    if (mesh.hasNormals) c.flags |= kFlagHasNormals;
    if (material.alphaMode != AlphaMode::Blend) c.flags |= kFlagOpaque;
    if (material.alphaMode == AlphaMode::Mask) c.flags |= kFlagAlphaMask;
    return c;
}

Result<bool> OffscreenRenderer::State::submit() {
    VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    info.commandBufferCount = 1;
    info.pCommandBuffers = &cmd;
    const VkPipelineStageFlags waitStage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    if (waitSemaphore != VK_NULL_HANDLE) {
        info.waitSemaphoreCount = 1;
        info.pWaitSemaphores = &waitSemaphore;
        info.pWaitDstStageMask = &waitStage;
    }
    if (signalSemaphore != VK_NULL_HANDLE) {
        info.signalSemaphoreCount = 1;
        info.pSignalSemaphores = &signalSemaphore;
    }
    if (VkResult r = vkQueueSubmit(device->queue, 1, &info, fence); r != VK_SUCCESS)
        return vulkanFault("vkQueueSubmit", r);
    if (VkResult r = vkWaitForFences(device->device, 1, &fence, VK_TRUE, UINT64_MAX); r != VK_SUCCESS)
        return vulkanFault("vkWaitForFences", r);
    vkResetFences(device->device, 1, &fence);
    return true;
}

Result<bool> OffscreenRenderer::State::recordGraphics(const FrameDesc& frame, FrameStats& stats) {
    const DrawList& list = *frame.draws;
    const RenderCatalogue& catalogue = *frame.catalogue;
    VkClearValue clears[2]{};
    for (int c = 0; c < 4; ++c) clears[0].color.float32[c] = frame.background[static_cast<std::size_t>(c)];
    clears[1].depthStencil = {1.0f, 0};
    VkRenderPassBeginInfo pass{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    pass.renderPass = pipelines.renderPass();
    pass.framebuffer = framebuffer;
    pass.renderArea = {{0, 0}, {width, height}};
    pass.clearValueCount = 2;
    pass.pClearValues = clears;
    vkCmdBeginRenderPass(cmd, &pass, VK_SUBPASS_CONTENTS_INLINE);
    const VkViewport viewport{0.0f, 0.0f, static_cast<float>(width), static_cast<float>(height), 0.0f, 1.0f};
    const VkRect2D scissor{{0, 0}, {width, height}};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);

    VkPipeline boundPipeline = VK_NULL_HANDLE;
    VkDescriptorSet boundMaterial = VK_NULL_HANDLE;
    MeshId boundMesh;
    bool frameSetBound = false;
    bool deformSetBound = false;
    // Runs of consecutive draws of one object with the same constants are one
    // instanced draw; instance k reads record k, written in this order.
    const auto drawCount = static_cast<std::uint32_t>(order.size());
    for (std::uint32_t first = 0; first < drawCount;) {
        const DrawItem& item = list.items[order[first]];
        const RenderObjectDesc& object = catalogue.at(item.object);
        const MaterialDesc& material = catalogue.at(object.material);
        const DeviceMesh& mesh = resources.mesh(object.mesh);
        const DrawConstants constants = constantsOf(frame, item);
        PipelineKey key;
        key.deform = (constants.flags & kFlagSkinned) != 0 || constants.morphTargets > 0;
        key.blend = material.alphaMode == AlphaMode::Blend;
        key.cull = !material.doubleSided;
        key.clockwise = !key.deform && determinant3(item.world) < 0.0f;
        std::uint32_t count = 1;
        while (first + count < drawCount) {
            const DrawItem& next = list.items[order[first + count]];
            if (!(next.object == item.object) || !(constantsOf(frame, next) == constants) ||
                (!key.deform && (determinant3(next.world) < 0.0f) != key.clockwise))
                break;
            ++count;
        }
        const std::uint32_t firstInstance = first;
        first += count;
        if (mesh.indexCount == 0) continue;
        auto pipeline = pipelines.mesh(key);
        if (!pipeline) {
            vkCmdEndRenderPass(cmd);
            return faultsOf(pipeline.faults());
        }
        const VkPipelineLayout layout = key.deform ? pipelines.deformPipelineLayout() : pipelines.staticLayout();
        if (*pipeline != boundPipeline) {
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, *pipeline);
            boundPipeline = *pipeline;
        }
        if (!frameSetBound) {
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &frameSet, 0, nullptr);
            frameSetBound = true;
        }
        if (key.deform && !deformSetBound) {
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 2, 1, &deformSet, 0, nullptr);
            deformSetBound = true;
            stats.deformationBound = true;
        }
        const VkDescriptorSet materialSet = resources.materialSet(object.material);
        if (materialSet != boundMaterial) {
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 1, 1, &materialSet, 0, nullptr);
            boundMaterial = materialSet;
        }
        if (!(boundMesh == object.mesh)) {
            const VkBuffer buffers[] = {resources.vertexBuffer(), resources.vertexBuffer(), resources.vertexBuffer(),
                                        resources.vertexBuffer()};
            const VkDeviceSize offsets[] = {mesh.positions, mesh.normals, mesh.texcoords, mesh.colors};
            vkCmdBindVertexBuffers(cmd, 0, 4, buffers, offsets);
            vkCmdBindIndexBuffer(cmd, resources.indexBuffer(), 0, VK_INDEX_TYPE_UINT32);
            boundMesh = object.mesh;
        }
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                           sizeof(DrawConstants), &constants);
        vkCmdDrawIndexed(cmd, mesh.indexCount, count, mesh.firstIndex, 0, firstInstance);
        stats.draws += count;
        ++stats.drawCalls;
    }
    if (!overlay.empty()) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines.overlay());
        const VkBuffer buffer = overlayVertices.handle();
        const VkDeviceSize offset = 0;
        vkCmdBindVertexBuffers(cmd, 0, 1, &buffer, &offset);
        vkCmdDraw(cmd, static_cast<std::uint32_t>(overlay.size()), 1, 0, 0);
    }
    vkCmdEndRenderPass(cmd);
    return true;
}

OffscreenRenderer::OffscreenRenderer(std::unique_ptr<State> state) noexcept : state_(std::move(state)) {}
OffscreenRenderer::OffscreenRenderer(OffscreenRenderer&&) noexcept = default;
OffscreenRenderer& OffscreenRenderer::operator=(OffscreenRenderer&&) noexcept = default;
OffscreenRenderer::~OffscreenRenderer() = default;

std::uint32_t OffscreenRenderer::width() const noexcept { return state_ ? state_->width : 0; }
std::uint32_t OffscreenRenderer::height() const noexcept { return state_ ? state_->height : 0; }

Result<OffscreenRenderer> OffscreenRenderer::create(const GpuContext& context, std::uint32_t width,
                                                    std::uint32_t height) {
    if (auto fits = checkTargetSize(width, height); !fits) return faultsOf(fits.faults());
    const VulkanDevice& dev = *context.vulkan();
    if (width > dev.properties.limits.maxFramebufferWidth || height > dev.properties.limits.maxFramebufferHeight)
        return Fault{"size",
                     std::to_string(width) + "x" + std::to_string(height) + " exceeds " + dev.info.name +
                         "'s framebuffer limit of " + std::to_string(dev.properties.limits.maxFramebufferWidth) + "x" +
                         std::to_string(dev.properties.limits.maxFramebufferHeight)};
    auto state = std::make_unique<State>();
    state->device = context.vulkan();
    state->width = width;
    state->height = height;
    if (auto made = state->init(); !made) return faultsOf(made.faults());
    return OffscreenRenderer(std::move(state));
}

Result<FrameStats> OffscreenRenderer::render(const FrameDesc& frame, ImageRGBA8* pixels) {
    if (!state_) return movedFrom();
    State& s = *state_;
    if (auto ok = s.checkFrame(frame); !ok) return faultsOf(ok.faults());
    FrameStats stats;
    if (auto ok = s.prepare(frame, stats.resourcesBuilt); !ok) return faultsOf(ok.faults());
    s.computeOrder(frame);
    if (auto ok = s.uploadFrameData(frame); !ok) return faultsOf(ok.faults());

    VkCommandBuffer cmd = s.cmd;
    vkResetCommandBuffer(cmd, 0);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cmd, &begin);
    if (s.queries != VK_NULL_HANDLE) {
        vkCmdResetQueryPool(cmd, s.queries, 0, 4);
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, s.queries, 0);
    }
    stats.computeRaster = s.computeRasterFits(frame);
    auto recorded = stats.computeRaster ? s.recordComputeRaster(frame, stats) : s.recordGraphics(frame, stats);
    if (!recorded) {
        vkEndCommandBuffer(cmd);
        return faultsOf(recorded.faults());
    }
    if (pixels != nullptr) {
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.imageExtent = {s.width, s.height, 1};
        vkCmdCopyImageToBuffer(cmd, s.color.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, s.readback.handle(), 1,
                               &region);
        memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                      VK_ACCESS_HOST_READ_BIT);
    }
    if (s.afterPass) s.afterPass(cmd, s.color.handle());
    if (s.queries != VK_NULL_HANDLE) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, s.queries, 1);
    if (VkResult r = vkEndCommandBuffer(cmd); r != VK_SUCCESS) return vulkanFault("vkEndCommandBuffer", r);
    if (auto ok = s.submit(); !ok) return faultsOf(ok.faults());

    if (s.queries != VK_NULL_HANDLE) {
        // Queries 2 and 3 are written by the compute path only: a graphics frame reads two.
        const std::uint32_t written = stats.computeRaster ? 4 : 2;
        std::uint64_t ticks[4] = {0, 0, 0, 0};
        if (vkGetQueryPoolResults(s.device->device, s.queries, 0, written, sizeof ticks, ticks, sizeof(std::uint64_t),
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS) {
            const std::uint64_t mask = s.device->timestampValidBits >= 64
                ? ~std::uint64_t{0}
                : (std::uint64_t{1} << s.device->timestampValidBits) - 1;
            const auto between = [&](std::size_t from, std::size_t to) {
                const std::uint64_t elapsed = ((ticks[to] & mask) - (ticks[from] & mask)) & mask;
                return static_cast<double>(elapsed) * static_cast<double>(s.device->properties.limits.timestampPeriod) *
                    1e-6;
            };
            stats.gpuMilliseconds = between(0, 1);
            if (stats.computeRaster)
                stats.computePassMilliseconds = std::array{between(0, 2), between(2, 3), between(3, 1)};
        }
    }
    if (pixels != nullptr) {
        pixels->width = s.width;
        pixels->height = s.height;
        pixels->pixels.resize(std::size_t{s.width} * s.height * 4);
        std::memcpy(pixels->pixels.data(), s.readback.mapped(), pixels->pixels.size());
    }
    return stats;
}

Result<std::vector<Vec3>> OffscreenRenderer::deformedPositions(const FrameDesc& frame, std::size_t item) {
    if (!state_) return movedFrom();
    State& s = *state_;
    if (auto ok = s.checkFrame(frame); !ok) return faultsOf(ok.faults());
    if (item >= frame.draws->items.size())
        return Fault{"draws/items/" + std::to_string(item), "no such draw in the frame's list"};
    bool built = false;
    if (auto ok = s.prepare(frame, built); !ok) return faultsOf(ok.faults());
    s.order.assign(1, static_cast<std::uint32_t>(item));  // its instance record is the first
    if (auto ok = s.uploadFrameData(frame); !ok) return faultsOf(ok.faults());
    const DrawItem& draw = frame.draws->items[item];
    const DeviceMesh& mesh = s.resources.mesh(frame.catalogue->at(draw.object).mesh);
    if (!s.deformSetCurrent) {
        // A frame without deformation has not sized these yet.
        for (GpuBuffer* b : {&s.palettes, &s.weights}) {
            auto ok = ensureCapacity(*s.device, *b, 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
            if (!ok) return faultsOf(ok.faults());
        }
        s.writeDeformSet();
    }
    const VkDeviceSize outBytes = std::max<VkDeviceSize>(16, VkDeviceSize{mesh.vertexCount} * 12);
    if (auto ok = ensureCapacity(*s.device, s.computeOut, outBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT); !ok)
        return faultsOf(ok.faults());
    const VkDescriptorBufferInfo infos[] = {{s.palettes.handle(), 0, VK_WHOLE_SIZE},
                                            {s.weights.handle(), 0, VK_WHOLE_SIZE},
                                            {s.resources.meshData().handle(), 0, VK_WHOLE_SIZE},
                                            {s.resources.vertices().handle(), mesh.positions,
                                             std::max<VkDeviceSize>(16, VkDeviceSize{mesh.vertexCount} * 12)},
                                            {s.computeOut.handle(), 0, outBytes},
                                            {s.instances.handle(), 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = s.computeSet;
    write.descriptorCount = 6;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = infos;
    vkUpdateDescriptorSets(s.device->device, 1, &write, 0, nullptr);

    DrawConstants constants = s.constantsOf(frame, draw);
    constants.instance = 0;
    VkCommandBuffer cmd = s.cmd;
    vkResetCommandBuffer(cmd, 0);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cmd, &begin);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, s.pipelines.compute());
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, s.pipelines.computePipelineLayout(), 0, 1,
                            &s.computeSet, 0, nullptr);
    vkCmdPushConstants(cmd, s.pipelines.computePipelineLayout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof constants,
                       &constants);
    vkCmdDispatch(cmd, (mesh.vertexCount + 63) / 64, 1, 1);
    memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                  VK_ACCESS_HOST_READ_BIT);
    if (VkResult r = vkEndCommandBuffer(cmd); r != VK_SUCCESS) return vulkanFault("vkEndCommandBuffer", r);
    if (auto ok = s.submit(); !ok) return faultsOf(ok.faults());
    std::vector<Vec3> out(mesh.vertexCount);
    const auto* words = reinterpret_cast<const float*>(s.computeOut.mapped());
    for (std::size_t v = 0; v < out.size(); ++v) out[v] = {words[3 * v], words[3 * v + 1], words[3 * v + 2]};
    return out;
}

}  // namespace kinema
