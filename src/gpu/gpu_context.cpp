#include "kinema/gpu/gpu_context.hpp"

#include <algorithm>
#include <cstring>
#include <span>
#include <string_view>

#include "kinema/core/quoted.hpp"
#include "vulkan_device.hpp"

namespace kinema {
namespace {

using detail::VulkanDevice;
using detail::vulkanFault;

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";
// Where a fault says that the device GpuOptions::device names is not there.
constexpr const char* kLavapipeHint =
    "select Mesa's CPU driver with --gpu lavapipe (Debian package mesa-vulkan-drivers), or set "
    "VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

VKAPI_ATTR VkBool32 VKAPI_CALL onValidationMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT /*types*/,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    if ((severity &
         (VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)) != 0) {
        auto* device = static_cast<VulkanDevice*>(user);
        device->record(data != nullptr && data->pMessage != nullptr ? data->pMessage : "(no message)");
    }
    return VK_FALSE;
}

bool hasLayer(const char* name) {
    std::uint32_t count = 0;
    if (vkEnumerateInstanceLayerProperties(&count, nullptr) != VK_SUCCESS) return false;
    std::vector<VkLayerProperties> layers(count);
    if (vkEnumerateInstanceLayerProperties(&count, layers.data()) != VK_SUCCESS) return false;
    return std::any_of(layers.begin(), layers.end(),
                       [&](const VkLayerProperties& l) { return std::strcmp(l.layerName, name) == 0; });
}

std::string versionText(std::uint32_t v) {
    return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
        std::to_string(VK_API_VERSION_PATCH(v));
}

struct Candidate {
    VkPhysicalDevice device;
    VkPhysicalDeviceProperties properties;
    VkPhysicalDeviceDriverProperties driver;
    std::uint32_t index;
};

bool isSoftware(const Candidate& c) {
    return c.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU || c.driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE ||
        c.driver.driverID == VK_DRIVER_ID_GOOGLE_SWIFTSHADER;
}

std::string describeCandidate(const Candidate& c) {
    std::string line = std::to_string(c.index);
    line.append(": ").append(c.properties.deviceName);
    switch (c.properties.deviceType) {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: line.append(", discrete GPU"); break;
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: line.append(", integrated GPU"); break;
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: line.append(", virtual GPU"); break;
        case VK_PHYSICAL_DEVICE_TYPE_CPU: line.append(", cpu"); break;
        default: line.append(", other"); break;
    }
    line.append(", Vulkan ").append(versionText(c.properties.apiVersion));
    return line;
}

Result<std::vector<Candidate>> enumerateCandidates(VkInstance instance) {
    std::uint32_t count = 0;
    if (VkResult r = vkEnumeratePhysicalDevices(instance, &count, nullptr); r != VK_SUCCESS)
        return vulkanFault("vkEnumeratePhysicalDevices", r);
    std::vector<VkPhysicalDevice> devices(count);
    if (VkResult r = vkEnumeratePhysicalDevices(instance, &count, devices.data());
        r != VK_SUCCESS && r != VK_INCOMPLETE)
        return vulkanFault("vkEnumeratePhysicalDevices", r);
    std::vector<Candidate> out;
    for (std::uint32_t i = 0; i < count; ++i) {
        Candidate c{devices[i], {}, {}, i};
        vkGetPhysicalDeviceProperties(devices[i], &c.properties);
        c.driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
        if (c.properties.apiVersion >= VK_API_VERSION_1_2) {
            VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &c.driver, {}};
            vkGetPhysicalDeviceProperties2(devices[i], &p2);
        }
        out.push_back(c);
    }
    return out;
}

std::string deviceList(const std::vector<Candidate>& candidates) {
    std::string text;
    for (const Candidate& c : candidates) text.append("\n  ").append(describeCandidate(c));
    return text;
}

// The device options.device asks for, or a fault naming what is there.
Result<Candidate> chooseDevice(const std::vector<Candidate>& candidates, const std::string& wanted) {
    if (candidates.empty()) return Fault{"gpu", std::string("no Vulkan device found; ") + kLavapipeHint};
    auto fail = [&](std::string what) {
        what.append("; devices present:").append(deviceList(candidates)).append("\n").append(kLavapipeHint);
        return Fault{wanted.empty() ? std::string("gpu") : std::string(kMissingDeviceWhere), std::move(what)};
    };
    if (wanted.empty()) {
        for (auto type : {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU}) {
            for (const Candidate& c : candidates)
                if (c.properties.deviceType == type && c.properties.apiVersion >= VK_API_VERSION_1_2) return c;
        }
        for (const Candidate& c : candidates)
            if (c.properties.apiVersion >= VK_API_VERSION_1_2) return c;
        return fail("no Vulkan 1.2 device");
    }
    if (wanted == "lavapipe" || wanted == "cpu") {
        for (const Candidate& c : candidates)
            if (isSoftware(c)) return c;
        return fail("no CPU Vulkan driver (lavapipe) found");
    }
    if (std::all_of(wanted.begin(), wanted.end(), [](char ch) { return ch >= '0' && ch <= '9'; }) &&
        wanted.size() < 9) {
        const auto index = static_cast<std::uint32_t>(std::stoul(wanted));
        if (index < candidates.size()) return candidates[index];
        return fail("no Vulkan device " + wanted);
    }
    for (const Candidate& c : candidates)
        if (std::string_view(c.properties.deviceName).find(wanted) != std::string_view::npos) return c;
    return fail("no Vulkan device named like " + inQuotes(wanted, '"'));
}

Result<std::uint32_t> graphicsQueueFamily(VkPhysicalDevice device, const std::string& name) {
    std::uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
    for (std::uint32_t i = 0; i < count; ++i) {
        if ((families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) != 0 &&
            (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) != 0)
            return i;
    }
    return Fault{"gpu", name + " has no queue family with graphics and compute"};
}

}  // namespace

GpuContext::GpuContext(std::shared_ptr<detail::VulkanDevice> device) noexcept : device_(std::move(device)) {}
GpuContext::GpuContext(GpuContext&&) noexcept = default;
GpuContext& GpuContext::operator=(GpuContext&&) noexcept = default;
GpuContext::~GpuContext() = default;

const GpuDeviceInfo& GpuContext::device() const noexcept { return device_->info; }

std::uint64_t GpuContext::validationMessageCount() const noexcept {
    return device_->messageCount.load(std::memory_order_relaxed);
}

std::vector<std::string> GpuContext::validationMessages() const {
    const std::lock_guard lock(device_->messagesMutex);
    return device_->messages;
}

namespace {

Result<VkInstance> createInstance(const GpuOptions& options, const detail::ContextExtensions& more,
                                  VulkanDevice& owner) {
    std::uint32_t loaderVersion = VK_API_VERSION_1_0;
    auto enumerateVersion =
        reinterpret_cast<PFN_vkEnumerateInstanceVersion>(vkGetInstanceProcAddr(nullptr, "vkEnumerateInstanceVersion"));
    if (enumerateVersion != nullptr) enumerateVersion(&loaderVersion);
    if (loaderVersion < VK_API_VERSION_1_2)
        return Fault{"gpu", "the Vulkan loader offers version " + versionText(loaderVersion) + "; kinema needs 1.2"};

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "kinema";
    app.pEngineName = "kinema";
    app.apiVersion = VK_API_VERSION_1_2;

    std::vector<const char*> layers;
    std::vector<const char*> extensions(more.instance.begin(), more.instance.end());
    VkDebugUtilsMessengerCreateInfoEXT messengerInfo{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messengerInfo.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
        VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messengerInfo.pfnUserCallback = onValidationMessage;
    messengerInfo.pUserData = &owner;
    const VkValidationFeatureEnableEXT syncFeature = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = &syncFeature;

    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    if (options.validation) {
        if (!hasLayer(kValidationLayer))
            return Fault{"gpu",
                         std::string("validation was asked for but the layer ") + kValidationLayer +
                             " is not installed (Debian package vulkan-validationlayers)"};
        layers.push_back(kValidationLayer);
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        // The messenger chained here also reports instance creation and destruction.
        if (options.synchronizationValidation) {
            messengerInfo.pNext = &features;
        }
        info.pNext = &messengerInfo;
    } else if (options.synchronizationValidation) {
        return Fault{"gpu", "synchronisation validation needs validation on"};
    }
    info.enabledLayerCount = static_cast<std::uint32_t>(layers.size());
    info.ppEnabledLayerNames = layers.data();
    info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();

    VkInstance instance = VK_NULL_HANDLE;
    if (VkResult r = vkCreateInstance(&info, nullptr, &instance); r != VK_SUCCESS) {
        if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
            return Fault{"gpu", std::string("no Vulkan driver is installed; ") + kLavapipeHint};
        return vulkanFault("vkCreateInstance", r);
    }
    owner.instance = instance;
    if (options.validation) {
        auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
        if (create == nullptr) return Fault{"gpu", "the validation layer offers no debug messenger"};
        messengerInfo.pNext = nullptr;
        if (VkResult r = create(instance, &messengerInfo, nullptr, &owner.messenger); r != VK_SUCCESS)
            return vulkanFault("vkCreateDebugUtilsMessengerEXT", r);
    }
    return instance;
}

}  // namespace

static std::vector<Fault> copyFaults(std::span<const Fault> faults) { return {faults.begin(), faults.end()}; }

Result<GpuContext> GpuContext::create(const GpuOptions& options) { return createWith(options, {}); }

Result<GpuContext> GpuContext::createWith(const GpuOptions& options, const detail::ContextExtensions& extensions) {
    auto owner = std::make_shared<VulkanDevice>();
    auto instance = createInstance(options, extensions, *owner);
    if (!instance) return copyFaults(instance.faults());
    auto candidates = enumerateCandidates(*instance);
    if (!candidates) return copyFaults(candidates.faults());
    auto chosen = chooseDevice(*candidates, options.device);
    if (!chosen) return copyFaults(chosen.faults());
    const Candidate& c = *chosen;
    if (c.properties.apiVersion < VK_API_VERSION_1_2)
        return Fault{"gpu", describeCandidate(c) + " is below Vulkan 1.2, which kinema needs"};
    auto family = graphicsQueueFamily(c.device, c.properties.deviceName);
    if (!family) return copyFaults(family.faults());

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queueInfo.queueFamilyIndex = *family;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;
    // The compute rasteriser's features, enabled where the device has them all; a
    // device without them renders through the graphics pipeline only.
    VkPhysicalDeviceVulkan12Features has12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 has{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &has12, {}};
    vkGetPhysicalDeviceFeatures2(c.device, &has);
    const bool computeRaster = has.features.shaderInt64 == VK_TRUE && has12.shaderBufferInt64Atomics == VK_TRUE;
    VkPhysicalDeviceVulkan12Features enable12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 enable{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &enable12, {}};
    if (computeRaster) {
        enable.features.shaderInt64 = VK_TRUE;
        enable12.shaderBufferInt64Atomics = VK_TRUE;
    }
    VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    deviceInfo.pNext = &enable;
    deviceInfo.queueCreateInfoCount = 1;
    deviceInfo.pQueueCreateInfos = &queueInfo;
    deviceInfo.enabledExtensionCount = static_cast<std::uint32_t>(extensions.device.size());
    deviceInfo.ppEnabledExtensionNames = extensions.device.data();
    if (VkResult r = vkCreateDevice(c.device, &deviceInfo, nullptr, &owner->device); r != VK_SUCCESS)
        return vulkanFault("vkCreateDevice", r);
    vkGetDeviceQueue(owner->device, *family, 0, &owner->queue);
    owner->physical = c.device;
    owner->queueFamily = *family;
    owner->computeRaster = computeRaster;
    owner->properties = c.properties;
    vkGetPhysicalDeviceMemoryProperties(c.device, &owner->memory);
    {
        std::uint32_t count = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(c.device, &count, nullptr);
        std::vector<VkQueueFamilyProperties> families(count);
        vkGetPhysicalDeviceQueueFamilyProperties(c.device, &count, families.data());
        owner->timestampValidBits = families[*family].timestampValidBits;
    }
    owner->info.name = c.properties.deviceName;
    owner->info.driver = std::string(c.driver.driverName) + " " + c.driver.driverInfo;
    owner->info.apiVersion = c.properties.apiVersion;
    owner->info.software = isSoftware(c);
    owner->info.index = c.index;
    return GpuContext(std::move(owner));
}

bool asksForMissingDevice(std::span<const Fault> faults) noexcept {
    return std::any_of(faults.begin(), faults.end(), [](const Fault& f) { return f.where == kMissingDeviceWhere; });
}

Result<std::vector<std::string>> listGpuDevices() {
    VulkanDevice owner;
    auto instance = createInstance(GpuOptions{}, {}, owner);
    if (!instance) return copyFaults(instance.faults());
    auto candidates = enumerateCandidates(*instance);
    if (!candidates) return copyFaults(candidates.faults());
    std::vector<std::string> lines;
    for (const Candidate& c : *candidates) lines.push_back(describeCandidate(c));
    return lines;
}

}  // namespace kinema
