#!/bin/bash
# speed_temporal_cuda collects its frames in any order (its frame order lives on the device): its values
# through the CLI, where frames are collected by every worker at once, against --backend cpu at
# --precision max, on every fixture pair and option set that changes its work; and its harness.
#   bash tools/device/temporal_collect_checks.sh VQTWIN TWIN_HARNESS FIXTURE_DIR
# FIXTURE_DIR holds *_ref.y4m / *_dist.y4m pairs (or .y4m.xz, unpacked to /dev/shm first). One SUMMARY
# line per check and a count.
set -uo pipefail
v=${1:?VQTWIN} harness=${2:?TWIN_HARNESS} fx=${3:?FIXTURE_DIR}
here=$(cd "$(dirname "$0")" && pwd)
D=/dev/shm/vqtwin_tcc
mkdir -p "$D"
for f in "$fx"/*.y4m.xz; do [ -e "$f" ] && { y=$D/$(basename "${f%.xz}"); [ -s "$y" ] || xz -dc "$f" >"$y"; }; done
for f in "$fx"/*.y4m; do [ -e "$f" ] && ln -sf "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")" "$D/"; done
say() { echo "SUMMARY: $*"; }
same=0 diff=0
for ref in "$D"/*_ref.y4m; do
  dist=${ref/_ref./_dist.} stem=$(basename "${ref%_ref.y4m}")
  for opts in "" ":speed_use_ref_diff=true" ":speed_prescale=0.5:speed_prescale_method=lanczos4" ":speed_kernelscale=1.5"; do
    f="speed_temporal${opts:+=${opts#:}}"
    "$v" -q -r "$ref" -d "$dist" -n --feature "$f" --threads 16 --precision max --json -o "$D/cpu.json" 2>"$D/err" ||
      { say "$stem $f: cpu run failed: $(tail -1 "$D/err")"; continue; }
    "$v" -q -r "$ref" -d "$dist" -n --feature "$f" --threads 16 --precision max --json -o "$D/cuda.json" \
      --backend cuda 2>"$D/err" || { say "$stem $f: cuda run failed: $(tail -1 "$D/err")"; diff=$((diff + 1)); continue; }
    line=$(python3 "$here/json_same.py" "$D/cpu.json" "$D/cuda.json")
    case "$line" in SAME*) same=$((same + 1)) ;; *) diff=$((diff + 1)); say "$stem $f: $line" ;; esac
  done
done
say "CLI speed_temporal cuda vs cpu (frames collected in any order): $same SAME, $diff different or failed"
timeout 120 "$harness" --only speed_temporal_cuda --quick --fixtures "$D" 2>&1 | tail -2 | sed 's/^/SUMMARY: harness: /'
