#!/bin/bash
# Where a device run's time goes before its first frame and after its last: VQTWIN_REPORT_STARTUP=1 lines
# (each step with the time since the process started, from the device's check to `exiting`) of runs on
# generated 8-bit pairs, twice each (the second shows a warm page cache and driver), with the whole process's
# time (what follows `exiting` is the driver's teardown and the process's end): the presets and psnr on
# 1080p x120 and x1, `--backend cuda`; VMAF on 4K x300, `cuda` and `auto` (UHD=0 leaves it out). With a
# second vqtwin (another build), both are then timed, 5 runs each interleaved, medians
# side by side, on every run. One short device call (about two minutes):
#   bash tools/device/startup_breakdown.sh VQTWIN_OR_BIN_DIR [OTHER_VQTWIN]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
v=${1:?VQTWIN or a bin folder}
[ -d "$v" ] && { v=$(find_bin "$v" vqtwin) || exit 2; }
D=/dev/shm/vqtwin_startup; mkdir -p "$D"
[ -s "$D/r.y4m" ] || python3 "$here/gen_y4m.py" "$D/r.y4m" 1920 1080 120
[ -s "$D/d.y4m" ] || python3 "$here/gen_y4m.py" "$D/d.y4m" 1920 1080 120 --dist
runs=("r|cuda|--aom_ctc v7.0|120" "r|cuda|--aom_ctc v7.0|1" "r|cuda|--nflx_ctc v1.0|120" "r|cuda|--nflx_ctc v1.0|1"
      "r|cuda|-n --feature psnr|120")
if [ "${UHD:-1}" = 1 ]; then
  [ -s "$D/ur.y4m" ] || python3 "$here/gen_y4m.py" "$D/ur.y4m" 3840 2160 300
  [ -s "$D/ud.y4m" ] || python3 "$here/gen_y4m.py" "$D/ud.y4m" 3840 2160 300 --dist
  runs+=("ur|cuda|--model version=vmaf_v0.6.1|300" "ur|auto|--model version=vmaf_v0.6.1|300")
fi
nvidia-smi -L 2>/dev/null | head -1; echo "cores: $(nproc); CUDA_MODULE_LOADING=${CUDA_MODULE_LOADING:-unset}"
for r in "${runs[@]}"; do
  IFS='|' read -r clip backend args n <<<"$r"
  for rep in 1 2; do
    s=$(date +%s.%N)
    VQTWIN_REPORT_STARTUP=1 "$v" -q -r "$D/$clip.y4m" -d "$D/${clip/r/d}.y4m" $args --frame_cnt $n --backend $backend \
      --threads 16 --json -o "$D/out.json" 2>"$D/err"
    rc=$?
    echo "== $clip $args x$n --backend $backend run $rep: rc $rc, whole $(python3 -c "print(f'{$(date +%s.%N) - $s:.3f}')") s"
    [ "$rep" = 2 ] && sed 's/^/   /' "$D/err"
  done
done

other=${2:-}
[ -n "$other" ] || exit 0
# The same runs, both builds, 5 each interleaved (no report), medians side by side.
for r in "${runs[@]}"; do
  IFS='|' read -r clip backend args n <<<"$r"
  a=() b=()
  for rep in 1 2 3 4 5; do
    for which in v other; do
      bin=$v; [ $which = other ] && bin=$other
      s=$(date +%s.%N)
      "$bin" -q -r "$D/$clip.y4m" -d "$D/${clip/r/d}.y4m" $args --frame_cnt $n --backend $backend --threads 16 \
        --json -o "$D/$which.json" 2>/dev/null
      t=$(python3 -c "print(f'{$(date +%s.%N) - $s:.3f}')")
      [ $which = v ] && a+=("$t") || b+=("$t")
    done
  done
  med() { printf '%s\n' "$@" | sort -n | sed -n 3p; }
  echo "SUMMARY: $clip $args x$n --backend $backend, median of 5: $(basename "$v") $(med "${a[@]}") s (${a[*]}); $(basename "$other") $(med "${b[@]}") s (${b[*]}); $(python3 "$here/json_same.py" "$D/v.json" "$D/other.json" | head -c 40)"
done
