#!/usr/bin/env bash
# Installs the build dependencies, builds the kinema tool (release) and runs its demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target kinema_cli
build/release/bin/kinema demo "$@"
