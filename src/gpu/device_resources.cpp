#include "device_resources.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <span>

namespace kinema::detail {
namespace {

// Region offsets are aligned so any region can also be bound as a storage buffer.
constexpr VkDeviceSize kRegionAlignment = 256;

std::vector<Fault> faultsOf(std::span<const Fault> faults) { return {faults.begin(), faults.end()}; }

template <class T>
VkDeviceSize appendRegion(std::vector<std::byte>& bytes, std::span<const T> values) {
    const VkDeviceSize offset = (bytes.size() + kRegionAlignment - 1) / kRegionAlignment * kRegionAlignment;
    bytes.resize(static_cast<std::size_t>(offset) + values.size_bytes());
    if (!values.empty()) std::memcpy(bytes.data() + offset, values.data(), values.size_bytes());
    return offset;
}

VkFilter filterOf(TextureFilter f) { return f == TextureFilter::Nearest ? VK_FILTER_NEAREST : VK_FILTER_LINEAR; }

VkSamplerAddressMode wrapOf(TextureWrap w) {
    switch (w) {
        case TextureWrap::MirroredRepeat: return VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
        case TextureWrap::ClampToEdge: return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
        case TextureWrap::Repeat: break;
    }
    return VK_SAMPLER_ADDRESS_MODE_REPEAT;
}

}  // namespace

void DeviceResources::release() noexcept {
    if (device_ != VK_NULL_HANDLE) {
        for (VkSampler s : samplers_) vkDestroySampler(device_, s, nullptr);
        if (pool_ != VK_NULL_HANDLE) vkDestroyDescriptorPool(device_, pool_, nullptr);
    }
    samplers_.clear();
    pool_ = VK_NULL_HANDLE;
    images_.clear();
    vertices_.reset();
    indices_.reset();
    meshData_.reset();
    meshes_.clear();
    materialSets_.clear();
    textureSlots_.clear();
    textureArraySet_ = VK_NULL_HANDLE;
}

Result<bool> DeviceResources::build(const VulkanDevice& device, VkCommandPool commandPool, const Pipelines& pipelines,
                                    const RenderCatalogue& catalogue, const RenderPlan& plan) {
    release();
    device_ = device.device;

    // --- meshes
    meshes_.assign(catalogue.meshes().size(), DeviceMesh{});
    std::vector<std::byte> vertexBytes;
    std::vector<std::uint32_t> indexWords;
    std::vector<std::uint32_t> dataWords;
    for (MeshId id : plan.meshes) {
        const RenderMesh& m = catalogue.at(id);
        DeviceMesh& d = meshes_[id.value];
        const std::size_t n = m.vertexCount();
        d.present = true;
        d.vertexCount = static_cast<std::uint32_t>(n);
        d.positions = appendRegion(vertexBytes, std::span<const Vec3>(m.positions));
        d.hasNormals = m.normals.size() == n;
        const std::vector<Vec3> zeros(d.hasNormals ? 0 : n, Vec3{0, 0, 1});
        d.normals = appendRegion(vertexBytes, std::span<const Vec3>(d.hasNormals ? m.normals : zeros));
        const std::vector<std::array<float, 2>> noTexcoords(m.texcoords.size() == n ? 0 : n, {0.0f, 0.0f});
        d.texcoords = appendRegion(
            vertexBytes, std::span<const std::array<float, 2>>(m.texcoords.size() == n ? m.texcoords : noTexcoords));
        const std::vector<std::array<float, 4>> white(m.colors.size() == n ? 0 : n, {1.0f, 1.0f, 1.0f, 1.0f});
        d.colors =
            appendRegion(vertexBytes, std::span<const std::array<float, 4>>(m.colors.size() == n ? m.colors : white));
        d.firstIndex = static_cast<std::uint32_t>(indexWords.size());
        d.indexCount = static_cast<std::uint32_t>(m.indices.size());
        indexWords.insert(indexWords.end(), m.indices.begin(), m.indices.end());

        d.influences = m.influencesPerVertex;
        d.skinBase = static_cast<std::uint32_t>(dataWords.size());
        for (std::size_t i = 0; i < static_cast<std::size_t>(m.influencesPerVertex) * n; ++i) {
            dataWords.push_back(m.joints[i]);
            dataWords.push_back(std::bit_cast<std::uint32_t>(m.weights[i]));
            d.maxJoint = std::max<std::uint32_t>(d.maxJoint, m.joints[i]);
        }
        d.morphTargets = static_cast<std::uint32_t>(m.targets.size());
        d.morphBase = static_cast<std::uint32_t>(dataWords.size());
        d.morphNormals = d.hasNormals && !m.targets.empty() &&
            std::all_of(m.targets.begin(), m.targets.end(),
                        [&](const MorphTarget& t) { return t.normals.size() == n; });
        auto pushVec3s = [&](const std::vector<Vec3>& values) {
            for (std::size_t v = 0; v < n; ++v) {
                const Vec3 p = v < values.size() ? values[v] : Vec3{0, 0, 0};
                dataWords.push_back(std::bit_cast<std::uint32_t>(p.x));
                dataWords.push_back(std::bit_cast<std::uint32_t>(p.y));
                dataWords.push_back(std::bit_cast<std::uint32_t>(p.z));
            }
        };
        for (const MorphTarget& t : m.targets) pushVec3s(t.positions);
        if (d.morphNormals)
            for (const MorphTarget& t : m.targets) pushVec3s(t.normals);
    }
    if (dataWords.empty()) dataWords.push_back(0);
    const VkBufferUsageFlags vertexUsage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    auto vertices = uploadBuffer(device, commandPool, vertexBytes, vertexUsage);
    if (!vertices) return faultsOf(vertices.faults());
    vertices_ = std::move(*vertices);
    if (indexWords.empty()) indexWords.push_back(0);
    // Storage too: the compute rasteriser reads the indices of its triangles.
    auto indices = uploadBuffer(device, commandPool, std::as_bytes(std::span(indexWords)),
                                VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    if (!indices) return faultsOf(indices.faults());
    indices_ = std::move(*indices);
    auto data =
        uploadBuffer(device, commandPool, std::as_bytes(std::span(dataWords)), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    if (!data) return faultsOf(data.faults());
    meshData_ = std::move(*data);

    // --- images: each planned image once, then the white fallback
    std::vector<std::uint32_t> imageSlot(catalogue.images().size(), 0);
    for (ImageId id : plan.images) {
        const ImageRGBA8& image = catalogue.at(id);
        auto uploaded = uploadImage(device, commandPool, image.width, image.height, image.pixels);
        if (!uploaded) return faultsOf(uploaded.faults());
        imageSlot[id.value] = static_cast<std::uint32_t>(images_.size());
        images_.push_back(std::move(*uploaded));
    }
    const std::uint8_t whitePixel[4] = {255, 255, 255, 255};
    auto white = uploadImage(device, commandPool, 1, 1, whitePixel);
    if (!white) return faultsOf(white.faults());
    images_.push_back(std::move(*white));

    // --- samplers: one per planned texture, one for the white image
    std::vector<std::uint32_t> samplerSlot(catalogue.textures().size(), 0);
    auto makeSampler = [&](const TextureDesc& t) -> Result<VkSampler> {
        VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
        info.magFilter = filterOf(t.magFilter);
        info.minFilter = filterOf(t.minFilter);
        info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
        info.addressModeU = wrapOf(t.wrapU);
        info.addressModeV = wrapOf(t.wrapV);
        info.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
        info.maxLod = 0.0f;
        VkSampler sampler = VK_NULL_HANDLE;
        if (VkResult r = vkCreateSampler(device.device, &info, nullptr, &sampler); r != VK_SUCCESS)
            return vulkanFault("vkCreateSampler", r);
        return sampler;
    };
    for (TextureId id : plan.textures) {
        auto sampler = makeSampler(catalogue.at(id));
        if (!sampler) return faultsOf(sampler.faults());
        samplerSlot[id.value] = static_cast<std::uint32_t>(samplers_.size());
        samplers_.push_back(*sampler);
    }
    auto whiteSampler = makeSampler(TextureDesc{});
    if (!whiteSampler) return faultsOf(whiteSampler.faults());
    samplers_.push_back(*whiteSampler);

    // --- a descriptor set per planned material
    const auto setCount = static_cast<std::uint32_t>(std::max<std::size_t>(plan.materials.size(), 1));
    const bool textureArray = pipelines.hasComputeRaster() && plan.materials.size() <= kRasterTextureSlots;
    VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                  textureArray ? setCount + kRasterTextureSlots : setCount};
    VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    poolInfo.maxSets = textureArray ? setCount + 1 : setCount;
    poolInfo.poolSizeCount = 1;
    poolInfo.pPoolSizes = &poolSize;
    if (VkResult r = vkCreateDescriptorPool(device.device, &poolInfo, nullptr, &pool_); r != VK_SUCCESS)
        return vulkanFault("vkCreateDescriptorPool", r);
    materialSets_.assign(catalogue.materials().size(), VK_NULL_HANDLE);
    textureSlots_.assign(catalogue.materials().size(), 0);
    std::vector<VkDescriptorImageInfo> textureArrayInfos;
    const VkDescriptorSetLayout layout = pipelines.materialLayout();
    for (MaterialId id : plan.materials) {
        VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        alloc.descriptorPool = pool_;
        alloc.descriptorSetCount = 1;
        alloc.pSetLayouts = &layout;
        VkDescriptorSet set = VK_NULL_HANDLE;
        if (VkResult r = vkAllocateDescriptorSets(device.device, &alloc, &set); r != VK_SUCCESS)
            return vulkanFault("vkAllocateDescriptorSets", r);
        const MaterialDesc& material = catalogue.at(id);
        VkDescriptorImageInfo image{};
        image.imageLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        if (material.baseColorTexture) {
            const TextureDesc& texture = catalogue.at(*material.baseColorTexture);
            image.sampler = samplers_[samplerSlot[material.baseColorTexture->value]];
            image.imageView = images_[imageSlot[texture.image.value]].view();
        } else {
            image.sampler = samplers_.back();
            image.imageView = images_.back().view();
        }
        VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        write.dstSet = set;
        write.dstBinding = 0;
        write.descriptorCount = 1;
        write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        write.pImageInfo = &image;
        vkUpdateDescriptorSets(device.device, 1, &write, 0, nullptr);
        materialSets_[id.value] = set;
        textureSlots_[id.value] = static_cast<std::uint32_t>(textureArrayInfos.size());
        textureArrayInfos.push_back(image);
    }
    if (textureArray) {
        // Every slot is written (the white texture past the materials): the shader's
        // switch names them all.
        textureArrayInfos.resize(kRasterTextureSlots,
                                 {samplers_.back(), images_.back().view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
        const VkDescriptorSetLayout arrayLayout = pipelines.textureArrayLayout();
        VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        alloc.descriptorPool = pool_;
        alloc.descriptorSetCount = 1;
        alloc.pSetLayouts = &arrayLayout;
        if (VkResult r = vkAllocateDescriptorSets(device.device, &alloc, &textureArraySet_); r != VK_SUCCESS)
            return vulkanFault("vkAllocateDescriptorSets", r);
        VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        write.dstSet = textureArraySet_;
        write.dstBinding = 0;
        write.descriptorCount = kRasterTextureSlots;
        write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        write.pImageInfo = textureArrayInfos.data();
        vkUpdateDescriptorSets(device.device, 1, &write, 0, nullptr);
    }
    return true;
}

}  // namespace kinema::detail
