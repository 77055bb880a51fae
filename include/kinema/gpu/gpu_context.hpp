// kinema/gpu: a Vulkan device opened for kinema's renderer, headless. This module is
// the only place that includes a Vulkan header; its public types hide them.
//
// Any Vulkan 1.2 device with a graphics queue will do: Mesa's CPU driver (lavapipe)
// where there is no GPU, a GPU's own driver where there is one. No window system is
// needed: frames are rendered into offscreen images and read back.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <string>
#include <vector>

#include "kinema/core/result.hpp"

namespace kinema {

namespace detail {
struct VulkanDevice;
struct ContextExtensions;
}  // namespace detail

struct GpuOptions {
    // Which device: empty picks the first discrete GPU, else integrated, else any;
    // "lavapipe" (or "cpu") picks Mesa's CPU driver; a number picks that index of the
    // device list; any other text picks the first device whose name contains it.
    std::string device;
    // The Khronos validation layer with a debug messenger: every warning and error
    // it reports is counted and kept (validationMessages()). Refused when the layer
    // is not installed (Debian: vulkan-validationlayers).
    bool validation = false;
    // Synchronisation validation too (needs `validation`): missing barriers that a
    // CPU driver forgives but a GPU does not are reported.
    bool synchronizationValidation = false;
};

struct GpuDeviceInfo {
    std::string name;    // the driver's device name
    std::string driver;  // driver name and version text
    std::uint32_t apiVersion = 0;
    bool software = false;    // a CPU implementation (lavapipe, SwiftShader)
    std::uint32_t index = 0;  // in the device list
};

class GpuContext {
public:
    // Opens a device. Faults name what was missing: no Vulkan loader or device, no
    // device matching options.device (at "gpu/device": the devices present are
    // listed, with how to select lavapipe), a device below Vulkan 1.2, a missing
    // validation layer.
    static Result<GpuContext> create(const GpuOptions& options = {});

    GpuContext(GpuContext&&) noexcept;
    GpuContext& operator=(GpuContext&&) noexcept;
    ~GpuContext();

    const GpuDeviceInfo& device() const noexcept;

    // Warnings and errors from the validation layer since creation (0 without it).
    std::uint64_t validationMessageCount() const noexcept;
    // Their texts (the first 64 kept).
    std::vector<std::string> validationMessages() const;

    // The device itself, for the renderer; shared so a renderer may outlive this handle.
    const std::shared_ptr<detail::VulkanDevice>& vulkan() const noexcept { return device_; }

private:
    friend class WindowView;
    // create() with the extensions a window needs.
    static Result<GpuContext> createWith(const GpuOptions& options, const detail::ContextExtensions& extensions);
    explicit GpuContext(std::shared_ptr<detail::VulkanDevice> device) noexcept;
    std::shared_ptr<detail::VulkanDevice> device_;
};

// Where a fault says that the device GpuOptions::device asks for is not there.
inline constexpr std::string_view kMissingDeviceWhere = "gpu/device";

// Whether `faults` (from GpuContext::create or anything that opens one) hold one at
// kMissingDeviceWhere: a mistake in what was asked, where the other faults are the
// machine's.
bool asksForMissingDevice(std::span<const Fault> faults) noexcept;

// The Vulkan devices present, one line each ("0: llvmpipe (LLVM 15.0.6, 256 bits), cpu, Vulkan 1.3.230"),
// or the reason there are none.
Result<std::vector<std::string>> listGpuDevices();

}  // namespace kinema
