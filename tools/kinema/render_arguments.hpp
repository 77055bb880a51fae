// The arguments of `kinema render` that are more than a number: image size,
// background colour, camera.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "kinema/core/result.hpp"
#include "kinema/render/camera.hpp"

namespace kinema::cli {

struct ImageSize {
    std::uint32_t width = 0;
    std::uint32_t height = 0;
};

// "WxH", each side 1..16384. Nullopt with `error` set otherwise.
std::optional<ImageSize> parseImageSize(std::string_view text, std::string& error);

// "transparent", or RRGGBB / RRGGBBAA in hexadecimal (sRGB, as a colour picker
// shows it), as linear RGBA for the renderer's clear colour.
std::optional<std::array<float, 4>> parseBackground(std::string_view text, std::string& error);

// How the camera is chosen: framing the animated bounds, the file's own camera, or
// an explicit one.
struct CameraChoice {
    enum class Kind { Auto, File, Explicit } kind = Kind::Auto;
    PerspectiveCamera explicitCamera;
};
std::optional<CameraChoice> parseCameraChoice(std::string_view text, std::string& error);

// A GpuContext's faults as the CLI says them: a device that is not there at the
// option that named it ("--gpu: ..."), the others as they are.
std::string gpuFaultText(std::span<const Fault> faults);

// A linear colour channel from an sRGB-encoded byte (IEC 61966-2-1).
float srgbToLinear(std::uint8_t value);

}  // namespace kinema::cli
