// libFuzzer target: arbitrary bytes as the JSON form of a tween.
//
// Beyond "no crash, no sanitizer report", each run checks the reader's contract: a
// rejection carries faults located in the input; an accepted tween has sorted,
// finite keys and writes back to text that reads as the same tween, bit for bit;
// sampling it anywhere gives finite values and unit rotations.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include "kinema/io/tween_json.hpp"

namespace {

[[noreturn]] void contractBroken(const char* what, const std::string& detail) {
    std::fprintf(stderr, "kinema tween fuzz: %s: %s\n", what, detail.c_str());
    std::abort();
}

template <class T>
bool sameBits(const T& a, const T& b) {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
void checkTrack(const kinema::TweenTrack<T>& track, const kinema::TweenTrack<T>& again, const std::string& text) {
    if (track.easing() != again.easing() || track.size() != again.size())
        contractBroken("round trip changed a track", text);
    const auto keys = track.keys();
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (!std::isfinite(keys[i].time) || keys[i].time < 0.0) contractBroken("bad key time accepted", text);
        if (i > 0 && !(keys[i].time > keys[i - 1].time)) contractBroken("keys not strictly increasing", text);
        if (!isFinite(keys[i].value)) contractBroken("non-finite key value accepted", text);
        if (!sameBits(keys[i].time, again.keys()[i].time) || !sameBits(keys[i].value, again.keys()[i].value))
            contractBroken("round trip changed a key", text);
    }
}

float norm(kinema::Quat q) { return std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto tween = kinema::parseTweenJson(text, "fuzz.json");
    if (!tween) {
        for (const kinema::Fault& f : tween.faults()) {
            // A JSON pointer, or for a syntax error the byte (line, column).
            if (f.where.rfind("fuzz.json#", 0) != 0 && f.where.rfind("fuzz.json@byte ", 0) != 0) {
                contractBroken("fault not located in the input", f.where);
            }
        }
        return 0;
    }
    const std::string written = kinema::toJson(*tween);
    auto again = kinema::parseTweenJson(written, "written");
    if (!again) contractBroken("written JSON does not read", again.message() + "\n" + written);
    checkTrack(tween->position, again->position, written);
    checkTrack(tween->rotation, again->rotation, written);
    checkTrack(tween->scale, again->scale, written);
    if (tween->length().has_value() != again->length().has_value() ||
        (tween->length() && !sameBits(*tween->length(), *again->length())))
        contractBroken("round trip changed the length", written);
    if (!(*tween == *again)) contractBroken("round trip changed the tween", written);

    // Sample across and beyond the duration, at the keys and between them.
    const double duration = tween->duration();
    if (!std::isfinite(duration) || duration < 0.0) contractBroken("bad duration", written);
    const double times[] = {
        -1.0, 0.0, duration * 0.25, duration * 0.5, duration, duration + 1.0, std::numeric_limits<double>::quiet_NaN()};
    for (std::size_t i = 0; i < sizeof times / sizeof times[0] + size % 7; ++i) {
        const double t =
            i < sizeof times / sizeof times[0] ? times[i] : duration * static_cast<double>(data[i % size]) / 255.0;
        kinema::Transform local;
        kinema::apply(*tween, t, local);
        if (!isFinite(local)) contractBroken("a sample is not finite", written);
        if (!tween->rotation.empty() && std::fabs(norm(local.rotation) - 1.0f) > 1e-5f)
            contractBroken("a sampled rotation is not unit", written);
    }
    return 0;
}
