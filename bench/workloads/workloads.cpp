// The workloads of workloads.hpp: W1, its second clip, a synthetic skinned mesh and
// the batch inputs that play them.
#include "workloads.hpp"

#include <stdexcept>
#include <array>
#include <cmath>
#include <map>
#include <numbers>
#include <utility>

namespace kinema::bench {

std::optional<Clip> buildW1Clip(std::span<const Vec3> restTranslations, std::uint64_t variant, W1Clip definition,
                                std::string& error) {
    const double amplitude = rotationAmplitude(definition);
    const std::size_t jointCount = restTranslations.size();
    const std::uint64_t base = mix(kSeed ^ jointCount);
    Random rng(variant == 0 ? base : mix(base + variant));

    constexpr double kTwoPi = 2.0 * std::numbers::pi;
    const std::size_t keys = kW1Frames + 1;
    std::vector<float> times(keys);
    for (std::size_t f = 0; f < keys; ++f) times[f] = static_cast<float>(static_cast<double>(f) / kW1FrameRate);

    std::vector<Track> tracks;
    tracks.reserve(jointCount * 3);
    for (std::size_t k = 0; k < jointCount; ++k) {
        std::array<double, 9> phase{};
        for (double& p : phase) p = kTwoPi * rng.uniform();
        // A rotation axis away from zero length: components in [-1, 1] plus a bias on y.
        const double ax = 2.0 * rng.uniform() - 1.0, ay = 2.0 * rng.uniform() - 1.0 + 1.5,
                     az = 2.0 * rng.uniform() - 1.0;
        const double alen = std::sqrt(ax * ax + ay * ay + az * az);
        const Vec3 axis{static_cast<float>(ax / alen), static_cast<float>(ay / alen), static_cast<float>(az / alen)};
        const Vec3 rest = restTranslations[k];

        Track t, r, s;
        t.path = TrackPath::Translation;
        r.path = TrackPath::Rotation;
        s.path = TrackPath::Scale;
        r.width = 4;
        for (Track* track : {&t, &r, &s}) {
            track->target = static_cast<std::uint32_t>(k);
            track->interpolation = Interpolation::Linear;
            track->times = times;
            track->values.reserve(keys * track->width);
        }
        for (std::size_t f = 0; f < keys; ++f) {
            // Key 60 repeats key 0 bit for bit.
            const double a = kTwoPi * static_cast<double>(f % kW1Frames) / kW1Frames;
            t.values.insert(t.values.end(),
                            {rest.x + static_cast<float>(0.02 * std::sin(a + phase[0])),
                             rest.y + static_cast<float>(0.02 * std::sin(a + phase[1])),
                             rest.z + static_cast<float>(0.02 * std::sin(2.0 * a + phase[2]))});
            const Quat q = fromAxisAngle(axis, static_cast<float>(amplitude * std::sin(a + phase[3])));
            r.values.insert(r.values.end(), {q.x, q.y, q.z, q.w});
            s.values.insert(s.values.end(),
                            {static_cast<float>(1.0 + 0.1 * std::sin(a + phase[4])),
                             static_cast<float>(1.0 + 0.1 * std::sin(a + phase[5])),
                             static_cast<float>(1.0 + 0.1 * std::sin(2.0 * a + phase[6]))});
        }
        tracks.push_back(std::move(t));
        tracks.push_back(std::move(r));
        tracks.push_back(std::move(s));
    }
    std::string name = "W1";
    if (variant != 0) name.append("-").append(std::to_string(variant));
    auto clip = Clip::create(std::move(name), std::move(tracks));
    if (!clip) {
        error = "W1 clip: " + clip.message();
        return std::nullopt;
    }
    return std::move(*clip);
}

Workload buildW1(std::size_t jointCount, W1Clip definition) {
    Workload w;

    std::vector<JointDesc> joints(jointCount);
    std::vector<Vec3> restTranslations(jointCount);
    for (std::size_t k = 0; k < jointCount; ++k) {
        joints[k].name = "joint" + std::to_string(k);
        joints[k].parent = k == 0 ? kNoParent : static_cast<std::int32_t>((k - 1) / 2);
        joints[k].rest.translation = {0.05f * static_cast<float>(k % 3), 0.1f, 0.02f};
        restTranslations[k] = joints[k].rest.translation;
    }
    auto skeleton = Skeleton::create(joints);
    if (!skeleton) {
        w.error = "W1 skeleton: " + skeleton.message();
        return w;
    }
    auto clip = buildW1Clip(restTranslations, 0, definition, w.error);
    if (!clip) return w;

    Model& m = w.model;
    m.source = "W1-" + std::to_string(jointCount);
    m.skeleton = std::move(*skeleton);
    m.nodeOfJoint.resize(jointCount);
    m.jointOfNode.resize(jointCount);
    for (std::size_t k = 0; k < jointCount; ++k) {
        m.nodeOfJoint[k] = static_cast<std::uint32_t>(k);
        m.jointOfNode[k] = static_cast<std::uint32_t>(k);
    }
    m.weightOffsetOfJoint.assign(jointCount, -1);
    m.clips.push_back(std::move(*clip));

    const Pose rest = makeRestPose(m);
    Skin skin;
    skin.name = "W1";
    for (std::size_t k = 0; k < jointCount; ++k) {
        skin.joints.push_back(static_cast<std::uint32_t>(k));
        skin.inverseBindMatrices.push_back(inverseAffine(rest.model[k]));
    }
    skin.root = 0;
    m.skins.push_back(std::move(skin));
    m.scenes.push_back(SceneRoots{"W1", {0u}});
    m.defaultScene = 0;
    return w;
}

const Workload& w1(std::size_t jointCount, W1Clip definition) {
    static std::map<std::pair<std::size_t, W1Clip>, Workload> cache;
    const auto key = std::make_pair(jointCount, definition);
    auto it = cache.find(key);
    if (it == cache.end()) it = cache.emplace(key, buildW1(jointCount, definition)).first;
    return it->second;
}

const ClipWorkload& w1SecondClip(std::size_t jointCount, W1Clip definition) {
    static std::map<std::pair<std::size_t, W1Clip>, ClipWorkload> cache;
    const auto key = std::make_pair(jointCount, definition);
    auto it = cache.find(key);
    if (it == cache.end()) {
        ClipWorkload c;
        std::vector<Vec3> rest(jointCount);
        for (std::size_t k = 0; k < jointCount; ++k) rest[k] = {0.05f * static_cast<float>(k % 3), 0.1f, 0.02f};
        if (auto clip = buildW1Clip(rest, 1, definition, c.error)) c.clip = std::move(*clip);
        it = cache.emplace(key, std::move(c)).first;
    }
    return it->second;
}

MeshPrimitive makeSkinnedPrimitive(std::size_t vertices, std::size_t jointCount) {
    Random rng(mix(kSeed ^ (vertices * 31 + jointCount)));
    MeshPrimitive p;
    p.influencesPerVertex = 4;
    p.positions.reserve(vertices);
    p.normals.reserve(vertices);
    p.joints.reserve(vertices * 4);
    p.weights.reserve(vertices * 4);
    for (std::size_t v = 0; v < vertices; ++v) {
        const auto f = [&] { return static_cast<float>(rng.uniform()); };
        p.positions.push_back({f() - 0.5f, f() * 2.0f, f() - 0.5f});
        Vec3 n{f() - 0.5f, f() - 0.5f, f() - 0.5f};
        const float len = length(n);
        p.normals.push_back(len > 1e-3f ? n * (1.0f / len) : Vec3{0.0f, 1.0f, 0.0f});
        float w[4];
        float sum = 0.0f;
        for (float& x : w) sum += (x = 0.05f + f());
        for (int i = 0; i < 4; ++i) {
            p.joints.push_back(static_cast<std::uint16_t>(rng.next() % jointCount));
            p.weights.push_back(w[i] / sum);
        }
    }
    return p;
}

std::vector<InstanceRequest> staggeredInputs(const PackedClip& clip, std::size_t count) {
    std::vector<InstanceRequest> inputs(count);
    for (std::size_t i = 0; i < count; ++i) {
        inputs[i].layerCount = 1;
        inputs[i].layers[0].clip = &clip;
        inputs[i].layers[0].time =
            static_cast<double>(clip.duration()) * static_cast<double>(i) / static_cast<double>(count);
    }
    return inputs;
}

std::vector<InstanceRequest> blendedInputs(const PackedClip& first, const PackedClip& second, std::size_t count) {
    auto inputs = staggeredInputs(first, count);
    for (InstanceRequest& in : inputs) {
        in.layerCount = 2;
        in.layers[1] = in.layers[0];
        in.layers[1].clip = &second;
        in.layers[1].weight = 0.5f;
    }
    return inputs;
}

std::vector<std::array<IkTask, 3>> w1IkTasks(const Skeleton& skeleton, std::size_t count) {
    // Rest model positions by hand: joint k's parent is (k - 1) / 2.
    const auto rest = skeleton.restPose();
    const auto restModel = [&](std::size_t joint) {
        Mat4 m = toMatrix(rest[joint]);
        for (std::size_t k = joint; k != 0;) {
            k = (k - 1) / 2;
            m = toMatrix(rest[k]) * m;
        }
        return Vec3{m.m[12], m.m[13], m.m[14]};
    };
    static constexpr std::uint32_t kAimChain[] = {2, 6};
    std::vector<std::array<IkTask, 3>> tasks(count);
    for (std::size_t i = 0; i < count; ++i) {
        const float wobble = 0.02f * static_cast<float>(i % 7);
        tasks[i][0] = TwoBoneIk{1, 3, 7, restModel(7) + Vec3{wobble, -0.03f, 0.02f}, restModel(3) + Vec3{0, 0, 1}};
        tasks[i][1] = TwoBoneIk{2, 5, 11, restModel(11) + Vec3{-wobble, -0.03f, 0.02f}, restModel(5) + Vec3{0, 0, 1}};
        AimIk aim;
        aim.joints = kAimChain;
        aim.target = restModel(6) + Vec3{1.0f, 0.2f, 2.0f + wobble};
        aim.maxAngle = 1.2f;
        tasks[i][2] = aim;
    }
    return tasks;
}

PoseBatch makeBatch(const Model& model, std::size_t instances, const BatchOptions& options) {
    Result<PoseBatch> batch = PoseBatch::create(model.skeleton, model.restWeights, instances, options);
    if (!batch) throw std::runtime_error("PoseBatch::create: " + batch.message());
    return std::move(batch).value();
}

}  // namespace kinema::bench
