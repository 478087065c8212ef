#!/bin/bash
# Runs on the device machine (an H200) over what stage_vmaf.sh staged beside this script: the VMAF
# twins' device time per frame (alone on the GPU), then in parallel the twin harness of each twin (its
# full generated matrix and the fixtures), each twin's planted bug (each must fail), the CUDA tests, and
# the CLI with --backend cpu and --backend cuda on every fixture pair (and an identical pair) with the
# four VMAF models at --precision max (JSON equal but for fps/version/receipt; the receipt must name
# only twins). SUMMARY lines at the end; $OUT gets summary.txt, bench.log and logs.tgz (every log).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
DEST=${OUT:-/tmp/vmaf-out}
mkdir -p "$DEST"
bin=$here/bin
T=$(mktemp -d)
OUT=$T/logs
mkdir -p "$OUT"
tar -xJf "$here/fx.tar.xz" -C "$T"
fx=$T/fx
cp "$fx/sd_576x324_8bit_420_ref.y4m" "$fx/identical_576x324_8bit_420_ref.y4m"
cp "$fx/sd_576x324_8bit_420_ref.y4m" "$fx/identical_576x324_8bit_420_dist.y4m"
export bin fx OUT T
say() { echo "SUMMARY: $*" >> "$OUT/summary.txt"; }
nvidia-smi -L
TWINS=${TWINS:-motion_cuda vif_cuda adm_cuda float_motion_cuda float_vif_cuda float_adm_cuda float_ms_ssim_cuda}
BENCH_TWINS=$(echo $TWINS | tr ' ' ',')

# 1. Device time per frame, each twin alone on an idle GPU.
timeout ${BENCH_S:-40} "$bin/twin_device_time" --sizes 1920x1080,3840x2160 --depths ${BENCH_DEPTHS:-8,10} --twins "$BENCH_TWINS" \
  --reps 20 > "$OUT/bench.log" 2>&1
echo "bench rc=$?"
cat "$OUT/bench.log"

# 2. Everything else at once (16 cores; the GPU is shared).
H=${HARNESS_S:-100}
# HARNESS_JOBS: "name=twin:args;..." (args with '+' for spaces); default: each twin's full run with the fixtures.
if [ -z "${HARNESS_JOBS:-}" ]; then
  HARNESS_JOBS=""
  for tw in $TWINS; do HARNESS_JOBS="$HARNESS_JOBS;$tw=$tw:--fixtures+FX+--frames+8"; done
fi
JOBS=()
IFS=';' read -ra specs <<< "$HARNESS_JOBS"
for spec in "${specs[@]}"; do
  [ -z "$spec" ] && continue
  name=${spec%%=*}; rest=${spec#*=}; tw=${rest%%:*}; args=$(echo "${rest#*:}" | tr '+' ' ' | sed "s|FX|$fx|g")
  JOBS+=("$name")
  (timeout $H "$bin/twin_harness" --only $tw $args > "$OUT/harness_$name.log" 2>&1
   echo $? > "$OUT/harness_$name.rc") &
done
# EXTRA: one more command line run beside them (its output in extra.log, printed at the end).
[ -n "${EXTRA:-}" ] && (timeout $H bash -c "$EXTRA" > "$OUT/extra.log" 2>&1; echo $? > "$OUT/extra.rc") &
PLANTS=${PLANTS-motion_cuda_window:motion_cuda vif_cuda_rounding:vif_cuda adm_cuda_mask_shift:adm_cuda float_vif_cuda_row_sum:float_vif_cuda float_adm_cuda_aim_row:float_adm_cuda float_ms_ssim_cuda_cs_swap:float_ms_ssim_cuda float_motion_cuda_sad:float_motion_cuda}
for p in $PLANTS; do
  (VQTWIN_PLANT=${p%%:*} timeout 60 "$bin/twin_harness" --quick --only ${p##*:} > "$OUT/plant_${p%%:*}.log" 2>&1
   echo $? > "$OUT/plant_${p%%:*}.rc") &
done
(timeout 60 "$bin/cuda_tests" > "$OUT/cuda_tests.log" 2>&1; echo $? > "$OUT/cuda_tests.rc") &

cat > "$T/cmp.py" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
rec = b.pop('backends', None) or {}
a.pop('backends', None)
for k in ('fps', 'version'):
    a.pop(k, None); b.pop(k, None)
bad = {k: v for k, v in rec.items() if not str(v).endswith('_cuda')}
if bad or not rec:
    print('not all on the device:', bad or 'no receipt'); sys.exit(1)
if a != b:
    for i, (fa, fb) in enumerate(zip(a.get('frames', []), b.get('frames', []))):
        for k in fa['metrics']:
            if fa['metrics'][k] != fb['metrics'].get(k):
                print('frame', i, k, repr(fa['metrics'][k]), repr(fb['metrics'].get(k))); sys.exit(1)
    print('pooled or other fields differ'); sys.exit(1)
PY
cli() {  # $1 = stem, $2 = model
  local o="$OUT/cli/$1_$2"
  "$bin/vqtwin" -q -r "$fx/$1_ref.y4m" -d "$fx/$1_dist.y4m" --model version=$2 --precision max --json -o "$o.cpu.json" \
    --backend cpu 2> "$o.cpu.err" &&
  "$bin/vqtwin" -q -r "$fx/$1_ref.y4m" -d "$fx/$1_dist.y4m" --model version=$2 --precision max --json -o "$o.cuda.json" \
    --backend cuda 2> "$o.cuda.err" &&
  python3 "$T/cmp.py" "$o.cpu.json" "$o.cuda.json" > "$o.diff" 2>&1 && echo "same $1 $2" || echo "DIFF $1 $2: $(cat "$o.diff" "$o.cuda.err" 2>/dev/null | head -c 300 | tr "\n" " ")"
}
export -f cli
export bin fx OUT T
mkdir -p "$OUT/cli"
for ref in "$fx"/*_ref.y4m; do
  stem=$(basename "${ref%_ref.y4m}")
  for m in vmaf_v0.6.1 vmaf_float_v0.6.1 vmaf_v0.6.1neg vmaf_4k_v0.6.1; do echo "$stem $m"; done
done | timeout $H xargs -P 4 -n 2 bash -c 'cli "$0" "$1"' > "$OUT/cli.log" 2>&1
# Options the harness leaves at their defaults (string options): every vif_prescale method, feature runs.
n=0
for m in nearest bilinear bicubic lanczos4; do
  for ps in 0.5 1.5; do
    o="$OUT/cli/prescale_${m}_$ps"; n=$((n + 1))
    for b in cpu cuda; do
      "$bin/vqtwin" -q -r "$fx/sd_576x324_8bit_420_ref.y4m" -d "$fx/sd_576x324_8bit_420_dist.y4m" -n \
        --feature float_vif=vif_prescale=$ps:vif_prescale_method=$m:debug=true --precision max --json -o "$o.$b.json" \
        --backend $b 2> "$o.$b.err"
    done
    python3 "$T/cmp.py" "$o.cpu.json" "$o.cuda.json" > "$o.diff" 2>&1 && echo "same prescale $m $ps" || echo "DIFF prescale $m $ps: $(cat "$o.diff" | head -c 200)"
  done
done >> "$OUT/prescale.log"
say "CLI float_vif prescale (4 methods x 2 ratios) cuda vs cpu: $(grep -c '^same' "$OUT/prescale.log")/$n identical $(grep -v '^same' "$OUT/prescale.log" | head -2 | tr '\n' ' ')"
wait

runs=$(grep -c . "$OUT/cli.log"); same=$(grep -c '^same' "$OUT/cli.log")
say "CLI --backend cuda vs --backend cpu (4 VMAF models x $(ls "$fx"/*_ref.y4m | wc -l) pairs, --precision max): $same/$runs identical"
grep -v '^same' "$OUT/cli.log" | head -12
f=$(ls "$OUT"/cli/sd_576x324_8bit_420_vmaf_v0.6.1.cuda.json 2>/dev/null)
[ -n "$f" ] && python3 -c "import json,sys;d=json.load(open(sys.argv[1]));print('receipt (sd, vmaf_v0.6.1):',json.dumps(d.get('backends')));print('frame 2:',json.dumps(d['frames'][2]['metrics']))" "$f"
for job in "${JOBS[@]}"; do
  echo "== harness $job (rc $(cat "$OUT/harness_$job.rc" 2>/dev/null))"
  grep -v '^  DIFF\|^    ' "$OUT/harness_$job.log" | tail -6
  grep '^  DIFF\|<-' "$OUT/harness_$job.log" | head -12
  say "harness $job rc=$(cat "$OUT/harness_$job.rc" 2>/dev/null): $(grep -v '^ ' "$OUT/harness_$job.log" | grep -E '_cuda +[0-9]' | tr -s ' ') $(grep '^  [a-z_]* [a-z]* sizes\|option sets' "$OUT/harness_$job.log" | tail -1)"
done
for p in $PLANTS; do
  rc=$(cat "$OUT/plant_${p%%:*}.rc" 2>/dev/null)
  say "plant ${p%%:*} rc=$rc ($([ "$rc" = 1 ] && echo caught || echo NOT CAUGHT)) $(grep -m1 '^  DIFF' "$OUT/plant_${p%%:*}.log" | cut -c1-150)"
done
say "cuda_tests rc=$(cat "$OUT/cuda_tests.rc") $(grep -E '^\[  (PASSED|FAILED)' "$OUT/cuda_tests.log" | tr '\n' ' ')"
[ -n "${EXTRA:-}" ] && { echo "== extra (rc $(cat "$OUT/extra.rc" 2>/dev/null))"; head -c 6000 "$OUT/extra.log"; }
# NCU=twin,twin: per-kernel device time of those twins at 1080p (Nsight Compute, when it runs here).
if [ -n "${NCU:-}" ]; then
  ncu_bin=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
  if [ -n "$ncu_bin" ]; then
    timeout ${NCU_S:-60} "$ncu_bin" --print-summary per-kernel --metrics gpu__time_duration.sum "$bin/twin_device_time" \
      --twins "$NCU" --sizes 1920x1080 --depths 8 --reps 1 --ordered-sums 0 > "$OUT/ncu.log" 2>&1
    echo "== ncu rc=$?"; grep -E "^  [a-z_].*\(|gpu__time_duration|Kernel|==PROF==|error" "$OUT/ncu.log" | head -80
  else
    echo "== ncu: not found"
  fi
fi
tar -C "$T" -czf "$DEST/logs.tgz" logs
cp "$OUT/summary.txt" "$OUT/bench.log" "$DEST/"
cat "$OUT/summary.txt"
