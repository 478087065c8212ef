#!/bin/bash
# Builds the vqtwin CLI with CUDA (nvcc, no GPU needed) and without FFmpeg (the device machine has none
# of its libraries; the benchmark reads y4m) and stages what tools/device/e2e_bench.sh needs in STAGE:
# bin/vqtwin and the script as run.sh. Then, in ONE device call (nvidia-h200, 16 cores):
#   carry [STAGE relative to the tree the device receives], command "bash STAGE/run.sh"
#   tools/device/prepare_e2e.sh STAGE [BUILD_DIR]        (e.g. STAGE = .device-e2e)
set -euo pipefail
cd "$(dirname "$0")/../.."
stage=${1:?usage: prepare_e2e.sh STAGE [BUILD_DIR]}
build=${2:-build-device}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DVQTWIN_CUDA=ON -DVQTWIN_FFMPEG=OFF \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache -DVQTWIN_STATIC_RUNTIME=ON >/dev/null
cmake --build "$build" --target vqtwin
rm -rf "$stage" && mkdir -p "$stage/bin"
cp "$build/tools/vqtwin/vqtwin" "$stage/bin/" && strip "$stage/bin/vqtwin"
cp tools/device/e2e_bench.sh "$stage/run.sh"
du -sh "$stage"
