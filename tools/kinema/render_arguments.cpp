#include "render_arguments.hpp"

#include <charconv>
#include <cmath>

#include "arguments.hpp"
#include "kinema/core/quoted.hpp"
#include "kinema/gpu/gpu_context.hpp"

namespace kinema::cli {

std::optional<ImageSize> parseImageSize(std::string_view text, std::string& error) {
    const auto x = text.find('x');
    auto side = [](std::string_view s, std::uint32_t& out) {
        s = trimmed(s);
        const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
        return !s.empty() && r.ec == std::errc{} && r.ptr == s.data() + s.size();
    };
    ImageSize size;
    if (x == std::string_view::npos || !side(text.substr(0, x), size.width) || !side(text.substr(x + 1), size.height)) {
        error = inQuotes(text);
        error.append(" is not WIDTHxHEIGHT (e.g. 640x480)");
        return std::nullopt;
    }
    if (size.width == 0 || size.height == 0 || size.width > 16384 || size.height > 16384) {
        error.assign(text).append(" is outside 1..16384 pixels per side");
        return std::nullopt;
    }
    return size;
}

float srgbToLinear(std::uint8_t value) {
    const double s = value / 255.0;
    return static_cast<float>(s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4));
}

std::optional<std::array<float, 4>> parseBackground(std::string_view text, std::string& error) {
    if (text == "transparent") return std::array<float, 4>{0.0f, 0.0f, 0.0f, 0.0f};
    std::string_view hex = text;
    if (hex.starts_with('#')) hex.remove_prefix(1);
    std::array<std::uint8_t, 4> bytes{0, 0, 0, 255};
    bool ok = hex.size() == 6 || hex.size() == 8;
    for (std::size_t i = 0; ok && i < hex.size() / 2; ++i) {
        const auto r = std::from_chars(hex.data() + 2 * i, hex.data() + 2 * i + 2, bytes[i], 16);
        ok = r.ec == std::errc{} && r.ptr == hex.data() + 2 * i + 2;
    }
    if (!ok) {
        error = inQuotes(text);
        error.append(" is not RRGGBB, RRGGBBAA (hexadecimal) or 'transparent'");
        return std::nullopt;
    }
    // Alpha is not a colour: it stays linear.
    return std::array<float, 4>{srgbToLinear(bytes[0]), srgbToLinear(bytes[1]), srgbToLinear(bytes[2]),
                                static_cast<float>(bytes[3]) / 255.0f};
}

std::optional<CameraChoice> parseCameraChoice(std::string_view text, std::string& error) {
    CameraChoice choice;
    if (text == "auto") return choice;
    if (text == "file") {
        choice.kind = CameraChoice::Kind::File;
        return choice;
    }
    auto parsed = parsePerspectiveCamera(text);
    if (!parsed) {
        // The faults are the camera's own; here they belong to the option.
        error.clear();
        for (const Fault& f : parsed.faults()) error.append("--camera: ").append(f.what).append("\n");
        error.append(
            "(--camera takes auto, file, or \"eye=X,Y,Z target=X,Y,Z\" with optional up=X,Y,Z fov=DEG "
            "near=N far=F)");
        return std::nullopt;
    }
    choice.kind = CameraChoice::Kind::Explicit;
    choice.explicitCamera = *parsed;
    return choice;
}

std::string gpuFaultText(std::span<const Fault> faults) {
    const bool missing = asksForMissingDevice(faults);
    std::string text;
    for (const Fault& f : faults) {
        if (!text.empty()) text += '\n';
        if (missing && f.where == kMissingDeviceWhere) {
            text += "--gpu: " + f.what;
        } else {
            text += f.where.empty() ? f.what : f.where + ": " + f.what;
        }
    }
    return text;
}

}  // namespace kinema::cli
