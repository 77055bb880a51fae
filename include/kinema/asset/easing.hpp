// kinema/asset: easing curves for fades, tweens and blend weights.
//
// Linear plus In/Out/InOut of Quad, Cubic, Quart, Quint, Sine, Expo, Circ, Back,
// Elastic and Bounce: 31 curves. KINEMA_EASINGS is the one list; the enumerators,
// the stable names (what files store) and the functions are all generated from it,
// so they cannot disagree. Every curve maps 0 -> 0 and 1 -> 1; Back and Elastic
// leave [0, 1] in between, as they are meant to.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace kinema {

// X(enumerator, stable name)
// clang-format off
#define KINEMA_EASINGS(X)                                                                                     \
    X(Linear, "linear")                                                                                       \
    X(InQuad, "inQuad") X(OutQuad, "outQuad") X(InOutQuad, "inOutQuad")                                       \
    X(InCubic, "inCubic") X(OutCubic, "outCubic") X(InOutCubic, "inOutCubic")                                 \
    X(InQuart, "inQuart") X(OutQuart, "outQuart") X(InOutQuart, "inOutQuart")                                 \
    X(InQuint, "inQuint") X(OutQuint, "outQuint") X(InOutQuint, "inOutQuint")                                 \
    X(InSine, "inSine") X(OutSine, "outSine") X(InOutSine, "inOutSine")                                       \
    X(InExpo, "inExpo") X(OutExpo, "outExpo") X(InOutExpo, "inOutExpo")                                       \
    X(InCirc, "inCirc") X(OutCirc, "outCirc") X(InOutCirc, "inOutCirc")                                       \
    X(InBack, "inBack") X(OutBack, "outBack") X(InOutBack, "inOutBack")                                       \
    X(InElastic, "inElastic") X(OutElastic, "outElastic") X(InOutElastic, "inOutElastic")                     \
    X(InBounce, "inBounce") X(OutBounce, "outBounce") X(InOutBounce, "inOutBounce")
// clang-format on

enum class Easing : std::uint8_t {
#define KINEMA_EASING_ENUM(e, name) e,
    KINEMA_EASINGS(KINEMA_EASING_ENUM)
#undef KINEMA_EASING_ENUM
};

inline constexpr std::size_t kEasingCount = 0
#define KINEMA_EASING_COUNT(e, name) +1
    KINEMA_EASINGS(KINEMA_EASING_COUNT)
#undef KINEMA_EASING_COUNT
    ;

// Every curve, in list order.
std::span<const Easing> allEasings() noexcept;

std::string_view toString(Easing easing) noexcept;
// The curve a stable name stands for (exact, case-sensitive match), or nullopt.
std::optional<Easing> parseEasing(std::string_view name) noexcept;

// The curve at t; t is clamped to [0, 1] first (NaN counts as 0), so the result
// is always finite.
float ease(Easing easing, float t) noexcept;

}  // namespace kinema
