#!/bin/bash
# float_ssim_vulkan (and float_ms_ssim_vulkan) on NVIDIA's Vulkan driver in one short device call (about 3
# minutes on an H100/H200 with 16 cores), over what stage_session.sh staged (STAGE, default .device-final:
# bin/ with vqtwin, twin_harness, twin_device_time, float_ssim_decimation_check_vulkan gzipped; debs/ with
# Debian's Vulkan loader; fixtures/):
#   1. device time per frame (bench/twin_device_time), float_ssim and float_ms_ssim, CUDA and Vulkan on both
#      float paths, 1080p and 4K, 8 and 10 bit (the target: float_ssim_vulkan 4K <= 0.5 ms on both paths);
#   2. the twin harness for float_ssim_vulkan on both paths (generated matrix and the fixtures);
#   3. the decimation check (planes byte for byte, scales 1..128) and float_ssim_vulkan's four plants
#      (each must fail);
#   4. the CLI: --feature float_ssim (default, enable_lcs, scale=1, enable_db:clip_db) on --backend vulkan,
#      both paths, against --backend cpu at --precision max on every fixture pair.
#   STAGE=.device-final bash tools/device/ssim_speed_checks.sh
# Knobs: SKIP_TIMING, HARNESS_ARGS (default --quick --phases small,options,pairs,large), SHARDS (12), REPS (20).
# One SUMMARY line per step, all again at the end (speed_summary.txt in $OUT; logs in ssim_logs.tar.gz).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
STAGE=$(cd "${STAGE:-.device-final}" && pwd)
RESULT=${OUT:-/tmp/ssim-checks}; OUT=${WORK:-/tmp/ssim-checks-work}
rm -rf "$OUT"; mkdir -p "$OUT" "$RESULT"; : >"$OUT/summary.txt"
bin=$STAGE/bin fx=$STAGE/fixtures
. tools/device/lib.sh; unpack_bins "$bin"
say() { echo "SUMMARY: $*" | tee -a "$OUT/summary.txt"; }
if ls "$STAGE"/debs/*.deb >/dev/null 2>&1; then
  mkdir -p /tmp/vk && for d in "$STAGE"/debs/*.deb; do dpkg -x "$d" /tmp/vk; done
  export LD_LIBRARY_PATH=/tmp/vk/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
  export VQTWIN_VULKAN_LOADER=/tmp/vk/usr/lib/x86_64-linux-gnu/libvulkan.so.1
fi
nv_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -z "${VK_DRIVER_FILES:-}" ] && [ -f "$nv_icd" ]; then export VK_DRIVER_FILES=$nv_icd VK_ICD_FILENAMES=$nv_icd; fi
unset VQTWIN_VULKAN_NO_FP64
{ nvidia-smi -L 2>/dev/null || echo "no nvidia-smi"; "$bin/vqtwin" --list-devices 2>&1 | grep -E "^vulkan [0-9]|float twins" | head -4; } |
  tee "$OUT/machine.txt"

# 1. Device time per frame (CUDA events, Vulkan timestamp queries; the upload excluded). SKIP_TIMING=1
# leaves it out (a caller that measures it alone first, before other work shares the device).
[ "${SKIP_TIMING:-0}" = 1 ] || timeout 120 "$bin/twin_device_time" --backend cuda,vulkan --paths device,nofp64 --twins float_ssim,float_ms_ssim \
  --sizes 1920x1080,3840x2160 --depths 8,10 --reps "${REPS:-20}" >"$OUT/twin_device_time.log" 2>&1
[ "${SKIP_TIMING:-0}" = 1 ] || say "twin_device_time rc=$? (ms per frame: median mean min)"
grep -E "float_(ms_)?ssim" "$OUT/twin_device_time.log" | sed 's/^/SUMMARY:   /' | tee -a "$OUT/summary.txt"

# 2. The harness, both paths, in SHARDS parallel shards each.
for path in device nofp64; do
  nofp64=$([ $path = nofp64 ] && echo 1 || echo 0)
  pids=(); n=${SHARDS:-12}
  for k in $(seq 0 $((n - 1))); do
    VQTWIN_VULKAN_NO_FP64=$nofp64 timeout 90 "$bin/twin_harness" --backend vulkan \
      ${HARNESS_ARGS:---quick --phases small,options,pairs,large} --fixtures "$fx" --only float_ssim_vulkan \
      --shard $k/$n >"$OUT/harness_${path}_$k.log" 2>&1 & pids+=($!)
  done
  rc=0; for p in "${pids[@]}"; do wait $p || rc=1; done
  cat "$OUT"/harness_${path}_*.log >"$OUT/harness_$path.log"
  say "twin_harness float_ssim_vulkan ($path path) rc=$rc: values $(awk '$1 == "float_ssim_vulkan" { v += $5; i += $6 } END { print i "/" v " identical" }' "$OUT/harness_$path.log"); $(grep -h "^twin_harness: every\|DIFFERENCES" "$OUT"/harness_${path}_*.log | sort | uniq -c | tr '\n' ' ')"
  grep "^  DIFF" "$OUT/harness_$path.log" | head -5
done

# 3. The planes, and the plants.
"$bin/float_ssim_decimation_check_vulkan" --fixtures "$fx" >"$OUT/planes.log" 2>&1
say "float_ssim_decimation_check_vulkan rc=$?: $(tail -1 "$OUT/planes.log")"
for plant in float_ssim_vulkan_mirror float_ssim_vulkan_fp64_float_sum float_ssim_vulkan_nofp64_float_sum \
    float_ssim_vulkan_nofp64_sum_past_bound; do
  nofp64=$(case $plant in *_nofp64_*) echo 1 ;; *) echo 0 ;; esac)
  VQTWIN_VULKAN_NO_FP64=$nofp64 VQTWIN_PLANT=$plant timeout 60 "$bin/twin_harness" --backend vulkan --quick \
    --first-difference --only float_ssim_vulkan >"$OUT/plant_$plant.log" 2>&1; rc=$?
  say "plant $plant rc=$rc ($([ $rc = 1 ] && echo caught || echo NOT CAUGHT))"
done

# 4. The CLI against the CPU, both paths.
runs=0 same=0
for ref in "$fx"/*_ref.y4m; do
  dist=${ref%_ref.y4m}_dist.y4m
  for f in float_ssim float_ssim=enable_lcs=true float_ssim=scale=1 float_ssim=enable_db=true:clip_db=true; do
    "$bin/vqtwin" -q -r "$ref" -d "$dist" --feature $f -n --precision max --json -o "$OUT/cpu.json" --backend cpu 2>/dev/null
    for nofp64 in 0 1; do
      runs=$((runs + 1))
      VQTWIN_VULKAN_NO_FP64=$nofp64 "$bin/vqtwin" -q -r "$ref" -d "$dist" --feature $f -n --precision max --json \
        -o "$OUT/vk.json" --backend vulkan 2>/dev/null
      line=$(python3 tools/device/json_same.py "$OUT/cpu.json" "$OUT/vk.json")
      case $line in SAME*fallback*) echo "CLI fallback: $(basename "$ref") $f nofp64=$nofp64: $line" ;;
        SAME*) same=$((same + 1)) ;; *) echo "CLI DIFF: $(basename "$ref") $f nofp64=$nofp64: $line" ;; esac
    done
  done
done
say "CLI --feature float_ssim vulkan (both paths) vs cpu, --precision max: $same/$runs identical, every output on the twin"

echo "==== summary"; cat "$OUT/summary.txt" | tee "$RESULT/ssim_summary.txt"
tar -C "$OUT" -czf "$RESULT/ssim_logs.tar.gz" . 2>/dev/null
