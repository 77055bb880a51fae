// `kinema demo --gif`: the humanoid drawn by the Vulkan renderer, frame by frame,
// into an animated GIF: its body and clothes skinned on the GPU from the two skins'
// palettes, the sword its hand holds, the point its head follows, and the uneven
// ground as a checkered height-field mesh, the camera following the character.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "demo_humanoid.hpp"
#include "kinema/core/result.hpp"
#include "kinema/math/mat4.hpp"

namespace kinema::cli {

class DemoGifRecorder {
public:
    // A recorder for `humanoid` (its body and clothes meshes, skins 0 and 1, and its
    // prop), width x height pixels, on the Vulkan device `gpu` (GpuOptions::device).
    static Result<DemoGifRecorder> create(const Humanoid& humanoid, std::uint32_t width, std::uint32_t height,
                                          const std::string& gpu);
    DemoGifRecorder(DemoGifRecorder&&) noexcept;
    DemoGifRecorder& operator=(DemoGifRecorder&&) noexcept;
    ~DemoGifRecorder();

    // Draws one frame: the character placed by `world`, posed by the body's and the
    // clothes' palettes (one matrix per skin joint, model space), the prop at
    // `propWorld` and a marker at `lookAt` (world space).
    Result<bool> capture(const Mat4& world, std::span<const Mat4> bodyPalette, std::span<const Mat4> clothesPalette,
                         const Mat4& propWorld, Vec3 lookAt);
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
