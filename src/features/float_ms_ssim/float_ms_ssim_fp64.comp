#version 450
// float_ms_ssim's passes, fp64 path: the CPU's double sums on the fp64 unit (float_ms_ssim_passes.glsl).
#define MS_FP64 1
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_spirv_intrinsics : require
// SPV_KHR_float_controls: RoundingModeRTE (capability 4467, execution mode 4462) for 64-bit floats.
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 64);
#include "float_ms_ssim_passes.glsl"
