#!/bin/bash
# Stages the VMAF twins' device checks into DIR (an ignored folder of the checkout the device tool
# sends, e.g. ../main/.device-vmaf): the CUDA build's vqtwin, twin_harness, twin_device_time and
# cuda_tests (built here without FFmpeg, static C++ runtime: the device image has neither libav* nor
# our libstdc++), the first frames of each shared fixture (xz), and vmaf_checks.sh. Then, in ONE
# device call: carry [DIR's name], command "bash DIR/vmaf_checks.sh".
#   tools/device/stage_vmaf.sh DIR [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=$1
build=${2:-build-dev}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DVQTWIN_CUDA=ON -DVQTWIN_TESTS=ON -DVQTWIN_FFMPEG=OFF \
  -DVQTWIN_STATIC_RUNTIME=ON -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache >/dev/null
cmake --build "$build" --target vqtwin twin_harness twin_device_time cuda_tests
fixtures=build-cuda/fixtures  # decoded by the test suite (tests/support/decode_fixtures.sh)
[ -d "$fixtures" ] || fixtures="$build/fixtures"
[ -d "$fixtures" ] && ls "$fixtures"/*.y4m >/dev/null 2>&1 || tests/support/decode_fixtures.sh ../shared/fixtures "$fixtures"
rm -rf "$dir" && mkdir -p "$dir/bin"
cp "$build/tools/vqtwin/vqtwin" "$build/tests/twin_harness" "$build/bench/twin_device_time" "$build/tests/cuda_tests" \
  "$dir/bin/"
tmp=$(mktemp -d)
mkdir -p "$tmp/fx"
for y in "$fixtures"/*.y4m; do
  n=12; case "$y" in *hd_1280x720*) n=4;; *odd_853x480*) n=8;; esac
  python3 tools/device/cut_y4m.py "$y" "$tmp/fx/$(basename "$y")" $n
done
tar -C "$tmp" -cJf "$dir/fx.tar.xz" fx
rm -rf "$tmp"
cp tools/device/vmaf_checks.sh "$dir/"
du -sh "$dir"
