#!/bin/bash
# Device checks of the input path and the device pipeline's throughput, in ONE device call, over the
# folder tools/device/prepare_throughput.sh staged (bin/, fx.tar.xz, this script as run.sh):
#   1. the machine: GPU, cores, memory, transparent huge pages
#   2. cuda_tests
#   3. the CLI on the fixtures: --backend cuda equal to --backend cpu bit for bit (--precision max),
#      files read in parallel at 3 and 16 threads, and a pipe (read one frame after the other)
#   4. what pinning the frame slots' host memory costs at start-up (cuda_bench --pinning)
#   5. bench/cli_throughput: whole-process fps from y4m, CPU vs --backend cuda, 1080p and 4K, 8 and
#      10 bits, psnr and VMAF, device busy fraction, peak memory; the CPU's VMAF at 1, 4 and 16 threads
#   6. the twin harness (--quick), in the time left
# Prints a summary; logs go to $OUT. BUDGET (seconds, default 140) bounds the whole call.
set -uo pipefail
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/throughput-out}; mkdir -p "$OUT"
B=bin T=$(mktemp -d); tar -xJf fx.tar.xz -C "$T"; FX=$T/fx
budget=${BUDGET:-140}
left() { echo $((budget - SECONDS)); }
say() { echo "SUMMARY: $*" | tee -a "$OUT/summary.txt"; }

{ nvidia-smi -L; nvidia-smi --query-gpu=driver_version,memory.total --format=csv,noheader
  echo "cores: $(nproc); $(lscpu | grep -E '^(Model name|Thread\(s\) per core|Core\(s\) per socket|Socket\(s\)|NUMA node\(s\))' | tr -s ' ' | tr '\n' ';')"
  free -g | head -2; echo "THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled)"; } | tee "$OUT/machine.txt"

timeout 40 $B/cuda_tests > "$OUT/cuda_tests.log" 2>&1
say "cuda_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/cuda_tests.log" | tr '\n' ' ')"

# --backend cuda must give --backend cpu's numbers, whichever way the frames were read.
same() {  # cpu.json other.json
  python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    for k in ('fps', 'version', 'backends'): d.pop(k, None)
sys.exit(0 if a == b else 1)
PY
}
runs=0 fails=0
for ref in "$FX"/*_ref.y4m; do
  dist=${ref%_ref.y4m}_dist.y4m
  for args in "--feature psnr=enable_apsnr=true:enable_mse=true -n" "--model version=vmaf_v0.6.1"; do
    $B/vqtwin -q -r "$ref" -d "$dist" $args --precision max --json -o "$OUT/cpu.json" --threads 16 2>/dev/null
    for how in "16" "3" "pipe"; do
      runs=$((runs + 1))
      if [ "$how" = pipe ]; then
        cat "$ref" | $B/vqtwin -q -r - -d "$dist" $args --precision max --json -o "$OUT/cuda.json" --backend cuda --threads 16 2>"$OUT/cuda.err"
      else
        $B/vqtwin -q -r "$ref" -d "$dist" $args --precision max --json -o "$OUT/cuda.json" --backend cuda --threads $how 2>"$OUT/cuda.err"
      fi
      same "$OUT/cpu.json" "$OUT/cuda.json" || { fails=$((fails + 1)); echo "CLI DIFF: $(basename "$ref") $args ($how)"; head -2 "$OUT/cuda.err"; }
    done
  done
done
say "CLI --backend cuda vs cpu (threads 16, 3, a pipe): $((runs - fails))/$runs runs identical"
python3 -c "import json,sys;print('receipt:', json.dumps(json.load(open(sys.argv[1])).get('backends')))" "$OUT/cuda.json"

$B/cuda_bench --pinning 16 24 2>&1 | tee "$OUT/pinning.log"

t=$(( $(left) - 25 )); [ $t -lt 20 ] && t=20
timeout $t $B/cli_throughput --cli $B/vqtwin --sizes 1920x1080,3840x2160 --depths 8,10 --cases psnr,vmaf \
  --backends cpu,cuda --threads 16 --runs 3 --seconds ${SECONDS_PER_RUN:-0.7} --mib ${MIB:-2048} --scaling 1,4,16 \
  --dir "$T" 2>&1 | tee "$OUT/cli_throughput.log"
say "cli_throughput rc=${PIPESTATUS[0]} (${SECONDS} s so far)"
rm -f "$T"/cli_throughput_*

t=$(( $(left) - 3 ))
if [ $t -gt 5 ]; then
  timeout $t $B/twin_harness --quick > "$OUT/harness.log" 2>&1; rc=$?
  grep -E "^twin_harness|cases|bit-identical" "$OUT/harness.log" | tail -12
  say "twin_harness --quick rc=$rc ($(grep -c '^  DIFF' "$OUT/harness.log") DIFF lines; 124 = out of time)"
fi
say "total ${SECONDS} s"
cat "$OUT/summary.txt"
