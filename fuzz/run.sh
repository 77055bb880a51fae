#!/usr/bin/env bash
# Builds the "fuzz" preset (clang, libFuzzer, ASan + UBSan) and runs the glTF
# import fuzzer over its seed corpus for a bounded time, then the state machine
# JSON fuzzer over fuzz/state_machine_corpus for half that time, the tween JSON
# fuzzer over fuzz/tween_corpus for half of it, the retargeting joint map JSON fuzzer
# over fuzz/joint_map_corpus for a quarter of it, the user curve JSON fuzzer over
# fuzz/curve_corpus for a quarter of it, the URI resolution fuzzer over
# fuzz/uri_corpus for a quarter of it and the cooked model file fuzzer over
# fuzz/cooked_corpus for a quarter of it.
#
#   fuzz/run.sh [seconds] [more libFuzzer flags, e.g. -jobs=4 -workers=4]
#
# Environment:
#   BUILD_DIR   build tree (default build/fuzz, the preset's)
#   BUILD_JOBS  compile jobs (default 2)
#
# fuzz/corpus holds the seeds and is only read; inputs the fuzzer finds go to
# $BUILD_DIR/corpus. Crashes, leaks and timeouts are saved to $BUILD_DIR/crashes/; copy real ones to fuzz/regressions/
# (replay one with: $BUILD_DIR/fuzz/kinema_gltf_import_fuzz <file>).
# The exit status is non-zero when the fuzzer found a problem.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
seconds="${1:-60}"
[ $# -gt 0 ] && shift
build="${BUILD_DIR:-build/fuzz}"

cmake --preset fuzz -B "$build" >/dev/null
cmake --build "$build" --target kinema_gltf_import_fuzz kinema_state_machine_fuzz kinema_tween_fuzz kinema_joint_map_fuzz kinema_curve_fuzz kinema_uri_fuzz \
    kinema_cooked_fuzz -j "${BUILD_JOBS:-2}"

mkdir -p "$build/corpus" "$build/crashes" "$build/state_machine_corpus" "$build/tween_corpus" "$build/joint_map_corpus" "$build/curve_corpus" "$build/uri_corpus" \
    "$build/cooked_corpus"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# run_fuzzer TARGET FOUND_CORPUS SEEDS DICT SECONDS MAX_LEN CRASH_PREFIX [libFuzzer flags...]
run_fuzzer() {
  local target="$1" found="$2" seeds="$3" dict="$4" time="$5" len="$6" prefix="$7"
  shift 7
  "$build/fuzz/$target" "$found" "$seeds" -dict="$dict" -max_total_time="$time" -max_len="$len" \
      -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$prefix" -print_final_stats=1 "$@"
}
run_fuzzer kinema_gltf_import_fuzz "$build/corpus" fuzz/corpus fuzz/gltf.dict "$seconds" 65536 \
    "$build/crashes/" "$@"
run_fuzzer kinema_state_machine_fuzz "$build/state_machine_corpus" fuzz/state_machine_corpus \
    fuzz/state_machine.dict "$(( (seconds + 1) / 2 ))" 8192 "$build/crashes/sm-" "$@"
run_fuzzer kinema_tween_fuzz "$build/tween_corpus" fuzz/tween_corpus fuzz/tween.dict "$(( (seconds + 1) / 2 ))" \
    8192 "$build/crashes/tween-" "$@"
run_fuzzer kinema_joint_map_fuzz "$build/joint_map_corpus" fuzz/joint_map_corpus fuzz/joint_map.dict \
    "$(( (seconds + 3) / 4 ))" 4096 "$build/crashes/joint-map-" "$@"
run_fuzzer kinema_curve_fuzz "$build/curve_corpus" fuzz/curve_corpus fuzz/curve.dict "$(( (seconds + 3) / 4 ))" \
    4096 "$build/crashes/curve-" "$@"
run_fuzzer kinema_uri_fuzz "$build/uri_corpus" fuzz/uri_corpus fuzz/uri.dict "$(( (seconds + 3) / 4 ))" 256 \
    "$build/crashes/uri-" "$@"
run_fuzzer kinema_cooked_fuzz "$build/cooked_corpus" fuzz/cooked_corpus fuzz/cooked.dict "$(( (seconds + 3) / 4 ))" \
    16384 "$build/crashes/cooked-" "$@"
