#!/bin/bash
# Device benchmarks beside tools/device/final_checks.sh, from the same stage (STAGE, its bin/ already
# unpacked by final_checks.sh): VMAF's three integer twins sharing one upload, from host memory
# (cuda_bench: mem fps, device ms per twin), and each VMAF twin's device time per frame
# (twin_device_time, float_ms_ssim_cuda included). Figures only; output under $OUT.
#   STAGE=DIR bash tools/device/final_extras.sh
set -uo pipefail
STAGE=${STAGE:-.device}
bin=$STAGE/bin
out=${OUT:-/tmp}
{
  echo "== cuda_bench: vif_cuda+adm_cuda+motion_cuda (vmaf_v0.6.1's features), frames from host memory"
  timeout 120 "$bin/cuda_bench" --sizes 1920x1080,3840x2160 --depths 8,10 --twins vif_cuda+adm_cuda+motion_cuda \
    --frames 300 --cpu-threads 16 2>&1 | tail -20
  echo "== twin_device_time"
  timeout 90 "$bin/twin_device_time" --sizes 1920x1080,3840x2160 --depths 8 \
    --twins motion_cuda,vif_cuda,adm_cuda,float_vif_cuda,float_adm_cuda,float_ms_ssim_cuda,integer_ssim_cuda \
    --reps 20 --ordered-sums 0 2>&1 | tail -20
} 2>&1 | tee "$out/final_extras.txt"
