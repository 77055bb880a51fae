#!/usr/bin/env bash
# Installs the Debian 12 packages of the import comparison benchmark (bench/compare,
# CMake option KINEMA_BENCH_COMPARE): tinygltf, the nlohmann JSON header its
# implementation is compiled with, and Assimp. Nothing else in kinema needs them.
# Idempotent: packages already present are left alone. Uses sudo when not root.
set -euo pipefail

packages=(
  libtinygltf-dev nlohmann-json3-dev libassimp-dev
)

# shellcheck source=apt-install.sh
source "$(dirname "${BASH_SOURCE[0]}")/apt-install.sh"
apt_install_missing install-compare-deps "${packages[@]}"
