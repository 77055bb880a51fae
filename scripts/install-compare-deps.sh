#!/usr/bin/env bash
# Installs the Debian 12 packages of the import comparison benchmark (bench/compare,
# CMake option KINEMA_BENCH_COMPARE): tinygltf, the nlohmann JSON header its
# implementation is compiled with, and Assimp. Nothing else in kinema needs them.
# Idempotent: packages already present are left alone. Uses sudo when not root.
set -euo pipefail

packages=(
  libtinygltf-dev nlohmann-json3-dev libassimp-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-compare-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
echo "install-compare-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
