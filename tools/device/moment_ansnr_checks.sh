#!/bin/bash
# The float_moment_cuda and float_ansnr_cuda twins on the device, over the folder prepare.sh (or
# stage_final.sh) staged: the twin harness (--quick generated matrix and the fixtures, 2 frames) for
# each, then each twin's planted bug (the harness must fail: rc 1). One SUMMARY line per check.
#   STAGE=.device bash tools/device/moment_ansnr_checks.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/vqtwin-device-out}; mkdir -p "$OUT"
STAGE=${STAGE:-.device}
bin=$STAGE/bin fx=$STAGE/fixtures
. tools/device/lib.sh; unpack_bins "$bin"
say() { echo "SUMMARY: $*" | tee -a "$OUT/summary.txt"; }
nvidia-smi -L

for twin in float_moment_cuda float_ansnr_cuda; do
  "$bin/twin_harness" --quick --fixtures "$fx" --frames 2 --only "$twin" >"$OUT/harness_$twin.log" 2>&1
  rc=$?
  say "harness $twin rc=$rc: $(grep -E "^$twin " "$OUT/harness_$twin.log" | tr -s ' ' | head -1) $(grep -m3 DIFF "$OUT/harness_$twin.log" | tr '\n' ' ')"
done

for p in float_moment_cuda:float_moment_cuda_double_square float_ansnr_cuda:float_ansnr_cuda_tap_order; do
  VQTWIN_PLANT=${p#*:} "$bin/twin_harness" --quick --first-difference --only "${p%%:*}" >"$OUT/plant_${p#*:}.log" 2>&1
  rc=$?
  say "plant ${p#*:} rc=$rc ($([ $rc = 1 ] && echo caught || echo NOT CAUGHT))"
done
