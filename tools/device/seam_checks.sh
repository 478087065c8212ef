#!/bin/bash
# Runs on the device machine, from a build of this tree (BUILD, default build/): the checks of the
# twin seam (every CUDA twin on cuda::StagedTwin). The CUDA unit tests, the twin harness (quick, then
# the fixtures when FIXTURES is set), every planted bug of tests/CMakeLists.txt (each must make the
# harness exit 1), and compute-sanitizer's initcheck on the twins whose results were copied back
# partly unwritten before (float_motion_cuda, float_vif_cuda, float_adm_cuda): it must report
# 0 errors. Prints one SUMMARY line per check; logs go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${BUILD:-build}
OUT=${OUT:-/tmp/vqtwin-seam-out}; mkdir -p "$OUT"
summary() { echo "SUMMARY: $*" | tee -a "$OUT/summary.txt"; }
nvidia-smi -L

"$B/tests/cuda_tests" > "$OUT/cuda_tests.log" 2>&1
summary "cuda_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/cuda_tests.log" | tr '\n' ' ')"

"$B/tests/twin_harness" --quick > "$OUT/harness_quick.log" 2>&1; rc=$?
tail -15 "$OUT/harness_quick.log"; summary "twin_harness --quick rc=$rc (0 = every value identical)"
if [ -n "${FIXTURES:-}" ]; then
  "$B/tests/twin_harness" --fixtures "$FIXTURES" > "$OUT/harness.log" 2>&1; rc=$?
  tail -15 "$OUT/harness.log"; summary "twin_harness --fixtures rc=$rc"
fi

plants=$(sed -n '/^set(VQTWIN_PLANTS/,/)/p' tests/CMakeLists.txt | tr -d '()' | sed 's/set//; s/VQTWIN_PLANTS//')
for plant in $plants; do
  VQTWIN_PLANT=$plant "$B/tests/twin_harness" --quick --first-difference > "$OUT/plant_$plant.log" 2>&1; rc=$?
  summary "plant $plant rc=$rc ($( [ $rc = 1 ] && echo caught || echo NOT CAUGHT))"
done

if command -v compute-sanitizer > /dev/null; then
  for twin in float_motion_cuda float_vif_cuda float_adm_cuda; do
    compute-sanitizer --tool initcheck "$B/tests/twin_harness" --quick --only $twin --phases small,options \
      > "$OUT/initcheck_$twin.log" 2>&1
    summary "initcheck $twin: $(grep -E 'ERROR SUMMARY' "$OUT/initcheck_$twin.log" | tail -1)"
  done
else
  summary "compute-sanitizer not found: initcheck skipped"
fi
cat "$OUT/summary.txt"
