#version 450
// float_ms_ssim's passes, fp64-free path: the CPU's double sums as exact integer sums rounded to 53
// significant bits (float_ms_ssim_passes.glsl, float_ms_ssim_soft.glsl).
#define MS_FP64 0
#extension GL_GOOGLE_include_directive : require
#include "float_ms_ssim_passes.glsl"
