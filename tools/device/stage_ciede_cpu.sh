#!/bin/bash
# Stages ciede_cpu_checks.sh's folder DIR (an ignored folder of the checkout the device tool sends, e.g.
# ../main/.device-ciede-cpu): vqtwin and cpu_check from BUILD_DIR (static runtime; gzipped), the vqtwin of the
# build before this one as vqtwin_before when BEFORE_VQTWIN names it, and the script as DIR/run.sh. Then, in
# ONE device call: carry [DIR's name], command "bash DIR/run.sh".
#   [BEFORE_VQTWIN=path/to/older/vqtwin] tools/device/stage_ciede_cpu.sh DIR [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=$1
build=${2:-build-device}
cmake --build "$build" --target vqtwin cpu_check
rm -rf "$dir" && mkdir -p "$dir/bin"
for b in tools/vqtwin/vqtwin tests/cpu_check; do gzip -c "$build/$b" > "$dir/bin/$(basename $b).gz"; done
if [ -n "${BEFORE_VQTWIN:-}" ]; then gzip -c "$BEFORE_VQTWIN" > "$dir/bin/vqtwin_before.gz"; fi
cp tools/device/ciede_cpu_checks.sh "$dir/run.sh" && cp tools/device/lib.sh "$dir/"
du -sh "$dir"
