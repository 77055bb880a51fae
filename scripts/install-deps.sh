#!/usr/bin/env bash
# Installs every Debian 12 package kinema's build, tests, benchmarks and fuzzers need.
# Idempotent: packages already present are left alone. Uses sudo when not root.
set -euo pipefail

packages=(
  cmake ninja-build g++ clang lld libclang-rt-14-dev pkg-config clang-format git
  libsimdjson-dev libcli11-dev libtbb-dev libstb-dev libgif-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  qemu-user
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers glslc libglfw3-dev xvfb xauth
)
# The renderer (src/gpu): the Vulkan loader and headers, Mesa's CPU driver (lavapipe)
# so it runs without a GPU, the validation layers the tests run under, glslc for the
# shaders, GLFW for `kinema view`'s window and Xvfb to test that window headless.
# qemu-user runs the test programs on emulated x86-64-v2 and AVX2-only CPU models
# (tests/emulated): the binaries must run there, picking the level the model has.

# Node.js and npm run the three.js / glTF-Validator test oracles (tests/oracle).
# Any Node.js >= 18 will do; a machine that already has one (e.g. from NodeSource)
# keeps it, since Debian's npm package conflicts with NodeSource's nodejs.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  packages+=(nodejs npm)
fi

# shellcheck source=apt-install.sh
source "$(dirname "${BASH_SOURCE[0]}")/apt-install.sh"
apt_install_missing install-deps "${packages[@]}"
