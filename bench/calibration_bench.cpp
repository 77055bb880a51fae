// Calibration: how fast this machine runs right now. A chain of dependent integer
// adds retires one add per clock cycle on any current x86-64 or ARM64 core, so
// `adds_per_s` is the effective clock the benchmark process got (on a shared
// virtual machine often far below the nominal frequency, and varying between
// runs). Quote it next to every other figure of the same run.
// Eight adds per loop iteration: with one, AMD's Zen 3 runs the loop at one
// iteration per two cycles (its taken-branch rate), which read as half the clock.
#include <benchmark/benchmark.h>

#include <cstdint>

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
    state.counters["adds_per_s"] = benchmark::Counter(static_cast<double>(kAdds), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_DependentAdd)->Name("Calibration/DependentAdd")->Unit(benchmark::kMicrosecond);

}  // namespace

}  // namespace kinema::bench
