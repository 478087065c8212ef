#!/bin/bash
# Stages what tools/device/final_checks.sh needs into STAGE (ignored by git, carried by the device
# tool): the CUDA build's binaries (gzipped: the tree travels up to 64 MiB) and the first frames of
# each decoded fixture pair. The binaries must come from a build with CUDA and the tests
# (tools/device/prepare.sh makes one; any build whose binaries need no Debian -dev libraries there).
#   tools/device/stage_final.sh BUILD_DIR FIXTURES_DIR [STAGE]
# then one device call: carry [STAGE], command "STAGE=STAGE BUDGET=300 bash tools/device/final_checks.sh"
set -euo pipefail
build=${1:?BUILD_DIR}; fixtures=${2:?FIXTURES_DIR}; stage=${3:-.device}
here=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$stage" && mkdir -p "$stage/bin" "$stage/fixtures"
for b in tools/vqtwin/vqtwin tests/twin_harness tests/cuda_tests tests/float_ssim_decimation_check_vulkan tests/float_ms_ssim_soft_check \
         bench/cli_throughput bench/cuda_seeds_bench bench/cuda_bench bench/twin_device_time tests/cuda_hog; do
  [ -x "$build/$b" ] && gzip -c "$build/$b" >"$stage/bin/$(basename "$b").gz"
done
for y in "$fixtures"/*.y4m; do
  n=6
  case "$y" in *1280x720*) n=2 ;; *853x480*) n=3 ;; esac
  python3 "$here/tools/device/cut_y4m.py" "$y" "$stage/fixtures/$(basename "$y")" $n
done
du -sh "$stage"
