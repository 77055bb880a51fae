#!/usr/bin/env bash
# The kinema tool on an emulated CPU model: cli.sh QEMU CPU LEVEL KINEMA ASSETS
# runs the main job (demo), a skinned sample of CesiumMan and the benchmark workloads
# once each, and checks that every benchmark row ran on the SIMD level LEVEL, the best
# one the model has (sse4.2 on Nehalem, avx2 on Haswell).
set -uo pipefail
qemu=$1 cpu=$2 level=$3 kinema=$4 assets=$5
run="$(dirname "${BASH_SOURCE[0]}")/run.sh"
skipped=$(bash "$run" "$qemu" "$cpu" true)
[[ $? -eq 77 ]] && { echo "$skipped"; exit 77; }
fail() { echo "FAILED on $cpu: $*"; exit 1; }

out=$(bash "$run" "$qemu" "$cpu" "$kinema" demo) || fail "kinema demo exited with $?"
grep -q "planted ankles off the ground" <<<"$out" || fail "kinema demo printed no foot-to-ground check"

cesium="$assets/CesiumMan/glTF-Binary/CesiumMan.glb"
[[ -f "$cesium" ]] || cesium="$assets/CesiumMan/CesiumMan.glb"
if [[ -f "$cesium" ]]; then
  bash "$run" "$qemu" "$cpu" "$kinema" sample "$cesium" --animation 0 --times 0,0.5,1 --skinned --json >/dev/null ||
    fail "kinema sample --skinned exited with $?"
else
  echo "CesiumMan not found under $assets: the skinned sample and w2 are not run"
fi

json=$(bash "$run" "$qemu" "$cpu" "$kinema" bench --workload w1a,w1b,w1c,w1d,w1e,w2 --repetitions 1 \
         --min-time 0 --assets "$assets" --json) || fail "kinema bench exited with $?"
rows=$(grep -c '"workload"' <<<"$json")
on_level=$(grep -c "\"simd\": \"$level\"" <<<"$json")
[[ $rows -gt 0 ]] || fail "kinema bench printed no rows"
[[ $rows -eq $on_level ]] || fail "$on_level of $rows benchmark rows ran on $level: $(grep '"simd"' <<<"$json" | sort | uniq -c)"
echo "$cpu: demo, sample and $rows benchmark rows ran, all on $level"
