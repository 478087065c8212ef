#!/bin/bash
# Where a CUDA run's start-up goes, for the presets and one small feature: VQTWIN_REPORT_STARTUP=1 lines
# (each step with the time since the process started) of `--backend cuda` runs on a generated 1080p 8-bit pair
# (120 frames, and 1 frame), twice each (the second shows a warm page cache and driver), with the whole
# process's time. With a second vqtwin (another build), both are then timed on the presets, x120, 5 runs
# each interleaved, medians side by side. One short device call (about a minute):
#   bash tools/device/startup_breakdown.sh VQTWIN_OR_BIN_DIR [OTHER_VQTWIN]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
v=${1:?VQTWIN or a bin folder}
[ -d "$v" ] && { v=$(find_bin "$v" vqtwin) || exit 2; }
D=/dev/shm/vqtwin_startup; mkdir -p "$D"
[ -s "$D/r.y4m" ] || python3 "$here/gen_y4m.py" "$D/r.y4m" 1920 1080 120
[ -s "$D/d.y4m" ] || python3 "$here/gen_y4m.py" "$D/d.y4m" 1920 1080 120 --dist
nvidia-smi -L 2>/dev/null | head -1; echo "cores: $(nproc); CUDA_MODULE_LOADING=${CUDA_MODULE_LOADING:-unset}"
for args in "--aom_ctc v7.0" "--nflx_ctc v1.0" "-n --feature psnr"; do
  for n in 120 1; do
    for rep in 1 2; do
      s=$(date +%s.%N)
      VQTWIN_REPORT_STARTUP=1 "$v" -q -r "$D/r.y4m" -d "$D/d.y4m" $args --frame_cnt $n --backend cuda --threads 16 \
        --json -o "$D/out.json" 2>"$D/err"
      rc=$?
      echo "== $args x$n run $rep: rc $rc, whole $(python3 -c "print(f'{$(date +%s.%N) - $s:.3f}')") s"
      [ "$rep" = 2 ] && sed 's/^/   /' "$D/err"
    done
  done
done

other=${2:-}
[ -n "$other" ] || exit 0
for args in "--aom_ctc v7.0" "--nflx_ctc v1.0"; do
  a=() b=()
  for rep in 1 2 3 4 5; do
    for which in v other; do
      bin=$v; [ $which = other ] && bin=$other
      s=$(date +%s.%N)
      "$bin" -q -r "$D/r.y4m" -d "$D/d.y4m" $args --backend cuda --threads 16 --json -o "$D/$which.json" 2>/dev/null
      t=$(python3 -c "print(f'{$(date +%s.%N) - $s:.3f}')")
      [ $which = v ] && a+=("$t") || b+=("$t")
    done
  done
  med() { printf '%s\n' "$@" | sort -n | sed -n 3p; }
  echo "SUMMARY: $args x120 --backend cuda, median of 5: $(basename "$v") $(med "${a[@]}") s (${a[*]}); $(basename "$other") $(med "${b[@]}") s (${b[*]}); same values: $(python3 "$here/json_same.py" "$D/v.json" "$D/other.json" | head -c 60)"
done
