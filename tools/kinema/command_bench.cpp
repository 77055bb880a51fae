// kinema bench: the per-frame workloads of docs/PERFORMANCE.md timed on the SIMD
// path (PoseBatch, PoseKernels, PackedClip), as a table or as JSON.
//
//   w1a  W1, 256 instances, sequential playback (+1/60 s per evaluation), sample +
//        local->model, 1 thread
//   w1b  w1a with a random time per instance per evaluation (seek every time)
//   w1c  two W1 clips sampled and blended 50/50, then local->model, 1 thread
//   w1d  skin palettes of 256 W1 poses (ns per joint; streamed from memory, and
//        from one pose's cache-hot model matrices as in PoseBatch) and CPU skinning of a
//        10,000-vertex mesh with 4 influences (ns per vertex; positions, and
//        positions + normals by the inverse-transpose and by the blended matrix)
//   compressed  w1a on the W1 clip as stored and compressed within 0.01 cm
//        (PackedClip::fromCompressed), repetitions interleaved; scaling = compressed
//        time / exact time
//   w1e  w1a on all threads; scaling = w1a time / w1e time
//   w1f  w1a with 10,000 instances, on 1 thread and on all threads; scaling = the
//        ratio of the two
//   w1s  the stages of w1a and w1c alone on PoseKernels, 256 instances: sample only,
//        local->model only (of poses sampled beforehand), blend only (of two sampled
//        poses)
//   w2   CesiumMan's clip, 1000 instances, 1 thread, sample + local->model + palette
//   render  one frame of scene work on the CPU (advance every binding, world
//        transforms, draw list) for 10,000 rigid animated nodes and for 1000 skinned
//        W1 characters of 64 joints
//
// Every W1 workload runs for 64 and 128 joints (kinema_workloads builds them), on
// the clip definition --clip names; --instances replaces every instance count
// (1 measures one instance whose data stays in cache).
// Timing: one untimed evaluation first (binds cursors), then each repetition runs
// whole evaluations until --min-time has passed on std::chrono::steady_clock; the
// median over the repetitions is reported.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tbb/info.h>

#include "arguments.hpp"
#include "commands.hpp"
#include "json_writer.hpp"
#include "render_arguments.hpp"
#include "kinema/core/counted.hpp"
#include "kinema/batch/pose_batch.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/runtime/clip_time.hpp"
#include "kinema/runtime/clip_compression.hpp"
#include "kinema/runtime/packed_clip.hpp"
#include "kinema/runtime/pose_kernels.hpp"
#include "kinema/runtime/simd.hpp"
#include "kinema/runtime/soa_pose.hpp"
#include "kinema/runtime/ik.hpp"
#include "kinema/scene/scene.hpp"
#include "workloads.hpp"        // kinema_workloads: the W1 builders shared with kinema_bench
#include "scene_workloads.hpp"  // the render workload's scenes
#include "crowd_frame.hpp"      // the render workload's GPU frame
#ifdef KINEMA_WITH_GPU
#include "kinema/gpu/gpu_context.hpp"
#include "kinema/gpu/offscreen_renderer.hpp"
#endif

namespace kinema::cli {

namespace {

constexpr std::size_t kW1Instances = 256;
constexpr std::size_t kW1fInstances = 10'000;
constexpr std::size_t kW2Instances = 1000;
constexpr std::size_t kVertices = 10'000;
constexpr double kFrameStep = 1.0 / 60.0;
constexpr std::array<std::size_t, 2> kW1Joints{64, 128};
constexpr std::size_t kRigidNodes = 10'000;
constexpr std::size_t kSkinnedCharacters = 1000;
constexpr std::size_t kCharacterJoints = 64;
constexpr std::size_t kGpuCrowd = 10'000;
constexpr std::uint32_t kGpuWidth = 1920;
constexpr std::uint32_t kGpuHeight = 1080;
constexpr std::array<std::string_view, 11> kWorkloads{"w1a", "compressed", "w1b", "w1c", "w1d",   "w1e",
                                                      "w1f", "w1s",        "ik",  "w2",  "render"};
constexpr std::size_t kIkInstances = 1000;

// Every evaluation adds one output value here, so no evaluation can be optimised away.
volatile double gChecksum = 0.0;
void consume(float v) { gChecksum = gChecksum + static_cast<double>(v); }

struct Settings {
    SimdLevel simd = SimdLevel::Portable;
    KernelMix mix = KernelMix::Tuned;
    std::string kernels;      // PoseKernels::name() of (simd, mix)
    std::size_t threads = 1;  // for w1e
    int repetitions = 5;
    double minTime = 0.2;
    std::size_t instances = 0;  // 0: each workload's own count
    bench::W1Clip clip = bench::W1Clip::Smooth;

    std::size_t instancesOr(std::size_t workloadDefault) const { return instances == 0 ? workloadDefault : instances; }
};

// One line of the result. ns_per_joint is per (instance x skeleton joint), or per
// (instance x skin joint) for palettes; skinning rows have ns_per_vertex instead.
struct Row {
    std::string workload;
    std::string pass;
    std::size_t joints = 0;
    std::size_t instances = 0;
    std::size_t threads = 1;
    double nsPerEvaluation = 0.0;
    std::optional<double> nsPerJoint;
    std::optional<double> nsPerVertex;
    double bytesPerKey = 0.0;
    std::optional<double> scaling;
    std::vector<double> repetitionNs;  // ns per evaluation of each repetition

    Row(std::string w, std::string p, std::size_t j, std::size_t n, std::size_t t)
        : workload(std::move(w)), pass(std::move(p)), joints(j), instances(n), threads(t) {}
    double instancesPerSecond() const { return static_cast<double>(instances) * 1e9 / nsPerEvaluation; }
    // One instance's share of an evaluation (a character's frame, for the ik rows).
    double nsPerInstance() const { return nsPerEvaluation / static_cast<double>(instances); }
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// One repetition: whole evaluations until --min-time has passed; ns per evaluation.
template <class F>
double repetition(const Settings& s, F&& evaluate) {
    using Clock = std::chrono::steady_clock;
    std::uint64_t evaluations = 0;
    const auto start = Clock::now();
    std::chrono::duration<double> elapsed{};
    do {
        evaluate();
        ++evaluations;
        elapsed = Clock::now() - start;
    } while (elapsed.count() < s.minTime);
    return elapsed.count() * 1e9 / static_cast<double>(evaluations);
}

// Runs `evaluate` once untimed, then the repetitions; ns per evaluation of each.
template <class F>
std::vector<double> measure(const Settings& s, F&& evaluate) {
    evaluate();
    std::vector<double> reps;
    reps.reserve(static_cast<std::size_t>(s.repetitions));
    for (int r = 0; r < s.repetitions; ++r) reps.push_back(repetition(s, evaluate));
    return reps;
}

void check(const Status& status) {
    if (!status) throw std::runtime_error(status.message());
}

const bench::Workload& w1OrThrow(const Settings& s, std::size_t joints) {
    const bench::Workload& w = bench::w1(joints, s.clip);
    if (!w.error.empty()) throw std::runtime_error(w.error);
    return w;
}

const bench::ClipWorkload& w1SecondClipOrThrow(const Settings& s, std::size_t joints) {
    const bench::ClipWorkload& c = bench::w1SecondClip(joints, s.clip);
    if (!c.error.empty()) throw std::runtime_error(c.error);
    return c;
}

BatchOptions batchOptions(const Settings& s, std::size_t threads, std::span<const Skin> skins = {}) {
    BatchOptions o;
    o.threads = threads;
    o.simd = s.simd;
    o.kernels = s.mix;
    o.modelMatrices = true;
    o.skins = skins;
    return o;
}

// Sequential playback of W1, `instances` of it on `threads` threads (w1a, w1e, w1f),
// keeping each instance's local pose or not (BatchOptions::localPoses).
Row playW1(const Settings& s, std::size_t joints, std::size_t instances, std::size_t threads, const char* name,
           bool localPoses = true) {
    const Model& model = w1OrThrow(s, joints).model;
    const PackedClip clip(model.clips.front());
    BatchOptions options = batchOptions(s, threads);
    options.localPoses = localPoses;
    PoseBatch batch = bench::makeBatch(model, instances, options);
    auto inputs = bench::staggeredInputs(clip, instances);
    Row row{name, "sample+model", joints, instances, batch.threadCount()};
    row.bytesPerKey = clip.bytesPerKey();
    // The clock advances in the batch's parallel pass, as an engine's per-instance
    // update would: a loop over 10,000 requests before the call is serial work.
    const auto advance = [](std::size_t, InstanceRequest& in) { in.layers[0].time += kFrameStep; };
    row.repetitionNs = measure(s, [&] {
        check(batch.evaluate(inputs, advance));
        consume(batch.model(instances - 1)[joints - 1].m[12]);
    });
    return row;
}

// W1a on the W1 clip as stored and compressed at the default bound, each on a batch
// of its own, repetitions alternating between the two (A B, B A, ...) so that the
// machine's drift falls on both alike.
std::vector<Row> compressedW1(const Settings& s, std::size_t joints) {
    const Model& model = w1OrThrow(s, joints).model;
    const Clip& source = model.clips.front();
    auto compressed = compressClip(model.skeleton, source);
    if (!compressed) throw std::runtime_error(compressed.message());
    auto packed = PackedClip::fromCompressed(*compressed, source);
    if (!packed) throw std::runtime_error(packed.message());
    const PackedClip exact(source);
    const std::size_t instances = s.instancesOr(kW1Instances);
    struct Side {
        const PackedClip* clip;
        PoseBatch batch;
        std::vector<InstanceRequest> inputs;
        std::vector<double> reps;
    };
    Side sides[2] = {{&exact, bench::makeBatch(model, instances, batchOptions(s, 1)), {}, {}},
                     {&*packed, bench::makeBatch(model, instances, batchOptions(s, 1)), {}, {}}};
    for (Side& side : sides) side.inputs = bench::staggeredInputs(*side.clip, instances);
    const auto frame = [&](Side& side) {
        for (InstanceRequest& in : side.inputs) in.layers[0].time += kFrameStep;
        check(side.batch.evaluate(side.inputs));
        consume(side.batch.model(instances - 1)[joints - 1].m[12]);
    };
    for (Side& side : sides) frame(side);
    for (int r = 0; r < s.repetitions; ++r) {
        for (int k = 0; k < 2; ++k) {
            Side& side = sides[(r + k) % 2];
            side.reps.push_back(repetition(s, [&] { frame(side); }));
        }
    }
    Row stored{"compressed", "sample+model, exact", joints, instances, 1};
    stored.bytesPerKey = exact.bytesPerKey();
    stored.repetitionNs = std::move(sides[0].reps);
    Row small{"compressed", "sample+model, 0.01 cm", joints, instances, 1};
    small.bytesPerKey = packed->bytesPerKey();
    small.repetitionNs = std::move(sides[1].reps);
    small.scaling = median(small.repetitionNs) / median(stored.repetitionNs);
    return {std::move(stored), std::move(small)};
}

// IK: W1a's frame for 1000 instances, then the same frame with two two-bone tasks
// (joints 1-3-7 and 2-5-11 of the binary heap, "legs") reaching for points near
// their ends, then with an aim task (joints 2 and 6, "neck and head") as well,
// repetitions interleaved. The later rows' `scaling` is their time over the first's.
std::vector<Row> ikW1(const Settings& s, std::size_t joints) {
    const Model& model = w1OrThrow(s, joints).model;
    const PackedClip clip(model.clips.front());
    const std::size_t instances = s.instancesOr(kIkInstances);
    PoseBatch batch = bench::makeBatch(model, instances, batchOptions(s, 1));
    auto inputs = bench::staggeredInputs(clip, instances);
    const auto tasks = bench::w1IkTasks(model.skeleton, instances);
    const auto frame = [&] {
        for (InstanceRequest& in : inputs) in.layers[0].time += kFrameStep;
        check(batch.evaluate(inputs));
        consume(batch.model(instances - 1)[joints - 1].m[12]);
    };
    // The three frames take their repetitions in turn (A B C, B C A, ...), so that the
    // machine's drift falls on all three alike.
    constexpr std::size_t kTaskCounts[3] = {0, 2, 3};
    const auto useTasks = [&](std::size_t count) {
        for (std::size_t i = 0; i < instances; ++i) inputs[i].ik = std::span<const IkTask>(tasks[i].data(), count);
    };
    std::vector<double> reps[3];
    for (const std::size_t count : kTaskCounts) {
        useTasks(count);
        frame();
    }
    for (int r = 0; r < s.repetitions; ++r) {
        for (std::size_t k = 0; k < 3; ++k) {
            const std::size_t c = (static_cast<std::size_t>(r) + k) % 3;
            useTasks(kTaskCounts[c]);
            reps[c].push_back(repetition(s, frame));
        }
    }
    Row base{"ik", "sample+model (w1a)", joints, instances, 1};
    base.bytesPerKey = clip.bytesPerKey();
    base.repetitionNs = std::move(reps[0]);
    Row feet{"ik", "sample+model+2 two-bone", joints, instances, 1};
    feet.bytesPerKey = clip.bytesPerKey();
    feet.repetitionNs = std::move(reps[1]);
    feet.scaling = median(feet.repetitionNs) / median(base.repetitionNs);
    Row solved{"ik", "sample+model+2 two-bone+aim", joints, instances, 1};
    solved.bytesPerKey = clip.bytesPerKey();
    solved.repetitionNs = std::move(reps[2]);
    solved.scaling = median(solved.repetitionNs) / median(base.repetitionNs);
    return {std::move(base), std::move(feet), std::move(solved)};
}

// W1b: every instance jumps to a random time every evaluation. A table of random
// playback times over 8 laps (a prime count, so an instance's consecutive times
// never repeat a pattern) keeps the random number generator out of the timing.
Row seekW1(const Settings& s, std::size_t joints) {
    const Model& model = w1OrThrow(s, joints).model;
    const PackedClip clip(model.clips.front());
    const std::size_t instances = s.instancesOr(kW1Instances);
    PoseBatch batch = bench::makeBatch(model, instances, batchOptions(s, 1));
    auto inputs = bench::staggeredInputs(clip, instances);
    std::vector<double> times(16411);
    bench::Random rng(bench::mix(bench::kSeed + 1));
    for (double& t : times) t = 8.0 * static_cast<double>(clip.duration()) * rng.uniform();
    std::size_t next = 0;
    Row row{"w1b", "seek+sample+model", joints, instances, batch.threadCount()};
    row.bytesPerKey = clip.bytesPerKey();
    row.repetitionNs = measure(s, [&] {
        for (InstanceRequest& in : inputs) {
            in.layers[0].time = times[next];
            next = next + 1 == times.size() ? 0 : next + 1;
        }
        check(batch.evaluate(inputs));
        consume(batch.model(instances - 1)[joints - 1].m[12]);
    });
    return row;
}

// W1c: the W1 clip and a second W1 clip (another seed), blended 50/50.
Row blendW1(const Settings& s, std::size_t joints) {
    const Model& model = w1OrThrow(s, joints).model;
    const bench::ClipWorkload& second = w1SecondClipOrThrow(s, joints);
    const PackedClip clipA(model.clips.front());
    const PackedClip clipB(second.clip);
    const std::size_t instances = s.instancesOr(kW1Instances);
    PoseBatch batch = bench::makeBatch(model, instances, batchOptions(s, 1));
    auto inputs = bench::blendedInputs(clipA, clipB, instances);
    Row row{"w1c", "2 clips+blend+model", joints, instances, batch.threadCount()};
    row.bytesPerKey = clipA.bytesPerKey();
    row.repetitionNs = measure(s, [&] {
        for (InstanceRequest& in : inputs) {
            in.layers[0].time += kFrameStep;
            in.layers[1].time += kFrameStep;
        }
        check(batch.evaluate(inputs));
        consume(batch.model(instances - 1)[joints - 1].m[12]);
    });
    return row;
}

// W1d: palettes of 256 W1 poses, then skinning of a 10,000-vertex mesh with the
// palette of one of them.
std::vector<Row> skinW1(const Settings& s, std::size_t joints) {
    const Model& model = w1OrThrow(s, joints).model;
    const Skin& skin = model.skins.front();
    const PackedClip clip(model.clips.front());
    const std::size_t instances = s.instancesOr(kW1Instances);
    PoseBatch batch = bench::makeBatch(model, instances, batchOptions(s, 1));
    check(batch.evaluate(bench::staggeredInputs(clip, instances)));
    const std::size_t paletteSize = skin.joints.size();
    std::vector<Mat4> models(instances * joints), palettes(instances * paletteSize);
    for (std::size_t i = 0; i < instances; ++i) {
        const auto m = batch.model(i);
        std::copy(m.begin(), m.end(), models.begin() + static_cast<std::ptrdiff_t>(i * joints));
    }
    const PoseKernels kernels(s.simd, s.mix);
    std::vector<Row> rows;

    // "palette" streams 256 instances' model matrices from memory; "palette, model
    // hot" builds the same palettes from one instance's matrices, which stay in
    // cache: the access pattern of PoseBatch, whose palette pass follows that
    // instance's local->model.
    for (const bool hotModel : {false, true}) {
        Row row{"w1d", hotModel ? "palette, model hot" : "palette", joints, instances, 1};
        row.bytesPerKey = clip.bytesPerKey();
        row.repetitionNs = measure(s, [&] {
            for (std::size_t i = 0; i < instances; ++i) {
                const std::size_t from = hotModel ? 0 : i;
                if (!kernels.skinPalette(skin, {models.data() + from * joints, joints},
                                         {palettes.data() + i * paletteSize, paletteSize})) {
                    throw std::runtime_error("PoseKernels::skinPalette rejected its buffers");
                }
            }
            consume(palettes.back().m[12]);
        });
        row.nsPerJoint = median(row.repetitionNs) / static_cast<double>(instances * paletteSize);
        rows.push_back(std::move(row));
    }

    const MeshPrimitive mesh = bench::makeSkinnedPrimitive(kVertices, joints);
    const std::span<const Mat4> onePalette{palettes.data(), paletteSize};
    std::vector<Vec3> outPositions(kVertices), outNormals(kVertices);
    // Positions alone; with normals by the inverse-transpose (the default); with normals
    // by the blended matrix itself, as runtimes that skip the inverse-transpose do.
    struct SkinRow {
        const char* pass;
        bool normals;
        NormalTransform transform;
    };
    for (const SkinRow& kind :
         {SkinRow{"skin positions", false, NormalTransform::InverseTranspose},
          SkinRow{"skin positions+normals", true, NormalTransform::InverseTranspose},
          SkinRow{"skin positions+normals, blended matrix", true, NormalTransform::BlendedMatrix}}) {
        const bool normals = kind.normals;
        Row row{"w1d", kind.pass, joints, 1, 1};
        row.bytesPerKey = clip.bytesPerKey();
        row.repetitionNs = measure(s, [&] {
            const bool ok = normals ? kernels.skinVertices(mesh, onePalette, mesh.positions, mesh.normals, outPositions,
                                                           outNormals, kind.transform)
                                    : kernels.skinVertices(mesh, onePalette, mesh.positions, {}, outPositions, {});
            if (!ok) throw std::runtime_error("PoseKernels::skinVertices rejected its buffers");
            consume(outPositions.back().x + (normals ? outNormals.back().y : 0.0f));
        });
        row.nsPerVertex = median(row.repetitionNs) / static_cast<double>(kVertices);
        rows.push_back(std::move(row));
    }
    return rows;
}

// W1s: the stages of w1a and w1c one at a time on PoseKernels, each instance with
// its own pose, so each row times one pass alone over the same data: sampling (one
// clip, sequential playback), local->model of poses sampled beforehand, and the
// blend of two sampled poses.
std::vector<Row> stagesW1(const Settings& s, std::size_t joints) {
    const Model& model = w1OrThrow(s, joints).model;
    const bench::ClipWorkload& second = w1SecondClipOrThrow(s, joints);
    const PackedClip clipA(model.clips.front());
    const PackedClip clipB(second.clip);
    const std::size_t instances = s.instancesOr(kW1Instances);
    const PoseKernels kernels(s.simd, s.mix);
    const SoaPose rest(model.skeleton.restPose(), model.restWeights);
    std::vector<SoaPose> a(instances, rest), b(instances, rest), out(instances, rest);
    std::vector<PackedClipCursor> cursorsA, cursorsB;
    for (std::size_t i = 0; i < instances; ++i) {
        cursorsA.emplace_back(clipA);
        cursorsB.emplace_back(clipB);
    }
    std::vector<double> times(instances);
    for (std::size_t i = 0; i < instances; ++i) {
        times[i] = static_cast<double>(clipA.duration()) * static_cast<double>(i) / static_cast<double>(instances);
    }
    const auto wrapped = [&](double t) { return clipTime(t, clipA.duration(), LoopMode::Loop); };
    const auto sampleAll = [&] {
        for (std::size_t i = 0; i < instances; ++i) {
            times[i] += kFrameStep;
            if (!kernels.sample(clipA, wrapped(times[i]), cursorsA[i], a[i])) {
                throw std::runtime_error("PoseKernels::sample rejected its pose");
            }
        }
    };
    std::vector<Row> rows;

    Row sample{"w1s", "sample only", joints, instances, 1};
    sample.bytesPerKey = clipA.bytesPerKey();
    sample.repetitionNs = measure(s, [&] {
        sampleAll();
        consume(a.back().component(SoaComponent::Rw)[joints - 1]);
    });
    rows.push_back(std::move(sample));

    // The poses the other two stages read: a at its last sampled time, b half a clip on.
    sampleAll();
    for (std::size_t i = 0; i < instances; ++i) {
        if (!kernels.sample(clipB, wrapped(times[i] + 0.5 * static_cast<double>(clipB.duration())), cursorsB[i],
                            b[i])) {
            throw std::runtime_error("PoseKernels::sample rejected its pose");
        }
    }
    const std::span<const std::int32_t> parents = model.skeleton.parents();
    std::vector<Mat4> matrices(instances * joints);
    Row compose{"w1s", "local->model only", joints, instances, 1};
    compose.bytesPerKey = clipA.bytesPerKey();
    compose.repetitionNs = measure(s, [&] {
        for (std::size_t i = 0; i < instances; ++i) {
            if (!kernels.localToModel(parents, a[i], {matrices.data() + i * joints, joints})) {
                throw std::runtime_error("PoseKernels::localToModel rejected its buffers");
            }
        }
        consume(matrices.back().m[12]);
    });
    rows.push_back(std::move(compose));

    Row blend{"w1s", "blend only", joints, instances, 1};
    blend.bytesPerKey = clipA.bytesPerKey();
    blend.repetitionNs = measure(s, [&] {
        for (std::size_t i = 0; i < instances; ++i) {
            if (!kernels.blend(a[i], b[i], 0.5f, out[i]))
                throw std::runtime_error("PoseKernels::blend rejected its poses");
        }
        consume(out.back().component(SoaComponent::Rw)[joints - 1]);
    });
    rows.push_back(std::move(blend));
    return rows;
}

// Where CesiumMan lies under the assets folder, if anywhere.
std::optional<std::filesystem::path> findCesiumMan(const std::filesystem::path& assets) {
    for (const char* rel : {"CesiumMan/glTF-Binary/CesiumMan.glb", "CesiumMan/CesiumMan.glb", "CesiumMan.glb",
                            "CesiumMan/glTF/CesiumMan.gltf", "CesiumMan/CesiumMan.gltf"}) {
        std::error_code ec;
        const auto p = assets / rel;
        if (std::filesystem::is_regular_file(p, ec)) return p;
    }
    return std::nullopt;
}

// W2: CesiumMan's clip on 1000 instances, sample + local->model + palette.
Row playCesiumMan(const Settings& s, const Model& model) {
    const PackedClip clip(model.clips.front());
    const std::span<const Skin> skins = std::span(model.skins).first(model.skins.empty() ? 0 : 1);
    const std::size_t instances = s.instancesOr(kW2Instances);
    PoseBatch batch = bench::makeBatch(model, instances, batchOptions(s, 1, skins));
    auto inputs = bench::staggeredInputs(clip, instances);
    const std::size_t joints = model.skeleton.jointCount();
    Row row{"w2", !skins.empty() ? "sample+model+palette" : "sample+model", joints, instances, batch.threadCount()};
    row.bytesPerKey = clip.bytesPerKey();
    row.repetitionNs = measure(s, [&] {
        for (InstanceRequest& in : inputs) in.layers[0].time += kFrameStep;
        check(batch.evaluate(inputs));
        consume(!skins.empty() ? batch.palette(instances - 1).back().m[12] : batch.model(instances - 1).back().m[12]);
    });
    return row;
}

// The render workload's CPU side: one frame of a scene is advance (every binding
// +1/60 s), world transforms and the draw list. ns_per_joint is per animated node
// (rigid) or per character joint (skinned).
std::vector<Row> renderScenes(const Settings& s) {
    std::vector<Row> rows;
    const auto frame = [&](bench::SceneWorkload& w, Row& row) {
        if (!w.error.empty()) throw std::runtime_error("the render workload's scene was refused: " + w.error);
        DrawList list;
        row.repetitionNs = measure(s, [&] {
            check(w.scene.advance(kFrameStep));
            w.scene.updateWorldTransforms();
            w.scene.fillDrawList(list);
            consume(list.items.back().world.m[12] + (list.palettes.empty() ? 0.0f : list.palettes.back().m[12]));
        });
    };
    {
        bench::SceneWorkload w = bench::rigidNodes(s.instancesOr(kRigidNodes));
        Row row{"render", "scene frame, rigid nodes", 1, w.nodes, 1};
        frame(w, row);
        rows.push_back(std::move(row));
    }
    {
        bench::SceneWorkload w = bench::skinnedCharacters(s.instancesOr(kSkinnedCharacters), kCharacterJoints);
        Row row{"render", "scene frame, skinned characters", kCharacterJoints, w.nodes, 1};
        frame(w, row);
        rows.push_back(std::move(row));
    }
    return rows;
}

#ifdef KINEMA_WITH_GPU
// The name of a GPU row: its GPU time, or its wall time, of the frame `what`.
std::string gpuPass(bool wall, const std::string& what) {
    return std::string(wall ? "gpu frame wall " : "gpu frame ") + std::to_string(kGpuWidth) + "x" +
        std::to_string(kGpuHeight) + ", " + what;
}
// The longest of the four frame names: it sets the width of the table's pass column.
constexpr const char* kRigidComputeFrame = "CesiumMan rigid, compute raster";

// The render workload's GPU side: frames of a crowd of skinned CesiumMan copies at
// 1920x1080, GPU time from the queue's timestamps (first to last command of the
// frame), and the wall time of the whole render call (upload, record, submit, wait).
// ns_per_vertex is per drawn vertex. Each frame is timed through the graphics
// pipeline and through the compute rasteriser (FrameDesc::raster), where the device
// has it. runBench picks the device (none with --gpu none, or when the only one is a
// CPU driver and none was named).
std::vector<Row> renderGpu(const Settings& s, const Model& model, GpuContext& context) {
    std::vector<Row> rows;
    const std::size_t count = s.instancesOr(kGpuCrowd);
    auto crowd = bench::crowdFrame(model, count, static_cast<float>(kGpuWidth) / static_cast<float>(kGpuHeight));
    if (!crowd) throw std::runtime_error("the render workload's crowd: " + crowd.message());
    auto renderer = OffscreenRenderer::create(context, kGpuWidth, kGpuHeight);
    if (!renderer) throw std::runtime_error("the render workload's renderer: " + renderer.message());
    // The same crowd drawn rigidly (each copy placed by its first joint's skinning
    // matrix, no deformation): what the frame costs without skinning.
    DrawList rigid = crowd->draws;
    for (DrawItem& item : rigid.items) {
        if (item.paletteCount == 0) continue;
        item.world = rigid.palettes[item.paletteOffset];
        item.paletteCount = 0;
        item.weightCount = 0;
    }
    const auto time = [&](const DrawList& draws, const std::string& what, RasterPath path) {
        FrameDesc frame;
        frame.catalogue = &crowd->built.catalogue;
        frame.draws = &draws;
        frame.viewProjection = crowd->camera.viewProjection;
        frame.eye = crowd->camera.eye;
        frame.background = {0.02f, 0.02f, 0.03f, 1.0f};
        frame.raster = path;
        Row gpu{"render", gpuPass(false, what), model.skeleton.jointCount(), count, 1};
        Row wall{"render", gpuPass(true, what), model.skeleton.jointCount(), count, 1};
        auto once = [&]() {
            const auto t0 = std::chrono::steady_clock::now();
            auto stats = renderer->render(frame);
            const auto t1 = std::chrono::steady_clock::now();
            if (!stats) throw std::runtime_error("the render workload's frame: " + stats.message());
            if (!stats->gpuMilliseconds) throw std::runtime_error("the GPU's queue has no timestamps");
            if (stats->computeRaster != (path == RasterPath::Compute))
                throw std::runtime_error("the render workload's frame took the other raster path");
            return std::pair{*stats->gpuMilliseconds * 1e6, std::chrono::duration<double, std::nano>(t1 - t0).count()};
        };
        if (path == RasterPath::Compute) {
            // Rows only where the device has the compute rasteriser's features.
            auto probe = renderer->render(frame);
            if (!probe) throw std::runtime_error("the render workload's frame: " + probe.message());
            if (!probe->computeRaster) {
                std::cerr << "kinema bench: skipping the compute raster rows of render: " << context.device().name
                          << " cannot draw this frame there (it needs 64-bit buffer atomics, and each of the "
                             "frame's buffers within one storage binding)\n";
                return;
            }
        }
        once();  // builds the resources and the pipelines
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(s.minTime);
        for (int r = 0; r < s.repetitions || std::chrono::steady_clock::now() < deadline; ++r) {
            const auto [gpuNs, wallNs] = once();
            gpu.repetitionNs.push_back(gpuNs);
            wall.repetitionNs.push_back(wallNs);
            if (r >= 1000) break;
        }
        if (path == RasterPath::Compute) {
            // Where the compute path's time goes, from one more frame.
            auto last = renderer->render(frame);
            if (last && last->computePassMilliseconds) {
                const auto& ms = *last->computePassMilliseconds;
                std::cerr << "kinema bench: " << what << ": transform " << ms[0] << " ms, raster " << ms[1]
                          << " ms, resolve " << ms[2] << " ms\n";
            }
        }
        for (Row* row : {&gpu, &wall}) {
            row->nsPerVertex = median(row->repetitionNs) / static_cast<double>(crowd->vertices);
            row->nsPerJoint = median(row->repetitionNs) / static_cast<double>(count * model.skeleton.jointCount());
            rows.push_back(std::move(*row));
        }
    };
    time(crowd->draws, "CesiumMan", RasterPath::Graphics);
    time(rigid, "CesiumMan rigid", RasterPath::Graphics);
    time(crowd->draws, "CesiumMan, compute raster", RasterPath::Compute);
    time(rigid, kRigidComputeFrame, RasterPath::Compute);
    std::cerr << "kinema bench: GPU rows of render on " << context.device().name << ": " << crowd->draws.items.size()
              << " draws, " << crowd->vertices << " vertices per frame\n";
    return rows;
}
#endif

void finish(Row& row) {
    row.nsPerEvaluation = median(row.repetitionNs);
    if (!row.nsPerJoint && !row.nsPerVertex) {
        row.nsPerJoint = row.nsPerEvaluation / static_cast<double>(row.instances * row.joints);
    }
}

std::string fixed(std::optional<double> v, int decimals) {
    if (!v) return "-";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, *v);
    return buf;
}

// The pass column is as wide as the longest pass name the run will print.
constexpr int kPassWidth = 38;

void printHeader(const Settings& s, std::size_t hardwareThreads, int passWidth) {
    std::printf(
        "kinema bench: SIMD %s; W1 clip %s; threads: 1 (w1e, w1f: %zu; hardware: %zu); median of %s of >= %g s\n",
        s.kernels.c_str(), bench::toString(s.clip), s.threads, hardwareThreads,
        counted(static_cast<std::size_t>(s.repetitions), "repetition").c_str(), s.minTime);
    std::printf("%-8s %-*s %6s %9s %7s %10s %10s %11s %13s %9s %7s\n", "workload", passWidth, "pass", "joints",
                "instances", "threads", "ns/joint", "ns/vertex", "ns/instance", "instances/s", "bytes/key", "scaling");
}

void printRow(const Row& r, int passWidth) {
    char ips[32];
    std::snprintf(ips, sizeof ips, "%.4g", r.instancesPerSecond());
    std::printf("%-8s %-*s %6zu %9zu %7zu %10s %10s %11s %13s %9s %7s\n", r.workload.c_str(), passWidth, r.pass.c_str(),
                r.joints, r.instances, r.threads, fixed(r.nsPerJoint, 2).c_str(), fixed(r.nsPerVertex, 2).c_str(),
                fixed(r.nsPerInstance(), 1).c_str(), ips, fixed(r.bytesPerKey, 2).c_str(),
                r.scaling ? (fixed(r.scaling, 2) + "x").c_str() : "-");
    std::fflush(stdout);
}

void printJson(const std::vector<Row>& rows, const Settings& s) {
    std::string out;
    JsonWriter w(out, true);
    w.beginArray();
    for (const Row& r : rows) {
        w.beginObject();
        w.key("workload").value(r.workload);
        w.key("pass").value(r.pass);
        w.key("joints").value(static_cast<std::uint64_t>(r.joints));
        w.key("instances").value(static_cast<std::uint64_t>(r.instances));
        w.key("threads").value(static_cast<std::uint64_t>(r.threads));
        w.key("ns_per_joint");
        if (r.nsPerJoint)
            w.value(*r.nsPerJoint);
        else
            w.null();
        if (r.nsPerVertex) w.key("ns_per_vertex").value(*r.nsPerVertex);
        // The fastest repetition beside the median: on a host whose other guests take
        // a share of the core in bursts, the two differ, and the fastest is the steadier
        // figure to compare builds by.
        const double fastestOfMedian =
            *std::min_element(r.repetitionNs.begin(), r.repetitionNs.end()) / median(r.repetitionNs);
        w.key("fastest_ns_per_joint");
        if (r.nsPerJoint)
            w.value(*r.nsPerJoint * fastestOfMedian);
        else
            w.null();
        if (r.nsPerVertex) w.key("fastest_ns_per_vertex").value(*r.nsPerVertex * fastestOfMedian);
        w.key("instances_per_s").value(r.instancesPerSecond());
        w.key("ns_per_instance").value(r.nsPerInstance());
        w.key("bytes_per_key").value(r.bytesPerKey);
        if (r.scaling) w.key("scaling").value(*r.scaling);
        w.key("ns_per_evaluation").value(r.nsPerEvaluation);
        w.key("simd").value(toString(s.simd));
        w.key("kernels").value(s.kernels);
        w.key("clip").value(bench::toString(s.clip));
        w.key("repetitions").value(s.repetitions);
        w.key("min_time_s").value(s.minTime);
        w.endObject();
    }
    w.endArray();
    std::cout << out << '\n';
}

std::filesystem::path assetsFolder(const std::string& option) {
    if (!option.empty()) return option;
    const char* env = std::getenv("KINEMA_ASSETS");
    if (env != nullptr && *env != '\0') return env;
    return std::filesystem::path("..") / "shared" / "assets" / "gltf";
}

}  // namespace

int runBench(const BenchOptions& options) {
    // Which workloads, in the canonical order whatever order they were given in.
    std::array<bool, kWorkloads.size()> selected{};
    if (options.workloads.empty()) selected.fill(true);
    for (const std::string& name : options.workloads) {
        const auto it = std::find(kWorkloads.begin(), kWorkloads.end(), name);
        if (name == "all") {
            selected.fill(true);
        } else if (it == kWorkloads.end()) {
            std::cerr << "kinema bench: unknown workload '" << name
                      << "' (known: w1a, compressed, w1b, w1c, w1d, w1e, w1f, w1s, ik, w2, render, all)\n";
            return usageFailure("bench");
        } else {
            selected[static_cast<std::size_t>(it - kWorkloads.begin())] = true;
        }
    }
    const auto wants = [&](std::string_view name) {
        return selected[static_cast<std::size_t>(std::find(kWorkloads.begin(), kWorkloads.end(), name) -
                                                 kWorkloads.begin())];
    };

    Settings s;
    s.simd = bestSimdLevel();
    if (!options.simd.empty()) {
        const auto level = parseSimdLevel(options.simd);
        if (!level) {
            std::cerr << "kinema bench: unknown SIMD level '" << options.simd << "' (portable, sse4.2, avx2, avx512)\n";
            return usageFailure("bench");
        }
        if (!isSupported(*level)) {
            std::cerr << "kinema bench: SIMD level " << options.simd
                      << " is not supported here (best: " << toString(bestSimdLevel()) << ")\n";
            return usageFailure("bench");
        }
        s.simd = *level;
    }
    s.mix = options.uniformKernels ? KernelMix::Uniform : KernelMix::Tuned;
    s.kernels = std::string(PoseKernels(s.simd, s.mix).name());
    const auto hardwareThreads = static_cast<std::size_t>(std::max(1, tbb::info::default_concurrency()));
    s.threads = options.threads == 0 ? hardwareThreads : options.threads;
    s.repetitions = options.repetitions;
    s.minTime = options.minTime;
    s.instances = options.instances;
    if (options.clip == "wide") {
        s.clip = bench::W1Clip::Wide;
    } else if (options.clip != "smooth") {
        std::cerr << "kinema bench: unknown clip definition '" << options.clip << "' (smooth, wide)\n";
        return usageFailure("bench");
    }

    // W2's model first, so a missing file is reported before the long part.
    std::optional<Model> cesiumMan;
    int exitCode = 0;
    if (wants("w2") || wants("render")) {
        const auto assets = assetsFolder(options.assets);
        const auto file = findCesiumMan(assets);
        if (!file) {
            std::cerr << "kinema bench: skipping w2 and render's GPU rows: CesiumMan.glb not found under "
                      << assets.string()
                      << " (give --assets DIR or set KINEMA_ASSETS to the glTF sample models folder)\n";
        } else if (auto model = importGltfFile(*file); !model) {
            std::cerr << "kinema bench: skipping w2: " << file->string() << " does not import:\n"
                      << model.message() << '\n';
            exitCode = 1;
        } else if (model->clips.empty()) {
            std::cerr << "kinema bench: skipping w2: " << file->string() << " has no animation\n";
            exitCode = 1;
        } else {
            cesiumMan = std::move(*model);
        }
    }

#ifdef KINEMA_WITH_GPU
    // The device of render's GPU rows is found before anything is timed: a --gpu that
    // names no device is a usage error, not a failure after minutes of CPU rows.
    std::optional<GpuContext> gpu;
    if (wants("render") && options.gpu != "none" && (cesiumMan || !options.gpu.empty())) {
        GpuOptions gpuOptions;
        gpuOptions.device = options.gpu;
        if (auto context = GpuContext::create(gpuOptions); !context) {
            if (!options.gpu.empty()) {
                std::cerr << "kinema bench: " << gpuFaultText(context.faults()) << '\n';
                return asksForMissingDevice(context.faults()) ? usageFailure("bench") : 1;
            }
            std::cerr << "kinema bench: skipping the GPU rows of render: " << context.message() << '\n';
        } else if (options.gpu.empty() && context->device().software) {
            std::cerr << "kinema bench: skipping the GPU rows of render: the only Vulkan device is a CPU driver ("
                      << context->device().name << "); give --gpu lavapipe to time it anyway\n";
        } else {
            gpu = std::move(*context);
        }
    }
#endif

    int passWidth = kPassWidth;
#ifdef KINEMA_WITH_GPU
    if (gpu && cesiumMan) passWidth = std::max(passWidth, static_cast<int>(gpuPass(true, kRigidComputeFrame).size()));
#endif
    std::vector<Row> rows;
    const auto add = [&](Row row) {
        finish(row);
        if (!options.json) printRow(row, passWidth);
        rows.push_back(std::move(row));
    };
    if (!options.json) printHeader(s, hardwareThreads, passWidth);

    const std::size_t w1Instances = s.instancesOr(kW1Instances);
    for (const std::size_t joints : kW1Joints) {
        std::optional<double> w1aNs;
        if (wants("w1a")) {
            Row row = playW1(s, joints, w1Instances, 1, "w1a");
            w1aNs = median(row.repetitionNs);
            add(std::move(row));
        }
        if (wants("compressed")) {
            for (Row& r : compressedW1(s, joints)) add(std::move(r));
        }
        if (wants("w1b")) add(seekW1(s, joints));
        if (wants("w1c")) add(blendW1(s, joints));
        if (wants("w1d")) {
            for (Row& r : skinW1(s, joints)) add(std::move(r));
        }
        if (wants("w1e")) {
            // The scaling needs w1a: measure it here when it was not asked for.
            if (!w1aNs) w1aNs = median(playW1(s, joints, w1Instances, 1, "w1a").repetitionNs);
            Row row = playW1(s, joints, w1Instances, s.threads, "w1e");
            row.scaling = *w1aNs / median(row.repetitionNs);
            add(std::move(row));
        }
        if (wants("w1f")) {
            const std::size_t instances = s.instancesOr(kW1fInstances);
            // Matrices only: a crowd of this size keeps no local poses.
            Row one = playW1(s, joints, instances, 1, "w1f", false);
            const double oneNs = median(one.repetitionNs);
            one.scaling = 1.0;
            add(std::move(one));
            if (s.threads != 1) {
                Row all = playW1(s, joints, instances, s.threads, "w1f", false);
                all.scaling = oneNs / median(all.repetitionNs);
                add(std::move(all));
            }
        }
        if (wants("w1s")) {
            for (Row& r : stagesW1(s, joints)) add(std::move(r));
        }
        if (wants("ik")) {
            for (Row& r : ikW1(s, joints)) add(std::move(r));
        }
    }
    if (cesiumMan && wants("w2")) add(playCesiumMan(s, *cesiumMan));
    if (wants("render")) {
        for (Row& r : renderScenes(s)) add(std::move(r));
#ifdef KINEMA_WITH_GPU
        if (gpu && cesiumMan) {  // a named device is checked even without CesiumMan; the rows need it
            for (Row& r : renderGpu(s, *cesiumMan, *gpu)) add(std::move(r));
        }
#endif
    }

    if (options.json) printJson(rows, s);
    return exitCode;
}

}  // namespace kinema::cli
