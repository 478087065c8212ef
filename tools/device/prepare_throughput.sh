#!/bin/bash
# Builds vqtwin with CUDA (nvcc, no GPU needed) and without FFmpeg (the device machine has none of its
# libraries) here, and stages what tools/device/throughput_checks.sh needs in STAGE (a folder the device tool carries; under 40 MB): the binaries, a few fixture frames
# (xz-compressed) and the script as run.sh. Then, in ONE device call:
#   carry [STAGE relative to the tree the device receives], command "bash STAGE/run.sh"
#   tools/device/prepare_throughput.sh STAGE [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
stage=${1:?usage: prepare_throughput.sh STAGE [BUILD_DIR]}
build=${2:-build-device}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DVQTWIN_CUDA=ON -DVQTWIN_TESTS=ON \
  -DVQTWIN_FFMPEG=OFF -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache \
  -DVQTWIN_STATIC_RUNTIME=ON >/dev/null
cmake --build "$build" --target vqtwin twin_harness cuda_tests cuda_bench cli_throughput
ls "$build"/fixtures/*.y4m >/dev/null 2>&1 || tests/support/decode_fixtures.sh "${VQTWIN_SHARED_DIR:-/work/shared}/fixtures" "$build/fixtures"
rm -rf "$stage" && mkdir -p "$stage/bin" "$stage/fx"
cp "$build/tools/vqtwin/vqtwin" "$build/tests/twin_harness" "$build/tests/cuda_tests" "$build/bench/cuda_bench" \
  "$build/bench/cli_throughput" "$stage/bin/"
strip "$stage"/bin/*
# Enough frames that 16 workers each read some: 24 of the small pair, a few of the larger ones.
for y in "$build"/fixtures/{sd_576x324_8bit_420,odd_853x480_8bit_444,hd_1280x720_10bit_420}_{ref,dist}.y4m; do
  n=24; case "$y" in *odd_*) n=8;; *hd_*) n=6;; esac
  python3 tools/device/cut_y4m.py "$y" "$stage/fx/$(basename "$y")" $n
done
tar -C "$stage" -cJf "$stage/fx.tar.xz" fx && rm -rf "$stage/fx"
cp tools/device/throughput_checks.sh "$stage/run.sh"
du -sh "$stage"
