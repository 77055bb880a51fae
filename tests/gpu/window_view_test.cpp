// WindowView: what it refuses before any window system is asked (no display needed).
#include <gtest/gtest.h>

#include "kinema/gpu/window_view.hpp"

namespace {

using namespace kinema;

// A size outside 1..16384 a side is refused as the offscreen renderer refuses it,
// not cut by the window system to one nobody asked for.
TEST(WindowView, ASizeOutsideTheRendersRangeIsRefusedFirst) {
    for (const auto& [width, height] :
         {std::pair{0u, 100u}, std::pair{100u, 0u}, std::pair{100000u, 100u}, std::pair{100u, 16385u}}) {
        WindowOptions options;
        options.width = width;
        options.height = height;
        const auto opened = WindowView::open(options);
        ASSERT_FALSE(opened.ok());
        EXPECT_EQ(
            opened.message(),
            "size: " + std::to_string(width) + "x" + std::to_string(height) + " is outside 1..16384 pixels per side");
    }
}

}  // namespace
