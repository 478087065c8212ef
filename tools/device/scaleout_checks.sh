#!/bin/bash
# Scale-out on a device (issue 15), with a device list naming one GPU twice (--gpu 0,0): what a single-GPU
# machine can show of "every GPU of a host" (the multi-GPU run is issue 16). Runs over what
# tools/device/prepare.sh staged in .device/ (one device call: carry [".device"], command
# "bash tools/device/scaleout_checks.sh"); full logs go to $OUT. Checks, each against separate runs:
#   1. cuda_tests ScaleOut*: a ladder of 4 renditions on device 0 four times = separate CPU runs, bit for bit
#   2. a CLI ladder with --backend cuda --gpu 0,0 (and --gpu all) = separate --backend cpu runs
#   3. vqtwin batch with --backend cuda --gpu 0,0 = the same batch on the CPU (summary byte for byte,
#      every output but its fps and receipt)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/vqtwin-device-out}; mkdir -p "$OUT"
bin=${BIN:-$PWD/.device/bin} fx=${FIXTURES:-$PWD/.device/fixtures}
# The batch manifest names files relative to its own folder: make both paths absolute.
bin=$(cd "$bin" && pwd) fx=$(cd "$fx" && pwd)
# BACKEND=cpu runs the same script without a device (to check the script itself).
backend=${BACKEND:-cuda}
nvidia-smi -L 2>/dev/null || echo "no nvidia-smi"
: > "$OUT/scaleout_summary.txt"
summary() { echo "SUMMARY: $*" | tee -a "$OUT/scaleout_summary.txt"; }

"$bin/cuda_tests" --gtest_filter='ScaleOut*' > "$OUT/scaleout_cuda_tests.log" 2>&1
summary "cuda_tests ScaleOut* rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$OUT/scaleout_cuda_tests.log" | tr '\n' ' ')"

# JSON outputs equal but for fps, version and the receipt ("backends").
same_json() {
  python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    for k in ('fps', 'version', 'backends'): d.pop(k, None)
sys.exit(0 if a == b else 1)
PY
}

work=$OUT/scaleout_work; rm -rf "$work"; mkdir -p "$work"
ref=$fx/sd_576x324_8bit_420_ref.y4m
dists=("$fx/sd_576x324_8bit_420_dist.y4m" "$fx/sd_576x324_8bit_420_b_dist.y4m" "$fx/sd_576x324_8bit_420_dist.y4m")
args="--feature psnr=enable_apsnr=true:enable_mse=true --feature float_psnr --precision max --json"
for gpus in 0,0 all; do
  fails=0
  "$bin/vqtwin" -q -r "$ref" ${dists[@]/#/-d } $args --backend $backend --gpu $gpus --threads 8 \
    -o "$work/ladder_{index}.json" 2> "$work/ladder_$gpus.err" || fails=$((fails + 1))
  for i in 0 1 2; do
    "$bin/vqtwin" -q -r "$ref" -d "${dists[$i]}" $args -o "$work/alone_$i.json" 2>/dev/null
    same_json "$work/ladder_$((i + 1)).json" "$work/alone_$i.json" || { fails=$((fails + 1)); echo "DIFF ladder rendition $i (--gpu $gpus)"; }
  done
  summary "CLI ladder --backend $backend --gpu $gpus: $((3 - fails))/3 renditions = separate cpu runs $(head -c 300 "$work/ladder_$gpus.err")"
done

# A batch over every staged pair (two rows each: the psnr twins, and VMAF with its CPU fallback).
manifest=$work/pairs.csv
echo "reference,distorted,output,options" > "$manifest"
for r in "$fx"/*_ref.y4m; do
  d=${r%_ref.y4m}_dist.y4m; n=$(basename "${r%_ref.y4m}")
  echo "$r,$d,$n.psnr.json,-n --feature psnr --feature float_psnr" >> "$manifest"
  echo "$r,$d,$n.vmaf.json,--feature psnr" >> "$manifest"
done
mkdir -p "$work/cpu" "$work/cuda"
cp "$manifest" "$work/cpu/"; cp "$manifest" "$work/cuda/"
"$bin/vqtwin" batch "$work/cpu/pairs.csv" -q --precision max > "$work/batch_cpu.log" 2>&1; rc_cpu=$?
"$bin/vqtwin" batch "$work/cuda/pairs.csv" -q --precision max --backend $backend --gpu 0,0 --threads 8 > "$work/batch_cuda.log" 2>&1; rc_cuda=$?
fails=0; rows=0
for f in "$work"/cpu/*.json; do
  case $f in *.row.json|*.summary.json) continue;; esac
  rows=$((rows + 1))
  same_json "$f" "$work/cuda/$(basename "$f")" || { fails=$((fails + 1)); echo "DIFF batch $(basename "$f")"; }
done
cmp -s "$work/cpu/pairs.summary.json" "$work/cuda/pairs.summary.json" && sum=identical || sum=DIFFERENT
summary "batch --backend $backend --gpu 0,0: rc cpu=$rc_cpu cuda=$rc_cuda, $((rows - fails))/$rows outputs = cpu, summaries $sum"
tail -3 "$work/batch_cuda.log"
cat "$OUT/scaleout_summary.txt"
