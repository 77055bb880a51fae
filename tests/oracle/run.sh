#!/usr/bin/env bash
# ctest wrapper: runs one oracle script (compare or validate) against a kinema binary.
# Exits 77 (ctest "skipped") with a visible reason when node, the pinned npm packages
# (npm ci --prefix tests/oracle, done by scripts/test.sh) or the shared models are absent.
set -euo pipefail
script="$1" kinema="$2" assets="$3"
shift 3  # the rest (e.g. --fixtures PATH) goes to the script
here="$(cd "$(dirname "$0")" && pwd)"
if ! command -v node >/dev/null; then echo "SKIPPED: node is not installed"; exit 77; fi
if [ ! -d "$here/node_modules/three" ] || [ ! -d "$here/node_modules/gltf-validator" ]; then
  echo "SKIPPED: run 'npm ci --prefix tests/oracle' first"; exit 77
fi
if [ ! -d "$assets" ]; then echo "SKIPPED: shared models not found at $assets"; exit 77; fi
exec node "$here/$script.mjs" --kinema "$kinema" --assets "$assets" "$@"
