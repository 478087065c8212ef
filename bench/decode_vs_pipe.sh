#!/bin/bash
# VMAF straight from compressed 1080p files (vqtwin decodes through libavcodec, both inputs at once,
# on threads) against the usual pipeline that decodes with the ffmpeg CLI into y4m pipes:
#   vqtwin -r ref.mp4 -d dist.mp4
#   ffmpeg -i ref.mp4 -f yuv4mpegpipe r.fifo & ffmpeg -i dist.mp4 -f yuv4mpegpipe d.fifo &
#   vqtwin -r r.fifo -d d.fifo
# same machine, same run, same --threads: the best wall time (frames per second) and the best CPU time
# of all processes (ms per frame) of N runs; both must print the same VMAF.
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

best() {  # "wall cpu": the best wall time and the best CPU time (user+sys, every process) in seconds of
          # $runs runs of the shell command $1; the VMAF it printed goes to $tmp/vmaf
  local bw=1e9 bc=1e9
  for _ in $(seq "$runs"); do
    local TIMEFORMAT='%R %U %S'
    { time bash -c "$1" > "$tmp/out.txt" 2>/dev/null; } 2> "$tmp/time.txt" || { echo "fail fail"; return; }
    read -r w u s < "$tmp/time.txt"
    bw=$(awk -v a="$w" -v b="$bw" 'BEGIN { print (a < b) ? a : b }')
    bc=$(awk -v a="$u" -v c="$s" -v b="$bc" 'BEGIN { print (a + c < b) ? a + c : b }')
  done
  grep '^vmaf:' "$tmp/out.txt" > "$tmp/vmaf"
  echo "$bw $bc"
}

echo "vqtwin $("$vqtwin" --version | cut -d' ' -f2), $frames frames of 1920x1080, --threads $threads, best of $runs, $(nproc) cores"
printf '%-6s %11s %13s %8s %15s %17s  %s\n' codec direct_fps pipeline_fps speedup direct_cpu_ms/f pipeline_cpu_ms/f vmaf
for c in h264 hevc av1; do
  direct="'$vqtwin' -q --threads $threads -r '$tmp/ref_$c.mkv' -d '$tmp/dist_$c.mkv'"
  # Named pipes and an explicit wait: every ffmpeg is a reaped child, so its CPU time is counted.
  pipe="rm -f '$tmp/r.fifo' '$tmp/d.fifo'; mkfifo '$tmp/r.fifo' '$tmp/d.fifo'
        ffmpeg -nostdin -loglevel error -i '$tmp/ref_$c.mkv' -f yuv4mpegpipe -y '$tmp/r.fifo' &
        ffmpeg -nostdin -loglevel error -i '$tmp/dist_$c.mkv' -f yuv4mpegpipe -y '$tmp/d.fifo' &
        '$vqtwin' -q --threads $threads -r '$tmp/r.fifo' -d '$tmp/d.fifo'; s=\$?; wait; exit \$s"
  read -r td cd < <(best "$direct"); vd=$(cat "$tmp/vmaf")
  read -r tp cp < <(best "$pipe"); vp=$(cat "$tmp/vmaf")
  [[ "$vd" == "$vp" ]] || { echo "$c: different VMAF: direct '$vd', pipeline '$vp'"; exit 1; }
  awk -v c="$c" -v n="$frames" -v a="$td" -v b="$tp" -v x="$cd" -v y="$cp" -v v="${vd#vmaf: }" \
    'BEGIN { printf "%-6s %11.1f %13.1f %7.2fx %15.1f %17.1f  %s\n", c, n / a, n / b, b / a, 1000 * x / n, 1000 * y / n, v }'
done
