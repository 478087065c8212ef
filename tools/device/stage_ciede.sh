#!/bin/bash
# Stages ciede_checks.sh's folder DIR (an ignored folder of the checkout the device tool sends, e.g.
# ../main/.device-ciede): vqtwin, twin_harness and twin_device_time from BUILD_DIR (a CUDA build with the
# static runtime; gzipped), the first frames of each decoded shared fixture (xz) and the script as DIR/run.sh.
# Then, in ONE device call: carry [DIR's name], command "bash DIR/run.sh".
#   tools/device/stage_ciede.sh DIR [BUILD_DIR] [FIXTURES_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=$1
build=${2:-build-device}
fixtures=${3:-$build/fixtures}
cmake --build "$build" --target vqtwin twin_harness twin_device_time
[ -d "$fixtures" ] && ls "$fixtures"/*.y4m >/dev/null 2>&1 || tests/support/decode_fixtures.sh ../shared/fixtures "$fixtures"
rm -rf "$dir" && mkdir -p "$dir/bin"
for b in tools/vqtwin/vqtwin tests/twin_harness bench/twin_device_time; do gzip -c "$build/$b" > "$dir/bin/$(basename $b).gz"; done
tmp=$(mktemp -d)
mkdir -p "$tmp/fixtures"
for y in "$fixtures"/*.y4m; do
  n=4; case "$y" in *hd_1280x720*) n=2;; esac
  python3 tools/device/cut_y4m.py "$y" "$tmp/fixtures/$(basename "$y")" $n
done
tar -C "$tmp" -cJf "$dir/fixtures.tar.xz" fixtures
rm -rf "$tmp"
cp tools/device/ciede_checks.sh "$dir/run.sh" && cp tools/device/lib.sh "$dir/"
du -sh "$dir"
