#!/bin/bash
# Runs on the device machine (NVIDIA's Vulkan driver; the loader unpacked by prepare_vulkan.sh into
# .device/vulkan): the device listing, the twin harness on Vulkan (generated cases and the fixtures) on
# the device's float path and on the fp64-free one, each Vulkan planted bug (each must fail), and CPU-vs-Vulkan CLI runs on the fixtures (psnr with every
# output, motion, vif and integer_ssim, and vmaf_v0.6.1, whose features without a Vulkan twin fall back to the CPU with a warning).
# One SUMMARY line per step; full logs in $OUT.
#   bash tools/device/vulkan_check.sh [DEVICE_DIR (default .device)]
# Environment: HARNESS_ARGS (e.g. --quick), PLANTS, VK_DRIVER_FILES (default NVIDIA's ICD on the device host).
set -uo pipefail
cd "$(dirname "$0")/../.."
dev=${1:-.device}
OUT=${OUT:-/tmp/vqtwin-vulkan-out}; mkdir -p "$OUT"
bin=$dev/bin fx=$dev/fixtures
loader=$(ls "$dev"/vulkan/usr/lib/*/libvulkan.so.1 2>/dev/null | head -1)
export VQTWIN_VULKAN_LOADER=${VQTWIN_VULKAN_LOADER:-$loader}
export VK_DRIVER_FILES=${VK_DRIVER_FILES:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
export VK_ICD_FILENAMES=${VK_ICD_FILENAMES:-$VK_DRIVER_FILES}  # loaders before 1.3.207 read this name
summary() { echo "SUMMARY: $*" | tee -a "$OUT/summary.txt"; }
: > "$OUT/summary.txt"

"$bin/vqtwin" --list-devices > "$OUT/devices.txt" 2>&1; rc=$?
cat "$OUT/devices.txt"
summary "list-devices rc=$rc loader=$VQTWIN_VULKAN_LOADER icd=$VK_DRIVER_FILES: $(grep -c '^vulkan [0-9]' "$OUT/devices.txt") Vulkan device(s)"

# Both paths of the float twins: the device's own choice (fp64 on NVIDIA), then the fp64-free path
# forced (VQTWIN_VULKAN_NO_FP64=1). "deep" adds a 16-bit 8K noise pair (sums past 2^53 units).
# The integer twins have no float path: the fp64-free pass runs the float twins only (FLOAT_TWIN).
# Each pass runs in SHARDS parallel shards (the harness's --shard K/N; the CPU references use the cores).
for path in device nofp64; do
  nofp64=$([ $path = nofp64 ] && echo 1 || echo 0)
  only=$([ $path = nofp64 ] && echo "--only ${FLOAT_TWIN:-float_psnr_vulkan}")
  pids=(); n=${SHARDS:-8}
  for k in $(seq 0 $((n - 1))); do
    VQTWIN_VULKAN_NO_FP64=$nofp64 "$bin/twin_harness" --backend vulkan ${HARNESS_ARGS:---phases small,options,pairs,large,deep} \
      --fixtures "$fx" $only --shard $k/$n > "$OUT/harness_${path}_$k.log" 2>&1 & pids+=($!)
  done
  rc=0; for p in "${pids[@]}"; do wait $p || rc=1; done
  cat "$OUT"/harness_${path}_*.log > "$OUT/harness_$path.log"
  grep -v "^  DIFF" "$OUT/harness_$path.log" | grep -v "^twin_harness: vulkan\|float twins\|^twin  "; grep "^  DIFF" "$OUT/harness_$path.log" | head -20
  summary "twin_harness --backend vulkan ($path path, $n shards) rc=$rc: $(grep -h "^twin_harness: every\|DIFFERENCES" "$OUT"/harness_${path}_*.log | sort | uniq -c | tr '\n' ' ')"
done

# Each plant on its own twin (--only); the fp64-free path's plants (..._nofp64_...) with that path forced.
for plant in ${PLANTS:-psnr_vulkan_chroma_sse motion_vulkan_window motion_vulkan_rounding float_psnr_vulkan_fp64_fp32_sum \
    float_psnr_vulkan_nofp64_square_rtz float_psnr_vulkan_nofp64_acc32 adm_vulkan_mask_start adm_vulkan_angle_never integer_ssim_vulkan_div_truncate vif_vulkan_rounding \
    float_motion_vulkan_blur_order float_motion_vulkan_uv_scale1_stride float_motion_vulkan_nofp64_row_pairs \
    float_ssim_vulkan_mirror float_ssim_vulkan_fp64_float_sum float_ssim_vulkan_nofp64_float_sum \
    float_ssim_vulkan_nofp64_sum_past_bound}; do
  twin=${plant%%_vulkan_*}_vulkan
  nofp64=$(case $plant in *_nofp64_*) echo 1;; *) echo 0;; esac)
  VQTWIN_VULKAN_NO_FP64=$nofp64 VQTWIN_PLANT=$plant "$bin/twin_harness" --backend vulkan --quick --first-difference \
    --only "$twin" > "$OUT/plant_$plant.log" 2>&1; rc=$?
  summary "plant $plant rc=$rc ($( [ $rc = 1 ] && echo caught || echo NOT CAUGHT))"
done

# The fp64-free sum's ties plant shows only on sums past 2^53 units (the 16-bit 8K pair of --phases deep).
VQTWIN_VULKAN_NO_FP64=1 VQTWIN_PLANT=float_psnr_vulkan_nofp64_sum_ties_away "$bin/twin_harness" --backend vulkan \
  --phases deep --first-difference --only float_psnr_vulkan > "$OUT/plant_sum_ties_away.log" 2>&1; rc=$?
summary "plant float_psnr_vulkan_nofp64_sum_ties_away rc=$rc ($( [ $rc = 1 ] && echo caught || echo NOT CAUGHT))"

"$bin/float_ssim_decimation_check_vulkan" --fixtures "$fx" > "$OUT/ssim_planes.log" 2>&1; rc=$?  # planes, scales 1..128
summary "float_ssim_vulkan planes rc=$rc: $(tail -1 "$OUT/ssim_planes.log")"

# CLI: --backend vulkan must give --backend cpu's numbers bit for bit (precision max).
fails=0; runs=0
for ref in "$fx"/*_ref.y4m; do
  dist=${ref%_ref.y4m}_dist.y4m
  for args in "--feature psnr=enable_apsnr=true:enable_mse=true -n" "--feature motion=debug=true -n" \
              "--feature vif=debug=true -n" "--feature integer_ssim -n" "--feature integer_ssim=enable_db=true:clip_db=true -n" \
              "--model version=vmaf_v0.6.1" "--model version=vmaf_v0.6.1 --threads 8" \
              "--feature float_motion=motion_add_scale1=true:motion_add_uv=true -n" \
              "--feature float_ssim=enable_lcs=true -n"; do

    runs=$((runs + 1))
    "$bin/vqtwin" -q -r "$ref" -d "$dist" $args --precision max --json -o "$OUT/cpu.json" --backend cpu 2>/dev/null
    "$bin/vqtwin" -q -r "$ref" -d "$dist" $args --precision max --json -o "$OUT/vk.json" --backend vulkan 2>"$OUT/vk.err"
    python3 - "$OUT/cpu.json" "$OUT/vk.json" <<'PY' || { fails=$((fails + 1)); echo "CLI DIFF: $ref $args"; head -3 "$OUT/vk.err"; }
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    for k in ('fps', 'version', 'backends', 'receipt'): d.pop(k, None)
sys.exit(0 if a["frames"] == b["frames"] and a.get("pooled_metrics") == b.get("pooled_metrics")
         and a.get("aggregate_metrics") == b.get("aggregate_metrics") else 1)
PY
  done
done
summary "CLI cpu vs vulkan (--precision max): $((runs - fails))/$runs runs identical"
head -3 "$OUT/vk.err"
# --backend auto on this host: CUDA before Vulkan on NVIDIA (the receipt names psnr_cuda when this
# binary has CUDA, psnr_vulkan when it has only Vulkan).
ref=$(ls "$fx"/*_ref.y4m | head -1)
"$bin/vqtwin" -q -r "$ref" -d "${ref%_ref.y4m}_dist.y4m" --feature psnr -n --backend auto --json -o "$OUT/auto.json" 2>/dev/null
summary "backend auto: psnr_y computed by $(python3 -c "import json,sys; d=json.load(open('$OUT/auto.json')); print((d.get('receipt') or d.get('backends') or {}).get('psnr_y','?'))" 2>/dev/null)"
# Engine fps (the JSON's "fps": reading and computing) and whole-process fps of the VMAF model, 1080p 8 bit:
# Vulkan against CUDA (when this binary has it) and the CPU. Figures only.
if [ -x "$bin/cli_throughput" ]; then
  backends=vulkan,cpu; "$bin/vqtwin" --list-devices 2>/dev/null | grep -q '^CUDA: [0-9]' && backends=vulkan,cuda,cpu
  timeout 90 "$bin/cli_throughput" --cli "$bin/vqtwin" --sizes 1920x1080 --depths 8 --cases vmaf --backends $backends \
    --runs 1 --seconds 2 --mib 256 --dir "${TMPDIR:-/tmp}" > "$OUT/throughput.log" 2>&1; rc=$?
  cat "$OUT/throughput.log"
  summary "cli_throughput rc=$rc: $(grep -E '^vmaf' "$OUT/throughput.log" | awk '{printf "%s ", $0}')"
fi
cat "$OUT/summary.txt"
