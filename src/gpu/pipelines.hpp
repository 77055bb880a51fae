// The renderer's fixed Vulkan objects: render pass, descriptor set layouts, pipeline
// layouts and pipelines (made on first use per variant), from SPIR-V compiled at
// build time.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>

#include "kinema/core/result.hpp"
#include "vulkan_device.hpp"

namespace kinema::detail {

// The push constants of shaders/draw_constants.glsl, byte for byte.
struct DrawConstants {
    std::array<float, 4> baseColor;
    std::uint32_t skinBase = 0;
    std::uint32_t influences = 0;
    std::uint32_t morphBase = 0;
    std::uint32_t morphTargets = 0;
    std::uint32_t vertexCount = 0;
    std::uint32_t flags = 0;
    float alphaCutoff = 0.5f;
    std::uint32_t instance = 0;  // the compute pass's instance record
    friend bool operator==(const DrawConstants&, const DrawConstants&) = default;
};
static_assert(sizeof(DrawConstants) == 48, "matches shaders/draw_constants.glsl");

// One record of the instance buffer (shaders/draw_constants.glsl's Instance, std430).
struct InstanceRecord {
    std::array<float, 16> world;
    std::uint32_t paletteBase = 0;
    std::uint32_t weightBase = 0;
    std::uint32_t pad[2] = {0, 0};
};
static_assert(sizeof(InstanceRecord) == 80, "matches shaders/draw_constants.glsl");

// One draw of a compute-rasterised frame (shaders/raster_common.glsl's RasterDraw, std430).
struct RasterDrawRecord {
    std::array<float, 16> world;
    std::array<float, 4> baseColor;
    std::uint32_t paletteBase = 0;
    std::uint32_t weightBase = 0;
    std::uint32_t vertexBase = 0;
    std::uint32_t triangleBase = 0;
    std::uint32_t firstIndex = 0;
    std::uint32_t triangleCount = 0;
    std::uint32_t vertexCount = 0;
    std::uint32_t flags = 0;
    std::uint32_t skinBase = 0;
    std::uint32_t influences = 0;
    std::uint32_t morphBase = 0;
    std::uint32_t morphTargets = 0;
    std::uint32_t positions = 0;  // float offsets in the vertex buffer
    std::uint32_t normals = 0;
    std::uint32_t texcoords = 0;
    std::uint32_t colors = 0;
    std::uint32_t material = 0;  // index in the texture array
    std::uint32_t pad[3] = {0, 0, 0};
};
static_assert(sizeof(RasterDrawRecord) == 160, "matches shaders/raster_common.glsl");

// The compute rasteriser's push constants (shaders/raster_common.glsl's RasterConstants).
struct RasterConstants {
    std::array<float, 4> background;
    std::uint32_t drawCount = 0;
    std::uint32_t itemCount = 0;
    std::uint32_t width = 0;
    std::uint32_t height = 0;
};
static_assert(sizeof(RasterConstants) == 32, "matches shaders/raster_common.glsl");

inline constexpr std::uint32_t kFlagSkinned = 1;
inline constexpr std::uint32_t kFlagMorphNormals = 2;
inline constexpr std::uint32_t kFlagAlphaMask = 4;
inline constexpr std::uint32_t kFlagHasNormals = 8;
inline constexpr std::uint32_t kFlagOpaque = 16;
inline constexpr std::uint32_t kRasterCullBack = 32;   // the compute rasteriser culls back faces
inline constexpr std::uint32_t kRasterClockwise = 64;  // front faces wind clockwise on screen

// The uniform block of shaders/frame_uniforms.glsl.
struct FrameUniforms {
    std::array<float, 16> viewProjection;
    std::array<float, 4> eye;
    std::array<float, 4> toLight;
    std::array<float, 4> lightColor;
    std::array<float, 4> ambientColor;
};

// One overlay vertex: clip-space position and linear colour.
struct OverlayVertex {
    std::array<float, 4> clip;
    std::array<float, 4> color;
};

// What distinguishes the mesh pipelines.
struct PipelineKey {
    bool deform = false;     // reads palettes, weights and mesh data (set 2)
    bool blend = false;      // alpha blending, no depth writes
    bool cull = true;        // back faces culled
    bool clockwise = false;  // front faces wind clockwise on screen (a mirroring world matrix)
    std::uint32_t index() const noexcept {
        return (deform ? 1u : 0u) | (blend ? 2u : 0u) | (cull ? 4u : 0u) | (clockwise ? 8u : 0u);
    }
};

inline constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_SRGB;

// The compute rasteriser's texture array: one slot per material of the frame's
// resources. Indexed by constants only (shaders/raster_resolve.comp's switch), since
// devices need not index sampler arrays dynamically; 16 is every device's per-stage
// sampler minimum. A frame with more materials is drawn by the graphics path.
inline constexpr std::uint32_t kRasterTextureSlots = 16;

class Pipelines {
public:
    Pipelines() = default;
    Pipelines(const Pipelines&) = delete;
    Pipelines& operator=(const Pipelines&) = delete;
    ~Pipelines();

    Result<bool> create(const VulkanDevice& device, VkFormat depthFormat);

    VkRenderPass renderPass() const noexcept { return renderPass_; }
    VkDescriptorSetLayout frameLayout() const noexcept { return frameSetLayout_; }
    VkDescriptorSetLayout materialLayout() const noexcept { return materialSetLayout_; }
    VkDescriptorSetLayout deformLayout() const noexcept { return deformSetLayout_; }
    VkDescriptorSetLayout computeLayout() const noexcept { return computeSetLayout_; }
    VkPipelineLayout staticLayout() const noexcept { return staticLayout_; }
    VkPipelineLayout deformPipelineLayout() const noexcept { return deformLayout_; }
    VkPipelineLayout computePipelineLayout() const noexcept { return computeLayout_; }
    VkPipeline overlay() const noexcept { return overlay_; }
    VkPipeline compute() const noexcept { return compute_; }

    // The compute rasteriser: made only on a device with its features; then its three
    // passes share one layout (set 0: buffers, set 1: every material's texture).
    bool hasComputeRaster() const noexcept { return rasterResolve_ != VK_NULL_HANDLE; }
    VkDescriptorSetLayout rasterLayout() const noexcept { return rasterSetLayout_; }
    VkDescriptorSetLayout textureArrayLayout() const noexcept { return textureArrayLayout_; }
    VkPipelineLayout rasterPipelineLayout() const noexcept { return rasterLayout_; }
    VkPipeline rasterTransform() const noexcept { return rasterTransform_; }
    VkPipeline rasterTriangles() const noexcept { return rasterTriangles_; }
    VkPipeline rasterResolve() const noexcept { return rasterResolve_; }
    // The transform and raster passes in one, a workgroup per draw (raster_draws.comp),
    // for frames whose draws have at most `mostVertices` vertices each: as many as the
    // device's shared memory holds.
    VkPipeline rasterDraws() const noexcept { return rasterDraws_; }
    bool rasterDrawsFit(std::uint64_t mostVertices) const noexcept {
        return rasterDraws_ != VK_NULL_HANDLE && mostVertices <= rasterDrawVertices_;
    }

    // The mesh pipeline of `key`, made the first time it is asked for.
    Result<VkPipeline> mesh(PipelineKey key);

private:
    VkDevice device_ = VK_NULL_HANDLE;
    VkRenderPass renderPass_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout frameSetLayout_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout materialSetLayout_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout deformSetLayout_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout computeSetLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout staticLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout deformLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout overlayLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout computeLayout_ = VK_NULL_HANDLE;
    VkShaderModule staticVertex_ = VK_NULL_HANDLE;
    VkShaderModule deformVertex_ = VK_NULL_HANDLE;
    VkShaderModule meshFragment_ = VK_NULL_HANDLE;
    VkShaderModule overlayVertex_ = VK_NULL_HANDLE;
    VkShaderModule overlayFragment_ = VK_NULL_HANDLE;
    VkShaderModule deformCompute_ = VK_NULL_HANDLE;
    VkPipeline overlay_ = VK_NULL_HANDLE;
    VkPipeline compute_ = VK_NULL_HANDLE;
    std::array<VkPipeline, 16> meshes_{};
    VkDescriptorSetLayout rasterSetLayout_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout textureArrayLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout rasterLayout_ = VK_NULL_HANDLE;
    std::array<VkShaderModule, 4> rasterModules_{};
    VkPipeline rasterTransform_ = VK_NULL_HANDLE;
    VkPipeline rasterDraws_ = VK_NULL_HANDLE;
    std::uint32_t rasterDrawVertices_ = 0;
    VkPipeline rasterTriangles_ = VK_NULL_HANDLE;
    VkPipeline rasterResolve_ = VK_NULL_HANDLE;

    Result<bool> createComputeRaster(std::uint32_t sharedMemoryBytes);
};

}  // namespace kinema::detail
