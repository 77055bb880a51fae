#include "pipelines.hpp"

#include <algorithm>
#include <span>

namespace kinema::detail {
namespace {

// SPIR-V words, compiled from shaders/ by glslc at build time.
constexpr std::uint32_t kStaticVertex[] = {
#include "shaders/mesh_static.vert.inc"
};
constexpr std::uint32_t kDeformVertex[] = {
#include "shaders/mesh_deform.vert.inc"
};
constexpr std::uint32_t kMeshFragment[] = {
#include "shaders/mesh.frag.inc"
};
constexpr std::uint32_t kOverlayVertex[] = {
#include "shaders/overlay.vert.inc"
};
constexpr std::uint32_t kOverlayFragment[] = {
#include "shaders/overlay.frag.inc"
};
constexpr std::uint32_t kDeformCompute[] = {
#include "shaders/deform.comp.inc"
};
constexpr std::uint32_t kRasterTransform[] = {
#include "shaders/raster_transform.comp.inc"
};
constexpr std::uint32_t kRasterTriangles[] = {
#include "shaders/raster_triangles.comp.inc"
};
constexpr std::uint32_t kRasterDraws[] = {
#include "shaders/raster_draws.comp.inc"
};
constexpr std::uint32_t kRasterResolve[] = {
#include "shaders/raster_resolve.comp.inc"
};

Result<VkShaderModule> shaderModule(VkDevice device, std::span<const std::uint32_t> words) {
    VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = words.size_bytes();
    info.pCode = words.data();
    VkShaderModule module = VK_NULL_HANDLE;
    if (VkResult r = vkCreateShaderModule(device, &info, nullptr, &module); r != VK_SUCCESS)
        return vulkanFault("vkCreateShaderModule", r);
    return module;
}

Result<VkDescriptorSetLayout> setLayout(VkDevice device, std::span<const VkDescriptorSetLayoutBinding> bindings) {
    VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    info.bindingCount = static_cast<std::uint32_t>(bindings.size());
    info.pBindings = bindings.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    if (VkResult r = vkCreateDescriptorSetLayout(device, &info, nullptr, &layout); r != VK_SUCCESS)
        return vulkanFault("vkCreateDescriptorSetLayout", r);
    return layout;
}

Result<VkPipelineLayout> pipelineLayout(VkDevice device, std::span<const VkDescriptorSetLayout> sets,
                                        VkShaderStageFlags pushStages, std::uint32_t pushBytes) {
    VkPushConstantRange range{pushStages, 0, pushBytes};
    VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    info.setLayoutCount = static_cast<std::uint32_t>(sets.size());
    info.pSetLayouts = sets.data();
    info.pushConstantRangeCount = pushBytes > 0 ? 1u : 0u;
    info.pPushConstantRanges = pushBytes > 0 ? &range : nullptr;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    if (VkResult r = vkCreatePipelineLayout(device, &info, nullptr, &layout); r != VK_SUCCESS)
        return vulkanFault("vkCreatePipelineLayout", r);
    return layout;
}

std::vector<Fault> faultsOf(std::span<const Fault> faults) { return {faults.begin(), faults.end()}; }

struct GraphicsPipelineDesc {
    VkShaderModule vertex;
    VkShaderModule fragment;
    VkPipelineLayout layout;
    std::span<const VkVertexInputBindingDescription> bindings;
    std::span<const VkVertexInputAttributeDescription> attributes;
    bool depthTest;
    bool depthWrite;
    bool blend;
    VkCullModeFlags cull;
    VkFrontFace frontFace;
};

Result<VkPipeline> graphicsPipeline(VkDevice device, VkRenderPass renderPass, const GraphicsPipelineDesc& d) {
    VkPipelineShaderStageCreateInfo stages[2]{};
    stages[0].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = d.vertex;
    stages[0].pName = "main";
    stages[1] = stages[0];
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[1].module = d.fragment;

    VkPipelineVertexInputStateCreateInfo vertexInput{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    vertexInput.vertexBindingDescriptionCount = static_cast<std::uint32_t>(d.bindings.size());
    vertexInput.pVertexBindingDescriptions = d.bindings.data();
    vertexInput.vertexAttributeDescriptionCount = static_cast<std::uint32_t>(d.attributes.size());
    vertexInput.pVertexAttributeDescriptions = d.attributes.data();
    VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    viewport.viewportCount = 1;
    viewport.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = d.cull;
    raster.frontFace = d.frontFace;
    raster.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineDepthStencilStateCreateInfo depth{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    depth.depthTestEnable = d.depthTest ? VK_TRUE : VK_FALSE;
    depth.depthWriteEnable = d.depthWrite ? VK_TRUE : VK_FALSE;
    depth.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
    VkPipelineColorBlendAttachmentState attachment{};
    attachment.colorWriteMask =
        VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    if (d.blend) {
        // Colour "over"; alpha accumulates coverage: a + (1 - a) * destination.
        attachment.blendEnable = VK_TRUE;
        attachment.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
        attachment.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        attachment.colorBlendOp = VK_BLEND_OP_ADD;
        attachment.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
        attachment.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        attachment.alphaBlendOp = VK_BLEND_OP_ADD;
    }
    VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    blend.attachmentCount = 1;
    blend.pAttachments = &attachment;
    const VkDynamicState dynamicStates[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    dynamic.dynamicStateCount = 2;
    dynamic.pDynamicStates = dynamicStates;

    VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    info.stageCount = 2;
    info.pStages = stages;
    info.pVertexInputState = &vertexInput;
    info.pInputAssemblyState = &assembly;
    info.pViewportState = &viewport;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pDepthStencilState = &depth;
    info.pColorBlendState = &blend;
    info.pDynamicState = &dynamic;
    info.layout = d.layout;
    info.renderPass = renderPass;
    VkPipeline pipeline = VK_NULL_HANDLE;
    if (VkResult r = vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline); r != VK_SUCCESS)
        return vulkanFault("vkCreateGraphicsPipelines", r);
    return pipeline;
}

}  // namespace

Pipelines::~Pipelines() {
    if (device_ == VK_NULL_HANDLE) return;
    for (VkPipeline p : meshes_)
        if (p != VK_NULL_HANDLE) vkDestroyPipeline(device_, p, nullptr);
    if (overlay_ != VK_NULL_HANDLE) vkDestroyPipeline(device_, overlay_, nullptr);
    if (compute_ != VK_NULL_HANDLE) vkDestroyPipeline(device_, compute_, nullptr);
    for (VkPipeline p : {rasterTransform_, rasterTriangles_, rasterResolve_, rasterDraws_})
        if (p != VK_NULL_HANDLE) vkDestroyPipeline(device_, p, nullptr);
    for (VkShaderModule m : rasterModules_)
        if (m != VK_NULL_HANDLE) vkDestroyShaderModule(device_, m, nullptr);
    if (rasterLayout_ != VK_NULL_HANDLE) vkDestroyPipelineLayout(device_, rasterLayout_, nullptr);
    for (VkDescriptorSetLayout l : {rasterSetLayout_, textureArrayLayout_})
        if (l != VK_NULL_HANDLE) vkDestroyDescriptorSetLayout(device_, l, nullptr);
    for (VkShaderModule m :
         {staticVertex_, deformVertex_, meshFragment_, overlayVertex_, overlayFragment_, deformCompute_})
        if (m != VK_NULL_HANDLE) vkDestroyShaderModule(device_, m, nullptr);
    for (VkPipelineLayout l : {staticLayout_, deformLayout_, overlayLayout_, computeLayout_})
        if (l != VK_NULL_HANDLE) vkDestroyPipelineLayout(device_, l, nullptr);
    for (VkDescriptorSetLayout l : {frameSetLayout_, materialSetLayout_, deformSetLayout_, computeSetLayout_})
        if (l != VK_NULL_HANDLE) vkDestroyDescriptorSetLayout(device_, l, nullptr);
    if (renderPass_ != VK_NULL_HANDLE) vkDestroyRenderPass(device_, renderPass_, nullptr);
}

Result<bool> Pipelines::create(const VulkanDevice& device, VkFormat depthFormat) {
    device_ = device.device;

    // --- render pass: one colour and one depth attachment, cleared; the colour ends
    // ready to be copied out.
    VkAttachmentDescription attachments[2]{};
    attachments[0].format = kColorFormat;
    attachments[0].samples = VK_SAMPLE_COUNT_1_BIT;
    attachments[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    attachments[0].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    attachments[0].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    attachments[0].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    attachments[0].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    attachments[0].finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    attachments[1] = attachments[0];
    attachments[1].format = depthFormat;
    attachments[1].storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    attachments[1].finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    VkAttachmentReference colorRef{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkAttachmentReference depthRef{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass{};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &colorRef;
    subpass.pDepthStencilAttachment = &depthRef;
    VkSubpassDependency dependencies[2]{};
    // The previous frame's attachment writes and colour copy come before this frame's clears and writes.
    dependencies[0].srcSubpass = VK_SUBPASS_EXTERNAL;
    dependencies[0].dstSubpass = 0;
    dependencies[0].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
        VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    dependencies[0].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
    dependencies[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
        VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
    dependencies[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
        VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT;
    // This frame's colour writes come before its copy to the read-back buffer.
    dependencies[1].srcSubpass = 0;
    dependencies[1].dstSubpass = VK_SUBPASS_EXTERNAL;
    dependencies[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    dependencies[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    dependencies[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
    dependencies[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    VkRenderPassCreateInfo passInfo{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    passInfo.attachmentCount = 2;
    passInfo.pAttachments = attachments;
    passInfo.subpassCount = 1;
    passInfo.pSubpasses = &subpass;
    passInfo.dependencyCount = 2;
    passInfo.pDependencies = dependencies;
    if (VkResult r = vkCreateRenderPass(device_, &passInfo, nullptr, &renderPass_); r != VK_SUCCESS)
        return vulkanFault("vkCreateRenderPass", r);

    // --- descriptor set layouts
    const VkShaderStageFlags graphics = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    const VkDescriptorSetLayoutBinding frameBindings[] = {
        {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, graphics, nullptr},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr}};
    const VkDescriptorSetLayoutBinding materialBindings[] = {
        {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr}};
    const VkDescriptorSetLayoutBinding deformBindings[] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr},
        {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr}};
    VkDescriptorSetLayoutBinding computeBindings[6];
    for (std::uint32_t i = 0; i < 6; ++i)
        computeBindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    auto frameSet = setLayout(device_, frameBindings);
    if (!frameSet) return faultsOf(frameSet.faults());
    frameSetLayout_ = *frameSet;
    auto materialSet = setLayout(device_, materialBindings);
    if (!materialSet) return faultsOf(materialSet.faults());
    materialSetLayout_ = *materialSet;
    auto deformSet = setLayout(device_, deformBindings);
    if (!deformSet) return faultsOf(deformSet.faults());
    deformSetLayout_ = *deformSet;
    auto computeSet = setLayout(device_, computeBindings);
    if (!computeSet) return faultsOf(computeSet.faults());
    computeSetLayout_ = *computeSet;

    // --- pipeline layouts: sets 0 and 1 are shared, so binding them once serves both mesh layouts.
    const auto pushBytes = static_cast<std::uint32_t>(sizeof(DrawConstants));
    const VkDescriptorSetLayout staticSets[] = {frameSetLayout_, materialSetLayout_};
    const VkDescriptorSetLayout deformSets[] = {frameSetLayout_, materialSetLayout_, deformSetLayout_};
    auto staticLayout = pipelineLayout(device_, staticSets, graphics, pushBytes);
    if (!staticLayout) return faultsOf(staticLayout.faults());
    staticLayout_ = *staticLayout;
    auto deformLayout = pipelineLayout(device_, deformSets, graphics, pushBytes);
    if (!deformLayout) return faultsOf(deformLayout.faults());
    deformLayout_ = *deformLayout;
    auto overlayLayout = pipelineLayout(device_, {}, 0, 0);
    if (!overlayLayout) return faultsOf(overlayLayout.faults());
    overlayLayout_ = *overlayLayout;
    const VkDescriptorSetLayout computeSets[] = {computeSetLayout_};
    auto computeLayout = pipelineLayout(device_, computeSets, VK_SHADER_STAGE_COMPUTE_BIT, pushBytes);
    if (!computeLayout) return faultsOf(computeLayout.faults());
    computeLayout_ = *computeLayout;

    // --- shader modules
    struct ModuleSource {
        VkShaderModule* module;
        std::span<const std::uint32_t> words;
    };
    for (const ModuleSource& m :
         {ModuleSource{&staticVertex_, kStaticVertex}, ModuleSource{&deformVertex_, kDeformVertex},
          ModuleSource{&meshFragment_, kMeshFragment}, ModuleSource{&overlayVertex_, kOverlayVertex},
          ModuleSource{&overlayFragment_, kOverlayFragment}, ModuleSource{&deformCompute_, kDeformCompute}}) {
        auto module = shaderModule(device_, m.words);
        if (!module) return faultsOf(module.faults());
        *m.module = *module;
    }

    // --- the overlay pipeline: clip-space triangles over everything
    const VkVertexInputBindingDescription overlayBinding{0, sizeof(OverlayVertex), VK_VERTEX_INPUT_RATE_VERTEX};
    const VkVertexInputAttributeDescription overlayAttributes[] = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
                                                                   {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16}};
    auto overlay =
        graphicsPipeline(device_, renderPass_,
                         {overlayVertex_, overlayFragment_, overlayLayout_, std::span(&overlayBinding, 1),
                          overlayAttributes, false, false, true, VK_CULL_MODE_NONE, VK_FRONT_FACE_COUNTER_CLOCKWISE});
    if (!overlay) return faultsOf(overlay.faults());
    overlay_ = *overlay;

    // --- the deformation compute pipeline
    VkComputePipelineCreateInfo computeInfo{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    computeInfo.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    computeInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    computeInfo.stage.module = deformCompute_;
    computeInfo.stage.pName = "main";
    computeInfo.layout = computeLayout_;
    if (VkResult r = vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &computeInfo, nullptr, &compute_);
        r != VK_SUCCESS)
        return vulkanFault("vkCreateComputePipelines", r);
    if (device.computeRaster) return createComputeRaster(device.properties.limits.maxComputeSharedMemorySize);
    return true;
}

Result<bool> Pipelines::createComputeRaster(std::uint32_t sharedMemoryBytes) {
    // Set 0: frame uniforms, then the storage buffers of raster_common.glsl and the passes.
    VkDescriptorSetLayoutBinding bindings[10];
    bindings[0] = {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    for (std::uint32_t i = 1; i < 10; ++i)
        bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    auto rasterSet = setLayout(device_, bindings);
    if (!rasterSet) return faultsOf(rasterSet.faults());
    rasterSetLayout_ = *rasterSet;

    // Set 1: one combined image sampler per material (pipelines.hpp's kRasterTextureSlots).
    const VkDescriptorSetLayoutBinding textures[] = {
        {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kRasterTextureSlots, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
    auto textureSet = setLayout(device_, textures);
    if (!textureSet) return faultsOf(textureSet.faults());
    textureArrayLayout_ = *textureSet;

    const VkDescriptorSetLayout sets[] = {rasterSetLayout_, textureArrayLayout_};
    auto layout =
        pipelineLayout(device_, sets, VK_SHADER_STAGE_COMPUTE_BIT, static_cast<std::uint32_t>(sizeof(RasterConstants)));
    if (!layout) return faultsOf(layout.faults());
    rasterLayout_ = *layout;

    // The per-draw pass keeps 12 bytes a vertex in shared memory; the rest of the
    // device's shared memory is left to the compiler's own needs.
    constexpr std::uint32_t kSharedReserve = 1024, kSharedVertexBytes = 12, kMostSharedVertices = 8192;
    rasterDrawVertices_ = sharedMemoryBytes > kSharedReserve
        ? std::min(kMostSharedVertices, (sharedMemoryBytes - kSharedReserve) / kSharedVertexBytes)
        : 0;
    const VkSpecializationMapEntry sharedVerticesEntry{0, 0, sizeof(std::uint32_t)};
    const VkSpecializationInfo sharedVertices{1, &sharedVerticesEntry, sizeof(std::uint32_t), &rasterDrawVertices_};
    const std::span<const std::uint32_t> words[] = {kRasterTransform, kRasterTriangles, kRasterResolve, kRasterDraws};
    VkPipeline* pipelines[] = {&rasterTransform_, &rasterTriangles_, &rasterResolve_, &rasterDraws_};
    for (std::size_t i = 0; i < 4; ++i) {
        if (pipelines[i] == &rasterDraws_ && rasterDrawVertices_ == 0) break;
        auto module = shaderModule(device_, words[i]);
        if (!module) return faultsOf(module.faults());
        rasterModules_[i] = *module;
        VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
        info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
        info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        info.stage.module = rasterModules_[i];
        info.stage.pName = "main";
        if (pipelines[i] == &rasterDraws_) info.stage.pSpecializationInfo = &sharedVertices;
        info.layout = rasterLayout_;
        if (VkResult r = vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, pipelines[i]);
            r != VK_SUCCESS)
            return vulkanFault("vkCreateComputePipelines", r);
    }
    return true;
}

Result<VkPipeline> Pipelines::mesh(PipelineKey key) {
    VkPipeline& slot = meshes_[key.index()];
    if (slot != VK_NULL_HANDLE) return slot;
    // Streams: position, normal, texcoord, colour, each in its own binding.
    const VkVertexInputBindingDescription bindings[] = {{0, 12, VK_VERTEX_INPUT_RATE_VERTEX},
                                                        {1, 12, VK_VERTEX_INPUT_RATE_VERTEX},
                                                        {2, 8, VK_VERTEX_INPUT_RATE_VERTEX},
                                                        {3, 16, VK_VERTEX_INPUT_RATE_VERTEX}};
    const VkVertexInputAttributeDescription attributes[] = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
                                                            {1, 1, VK_FORMAT_R32G32B32_SFLOAT, 0},
                                                            {2, 2, VK_FORMAT_R32G32_SFLOAT, 0},
                                                            {3, 3, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
    // With the projection flipping y into Vulkan's downward framebuffer y, a glTF front
    // face (counter-clockwise as the viewer sees it) is counter-clockwise by Vulkan's
    // orientation rule too; a mirroring world matrix reverses it.
    const VkFrontFace front = key.clockwise ? VK_FRONT_FACE_CLOCKWISE : VK_FRONT_FACE_COUNTER_CLOCKWISE;
    auto pipeline =
        graphicsPipeline(device_, renderPass_,
                         {key.deform ? deformVertex_ : staticVertex_, meshFragment_,
                          key.deform ? deformLayout_ : staticLayout_, bindings, attributes, true, !key.blend, key.blend,
                          key.cull ? VK_CULL_MODE_BACK_BIT : VK_CULL_MODE_NONE, front});
    if (!pipeline) return pipeline;
    slot = *pipeline;
    return slot;
}

}  // namespace kinema::detail
