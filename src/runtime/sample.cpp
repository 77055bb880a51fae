#include "kinema/runtime/sample.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kinema/math/quat.hpp"

namespace kinema {

namespace {

// The floats around a double time: `below` the largest float <= time, `above` the
// smallest float >= time (both the time itself when it is a float; NaN for NaN).
// For a float key t, t <= time exactly when t <= below, and t < time exactly when
// t < above: the key search compares floats and decides as the comparison in double
// would, without widening every key it reads.
struct FloatBracket {
    float below;
    float above;
    explicit FloatBracket(double time) noexcept {
        const float nearest = static_cast<float>(time);
        const double n = nearest;
        below = n > time ? std::nextafter(nearest, -std::numeric_limits<float>::infinity()) : nearest;
        above = n < time ? std::nextafter(nearest, std::numeric_limits<float>::infinity()) : nearest;
    }
};

// findKeyInterval on FloatBracket::below.
std::uint32_t findInterval(std::span<const float> times, float below, std::uint32_t& hint) noexcept {
    const std::size_t n = times.size();
    std::size_t k = hint;
    if (k + 1 < n && times[k] <= below) {
        if (below < times[k + 1]) return hint;
        if (k + 2 < n && below < times[k + 2]) return hint = static_cast<std::uint32_t>(k + 1);
    }
    // upper_bound finds the first key strictly after the time; the interval starts one before.
    const auto it = std::upper_bound(times.begin(), times.end(), below);
    k = static_cast<std::size_t>(it - times.begin());
    k = k == 0 ? 0 : k - 1;
    k = std::min(k, n >= 2 ? n - 2 : 0);
    hint = static_cast<std::uint32_t>(k);
    return hint;
}

}  // namespace

std::uint32_t findKeyInterval(std::span<const float> times, double time, std::uint32_t& hint) noexcept {
    return findInterval(times, FloatBracket(time).below, hint);
}

namespace {

// Writes `width` floats of the key value at index `key`.
inline const float* keyValue(const Track& t, std::size_t key) noexcept {
    if (t.interpolation == Interpolation::CubicSpline) return &t.values[(key * 3 + 1) * t.width];
    return &t.values[key * t.width];
}

// `out` is the transform the track drives and `weights` its first morph weight.
void store(const Track& t, const float* v, Transform& out, float* weights) noexcept {
    switch (t.path) {
        case TrackPath::Translation: out.translation = {v[0], v[1], v[2]}; break;
        case TrackPath::Scale: out.scale = {v[0], v[1], v[2]}; break;
        case TrackPath::Rotation: out.rotation = {v[0], v[1], v[2], v[3]}; break;
        case TrackPath::Weights: std::copy(v, v + t.width, weights); break;
    }
}

// Interpolates within key interval k at fraction u in (0, 1).
void storeInterpolated(const Track& t, std::size_t k, float u, Transform& local, float* weights) noexcept {
    const std::size_t w = t.width;
    switch (t.interpolation) {
        case Interpolation::Step: store(t, keyValue(t, k), local, weights); return;
        case Interpolation::Linear: {
            const float* a = keyValue(t, k);
            const float* b = keyValue(t, k + 1);
            if (t.path == TrackPath::Rotation) {
                local.rotation = slerp({a[0], a[1], a[2], a[3]}, {b[0], b[1], b[2], b[3]}, u);
                return;
            }
            float tmp[4];
            float* out = t.path == TrackPath::Weights ? weights : tmp;
            // In double: keys of opposite signs more than the largest float apart
            // interpolate to the finite value between them.
            for (std::size_t i = 0; i < w; ++i)
                out[i] = static_cast<float>(a[i] + (static_cast<double>(b[i]) - a[i]) * u);
            if (t.path != TrackPath::Weights) store(t, tmp, local, weights);
            return;
        }
        case Interpolation::CubicSpline: {
            const float td = t.times[k + 1] - t.times[k];
            const float u2 = u * u, u3 = u2 * u;
            const float h00 = 2.0f * u3 - 3.0f * u2 + 1.0f;
            const float h10 = (u3 - 2.0f * u2 + u) * td;
            const float h01 = -2.0f * u3 + 3.0f * u2;
            const float h11 = (u3 - u2) * td;
            const float* v0 = &t.values[(k * 3 + 1) * w];
            const float* b0 = &t.values[(k * 3 + 2) * w];  // out-tangent of key k
            const float* a1 = &t.values[(k * 3 + 3) * w];  // in-tangent of key k + 1
            const float* v1 = &t.values[(k * 3 + 4) * w];
            float tmp[4];
            float* out = t.path == TrackPath::Weights ? weights : tmp;
            // In double, as the linear case: the sum's terms may pass the float range
            // where the curve itself does not.
            for (std::size_t i = 0; i < w; ++i) {
                out[i] = static_cast<float>(double{h00} * v0[i] + double{h10} * b0[i] + double{h01} * v1[i] +
                                            double{h11} * a1[i]);
            }
            if (t.path == TrackPath::Rotation) {
                const auto q = tryNormalize({tmp[0], tmp[1], tmp[2], tmp[3]});
                // A spline through unit keys can pass through zero only with absurd
                // tangents; hold the interval's start key rather than emit NaN.
                local.rotation = q ? *q : Quat{v0[0], v0[1], v0[2], v0[3]};
                return;
            }
            if (t.path != TrackPath::Weights) store(t, tmp, local, weights);
            return;
        }
    }
}

// One track at `time` into `out` / `weights`; `find` gives the key interval of a
// time strictly inside the keys.
template <class FindInterval>
void sampleOneTrack(const Track& t, double time, const FloatBracket& at, Transform& out, float* weights,
                    FindInterval&& find) noexcept {
    const std::size_t n = t.times.size();
    if (n == 1 || !(t.times.front() < at.above)) {  // time <= first key (or NaN)
        store(t, keyValue(t, 0), out, weights);
    } else if (t.times.back() <= at.below) {  // time >= last key
        store(t, keyValue(t, n - 1), out, weights);
    } else {
        const std::size_t k = find(t.times, at.below);
        const float t0 = t.times[k];
        if (time == t0) {
            store(t, keyValue(t, k), out, weights);
        } else {
            // In double, as the search: float key times widen exactly.
            const double u = (time - t0) / (static_cast<double>(t.times[k + 1]) - t0);
            storeInterpolated(t, k, static_cast<float>(std::min(u, 1.0)), out, weights);
        }
    }
}

std::size_t searchInterval(std::span<const float> times, float below) noexcept {
    const auto it = std::upper_bound(times.begin(), times.end(), below);
    return static_cast<std::size_t>(it - times.begin()) - 1;
}

template <class FindInterval>
bool sampleTracks(const Clip& clip, double time, std::span<Transform> local, std::span<float> weights,
                  FindInterval&& find) noexcept {
    if (local.size() < clip.jointsNeeded() || weights.size() < clip.weightsNeeded()) return false;
    const auto tracks = clip.tracks();
    const FloatBracket at(time);
    for (std::size_t i = 0; i < tracks.size(); ++i) {
        const Track& t = tracks[i];
        sampleOneTrack(t, time, at, local[t.target], weights.data() + t.weightOffset,
                       [&](std::span<const float> times, float below) { return find(i, times, below); });
    }
    return true;
}

}  // namespace

bool reference::sample(const Clip& clip, double time, SamplingCursor& cursor, std::span<Transform> local,
                       std::span<float> weights) noexcept {
    if (cursor.trackCount() != clip.tracks().size()) return false;
    const auto keys = cursor.keys();
    return sampleTracks(clip, time, local, weights, [&](std::size_t track, std::span<const float> times, float below) {
        return findInterval(times, below, keys[track]);
    });
}

bool reference::sample(const Clip& clip, double time, std::span<Transform> local, std::span<float> weights) noexcept {
    return sampleTracks(clip, time, local, weights, [](std::size_t, std::span<const float> times, float below) {
        return searchInterval(times, below);
    });
}

bool reference::sampleTrack(const Track& track, double time, Transform& local, std::span<float> weights) noexcept {
    std::uint32_t keyHint = 0;  // any hint is correct; a wrong one costs one binary search
    return sampleTrack(track, time, keyHint, local, weights);
}

bool reference::sampleTrack(const Track& track, double time, std::uint32_t& keyHint, Transform& local,
                            std::span<float> weights) noexcept {
    if (track.times.empty()) return false;
    if (track.path == TrackPath::Weights && weights.size() < track.width) return false;
    sampleOneTrack(track, time, FloatBracket(time), local, weights.data(),
                   [&](std::span<const float> times, float below) { return findInterval(times, below, keyHint); });
    return true;
}

}  // namespace kinema
