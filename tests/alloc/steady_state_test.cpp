// The steady-state frame allocates nothing (ARCHITECTURE.md principle 6): every
// allocation function of this test program is replaced by one that counts, and
// the count must not move across many evaluations after the first (which may
// bind cursors). Counted: operator new/delete in all forms, and, in builds
// without AddressSanitizer (which owns malloc there), malloc and its relatives,
// so allocations inside oneTBB are seen too.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>
#include <vector>

#include "batch/fixture.hpp"
#include "support/batch_maker.hpp"
#include "kinema/play/motion_layers.hpp"
#include "kinema/batch/pose_batch.hpp"
#include "kinema/play/external_pose.hpp"
#include "kinema/play/player.hpp"
#include "kinema/play/state_machine.hpp"
#include "kinema/runtime/bone_adjust.hpp"
#include "kinema/runtime/pose_kernels.hpp"

namespace {
std::atomic<long> gAllocations{0};
}  // namespace

void* operator new(std::size_t n) {
    gAllocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return ::operator new(n); }
void* operator new(std::size_t n, std::align_val_t a) {
    gAllocations.fetch_add(1, std::memory_order_relaxed);
    const std::size_t align = static_cast<std::size_t>(a);
    if (void* p = std::aligned_alloc(align, (n + align - 1) / align * align)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a) { return ::operator new(n, a); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    gAllocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(n == 0 ? 1 : n);
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return ::operator new(n, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KINEMA_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define KINEMA_ASAN 1
#endif

#if !defined(KINEMA_ASAN) && defined(__GLIBC__)
// glibc's own entry points, so that replacing malloc here stays a thin counter.
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void __libc_free(void*);

void* malloc(std::size_t n) {
    gAllocations.fetch_add(1, std::memory_order_relaxed);
    return __libc_malloc(n);
}
void* calloc(std::size_t n, std::size_t s) {
    gAllocations.fetch_add(1, std::memory_order_relaxed);
    return __libc_calloc(n, s);
}
void* realloc(void* p, std::size_t n) {
    gAllocations.fetch_add(1, std::memory_order_relaxed);
    return __libc_realloc(p, n);
}
void* aligned_alloc(std::size_t a, std::size_t n) {
    gAllocations.fetch_add(1, std::memory_order_relaxed);
    return __libc_memalign(a, n);
}
void* memalign(std::size_t a, std::size_t n) {
    gAllocations.fetch_add(1, std::memory_order_relaxed);
    return __libc_memalign(a, n);
}
int posix_memalign(void** out, std::size_t a, std::size_t n) {
    gAllocations.fetch_add(1, std::memory_order_relaxed);
    void* p = __libc_memalign(a, n);
    if (p == nullptr) return 12;  // ENOMEM
    *out = p;
    return 0;
}
void free(void* p) { __libc_free(p); }
}
#define KINEMA_COUNTS_MALLOC 1
#endif

namespace {

using namespace kinema;
using kinema::test::BatchFixture;

TEST(SteadyState, CountingWorks) {
    // The counter must see an allocation, or the tests below prove nothing.
    const long before = gAllocations.load();
    auto* v = new std::vector<int>(100);
    delete v;
    EXPECT_GE(gAllocations.load() - before, 2);
#ifdef KINEMA_COUNTS_MALLOC
    const long mallocBefore = gAllocations.load();
    void* p = std::malloc(10);
    std::free(p);
    EXPECT_EQ(gAllocations.load() - mallocBefore, 1);
#else
    std::printf("[ INFO     ] AddressSanitizer owns malloc here: only operator new is counted\n");
#endif
}

void expectNoAllocations(std::size_t threads, bool localPoses = true) {
    const BatchFixture f(41);
    BatchOptions o;
    o.threads = threads;
    o.skins = {&f.skin, 1};
    o.localPoses = localPoses;
    constexpr std::size_t kInstances = 64;
    PoseBatch batch = test::makeBatch(f.skeleton, {}, kInstances, o);
    std::vector<InstanceRequest> in(kInstances);
    JointMask mask(f.skeleton.jointCount());
    ASSERT_TRUE(mask.setSubtree(f.skeleton.parents(), 1, 0.5f));
    for (std::size_t i = 0; i < kInstances; ++i) {
        in[i].layerCount = 2;
        in[i].layers[0] = {&f.packedA, 0.01 * static_cast<double>(i), 1.0f, LoopMode::Loop};
        in[i].layers[1] = {&f.packedB, 0.02 * static_cast<double>(i), 0.5f, LoopMode::Loop};
        // Every kind of layer: plain override, masked override, masked additive.
        if (i % 3 != 0) in[i].layers[1].mask = &mask;
        if (i % 3 == 2) in[i].layers[1].mode = LayerMode::Additive;
    }
    // Warm-up: binds cursors, lets oneTBB start its workers and fill its pools.
    for (int frame = 0; frame < 50; ++frame) ASSERT_TRUE(batch.evaluate(in).ok());
    const long before = gAllocations.load();
    for (int frame = 0; frame < 500; ++frame) {
        for (InstanceRequest& x : in) {
            x.layers[0].time += 1.0 / 60.0;
            x.layers[1].time = frame % 7 == 0 ? 0.0 : x.layers[1].time + 1.0 / 30.0;  // seeks too
        }
        const Status status = batch.evaluate(in);
        if (!status) FAIL() << status.message();
    }
    EXPECT_EQ(gAllocations.load() - before, 0) << "allocations in 500 evaluations with " << threads << " threads"
                                               << (localPoses ? "" : ", no local poses kept");
}

TEST(SteadyState, BatchEvaluationAllocatesNothingOnOneThread) { expectNoAllocations(1); }
TEST(SteadyState, BatchEvaluationAllocatesNothingOnSeveralThreads) { expectNoAllocations(3); }
TEST(SteadyState, BatchWithoutLocalPosesAllocatesNothing) {
    expectNoAllocations(1, false);
    expectNoAllocations(3, false);
}

// Bone adjustments, an external pose with its ramp, and marker sweeps driven by
// Players: the per-instance event buffers are sized in the warm-up, when the
// marker clips are first seen, and never again.
void expectNoAllocationsWithControls(std::size_t threads) {
    const BatchFixture f(47);
    const Clip marked =
        Clip::create("A", {f.clipA.tracks().begin(), f.clipA.tracks().end()}, {{"a", 0.1f}, {"b", 0.5f}, {"c", 0.9f}})
            .value();
    const PackedClip markedPacked(marked);
    BatchOptions o;
    o.threads = threads;
    o.skins = {&f.skin, 1};
    constexpr std::size_t kInstances = 64;
    PoseBatch batch = test::makeBatch(f.skeleton, {}, kInstances, o);
    const float h = std::sqrt(0.5f);
    std::vector<BoneAdjustment> adjustments{{2, {h, 0.0f, 0.0f, h}, {0.0f, 0.1f, 0.0f}}, {5, {0.0f, h, 0.0f, h}}};
    adjustments[1].absolute = Quat{};
    adjustments[1].scale = {1e-3f, 1e-3f, 1e-3f};
    SoaPose ragdoll(f.skeleton.restPose(), {});
    std::vector<Mat4> bodies(f.skeleton.jointCount());
    std::vector<Player> players;
    for (std::size_t i = 0; i < kInstances; ++i) {
        players.emplace_back(marked, i % 2 == 0 ? LoopMode::Loop : LoopMode::PingPong);
        players.back().play();
        ASSERT_TRUE(players.back().setSpeed(i % 3 == 0 ? -1.0 : 1.5));
    }
    ExternalPoseBlend ramp;
    std::vector<InstanceRequest> in(kInstances);
    std::size_t events = 0;
    auto frame = [&](int n) {
        const double dt = n % 11 == 10 ? 0.5 : 1.0 / 60.0;
        if (n % 40 == 0) ramp.start(0.25);
        if (n % 40 == 20) ramp.stop(0.25);
        ASSERT_TRUE(ramp.update(dt).ok());
        // The hand-off helpers too: bodies read from the pose, and back.
        std::copy(batch.model(1).begin(), batch.model(1).end(), bodies.begin());
        ASSERT_TRUE(localFromModel(f.skeleton.parents(), bodies, ragdoll));
        for (std::size_t i = 0; i < kInstances; ++i) {
            PlaybackStep step;
            ASSERT_TRUE(players[i].update(dt, step).ok());
            InstanceRequest& x = in[i];
            x.layerCount = 2;
            x.layers[0] = {&markedPacked, players[i].position(), 1.0f, players[i].mode()};
            x.layers[0].sweep = true;
            x.layers[0].step = step;
            x.layers[1] = {&f.packedB, 0.02 * static_cast<double>(n + static_cast<int>(i)), 0.5f};
            x.external = i % 2 == 1 ? &ragdoll : nullptr;
            x.externalWeight = ramp.weight();
            x.adjustments =
                i % 3 != 0 ? std::span<const BoneAdjustment>(adjustments) : std::span<const BoneAdjustment>{};
        }
        ASSERT_TRUE(batch.evaluate(in).ok());
        events += batch.events().size();
    };
    for (int n = 0; n < 50; ++n) frame(n);
    const long before = gAllocations.load();
    for (int n = 50; n < 550; ++n) frame(n);
    EXPECT_EQ(gAllocations.load() - before, 0) << "allocations in 500 evaluations with " << threads << " threads";
    EXPECT_GT(events, 1000u);  // the sweeps ran and reported
}

TEST(SteadyState, AdjustmentsExternalPosesAndMarkerSweepsAllocateNothingOnOneThread) {
    expectNoAllocationsWithControls(1);
}
TEST(SteadyState, AdjustmentsExternalPosesAndMarkerSweepsAllocateNothingOnSeveralThreads) {
    expectNoAllocationsWithControls(3);
}

// Two clips seen once each on their own layer, then swapped: the cursors grew with the
// wider clip on either layer. A frame long enough to cross every marker of both: the
// event list was reserved for every marker, not for the most crossed so far.
TEST(SteadyState, SwappedLayersAndAFrameCrossingEveryMarkerAllocateNothing) {
    const BatchFixture f(53);
    // Every other track on keys of its own: two timelines where the narrow clip has one.
    std::vector<Track> tracks(f.clipA.tracks().begin(), f.clipA.tracks().end());
    for (std::size_t k = 1; k < tracks.size(); k += 2) {
        for (float& t : tracks[k].times) t *= 0.5f;
    }
    const Clip wide = Clip::create("wide", tracks, {{"a", 0.1f}, {"b", 0.5f}, {"c", 0.9f}}).value();
    const Clip narrow =
        Clip::create("narrow", {f.clipB.tracks().begin(), f.clipB.tracks().end()}, {{"n", 0.3f}}).value();
    const PackedClip widePacked(wide), narrowPacked(narrow);
    ASSERT_GT(widePacked.timelines().size(), narrowPacked.timelines().size());
    BatchOptions o;
    o.threads = 1;
    constexpr std::size_t kInstances = 32;
    PoseBatch batch = test::makeBatch(f.skeleton, {}, kInstances, o);
    std::vector<InstanceRequest> in(kInstances);
    const auto frame = [&](bool swapped, double time, double step) {
        for (InstanceRequest& x : in) {
            x.layerCount = 2;
            x.layers[0] = {swapped ? &narrowPacked : &widePacked, time, 1.0f, LoopMode::Loop};
            x.layers[1] = {swapped ? &widePacked : &narrowPacked, time, 0.5f, LoopMode::Loop};
            for (LayerRequest& l : x.layers) {
                l.sweep = true;
                l.step = {time - step, time, step};
            }
        }
        return batch.evaluate(in);
    };
    // Warm-up: a few markers crossed a frame at most.
    for (int n = 1; n <= 30; ++n) ASSERT_TRUE(frame(false, n / 60.0, 1.0 / 60.0).ok());
    const long before = gAllocations.load();
    ASSERT_TRUE(frame(true, 0.75, 1.0 / 60.0).ok());
    ASSERT_TRUE(frame(true, 0.75, 5.0).ok());  // several laps of both clips
    EXPECT_EQ(batch.events().size(), kInstances * 4);
    EXPECT_EQ(gAllocations.load() - before, 0);
}

TEST(SteadyState, KernelsAllocateNothing) {
    const BatchFixture f(43);
    const PoseKernels k;
    SoaPose a(f.skeleton.restPose(), {}), b(f.skeleton.restPose(), {});
    PackedClipCursor ca(f.packedA), cb(f.packedB);
    std::vector<Mat4> model(f.skeleton.jointCount()), palette(f.skin.joints.size());
    MeshPrimitive prim;
    prim.influencesPerVertex = 4;
    for (std::size_t v = 0; v < 100; ++v) {
        prim.positions.push_back({0.1f * static_cast<float>(v), 1.0f, 0.0f});
        prim.normals.push_back({0.0f, 1.0f, 0.0f});
        for (std::uint16_t i = 0; i < 4; ++i) {
            prim.joints.push_back(static_cast<std::uint16_t>((v + i) % palette.size()));
            prim.weights.push_back(0.25f);
        }
    }
    std::vector<Vec3> outP(prim.positions.size()), outN(prim.positions.size());
    const long before = gAllocations.load();
    for (int frame = 0; frame < 200; ++frame) {
        ASSERT_TRUE(k.sample(f.packedA, static_cast<float>(frame) / 100.0f, ca, a));
        ASSERT_TRUE(k.sample(f.packedB, static_cast<float>(frame % 13) / 10.0f, cb, b));
        ASSERT_TRUE(k.blend(a, b, 0.3f, a));
        ASSERT_TRUE(k.localToModel(f.skeleton.parents(), a, model));
        ASSERT_TRUE(k.skinPalette(f.skin, model, palette));
        ASSERT_TRUE(k.skinVertices(prim, palette, prim.positions, prim.normals, outP, outN));
    }
    EXPECT_EQ(gAllocations.load() - before, 0);
}

// State machines driving a batch: parameters, triggers, a code predicate, fades,
// interruptions, a blend space state and marker events every frame, turned into
// layers by motionLayers and evaluated. Nothing allocates after the machines are made.
TEST(SteadyState, StateMachinesDrivingABatchAllocateNothing) {
    const BatchFixture f(44);
    // Clips with markers for the state machine (the fixture's clip A, re-made with markers).
    std::vector<Track> tracks(f.clipA.tracks().begin(), f.clipA.tracks().end());
    const Clip walk = Clip::create("walk", tracks, {{"footL", 0.1f}, {"footR", 0.7f}}).value();
    const Clip run = Clip::create("run", tracks, {{"footL", 0.2f}, {"footR", 0.9f}}).value();
    const PackedClip packedWalk(walk), packedRun(run);
    StateMachineDesc desc;
    desc.parameters = {{"speed", ParameterType::Float, 0.0f}, {"hit", ParameterType::Trigger, 0.0f}};
    StateDesc idle;
    idle.name = "idle";
    idle.clip = "B";
    StateDesc move;
    move.name = "move";
    move.blendSpace = BlendSpaceDesc{1, "speed", "", BlendSync::Markers, {{"walk", 1.0f, 0.0f}, {"run", 3.0f, 0.0f}}};
    StateDesc hit;
    hit.name = "hit";
    hit.clip = "A";
    hit.mode = LoopMode::Clamp;
    desc.states = {idle, move, hit};
    const auto transition = [](const char* from, const char* to, float duration) {
        TransitionDesc t;
        t.from = from;
        t.to = to;
        t.duration = duration;
        t.interruption = Interruption::SourceThenDestination;
        return t;
    };
    TransitionDesc go = transition("idle", "move", 0.2f), stop = transition("move", "idle", 0.3f),
                   struck = transition("*", "hit", 0.1f), recover = transition("hit", "idle", 0.2f);
    go.conditions = {{"speed", ConditionOp::Greater, 0.5f}};
    stop.conditions = {{"speed", ConditionOp::LessEqual, 0.5f}};
    struck.conditions = {{"hit", ConditionOp::IsTrue, 0.0f}};
    struck.predicate = "vulnerable";
    recover.exitTime = 0.8f;
    desc.transitions = {go, stop, struck, recover};
    const std::vector<const Clip*> clips{&f.clipA, &f.clipB, &walk, &run};
    auto def = StateMachineDefinition::create(desc, [&](std::string_view name) -> const Clip* {
        for (const Clip* c : clips) {
            if (c->name() == name) return c;
        }
        return nullptr;
    });
    ASSERT_TRUE(def.ok()) << def.message();
    std::vector<const PackedClip*> packed;
    for (const Clip* c : def->clips()) {
        packed.push_back(c == &f.clipA       ? &f.packedA
                             : c == &f.clipB ? &f.packedB
                             : c == &walk    ? &packedWalk
                                             : &packedRun);
    }
    constexpr std::size_t kInstances = 8;
    std::vector<StateMachine> machines;
    for (std::size_t i = 0; i < kInstances; ++i) {
        machines.emplace_back(*def);
        machines.back().setPredicate(0, [](const StateMachine& m) { return m.currentNormalizedTime() > 0.1; });
    }
    BatchOptions options;
    options.threads = 2;
    options.skins = {&f.skin, 1};
    PoseBatch batch = test::makeBatch(f.skeleton, {}, kInstances, options);
    std::vector<InstanceRequest> in(kInstances);
    std::size_t events = 0, fades = 0;
    auto frame = [&](int n) {
        for (std::size_t i = 0; i < kInstances; ++i) {
            StateMachine& m = machines[i];
            EXPECT_TRUE(
                m.setFloat(0u, 1.5f + 1.5f * std::sin(0.05f * static_cast<float>(n) + static_cast<float>(i))).ok());
            if ((n + static_cast<int>(i) * 7) % 97 == 0) {
                EXPECT_TRUE(m.setTrigger(1u).ok());
            }
            ASSERT_TRUE(m.update(1.0 / 60.0).ok());
            events += m.events().size();
            fades += m.transitioning() ? 1u : 0u;
            ASSERT_TRUE(motionLayers(m.samples(), packed, in[i]));
        }
        ASSERT_TRUE(batch.evaluate(in).ok());
    };
    for (int n = 0; n < 50; ++n) frame(n);
    const long before = gAllocations.load();
    for (int n = 50; n < 650; ++n) frame(n);
    EXPECT_EQ(gAllocations.load() - before, 0) << "allocations in 600 frames of 8 state machines";
    EXPECT_GT(events, 100u);  // markers were swept
    EXPECT_GT(fades, 200u);   // and transitions ran
}

}  // namespace
