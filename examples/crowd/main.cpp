// Crowd: 1000 instances of one skeleton in a PoseBatch, each with its own Player,
// evaluated twice per frame: by evaluate() (oneTBB), and by the same three steps on
// plain std::threads, as an engine's own job system would run them: check() the
// requests, evaluateRange() disjoint ranges on the workers, gatherEvents(). The two
// give bit-identical model matrices and the same events.
//
// The skeleton is a chain of 16 bones; the one-second clip slides the root from
// x = 0 to x = 1, bends every bone up to 0.1 rad about z and back, and has a
// "step" marker at 0.5 s. Instance i starts 0.05 + 0.4 * i / 1000 s into it.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <kinema/batch/pose_batch.hpp>
#include <kinema/play/player.hpp>

using namespace kinema;

int fail(const std::string& message) {
    std::fprintf(stderr, "%s\n", message.c_str());
    return 1;
}

constexpr std::size_t kInstances = 1000, kBones = 16;
double start(std::size_t instance) { return 0.05 + 0.4 * double(instance) / kInstances; }

int main() {
    std::vector<JointDesc> bones;
    std::vector<Track> tracks(1);
    tracks[0].times = {0.0f, 1.0f};  // the root slides along x
    tracks[0].values = {0, 0, 0, 1, 0, 0};
    const Quat bent = fromAxisAngle({0, 0, 1}, 0.1f);
    for (std::uint32_t b = 0; b < kBones; ++b) {
        const Transform rest{{0, b == 0 ? 0.0f : 0.1f, 0}, {}, {1, 1, 1}};  // 0.1 m above the parent
        bones.push_back({"bone" + std::to_string(b), std::int32_t(b) - 1, rest});
        Track bend;
        bend.target = b;
        bend.path = TrackPath::Rotation;
        bend.width = 4;
        bend.times = {0.0f, 0.5f, 1.0f};
        bend.values = {0, 0, 0, 1, bent.x, bent.y, bent.z, bent.w, 0, 0, 0, 1};
        tracks.push_back(bend);
    }
    auto skeleton = Skeleton::create(bones);
    if (!skeleton) return fail(skeleton.message());
    auto clip = Clip::create("sway", tracks, {{"step", 0.5f}});
    if (!clip) return fail(clip.message());
    const PackedClip packed(*clip);  // laid out for the SIMD sampler, shared by every instance

    auto pooled = PoseBatch::create(*skeleton, {}, kInstances);  // evaluate() on oneTBB
    if (!pooled) return fail(pooled.message());
    auto own = PoseBatch::create(*skeleton, {}, kInstances);  // evaluateRange() on workers 0..threadCount()-1
    if (!own) return fail(own.message());

    std::vector<Player> players(kInstances, Player(*clip));
    for (std::size_t i = 0; i < kInstances; ++i)
        if (Status status = players[i].seek(start(i)); !status) return fail(status.message());
    std::vector<InstanceRequest> requests(kInstances);
    std::size_t events = 0;
    bool identical = true, sameEvents = true, inOrder = true;
    for (int frame = 0; frame < 30; ++frame) {  // one second at 30 Hz
        for (std::size_t i = 0; i < kInstances; ++i) {
            PlaybackStep step;
            if (Status status = players[i].update(1.0 / 30, step); !status) return fail(status.message());
            requests[i].layerCount = 1;
            requests[i].layers[0] = {.clip = &packed, .time = players[i].position(), .sweep = true, .step = step};
        }
        if (Status status = pooled->evaluate(requests); !status) return fail(status.message());

        if (Status status = own->check(requests); !status) return fail(status.message());
        std::vector<std::thread> workers;
        const std::size_t n = own->threadCount();
        std::vector<Status> ranges(n);
        for (std::size_t w = 0; w < n; ++w)  // worker w takes the w-th of n equal ranges
            workers.emplace_back(
                [&, w] { ranges[w] = own->evaluateRange(requests, w * kInstances / n, (w + 1) * kInstances / n, w); });
        for (std::thread& worker : workers) worker.join();
        for (const Status& range : ranges) {
            if (!range) return fail(range.message());
        }
        own->gatherEvents();

        for (std::size_t i = 0; i < kInstances; ++i) {  // every frame, bit for bit
            const std::span<const Mat4> a = pooled->model(i), b = own->model(i);
            identical = identical && std::memcmp(a.data(), b.data(), a.size_bytes()) == 0;
        }
        sameEvents = sameEvents && std::ranges::equal(pooled->events(), own->events());
        for (std::size_t e = 1; e < own->events().size(); ++e)
            inOrder = inOrder && own->events()[e - 1].instance < own->events()[e].instance;
        events += own->events().size();
    }

    // By hand: after exactly one lap each head is back where it started, at
    // 0.05 + 0.4 i / 1000 s, and the root's x equals its clip time.
    bool placed = true;
    for (std::size_t i = 0; i < kInstances; ++i) placed = placed && std::abs(own->model(i)[0].m[12] - start(i)) < 1e-5;
    // Each head travelled one whole lap from a start before 0.45 s: the step marker
    // (0.5 s) once per instance, 1000 in all, in instance order within a frame.
    std::printf("%zu instances x %zu bones: oneTBB on %zu threads, own job system on %zu threads\n", kInstances, kBones,
                pooled->threadCount(), own->threadCount());
    std::printf("instance 500: root x %.4f (by hand: 0.05 + 0.4 * 500 / 1000 = 0.25)\n",
                double(own->model(500)[0].m[12]));
    std::printf("model matrices bit-identical: %s; events identical: %s; %zu step events\n", identical ? "yes" : "no",
                sameEvents ? "yes" : "no", events);
    const bool ok = identical && sameEvents && inOrder && placed && events == kInstances;
    std::printf(ok ? "as expected\n" : "not as expected\n");
    return ok ? 0 : 1;
}
