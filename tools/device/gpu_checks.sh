#!/bin/bash
# Runs on the device machine (an H200), over the tree and the .device/ folder prepare.sh staged:
# the CUDA unit tests, the twin harness (generated cases and the fixtures), each planted bug (each
# must fail), CPU-vs-CUDA CLI runs on the fixtures with every model, and the benchmarks. Prints a
# summary; full logs go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/vqtwin-device-out}; mkdir -p "$OUT"
bin=.device/bin fx=.device/fixtures
nvidia-smi -L
summary() { echo "SUMMARY: $*" | tee -a "$OUT/summary.txt"; }

"$bin/cuda_tests" > "$OUT/cuda_tests.log" 2>&1; summary "cuda_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/cuda_tests.log" | tr '\n' ' ')"

"$bin/twin_harness" --fixtures "$fx" > "$OUT/harness.log" 2>&1; rc=$?
cat "$OUT/harness.log" | grep -v "^  DIFF" ; grep "^  DIFF" "$OUT/harness.log" | head -20
summary "twin_harness rc=$rc"

for plant in ${PLANTS:-psnr_cuda_chroma_sse float_psnr_cuda_fp32_sum}; do
  VQTWIN_PLANT=$plant "$bin/twin_harness" --quick > "$OUT/plant_$plant.log" 2>&1; rc=$?
  summary "plant $plant rc=$rc ($( [ $rc = 1 ] && echo caught || echo NOT CAUGHT))"
done

# CLI: --backend cuda must give --backend cpu's numbers bit for bit (precision max), for every model.
fails=0; runs=0
for ref in "$fx"/*_ref.y4m; do
  dist=${ref%_ref.y4m}_dist.y4m
  for args in "--feature psnr=enable_apsnr=true:enable_mse=true -n" "--feature float_psnr -n" \
              "--model version=vmaf_v0.6.1" "--model version=vmaf_float_v0.6.1" "--model version=vmaf_4k_v0.6.1" \
              "--model version=vmaf_v0.6.1neg" ${EXTRA_CLI_ARGS:-}; do
    runs=$((runs + 1))
    "$bin/vqtwin" -q -r "$ref" -d "$dist" $args --precision max --json -o "$OUT/cpu.json" 2>/dev/null
    "$bin/vqtwin" -q -r "$ref" -d "$dist" $args --precision max --json -o "$OUT/cuda.json" --backend cuda 2>"$OUT/cuda.err"
    python3 - "$OUT/cpu.json" "$OUT/cuda.json" <<'PY' || { fails=$((fails + 1)); echo "CLI DIFF: $ref $args"; head -3 "$OUT/cuda.err"; }
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
b.pop('backends', None)
for k in ('fps', 'version'): a.pop(k, None); b.pop(k, None)
sys.exit(0 if a == b else 1)
PY
  done
done
summary "CLI cpu vs cuda: $((runs - fails))/$runs runs identical"
python3 -c "import json;print(json.dumps(json.load(open('$OUT/cuda.json')).get('backends')))" | head -c 600; echo

[ -x "$bin/cuda_bench" ] && { "$bin/cuda_bench" ${BENCH_ARGS:-} 2>&1 | tee "$OUT/cuda_bench.log"; }
cat "$OUT/summary.txt"
