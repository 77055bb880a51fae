// Blend spaces: 1D and 2D weights against values worked out by hand
// (linear interpolation, barycentric coordinates, projection onto the hull), the
// located validation faults, the cycle length as a weighted mean, the two sync
// modes over long runs with a changing parameter (event counts by arithmetic, the
// feet of a walk-run blend never crossing), the bit-for-bit hand-over of steps, and
// the per-frame path refusing bad input and never moving its storage.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "kinema/asset/clip.hpp"
#include "kinema/play/blend_space.hpp"
#include "kinema/play/player.hpp"
#include "play/fixtures.hpp"

namespace {

using namespace kinema;

Clip makeClip(const std::string& name, float duration, std::vector<Marker> markers = {}) {
    return test::lineClip(name, duration, std::move(markers));
}

BlendSpace made(Result<BlendSpace> r) {
    EXPECT_TRUE(r.ok()) << r.message();
    return std::move(r).value();
}

std::vector<float> weightsAt(const BlendSpace& s, float x, float y = 0.0f) {
    std::vector<float> w(s.clips().size(), -1.0f);
    s.weights(x, y, w);
    return w;
}

void expectWeights(const std::vector<float>& got, const std::vector<double>& want, const std::string& what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    double sum = 0.0;
    for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_NEAR(got[i], want[i], 1e-6) << what << ", clip " << i;
        EXPECT_GE(got[i], 0.0f) << what << ", clip " << i;
        sum += got[i];
    }
    EXPECT_NEAR(sum, 1.0, 1e-6) << what;
}

std::vector<std::string> faultWheres(const Result<BlendSpace>& r) {
    std::vector<std::string> w;
    for (const Fault& f : r.faults()) w.push_back(f.where);
    return w;
}

std::size_t nonZero(const std::vector<float>& w) {
    return static_cast<std::size_t>(std::count_if(w.begin(), w.end(), [](float v) { return v != 0.0f; }));
}

// --- 1D weights -----------------------------------------------------------------

struct Line {
    Clip a = makeClip("a", 1.0f), b = makeClip("b", 0.5f), c = makeClip("c", 2.0f);
    // Given out of order on purpose: clip indices are the given order, not x order.
    BlendSpace space = made(BlendSpace::create1D({{&a, 2.0f}, {&b, 0.0f}, {&c, 1.0f}}));
};

TEST(BlendSpace1D, AtAPositionThatClipHasAllTheWeight) {
    Line l;
    EXPECT_EQ(l.space.dimensions(), 1u);
    expectWeights(weightsAt(l.space, 0.0f), {0, 1, 0}, "x=0");
    expectWeights(weightsAt(l.space, 1.0f), {0, 0, 1}, "x=1");
    expectWeights(weightsAt(l.space, 2.0f), {1, 0, 0}, "x=2");
}

TEST(BlendSpace1D, BetweenTwoPositionsTheNeighboursInterpolateLinearly) {
    Line l;
    expectWeights(weightsAt(l.space, 0.25f), {0, 0.75, 0.25}, "x=0.25");
    expectWeights(weightsAt(l.space, 1.5f), {0.5, 0, 0.5}, "x=1.5");
    expectWeights(weightsAt(l.space, 1.875f), {0.875, 0, 0.125}, "x=1.875");
}

TEST(BlendSpace1D, BeyondTheEndsTheEndClipHasAllTheWeight) {
    Line l;
    expectWeights(weightsAt(l.space, -5.0f), {0, 1, 0}, "x=-5");
    expectWeights(weightsAt(l.space, 7.0f), {1, 0, 0}, "x=7");
}

TEST(BlendSpace1D, YIsIgnoredAndANonFiniteXIsClip0sPosition) {
    Line l;
    expectWeights(weightsAt(l.space, 0.25f, 100.0f), {0, 0.75, 0.25}, "y ignored");
    expectWeights(weightsAt(l.space, 0.25f, NAN), {0, 0.75, 0.25}, "non-finite y ignored");
    expectWeights(weightsAt(l.space, NAN), {1, 0, 0}, "NaN: clip 0 is at x=2");
    expectWeights(weightsAt(l.space, -INFINITY), {1, 0, 0}, "-inf");
}

TEST(BlendSpace1D, OneClipHasAllTheWeightEverywhere) {
    const Clip a = makeClip("a", 1.0f);
    const BlendSpace s = made(BlendSpace::create1D({{&a, 3.0f}}));
    expectWeights(weightsAt(s, -1.0f), {1}, "below");
    expectWeights(weightsAt(s, 3.0f), {1}, "at");
    expectWeights(weightsAt(s, 9.0f), {1}, "above");
}

TEST(BlendSpace1D, AWronglySizedOutputIsLeftAlone) {
    Line l;
    std::vector<float> w(2, -1.0f);
    l.space.weights(0.5f, 0.0f, w);
    EXPECT_EQ(w, (std::vector<float>{-1.0f, -1.0f}));
}

// --- 2D weights -----------------------------------------------------------------

// A(0,0) B(2,0) C(0,2) D(3,3): D lies outside the circle through A, B, C (centre
// (1,1), radius sqrt 2) and A outside the one through B, C, D (centre (1.75,1.75)),
// so the Delaunay triangulation is exactly ABC and BCD.
struct Kite {
    Clip a = makeClip("a", 1.0f), b = makeClip("b", 1.0f), c = makeClip("c", 1.0f), d = makeClip("d", 1.0f);
    BlendSpace space = made(BlendSpace::create2D({{&a, 0, 0}, {&b, 2, 0}, {&c, 0, 2}, {&d, 3, 3}}));
};

std::set<std::uint32_t> asSet(const std::array<std::uint32_t, 3>& t) { return {t[0], t[1], t[2]}; }

TEST(BlendSpace2D, TheTriangulationIsDelaunay) {
    Kite k;
    EXPECT_EQ(k.space.dimensions(), 2u);
    ASSERT_EQ(k.space.triangles().size(), 2u);
    std::set<std::set<std::uint32_t>> got;
    for (const auto& t : k.space.triangles()) got.insert(asSet(t));
    EXPECT_EQ(got, (std::set<std::set<std::uint32_t>>{{0, 1, 2}, {1, 2, 3}}));
}

TEST(BlendSpace2D, AtAVertexThatClipHasAllTheWeight) {
    Kite k;
    expectWeights(weightsAt(k.space, 0, 0), {1, 0, 0, 0}, "A");
    expectWeights(weightsAt(k.space, 2, 0), {0, 1, 0, 0}, "B");
    expectWeights(weightsAt(k.space, 0, 2), {0, 0, 1, 0}, "C");
    expectWeights(weightsAt(k.space, 3, 3), {0, 0, 0, 1}, "D");
}

TEST(BlendSpace2D, OnAnEdgeOnlyItsEndsAreWeighted) {
    Kite k;
    expectWeights(weightsAt(k.space, 0.5f, 0), {0.75, 0.25, 0, 0}, "AB at a quarter");
    expectWeights(weightsAt(k.space, 1, 1), {0, 0.5, 0.5, 0}, "BC (shared) in the middle");
    expectWeights(weightsAt(k.space, 2.25f, 0.75f), {0, 0.75, 0, 0.25}, "BD at a quarter");
}

TEST(BlendSpace2D, InsideATriangleTheWeightsAreBarycentric) {
    Kite k;
    // In ABC: (x, y) = A + (x/2)(B - A) + (y/2)(C - A).
    expectWeights(weightsAt(k.space, 0.5f, 0.5f), {0.5, 0.25, 0.25, 0}, "(0.5, 0.5)");
    // In BCD: (1.5, 1.5) = B + s (C - B) + t (D - B) with 2 - 2s + t = 1.5 and
    // 2s + 3t = 1.5, so s = 0.375, t = 0.25, and B keeps 1 - s - t = 0.375.
    expectWeights(weightsAt(k.space, 1.5f, 1.5f), {0, 0.375, 0.375, 0.25}, "(1.5, 1.5)");
}

TEST(BlendSpace2D, OutsideTheHullThePointIsProjectedOntoIt) {
    Kite k;
    expectWeights(weightsAt(k.space, 1, -1), {0.5, 0.5, 0, 0}, "below AB: onto (1, 0)");
    expectWeights(weightsAt(k.space, -1, 1), {0.5, 0, 0.5, 0}, "left of CA: onto (0, 1)");
    expectWeights(weightsAt(k.space, 4, 4), {0, 0, 0, 1}, "past D: onto D");
    expectWeights(weightsAt(k.space, -3, -1), {1, 0, 0, 0}, "past A: onto A");
    // Off DC: the foot of (1.5, 3.5) on C(0,2) -> D(3,3) is at t = (4.5 + 1.5) / 10.
    expectWeights(weightsAt(k.space, 1.5f, 3.5f), {0, 0, 0.4, 0.6}, "above DC");
}

TEST(BlendSpace2D, ANonFiniteCoordinateIsClip0sPosition) {
    Kite k;
    expectWeights(weightsAt(k.space, NAN, 1), {1, 0, 0, 0}, "NaN x");
    expectWeights(weightsAt(k.space, 1, INFINITY), {1, 0, 0, 0}, "inf y");
}

// Barycentric weights reproduce position (sum of w_i p_i == p) whichever diagonal a
// co-circular square takes, so a 3x3 grid (every cell co-circular) can be checked
// without knowing its triangles; outside, the reproduced point is the clamp onto
// the square, the nearest point of the hull.
TEST(BlendSpace2D, AGridOfCoCircularCellsReproducesEveryPoint) {
    std::vector<Clip> clips;
    for (int i = 0; i < 9; ++i) clips.push_back(makeClip(std::string("g").append(std::to_string(i)), 1.0f));
    std::vector<BlendSpaceClip> placed;
    for (int i = 0; i < 9; ++i)
        placed.push_back({&clips[static_cast<std::size_t>(i)], float(i % 3 - 1), float(i / 3 - 1)});
    const BlendSpace s = made(BlendSpace::create2D(placed));
    EXPECT_EQ(s.triangles().size(), 8u);  // 2 per cell, 4 cells
    for (int i = 0; i < 9; ++i) {
        std::vector<double> want(9, 0.0);
        want[static_cast<std::size_t>(i)] = 1.0;
        expectWeights(weightsAt(s, placed[static_cast<std::size_t>(i)].x, placed[static_cast<std::size_t>(i)].y), want,
                      std::string("vertex ").append(std::to_string(i)));
    }
    for (float x = -1.6f; x <= 1.6f; x += 0.1f) {
        for (float y = -1.6f; y <= 1.6f; y += 0.1f) {
            const std::vector<float> w = weightsAt(s, x, y);
            double px = 0, py = 0, sum = 0;
            for (std::size_t i = 0; i < 9; ++i) {
                ASSERT_GE(w[i], 0.0f);
                px += w[i] * placed[i].x;
                py += w[i] * placed[i].y;
                sum += w[i];
            }
            EXPECT_NEAR(sum, 1.0, 1e-6);
            EXPECT_LE(nonZero(w), 3u);
            EXPECT_NEAR(px, std::clamp(x, -1.0f, 1.0f), 1e-5) << x << ", " << y;
            EXPECT_NEAR(py, std::clamp(y, -1.0f, 1.0f), 1e-5) << x << ", " << y;
        }
    }
}

// For scattered points: every triangle's circumcircle is empty, the triangles tile
// the convex hull (their areas sum to the hull's, from the test's own monotone
// chain), and weights reproduce a point inside and the nearest hull point outside.
TEST(BlendSpace2D, ScatteredPointsAreTriangulatedAndBlendedExactly) {
    std::uint32_t seed = 12345u;
    const auto next = [&] {
        seed = seed * 1664525u + 1013904223u;
        return static_cast<float>(seed >> 8) / 16777216.0f * 10.0f - 5.0f;
    };
    std::vector<Clip> clips;
    std::vector<BlendSpaceClip> placed;
    for (int i = 0; i < 24; ++i) clips.push_back(makeClip(std::string("p").append(std::to_string(i)), 1.0f));
    for (int i = 0; i < 24; ++i) placed.push_back({&clips[static_cast<std::size_t>(i)], next(), next()});
    const BlendSpace s = made(BlendSpace::create2D(placed));

    using P = std::array<double, 2>;
    std::vector<P> p;
    for (const auto& c : placed) p.push_back({c.x, c.y});
    const auto cross = [](const P& o, const P& a, const P& b) {
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
    };
    // Convex hull (Andrew's monotone chain), counter-clockwise.
    std::vector<P> sorted = p;
    std::sort(sorted.begin(), sorted.end());
    std::vector<P> hull;
    for (int pass = 0; pass < 2; ++pass) {
        const std::size_t base = hull.size();
        for (const P& q : sorted) {
            while (hull.size() >= base + 2 && cross(hull[hull.size() - 2], hull.back(), q) <= 0) hull.pop_back();
            hull.push_back(q);
        }
        hull.pop_back();
        std::reverse(sorted.begin(), sorted.end());
    }
    double hullArea = 0;
    for (std::size_t i = 0; i < hull.size(); ++i) hullArea += cross({0, 0}, hull[i], hull[(i + 1) % hull.size()]);

    double area = 0;
    for (const auto& t : s.triangles()) {
        const P &a = p[t[0]], &b = p[t[1]], &c = p[t[2]];
        const double twice = cross(a, b, c);
        EXPECT_GT(twice, 0.0) << "counter-clockwise";
        area += twice;
        // Circumcentre and radius, to test emptiness directly.
        const double d = 2 * (a[0] * (b[1] - c[1]) + b[0] * (c[1] - a[1]) + c[0] * (a[1] - b[1]));
        const double a2 = a[0] * a[0] + a[1] * a[1], b2 = b[0] * b[0] + b[1] * b[1], c2 = c[0] * c[0] + c[1] * c[1];
        const double ux = (a2 * (b[1] - c[1]) + b2 * (c[1] - a[1]) + c2 * (a[1] - b[1])) / d;
        const double uy = (a2 * (c[0] - b[0]) + b2 * (a[0] - c[0]) + c2 * (b[0] - a[0])) / d;
        const double r = std::hypot(a[0] - ux, a[1] - uy);
        for (std::size_t i = 0; i < p.size(); ++i) {
            if (i == t[0] || i == t[1] || i == t[2]) continue;
            EXPECT_GE(std::hypot(p[i][0] - ux, p[i][1] - uy), r * (1 - 1e-9)) << "point " << i << " in a circumcircle";
        }
    }
    EXPECT_NEAR(area, hullArea, 1e-9 * hullArea);

    const auto inside = [&](const P& q) {
        for (std::size_t i = 0; i < hull.size(); ++i) {
            if (cross(hull[i], hull[(i + 1) % hull.size()], q) < 0) return false;
        }
        return true;
    };
    const auto nearestOnHull = [&](const P& q) {
        P best{};
        double bestD = INFINITY;
        for (std::size_t i = 0; i < hull.size(); ++i) {
            const P &a = hull[i], &b = hull[(i + 1) % hull.size()];
            const double dx = b[0] - a[0], dy = b[1] - a[1];
            const double t = std::clamp(((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / (dx * dx + dy * dy), 0.0, 1.0);
            const P f{a[0] + t * dx, a[1] + t * dy};
            const double dd = std::hypot(f[0] - q[0], f[1] - q[1]);
            if (dd < bestD) {
                bestD = dd;
                best = f;
            }
        }
        return best;
    };
    for (int i = 0; i < 400; ++i) {
        const float x = next() * 1.3f, y = next() * 1.3f;
        const std::vector<float> w = weightsAt(s, x, y);
        double px = 0, py = 0, sum = 0;
        for (std::size_t j = 0; j < w.size(); ++j) {
            ASSERT_GE(w[j], 0.0f);
            px += w[j] * p[j][0];
            py += w[j] * p[j][1];
            sum += w[j];
        }
        EXPECT_NEAR(sum, 1.0, 1e-6);
        const P q{x, y};
        const bool in = inside(q);
        EXPECT_LE(nonZero(w), in ? 3u : 2u);
        const P want = in ? q : nearestOnHull(q);
        EXPECT_NEAR(px, want[0], 1e-4) << x << ", " << y;
        EXPECT_NEAR(py, want[1], 1e-4) << x << ", " << y;
    }
}

// --- validation -----------------------------------------------------------------

TEST(BlendSpaceValidation, NoClipsIsRefused) {
    const auto r1 = BlendSpace::create1D({});
    ASSERT_FALSE(r1.ok());
    EXPECT_EQ(faultWheres(r1), std::vector<std::string>{"clips"});
    const Clip a = makeClip("a", 1.0f), b = makeClip("b", 1.0f);
    const auto r2 = BlendSpace::create2D({{&a, 0, 0}, {&b, 1, 0}});
    ASSERT_FALSE(r2.ok());
    EXPECT_EQ(faultWheres(r2), std::vector<std::string>{"clips"});
    EXPECT_NE(r2.message().find("at least 3"), std::string::npos) << r2.message();
}

// kMaxBlendSpaceClips clips are a space; one more is refused at once, at "clips".
TEST(BlendSpaceValidation, MoreThanTheMostClipsIsRefused) {
    const Clip a = makeClip("a", 1.0f);
    std::vector<BlendSpaceClip> clips;
    for (std::size_t i = 0; i < kMaxBlendSpaceClips; ++i) {
        const auto k = static_cast<float>(i);
        clips.push_back({&a, k, static_cast<float>(i % 32) + 0.001f * k * k / 1024.0f});
    }
    EXPECT_TRUE(BlendSpace::create1D(clips).ok());
    EXPECT_TRUE(BlendSpace::create2D(clips).ok());
    clips.push_back({&a, -1.0f, 0.5f});
    for (const auto& r : {BlendSpace::create1D(clips), BlendSpace::create2D(clips)}) {
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(faultWheres(r), std::vector<std::string>{"clips"});
        EXPECT_NE(r.message().find("at most 1024 clips, got 1025"), std::string::npos) << r.message();
    }
}

TEST(BlendSpaceValidation, EveryBadEntryIsReportedAtItsIndex) {
    const Clip a = makeClip("a", 1.0f);
    const auto empty = Clip::create("empty", {});
    ASSERT_TRUE(empty.ok());
    ASSERT_EQ(empty->duration(), 0.0f);
    const auto r = BlendSpace::create1D({{&a, 0.0f}, {nullptr, 1.0f}, {&*empty, 2.0f}, {&a, NAN}, {&a, 0.0f}});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(faultWheres(r), (std::vector<std::string>{"clips/1/clip", "clips/2/clip", "clips/3/x", "clips/4"}));
    EXPECT_NE(r.faults()[0].what.find("null"), std::string::npos) << r.message();
    EXPECT_NE(r.faults()[1].what.find("duration 0"), std::string::npos) << r.message();
    EXPECT_NE(r.faults()[2].what.find("not finite"), std::string::npos) << r.message();
    EXPECT_NE(r.faults()[3].what.find("clips/0"), std::string::npos) << r.message();
}

TEST(BlendSpaceValidation, TwoDimensionsCheckYAndWholePositions) {
    const Clip a = makeClip("a", 1.0f);
    // Same x, different y is fine in 2D; the same (x, y) is not.
    const auto r = BlendSpace::create2D({{&a, 0, 0}, {&a, 0, 1}, {&a, 1, INFINITY}, {&a, 0, 1}, {&a, 1, 0}});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(faultWheres(r), (std::vector<std::string>{"clips/2/y", "clips/3"}));
    EXPECT_NE(r.faults()[1].what.find("clips/1"), std::string::npos) << r.message();
}

TEST(BlendSpaceValidation, CollinearPositionsAreNotA2DSpace) {
    const Clip a = makeClip("a", 1.0f);
    const auto r = BlendSpace::create2D({{&a, 0, 0}, {&a, 1, 1}, {&a, 3, 3}, {&a, -2, -2}});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(faultWheres(r), std::vector<std::string>{"clips"});
    EXPECT_NE(r.message().find("one line"), std::string::npos) << r.message();
    // Collinear points beside others are fine (a row of a grid).
    EXPECT_TRUE(BlendSpace::create2D({{&a, 0, 0}, {&a, 1, 0}, {&a, 2, 0}, {&a, 3, 0}, {&a, 1, 1}}).ok());
}

TEST(BlendSpaceValidation, MarkerSyncNeedsTheSameMarkersInTheSameOrder) {
    const Clip walk = makeClip("walk", 1.0f, {{"footL", 0.0f}, {"footR", 0.5f}});
    const Clip none = makeClip("none", 1.0f);
    const Clip swapped = makeClip("swapped", 1.0f, {{"footR", 0.2f}, {"footL", 0.7f}});
    const Clip three = makeClip("three", 1.0f, {{"footL", 0.0f}, {"footR", 0.5f}, {"jump", 0.7f}});
    const Clip atEnd = makeClip("atEnd", 1.0f, {{"footL", 0.5f}, {"footR", 1.0f}});
    const Clip same = makeClip("same", 1.0f, {{"footL", 0.5f}, {"footR", 0.5f}});
    const auto r = BlendSpace::create1D({{&walk, 0}, {&none, 1}, {&swapped, 2}, {&three, 3}, {&atEnd, 4}, {&same, 5}},
                                        BlendSync::Markers);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(faultWheres(r),
              (std::vector<std::string>{"clips/1/markers", "clips/2/markers/0", "clips/2/markers/1", "clips/3/markers",
                                        "clips/4/markers/1", "clips/5/markers/1"}))
        << r.message();
    // Without marker sync the same clips are fine.
    EXPECT_TRUE(BlendSpace::create1D({{&walk, 0}, {&none, 1}, {&swapped, 2}}).ok());
    // Clip 0 itself needs markers; the others are not compared with nothing.
    const auto r0 = BlendSpace::create1D({{&none, 0}, {&walk, 1}}, BlendSync::Markers);
    EXPECT_EQ(faultWheres(r0), std::vector<std::string>{"clips/0/markers"});
}

// --- the player -----------------------------------------------------------------

TEST(BlendSpacePlayer, CycleDurationIsTheWeightedMeanOfTheDurations) {
    Line l;  // durations: a 1 s at x=2, b 0.5 s at x=0, c 2 s at x=1
    BlendSpacePlayer p(l.space);
    EXPECT_DOUBLE_EQ(p.cycleDuration(), 0.5) << "parameters start at 0: all b";
    ASSERT_TRUE(p.setParameters(0.5f));
    EXPECT_DOUBLE_EQ(p.cycleDuration(), 0.5 * 0.5 + 0.5 * 2.0);
    ASSERT_TRUE(p.setParameters(1.25f));
    EXPECT_DOUBLE_EQ(p.cycleDuration(), 0.75 * 2.0 + 0.25 * 1.0);
    ASSERT_TRUE(p.setParameters(9.0f));
    EXPECT_DOUBLE_EQ(p.cycleDuration(), 1.0);
    EXPECT_EQ(BlendSpacePlayer().cycleDuration(), 0.0);
}

TEST(BlendSpacePlayer, NonFiniteParametersAndSpeedsAreRefusedAndKeepTheOldOnes) {
    Line l;
    BlendSpacePlayer p(l.space);
    ASSERT_TRUE(p.setParameters(0.5f, 0.0f));
    EXPECT_FALSE(p.setParameters(NAN));
    EXPECT_FALSE(p.setParameters(0.0f, INFINITY));
    EXPECT_EQ(p.x(), 0.5f);
    EXPECT_EQ(p.weights()[1], 0.5f);
    EXPECT_TRUE(p.setSpeed(-2.0));
    EXPECT_FALSE(p.setSpeed(INFINITY));
    EXPECT_EQ(p.speed(), -2.0);
}

// Phase advances by elapsed * speed / cycle, worked out here with weights by hand.
TEST(BlendSpacePlayer, NormalizedTimeKeepsEveryClipAtPhaseTimesItsDuration) {
    Line l;
    BlendSpacePlayer p(l.space);
    const double da = 1.0, db = 0.5, dc = 2.0;
    double expected = 0.0;
    for (int i = 0; i < 500; ++i) {
        const float x = static_cast<float>(i % 17) / 8.0f;  // 0 .. 2 in eighths: exact weights
        ASSERT_TRUE(p.setParameters(x));
        const double wc = x <= 1.0f ? x : 2.0 - x;
        const double wb = x <= 1.0f ? 1.0 - x : 0.0;
        const double wa = x <= 1.0f ? 0.0 : x - 1.0;
        const double elapsed = 1.0 / 60.0 + (i % 3) * 0.005;
        expected += elapsed / (wa * da + wb * db + wc * dc);
        ASSERT_TRUE(p.update(elapsed).ok());
        const double want = expected - std::floor(expected);
        EXPECT_NEAR(std::fmod(p.phase() - want + 1.5, 1.0) - 0.5, 0.0, 1e-9) << "update " << i;
        EXPECT_EQ(p.clipTime(0), p.phase() * da);
        EXPECT_EQ(p.clipTime(1), p.phase() * db);
        EXPECT_EQ(p.clipTime(2), p.phase() * dc);
        for (const BlendSample& s : p.samples()) EXPECT_EQ(s.time, p.clipTime(s.clip));
    }
}

TEST(BlendSpacePlayer, SamplesListOnlyWeightedClipsInIndexOrder) {
    Line l;
    BlendSpacePlayer p(l.space);
    ASSERT_EQ(p.samples().size(), 1u) << "constructed: weighted at (0, 0)";
    EXPECT_EQ(p.samples()[0].clip, 1u);
    ASSERT_TRUE(p.setParameters(1.25f));
    ASSERT_TRUE(p.update(0.1).ok());
    ASSERT_EQ(p.samples().size(), 2u);
    EXPECT_EQ(p.samples()[0].clip, 0u);
    EXPECT_FLOAT_EQ(p.samples()[0].weight, 0.25f);
    EXPECT_EQ(p.samples()[1].clip, 2u);
    EXPECT_FLOAT_EQ(p.samples()[1].weight, 0.75f);
}

struct Gait {
    // footL at phase 0 of every clip's cycle, footR half a stride later.
    Clip walk = makeClip("walk", 1.0f, {{"footL", 0.0f}, {"footR", 0.5f}});
    Clip run = makeClip("run", 0.6f, {{"footL", 0.1f}, {"footR", 0.4f}});
};

// Where a clip is in its own marker cycle: k + fraction from marker k to k+1
// (wrapping), in [0, marker count). Independent of the code under test.
double markerPosition(const Clip& clip, double t) {
    const auto m = clip.markers();
    const std::size_t n = m.size();
    const double d = clip.duration();
    for (std::size_t k = 0; k < n; ++k) {
        const double a = m[k].time;
        const double b = k + 1 < n ? double{m[k + 1].time} : double{m[0].time} + d;
        const double u = t < a ? t + d : t;
        if (u >= a && u < b) return static_cast<double>(k) + (u - a) / (b - a);
    }
    return -1.0;
}

double cyclicDistance(double a, double b, double period) {
    const double d = std::fmod(std::fabs(a - b), period);
    return std::min(d, period - d);
}

TEST(BlendSpacePlayer, MarkerSyncMapsEachClipPiecewiseBetweenItsOwnMarkers) {
    Gait g;
    const BlendSpace s = made(BlendSpace::create1D({{&g.walk, 0.0f}, {&g.run, 1.0f}}, BlendSync::Markers));
    EXPECT_EQ(s.syncMarkerCount(), 2u);
    BlendSpacePlayer p(s);
    const double l = g.run.markers()[0].time, r = g.run.markers()[1].time, d = g.run.duration();
    // Clip 0 (walk) sets the layout: footL at phase 0, footR at phase 0.5.
    const struct {
        double phase, walk, run;
    } rows[] = {
        {0.0, 0.0, l},
        {0.25, 0.25, l + 0.5 * (r - l)},
        {0.5, 0.5, r},
        {0.75, 0.75, r + 0.5 * (l + d - r)},
        {0.9, 0.9, r + 0.8 * (l + d - r) - d},  // past the run's end: wrapped
    };
    for (const auto& row : rows) {
        ASSERT_TRUE(p.seekPhase(row.phase));
        EXPECT_NEAR(p.clipTime(0), row.walk, 1e-12) << row.phase;
        EXPECT_NEAR(p.clipTime(1), row.run, 1e-12) << row.phase;
        EXPECT_NEAR(s.clipTimeAt(1, row.phase), row.run, 1e-12) << row.phase;
    }
}

TEST(BlendSpacePlayer, MarkerSyncWithTheLayoutOfAClipWhoseFirstMarkerIsLate) {
    Gait g;
    // The run first: its footL (0.1 of 0.6 s) is at phase 1/6, its footR at 2/3.
    const BlendSpace s = made(BlendSpace::create1D({{&g.run, 1.0f}, {&g.walk, 0.0f}}, BlendSync::Markers));
    BlendSpacePlayer p(s);
    const double l = g.run.markers()[0].time, r = g.run.markers()[1].time, d = g.run.duration();
    const double pl = l / d, pr = r / d;
    // Phase 0 lies in the wrapping segment footR -> footL, a fraction (1 - pr) /
    // (1 + pl - pr) into it; the walk is that far from 0.5 s to 1 s.
    const double f = (1.0 - pr) / (1.0 + pl - pr);
    EXPECT_NEAR(p.clipTime(0), 0.0, 1e-12);
    EXPECT_NEAR(p.clipTime(1), 0.5 + f * 0.5, 1e-12);
    ASSERT_TRUE(p.seekPhase(pl));
    EXPECT_NEAR(p.clipTime(1), 0.0, 1e-12) << "at the reference footL the walk is on its footL";
    ASSERT_TRUE(p.seekPhase((pl + pr) / 2));
    EXPECT_NEAR(p.clipTime(1), 0.25, 1e-12);
    EXPECT_NEAR(p.clipTime(0), (l + r) / 2, 1e-12);
}

// The walk-run blend: over a long run with the parameter changing every frame, both
// feet of both clips stay in step, and the footsteps heard are exactly the number of
// cycles the phase ran, counted by arithmetic on the hand-computed cycle lengths.
void runGait(double speed) {
    Gait g;
    const BlendSpace s = made(BlendSpace::create1D({{&g.walk, 0.0f}, {&g.run, 1.0f}}, BlendSync::Markers));
    BlendSpacePlayer p(s);
    ASSERT_TRUE(p.setSpeed(speed));
    const Clip* clips[] = {&g.walk, &g.run};
    std::size_t footL[2] = {0, 0}, footR[2] = {0, 0};
    double cycles = 0.0;
    std::uint32_t crossed[2];
    for (int i = 0; i < 4000; ++i) {
        const float x = static_cast<float>(1 + i % 7) / 8.0f;  // 1/8 .. 7/8: both weighted, exactly
        ASSERT_TRUE(p.setParameters(x));
        const double elapsed = 1.0 / 60.0 + (i % 5) * 0.003;
        cycles += elapsed * std::fabs(speed) / ((1.0 - x) * g.walk.duration() + x * double{g.run.duration()});
        ASSERT_TRUE(p.update(elapsed).ok());
        ASSERT_EQ(p.samples().size(), 2u);
        const double pw = markerPosition(g.walk, p.samples()[0].time);
        const double pr = markerPosition(g.run, p.samples()[1].time);
        ASSERT_LT(cyclicDistance(pw, pr, 2.0), 1e-9) << "update " << i << ": feet out of step";
        for (std::size_t c = 0; c < 2; ++c) {
            const BlendSample& b = p.samples()[c];
            const std::size_t n = markersCrossed(*clips[c], LoopMode::Loop, b.step, crossed);
            for (std::size_t k = 0; k < n; ++k) ++(crossed[k] == 0 ? footL[c] : footR[c]);
        }
    }
    // Forwards footL sits at phase 0 (left at the start: not heard), footR at 0.5;
    // backwards footR is met first, at 0.5 cycles, and footL at every whole cycle.
    const double frac = cycles - std::floor(cycles);
    ASSERT_GT(std::min({frac, std::fabs(frac - 0.5), 1.0 - frac}), 0.01) << "end clear of a footstep: " << cycles;
    const auto l = static_cast<std::size_t>(std::floor(cycles));
    const auto r = static_cast<std::size_t>(std::floor(cycles + 0.5));
    for (std::size_t c = 0; c < 2; ++c) {
        EXPECT_EQ(footL[c], l) << clips[c]->name();
        EXPECT_EQ(footR[c], r) << clips[c]->name();
    }
}

TEST(BlendSpacePlayer, MarkerSyncedFeetNeverCrossAndEveryCycleHasOneFootstepEach) { runGait(1.0); }
TEST(BlendSpacePlayer, MarkerSyncedFeetBackwards) { runGait(-1.3); }

TEST(BlendSpacePlayer, EachStepStartsBitForBitWhereTheLastEnded) {
    Gait g;
    for (const BlendSync sync : {BlendSync::NormalizedTime, BlendSync::Markers}) {
        const BlendSpace s = made(BlendSpace::create1D({{&g.walk, 0.0f}, {&g.run, 1.0f}}, sync));
        BlendSpacePlayer p(s);
        ASSERT_TRUE(p.setParameters(0.3f));
        std::vector<double> before(2);
        for (int i = 0; i < 3000; ++i) {
            // The run drops out of the blend and comes back: it resumes where the
            // phase carried it, not where it was last heard.
            ASSERT_TRUE(p.setParameters(i % 400 < 100 ? 0.0f : 0.1f + 0.001f * static_cast<float>(i % 400)));
            ASSERT_TRUE(p.setSpeed(i % 900 < 700 ? 1.0 : -0.7));
            before = {p.clipTime(0), p.clipTime(1)};
            ASSERT_TRUE(p.update(0.013 + 0.001 * (i % 11)).ok());
            for (const BlendSample& b : p.samples()) {
                EXPECT_EQ(b.step.from, before[b.clip]) << i;
                EXPECT_EQ(b.step.to, b.time) << i;
                EXPECT_EQ(b.time, p.clipTime(b.clip)) << i;
                EXPECT_EQ(b.step.travel > 0.0, p.speed() > 0.0) << i;
                const double d = s.clips()[b.clip].clip->duration();
                EXPECT_GE(b.time, 0.0);
                EXPECT_LT(b.time, d);
            }
        }
    }
}

TEST(BlendSpacePlayer, ALongStepSweepsWholeLapsAndAnnouncesEachMarkerOnce) {
    Gait g;
    const BlendSpace s = made(BlendSpace::create1D({{&g.walk, 0.0f}, {&g.run, 1.0f}}, BlendSync::Markers));
    BlendSpacePlayer p(s);
    ASSERT_TRUE(p.setParameters(0.5f));
    const double cycle = 0.5 * 1.0 + 0.5 * double{0.6f};
    ASSERT_TRUE(p.update(3.25 * cycle).ok());
    EXPECT_NEAR(p.phase(), 0.25, 1e-12);
    const Clip* clips[] = {&g.walk, &g.run};
    // Three laps, then a quarter phase: a quarter of the walk, half of the run's
    // footL -> footR interval (its float markers make that not quite 0.25 * 0.6).
    const double rest[] = {0.25, 0.5 * (double{g.run.markers()[1].time} - g.run.markers()[0].time)};
    for (const BlendSample& b : p.samples()) {
        const double d = clips[b.clip]->duration();
        EXPECT_NEAR(b.step.travel, 3 * d + rest[b.clip], 1e-12) << b.clip;
        std::uint32_t crossed[2];
        EXPECT_EQ(markersCrossed(*clips[b.clip], LoopMode::Loop, b.step, crossed), 2u);
    }
}

TEST(BlendSpacePlayer, SeekPhaseWrapsJumpsAndAnnouncesNothing) {
    Gait g;
    const BlendSpace s = made(BlendSpace::create1D({{&g.walk, 0.0f}, {&g.run, 1.0f}}));
    BlendSpacePlayer p(s);
    ASSERT_TRUE(p.setParameters(0.5f));
    ASSERT_TRUE(p.seekPhase(2.75));
    EXPECT_EQ(p.phase(), 0.75);
    ASSERT_TRUE(p.seekPhase(-0.25));
    EXPECT_EQ(p.phase(), 0.75);
    EXPECT_FALSE(p.seekPhase(NAN));
    EXPECT_EQ(p.phase(), 0.75);
    ASSERT_TRUE(p.update(0.0).ok());
    for (const BlendSample& b : p.samples()) {
        EXPECT_EQ(b.step.travel, 0.0);
        EXPECT_EQ(b.step.from, b.step.to);
        EXPECT_EQ(b.time, 0.75 * s.clips()[b.clip].clip->duration());
    }
}

TEST(BlendSpacePlayer, ZeroSpeedHoldsEveryClip) {
    Gait g;
    const BlendSpace s = made(BlendSpace::create1D({{&g.walk, 0.0f}, {&g.run, 1.0f}}, BlendSync::Markers));
    BlendSpacePlayer p(s);
    ASSERT_TRUE(p.setParameters(0.5f));
    ASSERT_TRUE(p.update(0.2).ok());
    ASSERT_TRUE(p.setSpeed(0.0));
    const double phase = p.phase();
    ASSERT_TRUE(p.update(0.5).ok());
    EXPECT_EQ(p.phase(), phase);
    for (const BlendSample& b : p.samples()) {
        EXPECT_EQ(b.step.travel, 0.0);
        EXPECT_EQ(b.step.from, b.step.to);
    }
}

TEST(BlendSpacePlayer, BadElapsedTimeIsRefusedAndChangesNothing) {
    Gait g;
    const BlendSpace s = made(BlendSpace::create1D({{&g.walk, 0.0f}, {&g.run, 1.0f}}, BlendSync::Markers));
    BlendSpacePlayer p(s);
    ASSERT_TRUE(p.setParameters(0.4f));
    ASSERT_TRUE(p.update(0.37).ok());
    const double phase = p.phase();
    const std::vector<BlendSample> samples(p.samples().begin(), p.samples().end());
    const double times[] = {p.clipTime(0), p.clipTime(1)};
    for (const double bad : {-0.01, double(NAN), double(INFINITY), -double(INFINITY)}) {
        EXPECT_FALSE(p.update(bad).ok()) << bad;
        EXPECT_EQ(p.phase(), phase);
        EXPECT_EQ(p.clipTime(0), times[0]);
        EXPECT_EQ(p.clipTime(1), times[1]);
        ASSERT_EQ(p.samples().size(), samples.size());
        for (std::size_t i = 0; i < samples.size(); ++i) {
            EXPECT_EQ(p.samples()[i].clip, samples[i].clip);
            EXPECT_EQ(p.samples()[i].weight, samples[i].weight);
            EXPECT_EQ(p.samples()[i].time, samples[i].time);
            EXPECT_EQ(p.samples()[i].step.from, samples[i].step.from);
            EXPECT_EQ(p.samples()[i].step.to, samples[i].step.to);
            EXPECT_EQ(p.samples()[i].step.travel, samples[i].step.travel);
        }
    }
    // A finite elapsed time whose phase step overflows is refused the same way.
    ASSERT_TRUE(p.setSpeed(1e300));
    EXPECT_FALSE(p.update(1e300).ok());
    EXPECT_EQ(p.phase(), phase);
}

TEST(BlendSpacePlayer, UpdateNeverMovesItsStorage) {
    Line l;
    BlendSpacePlayer p(l.space);
    const BlendSample* samples = p.samples().data();
    const float* weights = p.weights().data();
    for (int i = 0; i < 1000; ++i) {
        ASSERT_TRUE(p.setParameters(static_cast<float>(i % 25) * 0.1f - 0.2f));
        ASSERT_TRUE(p.update(0.016).ok());
        ASSERT_EQ(p.samples().data(), samples);
        ASSERT_EQ(p.weights().data(), weights);
        ASSERT_GE(p.samples().size(), 1u);
        ASSERT_LE(p.samples().size(), 2u);
    }
}

TEST(BlendSpacePlayer, APlayerMovedFromIsAsOneWithoutASpace) {
    Line l;
    BlendSpacePlayer a(l.space);
    ASSERT_TRUE(a.setParameters(0.5f));
    ASSERT_TRUE(a.update(0.1).ok());
    const double phase = a.phase();
    ASSERT_EQ(a.samples().size(), 2u);
    BlendSpacePlayer b = std::move(a);
    EXPECT_EQ(b.space(), &l.space);
    EXPECT_EQ(b.phase(), phase);
    EXPECT_EQ(b.samples().size(), 2u);
    EXPECT_EQ(a.space(), nullptr);
    EXPECT_TRUE(a.samples().empty());
    EXPECT_TRUE(a.weights().empty());
    EXPECT_EQ(a.cycleDuration(), 0.0);
    EXPECT_TRUE(a.update(0.1).ok());
    EXPECT_TRUE(a.samples().empty());
    a = std::move(b);
    EXPECT_EQ(a.samples().size(), 2u);
    EXPECT_TRUE(b.samples().empty());
}

TEST(BlendSpacePlayer, WithoutASpaceNothingHappens) {
    BlendSpacePlayer p;
    EXPECT_EQ(p.space(), nullptr);
    EXPECT_TRUE(p.update(0.1).ok());
    EXPECT_FALSE(p.update(-1.0).ok());
    EXPECT_TRUE(p.samples().empty());
    EXPECT_EQ(p.phase(), 0.0);
}

}  // namespace
