#!/bin/bash
# Stages bench/compare_with_libvmaf.sh for the device machine's host CPU (which has no ffmpeg and no
# compiler we rely on): vqtwin built here without FFmpeg and with a static C++ runtime, the libvmaf
# `vmaf` binary you give (build it static, with its assembly: README "Performance"), the comparison
# script, the synthetic-input generator (python3 + numpy there) and tools/device/cpu_compare.sh.
#   tools/device/prepare_cpu_compare.sh VMAF_BIN [STAGE_DIR]
# Then, in ONE device call: carry [STAGE_DIR], command "bash STAGE_DIR/cpu_compare.sh" (it writes the
# table to $OUT/cpu_compare.txt). STAGE_DIR (default .device-cpu) must be ignored by git.
set -euo pipefail
vmaf=${1:?usage: prepare_cpu_compare.sh VMAF_BIN [STAGE_DIR]}
cd "$(dirname "$0")/../.."
stage=${2:-.device-cpu}
build=build-cpubench
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DVQTWIN_FFMPEG=OFF -DVQTWIN_CUDA=OFF \
  -DVQTWIN_TESTS=OFF -DVQTWIN_BENCH=OFF -DVQTWIN_STATIC_RUNTIME=ON >/dev/null
cmake --build "$build" --target vqtwin
rm -rf "$stage" && mkdir -p "$stage/bin" "$stage/bench"
cp "$build/tools/vqtwin/vqtwin" "$vmaf" "$stage/bin/"
[[ $(basename "$vmaf") == vmaf ]] || mv "$stage/bin/$(basename "$vmaf")" "$stage/bin/vmaf"
cp bench/compare_with_libvmaf.sh bench/make_synthetic_y4m.py "$stage/bench/"
cp tools/device/cpu_compare.sh "$stage/"
du -sh "$stage"
