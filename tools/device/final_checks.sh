#!/bin/bash
# One device call that checks every CUDA twin within a time budget (BUDGET seconds, default 300),
# over the folder prepare.sh staged (STAGE, default .device): the CUDA unit tests, the twin harness
# (--quick generated matrix and the fixtures, sharded over the cores), each planted bug (each must
# make the harness fail), CLI runs --backend cuda against --backend cpu (every fixture pair, the four
# VMAF models and the seeds' features, --precision max, JSON compared value by value), and the VMAF
# model's whole-process throughput. Each step has its share of the budget; a step cut short says so.
#   STAGE=.device BUDGET=300 bash tools/device/final_checks.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/vqtwin-device-out}; mkdir -p "$OUT"
STAGE=${STAGE:-.device}; BUDGET=${BUDGET:-300}
bin=$STAGE/bin fx=$STAGE/fixtures
t0=$SECONDS
# stage_final.sh gzips the binaries.
. tools/device/lib.sh; unpack_bins "$bin"
left() { echo $((BUDGET - (SECONDS - t0))); }
say() { echo "SUMMARY: $*" | tee -a "$OUT/summary.txt"; }
nvidia-smi -L; nproc

# 1. CUDA unit tests, beside the harness.
timeout $((BUDGET / 4)) "$bin/cuda_tests" >"$OUT/cuda_tests.log" 2>&1 &
tests_pid=$!

# 2. The harness, sharded: every shard runs every twin on its share of the cases.
shards=${SHARDS:-12}
hb=$((BUDGET * 40 / 100))
for k in $(seq 0 $((shards - 1))); do
  timeout "$hb" "$bin/twin_harness" --quick --fixtures "$fx" --frames 2 --shard "$k/$shards" >"$OUT/harness_$k.log" 2>&1 &
done
wait
rc=0; wait $tests_pid 2>/dev/null || true
say "cuda_tests: $(grep -E '^\[  (PASSED|FAILED)|tests ran' "$OUT/cuda_tests.log" | tr '\n' ' ')"
# Sum each twin's row over the shards: cases, refused, to CPU, values, identical.
cat "$OUT"/harness_*.log | awk '
  $1 ~ /_cuda$/ && NF >= 7 && $2 ~ /^[0-9]+$/ { c[$1]+=$2; r[$1]+=$3; u[$1]+=$4; v[$1]+=$5; i[$1]+=$6; if ($0 ~ /FAIL/) f[$1]=1 }
  END { for (t in c) printf "SUMMARY: harness %-20s cases %6d refused %4d toCPU %4d values %8d identical %8d %s\n", t, c[t], r[t], u[t], v[t], i[t], (f[t] || v[t] != i[t]) ? "FAIL" : "ok" }' \
  | sort | tee -a "$OUT/summary.txt"
done_shards=$(grep -l "twin_harness: " "$OUT"/harness_*.log | wc -l)
say "harness shards finished: $done_shards/$shards (the rest cut at ${hb}s); differences: $(grep -h '^  DIFF\|DIFF' "$OUT"/harness_*.log | head -3 | tr '\n' ' ')"

# 3. Planted bugs: each must make its twin's harness fail (stops at the first difference).
pb=$((BUDGET * 12 / 100))
plants="psnr_cuda:psnr_cuda_chroma_sse float_psnr_cuda:float_psnr_cuda_fp32_sum
 float_ssim_cuda:float_ssim_cuda_reciprocal_ulp float_ssim_cuda:float_ssim_cuda_mirror
 float_ssim_cuda:float_ssim_cuda_fp32_decimation float_ssim_cuda:float_ssim_cuda_double_mean
 integer_ssim_cuda:integer_ssim_cuda_ratio float_motion_cuda:float_motion_cuda_no_cap
 float_motion_cuda:float_motion_cuda_force_zero_at_flush float_motion_cuda:float_motion_cuda_uv_scale1_stride
 motion_cuda:motion_cuda_window vif_cuda:vif_cuda_rounding
 adm_cuda:adm_cuda_mask_shift float_vif_cuda:float_vif_cuda_row_sum float_adm_cuda:float_adm_cuda_aim_row
 float_ms_ssim_cuda:float_ms_ssim_cuda_cs_swap
 speed_chroma_cuda:speed_chroma_cuda_v_reads_u speed_temporal_cuda:speed_temporal_cuda_last_tap
 float_moment_cuda:float_moment_cuda_double_square float_ansnr_cuda:float_ansnr_cuda_tap_order"
for p in $plants; do
  # A plant that only a pair of options reveals goes straight to the harness's pairs phase.
  phases=small,options,pairs,large; case ${p#*:} in *uv_scale1*) phases=pairs ;; esac
  ( VQTWIN_PLANT=${p#*:} timeout "$pb" "$bin/twin_harness" --quick --phases $phases --first-difference --only "${p%%:*}" \
      >"$OUT/plant_${p#*:}.log" 2>&1; echo $? >"$OUT/plant_${p#*:}.rc" ) &
done
wait
caught=0; n=0
for p in $plants; do
  n=$((n + 1)); r=$(cat "$OUT/plant_${p#*:}.rc")
  if [ "$r" = 1 ]; then caught=$((caught + 1)); else say "plant ${p#*:}: rc $r (NOT caught)"; fi
done
say "planted bugs caught: $caught/$n"

# 4. CLI: --backend cuda against --backend cpu, JSON value by value (the receipt aside).
cat >"$OUT/cmp.py" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    for k in ('backends', 'fps', 'version'): d.pop(k, None)
sys.exit(0 if a == b else 1)
PY
cli_one() {  # ref dist tag args...
  local ref=$1 dist=$2 tag=$3; shift 3
  "$bin/vqtwin" -q -r "$ref" -d "$dist" "$@" --precision max --json -o "$OUT/cli_$tag.cpu.json" 2>/dev/null
  "$bin/vqtwin" -q -r "$ref" -d "$dist" "$@" --precision max --json -o "$OUT/cli_$tag.cuda.json" --backend cuda \
    2>"$OUT/cli_$tag.err"
  if python3 "$OUT/cmp.py" "$OUT/cli_$tag.cpu.json" "$OUT/cli_$tag.cuda.json"; then
    if grep -q "cpu fallback" "$OUT/cli_$tag.cuda.json"; then echo "SAME-FALLBACK $tag $*"; else echo "SAME $tag $*"; fi
  else echo "DIFF $tag $*"; fi
}
export -f cli_one; export bin OUT
jobs_file=$OUT/cli_jobs.txt; : >"$jobs_file"; i=0
for ref in "$fx"/*_ref.y4m; do
  dist=${ref%_ref.y4m}_dist.y4m
  for args in "--model version=vmaf_v0.6.1" "--model version=vmaf_float_v0.6.1" "--model version=vmaf_4k_v0.6.1" \
              "--model version=vmaf_v0.6.1neg" "-n --feature psnr=enable_chroma=true --feature float_psnr" \
              "-n --feature float_ssim=enable_lcs=true --feature ssim --feature float_ms_ssim" \
              "-n --feature float_motion --feature motion=motion_force_zero=false" \
              "-n --feature float_motion=motion_add_scale1=true:motion_add_uv=true:motion_filter_size=3"; do
    i=$((i + 1)); echo "$ref $dist $i $args" >>"$jobs_file"
  done
done
timeout $((BUDGET * 20 / 100)) xargs -P 8 -L 1 bash -c 'cli_one "$@"' _ <"$jobs_file" >"$OUT/cli_results.txt" 2>&1
say "CLI cpu vs cuda: $(grep -c '^SAME ' "$OUT/cli_results.txt") identical on twins, $(grep -c '^SAME-FALLBACK' "$OUT/cli_results.txt") identical with a CPU fallback, $(grep -c '^DIFF' "$OUT/cli_results.txt") different, of $i"
grep '^DIFF\|^SAME-FALLBACK' "$OUT/cli_results.txt" | head -5
last=$(ls "$OUT"/cli_*.cuda.json 2>/dev/null | head -1)
[ -n "$last" ] && python3 -c "import json,sys;print('receipt:', json.dumps(json.load(open(sys.argv[1])).get('backends'))[:500])" "$last"

# 5. Scale-out on one device named twice (issue 15's single-GPU checks).
if [ "$(left)" -gt 60 ]; then
  BIN=$bin FIXTURES=$fx timeout $((BUDGET * 10 / 100)) bash tools/device/scaleout_checks.sh >"$OUT/scaleout.log" 2>&1
  grep "^SUMMARY" "$OUT/scaleout.log" | sed 's/^SUMMARY: /SUMMARY: scaleout: /' | tee -a "$OUT/summary.txt"
fi

# 6. Whole-process throughput of the VMAF model, 1080p 8-bit, CPU vs CUDA (what time is left).
tb=$(( $(left) - 10 ))
if [ "$tb" -gt 25 ] && [ -x "$bin/cli_throughput" ]; then
  timeout "$tb" "$bin/cli_throughput" --cli "$bin/vqtwin" --sizes 1920x1080 --depths 8 --cases vmaf,psnr \
    --backends cpu,cuda --threads 16 --runs 1 --seconds 1 --mib 600 2>&1 | tee "$OUT/throughput.log" | tail -12
fi
say "total $((SECONDS - t0)) s of $BUDGET"
cat "$OUT/summary.txt"
