#!/usr/bin/env bash
# Runs a program on an emulated CPU model: run.sh QEMU CPU PROGRAM [ARGS...]
# qemu-user executes only the instructions its -cpu model has, so a program that uses
# an instruction the model lacks (AVX on Nehalem, AVX-512 on Haswell) dies with SIGILL.
# Exit 77 (skipped) when qemu-x86_64 is absent; scripts/install-deps.sh installs it.
set -uo pipefail
qemu=$1 cpu=$2
shift 2
if [[ -z "$qemu" || "$qemu" == *NOTFOUND* || ! -x "$qemu" ]]; then
  echo "SKIPPED: qemu-x86_64 not found (Debian package qemu-user, scripts/install-deps.sh): the program is not run on an emulated $cpu"
  exit 77
fi
# No core files from the SIGILL the probe expects (or from a real failure).
ulimit -c 0
# TCG lists the features of the model it cannot emulate (none the kernels use) on stderr.
"$qemu" -cpu "$cpu" "$@" 2> >(grep -v "warning: TCG doesn't support requested feature" >&2)
