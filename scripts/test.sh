#!/usr/bin/env bash
# Installs the build dependencies, checks the sources' layout (.clang-format), then
# builds and runs every test twice:
#   1. g++ release build, warnings as errors: unit, conformance, CLI and install tests;
#   2. clang build with AddressSanitizer + UndefinedBehaviorSanitizer, warnings as errors:
#      the same tests, including the hostile-input suite;
# then runs the glTF import fuzzer for a short, bounded time.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc)

echo "== layout of the C++ sources (.clang-format)"
scripts/check-format.sh

echo "== npm: the pinned three.js and glTF-Validator oracles"
npm ci --prefix tests/oracle --no-audit --no-fund

echo "== g++ release build and tests"
cmake --preset release
cmake --build --preset release -j "$jobs"
ctest --preset release -j "$jobs"

echo "== clang ASan+UBSan build and tests"
cmake --preset asan
cmake --build --preset asan -j "$jobs"
ctest --preset asan -j "$jobs"

if [ -f fuzz/run.sh ]; then
  echo "== fuzzing the glTF importer (bounded)"
  bash fuzz/run.sh "${FUZZ_SECONDS:-60}"
fi
echo "== all tests passed"
