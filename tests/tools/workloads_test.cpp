// The benchmark workloads are what docs/PERFORMANCE.md says they are: the W1
// skeleton is a binary heap, its clips have 61 keys per channel at 30 fps that loop
// without a seam, and each clip definition turns its rotations by at most the stated
// angle per key (the wide one close to it), measured here in double precision from
// the stored keys.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numbers>

#include "workloads.hpp"

namespace {

using kinema::Track;
using kinema::TrackPath;
using kinema::bench::W1Clip;

// The largest turn, in degrees, between consecutive rotation keys of any track.
double largestTurnPerKeyDegrees(const kinema::Clip& clip) {
    double largest = 0.0;
    for (const Track& t : clip.tracks()) {
        if (t.path != TrackPath::Rotation) continue;
        for (std::size_t k = 0; k + 1 < t.times.size(); ++k) {
            double d = 0.0;
            for (std::size_t c = 0; c < 4; ++c) {
                d += static_cast<double>(t.values[4 * k + c]) * static_cast<double>(t.values[4 * k + 4 + c]);
            }
            const double turn = 2.0 * std::acos(std::min(1.0, std::abs(d))) * 180.0 / std::numbers::pi;
            largest = std::max(largest, turn);
        }
    }
    return largest;
}

TEST(Workloads, W1IsABinaryHeapWithLoopingClipsOf61KeysAt30Fps) {
    for (const W1Clip definition : {W1Clip::Smooth, W1Clip::Wide}) {
        const kinema::bench::Workload& w = kinema::bench::w1(64, definition);
        ASSERT_TRUE(w.error.empty()) << w.error;
        const auto parents = w.model.skeleton.parents();
        ASSERT_EQ(parents.size(), 64u);
        EXPECT_EQ(parents[0], -1);
        for (std::size_t k = 1; k < parents.size(); ++k) EXPECT_EQ(parents[k], static_cast<int>((k - 1) / 2)) << k;
        const kinema::Clip& clip = w.model.clips.front();
        ASSERT_EQ(clip.tracks().size(), 64u * 3u);
        for (const Track& t : clip.tracks()) {
            ASSERT_EQ(t.times.size(), 61u);
            for (std::size_t f = 0; f < t.times.size(); ++f) EXPECT_FLOAT_EQ(t.times[f], static_cast<float>(f) / 30.0f);
            // The last key repeats the first bit for bit.
            for (std::size_t c = 0; c < t.width; ++c) EXPECT_EQ(t.values[60 * t.width + c], t.values[c]);
        }
    }
}

TEST(Workloads, ClipDefinitionsTurnAtMostTheirStatedAnglePerKey) {
    const double smooth = largestTurnPerKeyDegrees(kinema::bench::w1(128, W1Clip::Smooth).model.clips.front());
    const double wide = largestTurnPerKeyDegrees(kinema::bench::w1(128, W1Clip::Wide).model.clips.front());
    // 2 A sin(pi / 60) for A = 0.6 and 3.5 rad: 3.599 and 20.994 degrees, reached where
    // a key pair straddles the sinusoid's zero crossing symmetrically.
    EXPECT_LE(smooth, 3.60);
    EXPECT_GT(smooth, 3.50);
    EXPECT_LE(wide, 21.0);
    EXPECT_GT(wide, 20.5);  // beyond what a first-order corrected nlerp holds to 4.1e-7
    const kinema::bench::ClipWorkload& second = kinema::bench::w1SecondClip(128, W1Clip::Wide);
    ASSERT_TRUE(second.error.empty()) << second.error;
    EXPECT_LE(largestTurnPerKeyDegrees(second.clip), 21.0);
}

}  // namespace
