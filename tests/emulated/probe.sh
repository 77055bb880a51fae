#!/usr/bin/env bash
# probe.sh QEMU CPU PROBE SET: the emulated CPU model must stop PROBE's one SET
# instruction with SIGILL (exit status 132), as it would stop any kinema code that used
# an instruction set the model lacks.
set -uo pipefail
qemu=$1 cpu=$2 probe=$3 set=$4
bash "$(dirname "${BASH_SOURCE[0]}")/run.sh" "$qemu" "$cpu" "$probe" "$set"
status=$?
[[ $status -eq 77 ]] && exit 77
if [[ $status -ne 132 ]]; then
  echo "FAILED: one $set instruction on the emulated $cpu ended with status $status, not SIGILL (132):" \
       "the emulator does not enforce the model, so the emulated tests prove nothing"
  exit 1
fi
echo "$cpu: one $set instruction stops with SIGILL, as it should"
