// kinema_bench entry point: registers the benchmarks that depend on the assets
// folder found at run time, then runs Google Benchmark as usual.
#include <benchmark/benchmark.h>

#include "bench_common.hpp"

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    kinema::bench::registerImportBenchmarks();
    benchmark::AddCustomContext("kinema_assets", kinema::bench::assetsDir().string());
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
