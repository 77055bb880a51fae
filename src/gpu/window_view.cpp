#include "kinema/gpu/window_view.hpp"

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>

#include <algorithm>
#include <string>

#include "offscreen_state.hpp"
#include "vulkan_device.hpp"

namespace kinema {

using namespace detail;

namespace {

std::vector<Fault> faultsOf(std::span<const Fault> faults) { return {faults.begin(), faults.end()}; }

// GLFW reports errors through a callback; the last one explains a failed call.
std::string& lastGlfwError() {
    thread_local std::string text;
    return text;
}

void onGlfwError(int /*code*/, const char* description) { lastGlfwError() = description != nullptr ? description : ""; }

}  // namespace

struct WindowView::State {
    GLFWwindow* window = nullptr;
    std::unique_ptr<GpuContext> context;
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    VkSwapchainKHR swapchain = VK_NULL_HANDLE;
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkExtent2D extent{0, 0};
    bool blit = true;  // the swapchain's format differs from the renderer's: blit converts
    std::vector<VkImage> images;
    std::vector<VkSemaphore> presentReady;  // one per swapchain image
    VkSemaphore imageAcquired = VK_NULL_HANDLE;
    std::unique_ptr<OffscreenRenderer> renderer;
    ViewEvents events;
    bool dragging = false;
    double lastX = 0.0, lastY = 0.0;

    ~State();
    VkDevice device() const { return context->vulkan()->device; }
    void destroySwapchain();
    Result<bool> createSwapchain();
};

WindowView::State::~State() {
    if (context) {
        vkDeviceWaitIdle(device());
        renderer.reset();
        destroySwapchain();
        if (imageAcquired != VK_NULL_HANDLE) vkDestroySemaphore(device(), imageAcquired, nullptr);
        if (surface != VK_NULL_HANDLE) vkDestroySurfaceKHR(context->vulkan()->instance, surface, nullptr);
    }
    context.reset();
    if (window != nullptr) glfwDestroyWindow(window);
    glfwTerminate();
}

void WindowView::State::destroySwapchain() {
    for (VkSemaphore s : presentReady) vkDestroySemaphore(device(), s, nullptr);
    presentReady.clear();
    images.clear();
    if (swapchain != VK_NULL_HANDLE) vkDestroySwapchainKHR(device(), swapchain, nullptr);
    swapchain = VK_NULL_HANDLE;
}

Result<bool> WindowView::State::createSwapchain() {
    const VulkanDevice& dev = *context->vulkan();
    vkDeviceWaitIdle(dev.device);
    destroySwapchain();
    VkSurfaceCapabilitiesKHR caps;
    if (VkResult r = vkGetPhysicalDeviceSurfaceCapabilitiesKHR(dev.physical, surface, &caps); r != VK_SUCCESS)
        return vulkanFault("vkGetPhysicalDeviceSurfaceCapabilitiesKHR", r);
    int fbWidth = 0, fbHeight = 0;
    glfwGetFramebufferSize(window, &fbWidth, &fbHeight);
    extent = caps.currentExtent;
    if (extent.width == 0xFFFFFFFFu) {
        extent.width = std::clamp(static_cast<std::uint32_t>(std::max(fbWidth, 0)), caps.minImageExtent.width,
                                  caps.maxImageExtent.width);
        extent.height = std::clamp(static_cast<std::uint32_t>(std::max(fbHeight, 0)), caps.minImageExtent.height,
                                   caps.maxImageExtent.height);
    }
    if (extent.width == 0 || extent.height == 0) return true;  // minimised: nothing to present to
    if ((caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT) == 0)
        return Fault{"window", "the window's surface cannot be a copy destination"};

    std::uint32_t count = 0;
    vkGetPhysicalDeviceSurfaceFormatsKHR(dev.physical, surface, &count, nullptr);
    std::vector<VkSurfaceFormatKHR> formats(count);
    vkGetPhysicalDeviceSurfaceFormatsKHR(dev.physical, surface, &count, formats.data());
    if (formats.empty()) return Fault{"window", "the window's surface offers no format"};
    // An sRGB format keeps the renderer's encoded bytes as they are.
    VkSurfaceFormatKHR chosen = formats.front();
    for (const VkSurfaceFormatKHR& f : formats) {
        if ((f.format == VK_FORMAT_R8G8B8A8_SRGB || f.format == VK_FORMAT_B8G8R8A8_SRGB) &&
            f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) {
            chosen = f;
            if (f.format == kColorFormat) break;
        }
    }
    format = chosen.format;
    blit = format != kColorFormat;
    if (blit) {
        VkFormatProperties p;
        vkGetPhysicalDeviceFormatProperties(dev.physical, format, &p);
        if ((p.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_DST_BIT) == 0)
            return Fault{"window", "the window's surface format cannot be blitted to"};
    }

    VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    info.surface = surface;
    info.minImageCount = std::max(caps.minImageCount, 2u);
    if (caps.maxImageCount > 0) info.minImageCount = std::min(info.minImageCount, caps.maxImageCount);
    info.imageFormat = chosen.format;
    info.imageColorSpace = chosen.colorSpace;
    info.imageExtent = extent;
    info.imageArrayLayers = 1;
    info.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.preTransform = caps.currentTransform;
    info.compositeAlpha = (caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR) != 0
        ? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
        : static_cast<VkCompositeAlphaFlagBitsKHR>(caps.supportedCompositeAlpha & (~caps.supportedCompositeAlpha + 1));
    info.presentMode = VK_PRESENT_MODE_FIFO_KHR;  // every implementation has it
    info.clipped = VK_TRUE;
    if (VkResult r = vkCreateSwapchainKHR(dev.device, &info, nullptr, &swapchain); r != VK_SUCCESS)
        return vulkanFault("vkCreateSwapchainKHR", r);
    vkGetSwapchainImagesKHR(dev.device, swapchain, &count, nullptr);
    images.resize(count);
    vkGetSwapchainImagesKHR(dev.device, swapchain, &count, images.data());
    for (std::uint32_t i = 0; i < count; ++i) {
        VkSemaphoreCreateInfo s{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        VkSemaphore semaphore = VK_NULL_HANDLE;
        if (VkResult r = vkCreateSemaphore(dev.device, &s, nullptr, &semaphore); r != VK_SUCCESS)
            return vulkanFault("vkCreateSemaphore", r);
        presentReady.push_back(semaphore);
    }
    if (!renderer || renderer->width() != extent.width || renderer->height() != extent.height) {
        renderer.reset();
        auto made = OffscreenRenderer::create(*context, extent.width, extent.height);
        if (!made) return faultsOf(made.faults());
        renderer = std::make_unique<OffscreenRenderer>(std::move(*made));
    }
    return true;
}

WindowView::WindowView(std::unique_ptr<State> state) noexcept : state_(std::move(state)) {}
WindowView::WindowView(WindowView&&) noexcept = default;
WindowView& WindowView::operator=(WindowView&&) noexcept = default;
WindowView::~WindowView() = default;

const GpuContext& WindowView::context() const noexcept { return *state_->context; }
std::uint32_t WindowView::width() const noexcept { return state_->extent.width; }
std::uint32_t WindowView::height() const noexcept { return state_->extent.height; }

Result<WindowView> WindowView::open(const WindowOptions& options) {
    // Checked here, as the offscreen renderer checks its size: the window system would
    // cut a larger size to 16 bits and report one nobody asked for.
    if (auto fits = detail::checkTargetSize(options.width, options.height); !fits) {
        return std::vector<Fault>(fits.faults().begin(), fits.faults().end());
    }
    glfwSetErrorCallback(onGlfwError);
    lastGlfwError().clear();
    if (glfwInit() != GLFW_TRUE) {
        return Fault{"window",
                     "no display to open a window on (" + lastGlfwError() +
                         "); kinema view needs an X11 desktop session (DISPLAY set; under Wayland, "
                         "XWayland's). `kinema render` draws images without one"};
    }
    auto state = std::make_unique<State>();
    if (glfwVulkanSupported() != GLFW_TRUE) {
        return Fault{"window", "GLFW finds no Vulkan loader with presentation support (" + lastGlfwError() + ")"};
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    state->window = glfwCreateWindow(static_cast<int>(options.width), static_cast<int>(options.height),
                                     options.title.c_str(), nullptr, nullptr);
    if (state->window == nullptr) return Fault{"window", "the window could not be opened: " + lastGlfwError()};

    ContextExtensions extensions;
    std::uint32_t count = 0;
    const char** required = glfwGetRequiredInstanceExtensions(&count);
    extensions.instance.assign(required, required + count);
    extensions.device.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
    auto context = GpuContext::createWith(options.gpu, extensions);
    if (!context) return faultsOf(context.faults());
    state->context = std::make_unique<GpuContext>(std::move(*context));
    const VulkanDevice& dev = *state->context->vulkan();
    if (VkResult r = glfwCreateWindowSurface(dev.instance, state->window, nullptr, &state->surface); r != VK_SUCCESS)
        return vulkanFault("glfwCreateWindowSurface", r);
    VkBool32 supported = VK_FALSE;
    vkGetPhysicalDeviceSurfaceSupportKHR(dev.physical, dev.queueFamily, state->surface, &supported);
    if (supported != VK_TRUE)
        return Fault{"window", dev.info.name + " cannot present to this window from its graphics queue"};
    VkSemaphoreCreateInfo s{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    if (VkResult r = vkCreateSemaphore(dev.device, &s, nullptr, &state->imageAcquired); r != VK_SUCCESS)
        return vulkanFault("vkCreateSemaphore", r);
    if (auto made = state->createSwapchain(); !made) return faultsOf(made.faults());

    State* raw = state.get();
    glfwSetWindowUserPointer(state->window, raw);
    glfwSetKeyCallback(state->window, [](GLFWwindow* w, int key, int, int action, int) {
        if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
        auto* st = static_cast<State*>(glfwGetWindowUserPointer(w));
        switch (key) {
            case GLFW_KEY_SPACE: st->events.keys.push_back(ViewKey::Space); break;
            case GLFW_KEY_LEFT: st->events.keys.push_back(ViewKey::Left); break;
            case GLFW_KEY_RIGHT: st->events.keys.push_back(ViewKey::Right); break;
            case GLFW_KEY_UP: st->events.keys.push_back(ViewKey::Up); break;
            case GLFW_KEY_DOWN: st->events.keys.push_back(ViewKey::Down); break;
            case GLFW_KEY_N: st->events.keys.push_back(ViewKey::Next); break;
            case GLFW_KEY_P: st->events.keys.push_back(ViewKey::Previous); break;
            case GLFW_KEY_S: st->events.keys.push_back(ViewKey::Skeleton); break;
            case GLFW_KEY_H:
            case GLFW_KEY_F1: st->events.keys.push_back(ViewKey::Help); break;
            case GLFW_KEY_R: st->events.keys.push_back(ViewKey::Reset); break;
            case GLFW_KEY_ESCAPE:
            case GLFW_KEY_Q: st->events.keys.push_back(ViewKey::Quit); break;
            default: break;
        }
    });
    glfwSetMouseButtonCallback(state->window, [](GLFWwindow* w, int button, int action, int) {
        auto* st = static_cast<State*>(glfwGetWindowUserPointer(w));
        if (button != GLFW_MOUSE_BUTTON_LEFT) return;
        st->dragging = action == GLFW_PRESS;
        glfwGetCursorPos(w, &st->lastX, &st->lastY);
    });
    glfwSetCursorPosCallback(state->window, [](GLFWwindow* w, double x, double y) {
        auto* st = static_cast<State*>(glfwGetWindowUserPointer(w));
        if (st->dragging) {
            st->events.orbitX += x - st->lastX;
            st->events.orbitY += y - st->lastY;
        }
        st->lastX = x;
        st->lastY = y;
    });
    glfwSetScrollCallback(state->window, [](GLFWwindow* w, double, double dy) {
        static_cast<State*>(glfwGetWindowUserPointer(w))->events.zoom += dy;
    });
    return WindowView(std::move(state));
}

ViewEvents WindowView::poll() {
    glfwPollEvents();
    ViewEvents out = std::move(state_->events);
    state_->events = ViewEvents{};
    out.closeRequested = glfwWindowShouldClose(state_->window) == GLFW_TRUE;
    return out;
}

Result<FrameStats> WindowView::present(const FrameDesc& frame) {
    State& s = *state_;
    int fbWidth = 0, fbHeight = 0;
    glfwGetFramebufferSize(s.window, &fbWidth, &fbHeight);
    if (fbWidth <= 0 || fbHeight <= 0) return FrameStats{};
    if (s.swapchain == VK_NULL_HANDLE || static_cast<std::uint32_t>(fbWidth) != s.extent.width ||
        static_cast<std::uint32_t>(fbHeight) != s.extent.height) {
        if (auto made = s.createSwapchain(); !made) return faultsOf(made.faults());
        if (s.swapchain == VK_NULL_HANDLE) return FrameStats{};
    }
    const VkDevice device = s.device();
    std::uint32_t index = 0;
    VkResult acquired = vkAcquireNextImageKHR(device, s.swapchain, UINT64_MAX, s.imageAcquired, VK_NULL_HANDLE, &index);
    if (acquired == VK_ERROR_OUT_OF_DATE_KHR) {
        if (auto made = s.createSwapchain(); !made) return faultsOf(made.faults());
        return FrameStats{};
    }
    if (acquired != VK_SUCCESS && acquired != VK_SUBOPTIMAL_KHR) return vulkanFault("vkAcquireNextImageKHR", acquired);

    OffscreenRenderer::State& r = *s.renderer->state_;
    const VkImage target = s.images[index];
    const VkExtent2D extent = s.extent;
    const bool blit = s.blit;
    r.afterPass = [target, extent, blit](VkCommandBuffer cmd, VkImage color) {
        VkImageMemoryBarrier toCopy{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
        toCopy.srcAccessMask = 0;
        toCopy.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        toCopy.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        toCopy.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        toCopy.srcQueueFamilyIndex = toCopy.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        toCopy.image = target;
        toCopy.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        // The acquire semaphore is waited on at the transfer stage.
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                             nullptr, 1, &toCopy);
        const VkImageSubresourceLayers layers{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        if (blit) {
            VkImageBlit region{};
            region.srcSubresource = layers;
            region.dstSubresource = layers;
            region.srcOffsets[1] = {static_cast<std::int32_t>(extent.width), static_cast<std::int32_t>(extent.height),
                                    1};
            region.dstOffsets[1] = region.srcOffsets[1];
            vkCmdBlitImage(cmd, color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, target,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region, VK_FILTER_NEAREST);
        } else {
            VkImageCopy region{};
            region.srcSubresource = layers;
            region.dstSubresource = layers;
            region.extent = {extent.width, extent.height, 1};
            vkCmdCopyImage(cmd, color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, target,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        }
        VkImageMemoryBarrier toPresent = toCopy;
        toPresent.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        toPresent.dstAccessMask = 0;
        toPresent.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        toPresent.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr,
                             0, nullptr, 1, &toPresent);
    };
    r.waitSemaphore = s.imageAcquired;
    r.signalSemaphore = s.presentReady[index];
    auto stats = s.renderer->render(frame);
    r.afterPass = nullptr;
    r.waitSemaphore = VK_NULL_HANDLE;
    r.signalSemaphore = VK_NULL_HANDLE;
    if (!stats) return stats;

    VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    present.waitSemaphoreCount = 1;
    present.pWaitSemaphores = &s.presentReady[index];
    present.swapchainCount = 1;
    present.pSwapchains = &s.swapchain;
    present.pImageIndices = &index;
    const VkResult presented = vkQueuePresentKHR(s.context->vulkan()->queue, &present);
    if (presented == VK_ERROR_OUT_OF_DATE_KHR || presented == VK_SUBOPTIMAL_KHR) {
        if (auto made = s.createSwapchain(); !made) return faultsOf(made.faults());
    } else if (presented != VK_SUCCESS) {
        return vulkanFault("vkQueuePresentKHR", presented);
    }
    return stats;
}

}  // namespace kinema
