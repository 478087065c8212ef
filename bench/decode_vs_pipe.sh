#!/bin/bash
# VMAF straight from compressed 1080p files (vqtwin decodes through libavcodec, both inputs at once,
# on threads) against the usual pipeline that decodes with the ffmpeg CLI into y4m pipes:
#   vqtwin -r ref.mp4 -d dist.mp4
#   vqtwin -r <(ffmpeg -i ref.mp4 -f yuv4mpegpipe -) -d <(ffmpeg -i dist.mp4 -f yuv4mpegpipe -)
# same machine, same run, same --threads, best wall time of N runs; both must print the same VMAF.
# The pair: the shared 576x324 reference upscaled to 1920x1080 (lanczos), encoded at high quality
# (the reference) and at low quality (the distorted) with x264, x265 and SVT-AV1, in a temporary folder.
#   bench/decode_vs_pipe.sh [VQTWIN_BIN] [SHARED_DIR]      (RUNS=3 FRAMES=48 THREADS=<cores>)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
vqtwin=${1:-$here/build/tools/vqtwin/vqtwin}
shared=${2:-$here/../shared}
runs=${RUNS:-3}
frames=${FRAMES:-48}
threads=${THREADS:-$(nproc)}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

ff() { SVT_LOG=1 ffmpeg -nostdin -loglevel error -y "$@"; }
ff -i "$shared/fixtures/sd_576x324_8bit_420_ref.mkv" -frames:v "$frames" -vf scale=1920:1080:flags=lanczos \
   -pix_fmt yuv420p -f yuv4mpegpipe "$tmp/src.y4m"
declare -A enc=(
  [h264]="-c:v libx264 -preset medium"
  [hevc]="-c:v libx265 -preset fast -x265-params log-level=error"
  [av1]="-c:v libsvtav1 -preset 8"
)
declare -A hq=([h264]="-crf 12" [hevc]="-crf 14" [av1]="-crf 18")
declare -A lq=([h264]="-crf 32" [hevc]="-crf 34" [av1]="-crf 48")
for c in h264 hevc av1; do
  # shellcheck disable=SC2086
  ff -i "$tmp/src.y4m" ${enc[$c]} ${hq[$c]} "$tmp/ref_$c.mkv"
  # shellcheck disable=SC2086
  ff -i "$tmp/src.y4m" ${enc[$c]} ${lq[$c]} "$tmp/dist_$c.mkv"
done

best() {  # best wall time (s) of $runs runs of the shell command $1; the VMAF it printed in $tmp/vmaf
  local b=1e9
  for _ in $(seq "$runs"); do
    local t0 t1; t0=$(date +%s.%N)
    bash -c "$1" > "$tmp/out.txt" 2>/dev/null || { echo fail; return; }
    t1=$(date +%s.%N)
    b=$(echo "$t0 $t1 $b" | awk '{d=$2-$1; print (d<$3)?d:$3}')
  done
  grep '^vmaf:' "$tmp/out.txt" > "$tmp/vmaf"
  echo "$b"
}

echo "vqtwin $("$vqtwin" --version | cut -d' ' -f2), $frames frames of 1920x1080, --threads $threads, best of $runs, $(nproc) cores"
printf '%-6s %14s %14s %8s  %s\n' codec direct_fps pipeline_fps speedup vmaf
for c in h264 hevc av1; do
  direct="'$vqtwin' -q --threads $threads -r '$tmp/ref_$c.mkv' -d '$tmp/dist_$c.mkv'"
  pipe="'$vqtwin' -q --threads $threads -r <(ffmpeg -nostdin -loglevel error -i '$tmp/ref_$c.mkv' -f yuv4mpegpipe -) \
        -d <(ffmpeg -nostdin -loglevel error -i '$tmp/dist_$c.mkv' -f yuv4mpegpipe -)"
  td=$(best "$direct"); vd=$(cat "$tmp/vmaf")
  tp=$(best "$pipe"); vp=$(cat "$tmp/vmaf")
  [[ "$vd" == "$vp" ]] || { echo "$c: different VMAF: direct '$vd', pipeline '$vp'"; exit 1; }
  awk -v c="$c" -v n="$frames" -v a="$td" -v b="$tp" -v v="${vd#vmaf: }" \
    'BEGIN { printf "%-6s %14.1f %14.1f %7.2fx  %s\n", c, n / a, n / b, b / a, v }'
done
