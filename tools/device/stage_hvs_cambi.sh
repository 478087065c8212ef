#!/bin/bash
# Stages the psnr_hvs_cuda and cambi_cuda device checks into DIR (an ignored folder of the checkout
# the device tool sends, e.g. ../main/.device-cuhvs): the CUDA build's vqtwin, twin_harness and
# twin_device_time (static C++ runtime), the first frames of each shared fixture (xz), gen_y4m.py
# and hvs_cambi_checks.sh. Then, in ONE device call: carry [DIR's name], command
# "bash DIR/hvs_cambi_checks.sh".
#   tools/device/stage_hvs_cambi.sh DIR [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=$1
build=${2:-build-device}
cmake --build "$build" --target vqtwin twin_harness twin_device_time
fixtures="$build/fixtures"
ls "$fixtures"/*.y4m >/dev/null 2>&1 || tests/support/decode_fixtures.sh ../shared/fixtures "$fixtures"
rm -rf "$dir" && mkdir -p "$dir/bin"
cp "$build/tools/vqtwin/vqtwin" "$build/tests/twin_harness" "$build/bench/twin_device_time" "$dir/bin/"
tmp=$(mktemp -d)
mkdir -p "$tmp/fx"
for y in "$fixtures"/*.y4m; do
  n=8; case "$y" in *hd_1280x720*) n=4;; esac
  python3 tools/device/cut_y4m.py "$y" "$tmp/fx/$(basename "$y")" $n
done
tar -C "$tmp" -cJf "$dir/fx.tar.xz" fx
rm -rf "$tmp"
cp tools/device/hvs_cambi_checks.sh tools/device/gen_y4m.py "$dir/"
du -sh "$dir"
