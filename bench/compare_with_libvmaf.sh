#!/bin/bash
# Runs vqtwin's CLI and libvmaf's `vmaf` CLI on the same y4m pairs, same features, same thread count,
# and prints whole-process frames per second (best of N runs) and the ratio. The libvmaf binary is
# yours to provide (this project never builds it). Inputs: the shared 576x324 pair, and ffmpeg
# upscales of it to 1920x1080 and 3840x2160 (lanczos), made in a temporary folder.
#   bench/compare_with_libvmaf.sh VMAF_BIN [VQTWIN_BIN] [SHARED_DIR]
# FEATURES picks what is timed (default: all below; "vmaf_v1.0.16" is the v1.0.16_3d0h model (cambi,
# speed_chroma, integer ADM and motion); "aom_ctc_v6.0" / "nflx_ctc_v1.0" are the presets), SIZES the inputs
# (default "sd fhd uhd"), THREADS the thread counts (default "1 2"). CLOCK=cpu times user + system CPU seconds
# instead of wall seconds (steadier on a shared machine; the fps column is then frames per CPU second).
set -euo pipefail
vmaf=${1:?usage: compare_with_libvmaf.sh VMAF_BIN [VQTWIN_BIN] [SHARED_DIR]}
here=$(cd "$(dirname "$0")/.." && pwd)
vqtwin=${2:-$here/build/tools/vqtwin/vqtwin}
shared=${3:-$here/../shared}
runs=${RUNS:-3}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

for side in ref dist; do
  ffmpeg -nostdin -loglevel error -i "$shared/fixtures/sd_576x324_8bit_420_$side.mkv" -f yuv4mpegpipe "$tmp/sd_$side.y4m"
  ffmpeg -nostdin -loglevel error -i "$tmp/sd_$side.y4m" -frames:v 24 -vf scale=1920:1080:flags=lanczos -pix_fmt yuv420p -f yuv4mpegpipe "$tmp/fhd_$side.y4m"
  ffmpeg -nostdin -loglevel error -i "$tmp/sd_$side.y4m" -frames:v 8 -vf scale=3840:2160:flags=lanczos -pix_fmt yuv420p -f yuv4mpegpipe "$tmp/uhd_$side.y4m"
done
declare -A frames=([sd]=48 [fhd]=24 [uhd]=8)

best() {  # best time in seconds (wall, or CPU with CLOCK=cpu) of $runs runs of "$@"
  local b=
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$@" >/dev/null 2>&1 || { echo fail; return; }
    b=$(awk -v c="${CLOCK:-wall}" -v b="${b:-1e9}" '{d=(c=="cpu")?$2+$3:$1; print (d<b)?d:b}' "$tmp/time")
  done
  echo "$b"
}

printf '%-14s %-6s %-3s %12s %12s %7s\n' feature size thr vqtwin_fps libvmaf_fps ratio
for size in ${SIZES:-sd fhd uhd}; do
  r=$tmp/${size}_ref.y4m d=$tmp/${size}_dist.y4m n=${frames[$size]}
  for feat in ${FEATURES:-psnr float_ssim float_motion vmaf cambi speed_chroma speed_temporal vmaf_v1.0.16 ciede psnr_hvs float_ansnr float_moment aom_ctc_v6.0 nflx_ctc_v1.0}; do
    if [[ $feat == vmaf ]]; then
      ours=(--model version=vmaf_v0.6.1) theirs=(--model path="$shared/models/vmaf_v0.6.1.json")
    elif [[ $feat == vmaf_v1.0.16 ]]; then
      ours=(--model version=vmaf_v1.0.16_3d0h) theirs=(--model path="$shared/models/vmaf_v1.0.16_3d0h.json")
    elif [[ $feat == *_ctc_* ]]; then  # a preset: libvmaf's built-in models on both sides
      ours=(--"${feat%_v*}" "v${feat##*_v}") theirs=("${ours[@]}")
    else
      ours=(--no_prediction --feature "$feat") theirs=(--no_prediction --feature "$feat")
    fi
    for thr in ${THREADS:-1 2}; do
      a=$(VQTWIN_MODEL_PATH=$shared/models best "$vqtwin" -q -r "$r" -d "$d" "${ours[@]}" --threads "$thr" --json -o /dev/null)
      b=$(best "$vmaf" -q -r "$r" -d "$d" "${theirs[@]}" --threads "$thr" --json -o /dev/null)
      awk -v f="$feat" -v s="$size" -v t="$thr" -v n="$n" -v a="$a" -v b="$b" \
        'BEGIN { if (a=="fail"||b=="fail") { printf "%-14s %-6s %-3s %12s %12s\n", f, s, t, a, b; exit }
                 printf "%-14s %-6s %-3s %12.4g %12.4g %6.2fx\n", f, s, t, n/a, n/b, b/a }'
    done
  done
done
