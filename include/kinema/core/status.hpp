// kinema/core: the outcome of a per-frame call.
//
// Loading, construction and binding return Result<T> (result.hpp), whose faults
// are strings. A per-frame call (an update, an evaluation, a parameter setter)
// must not allocate, so it returns a Status instead: a code, a fixed text naming
// the input it refused, and the indices that locate it. Nothing is formatted until
// message() is asked for. A call that returns a failed Status changed nothing.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kinema {

enum class StatusCode : std::uint8_t {
    Ok,
    NotFinite,     // a time, step, speed or weight that is NaN or infinite
    OutOfRange,    // a finite value outside its range (a weight outside [0, 1], elapsed < 0)
    WrongCount,    // a list of another length than the receiver has
    Missing,       // a required input is null
    ForeignInput,  // made for another skeleton (a clip, mask, pose or skin)
    UnknownName,   // no parameter, clip or state of that name
    WrongType,     // a parameter set through the setter of another type
    NotReady,      // the receiver has nothing to act on (no clip, no state)
};

// Stable lower-case text for a code ("not finite", "foreign input", ...).
std::string_view toString(StatusCode code) noexcept;

struct [[nodiscard]] Status {
    StatusCode code = StatusCode::Ok;
    // What was refused, as a fixed text ("layer weight outside [0, 1]"); never owned.
    const char* what = "";
    // Where, when it applies (-1 otherwise): instance of a batch, layer of an
    // instance, index of a joint, parameter or list entry.
    std::int64_t instance = -1;
    std::int64_t layer = -1;
    std::int64_t index = -1;

    constexpr bool ok() const noexcept { return code == StatusCode::Ok; }
    constexpr explicit operator bool() const noexcept { return ok(); }

    // "instance 3, layer 1: layer weight outside [0, 1]"; empty when ok().
    // Allocates: for logs and error reports, not for the frame loop.
    std::string message() const;

    static constexpr Status success() noexcept { return {}; }
    static constexpr Status failure(StatusCode code, const char* what) noexcept {
        Status s;
        s.code = code;
        s.what = what;
        return s;
    }
    constexpr Status at(std::int64_t instanceIndex, std::int64_t layerIndex = -1) const noexcept {
        Status s = *this;
        s.instance = instanceIndex;
        if (layerIndex >= 0) s.layer = layerIndex;
        return s;
    }
    constexpr Status withIndex(std::int64_t i) const noexcept {
        Status s = *this;
        s.index = i;
        return s;
    }
};

// A weight in [0, 1] passes; NaN and infinities fail with NotFinite and `notFinite`
// ("layer weight not finite"), other values with OutOfRange and `outside` ("layer
// weight outside [0, 1]"). Every per-frame entry of a weight (layers, masks, external
// poses, fades, IK) refuses through this one rule rather than clamping.
constexpr Status checkUnitWeight(float w, const char* outside, const char* notFinite) noexcept {
    if (w >= 0.0f && w <= 1.0f) return Status::success();
    const bool finite = w == w && w - w == 0.0f;  // false for NaN and infinities
    return finite ? Status::failure(StatusCode::OutOfRange, outside)
                  : Status::failure(StatusCode::NotFinite, notFinite);
}

}  // namespace kinema
