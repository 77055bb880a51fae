#include "ik_lanes.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <limits>

#include "kinema/math/quat.hpp"
#include "kinema/math/vec3.hpp"
#include "ik_geometry.hpp"

// Every loop over lanes below is written as straight-line float code (selects, no
// calls but inline ones, sqrt without errno: this file is compiled with
// -fno-math-errno, conditions on several values folded into one comparison or a
// select rather than joined with && or ||, inputs marked __restrict) so that the
// compiler turns it into vector instructions, one lane per pose. The few steps that need exp, sin or slerp run per lane afterwards, and
// only on the lanes that ask for them (soften, twist, weight below 1).

namespace kinema::detail {
namespace {

constexpr std::size_t L = kIkLanes;
constexpr float kTiny = 1e-12f;
constexpr float kHuge = std::numeric_limits<float>::max();
constexpr float kOnLine = 1e-10f;  // as ik.cpp: a pole this close to the root-target line is on it
// The chain from root to end read once and kept for the outcome; longer ones (a
// two-bone task across many joints) run on the reference solver.
constexpr std::size_t kMaxSpan = 16;

using LaneFloat = std::array<float, L>;

// The per-lane helpers are always inlined: a call left in a lane loop would keep the
// loop from becoming vector instructions.
#if defined(__GNUC__) || defined(__clang__)
#define KINEMA_LANE_INLINE [[gnu::always_inline]] inline
#else
#define KINEMA_LANE_INLINE inline
#endif

KINEMA_LANE_INLINE Quat unit(Quat q) noexcept {
    const float inv = 1.0f / std::sqrt(dot(q, q));
    return {q.x * inv, q.y * inv, q.z * inv, q.w * inv};
}

// By value, so that a lane loop holds no address of a temporary (std::min returns a reference).
KINEMA_LANE_INLINE float least(float a, float b) noexcept { return b < a ? b : a; }
KINEMA_LANE_INLINE float most(float a, float b) noexcept { return a < b ? b : a; }

// The lanes where `holds` is true, as a bit mask: an integer OR, which the compiler
// turns into one vector comparison where a float reduction would stay lane by lane.
template <class Holds>
KINEMA_LANE_INLINE std::uint32_t lanesWhere(Holds holds) noexcept {
    std::uint32_t mask = 0;
    for (std::size_t l = 0; l < kIkLanes; ++l) mask |= (holds(l) ? 1u : 0u) << l;
    return mask;
}

KINEMA_LANE_INLINE Vec3 select(bool c, Vec3 a, Vec3 b) noexcept {
    return {c ? a.x : b.x, c ? a.y : b.y, c ? a.z : b.z};
}

KINEMA_LANE_INLINE Quat select(bool c, Quat a, Quat b) noexcept {
    return {c ? a.x : b.x, c ? a.y : b.y, c ? a.z : b.z, c ? a.w : b.w};
}

// As ik.cpp: `v` at unit length, or `fallback` when it is too short (or too long) to trust.
KINEMA_LANE_INLINE Vec3 directionOr(Vec3 v, Vec3 fallback) noexcept {
    const float len = std::sqrt(dot(v, v));
    const bool ok = len > kTiny && len <= kHuge;
    const float inv = 1.0f / (ok ? len : 1.0f);
    return select(ok, v * inv, fallback);
}

KINEMA_LANE_INLINE Vec3 perpendicularTo(Vec3 v) noexcept {
    const bool useX = std::abs(v.x) < 0.9f;
    const Vec3 other{useX ? 1.0f : 0.0f, useX ? 0.0f : 1.0f, 0.0f};
    return directionOr(cross(v, other), Vec3{0.0f, 0.0f, 1.0f});
}

// As ik.cpp: unit `v` less its part along unit `u`, at unit length (zero when nothing is left).
KINEMA_LANE_INLINE Vec3 perpendicularPart(Vec3 v, Vec3 u) noexcept { return directionOr(v - u * dot(v, u), Vec3{}); }

// As kinema::rotationBetween; `halfTurnW` is fromAxisAngle(axis, pi).w.
KINEMA_LANE_INLINE Quat rotationBetween(Vec3 from, Vec3 to, float halfTurnW) noexcept {
    const float c = dot(from, to);
    const Vec3 axis = cross(from, to);
    const bool opposite = c < -0.99f;
    const Quat arc = unit(Quat{axis.x, axis.y, axis.z, 1.0f + (opposite ? 1.0f : c)});
    const Vec3 side = directionOr(axis - from * dot(axis, from), perpendicularTo(from));
    const Quat rest = unit(Quat{-axis.x, -axis.y, -axis.z, 1.0f - c});
    return select(opposite, unit(rest * Quat{side.x, side.y, side.z, halfTurnW}), arc);
}

// The lane loops run in the widest vectors this CPU has among the ones listed (one
// copy of each loop per entry, picked when the library loads).
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define KINEMA_LANE_LOOPS __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define KINEMA_LANE_LOOPS
#endif

// fromAxisAngle(axis, pi).w: the w of the half turn rotationBetween gives for opposite directions.
float halfTurnW() noexcept {
    static const float w = fromAxisAngle(Vec3{1.0f, 0.0f, 0.0f}, 3.14159265358979f).w;
    return w;
}

// A model-space placement composed exactly, as the reference's walk places joints:
// the position, the full linear map above it (each frame's rotation times its scale,
// so a scale that differs between axes under a rotation is carried right), and the
// product of the rotations alone (the frame turns are taken into, as the reference's).
struct LanePlacement {
    LaneVec3 p;
    alignas(64) float m[9][L];  // the linear map, column-major
    LaneQuat r;
};

// rotation(q) x diag(s), column-major: nine named values, so that lane loops using
// it stay vector code.
struct Linear {
    float m0, m1, m2, m3, m4, m5, m6, m7, m8;
};

KINEMA_LANE_INLINE Linear linearMap(Quat q, Vec3 s) noexcept {
    const float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    const float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    const float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    return {(1.0f - 2.0f * (yy + zz)) * s.x, 2.0f * (xy + wz) * s.x,          2.0f * (xz - wy) * s.x,
            2.0f * (xy - wz) * s.y,          (1.0f - 2.0f * (xx + zz)) * s.y, 2.0f * (yz + wx) * s.y,
            2.0f * (xz + wy) * s.z,          2.0f * (yz - wx) * s.z,          (1.0f - 2.0f * (xx + yy)) * s.z};
}

// a x b, both column-major.
KINEMA_LANE_INLINE Linear times(const Linear& a, const Linear& b) noexcept {
    return {a.m0 * b.m0 + a.m3 * b.m1 + a.m6 * b.m2, a.m1 * b.m0 + a.m4 * b.m1 + a.m7 * b.m2,
            a.m2 * b.m0 + a.m5 * b.m1 + a.m8 * b.m2, a.m0 * b.m3 + a.m3 * b.m4 + a.m6 * b.m5,
            a.m1 * b.m3 + a.m4 * b.m4 + a.m7 * b.m5, a.m2 * b.m3 + a.m5 * b.m4 + a.m8 * b.m5,
            a.m0 * b.m6 + a.m3 * b.m7 + a.m6 * b.m8, a.m1 * b.m6 + a.m4 * b.m7 + a.m7 * b.m8,
            a.m2 * b.m6 + a.m5 * b.m7 + a.m8 * b.m8};
}

// A model-space turn taken into a frame of linear map `m` and rotations alone
// `rotation`, as the reference takes it (ik_geometry.hpp).
KINEMA_LANE_INLINE Quat turnIn(const Linear& m, Quat rotation, Quat delta) noexcept {
    return turnInFrame(Vec3{m.m0, m.m1, m.m2}, Vec3{m.m3, m.m4, m.m5}, Vec3{m.m6, m.m7, m.m8}, rotation, delta);
}

// Lane l's linear map.
KINEMA_LANE_INLINE Linear mapAt(const float (&m)[9][L], std::size_t l) noexcept {
    return {m[0][l], m[1][l], m[2][l], m[3][l], m[4][l], m[5][l], m[6][l], m[7][l], m[8][l]};
}

// A rotation whose squared length is this far from 1 composes as a rotation times a
// scale (its matrix is built as any rotation's): see skewedFrame.
constexpr float kUnitSlack = 1e-5f;

// Whether a frame of scale s and rotation q keeps a turn taken into it from being the
// turn wanted: its scale differs between axes (a mirrored axis included), or its
// rotation is not of unit length (a pose may be given one). Such lanes' outcomes are
// measured on the chain composed again.
KINEMA_LANE_INLINE bool skewedFrame(Vec3 s, Quat q) noexcept {
    const float stretch = std::abs(dot(q, q) - 1.0f);
    const bool differ = (s.x != s.y) | (s.y != s.z);
    return differ | (stretch > kUnitSlack);
}

// Lane l of `to` = `from` o t; the rotation product only when `Rotations` (a chain
// below the root's parent needs positions alone). Marks in `skewed` the lanes whose
// frame is skewed (skewedFrame). Each lane reads `from` before it writes `to`, so the
// two may be one placement.
template <bool Rotations>
KINEMA_LANE_INLINE void composeLane(const LanePlacement& from, LanePlacement& to, const LaneFrame& t, const LaneQuat& r,
                                    LaneFloat& skewed, std::size_t l) noexcept {
    skewed[l] = skewedFrame(t.s[l], r[l]) ? 1.0f : skewed[l];
    const float a0 = from.m[0][l], a1 = from.m[1][l], a2 = from.m[2][l], a3 = from.m[3][l], a4 = from.m[4][l],
                a5 = from.m[5][l], a6 = from.m[6][l], a7 = from.m[7][l], a8 = from.m[8][l];
    const Linear b = linearMap(r[l], t.s[l]);
    const float px = t.p.x[l], py = t.p.y[l], pz = t.p.z[l];
    to.p.x[l] = from.p.x[l] + (a0 * px + a3 * py + a6 * pz);
    to.p.y[l] = from.p.y[l] + (a1 * px + a4 * py + a7 * pz);
    to.p.z[l] = from.p.z[l] + (a2 * px + a5 * py + a8 * pz);
    to.m[0][l] = a0 * b.m0 + a3 * b.m1 + a6 * b.m2;
    to.m[1][l] = a1 * b.m0 + a4 * b.m1 + a7 * b.m2;
    to.m[2][l] = a2 * b.m0 + a5 * b.m1 + a8 * b.m2;
    to.m[3][l] = a0 * b.m3 + a3 * b.m4 + a6 * b.m5;
    to.m[4][l] = a1 * b.m3 + a4 * b.m4 + a7 * b.m5;
    to.m[5][l] = a2 * b.m3 + a5 * b.m4 + a8 * b.m5;
    to.m[6][l] = a0 * b.m6 + a3 * b.m7 + a6 * b.m8;
    to.m[7][l] = a1 * b.m6 + a4 * b.m7 + a7 * b.m8;
    to.m[8][l] = a2 * b.m6 + a5 * b.m7 + a8 * b.m8;
    if constexpr (Rotations) to.r.set(l, from.r[l] * r[l]);
}

// f = f o t (composeLane, every lane).
template <bool Rotations>
KINEMA_LANE_INLINE void compose(LanePlacement& __restrict f, const LaneFrame& __restrict t,
                                const LaneQuat& __restrict r, LaneFloat& __restrict skewed) noexcept {
    for (std::size_t l = 0; l < L; ++l) composeLane<Rotations>(f, f, t, r, skewed, l);
}

// to = from o t, without copying `from` first.
template <bool Rotations>
KINEMA_LANE_INLINE void composeFrom(const LanePlacement& __restrict from, LanePlacement& __restrict to,
                                    const LaneFrame& __restrict t, const LaneQuat& __restrict r,
                                    LaneFloat& __restrict skewed) noexcept {
    for (std::size_t l = 0; l < L; ++l) composeLane<Rotations>(from, to, t, r, skewed, l);
}

// f = t: the top ancestor's frame as a placement.
KINEMA_LANE_LOOPS void placeAt(LanePlacement& __restrict f, const LaneFrame& t, LaneFloat& __restrict skewed) noexcept {
    for (std::size_t l = 0; l < L; ++l) {
        skewed[l] = skewedFrame(t.s[l], t.r[l]) ? 1.0f : skewed[l];
        const Linear b = linearMap(t.r[l], t.s[l]);
        f.p.set(l, t.p[l]);
        f.m[0][l] = b.m0;
        f.m[1][l] = b.m1;
        f.m[2][l] = b.m2;
        f.m[3][l] = b.m3;
        f.m[4][l] = b.m4;
        f.m[5][l] = b.m5;
        f.m[6][l] = b.m6;
        f.m[7][l] = b.m7;
        f.m[8][l] = b.m8;
        f.r.set(l, t.r[l]);
    }
}

KINEMA_LANE_LOOPS void composeOnto(LanePlacement& __restrict f, const LaneFrame& __restrict t,
                                   LaneFloat& __restrict skewed) noexcept {
    compose<true>(f, t, t.r, skewed);
}

void setIdentity(LanePlacement& f) noexcept {
    for (std::size_t l = 0; l < L; ++l) {
        f.p.set(l, Vec3{});
        f.r.set(l, Quat{});
        for (std::size_t k = 0; k < 9; ++k) f.m[k][l] = k % 4 == 0 ? 1.0f : 0.0f;
    }
}

KINEMA_LANE_LOOPS void normalizeRotations(LaneQuat& q) noexcept {
    for (std::size_t l = 0; l < L; ++l) q.set(l, unit(q[l]));
}

// The model placement of `joint`'s parent (the identity for a root), composed from
// its top ancestor down; false for a hierarchy deeper than the walk keeps (the
// caller takes the reference solver).
bool placeParentOf(std::span<const std::int32_t> parents, PoseLanes& poses, std::uint32_t joint, LanePlacement& out,
                   LaneFloat& skewed) noexcept {
    std::array<std::uint32_t, 256> above;
    std::size_t depth = 0;
    for (std::int32_t j = parents[joint]; j >= 0; j = parents[static_cast<std::size_t>(j)]) {
        if (depth == above.size()) return false;
        above[depth++] = static_cast<std::uint32_t>(j);
    }
    if (depth == 0) setIdentity(out);
    for (std::size_t k = depth; k-- > 0;) {
        const LaneFrame& local = poses.joint(above[k]);
        if (k + 1 == depth) {
            placeAt(out, local, skewed);
        } else {
            composeOnto(out, local, skewed);
        }
    }
    normalizeRotations(out.r);
    return true;
}

// The lanes that have a task, as a bit mask, and the task each lane computes with:
// its own, or the first lane's with one (real values, results not kept).
template <class Task>
std::uint32_t laneTasks(std::span<const TaskLane<Task>, L> lanes, std::array<const Task*, L>& tasks) noexcept {
    std::uint32_t members = 0;
    const Task* first = nullptr;
    for (std::size_t l = L; l-- > 0;) {
        if (lanes[l].task != nullptr) {
            members |= 1u << l;
            first = lanes[l].task;
        }
    }
    for (std::size_t l = 0; l < L; ++l) tasks[l] = lanes[l].task != nullptr ? lanes[l].task : first;
    return members;
}

// Every lane's task on the reference solver, on the poses flushed.
template <class Task>
void solveByReference(std::span<const std::int32_t> parents, PoseLanes& poses,
                      std::span<const TaskLane<Task>, L> lanes) noexcept {
    poses.flush();
    for (std::size_t l = 0; l < L; ++l) {
        if (lanes[l].task != nullptr) *lanes[l].outcome = solveIkTask(parents, poses.pose(l), *lanes[l].task);
    }
}

// Per lane with weight below 1: the rotation blended from the pose's by the weight.
void blendByWeight(LaneQuat& solved, const LaneQuat& before, const LaneFloat& weight) noexcept {
    for (std::size_t l = 0; l < L; ++l) {
        if (weight[l] < 1.0f) solved.set(l, slerp(before[l], solved[l], weight[l]));
    }
}

// One two-bone problem per lane: the chain's model positions, the goal, and what the
// solve derives from them.
struct LaneChain {
    LaneVec3 root, middle, end;  // model positions of the three joints
    LaneVec3 target, pole;
    LaneVec3 u;  // unit direction from the root toward the target
    LaneFloat upper, lower, reach, valid;
};

// The chain's joints, root to end: frames held by PoseLanes.
using ChainFrames = std::span<const LaneFrame* const>;

// Where root, middle and end lie: the chain's locals composed onto `parent`, the
// root and the middle turned to `root` and `middle`.
KINEMA_LANE_LOOPS void placeChain(const LanePlacement& parent, ChainFrames chain, std::size_t middleAt,
                                  const LaneQuat& root, const LaneQuat& middle, LaneChain& __restrict out,
                                  LaneFloat& __restrict skewed) noexcept {
    LanePlacement f;
    const std::size_t last = chain.size() - 1;
    composeFrom<false>(parent, f, *chain[0], root, skewed);  // the chain has at least three joints
    out.root = f.p;
    for (std::size_t k = 1; k < last; ++k) {
        compose<false>(f, *chain[k], k == middleAt ? middle : chain[k]->r, skewed);
        if (k == middleAt) out.middle = f.p;
    }
    // The end: only where it lies (its rotation and scale turn nothing of the chain).
    const LaneVec3& tp = chain[last]->p;
    for (std::size_t l = 0; l < L; ++l) {
        const Vec3 t = tp[l];
        out.end.set(l,
                    f.p[l] +
                        Vec3{f.m[0][l] * t.x + f.m[3][l] * t.y + f.m[6][l] * t.z,
                             f.m[1][l] * t.x + f.m[4][l] * t.y + f.m[7][l] * t.z,
                             f.m[2][l] * t.x + f.m[5][l] * t.y + f.m[8][l] * t.z});
    }
}

// The bone lengths and the reach alone, as measureReach gives them.
KINEMA_LANE_LOOPS void measureLengths(LaneChain& c) noexcept {
    for (std::size_t l = 0; l < L; ++l) {
        const Vec3 a = c.root[l];
        c.upper[l] = length(c.middle[l] - a);
        c.lower[l] = length(c.end[l] - c.middle[l]);
        c.reach[l] = length(c.target[l] - a);
    }
}

KINEMA_LANE_LOOPS void measureReach(LaneChain& c) noexcept {
    for (std::size_t l = 0; l < L; ++l) {
        const Vec3 a = c.root[l], b = c.middle[l], e = c.end[l];
        const float upper = length(b - a), lower = length(e - b);
        c.valid[l] = upper > kTiny && lower > kTiny ? 1.0f : 0.0f;
        const float safeUpper = upper > kTiny ? upper : 1.0f;
        const Vec3 toTarget = c.target[l] - a;
        const float toTargetLength = length(toTarget);
        const bool targetOff = toTargetLength > pointNoise(a, c.target[l]);  // as the reference
        const Vec3 hold = directionOr(e - a, (b - a) * (1.0f / safeUpper));
        // As the reference: a target at the root folds the limb toward the pole.
        const Vec3 toPole = c.pole[l] - a;
        const bool poleOff = length(toPole) > pointNoise(a, c.pole[l]);
        const Vec3 fold = select(poleOff, directionOr(toPole, hold) * (upper >= lower ? 1.0f : -1.0f), hold);
        c.u.set(l, select(targetOff, directionOr(toTarget, hold), fold));
        c.upper[l] = upper;
        c.lower[l] = lower;
        c.reach[l] = targetOff ? toTargetLength : 0.0f;
    }
}

// The model-space turns of root and middle that put the end on the target (as far
// as the chain reaches), bending toward the pole, as the reference solver.
KINEMA_LANE_LOOPS void solveTurns(const LaneChain& c, const LaneFloat& twistSin, const LaneFloat& twistCos,
                                  float halfTurn, LaneQuat& __restrict rootTurn,
                                  LaneQuat& __restrict middleTurn) noexcept {
    for (std::size_t l = 0; l < L; ++l) {
        const Vec3 a = c.root[l], b = c.middle[l], e = c.end[l], u = c.u[l];
        const float upper = c.upper[l], lower = c.lower[l];
        const float safeUpper = upper > kTiny ? upper : 1.0f;
        const float reach = least(most(c.reach[l], std::abs(upper - lower)), upper + lower);
        const Vec3 toPole = c.pole[l] - a;
        const Vec3 current = b - a;
        const Vec3 poleOffset = toPole - u * dot(toPole, u);
        const float offset2 = dot(poleOffset, poleOffset), poleNoise = pointNoise(a, c.pole[l]);
        const bool offLine = offset2 > most(kOnLine * dot(toPole, toPole), poleNoise * poleNoise);
        const Vec3 poleBend = select(offLine, perpendicularPart(directionOr(poleOffset, Vec3{}), u), Vec3{});
        const Vec3 poseDirection = perpendicularPart(directionOr(current - u * dot(current, u), perpendicularTo(u)), u);
        const Vec3 poseBend = select(dot(poseDirection, poseDirection) == 0.0f, perpendicularTo(u), poseDirection);
        Vec3 bend = select(dot(poleBend, poleBend) == 0.0f, poseBend, poleBend);
        bend = rotate(Quat{u.x * twistSin[l], u.y * twistSin[l], u.z * twistSin[l], twistCos[l]}, bend);

        const float safeReach = reach > 0.0f ? reach : 1.0f;
        // A target at the root (its reach 0 before the clamp) with the pole off it: the
        // limb folds flat toward the pole, as the reference.
        const float poleDistance = length(toPole);
        const bool foldToPole = (c.reach[l] == 0.0f) & (poleDistance > poleNoise);
        const float side = upper >= lower ? 1.0f : -1.0f;
        const float cosLaw = reach > 0.0f
            ? least(most(((upper - lower) * (upper + lower) + reach * reach) / (2.0f * safeUpper * safeReach), -1.0f),
                    1.0f)
            : 0.0f;
        // As the reference: the sine from the triangle's area; a reach of 0 folds the limb.
        const float product = heronOverFourth(upper, lower, reach), sum = upper + lower;
        const float sinLaw = reach > 0.0f
            ? least(1.0f, std::sqrt(most(0.0f, product)) * (sum * sum) / (2.0f * safeUpper * safeReach))
            : 1.0f;
        // Selected after both are computed, so that the loop stays vector code.
        const float cosRoot = foldToPole ? side : cosLaw;
        const float sinRoot = foldToPole ? 0.0f : sinLaw;
        const Vec3 middle = a + (u * cosRoot + bend * sinRoot) * upper;
        const Vec3 end = a + u * reach;

        const Quat rt = rotationBetween(current * (1.0f / safeUpper), directionOr(middle - a, u), halfTurn);
        const Vec3 endAfterRoot = a + rotate(rt, e - a);
        const Vec3 lowerNow = directionOr(endAfterRoot - middle, u);
        rootTurn.set(l, rt);
        middleTurn.set(l, rotationBetween(lowerNow, directionOr(end - middle, lowerNow), halfTurn));
    }
}

// The root's new local rotation: its model-space turn taken into its parent's frame.
KINEMA_LANE_LOOPS void turnRoot(const LanePlacement& parent, const LaneQuat& before, const LaneQuat& turn,
                                const LaneFloat& valid, LaneQuat& __restrict out) noexcept {
    for (std::size_t l = 0; l < L; ++l) {
        const Quat b = before[l];
        const Quat turned = unit(turnIn(mapAt(parent.m, l), parent.r[l], turn[l]) * b);
        out.set(l, select(valid[l] != 0.0f, turned, b));
    }
}

// The linear maps and the rotations of the joints between root and middle, each
// composed (none: the identity).
struct LaneBetween {
    alignas(64) float m[9][L];
    LaneQuat r;
};

void betweenJoints(ChainFrames chain, std::size_t middleAt, LaneBetween& out) noexcept {
    for (std::size_t l = 0; l < L; ++l) {
        out.r.set(l, Quat{});
        for (std::size_t k = 0; k < 9; ++k) out.m[k][l] = k % 4 == 0 ? 1.0f : 0.0f;
    }
    for (std::size_t k = 1; k < middleAt; ++k) {
        for (std::size_t l = 0; l < L; ++l) {
            out.r.set(l, out.r[l] * chain[k]->r[l]);
            const Linear m = times(mapAt(out.m, l), linearMap(chain[k]->r[l], chain[k]->s[l]));
            const float values[] = {m.m0, m.m1, m.m2, m.m3, m.m4, m.m5, m.m6, m.m7, m.m8};
            for (std::size_t i = 0; i < 9; ++i) out.m[i][l] = values[i];
        }
    }
}

// The middle's parent's frame once the root has turned to `root`: its linear map and
// its rotations alone.
template <bool Between = true>
KINEMA_LANE_INLINE Linear middleParentMap(const LanePlacement& parent, Quat root, Vec3 rootScale,
                                          const LaneBetween& between, std::size_t l) noexcept {
    const Linear m = times(mapAt(parent.m, l), linearMap(root, rootScale));
    if constexpr (Between) return times(m, mapAt(between.m, l));
    return m;
}

// The middle's new local rotation, in its parent's frame as the root's turn (at its
// weight) left it.
KINEMA_LANE_LOOPS void turnMiddle(const LanePlacement& parent, const LaneQuat& root, const LaneVec3& rootScale,
                                  const LaneBetween& between, const LaneQuat& before, const LaneQuat& turn,
                                  const LaneFloat& valid, LaneQuat& __restrict out) noexcept {
    for (std::size_t l = 0; l < L; ++l) {
        const Quat p = unit(parent.r[l] * root[l] * between.r[l]), b = before[l];
        const Linear m = middleParentMap(parent, root[l], rootScale[l], between, l);
        out.set(l, select(valid[l] != 0.0f, unit(turnIn(m, p, turn[l]) * b), b));
    }
}

// The end's distance from the target after the two turns at full weight: the root's
// about the root, the middle's about the middle where the first left it.
KINEMA_LANE_LOOPS void endAfterTurns(const LaneChain& c, const LaneQuat& rootTurn, const LaneQuat& middleTurn,
                                     LaneFloat& __restrict distance) noexcept {
    for (std::size_t l = 0; l < L; ++l) {
        const Vec3 a = c.root[l], b = c.middle[l], e = c.end[l];
        const Quat r1 = rootTurn[l];
        const Vec3 middle = a + rotate(r1, b - a);
        const Vec3 end = middle + rotate(middleTurn[l], rotate(r1, e - b));
        distance[l] = length((c.valid[l] != 0.0f ? end : e) - c.target[l]);
    }
}

// The same solve for lanes whose chain is in general position: bones of length,
// a target off the root, a pole off the root-target line and turns short of a half
// turn. There it skips what only degenerate input needs (the fallback directions, the
// half-turn branch) and the renormalising of vectors whose length it knows (the
// middle's new direction is unit by the triangle, the lower bone keeps its length
// under a rotation), so it takes about a fifth of the roots and divisions.
// general[l] is 1 for a lane not in general position (its results are not used), 0
// otherwise; returns whether every lane is in general position.
// `Between`: joints lie between root and middle (`between` holds them); without,
// `between` is not read.
// `Measured`: the chain is root, middle, end, each the parent of the next, and lanes
// whose scale `skewed` marks are measured here on the chain composed again with the
// new rotations (as placeChain and remeasure would): their distance, and the bone
// lengths in `upperAfter` and `lowerAfter` (the others' lengths copied there). The
// middle's and the end's locals are read only then.
template <bool Between, bool Measured>
KINEMA_LANE_INLINE bool solvePlain(const LaneChain& __restrict c, const LanePlacement& __restrict parent,
                                   const LaneQuat& __restrict rootBefore, const LaneVec3& __restrict rootScale,
                                   const LaneBetween& __restrict between, const LaneQuat& __restrict middleBefore,
                                   const LaneFloat& __restrict twistSin, const LaneFloat& __restrict twistCos,
                                   const LaneFrame& __restrict middleLocal, const LaneVec3& __restrict endTranslation,
                                   const LaneFloat& __restrict skewed, LaneQuat& __restrict rootSolved,
                                   LaneQuat& __restrict middleSolved, LaneFloat& __restrict distance,
                                   LaneFloat& __restrict upperAfter, LaneFloat& __restrict lowerAfter,
                                   LaneFloat& __restrict general) noexcept {
    for (std::size_t l = 0; l < L; ++l) {
        const Vec3 a = c.root[l], b = c.middle[l], e = c.end[l], target = c.target[l];
        const float upper = c.upper[l], lower = c.lower[l];
        // Bones of any length the reference takes (1e-12 up): the turns' arcs are built
        // from unit vectors, so that their squares stay normal floats.
        const float invUpper = 1.0f / (upper > kTiny ? upper : 1.0f);
        const float invLower = 1.0f / (lower > kTiny ? lower : 1.0f);
        const Vec3 toTarget = target - a;
        const float toTarget2 = dot(toTarget, toTarget);
        const float toTargetLength = std::sqrt(toTarget2);
        const bool targetOff = toTargetLength > pointNoise(a, target) && toTargetLength <= kHuge;
        const Vec3 u = toTarget * (1.0f / (targetOff ? toTargetLength : 1.0f));
        const float reach = least(most(c.reach[l], std::abs(upper - lower)), upper + lower);

        const Vec3 toPole = c.pole[l] - a;
        const Vec3 poleOffset = toPole - u * dot(toPole, u);
        const float offset2 = dot(poleOffset, poleOffset), poleNoise = pointNoise(a, c.pole[l]);
        // The offset's length compared squared (targets and poles lie within 1e18, so
        // the squares stay finite).
        const bool poleOff = (offset2 > kOnLine * dot(toPole, toPole)) & (offset2 > poleNoise * poleNoise) &
            (offset2 > kTiny * kTiny) & (offset2 <= kHuge);
        // The part along the line taken out twice, as the reference does.
        const Vec3 square = poleOffset - u * dot(poleOffset, u);
        Vec3 bend = square * (1.0f / std::sqrt(poleOff ? dot(square, square) : 1.0f));
        bend = rotate(Quat{u.x * twistSin[l], u.y * twistSin[l], u.z * twistSin[l], twistCos[l]}, bend);

        const float inv2ur = 1.0f / (2.0f * (upper > kTiny ? upper : 1.0f) * (reach > 0.0f ? reach : 1.0f));
        const float cosRoot = least(most(((upper - lower) * (upper + lower) + reach * reach) * inv2ur, -1.0f), 1.0f);
        const float product = heronOverFourth(upper, lower, reach), sum = upper + lower;
        const float sinRoot = least(1.0f, std::sqrt(most(0.0f, product)) * (sum * sum) * inv2ur);
        const Vec3 towardMiddle = u * cosRoot + bend * sinRoot;  // unit: the triangle's cosine and sine

        // The root's turn: the upper bone onto its new direction.
        const Vec3 from = (b - a) * invUpper;
        const float rootCos = dot(from, towardMiddle);
        const Quat rootTurn = unit(Quat{from.y * towardMiddle.z - from.z * towardMiddle.y,
                                        from.z * towardMiddle.x - from.x * towardMiddle.z,
                                        from.x * towardMiddle.y - from.y * towardMiddle.x, 1.0f + rootCos});
        // The middle's turn: the lower bone, as the root's turn left it, onto the target.
        const Vec3 lowerTurned = rotate(rootTurn, e - b);
        const Vec3 lowerNow = lowerTurned * invLower;
        const Vec3 lowerWanted = (u * reach - towardMiddle * upper) * invLower;
        const float middleCos = dot(lowerNow, lowerWanted);
        // Unnormalised where only the direction matters: a rotation q sandwiched as
        // conj(q) * t * q, or a turn whose product is normalised after.
        const Quat middleArc{lowerNow.y * lowerWanted.z - lowerNow.z * lowerWanted.y,
                             lowerNow.z * lowerWanted.x - lowerNow.x * lowerWanted.z,
                             lowerNow.x * lowerWanted.y - lowerNow.y * lowerWanted.x, 1.0f + middleCos};
        const Quat middleTurn = unit(middleArc);

        // Turns taken into the frames through their maps; a lane whose map flattens
        // the axis is not plain (the general solve has the fallback).
        bool rootMapped = false, middleMapped = false;
        const Linear parentMap = mapAt(parent.m, l);
        const Quat root = unit(turnThroughMap(Vec3{parentMap.m0, parentMap.m1, parentMap.m2},
                                              Vec3{parentMap.m3, parentMap.m4, parentMap.m5},
                                              Vec3{parentMap.m6, parentMap.m7, parentMap.m8}, rootTurn, rootMapped) *
                               rootBefore[l]);
        const Linear m = middleParentMap<Between>(parent, root, rootScale[l], between, l);
        const Quat middle = unit(turnThroughMap(Vec3{m.m0, m.m1, m.m2}, Vec3{m.m3, m.m4, m.m5}, Vec3{m.m6, m.m7, m.m8},
                                                middleArc, middleMapped) *
                                 middleBefore[l]);
        rootSolved.set(l, root);
        middleSolved.set(l, middle);
        const Vec3 endAfter = a + towardMiddle * upper + rotate(middleTurn, lowerTurned);
        if constexpr (!Measured) distance[l] = length(endAfter - target);
        if constexpr (Measured) {
            // m is the root's new map: the middle's translation through it, then the end's
            // through the middle's new map.
            const Vec3 mp = middleLocal.p[l];
            const Vec3 middleAt = a +
                Vec3{m.m0 * mp.x + m.m3 * mp.y + m.m6 * mp.z, m.m1 * mp.x + m.m4 * mp.y + m.m7 * mp.z,
                     m.m2 * mp.x + m.m5 * mp.y + m.m8 * mp.z};
            const Linear mm = times(m, linearMap(middle, middleLocal.s[l]));
            const Vec3 ep = endTranslation[l];
            const Vec3 endAt = middleAt +
                Vec3{mm.m0 * ep.x + mm.m3 * ep.y + mm.m6 * ep.z, mm.m1 * ep.x + mm.m4 * ep.y + mm.m7 * ep.z,
                     mm.m2 * ep.x + mm.m5 * ep.y + mm.m8 * ep.z};
            const bool take = skewed[l] != 0.0f;
            distance[l] = length(select(take, endAt, endAfter) - target);
            const float upperAt = length(middleAt - a), lowerAt = length(endAt - middleAt);
            upperAfter[l] = take ? upperAt : upper;
            lowerAfter[l] = take ? lowerAt : lower;
        }

        const bool plain = upper > kTiny && lower > kTiny && targetOff && reach > 0.0f && poleOff &&
            rootCos >= -0.99f && middleCos >= -0.99f && rootMapped && middleMapped;
        general[l] = plain ? 0.0f : 1.0f;
    }
    return lanesWhere([&](std::size_t l) { return general[l] != 0.0f; }) == 0;
}

// solvePlain's three shapes, each its own function: multiversioned functions cannot be
// templates.
#define KINEMA_PLAIN_PARAMETERS                                                                                   \
    const LaneChain& __restrict c, const LanePlacement& __restrict parent, const LaneQuat& __restrict rootBefore, \
        const LaneVec3& __restrict rootScale, const LaneBetween& __restrict between,                              \
        const LaneQuat& __restrict middleBefore, const LaneFloat& __restrict twistSin,                            \
        const LaneFloat& __restrict twistCos, const LaneFrame& __restrict middleLocal,                            \
        const LaneVec3& __restrict endTranslation, const LaneFloat& __restrict skewed,                            \
        LaneQuat& __restrict rootSolved, LaneQuat& __restrict middleSolved, LaneFloat& __restrict distance,       \
        LaneFloat& __restrict upperAfter, LaneFloat& __restrict lowerAfter, LaneFloat& __restrict general
#define KINEMA_PLAIN_ARGUMENTS                                                                                        \
    c, parent, rootBefore, rootScale, between, middleBefore, twistSin, twistCos, middleLocal, endTranslation, skewed, \
        rootSolved, middleSolved, distance, upperAfter, lowerAfter, general
KINEMA_LANE_LOOPS bool solvePlainMeasured(KINEMA_PLAIN_PARAMETERS) noexcept {
    return solvePlain<false, true>(KINEMA_PLAIN_ARGUMENTS);
}
KINEMA_LANE_LOOPS bool solvePlainDirect(KINEMA_PLAIN_PARAMETERS) noexcept {
    return solvePlain<false, false>(KINEMA_PLAIN_ARGUMENTS);
}
KINEMA_LANE_LOOPS bool solvePlainBetween(KINEMA_PLAIN_PARAMETERS) noexcept {
    return solvePlain<true, false>(KINEMA_PLAIN_ARGUMENTS);
}
#undef KINEMA_PLAIN_PARAMETERS
#undef KINEMA_PLAIN_ARGUMENTS

// For lanes below full weight or marked skewed: the outcome measured on `after`,
// the chain composed again with its new rotations; lanes `measured` marks keep theirs.
KINEMA_LANE_LOOPS void remeasure(const LaneChain& __restrict after, const LaneFloat& __restrict weight,
                                 const LaneFloat& __restrict skewed, const LaneFloat& __restrict measured,
                                 LaneChain& __restrict c, LaneFloat& __restrict distance) noexcept {
    for (std::size_t l = 0; l < L; ++l) {
        // measured[l] is 0 or 1: a product, so that the loop stays vector code.
        const bool take = (weight[l] < 1.0f ? 1.0f : skewed[l]) * (1.0f - measured[l]) != 0.0f;
        const float d = length(after.end[l] - c.target[l]);
        const float upper = length(after.middle[l] - after.root[l]);
        const float lower = length(after.end[l] - after.middle[l]);
        distance[l] = take ? d : distance[l];
        c.upper[l] = take ? upper : c.upper[l];
        c.lower[l] = take ? lower : c.lower[l];
    }
}

// The outcomes' distances as reported, and the lanes that reached (a bit each).
KINEMA_LANE_LOOPS std::uint32_t reportOutcomes(const LaneChain& __restrict c, const LaneFloat& __restrict distance,
                                               LaneFloat& __restrict reported) noexcept {
    for (std::size_t l = 0; l < L; ++l) reported[l] = reportedDistance(distance[l]);
    return lanesWhere([&](std::size_t l) { return distance[l] <= 1e-4f * (c.upper[l] + c.lower[l]); });
}

// What each lane's task asks: target and pole into `c`, the twist as the sine and
// cosine of its half angle, weight and softness, and whether any lane softens or
// blends.
void readGoals(const std::array<const TwoBoneIk*, L>& tasks, LaneChain& c, LaneFloat& twistSin, LaneFloat& twistCos,
               LaneFloat& weight, LaneFloat& softness, bool& anySoft, bool& anyPartial) noexcept {
    std::array<const void*, L> records;
    for (std::size_t l = 0; l < L; ++l) records[l] = tasks[l];
    std::array<LaneFloat, kTwoBoneFloats> fields;
    LaneFloat twist;
    if (recordsToLanes(records, kTwoBoneFloats, fields)) {
        std::copy(fields[3].begin(), fields[3].end(), c.target.x);
        std::copy(fields[4].begin(), fields[4].end(), c.target.y);
        std::copy(fields[5].begin(), fields[5].end(), c.target.z);
        std::copy(fields[6].begin(), fields[6].end(), c.pole.x);
        std::copy(fields[7].begin(), fields[7].end(), c.pole.y);
        std::copy(fields[8].begin(), fields[8].end(), c.pole.z);
        twist = fields[9];
        weight = fields[10];
        softness = fields[11];
    } else {
        for (std::size_t l = 0; l < L; ++l) {
            const TwoBoneIk& t = *tasks[l];
            c.target.set(l, t.target);
            c.pole.set(l, t.pole);
            twist[l] = t.twist;
            weight[l] = t.weight;
            softness[l] = t.soften;
        }
    }
    anySoft = lanesWhere([&](std::size_t l) { return softness[l] > 0.0f; }) != 0;
    anyPartial = lanesWhere([&](std::size_t l) { return weight[l] < 1.0f; }) != 0;
    twistSin.fill(0.0f);
    twistCos.fill(1.0f);
    if (lanesWhere([&](std::size_t l) { return twist[l] != 0.0f; }) == 0) return;
    for (std::size_t l = 0; l < L; ++l) {
        if (twist[l] == 0.0f) continue;
        const Quat q = fromAxisAngle(Vec3{1.0f, 0.0f, 0.0f}, twist[l]);
        twistSin[l] = q.x;
        twistCos[l] = q.w;
    }
}

}  // namespace

void solveTwoBoneLanes(std::span<const std::int32_t> parents, PoseLanes& poses,
                       std::span<const TwoBoneLane, kIkLanes> lanes) noexcept {
    std::array<const TwoBoneIk*, L> tasks;
    const std::uint32_t members = laneTasks(lanes, tasks);
    const TwoBoneIk& first = *tasks[0];
    const auto byReference = [&] { solveByReference(parents, poses, lanes); };
    // Root to end, end first; the chain must fit the kept span.
    std::array<std::uint32_t, kMaxSpan> span;
    std::size_t spanLength = 0, middleAt = 0;
    for (std::int64_t j = first.end;; j = parents[static_cast<std::size_t>(j)]) {
        if (spanLength == kMaxSpan) return byReference();
        if (static_cast<std::uint32_t>(j) == first.middle) middleAt = spanLength;
        span[spanLength++] = static_cast<std::uint32_t>(j);
        if (static_cast<std::uint32_t>(j) == first.root) break;
    }
    std::reverse(span.begin(), span.begin() + static_cast<std::ptrdiff_t>(spanLength));
    middleAt = spanLength - 1 - middleAt;

    // The root's parent's placement, composed from the top ancestor down.
    LanePlacement parent;
    LaneFloat skewed{};
    if (!placeParentOf(parents, poses, first.root, parent, skewed)) return byReference();

    // The chain's locals, where PoseLanes holds them (read in one go: the chain's
    // blocks must all stay held), and where root, middle and end lie. Parents come
    // before children, so the span's joints, and their blocks, ascend.
    std::size_t blocks = 1;
    for (std::size_t k = 1; k < spanLength; ++k) {
        if (span[k] / PoseLanes::kBlockJoints != span[k - 1] / PoseLanes::kBlockJoints) ++blocks;
    }
    if (blocks > PoseLanes::kBlocksHeld) return byReference();
    std::array<const LaneFrame*, kMaxSpan> frames;
    for (std::size_t k = 0; k < spanLength; ++k) frames[k] = &poses.joint(span[k]);
    const ChainFrames chain(frames.data(), spanLength);
    const LaneQuat& rootBefore = chain[0]->r;
    const LaneQuat& middleBefore = chain[middleAt]->r;
    LaneChain c;
    placeChain(parent, chain, middleAt, rootBefore, middleBefore, c, skewed);

    LaneFloat softness, twistSin, twistCos, weight;
    bool anySoft = false, anyPartial = false;
    readGoals(tasks, c, twistSin, twistCos, weight, softness, anySoft, anyPartial);
    // As the reference: past (1 - soften) of the chain the reach eases into full
    // extension exponentially.
    const auto soften = [&] {
        if (!anySoft) return;
        for (std::size_t l = 0; l < L; ++l) {
            if (!(softness[l] > 0.0f)) continue;
            const float full = c.upper[l] + c.lower[l];
            const float soft = full * (1.0f - softness[l]), ease = full * softness[l];
            if (c.reach[l] > soft) c.reach[l] = soft + ease * (1.0f - std::exp(-(c.reach[l] - soft) / ease));
        }
    };
    // Joints between root and middle: their frames composed once.
    const bool direct = middleAt == 1;
    LaneBetween between;
    if (!direct) betweenJoints(chain, middleAt, between);
    LaneQuat rootSolved, middleSolved;
    LaneFloat distance, general;
    measureLengths(c);
    soften();
    // Each lane takes the plain solve when it is in general position at full weight,
    // else the general one: a lane's result does not depend on the others'.
    // Root, middle and end each the parent of the next (a leg, an arm): the plain
    // solve measures the outcome itself.
    // (Lanes without a skewed frame need no measuring, and the direct solve gives them
    // the same results: with none, it is taken.)
    const bool anySkewed = lanesWhere([&](std::size_t l) { return skewed[l] != 0.0f; }) != 0;
    const bool measured = direct && spanLength == 3 && anySkewed;
    LaneFloat upperAfter, lowerAfter;
    const auto solve = measured ? solvePlainMeasured : direct ? solvePlainDirect : solvePlainBetween;
    const bool allPlain =
        solve(c, parent, rootBefore, chain[0]->s, between, middleBefore, twistSin, twistCos, *chain[1],
              chain[spanLength - 1]->p, skewed, rootSolved, middleSolved, distance, upperAfter, lowerAfter, general);
    if (anyPartial || !allPlain) {
        const LaneQuat rootPlain = rootSolved, middlePlain = middleSolved;
        const LaneFloat distancePlain = distance;
        measureReach(c);
        soften();
        LaneQuat rootTurn, middleTurn;
        solveTurns(c, twistSin, twistCos, halfTurnW(), rootTurn, middleTurn);
        if (direct) betweenJoints(chain, middleAt, between);  // the identity
        turnRoot(parent, rootBefore, rootTurn, c.valid, rootSolved);
        if (anyPartial) blendByWeight(rootSolved, rootBefore, weight);
        turnMiddle(parent, rootSolved, chain[0]->s, between, middleBefore, middleTurn, c.valid, middleSolved);
        if (anyPartial) blendByWeight(middleSolved, middleBefore, weight);

        endAfterTurns(c, rootTurn, middleTurn, distance);
        for (std::size_t l = 0; l < L; ++l) {
            if (general[l] == 0.0f && weight[l] >= 1.0f) {
                rootSolved.set(l, rootPlain[l]);
                middleSolved.set(l, middlePlain[l]);
                distance[l] = distancePlain[l];
            }
        }
    }
    // The outcome. At full weight, without a skewed scale, the end moved by the two
    // turns about the root and the middle; otherwise the chain is composed again with
    // its new rotations.
    // A lane the plain solve measured (a root-middle-end chain, in general position,
    // at full weight) keeps that outcome whatever the other lanes need, so that its
    // result does not depend on the group it is solved in.
    const bool recompose = anyPartial || anySkewed;
    if (recompose && measured && allPlain && !anyPartial) {
        std::copy(upperAfter.begin(), upperAfter.end(), c.upper.begin());
        std::copy(lowerAfter.begin(), lowerAfter.end(), c.lower.begin());
    } else if (recompose) {
        LaneFloat measuredHere;
        for (std::size_t l = 0; l < L; ++l) {
            const bool here = measured && general[l] == 0.0f && weight[l] >= 1.0f;
            measuredHere[l] = here ? 1.0f : 0.0f;
            if (here) {
                c.upper[l] = upperAfter[l];
                c.lower[l] = lowerAfter[l];
            }
        }
        LaneChain after;
        placeChain(parent, chain, middleAt, rootSolved, middleSolved, after, skewed);
        remeasure(after, weight, skewed, measuredHere, c, distance);
    }
    poses.setRotation(span[0], rootSolved, members);
    poses.setRotation(span[middleAt], middleSolved, members);
    LaneFloat reported;
    const std::uint32_t reached = reportOutcomes(c, distance, reported);
    for (std::uint32_t rest = members; rest != 0; rest &= rest - 1) {
        const auto l = static_cast<std::size_t>(std::countr_zero(rest));
        *lanes[l].outcome = {(reached >> l & 1u) != 0, reported[l]};
    }
}

namespace {

// a = a o b: a placement composed with a run of joints already composed (b, from the
// identity), as the reference composes the unnamed joints between two aimed ones.
KINEMA_LANE_LOOPS void composePlacements(LanePlacement& __restrict a, const LanePlacement& __restrict b) noexcept {
    for (std::size_t l = 0; l < L; ++l) {
        const Linear am = mapAt(a.m, l), bm = mapAt(b.m, l);
        const Vec3 bp = b.p[l];
        a.p.set(l,
                a.p[l] +
                    Vec3{am.m0 * bp.x + am.m3 * bp.y + am.m6 * bp.z, am.m1 * bp.x + am.m4 * bp.y + am.m7 * bp.z,
                         am.m2 * bp.x + am.m5 * bp.y + am.m8 * bp.z});
        const Linear m = times(am, bm);
        const float values[] = {m.m0, m.m1, m.m2, m.m3, m.m4, m.m5, m.m6, m.m7, m.m8};
        for (std::size_t i = 0; i < 9; ++i) a.m[i][l] = values[i];
        a.r.set(l, a.r[l] * b.r[l]);
    }
}

// `v` through lane l's linear map.
KINEMA_LANE_INLINE Vec3 through(const LanePlacement& f, std::size_t l, Vec3 v) noexcept {
    return {f.m[0][l] * v.x + f.m[3][l] * v.y + f.m[6][l] * v.z, f.m[1][l] * v.x + f.m[4][l] * v.y + f.m[7][l] * v.z,
            f.m[2][l] * v.x + f.m[5][l] * v.y + f.m[8][l] * v.z};
}

// Per lane, what an aim task asks, read once.
struct AimGoals {
    LaneVec3 target, forward, up;
    LaneVec3 upVector;
    LaneFloat hasUp;  // 1 where the task keeps its up axis toward upVector
    LaneFloat weight;
    // The angle limit (AimLimitAngles), lane by lane.
    LaneFloat limited, sine, cosine, halfSine, halfCosine;
};

// The aim's chain: each named joint's local transform and its parent's placement,
// kept so that a pass composes each joint once (as ik.cpp's AimChain).
struct AimLanesChain {
    std::span<const std::uint32_t> joints;
    std::array<LaneFrame, kMaxAimLanesJoints> local;
    std::array<LanePlacement, kMaxAimLanesJoints> parentOf;
    std::array<LanePlacement, kMaxAimLanesJoints> between;  // where !direct: the unnamed joints below joint k
    std::array<bool, kMaxAimLanesJoints> direct;
    LanePlacement aimed;
    std::size_t ready = 0;  // joints placed since they last turned: parentOf valid up to this one
};

// Joints [ready, count) placed again: parent placements valid up to joint `count`,
// the aimed joint's when `count` is the chain's length.
void refreshAim(AimLanesChain& c, std::size_t count) noexcept {
    const std::size_t n = c.joints.size();
    LaneFloat skewed{};  // not needed: an aim's outcome is measured on the composed frames
    for (; c.ready < count; ++c.ready) {
        const std::size_t k = c.ready;
        LanePlacement& placed = k + 1 == n ? c.aimed : c.parentOf[k + 1];
        placed = c.parentOf[k];
        composeOnto(placed, c.local[k], skewed);
        if (k + 1 < n && !c.direct[k]) composePlacements(placed, c.between[k]);
    }
}

// The aimed joint's forward axis in model space, at unit length (zero where the
// joint's map flattens it).
KINEMA_LANE_LOOPS void aimedForward(const LanePlacement& __restrict aimed, const LaneVec3& __restrict axis,
                                    LaneVec3& __restrict out) noexcept {
    for (std::size_t l = 0; l < L; ++l) out.set(l, directionOr(through(aimed, l, axis[l]), Vec3{}));
}

// The angle of (cosine, sine) for sine >= 0, in [0, pi]: atan2(sine, cosine) as a
// polynomial the lane loops keep in vector instructions. The ratio of the smaller to
// the larger coordinate is brought within tan(pi/8) (atan(t) = pi/4 + atan((t - 1) /
// (t + 1))), where atan's Taylor series to the 15th power is exact to 2e-8; the
// result is within about 2e-7 of the C library's.
KINEMA_LANE_INLINE float angleOf(float sine, float cosine) noexcept {
    constexpr float kPi = 3.14159265358979f;
    constexpr float kTanEighthTurn = 0.41421356f;
    const float across = std::abs(cosine);
    const float lo = least(across, sine), hi = most(across, sine);
    const float t = lo / (hi > 0.0f ? hi : 1.0f);
    const bool reduced = t > kTanEighthTurn;
    const float u = reduced ? (t - 1.0f) / (t + 1.0f) : t;
    const float z = u * u;
    float series = 1.0f / 13.0f - z * (1.0f / 15.0f);
    series = 1.0f / 9.0f - z * (1.0f / 11.0f - z * series);
    series = 1.0f / 5.0f - z * (1.0f / 7.0f - z * series);
    series = u * (1.0f - z * (1.0f / 3.0f - z * series));
    float r = reduced ? 0.25f * kPi + series : series;
    r = sine > across ? 0.5f * kPi - r : r;
    return cosine < 0.0f ? kPi - r : r;
}

// sin and cos of h in [0, pi/2] by their Taylor series to the 13th and 12th powers:
// exact there to 1e-9 before rounding, within a few float steps of the C library's.
KINEMA_LANE_INLINE void sinCosOf(float h, float& sine, float& cosine) noexcept {
    const float z = h * h;
    float s = 1.0f / 39916800.0f - z * (1.0f / 6227020800.0f);
    s = 1.0f / 120.0f - z * (1.0f / 5040.0f - z * (1.0f / 362880.0f - z * s));
    sine = h * (1.0f - z * (1.0f / 6.0f - z * s));
    float c = 1.0f / 3628800.0f - z * (1.0f / 479001600.0f);
    c = 1.0f / 24.0f - z * (1.0f / 720.0f - z * (1.0f / 40320.0f - z * c));
    cosine = 1.0f - z * (0.5f - z * c);
}

// One pass's angle per lane (ik.cpp's turnBetween: atan2 of the sine and cosine, or
// 0 or a half turn where the sine is rounding), for the lanes still `active` whose
// forward axis `moves`; `turning` marks them, and `active` stays set where the pass
// turns more than kAimSettled.
KINEMA_LANE_LOOPS void passAngle(const LaneFloat& __restrict sine, const LaneFloat& __restrict cosine,
                                 const LaneFloat& __restrict moves, LaneFloat& __restrict active,
                                 LaneFloat& __restrict turning, LaneFloat& __restrict angle) noexcept {
    for (std::size_t l = 0; l < L; ++l) {
        const float turn = active[l] != 0.0f ? moves[l] : 0.0f;
        const float whole =
            sine[l] > kTiny ? angleOf(sine[l], cosine[l]) : (cosine[l] < 0.0f ? 3.14159265358979f : 0.0f);
        const float a = turn != 0.0f ? whole : 0.0f;
        angle[l] = a;
        turning[l] = turn;
        active[l] = a > kAimSettled ? 1.0f : 0.0f;
    }
}

// A joint's part of the pass's turn: `share` of `angle` about `axis` (ik.cpp's turnAbout).
KINEMA_LANE_LOOPS void partOfTurn(const LaneVec3& __restrict axis, const LaneFloat& __restrict angle,
                                  const LaneFloat& __restrict share, LaneQuat& __restrict delta) noexcept {
    for (std::size_t l = 0; l < L; ++l) {
        float sh = 0.0f, ch = 1.0f;
        sinCosOf(0.5f * (angle[l] * share[l]), sh, ch);
        const Vec3 a = axis[l];
        delta.set(l, Quat{a.x * sh, a.y * sh, a.z * sh, ch});
    }
}

// One pass's whole turn per lane, as ik.cpp's aimPass measures it: the forward axis
// toward the target (held to the limit from the pose's forward axis), as a unit axis
// and the sine and cosine of the angle. `moves` is 0 for a lane whose forward axis
// has no direction (the reference turns nothing there).
KINEMA_LANE_LOOPS void aimTurn(const LanePlacement& __restrict aimed, const AimGoals& __restrict g,
                               const LaneVec3& __restrict poseForward, LaneVec3& __restrict axis,
                               LaneFloat& __restrict sine, LaneFloat& __restrict cosine,
                               LaneFloat& __restrict moves) noexcept {
    for (std::size_t l = 0; l < L; ++l) {
        const Vec3 forward = directionOr(through(aimed, l, g.forward[l]), Vec3{});
        // A target within rounding of the aimed joint's origin has no direction: no turn.
        const Vec3 toTarget = g.target[l] - aimed.p[l];
        const bool off = length(toTarget) > pointNoise(aimed.p[l], g.target[l]);
        const Vec3 toward = select(off, directionOr(toTarget, forward), forward);
        // The limit: the turn from the pose's forward axis, past the limit where
        // sin(turn - limit) > 0, is held at the limit.
        const Vec3 f0 = poseForward[l];
        const Vec3 swing = turnAxis(f0, toward);
        const float s = length(swing), c = dot(f0, toward);
        const bool past = (g.limited[l] != 0.0f ? g.cosine[l] * s - g.sine[l] * c : 0.0f) > 0.0f;
        const float swingNoise = c < 0.0f ? kOppositeNoise : kTiny;
        const Vec3 swingAxis = s > swingNoise ? swing * (1.0f / (s > swingNoise ? s : 1.0f)) : perpendicularTo(f0);
        const float hs = g.halfSine[l];
        const Vec3 held = rotate(Quat{swingAxis.x * hs, swingAxis.y * hs, swingAxis.z * hs, g.halfCosine[l]}, f0);
        const Vec3 wanted = select(past, held, toward);
        // The turn from the forward axis onto it (ik.cpp's turnBetween).
        const Vec3 cr = turnAxis(forward, wanted);
        const float sn = length(cr), cs = dot(forward, wanted);
        const float noise = cs < 0.0f ? kOppositeNoise : kTiny;
        const bool some = sn > noise;
        axis.set(l, some ? cr * (1.0f / (some ? sn : 1.0f)) : perpendicularTo(forward));
        sine[l] = some ? sn : 0.0f;  // passAngle reads 0 as no axis: 0 or a half turn
        cosine[l] = cs;
        moves[l] = dot(forward, forward) != 0.0f ? 1.0f : 0.0f;
    }
}

// Joint k of the chain turned, in the lanes where `turning` is set, by the
// model-space `delta` about its origin (as ik.cpp's AimChain::turn).
KINEMA_LANE_LOOPS void turnAimJoint(const LanePlacement& __restrict parent, const LaneQuat& __restrict delta,
                                    const LaneFloat& __restrict turning, LaneQuat& __restrict rotation) noexcept {
    for (std::size_t l = 0; l < L; ++l) {
        const Quat before = rotation[l];
        const Quat turned = unit(turnIn(mapAt(parent.m, l), unit(parent.r[l]), delta[l]) * before);
        rotation.set(l, select(turning[l] != 0.0f, turned, before));
    }
}

// The roll that keeps the aimed joint's up axis toward the up vector, about its
// forward axis exactly, as ik.cpp's solveAim: `rolling` is 0 where there is none.
KINEMA_LANE_LOOPS void aimRoll(const LanePlacement& __restrict aimed, const AimGoals& __restrict g,
                               LaneQuat& __restrict roll, LaneFloat& __restrict rolling) noexcept {
    for (std::size_t l = 0; l < L; ++l) {
        const Vec3 forward = directionOr(through(aimed, l, g.forward[l]), Vec3{});
        const Vec3 up = directionOr(through(aimed, l, g.up[l]), Vec3{});
        const Vec3 want = directionOr(g.upVector[l], Vec3{});
        const Vec3 upNow = up - forward * dot(up, forward);
        const Vec3 upWanted = want - forward * dot(want, forward);
        // 1 where the task rolls and both up directions stand off the forward axis.
        float some = g.hasUp[l];
        some = dot(forward, forward) > 0.0f ? some : 0.0f;
        some = length(upNow) > kRollSlack ? some : 0.0f;
        some = length(upWanted) > kRollSlack ? some : 0.0f;
        const float across = dot(forward, cross(upNow, upWanted));
        const float half = 0.5f * angleOf(std::abs(across), dot(upNow, upWanted));
        float sh = 0.0f, ch = 1.0f;
        sinCosOf(half, sh, ch);
        sh = across < 0.0f ? -sh : sh;
        roll.set(l, Quat{forward.x * sh, forward.y * sh, forward.z * sh, ch});
        rolling[l] = some;
    }
}

// How far the aimed joint's forward axis passes from the target (ik.cpp's outcome).
KINEMA_LANE_LOOPS void aimMiss(const LanePlacement& __restrict aimed, const AimGoals& __restrict g,
                               LaneFloat& __restrict distance, LaneFloat& __restrict reached) noexcept {
    for (std::size_t l = 0; l < L; ++l) {
        const Vec3 forward = directionOr(through(aimed, l, g.forward[l]), Vec3{});
        const Vec3 toTarget = g.target[l] - aimed.p[l];
        const float along = dot(toTarget, forward);
        const float d = along >= 0.0f ? length(toTarget - forward * along) : length(toTarget);
        distance[l] = d;
        // A target within rounding of the aimed joint's origin lies on every axis through it.
        const float far = length(toTarget);
        const float bound = most(pointNoise(aimed.p[l], g.target[l]) - far, 1e-4f * far - d);
        reached[l] = bound >= 0.0f ? 1.0f : 0.0f;
    }
}

}  // namespace

void solveAimLanes(std::span<const std::int32_t> parents, PoseLanes& poses,
                   std::span<const AimLane, kIkLanes> lanes) noexcept {
    std::array<const AimIk*, L> tasks;
    const std::uint32_t members = laneTasks(lanes, tasks);
    const std::span<const std::uint32_t> joints = tasks[0]->joints;
    const std::size_t n = joints.size();
    const auto byReference = [&] { solveByReference(parents, poses, lanes); };
    AimLanesChain c;
    c.joints = joints;
    LaneFloat skewed{};
    if (n > kMaxAimLanesJoints || !placeParentOf(parents, poses, joints[0], c.parentOf[0], skewed)) {
        return byReference();
    }
    for (std::size_t k = 0; k < n; ++k) c.local[k] = poses.joint(joints[k]);
    // The unnamed joints between two named ones never turn: composed once.
    for (std::size_t k = 0; k + 1 < n; ++k) {
        const auto above = static_cast<std::uint32_t>(parents[joints[k + 1]]);
        c.direct[k] = above == joints[k];
        if (c.direct[k]) continue;
        std::array<std::uint32_t, 256> run;
        std::size_t length = 0;
        for (std::uint32_t j = above; j != joints[k]; j = static_cast<std::uint32_t>(parents[j])) {
            if (length == run.size()) return byReference();
            run[length++] = j;
        }
        setIdentity(c.between[k]);
        for (std::size_t i = length; i-- > 0;) composeOnto(c.between[k], poses.joint(run[i]), skewed);
    }

    // What each lane asks, its turn's shares and its limit.
    AimGoals g;
    std::array<LaneFloat, kMaxAimLanesJoints> shares;
    bool anyPartial = false, anyUp = false;
    for (std::size_t l = 0; l < L; ++l) {
        const AimIk& t = *tasks[l];
        g.target.set(l, t.target);
        g.forward.set(l, unitAxis(t.forward));
        g.up.set(l, unitAxis(t.up));
        g.upVector.set(l, t.upVector ? unitAxis(*t.upVector) : Vec3{});
        g.hasUp[l] = t.upVector ? 1.0f : 0.0f;
        g.weight[l] = t.weight;
        anyPartial = anyPartial || t.weight < 1.0f;
        anyUp = anyUp || t.upVector.has_value();
        const AimLimitAngles limit(t.maxAngle);
        g.limited[l] = limit.active ? 1.0f : 0.0f;
        g.sine[l] = limit.sine;
        g.cosine[l] = limit.cosine;
        g.halfSine[l] = limit.halfSine;
        g.halfCosine[l] = limit.halfCosine;
        std::array<float, kMaxAimLanesJoints> own;
        aimShares(t.decay, std::span<float>(own.data(), n));
        for (std::size_t k = 0; k < n; ++k) shares[k][l] = own[k];
    }
    std::array<LaneQuat, kMaxAimLanesJoints> before;
    if (anyPartial) {
        for (std::size_t k = 0; k < n; ++k) before[k] = c.local[k].r;
    }

    refreshAim(c, n);
    LaneVec3 poseForward;
    aimedForward(c.aimed, g.forward, poseForward);
    for (std::size_t l = 0; l < L; ++l) poseForward.set(l, directionOr(poseForward[l], Vec3{0.0f, 0.0f, 1.0f}));

    // The passes, as the reference's: one for one joint; for a chain, until a pass
    // turns no more than kAimSettled (each lane stops on its own).
    // Lanes without a task of their own stop at once.
    LaneFloat active;
    for (std::size_t l = 0; l < L; ++l) active[l] = (members >> l & 1u) != 0 ? 1.0f : 0.0f;
    const int passes = n > 1 ? kAimPasses : 1;
    LaneVec3 axis;
    LaneFloat sine, cosine, moves, turning, angle;
    std::array<LaneQuat, kMaxAimLanesJoints> delta;
    for (int pass = 0; pass < passes; ++pass) {
        aimTurn(c.aimed, g, poseForward, axis, sine, cosine, moves);
        passAngle(sine, cosine, moves, active, turning, angle);
        bool any = false;
        for (std::size_t l = 0; l < L; ++l) any = any || turning[l] != 0.0f;
        if (!any) break;
        for (std::size_t k = 0; k < n; ++k) partOfTurn(axis, angle, shares[k], delta[k]);
        for (std::size_t k = 0; k < n; ++k) {
            refreshAim(c, k);
            turnAimJoint(c.parentOf[k], delta[k], turning, c.local[k].r);
            c.ready = std::min(c.ready, k);
        }
        refreshAim(c, n);
        bool still = false;
        for (std::size_t l = 0; l < L; ++l) still = still || active[l] != 0.0f;
        if (!still) break;
    }
    if (anyUp) {
        LaneQuat roll;
        LaneFloat rolling;
        aimRoll(c.aimed, g, roll, rolling);
        refreshAim(c, n - 1);
        turnAimJoint(c.parentOf[n - 1], roll, rolling, c.local[n - 1].r);
        c.ready = std::min(c.ready, n - 1);
        refreshAim(c, n);
    }
    if (anyPartial) {
        for (std::size_t k = 0; k < n; ++k) blendByWeight(c.local[k].r, before[k], g.weight);
        c.ready = 0;
        refreshAim(c, n);
    }
    LaneFloat distance, reached;
    aimMiss(c.aimed, g, distance, reached);
    for (std::size_t k = 0; k < n; ++k) poses.setRotation(joints[k], c.local[k].r, members);
    for (std::size_t l = 0; l < L; ++l) {
        if (lanes[l].task != nullptr) *lanes[l].outcome = {reached[l] != 0.0f, reportedDistance(distance[l])};
    }
}

}  // namespace kinema::detail
