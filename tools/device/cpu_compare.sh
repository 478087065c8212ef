#!/bin/bash
# Runs on the device machine, from the folder tools/device/prepare_cpu_compare.sh staged: the synthetic
# inputs are made there (both sizes at once), then bench/compare_with_libvmaf.sh times vqtwin against
# libvmaf at 1 thread and at every core. The table goes to stdout and to $OUT/cpu_compare.txt.
set -uo pipefail
stage=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp}
inputs=/tmp/vqtwin-cpu-inputs
mkdir -p "$inputs"
{
  echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "flags: $(grep -m1 '^flags' /proc/cpuinfo | grep -o 'avx512[a-z_0-9]*' | sort -u | tr '\n' ' ')"
  command -v lscpu >/dev/null && lscpu | grep -E '^(Thread|Core|Socket|CPU max MHz|L2|L3)' | tr -s ' ' | tr '\n' ';' && echo
  t0=$(date +%s)
  python3 "$stage/bench/make_synthetic_y4m.py" 1920 1080 60 "$inputs/fhd_ref.y4m" "$inputs/fhd_dist.y4m" &
  python3 "$stage/bench/make_synthetic_y4m.py" 3840 2160 30 "$inputs/uhd_ref.y4m" "$inputs/uhd_dist.y4m" &
  wait
  echo "inputs made in $(( $(date +%s) - t0 )) s"
  INPUT_DIR=$inputs STARTUP=1 RUNS=${RUNS:-3} RUNS_uhd=${RUNS_uhd:-1} SIZES="fhd uhd" \
    bash "$stage/bench/compare_with_libvmaf.sh" "$stage/bin/vmaf" "$stage/bin/vqtwin" "$stage"
  echo "total $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$out/cpu_compare.txt"
