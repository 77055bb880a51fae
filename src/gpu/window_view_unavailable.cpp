// WindowView in a build without GLFW: opening a window says so.
#include "kinema/gpu/window_view.hpp"

#include <cstdlib>

namespace kinema {

struct WindowView::State {};

WindowView::WindowView(std::unique_ptr<State> state) noexcept : state_(std::move(state)) {}
WindowView::WindowView(WindowView&&) noexcept = default;
WindowView& WindowView::operator=(WindowView&&) noexcept = default;
WindowView::~WindowView() = default;

Result<WindowView> WindowView::open(const WindowOptions&) {
    return Fault{"window",
                 "this kinema was built without GLFW (Debian: libglfw3-dev), so it opens no window; "
                 "`kinema render` draws images without one"};
}
ViewEvents WindowView::poll() { return ViewEvents{.closeRequested = true}; }
std::uint32_t WindowView::width() const noexcept { return 0; }
std::uint32_t WindowView::height() const noexcept { return 0; }
Result<FrameStats> WindowView::present(const FrameDesc&) { return Fault{"window", "no window"}; }
// open() makes no WindowView in this build, so nothing can ask.
const GpuContext& WindowView::context() const noexcept { std::abort(); }

}  // namespace kinema
