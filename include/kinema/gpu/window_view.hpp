// kinema/gpu: a desktop window that shows frames of the offscreen renderer, with the
// keyboard and mouse input an interactive viewer needs. The window is GLFW's; the
// frame is rendered as OffscreenRenderer renders it, then copied to the window's
// swapchain image and presented (one frame in flight, vsync).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kinema/core/result.hpp"
#include "kinema/gpu/gpu_context.hpp"
#include "kinema/gpu/offscreen_renderer.hpp"

namespace kinema {

enum class ViewKey : std::uint8_t {
    Space,
    Left,
    Right,
    Up,
    Down,
    Next,
    Previous,
    Skeleton,
    Help,
    Reset,
    Quit,
};

// What happened since the last poll.
struct ViewEvents {
    std::vector<ViewKey> keys;  // in order, repeats included
    double orbitX = 0.0;        // pixels dragged with the left button
    double orbitY = 0.0;
    double zoom = 0.0;  // scroll steps, positive away from the user
    bool closeRequested = false;
};

struct WindowOptions {
    GpuOptions gpu;
    std::uint32_t width = 1280;
    std::uint32_t height = 720;
    std::string title = "kinema";
};

class WindowView {
public:
    // Opens the window and a device that can present to it. Faults: a size outside
    // 1..16384 a side ("size"), no display (the message says so and names `kinema
    // render` for images without one), a build without GLFW, no Vulkan presentation
    // support, and the GpuContext's own.
    static Result<WindowView> open(const WindowOptions& options);

    WindowView(WindowView&&) noexcept;
    WindowView& operator=(WindowView&&) noexcept;
    ~WindowView();

    ViewEvents poll();

    // The drawable size in pixels now (0 x 0 while minimised).
    std::uint32_t width() const noexcept;
    std::uint32_t height() const noexcept;

    // Renders `frame` at the window's size and presents it; a minimised window draws
    // nothing. The frame's camera should use width() / height() as its aspect.
    Result<FrameStats> present(const FrameDesc& frame);

    const GpuContext& context() const noexcept;

private:
    struct State;
    explicit WindowView(std::unique_ptr<State> state) noexcept;
    std::unique_ptr<State> state_;
};

}  // namespace kinema
