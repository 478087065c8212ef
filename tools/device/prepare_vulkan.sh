#!/bin/bash
# Builds vqtwin with Vulkan (and CUDA when nvcc is here) and stages what vulkan_check.sh needs in
# .device/ (ignored by git, carried by the device tool): the binaries, a few frames of each fixture,
# and the Vulkan loader (Debian's libvulkan1, unpacked: the device host has NVIDIA's Vulkan driver but
# no loader, and reaches no network). Then, in ONE device call:
#   carry [".device"], command "bash tools/device/vulkan_check.sh"
#   tools/device/prepare_vulkan.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-device}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DVQTWIN_VULKAN=ON -DVQTWIN_TESTS=ON \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DVQTWIN_STATIC_RUNTIME=ON >/dev/null
cmake --build "$build" --target vqtwin twin_harness cli_throughput float_ssim_decimation_check_vulkan
[ -d "$build/fixtures" ] && ls "$build"/fixtures/*.y4m >/dev/null 2>&1 || \
  tests/support/decode_fixtures.sh ../shared/fixtures "$build/fixtures"
mkdir -p .device/bin .device/fixtures .device/vulkan
cp "$build/tools/vqtwin/vqtwin" "$build/tests/twin_harness" "$build/bench/cli_throughput" "$build/tests/float_ssim_decimation_check_vulkan" .device/bin/
for y in "$build"/fixtures/*.y4m; do
  n=4; case "$y" in *hd_1280x720*) n=2;; esac
  python3 tools/device/cut_y4m.py "$y" ".device/fixtures/$(basename "$y")" $n
done
# The loader: downloaded as a .deb (no installation here) and unpacked into .device/vulkan.
(cd "$(mktemp -d)" && apt-get download libvulkan1 >/dev/null && for d in ./*.deb; do dpkg-deb -x "$d" "$OLDPWD/.device/vulkan"; done)
ls .device/vulkan/usr/lib/*/libvulkan.so.1
du -sh .device
