// Micro-benchmarks of the math the per-frame path leans on, to tell where the
// sampling time goes (see docs/PERFORMANCE.md, "What each workload measures").
//
//   QuatSlerp / QuatNlerp   one interpolation between adjacent W1 rotation keys at a
//                           random fraction, ns per call
//   ToMatrixMulAffine       toMatrix(local) then mulAffine(parent, m): the body of
//                           localToModel, ns per joint
#include <benchmark/benchmark.h>

#include <vector>

#include "kinema/math/mat4.hpp"
#include "kinema/math/quat.hpp"
#include "kinema/math/transform.hpp"
#include "workloads.hpp"

namespace kinema::bench {

namespace {

constexpr std::size_t kPairs = 4096;

struct QuatPair {
    Quat a, b;
    float u;
};

// Adjacent rotation keys of the 64-joint W1 clip, each with a random fraction.
std::vector<QuatPair> w1KeyPairs() {
    std::vector<QuatPair> pairs;
    const Workload& w = w1(64);
    if (!w.error.empty()) return pairs;
    Random rng(mix(kSeed + 2));
    std::vector<const Track*> rotations;
    for (const Track& t : w.model.clips.front().tracks()) {
        if (t.path == TrackPath::Rotation) rotations.push_back(&t);
    }
    pairs.reserve(kPairs);
    for (std::size_t i = 0; i < kPairs; ++i) {
        const Track& t = *rotations[rng.next() % rotations.size()];
        const std::size_t k = rng.next() % (t.keyCount() - 1);
        const float* a = &t.values[k * 4];
        const float* b = &t.values[(k + 1) * 4];
        pairs.push_back({{a[0], a[1], a[2], a[3]}, {b[0], b[1], b[2], b[3]}, static_cast<float>(rng.uniform())});
    }
    return pairs;
}

template <Quat (*Interpolate)(Quat, Quat, float) noexcept>
void interpolateQuats(benchmark::State& state) {
    const auto pairs = w1KeyPairs();
    if (pairs.empty()) {
        state.SkipWithError("W1 workload could not be built");
        return;
    }
    std::vector<Quat> out(pairs.size());
    for (auto _ : state) {
        for (std::size_t i = 0; i < pairs.size(); ++i) out[i] = Interpolate(pairs[i].a, pairs[i].b, pairs[i].u);
        benchmark::ClobberMemory();
    }
    state.counters["per_call"] = benchmark::Counter(
        static_cast<double>(pairs.size()), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK_TEMPLATE(interpolateQuats, slerp)->Name("QuatSlerp")->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(interpolateQuats, nlerp)->Name("QuatNlerp")->Unit(benchmark::kMicrosecond);

void BM_ToMatrixMulAffine(benchmark::State& state) {
    Random rng(mix(kSeed + 3));
    std::vector<Transform> local(kPairs);
    for (Transform& t : local) {
        const auto f = [&] { return static_cast<float>(rng.uniform()); };
        t.translation = {f(), f(), f()};
        t.rotation = fromAxisAngle(Vec3{0.0f, 1.0f, 0.0f}, 3.0f * f());
        t.scale = {1.0f + 0.1f * f(), 1.0f, 1.0f};
    }
    std::vector<Mat4> model(kPairs);
    for (auto _ : state) {
        model[0] = toMatrix(local[0]);
        for (std::size_t i = 1; i < local.size(); ++i) model[i] = mulAffine(model[(i - 1) / 2], toMatrix(local[i]));
        benchmark::ClobberMemory();
    }
    state.counters["per_joint"] = benchmark::Counter(
        static_cast<double>(kPairs), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_ToMatrixMulAffine)->Name("ToMatrixMulAffine")->Unit(benchmark::kMicrosecond);

}  // namespace

}  // namespace kinema::bench
