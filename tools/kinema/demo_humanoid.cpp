#include "demo_humanoid.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>
#include <span>
#include <string>

#include "kinema/runtime/marker_sweep.hpp"
#include "kinema/runtime/pose.hpp"

namespace kinema::cli {

namespace {

constexpr float kPi = std::numbers::pi_v<float>;
// Keys per second: the demo ticks at 60 Hz from clip time 0, so its samples land on keys.
constexpr int kKeyRate = 60;
constexpr float kAnkle = 0.08f;  // ankle above the sole
constexpr float kThigh = 0.43f, kShin = 0.43f;
constexpr float kHipDrop = 0.06f, kHipWidth = 0.09f, kFootWidth = 0.1f;
// The generated legs stay within this fraction of their length, so that raising a
// planted foot onto higher ground (foot IK) always finds a solution.
constexpr float kMaxReach = 0.985f;

enum Joint : std::uint32_t {
    Hips,
    Spine,
    Chest,
    Neck,
    Head,
    LeftShoulder,
    LeftUpperArm,
    LeftForearm,
    LeftHand,
    RightShoulder,
    RightUpperArm,
    RightForearm,
    RightHand,
    LeftThigh,
    LeftShin,
    LeftFoot,
    LeftToe,
    RightThigh,
    RightShin,
    RightFoot,
    RightToe,
    JointCount
};
// Per Side: the same joint on the left and on the right.
constexpr std::uint32_t kUpperArm[2] = {LeftUpperArm, RightUpperArm};
constexpr std::uint32_t kForearm[2] = {LeftForearm, RightForearm};
constexpr std::uint32_t kHand[2] = {LeftHand, RightHand};
constexpr std::uint32_t kThighJoint[2] = {LeftThigh, RightThigh};
constexpr std::uint32_t kShinJoint[2] = {LeftShin, RightShin};
constexpr std::uint32_t kFootJoint[2] = {LeftFoot, RightFoot};
constexpr std::uint32_t kToe[2] = {LeftToe, RightToe};
constexpr float kSign[2] = {1.0f, -1.0f};  // the left side is +X (the character faces +Z)

Vec3 normalised(Vec3 v) {
    const float len = length(v);
    return len > 0.0f ? v * (1.0f / len) : Vec3{0.0f, 1.0f, 0.0f};
}

Quat aboutX(float a) { return fromAxisAngle({1, 0, 0}, a); }
Quat aboutY(float a) { return fromAxisAngle({0, 1, 0}, a); }
Quat aboutZ(float a) { return fromAxisAngle({0, 0, 1}, a); }

// The rotation whose columns are the orthonormal axes x, y, z.
Quat basis(Vec3 x, Vec3 y, Vec3 z) {
    Mat4 m;
    m.m = {x.x, x.y, x.z, 0, y.x, y.y, y.z, 0, z.x, z.y, z.z, 0, 0, 0, 0, 1};
    return decompose(m).rotation;
}

// What a clip shows at one instant, in model space with the hips over the origin
// (their travel along +Z is added to the track, and root motion takes it out again).
struct Frame {
    Vec3 hips{};
    Quat hipsRotation{};
    Quat spine{}, chest{};            // local
    Vec3 ankle[2]{};                  // model space, by Side
    float footPitch[2]{};             // radians about X, toe up when negative
    float armSwing[2]{}, elbow[2]{};  // radians: upper arm about X (back when positive), forearm bend
};

struct LegRotations {
    Quat thigh, shin, foot;  // local
    float reach = 0.0f;      // hip-ankle distance over the leg's length
};

// Analytic two-bone placement: the ankle at `ankle`, the knee bending toward the
// hips' forward direction, the foot at model rotation `foot`. The thigh's and the
// shin's +Y point back up their bones (each bone runs along its joint's -Y at rest).
LegRotations solveLeg(Vec3 hip, Quat hipsRotation, Vec3 ankle, Quat foot) {
    const Vec3 toAnkle = ankle - hip;
    const float d = length(toAnkle);
    const Vec3 dir = normalised(toAnkle);
    const float cosA = std::clamp((kThigh * kThigh + d * d - kShin * kShin) / (2.0f * kThigh * d), -1.0f, 1.0f);
    const float sinA = std::sqrt(1.0f - cosA * cosA);
    const Vec3 forward = rotate(hipsRotation, {0, 0, 1});
    const Vec3 pole = normalised(forward - dir * dot(forward, dir));
    const Vec3 knee = hip + (dir * cosA + pole * sinA) * kThigh;
    const Vec3 yThigh = normalised(hip - knee);
    const Vec3 zThigh = normalised(pole - yThigh * dot(pole, yThigh));
    const Vec3 hinge = cross(yThigh, zThigh);
    const Vec3 yShin = normalised(knee - ankle);
    const Quat thighModel = basis(hinge, yThigh, zThigh);
    const Quat shinModel = basis(hinge, yShin, cross(hinge, yShin));
    return {conjugate(hipsRotation) * thighModel, conjugate(thighModel) * shinModel, conjugate(shinModel) * foot,
            d / (kThigh + kShin)};
}

// Hermite interpolation from p0 to p1 over s in [0, 1] with end slopes m0, m1.
float hermite(float p0, float p1, float m0, float m1, float s) {
    const float s2 = s * s, s3 = s2 * s;
    return (2 * s3 - 3 * s2 + 1) * p0 + (s3 - 2 * s2 + s) * m0 + (-2 * s3 + 3 * s2) * p1 + (s3 - s2) * m1;
}

double phaseOf(const Gait& gait, double time, Side side) {
    double phase = time / gait.period - (side == Side::Right ? 0.5 : 0.0);
    return phase - std::floor(phase);
}

// How a walk or run carries the body beyond its gait.
struct StrideStyle {
    float height;    // mean hips height
    float bob;       // hips rise and fall, twice a cycle
    float bobPhase;  // cycle phase of the lowest hips
    float lift;      // swing foot's highest lift above the plant
    float twist;     // pelvis yaw amplitude, the chest turning against it
    float lean;      // forward lean of the hips
    float arm;       // upper arm swing amplitude
    float elbow;     // forearm bend
    float elbowUp;   // more forearm bend as the arm swings forward
};

Frame strideFrame(const Gait& gait, const StrideStyle& style, float t) {
    Frame f;
    const float phase = t / gait.period;
    const float cycle = std::cos(2.0f * kPi * phase);  // 1 when the left foot lands in front
    const float planted = gait.speed * gait.period * gait.duty;
    const float swingTime = gait.period * (1.0f - gait.duty);
    for (int s = 0; s < 2; ++s) {
        const auto p = static_cast<float>(phaseOf(gait, t, Side(s)));
        if (p < gait.duty) {
            // Planted: moving back under the travelling hips at their speed, so it stays put.
            f.ankle[s] = {kSign[s] * kFootWidth, kAnkle, 0.5f * planted - gait.speed * gait.period * p};
        } else {
            // Swinging forward, leaving and landing with the ground's speed (zero in the world).
            const float u = (p - gait.duty) / (1.0f - gait.duty);
            const float slope = -gait.speed * swingTime;
            f.ankle[s] = {kSign[s] * kFootWidth, kAnkle + style.lift * std::sin(kPi * u),
                          hermite(-0.5f * planted, 0.5f * planted, slope, slope, u)};
            f.footPitch[s] = -0.3f * std::sin(kPi * u);
        }
        // The arm swings against the leg of its side.
        f.armSwing[s] = kSign[s] * style.arm * cycle;
        f.elbow[s] = style.elbow + style.elbowUp * std::max(0.0f, -f.armSwing[s] / std::max(style.arm, 1e-6f));
    }
    f.hips = {0.0f, style.height - style.bob * std::cos(4.0f * kPi * (phase - style.bobPhase)), 0.0f};
    f.hipsRotation = aboutY(-style.twist * cycle) * aboutX(style.lean);
    f.spine = aboutY(0.6f * style.twist * cycle) * aboutX(-0.5f * style.lean);
    f.chest = aboutY(0.8f * style.twist * cycle) * aboutX(-0.3f * style.lean);
    return f;
}

Frame idleFrame(float t) {
    const float breath = std::sin(2.0f * kPi * t / 2.0f);
    Frame f;
    f.hips = {0.0f, 0.955f + 0.006f * breath, 0.0f};
    f.hipsRotation = aboutY(0.02f * breath);
    f.chest = aboutX(-0.02f * breath);
    f.ankle[0] = {0.11f, kAnkle, 0.04f};
    f.ankle[1] = {-0.11f, kAnkle, -0.03f};
    for (int s = 0; s < 2; ++s) {
        f.armSwing[s] = 0.04f * kSign[s] * breath;
        f.elbow[s] = 0.15f;
    }
    return f;
}

// One track per animated joint, keys every 1/kKeyRate s over `seconds`; `speed`
// (m/s along +Z) moves the hips. `worstReach` keeps the longest leg reach met.
Result<Clip> makeClip(const char* name, float seconds, float speed, const std::function<Frame(float)>& frameAt,
                      std::vector<Marker> markers, float& worstReach) {
    enum Slot : std::size_t {
        HipsT,
        HipsR,
        SpineR,
        ChestR,
        Arm0,
        Fore0 = Arm0 + 2,
        Thigh0 = Fore0 + 2,
        Shin0 = Thigh0 + 2,
        Foot0 = Shin0 + 2,
        SlotCount = Foot0 + 2
    };
    const std::uint32_t targets[SlotCount] = {Hips,          Hips,        Spine,        Chest,     LeftUpperArm,
                                              RightUpperArm, LeftForearm, RightForearm, LeftThigh, RightThigh,
                                              LeftShin,      RightShin,   LeftFoot,     RightFoot};
    std::vector<Track> tracks(SlotCount);
    for (std::size_t i = 0; i < SlotCount; ++i) {
        tracks[i].target = targets[i];
        tracks[i].path = i == HipsT ? TrackPath::Translation : TrackPath::Rotation;
        tracks[i].width = i == HipsT ? 3 : 4;
    }
    const int keys = static_cast<int>(std::lround(seconds * kKeyRate));
    for (int k = 0; k <= keys; ++k) {
        const float t = static_cast<float>(k) / kKeyRate;
        const Frame f = frameAt(t);
        Quat rotations[SlotCount]{};
        rotations[HipsR] = f.hipsRotation;
        rotations[SpineR] = f.spine;
        rotations[ChestR] = f.chest;
        for (std::size_t s = 0; s < 2; ++s) {
            rotations[Arm0 + s] = aboutZ(kSign[s] * 0.1f) * aboutX(f.armSwing[s]);
            rotations[Fore0 + s] = aboutX(-f.elbow[s]);
            const Vec3 hip = f.hips + rotate(f.hipsRotation, {kSign[s] * kHipWidth, -kHipDrop, 0.0f});
            const LegRotations leg = solveLeg(hip, f.hipsRotation, f.ankle[s], aboutX(f.footPitch[s]));
            worstReach = std::max(worstReach, leg.reach);
            rotations[Thigh0 + s] = leg.thigh;
            rotations[Shin0 + s] = leg.shin;
            rotations[Foot0 + s] = leg.foot;
        }
        tracks[HipsT].times.push_back(t);
        tracks[HipsT].values.insert(tracks[HipsT].values.end(), {f.hips.x, f.hips.y, f.hips.z + speed * t});
        for (std::size_t i = HipsR; i < SlotCount; ++i) {
            Quat q = rotations[i];
            // Keep each key in the hemisphere of the one before, so keys interpolate the short way.
            if (k > 0) {
                const auto& v = tracks[i].values;
                const Quat previous{v[v.size() - 4], v[v.size() - 3], v[v.size() - 2], v[v.size() - 1]};
                if (dot(previous, q) < 0.0f) q = -q;
            }
            tracks[i].times.push_back(t);
            tracks[i].values.insert(tracks[i].values.end(), {q.x, q.y, q.z, q.w});
        }
    }
    return Clip::create(name, std::move(tracks), std::move(markers));
}

// ---- meshes: octagonal tubes through rings, and boxes

struct Influence {
    std::uint16_t joint = 0;  // into the skin's joint list
    float weight = 1.0f;
};

// A horizontal cross-section (every limb hangs down, and the torso stands up, at rest).
struct Ring {
    Vec3 centre;
    float halfX, halfZ;
    Influence a, b{0, 0.0f};
};

void addVertex(MeshPrimitive& m, Vec3 p, Influence a, Influence b) {
    m.positions.push_back(p);
    m.joints.insert(m.joints.end(), {a.joint, b.joint});
    m.weights.insert(m.weights.end(), {a.weight, b.weight});
}

void addTube(MeshPrimitive& m, std::span<const Ring> rings) {
    constexpr std::uint32_t kSides = 8;
    const auto first = static_cast<std::uint32_t>(m.positions.size());
    for (const Ring& r : rings) {
        for (std::uint32_t k = 0; k < kSides; ++k) {
            const float a = 2.0f * kPi * (static_cast<float>(k) + 0.5f) / kSides;
            addVertex(m, r.centre + Vec3{r.halfX * std::cos(a), 0.0f, r.halfZ * std::sin(a)}, r.a, r.b);
        }
    }
    for (std::uint32_t i = 0; i + 1 < rings.size(); ++i) {
        const std::uint32_t lo = first + i * kSides, hi = lo + kSides;
        for (std::uint32_t k = 0; k < kSides; ++k) {
            const std::uint32_t k1 = (k + 1) % kSides;
            m.indices.insert(m.indices.end(), {lo + k, hi + k, hi + k1, lo + k, hi + k1, lo + k1});
        }
    }
    // Caps: a fan around each end ring's centre.
    for (const std::size_t end : {std::size_t{0}, rings.size() - 1}) {
        const Ring& r = rings[end];
        const auto centre = static_cast<std::uint32_t>(m.positions.size());
        addVertex(m, r.centre, r.a, r.b);
        const std::uint32_t ring = first + static_cast<std::uint32_t>(end) * kSides;
        for (std::uint32_t k = 0; k < kSides; ++k)
            m.indices.insert(m.indices.end(), {centre, ring + k, ring + (k + 1) % kSides});
    }
}

void addBox(MeshPrimitive& m, Vec3 lo, Vec3 hi, Influence a) {
    const auto base = static_cast<std::uint32_t>(m.positions.size());
    for (int c = 0; c < 8; ++c)
        addVertex(m, {(c & 1) ? hi.x : lo.x, (c & 2) ? hi.y : lo.y, (c & 4) ? hi.z : lo.z}, a, {0, 0.0f});
    // Corner c has bit 0 = x, bit 1 = y, bit 2 = z: two triangles per face.
    constexpr std::uint32_t kFaces[6][4] = {{0, 2, 6, 4}, {1, 5, 7, 3}, {0, 4, 5, 1},
                                            {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 6, 7, 5}};
    for (const auto& f : kFaces)
        m.indices.insert(m.indices.end(),
                         {base + f[0], base + f[1], base + f[2], base + f[0], base + f[2], base + f[3]});
}

MeshPrimitive skinnedPrimitive() {
    MeshPrimitive m;
    m.influencesPerVertex = 2;
    return m;
}

std::uint16_t u16(std::uint32_t joint) { return static_cast<std::uint16_t>(joint); }

// The body: skin "body" lists every joint in skeleton order, so influences name joints.
MeshPrimitive bodyMesh() {
    MeshPrimitive m = skinnedPrimitive();
    const Ring torso[] = {{{0, 0.90f, 0}, 0.16f, 0.10f, {Hips, 1}},
                          {{0, 1.00f, 0}, 0.17f, 0.11f, {Hips, 1}},
                          {{0, 1.10f, 0}, 0.15f, 0.10f, {Hips, 0.5f}, {Spine, 0.5f}},
                          {{0, 1.28f, 0}, 0.17f, 0.11f, {Spine, 0.5f}, {Chest, 0.5f}},
                          {{0, 1.44f, 0}, 0.19f, 0.11f, {Chest, 1}},
                          {{0, 1.50f, 0}, 0.08f, 0.07f, {Chest, 1}}};
    addTube(m, torso);
    const Ring neck[] = {{{0, 1.48f, 0}, 0.05f, 0.05f, {Neck, 1}},
                         {{0, 1.61f, 0}, 0.05f, 0.05f, {Neck, 0.5f}, {Head, 0.5f}}};
    addTube(m, neck);
    addBox(m, {-0.09f, 1.58f, -0.10f}, {0.09f, 1.82f, 0.11f}, {Head, 1});
    addBox(m, {-0.015f, 1.67f, 0.10f}, {0.015f, 1.72f, 0.14f}, {Head, 1});  // a nose: which way it looks
    for (int s = 0; s < 2; ++s) {
        const float x = kSign[s] * 0.18f;
        const Ring arm[] = {{{x, 1.47f, 0}, 0.055f, 0.055f, {u16(kUpperArm[s]), 1}},
                            {{x, 1.17f, 0}, 0.045f, 0.045f, {u16(kUpperArm[s]), 0.5f}, {u16(kForearm[s]), 0.5f}},
                            {{x, 0.93f, 0}, 0.035f, 0.04f, {u16(kForearm[s]), 1}}};
        addTube(m, arm);
        addBox(m, {x - 0.03f, 0.82f, -0.045f}, {x + 0.03f, 0.93f, 0.045f}, {u16(kHand[s]), 1});
        const float lx = kSign[s] * kHipWidth;
        const Ring leg[] = {{{lx, 0.95f, 0}, 0.075f, 0.08f, {u16(kThighJoint[s]), 1}},
                            {{lx, 0.51f, 0}, 0.055f, 0.06f, {u16(kThighJoint[s]), 0.5f}, {u16(kShinJoint[s]), 0.5f}},
                            {{lx, 0.11f, 0}, 0.04f, 0.045f, {u16(kShinJoint[s]), 1}}};
        addTube(m, leg);
        addBox(m, {lx - 0.045f, 0.0f, -0.06f}, {lx + 0.045f, 0.10f, 0.13f}, {u16(kFootJoint[s]), 1});
        addBox(m, {lx - 0.045f, 0.0f, 0.13f}, {lx + 0.045f, 0.045f, 0.20f}, {u16(kToe[s]), 1});
    }
    return m;
}

// The clothes' skin lists only the joints they follow, in this order.
constexpr std::uint32_t kClothesJoints[] = {Hips,      Spine,    Chest,      LeftUpperArm, RightUpperArm,
                                            LeftThigh, LeftShin, RightThigh, RightShin};
enum ClothesJoint : std::uint16_t { CHips, CSpine, CChest, CUpperArm0, CThigh0 = CUpperArm0 + 2 };

// A tunic (torso and short sleeves, primitive 0) and trousers (primitive 1), just
// outside the body and skinned like it, so they move with it.
Mesh clothesMesh() {
    MeshPrimitive tunic = skinnedPrimitive();
    const Ring torso[] = {{{0, 0.86f, 0}, 0.18f, 0.12f, {CHips, 1}},
                          {{0, 1.00f, 0}, 0.185f, 0.125f, {CHips, 1}},
                          {{0, 1.10f, 0}, 0.165f, 0.115f, {CHips, 0.5f}, {CSpine, 0.5f}},
                          {{0, 1.28f, 0}, 0.185f, 0.125f, {CSpine, 0.5f}, {CChest, 0.5f}},
                          {{0, 1.45f, 0}, 0.205f, 0.125f, {CChest, 1}},
                          {{0, 1.49f, 0}, 0.11f, 0.09f, {CChest, 1}}};
    addTube(tunic, torso);
    MeshPrimitive trousers = skinnedPrimitive();
    for (int s = 0; s < 2; ++s) {
        const float x = kSign[s] * 0.18f;
        const auto arm = static_cast<std::uint16_t>(CUpperArm0 + s);
        const Ring sleeve[] = {{{x, 1.48f, 0}, 0.07f, 0.07f, {arm, 1}}, {{x, 1.31f, 0}, 0.065f, 0.065f, {arm, 1}}};
        addTube(tunic, sleeve);
        const float lx = kSign[s] * kHipWidth;
        const auto thigh = static_cast<std::uint16_t>(CThigh0 + 2 * s), shin = static_cast<std::uint16_t>(thigh + 1);
        const Ring leg[] = {{{lx, 0.98f, 0}, 0.09f, 0.095f, {thigh, 1}},
                            {{lx, 0.51f, 0}, 0.068f, 0.073f, {thigh, 0.5f}, {shin, 0.5f}},
                            {{lx, 0.15f, 0}, 0.055f, 0.06f, {shin, 1}}};
        addTube(trousers, leg);
    }
    Mesh mesh;
    mesh.name = "clothes";
    mesh.primitives.push_back(std::move(tunic));
    mesh.primitives.push_back(std::move(trousers));
    return mesh;
}

// A sword along the prop's +Y: grip below the origin (the palm), guard, blade.
MeshPrimitive swordMesh() {
    MeshPrimitive m;
    const auto box = [&](Vec3 lo, Vec3 hi) {
        const auto base = static_cast<std::uint32_t>(m.positions.size());
        for (int c = 0; c < 8; ++c)
            m.positions.push_back({(c & 1) ? hi.x : lo.x, (c & 2) ? hi.y : lo.y, (c & 4) ? hi.z : lo.z});
        constexpr std::uint32_t kFaces[6][4] = {{0, 2, 6, 4}, {1, 5, 7, 3}, {0, 4, 5, 1},
                                                {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 6, 7, 5}};
        for (const auto& f : kFaces)
            m.indices.insert(m.indices.end(),
                             {base + f[0], base + f[1], base + f[2], base + f[0], base + f[2], base + f[3]});
    };
    box({-0.015f, -0.10f, -0.015f}, {0.015f, 0.03f, 0.015f});
    box({-0.07f, 0.03f, -0.018f}, {0.07f, 0.05f, 0.018f});
    box({-0.022f, 0.05f, -0.006f}, {0.022f, 0.72f, 0.006f});
    return m;
}

Skin skinOf(const char* name, std::span<const std::uint32_t> joints, const Pose& rest, std::uint64_t skeleton) {
    Skin skin;
    skin.name = name;
    skin.root = Hips;
    skin.skeleton = skeleton;
    for (const std::uint32_t j : joints) {
        skin.joints.push_back(j);
        // Bind pose = rest pose.
        skin.inverseBindMatrices.push_back(inverseAffine(rest.model[j]));
    }
    return skin;
}

}  // namespace

float groundHeight(float x, float z) noexcept {
    return 0.06f * std::sin(1.7f * x) * std::cos(1.3f * z) + 0.04f * std::sin(2.9f * z + 0.5f);
}

bool footPlanted(const Gait& gait, double time, Side side) noexcept {
    // A foot a rounding short of landing (ticks summed to 0.49999999999999994 s) has
    // landed, as a marker a rounding short of the head is met (kMarkerSlack): the
    // footstep and the plant fall on one tick.
    const double phase = phaseOf(gait, time, side);
    return gait.duty >= 1.0f || phase < gait.duty || phase > 1.0 - kMarkerSlack / gait.period;
}

float footIkWeight(const Gait& gait, double time, Side side) noexcept {
    if (footPlanted(gait, time, side)) return 1.0f;
    constexpr double kEase = 0.2;  // of the swing, at each end
    const double u = (phaseOf(gait, time, side) - gait.duty) / (1.0 - gait.duty);
    const double edge = std::min(u, 1.0 - u) / kEase;
    if (edge >= 1.0) return 0.0f;
    const double smooth = edge * edge * (3.0 - 2.0 * edge);
    return static_cast<float>(1.0 - smooth);
}

Result<Humanoid> buildHumanoid() {
    std::vector<JointDesc> joints(JointCount);
    const auto joint = [&](std::uint32_t i, std::string name, std::int32_t parent, Vec3 t) {
        joints[i].name = std::move(name);
        joints[i].parent = parent;
        joints[i].rest.translation = t;
    };
    // Straight legs at rest: the hips stand a leg and an ankle above the ground.
    joint(Hips, "hips", kNoParent, {0.0f, kHipDrop + kThigh + kShin + kAnkle, 0.0f});
    joint(Spine, "spine", Hips, {0.0f, 0.10f, 0.0f});
    joint(Chest, "chest", Spine, {0.0f, 0.18f, 0.0f});
    joint(Neck, "neck", Chest, {0.0f, 0.22f, 0.0f});
    joint(Head, "head", Neck, {0.0f, 0.10f, 0.0f});
    for (int s = 0; s < 2; ++s) {
        const std::string side = s == 0 ? "left" : "right";
        const float x = kSign[s];
        const std::uint32_t shoulder = s == 0 ? LeftShoulder : RightShoulder;
        joint(shoulder, side + "Shoulder", Chest, {x * 0.04f, 0.18f, 0.0f});
        joint(kUpperArm[s], side + "UpperArm", static_cast<std::int32_t>(shoulder), {x * 0.14f, -0.02f, 0.0f});
        joint(kForearm[s], side + "Forearm", static_cast<std::int32_t>(kUpperArm[s]), {0.0f, -0.27f, 0.0f});
        joint(kHand[s], side + "Hand", static_cast<std::int32_t>(kForearm[s]), {0.0f, -0.25f, 0.0f});
        joint(kThighJoint[s], side + "Thigh", Hips, {x * kHipWidth, -kHipDrop, 0.0f});
        joint(kShinJoint[s], side + "Shin", static_cast<std::int32_t>(kThighJoint[s]), {0.0f, -kThigh, 0.0f});
        joint(kFootJoint[s], side + "Foot", static_cast<std::int32_t>(kShinJoint[s]), {0.0f, -kShin, 0.0f});
        joint(kToe[s], side + "Toe", static_cast<std::int32_t>(kFootJoint[s]), {0.0f, -0.05f, 0.13f});
    }
    auto skeleton = Skeleton::create(std::move(joints));
    if (!skeleton) return std::vector<Fault>(skeleton.faults().begin(), skeleton.faults().end());

    Humanoid h;
    const Gait idleGait{2.0f, 1.0f, 0.0f};
    const Gait walkGait{1.0f, 0.6f, 1.2f};
    const Gait runGait{0.7f, 0.36f, 2.8f};
    const StrideStyle walkStyle{0.92f, 0.03f, 0.05f, 0.12f, 0.12f, 0.04f, 0.35f, 0.25f, 0.3f};
    const StrideStyle runStyle{0.875f, 0.018f, 0.18f, 0.22f, 0.18f, 0.14f, 0.6f, 1.0f, 0.4f};
    float reach = 0.0f;
    auto idle = makeClip("idle", idleGait.period, 0.0f, idleFrame, {}, reach);
    const auto stride = [&](const char* name, const Gait& gait, const StrideStyle& style) {
        return makeClip(
            name, gait.period, gait.speed, [&](float t) { return strideFrame(gait, style, t); },
            {{"footstep_l", 0.0f}, {"footstep_r", 0.5f * gait.period}}, reach);
    };
    auto walk = stride("walk", walkGait, walkStyle);
    auto run = stride("run", runGait, runStyle);
    // Each clip carries its feet's IK weights as user curves, keyed at 60 Hz from
    // footIkWeight(), so the evaluation blends them across fades with the pose.
    const auto withFootCurves = [](Result<Clip>& clip, const Gait& gait) {
        if (!clip) return;
        std::vector<CurveTrack> curves(2);
        curves[0].name = kFootIkCurves[0];
        curves[1].name = kFootIkCurves[1];
        const int keys = static_cast<int>(std::lround(gait.period * 60.0f));
        for (int k = 0; k <= keys; ++k) {
            const float t = gait.period * static_cast<float>(k) / static_cast<float>(keys);
            for (std::size_t f = 0; f < 2; ++f) {
                curves[f].times.push_back(t);
                curves[f].values.push_back(footIkWeight(gait, t, Side(f)));
            }
        }
        clip = clip->withCurves(std::move(curves));
    };
    withFootCurves(idle, idleGait);
    withFootCurves(walk, walkGait);
    withFootCurves(run, runGait);
    for (const auto* clip : {&idle, &walk, &run}) {
        if (!*clip) return std::vector<Fault>(clip->faults().begin(), clip->faults().end());
    }
    if (reach > kMaxReach)
        return Fault{"demo",
                     "the generated legs reach " + std::to_string(reach) + " of their length (at most " +
                         std::to_string(kMaxReach) + ")"};

    Model& model = h.model;
    model.source = "built-in humanoid";
    model.skeleton = std::move(*skeleton);
    for (std::uint32_t j = 0; j < JointCount; ++j) {
        model.nodeOfJoint.push_back(j);
        model.jointOfNode.push_back(j);
    }
    model.weightOffsetOfJoint.assign(JointCount, -1);
    model.clips.push_back(std::move(*idle));
    model.clips.push_back(std::move(*walk));
    model.clips.push_back(std::move(*run));
    h.gaits = {idleGait, walkGait, runGait};

    const Pose rest = makeRestPose(model);
    std::uint32_t all[JointCount];
    for (std::uint32_t j = 0; j < JointCount; ++j) all[j] = j;
    model.skins.push_back(skinOf("body", all, rest, model.skeleton.fingerprint()));
    model.skins.push_back(skinOf("clothes", kClothesJoints, rest, model.skeleton.fingerprint()));
    Mesh body;
    body.name = "body";
    body.primitives.push_back(bodyMesh());
    model.meshes.push_back(std::move(body));
    model.meshes.push_back(clothesMesh());
    model.meshInstances.push_back({Hips, 0, 0, 0});
    model.meshInstances.push_back({Hips, 1, 1, 0});

    h.prop = swordMesh();
    // In the fist, the blade forward and down.
    h.propOffset.translation = {0.0f, -0.07f, 0.02f};
    h.propOffset.rotation = aboutX(0.65f * kPi);
    h.hips = Hips;
    h.neck = Neck;
    h.head = Head;
    h.rightHand = RightHand;
    for (int s = 0; s < 2; ++s) {
        h.thigh[s] = kThighJoint[s];
        h.shin[s] = kShinJoint[s];
        h.foot[s] = kFootJoint[s];
    }
    h.ankleHeight = kAnkle;

    auto faults = findModelFaults(model);
    if (!faults.empty()) return faults;
    return h;
}

}  // namespace kinema::cli
