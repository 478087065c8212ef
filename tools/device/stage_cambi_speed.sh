#!/bin/bash
# Stages cambi_cuda's speed and exactness checks into DIR (an ignored folder of the checkout the device
# tool sends, e.g. .device-cambi): what stage_hvs_cambi.sh stages (vqtwin, twin_harness and
# twin_device_time of the CUDA build, static C++ runtime; the fixtures' first frames; gen_y4m.py), with
# cambi_speed_checks.sh and json_same.py. Then, in ONE device call: carry [DIR], command
# "bash DIR/cambi_speed_checks.sh".
#   tools/device/stage_cambi_speed.sh DIR [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
tools/device/stage_hvs_cambi.sh "$@"
cp tools/device/cambi_speed_checks.sh tools/device/json_same.py "$1/"
rm -f "$1/hvs_cambi_checks.sh"
du -sh "$1"
