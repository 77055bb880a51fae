// Calibration: how fast this machine runs right now. A chain of dependent integer
// adds retires one add per clock cycle on any current x86-64 or ARM64 core, so
// `adds_per_s` is the effective clock the benchmark process got (on a shared
// virtual machine often far below the nominal frequency, and varying between
// runs). Quote it next to every other figure of the same run.
// Eight adds per loop iteration: with one, AMD's Zen 3 runs the loop at one
// iteration per two cycles (its taken-branch rate), which read as half the clock.
#include <benchmark/benchmark.h>

#include <cstdint>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define KINEMA_CALIBRATION_FMA 1
#endif

namespace kinema::bench {

namespace {

constexpr std::int64_t kAdds = 1'000'000;
constexpr std::int64_t kUnroll = 8;  // divides kAdds

void BM_DependentAdd(benchmark::State& state) {
    std::int64_t x = 0;
    for (auto _ : state) {
        for (std::int64_t i = 0; i < kAdds; i += kUnroll) {
            for (std::int64_t k = 0; k < kUnroll; ++k) {
                x += i;
#if defined(__GNUC__) || defined(__clang__)
                asm volatile("" : "+r"(x));  // keep the chain: no vectorising, no closed form
#else
                benchmark::DoNotOptimize(x);
#endif
            }
        }
    }
    benchmark::DoNotOptimize(x);
    state.counters["adds_per_s"] =
        benchmark::Counter(static_cast<double>(kAdds), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_DependentAdd)->Name("Calibration/DependentAdd")->Unit(benchmark::kMicrosecond);

#if defined(KINEMA_CALIBRATION_FMA)
// Throughput, not latency: eight independent chains of 256-bit multiply-adds, enough
// to keep two FMA pipes busy (latency 4-5 cycles). `fma_per_s` is about twice the
// clock on a core of its own (Zen 3, Zen 4, Golden Cove) and drops when the
// physical core is shared with another virtual machine's thread, which
// DependentAdd, bound by latency, hardly sees: on the Zen 3 VM both 2.9 G adds/s
// and 5.8 G FMAs/s in some processes, 2.7 and 4.6-4.8 in others, while the kernels
// ran 1.5-1.7x slower. Quote it beside DependentAdd.
__attribute__((target("avx2,fma"))) float independentFmas(std::int64_t rounds) {
    // Eight named registers (an array of them is kept in memory around the asm).
    __m256 a0 = _mm256_set1_ps(0.0f), a1 = _mm256_set1_ps(1.0f), a2 = _mm256_set1_ps(2.0f), a3 = _mm256_set1_ps(3.0f),
           a4 = _mm256_set1_ps(4.0f), a5 = _mm256_set1_ps(5.0f), a6 = _mm256_set1_ps(6.0f), a7 = _mm256_set1_ps(7.0f);
    const __m256 m = _mm256_set1_ps(0.999999f), c = _mm256_set1_ps(1e-7f);
    for (std::int64_t i = 0; i < rounds; ++i) {
        a0 = _mm256_fmadd_ps(a0, m, c);
        a1 = _mm256_fmadd_ps(a1, m, c);
        a2 = _mm256_fmadd_ps(a2, m, c);
        a3 = _mm256_fmadd_ps(a3, m, c);
        a4 = _mm256_fmadd_ps(a4, m, c);
        a5 = _mm256_fmadd_ps(a5, m, c);
        a6 = _mm256_fmadd_ps(a6, m, c);
        a7 = _mm256_fmadd_ps(a7, m, c);
        asm volatile("" : "+x"(a0), "+x"(a1), "+x"(a2), "+x"(a3), "+x"(a4), "+x"(a5), "+x"(a6), "+x"(a7));
    }
    const __m256 sum = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)),
                                     _mm256_add_ps(_mm256_add_ps(a4, a5), _mm256_add_ps(a6, a7)));
    return _mm256_cvtss_f32(sum);
}

void BM_IndependentFma(benchmark::State& state) {
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
        state.SkipWithError("needs AVX2 and FMA");
        return;
    }
    constexpr std::int64_t kRounds = 125'000;  // 8 FMAs each: 1 M per iteration
    float x = 0.0f;
    for (auto _ : state) x += independentFmas(kRounds);
    benchmark::DoNotOptimize(x);
    state.counters["fma_per_s"] =
        benchmark::Counter(static_cast<double>(kRounds * 8), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_IndependentFma)->Name("Calibration/IndependentFma")->Unit(benchmark::kMicrosecond);
#endif

}  // namespace

}  // namespace kinema::bench
