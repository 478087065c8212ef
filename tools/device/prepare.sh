#!/bin/bash
# Builds vqtwin with CUDA here (nvcc, no GPU needed) and stages what the device run needs in
# .device/ (ignored by git, carried by the device tool): the binaries and a few frames of each
# shared fixture. Then, in ONE device call:  carry [".device"], command "bash tools/device/gpu_checks.sh"
#   tools/device/prepare.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-device}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DVQTWIN_CUDA=ON -DVQTWIN_TESTS=ON \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DVQTWIN_STATIC_RUNTIME=ON >/dev/null
cmake --build "$build" --target vqtwin twin_harness vqtwin_bench cuda_tests cuda_hog
[ -d "$build/fixtures" ] && ls "$build"/fixtures/*.y4m >/dev/null 2>&1 || \
  tests/support/decode_fixtures.sh ../shared/fixtures "$build/fixtures"
rm -rf .device && mkdir -p .device/bin .device/fixtures
cp "$build/tools/vqtwin/vqtwin" "$build/tests/twin_harness" "$build/bench/vqtwin_bench" "$build/tests/cuda_tests" \
  "$build/tests/cuda_hog" .device/bin/
[ -x "$build/bench/cuda_bench" ] && cp "$build/bench/cuda_bench" .device/bin/
for y in "$build"/fixtures/*.y4m; do
  n=4; case "$y" in *hd_1280x720*) n=2;; esac
  python3 tools/device/cut_y4m.py "$y" ".device/fixtures/$(basename "$y")" $n
done
du -sh .device
