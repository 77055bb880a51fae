#include "kinema/asset/easing.hpp"

#include <array>
#include <cmath>
#include <numbers>

namespace kinema {

namespace {

constexpr double kPi = std::numbers::pi;

double power(double x, int n) {
    double r = 1.0;
    for (int i = 0; i < n; ++i) r *= x;
    return r;
}

// The In curve of each polynomial family is x^n; Out and InOut follow from it.
double inPoly(double t, int n) { return power(t, n); }
double outPoly(double t, int n) { return 1.0 - power(1.0 - t, n); }
double inOutPoly(double t, int n) { return t < 0.5 ? 0.5 * power(2.0 * t, n) : 1.0 - 0.5 * power(2.0 - 2.0 * t, n); }

// Back overshoots by 10 % with this constant; InOut uses the larger constant that
// gives the same overshoot on each half.
constexpr double kBack = 1.70158;
constexpr double kBackInOut = kBack * 1.525;

double outBounce(double t) {
    constexpr double n = 7.5625, d = 2.75;
    if (t < 1.0 / d) return n * t * t;
    if (t < 2.0 / d) {
        t -= 1.5 / d;
        return n * t * t + 0.75;
    }
    if (t < 2.5 / d) {
        t -= 2.25 / d;
        return n * t * t + 0.9375;
    }
    t -= 2.625 / d;
    return n * t * t + 0.984375;
}

double evaluate(Easing e, double t) {
    switch (e) {
        case Easing::Linear: return t;
        case Easing::InQuad: return inPoly(t, 2);
        case Easing::OutQuad: return outPoly(t, 2);
        case Easing::InOutQuad: return inOutPoly(t, 2);
        case Easing::InCubic: return inPoly(t, 3);
        case Easing::OutCubic: return outPoly(t, 3);
        case Easing::InOutCubic: return inOutPoly(t, 3);
        case Easing::InQuart: return inPoly(t, 4);
        case Easing::OutQuart: return outPoly(t, 4);
        case Easing::InOutQuart: return inOutPoly(t, 4);
        case Easing::InQuint: return inPoly(t, 5);
        case Easing::OutQuint: return outPoly(t, 5);
        case Easing::InOutQuint: return inOutPoly(t, 5);
        case Easing::InSine: return 1.0 - std::cos(t * kPi / 2.0);
        case Easing::OutSine: return std::sin(t * kPi / 2.0);
        case Easing::InOutSine: return 0.5 * (1.0 - std::cos(kPi * t));
        // Expo is pinned at the ends: 2^(10t - 10) is 1/1024, not 0, at t = 0.
        case Easing::InExpo: return t <= 0.0 ? 0.0 : std::exp2(10.0 * t - 10.0);
        case Easing::OutExpo: return t >= 1.0 ? 1.0 : 1.0 - std::exp2(-10.0 * t);
        case Easing::InOutExpo:
            if (t <= 0.0 || t >= 1.0) return t;
            return t < 0.5 ? 0.5 * std::exp2(20.0 * t - 10.0) : 1.0 - 0.5 * std::exp2(10.0 - 20.0 * t);
        case Easing::InCirc: return 1.0 - std::sqrt(1.0 - t * t);
        case Easing::OutCirc: return std::sqrt(1.0 - (t - 1.0) * (t - 1.0));
        case Easing::InOutCirc:
            return t < 0.5 ? 0.5 * (1.0 - std::sqrt(1.0 - 4.0 * t * t))
                           : 0.5 * (1.0 + std::sqrt(1.0 - (2.0 - 2.0 * t) * (2.0 - 2.0 * t)));
        case Easing::InBack: return t * t * ((kBack + 1.0) * t - kBack);
        case Easing::OutBack: {
            const double s = t - 1.0;
            return 1.0 + s * s * ((kBack + 1.0) * s + kBack);
        }
        case Easing::InOutBack: {
            if (t < 0.5) {
                const double s = 2.0 * t;
                return 0.5 * s * s * ((kBackInOut + 1.0) * s - kBackInOut);
            }
            const double s = 2.0 * t - 2.0;
            return 0.5 * (s * s * ((kBackInOut + 1.0) * s + kBackInOut) + 2.0);
        }
        // Elastic: a sine of period 0.3 (0.45 for InOut) under an exponential envelope.
        case Easing::InElastic:
            if (t <= 0.0 || t >= 1.0) return t;
            return -std::exp2(10.0 * t - 10.0) * std::sin((10.0 * t - 10.75) * (2.0 * kPi / 3.0));
        case Easing::OutElastic:
            if (t <= 0.0 || t >= 1.0) return t;
            return std::exp2(-10.0 * t) * std::sin((10.0 * t - 0.75) * (2.0 * kPi / 3.0)) + 1.0;
        case Easing::InOutElastic: {
            if (t <= 0.0 || t >= 1.0) return t;
            const double w = std::sin((20.0 * t - 11.125) * (2.0 * kPi / 4.5));
            return t < 0.5 ? -0.5 * std::exp2(20.0 * t - 10.0) * w : 0.5 * std::exp2(10.0 - 20.0 * t) * w + 1.0;
        }
        case Easing::InBounce: return 1.0 - outBounce(1.0 - t);
        case Easing::OutBounce: return outBounce(t);
        case Easing::InOutBounce:
            return t < 0.5 ? 0.5 * (1.0 - outBounce(1.0 - 2.0 * t)) : 0.5 * (1.0 + outBounce(2.0 * t - 1.0));
    }
    return t;
}

constexpr std::array<Easing, kEasingCount> kAll{
#define KINEMA_EASING_VALUE(e, name) Easing::e,
    KINEMA_EASINGS(KINEMA_EASING_VALUE)
#undef KINEMA_EASING_VALUE
};

constexpr std::array<std::string_view, kEasingCount> kNames{
#define KINEMA_EASING_NAME(e, name) std::string_view(name),
    KINEMA_EASINGS(KINEMA_EASING_NAME)
#undef KINEMA_EASING_NAME
};

}  // namespace

std::span<const Easing> allEasings() noexcept { return kAll; }

std::string_view toString(Easing easing) noexcept {
    const auto i = static_cast<std::size_t>(easing);
    return i < kNames.size() ? kNames[i] : std::string_view("unknown");
}

std::optional<Easing> parseEasing(std::string_view name) noexcept {
    for (std::size_t i = 0; i < kNames.size(); ++i) {
        if (kNames[i] == name) return kAll[i];
    }
    return std::nullopt;
}

float ease(Easing easing, float t) noexcept {
    // The ends exactly: a closed form such as OutBack's 1 + (k + 1) s^3 + k s^2 at s = -1
    // rounds to 2e-16 rather than 0.
    if (!(t > 0.0f)) return 0.0f;  // NaN -> 0
    if (t >= 1.0f) return 1.0f;
    return static_cast<float>(evaluate(easing, static_cast<double>(t)));
}

}  // namespace kinema
