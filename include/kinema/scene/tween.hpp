// kinema/scene: tweens, independent position / rotation / scale tracks with easing
// (docs/TWEENS.md).
//
// A TweenTrack is a time-sorted list of keys {time, value} with one Easing for the
// whole track: between two keys the value moves from the first to the second by the
// eased fraction of the interval. A Tween holds one track per property and an
// optional length that holds it open past its last key. Both are plain values: they
// own no clock and know no scene; apply() writes a tween's keyed properties at a time
// the caller chose (looping and holding are the caller's).
//
// Edits return Status and change nothing when they refuse (core/status.hpp).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "kinema/asset/easing.hpp"
#include "kinema/core/status.hpp"
#include "kinema/math/quat.hpp"
#include "kinema/math/transform.hpp"
#include "kinema/math/vec3.hpp"

namespace kinema {

template <class T>
struct TweenKey {
    double time = 0.0;  // seconds, finite, >= 0
    T value{};
    friend constexpr bool operator==(const TweenKey&, const TweenKey&) = default;
};

// T is Vec3 (position, scale: interpolated component-wise) or Quat (rotation:
// shortest-arc slerp).
template <class T>
class TweenTrack {
    static_assert(std::is_same_v<T, Vec3> || std::is_same_v<T, Quat>, "a tween track holds Vec3 or Quat values");

public:
    using Key = TweenKey<T>;

    // Adds a key, keeping the keys sorted by time (the place is found by binary
    // search). A key already at exactly `time` gets `value` instead: the track never
    // holds two keys at one time, so an interval is never of zero length.
    // Refused: a time that is not finite (NotFinite) or is negative (OutOfRange);
    // a value that is not finite (NotFinite); a zero quaternion (OutOfRange).
    // A quaternion whose length is 1 to float precision (|length^2 - 1| <= 1e-6) is
    // stored as given, any other one normalised: a stored key reads back bit for bit.
    // A time of -0 is stored as +0.
    Status insert(double time, T value);

    // Removes key `index`; OutOfRange (with the index) when there is no such key.
    Status remove(std::size_t index) noexcept;

    void setEasing(Easing easing) noexcept { easing_ = easing; }
    Easing easing() const noexcept { return easing_; }

    std::span<const Key> keys() const noexcept { return keys_; }
    std::size_t size() const noexcept { return keys_.size(); }
    // An empty track does not animate its property.
    bool empty() const noexcept { return keys_.empty(); }
    // Time of the last key; 0 when empty.
    double lastTime() const noexcept { return keys_.empty() ? 0.0 : keys_.back().time; }

    // The value at `time`, nullopt when the track is empty. Before the first key
    // (and for NaN) the first value; at or after the last key the last value; an
    // exact key time gives that key's value. Between keys k and k + 1 the fraction
    // u = (time - t_k) / (t_k+1 - t_k) is eased to e = ease(easing, u), and
    //   Vec3: a + (b - a) e, in double, component-wise (Back and Elastic overshoot
    //         past the keys, as the curves mean; a result beyond the float range
    //         is held at the largest float of its sign);
    //   Quat: slerp along the shorter arc by e, extrapolated along the same great
    //         circle when e leaves [0, 1]; always a unit quaternion.
    std::optional<T> sample(double time) const noexcept;

    friend bool operator==(const TweenTrack&, const TweenTrack&) = default;

private:
    std::vector<Key> keys_;
    Easing easing_ = Easing::Linear;
};

extern template class TweenTrack<Vec3>;
extern template class TweenTrack<Quat>;

using PositionTrack = TweenTrack<Vec3>;
using RotationTrack = TweenTrack<Quat>;
using ScaleTrack = TweenTrack<Vec3>;

class Tween {
public:
    PositionTrack position;
    RotationTrack rotation;
    ScaleTrack scale;

    // A length holds the tween open past its last key (a pause before a loop
    // restarts, say). Refused: not finite (NotFinite), negative (OutOfRange).
    Status setLength(double seconds) noexcept;
    void clearLength() noexcept { length_.reset(); }
    std::optional<double> length() const noexcept { return length_; }

    // The larger of the length and every non-empty track's last key time; 0 when
    // there is neither. Derived on every call, so it cannot disagree with the keys.
    double duration() const noexcept;

    friend bool operator==(const Tween&, const Tween&) = default;

private:
    std::optional<double> length_;
};

// Writes into `local` the value of every track of `tween` that has keys at `time`
// (each track clamped to its own keys as TweenTrack::sample does); an untweened
// property keeps its value.
void apply(const Tween& tween, double time, Transform& local) noexcept;

}  // namespace kinema
