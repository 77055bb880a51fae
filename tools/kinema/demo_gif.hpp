// `kinema demo --gif`: the runner drawn by the Vulkan renderer, frame by frame, into
// an animated GIF. The stick figure's lines become thin skinned bars (each corner
// skinned as the line's end it belongs to) over a checkered floor.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "kinema/asset/model.hpp"
#include "kinema/core/result.hpp"
#include "kinema/math/mat4.hpp"

namespace kinema::cli {

class DemoGifRecorder {
public:
    // A recorder for the runner `model` (its first mesh's line list, first skin),
    // width x height pixels, on the Vulkan device `gpu` (GpuOptions::device).
    static Result<DemoGifRecorder> create(const Model& model, std::uint32_t width, std::uint32_t height,
                                          const std::string& gpu);
    DemoGifRecorder(DemoGifRecorder&&) noexcept;
    DemoGifRecorder& operator=(DemoGifRecorder&&) noexcept;
    ~DemoGifRecorder();

    // Draws one frame with the skin's palette (one matrix per skin joint, model space).
    Result<bool> capture(std::span<const Mat4> palette);
    // Encodes the frames captured so far at `fps` and writes the GIF.
    Result<std::size_t> write(const std::string& path, double fps) const;
    std::size_t frames() const noexcept;
    std::string deviceName() const;

private:
    struct State;
    explicit DemoGifRecorder(std::unique_ptr<State> state) noexcept;
    std::unique_ptr<State> state_;
};

}  // namespace kinema::cli
