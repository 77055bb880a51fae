// kinema/render: debug geometry drawn over a frame (a skeleton, axes, help text), as plain data.
// Sizes are in pixels, so the overlay reads the same at any camera distance; the
// renderer draws it after the meshes with no depth test: segments, then dots, then
// text (with its backdrop) over both.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "kinema/math/vec3.hpp"

namespace kinema {

// A line between two world-space points.
struct OverlaySegment {
    Vec3 from;
    Vec3 to;
    std::array<float, 4> color{1.0f, 1.0f, 1.0f, 1.0f};  // linear RGBA
    float widthPixels = 2.0f;
};

// A square dot centred on a world-space point.
struct OverlayDot {
    Vec3 at;
    std::array<float, 4> color{1.0f, 1.0f, 1.0f, 1.0f};  // linear RGBA
    float sizePixels = 6.0f;
};

// Lines of text placed in pixels (top-left of the first line), drawn with a small
// built-in bitmap font over a backdrop; '\n' starts a new line.
struct OverlayText {
    float x = 0.0f;
    float y = 0.0f;
    std::string text;
    std::array<float, 4> color{1.0f, 1.0f, 1.0f, 1.0f};     // linear RGBA
    std::array<float, 4> backdrop{0.0f, 0.0f, 0.0f, 0.6f};  // alpha 0: none
    float scale = 2.0f;                                     // font pixels per character-cell pixel
};

struct Overlay {
    std::vector<OverlaySegment> segments;
    std::vector<OverlayDot> dots;
    std::vector<OverlayText> texts;

    bool empty() const noexcept { return segments.empty() && dots.empty() && texts.empty(); }
    void clear() noexcept {
        segments.clear();
        dots.clear();
        texts.clear();
    }
};

}  // namespace kinema
