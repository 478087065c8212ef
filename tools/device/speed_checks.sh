#!/bin/bash
# The speed figures in one short device call (under 4 minutes on an H100/H200 with 16 cores), over what
# stage_session.sh staged (STAGE, default .device-final: bin/ with vqtwin, twin_device_time and
# cli_throughput gzipped; debs/ with Debian's Vulkan loader):
#   1. device time per twin per frame (bench/twin_device_time): every CUDA and Vulkan twin, 1080p and 4K,
#      8 and 10 bit, the Vulkan float twins on both paths (the device's choice and the fp64-free one);
#   2. VMAF (vmaf_v0.6.1) engine fps (the JSON's "fps") and whole-process fps, 1080p and 4K, 8 and 10 bit,
#      --backend vulkan, cuda and cpu, --threads 16, on the same generated inputs (bench/cli_throughput),
#      and Vulkan's engine fps against CUDA's;
#   3. --aom_ctc v7.0 and --nflx_ctc v1.0, 1080p 8-bit, 120 and 600 frames, whole process, cpu against cuda
#      (both --threads 16), the ratio, and cuda's JSON against cpu's at --precision max;
#   4. the seven newer twins alone (FEATURES_ALONE, default ciede psnr_hvs cambi float_ansnr float_moment
#      speed_chroma speed_temporal) (-n --feature X), 1080p 600 frames, cpu against cuda: whole process,
#      start-up (a 1-frame run of the same command), the time once started (whole minus start-up) and the
#      engine fps of the JSON, with the ratios of both.
#   STAGE=.device-final bash tools/device/speed_checks.sh
# Knobs: SMALL=1 (CIF and a few frames: a dry run of the script on any machine, lavapipe included);
# BACKENDS (device backends of 1 and 2, default cuda,vulkan); DEV (the device backend of 3 and 4, cuda);
# THREADS (16); SKIP (comma list of twins,vmaf,presets,features); PY (a python3 with numpy); DIR (where the
# inputs are written, default /dev/shm).
# One SUMMARY line per figure (the device-time table in full), all again at the end; only speed_summary.txt and
# one tarball of the logs go to $OUT (the device call returns a limited number of files).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
STAGE=$(cd "${STAGE:-.device-final}" && pwd)
RESULT=${OUT:-/tmp/speed-checks}; OUT=${WORK:-/tmp/speed-checks-work}
rm -rf "$OUT"; mkdir -p "$OUT" "$RESULT"; : >"$OUT/summary.txt"
bin=$STAGE/bin
. tools/device/lib.sh; unpack_bins "$bin"
PY=${PY:-python3}
THREADS=${THREADS:-16}
BACKENDS=${BACKENDS:-cuda,vulkan}
DEV=${DEV:-cuda}
say() { echo "SUMMARY: $*" | tee -a "$OUT/summary.txt"; }
skip() { case ",${SKIP:-}," in *,$1,*) return 0 ;; esac; return 1; }
# Past BUDGET seconds (default 225) the runs still to come are skipped, each with a line saying so.
late() { [ $((SECONDS - t0)) -gt "${BUDGET:-225}" ] && say "skipped $1: past the ${BUDGET:-225} s budget"; }
t0=$SECONDS

# The Vulkan loader and libglvnd (Debian's packages, staged as .deb files): the device host has NVIDIA's
# Vulkan driver but no loader. Elsewhere (lavapipe) the installed loader and drivers are used.
if ls "$STAGE"/debs/*.deb >/dev/null 2>&1; then
  mkdir -p /tmp/vk && for d in "$STAGE"/debs/*.deb; do dpkg -x "$d" /tmp/vk; done
  export LD_LIBRARY_PATH=/tmp/vk/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
  export VQTWIN_VULKAN_LOADER=/tmp/vk/usr/lib/x86_64-linux-gnu/libvulkan.so.1
fi
nv_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -z "${VK_DRIVER_FILES:-}" ] && [ -f "$nv_icd" ]; then
  export VK_DRIVER_FILES=$nv_icd VK_ICD_FILENAMES=$nv_icd
fi
unset VQTWIN_VULKAN_NO_FP64  # each path is chosen where it is timed
{ nvidia-smi -L 2>/dev/null || echo "no nvidia-smi"; echo "cores: $(nproc)"; } | tee "$OUT/machine.txt"
"$bin/vqtwin" --list-devices 2>&1 | grep -E "^(cuda|vulkan) [0-9]|float twins" | head -6 | tee -a "$OUT/machine.txt"

# Sizes and lengths (SMALL=1: a dry run).
if [ "${SMALL:-0}" = 1 ]; then
  sizes=352x288 reps=3 short=12 long=30 mib=24 runs=1 secs=0.3 W=352 H=288
else
  sizes=1920x1080,3840x2160 reps=20 short=120 long=600 mib=2048 runs=3 secs=1.0 W=1920 H=1080
fi
# Inputs in memory where there is room (about 4.5 GiB at once), else on disk (then in the page cache).
DIR=${DIR:-/dev/shm}
avail=$(df -Pk "$DIR" 2>/dev/null | awk 'NR == 2 { print int($4 / 1048576) }')
if [ "${avail:-0}" -lt 6 ] && [ "${SMALL:-0}" != 1 ]; then
  echo "$DIR has ${avail:-0} GiB free: inputs go to /tmp"
  DIR=/tmp
fi
DIR=$DIR/vqtwin-speed.$$; mkdir -p "$DIR"
trap 'rm -rf "$DIR"' EXIT

# 1. Device time per twin per frame.
if ! skip twins; then
  timeout 100 "$bin/twin_device_time" --backend "$BACKENDS" --sizes "$sizes" --depths 8,10 --reps "$reps" \
    >"$OUT/twin_device_time.log" 2>&1
  rc=$?
  say "twin device time (ms per frame, median / mean / min of $reps frames; rc=$rc):"
  sed 's/^/SUMMARY:   /' "$OUT/twin_device_time.log" | tee -a "$OUT/summary.txt"
  # Side by side: each feature's median on CUDA and on Vulkan (its paths).
  "$PY" - "$OUT/twin_device_time.log" <<'PY' | sed 's/^/SUMMARY:   /' | tee -a "$OUT/summary.txt"
import re, sys
rows, cols = {}, []
for line in open(sys.argv[1]):
    m = re.match(r"(cuda|vulkan)\s+(\S+)\s+(-|\S+ \(\S+\))\s+(\d+x\d+ \d+-bit \S+)\s+([0-9.]+)\s", line)
    if not m:
        continue
    backend, twin, path, fmt, median = m.groups()
    feature = re.sub(r"_(cuda|vulkan)$", "", twin)
    # The device's own path in the backend's column, the forced fp64-free one beside it.
    col = f"{backend} nofp64" if path.startswith("nofp64") else backend
    if col not in cols:
        cols.append(col)
    rows.setdefault(feature, {}).setdefault(fmt, {})[col] = median
if rows:
    print(f"{'median ms':20} {'format':22} " + " ".join(f"{c:>14}" for c in cols))
    for feature in sorted(rows):
        for fmt, v in rows[feature].items():
            print(f"{feature:20} {fmt:22} " + " ".join(f"{v.get(c, '-'):>14}" for c in cols))
PY
fi

# 2. VMAF: engine and whole-process fps, Vulkan, CUDA and the CPU on the same inputs.
if ! skip vmaf && ! late "VMAF fps"; then
  timeout 130 "$bin/cli_throughput" --cli "$bin/vqtwin" --sizes "$sizes" --depths 8,10 --cases vmaf \
    --backends "${BACKENDS},cpu" --threads "$THREADS" --runs "$runs" --seconds "$secs" --mib "$mib" --dir "$DIR" \
    >"$OUT/cli_throughput.log" 2>&1
  rc=$?
  say "VMAF vmaf_v0.6.1, --threads $THREADS, median of $runs processes (rc=$rc): fps = frames / whole process; engine fps = the JSON's"
  sed 's/^/SUMMARY:   /' "$OUT/cli_throughput.log" | tee -a "$OUT/summary.txt"
  # Vulkan against CUDA, engine and whole process, per format (target: engine >= 70%).
  awk '$1 == "vmaf" && $7 ~ /^[0-9.]+$/ { f = $2 " " $3; fps[f, $4] = $7; eng[f, $4] = $8; if (!(f in seen)) { seen[f] = 1; order[n++] = f } }
       END { for (i = 0; i < n; i++) { f = order[i]
               if (eng[f, "cuda"] > 0 && eng[f, "vulkan"] > 0)
                 printf "SUMMARY: VMAF %s: vulkan/cuda engine fps %.1f / %.1f = %.0f%% (target >= 70%%); whole process %.1f / %.1f = %.0f%%\n",
                   f, eng[f, "vulkan"], eng[f, "cuda"], 100 * eng[f, "vulkan"] / eng[f, "cuda"], fps[f, "vulkan"], fps[f, "cuda"], 100 * fps[f, "vulkan"] / fps[f, "cuda"]
               split("cuda vulkan", bs, " ")
               for (k = 1; k <= 2; k++)
                 if (eng[f, bs[k]] > 0 && eng[f, "cpu"] > 0)
                   printf "SUMMARY: VMAF %s: %s/cpu engine fps %.1f / %.1f = %.2fx; whole process %.2fx\n", f, bs[k], eng[f, bs[k]], eng[f, "cpu"], eng[f, bs[k]] / eng[f, "cpu"], fps[f, bs[k]] / fps[f, "cpu"] } }' \
    "$OUT/cli_throughput.log" | tee -a "$OUT/summary.txt"
fi

# 3 and 4 run on one generated 1080p 8-bit pair of $long frames (24 distinct pictures, looped).
if ! skip presets || ! skip features; then
  s=$SECONDS
  "$PY" tools/device/gen_y4m.py "$DIR/ref.y4m" $W $H $long --distinct 24 &
  "$PY" tools/device/gen_y4m.py "$DIR/dist.y4m" $W $H $long --distinct 24 --dist &
  wait
  say "inputs: ${W}x${H} 8-bit, $long frames, written to $DIR in $((SECONDS - s)) s ($(du -sh "$DIR" | cut -f1))"
fi
# One whole process: prints its wall seconds; JSON in $OUT/TAG.json, stderr in $OUT/TAG.err.
run() {  # TAG BACKEND FRAMES ARGS...
  local tag=$1 be=$2 n=$3; shift 3
  local s e
  s=$(date +%s.%N)
  timeout "${RUN_TIMEOUT:-60}" "$bin/vqtwin" -q -r "$DIR/ref.y4m" -d "$DIR/dist.y4m" "$@" --backend "$be" \
    --threads "$THREADS" --frame_cnt "$n" --precision max --json -o "$OUT/$tag.json" 2>"$OUT/$tag.err"
  local rc=$?
  e=$(date +%s.%N)
  if [ $rc != 0 ]; then echo "FAILED[rc=$rc: $(grep -v warning "$OUT/$tag.err" | head -1 | cut -c1-120)]"; return 1; fi
  awk -v a="$s" -v b="$e" 'BEGIN { printf "%.3f", b - a }'
}
engine() { "$PY" -c "import json, sys; print('%.1f' % json.load(open(sys.argv[1])).get('fps', 0))" "$1" 2>/dev/null || echo 0; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2fx", a / b; else printf "n/a" }'; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.3f", a - b; else printf "n/a" }'; }

# 3. The presets, whole process, cpu against $DEV, and the values compared.
if ! skip presets; then
  for p in "--aom_ctc v7.0" "--nflx_ctc v1.0"; do
    for n in $short $long; do
      late "$p x$n" && continue
      tag=p_$(echo "$p" | tr -dc 'a-z0-9')_$n
      # shellcheck disable=SC2086
      tc=$(run ${tag}_cpu cpu $n $p); td=$(run ${tag}_$DEV $DEV $n $p)
      cmp=$("$PY" tools/device/json_same.py "$OUT/${tag}_cpu.json" "$OUT/${tag}_$DEV.json" 2>&1 | tail -1)
      say "$p ${W}x${H} x$n whole process: cpu $tc s, $DEV $td s: $DEV $(ratio "$tc" "$td") faster; $DEV vs cpu at --precision max: $cmp"
    done
  done
fi

# 4. Each feature alone, 600 frames; start-up from a 1-frame run of the same command.
if ! skip features; then
  for f in ${FEATURES_ALONE:-ciede psnr_hvs cambi float_ansnr float_moment speed_chroma speed_temporal}; do
    late "$f alone" && continue
    line="-n --feature $f ${W}x${H} x$long:"
    declare -A whole=() start=() eng=()
    for b in cpu $DEV; do
      start[$b]=$(run f_${f}_${b}_1 $b 1 -n --feature $f)
      whole[$b]=$(run f_${f}_$b $b $long -n --feature $f)
      eng[$b]=$(engine "$OUT/f_${f}_$b.json")
      line="$line $b ${whole[$b]} s (start-up ${start[$b]} s, engine ${eng[$b]} fps);"
    done
    once_cpu=$(minus "${whole[cpu]}" "${start[cpu]}"); once_dev=$(minus "${whole[$DEV]}" "${start[$DEV]}")
    cmp=$("$PY" tools/device/json_same.py "$OUT/f_${f}_cpu.json" "$OUT/f_${f}_$DEV.json" 2>&1 | tail -1)
    say "$line $DEV/cpu: whole process $(ratio "${whole[cpu]}" "${whole[$DEV]}"), once started (whole minus start-up) $(ratio "$once_cpu" "$once_dev"), engine fps $(ratio "${eng[$DEV]}" "${eng[cpu]}"); $cmp"
  done
fi

say "total $((SECONDS - t0)) s"
echo "=== summary"; cat "$OUT/summary.txt"
cp "$OUT/summary.txt" "$RESULT/speed_summary.txt" 2>/dev/null
tar -C "$OUT" -czf "$RESULT/speed_logs.tar.gz" --exclude='*.json' . 2>/dev/null
