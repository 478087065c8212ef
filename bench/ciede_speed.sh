#!/bin/bash
# ciede through the CLI at 1080p 4:2:0, two vqtwin runs (before / after) on the same pairs:
#   "clean":   testsrc2 (large flat areas) against its x264 CRF 32 encode: about one pixel in nine differs;
#   "grain":   testsrc2 with temporal noise against its x264 CRF 28 encode: nearly every pixel differs and
#              nearly every differing pair of colours is new (the case where ciede's per-pixel math decides);
#   "grain10": the same at 10 bits (noise added to the 10-bit picture, x264 High 10).
# BEFORE is a vqtwin binary, or the word `scalar`: AFTER's binary with VQTWIN_CIEDE_PATH=scalar (ciede's
# scalar reference: math.hpp per pixel with the C library's functions, no memo, no batches).
# Prints, per run and pair, the median of RUNS runs: wall seconds, CPU seconds (user + system) and
# frames per CPU second; and checks that both print the same per-frame ciede2000 values.
#   bench/ciede_speed.sh BEFORE_BIN|scalar AFTER_BIN        (RUNS=5 FRAMES=20 THREADS=2 PAIRS="clean grain grain10")
set -euo pipefail
before=$1 after=$2
runs=${RUNS:-5} frames=${FRAMES:-20} threads=${THREADS:-2} pairs=${PAIRS:-clean grain grain10}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ff() { ffmpeg -nostdin -loglevel error -y "$@"; }
dur=$(awk -v f="$frames" 'BEGIN { print f / 25 }')
ff -f lavfi -i "testsrc2=size=1920x1080:rate=25:duration=$dur" -pix_fmt yuv420p "$tmp/clean_ref.y4m"
ff -i "$tmp/clean_ref.y4m" -c:v libx264 -crf 32 -preset veryfast "$tmp/clean.mp4"
ff -i "$tmp/clean.mp4" -pix_fmt yuv420p "$tmp/clean_dist.y4m"
ff -f lavfi -i "testsrc2=size=1920x1080:rate=25:duration=$dur" -vf noise=alls=12:allf=t -pix_fmt yuv420p "$tmp/grain_ref.y4m"
ff -i "$tmp/grain_ref.y4m" -c:v libx264 -crf 28 -preset veryfast "$tmp/grain.mp4"
ff -i "$tmp/grain.mp4" -pix_fmt yuv420p "$tmp/grain_dist.y4m"
ff -f lavfi -i "testsrc2=size=1920x1080:rate=25:duration=$dur" -vf format=yuv420p10le,noise=alls=12:allf=t \
  -pix_fmt yuv420p10le -strict -1 "$tmp/grain10_ref.y4m"
ff -i "$tmp/grain10_ref.y4m" -c:v libx264 -profile:v high10 -pix_fmt yuv420p10le -crf 28 -preset veryfast "$tmp/grain10.mp4"
ff -i "$tmp/grain10.mp4" -pix_fmt yuv420p10le -strict -1 "$tmp/grain10_dist.y4m"

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for pair in $pairs; do
  for which in before after; do
    bin=${!which} path=fast
    if [ "$bin" = scalar ]; then bin=$after path=scalar; fi
    : > "$tmp/wall" ; : > "$tmp/cpu"
    for ((i = 0; i < runs; ++i)); do
      VQTWIN_CIEDE_PATH=$path /usr/bin/time -f "%e %U %S" -o "$tmp/t" "$bin" -r "$tmp/${pair}_ref.y4m" -d "$tmp/${pair}_dist.y4m" -n \
        --feature ciede --threads "$threads" --precision max --json -o "$tmp/$which.json" > /dev/null
      read -r e u s < "$tmp/t"
      echo "$e" >> "$tmp/wall"; awk -v u="$u" -v s="$s" 'BEGIN { print u + s }' >> "$tmp/cpu"
    done
    w=$(median < "$tmp/wall") c=$(median < "$tmp/cpu")
    printf -v "cpu_$which" '%s' "$c"
    printf '%-7s %-6s frames %d threads %d: wall %.2f s (%.1f fps), CPU %.2f s (%.2f frames per CPU second)\n' \
      "$pair" "$which$([ $path = scalar ] && echo ' (scalar reference)')" "$frames" "$threads" "$w" "$(awk -v f="$frames" -v w="$w" 'BEGIN { print f / w }')" "$c" \
      "$(awk -v f="$frames" -v c="$c" 'BEGIN { print f / c }')"
  done
  if cmp -s <(grep -o '"ciede2000": *[^,}]*' "$tmp/before.json") <(grep -o '"ciede2000": *[^,}]*' "$tmp/after.json"); then
    echo "$pair: identical ciede2000 values ($(grep -c '"ciede2000"' "$tmp/after.json") lines); after / before, frames per CPU second: $(awk -v b="$cpu_before" -v a="$cpu_after" 'BEGIN { printf "%.2fx", b / a }')"
  else
    echo "$pair: ciede2000 values DIFFER"; exit 1
  fi
done
