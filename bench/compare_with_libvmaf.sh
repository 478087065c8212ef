#!/bin/bash
# Runs vqtwin's CLI and libvmaf's `vmaf` CLI on the same y4m pairs, same features, same thread counts,
# interleaved (vqtwin, libvmaf, vqtwin, ...), and prints whole-process frames per second (the median of
# RUNS runs: y4m reading, start-up and exit included) and their ratio. The libvmaf binary is yours to
# provide (this project never builds it; the README says how the figures there were made).
#   bench/compare_with_libvmaf.sh VMAF_BIN [VQTWIN_BIN] [SHARED_DIR]
# Environment:
#   INPUTS    synthetic (default): 8-bit 4:2:0 pairs from bench/make_synthetic_y4m.py (python3 with numpy;
#             576x324 96 frames, 1920x1080 60 frames, 3840x2160 30 frames), or fixtures: the shared
#             576x324 pair (48 frames) and ffmpeg lanczos upscales of it (1920x1080 48, 3840x2160 24)
#   INPUT_DIR keep the inputs there and reuse them on the next run (default: a temporary folder)
#   SIZES     which inputs (default "fhd uhd"; also "sd")
#   FEATURES  what is timed (default "vmaf float_ssim psnr"): "vmaf" is the vmaf_v0.6.1 model (built into
#             both programs), "vmaf_v1.0.16" the v1.0.16_3d0h model (needs SHARED_DIR/models),
#             "aom_ctc_v6.0" / "nflx_ctc_v1.0" the presets, any other word one extractor with --no_prediction
#   THREADS   thread counts (default "1 N", N = the cores here)
#   RUNS      runs per cell (default 3); RUNS_sd, RUNS_fhd, RUNS_uhd per size. The fps columns are each
#             program's median; the ratio is the median of the RUNS per-pair ratios (each vqtwin run against
#             the libvmaf run right after it), which a machine whose speed drifts disturbs less
#   CLOCK=cpu user + system CPU seconds instead of wall seconds (needs /usr/bin/time; fps per CPU second)
#             (10 ms steps: a median of 0 prints <10ms)
#   STARTUP=1 also prints each program's start-up: the median wall time of `--version`
set -euo pipefail
vmaf=${1:?usage: compare_with_libvmaf.sh VMAF_BIN [VQTWIN_BIN] [SHARED_DIR]}
here=$(cd "$(dirname "$0")/.." && pwd)
vqtwin=${2:-$here/build/tools/vqtwin/vqtwin}
shared=${3:-$here/../shared}
runs=${RUNS:-3}
cores=$(nproc)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
inputs=${INPUT_DIR:-$tmp}
mkdir -p "$inputs"

declare -A frames dims
dims=([sd]="576 324" [fhd]="1920 1080" [uhd]="3840 2160")
if [[ ${INPUTS:-synthetic} == synthetic ]]; then
  frames=([sd]=96 [fhd]=60 [uhd]=30)
  python=${PYTHON:-python3}
  "$python" -c 'import numpy' 2>/dev/null || python=/usr/bin/python3
  for size in ${SIZES:-fhd uhd}; do
    r=$inputs/${size}_ref.y4m d=$inputs/${size}_dist.y4m
    [[ -s $r && -s $d ]] || "$python" "$here/bench/make_synthetic_y4m.py" ${dims[$size]} "${frames[$size]}" "$r" "$d"
  done
else
  frames=([sd]=48 [fhd]=48 [uhd]=24)
  for side in ref dist; do
    sd=$inputs/sd_$side.y4m
    [[ -s $sd ]] || ffmpeg -nostdin -loglevel error -i "$shared/fixtures/sd_576x324_8bit_420_$side.mkv" -f yuv4mpegpipe "$sd"
    for size in fhd uhd; do
      out=$inputs/${size}_$side.y4m
      read -r w h <<<"${dims[$size]}"
      [[ -s $out ]] || ffmpeg -nostdin -loglevel error -i "$sd" -frames:v "${frames[$size]}" \
        -vf "scale=$w:$h:flags=lanczos" -pix_fmt yuv420p -f yuv4mpegpipe "$out"
    done
  done
fi

# Seconds (wall, or CPU with CLOCK=cpu) of one run of "$@"; "fail" when it fails.
seconds() {
  if [[ ${CLOCK:-wall} == cpu ]]; then
    /usr/bin/time -f "%U %S" -o "$tmp/time" "$@" >/dev/null 2>&1 || { echo fail; return; }
    awk '{ print $1 + $2 }' "$tmp/time"
  else
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1 || { echo fail; return; }
    t1=$(date +%s%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", (b - a) / 1e9 }'
  fi
}
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { if (NR == 0 || v[1] == "fail") print "fail"; else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

if [[ ${STARTUP:-0} == 1 ]]; then
  a="" b=""
  for _ in $(seq 9); do
    a+=" $(seconds "$vqtwin" --version)"
    b+=" $(seconds "$vmaf" --version)"
  done
  printf 'start-up (--version, median of 9): vqtwin %.1f ms, libvmaf %.1f ms\n' \
    "$(echo "$a" | median | awk '{ print $1 * 1000 }')" "$(echo "$b" | median | awk '{ print $1 * 1000 }')"
fi

declare -A label=([sd]=576x324 [fhd]=1080p [uhd]=4K)
thread_list=${THREADS:-1 $cores}
echo "| | threads | vqtwin fps | libvmaf fps | ratio |"
echo "|---|---|---|---|---|"
for size in ${SIZES:-fhd uhd}; do
  r=$inputs/${size}_ref.y4m d=$inputs/${size}_dist.y4m n=${frames[$size]}
  size_runs=RUNS_$size
  size_runs=${!size_runs:-$runs}
  for feat in ${FEATURES:-vmaf float_ssim psnr}; do
    if [[ $feat == vmaf ]]; then
      ours=(--model version=vmaf_v0.6.1) theirs=(--model version=vmaf_v0.6.1) name=VMAF
    elif [[ $feat == vmaf_v1.0.16 ]]; then
      ours=(--model version=vmaf_v1.0.16_3d0h) theirs=(--model path="$shared/models/vmaf_v1.0.16_3d0h.json")
      name="VMAF v1.0.16_3d0h"
    elif [[ $feat == *_ctc_* ]]; then  # a preset: libvmaf's built-in models on both sides
      ours=(--"${feat%_v*}" "v${feat##*_v}") theirs=("${ours[@]}") name=$feat
    else
      ours=(--no_prediction --feature "$feat") theirs=(--no_prediction --feature "$feat") name=$feat
    fi
    ours_fps="" theirs_fps="" ratios=""
    for thr in $thread_list; do
      a="" b="" pairs=""
      for _ in $(seq "$size_runs"); do
        ta=$(VQTWIN_MODEL_PATH=$shared/models seconds "$vqtwin" -q -r "$r" -d "$d" "${ours[@]}" --threads "$thr" --json -o /dev/null)
        tb=$(seconds "$vmaf" -q -r "$r" -d "$d" "${theirs[@]}" --threads "$thr" --json -o /dev/null)
        a+=" $ta" b+=" $tb"
        # The ratio of the two runs made one after the other: the machine's speed drifts (a shared VM by
        # +-25% over minutes), and a pair sees the same drift where two separate medians need not.
        pairs+=" $(awk -v a="$ta" -v b="$tb" 'BEGIN { print (a == "fail" || b == "fail" || a == 0 || b == 0) ? "fail" : b / a }')"
      done
      a=$(echo "$a" | median) b=$(echo "$b" | median) p=$(echo "$pairs" | median)
      read -r fa fb ra < <(awk -v n="$n" -v a="$a" -v b="$b" -v p="$p" 'BEGIN {
        if (a == "fail" || b == "fail") { print (a == "fail" ? "fail" : sprintf("%.1f", n / a)), (b == "fail" ? "fail" : sprintf("%.1f", n / b)), "-"; exit }
        # CLOCK=cpu counts 10 ms steps: a run under one step reads 0 s.
        if (a == 0 || b == 0) { print (a == 0 ? "<10ms" : sprintf("%.1f", n / a)), (b == 0 ? "<10ms" : sprintf("%.1f", n / b)), "-"; exit }
        printf "%.1f %.1f %.2f\n", n / a, n / b, p }')
      ours_fps+="${ours_fps:+ / }$fa" theirs_fps+="${theirs_fps:+ / }$fb" ratios+="${ratios:+ / }$ra"
    done
    echo "| ${label[$size]} $name | ${thread_list// / \/ } | $ours_fps | $theirs_fps | $ratios |"
  done
done
