// The GPU copies of what a RenderPlan reaches: every planned mesh's streams in one
// vertex buffer, indices in one index buffer, skin influences and morph
// displacements in one storage buffer; each planned image once; a sampler per
// texture; a descriptor set per material (the white texture where it has none).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

#include "gpu_memory.hpp"
#include "kinema/core/result.hpp"
#include "kinema/render/catalogue.hpp"
#include "kinema/render/preparation.hpp"
#include "pipelines.hpp"

namespace kinema::detail {

// Where one mesh lies in the shared buffers.
struct DeviceMesh {
    bool present = false;                                                // planned for this frame
    VkDeviceSize positions = 0, normals = 0, texcoords = 0, colors = 0;  // byte offsets in the vertex buffer
    std::uint32_t firstIndex = 0;
    std::uint32_t indexCount = 0;
    std::uint32_t vertexCount = 0;
    std::uint32_t skinBase = 0;  // words into the mesh data buffer
    std::uint32_t influences = 0;
    std::uint32_t morphBase = 0;
    std::uint32_t morphTargets = 0;
    std::uint32_t maxJoint = 0;  // the highest joint index of its influences
    bool hasNormals = false;
    bool morphNormals = false;
};

class DeviceResources {
public:
    DeviceResources() = default;
    DeviceResources(const DeviceResources&) = delete;
    DeviceResources& operator=(const DeviceResources&) = delete;
    ~DeviceResources() { release(); }

    // Replaces every resource with those of `plan` over `catalogue`.
    Result<bool> build(const VulkanDevice& device, VkCommandPool pool, const Pipelines& pipelines,
                       const RenderCatalogue& catalogue, const RenderPlan& plan);
    void release() noexcept;

    const DeviceMesh& mesh(MeshId id) const noexcept { return meshes_[id.value]; }
    VkDescriptorSet materialSet(MaterialId id) const noexcept { return materialSets_[id.value]; }
    VkBuffer vertexBuffer() const noexcept { return vertices_.handle(); }
    VkBuffer indexBuffer() const noexcept { return indices_.handle(); }
    const GpuBuffer& meshData() const noexcept { return meshData_; }
    const GpuBuffer& vertices() const noexcept { return vertices_; }
    const GpuBuffer& indices() const noexcept { return indices_; }
    // The compute rasteriser's texture array (every planned material's texture, the
    // white one where it has none), or null where the pipelines have no compute
    // rasteriser or there are more materials than the array holds.
    VkDescriptorSet textureArraySet() const noexcept { return textureArraySet_; }
    std::uint32_t textureSlot(MaterialId id) const noexcept { return textureSlots_[id.value]; }

private:
    VkDevice device_ = VK_NULL_HANDLE;
    std::vector<DeviceMesh> meshes_;             // by mesh id
    std::vector<VkDescriptorSet> materialSets_;  // by material id
    std::vector<std::uint32_t> textureSlots_;    // by material id: its index in the texture array
    VkDescriptorSet textureArraySet_ = VK_NULL_HANDLE;
    GpuBuffer vertices_;
    GpuBuffer indices_;
    GpuBuffer meshData_;
    std::vector<GpuImage> images_;  // planned images, and the white one last
    std::vector<VkSampler> samplers_;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
};

}  // namespace kinema::detail
