#!/bin/bash
# A bitrate ladder in one pass against separate runs: a 1080p source against 8 renditions (x264 at
# 1080p, 720p, 540p, 360p, 270p and 216p; those under 1080p scaled back up with --scale auto), VMAF.
#   one pass:      vqtwin -r SRC -d R1 ... -d R8 --scale auto --threads T -o 'out/{index}.json'
#   separate runs: for each Ri: vqtwin -r SRC -d Ri --scale auto --threads T -o Ri.json   (one after another)
# with the source as y4m and as a compressed file (x264 at high quality: decoding it is work the pass
# does once). Same machine, same run, same --threads; the best wall time (and the CPU time of that run)
# of RUNS runs each; every rendition's output must be the same both ways (checked, but for fps).
#   bench/ladder.sh [VQTWIN_BIN]      (RUNS=2 FRAMES=48 THREADS=<cores> BACKEND=cpu|cuda GPU=0)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
vqtwin=${1:-$here/build/tools/vqtwin/vqtwin}
runs=${RUNS:-2}
frames=${FRAMES:-48}
threads=${THREADS:-$(nproc)}
backend=${BACKEND:-cpu}
gpu=${GPU:-0}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

ff() { ffmpeg -nostdin -loglevel error -y "$@"; }
ff -f lavfi -i "testsrc2=size=1920x1080:rate=24" -f lavfi -i "mandelbrot=size=1920x1080:rate=24" \
   -filter_complex "[0][1]blend=all_mode=average,format=yuv420p" -frames:v "$frames" "$tmp/src.y4m"
ff -i "$tmp/src.y4m" -c:v libx264 -preset veryfast -crf 8 "$tmp/src.mkv"
ladder=("1920x1080 23" "1920x1080 30" "1280x720 24" "1280x720 30" "960x540 27" "640x360 28" "480x270 30" "384x216 32")
rungs=() dargs=()
for i in "${!ladder[@]}"; do
  read -r size crf <<<"${ladder[$i]}"
  ff -i "$tmp/src.y4m" -vf "scale=${size/x/:}:flags=bicubic" -c:v libx264 -preset veryfast -crf "$crf" "$tmp/r$i.mp4"
  rungs+=("$tmp/r$i.mp4")
  dargs+=(-d "$tmp/r$i.mp4")
done
common=(--scale auto --threads "$threads" --json --precision max --backend "$backend")
[ "$backend" = cpu ] || common+=(--gpu "$gpu")

# "wall cpu" of the best of $runs runs of the function $1 (wall clock; CPU = user+sys of its processes).
best() {
  local bw=999999 bc=0 t0 c0 c1 w me=$BASHPID
  for _ in $(seq "$runs"); do
    c0=$(awk '{print $14+$15+$16+$17}' /proc/$me/stat)
    t0=$(date +%s.%N)
    "$1"
    w=$(echo "$(date +%s.%N) - $t0" | bc)
    # children's CPU (cutime + cstime) in clock ticks
    c1=$(awk '{print $14+$15+$16+$17}' /proc/$me/stat)
    if (( $(echo "$w < $bw" | bc) )); then bw=$w; bc=$(echo "($c1 - $c0) / $(getconf CLK_TCK)" | bc -l); fi
  done
  printf "%s %s\n" "$bw" "$bc"
}

one_pass() {
  rm -rf "$tmp/pass"; mkdir -p "$tmp/pass"
  "$vqtwin" -q -r "$src" "${dargs[@]}" "${common[@]}" -o "$tmp/pass/{index}.json" 2>/dev/null
}
separate() {
  rm -rf "$tmp/alone"; mkdir -p "$tmp/alone"
  for i in "${!rungs[@]}"; do
    "$vqtwin" -q -r "$src" -d "${rungs[$i]}" "${common[@]}" -o "$tmp/alone/$((i + 1)).json" 2>/dev/null
  done
}

echo "vqtwin $("$vqtwin" --version | cut -d' ' -f2), $frames frames of 1920x1080, 8 renditions, VMAF, --threads $threads, --backend $backend, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
printf "| source | one pass: wall s | CPU s | separate runs: wall s | CPU s | speed-up (wall) | rendition fps, one pass |\n|---|---|---|---|---|---|---|\n"
for src in "$tmp/src.y4m" "$tmp/src.mkv"; do
  read -r pw pc < <(best one_pass)
  read -r sw sc < <(best separate)
  for i in "${!rungs[@]}"; do
    diff <(grep -v '"fps"' "$tmp/pass/$((i + 1)).json") <(grep -v '"fps"' "$tmp/alone/$((i + 1)).json") >/dev/null ||
      { echo "rendition $((i + 1)) differs between the pass and its own run"; exit 1; }
  done
  printf "| %s | %.2f | %.2f | %.2f | %.2f | %.2fx | %.1f |\n" "${src##*.}" "$pw" "$pc" "$sw" "$sc" \
    "$(echo "$sw / $pw" | bc -l)" "$(echo "8 * $frames / $pw" | bc -l)"
done
echo "every rendition's output: identical both ways (all but fps)"
