#!/bin/bash
# Stages what session_final.sh needs into STAGE (ignored by git, carried by the device tool): the CUDA +
# Vulkan build's binaries and fixture frames (stage_final.sh), and Debian's Vulkan loader with libglvnd as
# .deb files (the device host has NVIDIA's Vulkan driver, no loader).
#   tools/device/stage_session.sh BUILD_DIR FIXTURES_DIR [STAGE]
# then one device call: carry [STAGE], command "STAGE=STAGE bash tools/device/session_final.sh"
set -euo pipefail
build=${1:?BUILD_DIR}; fixtures=${2:?FIXTURES_DIR}; stage=${3:-.device-final}
"$(dirname "$0")/stage_final.sh" "$build" "$fixtures" "$stage"
mkdir -p "$stage/debs"
(cd "$stage/debs" && apt-get download libvulkan1 libglvnd0 libegl1 libgl1 libglx0 libgles2 libopengl0 >/dev/null)
du -sh "$stage"
