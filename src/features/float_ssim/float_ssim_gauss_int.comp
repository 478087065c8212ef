#version 450
// float_ssim's Gaussian passes (float_ssim_gauss_body.glsl), fp64-free path: every double addition an
// exact sum rounded to 53 significant bits (add53), the result rounded to float once (float_of53).
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require

#define Acc Soft64
#include "float_ssim_soft.glsl"
Acc acc_zero();
Acc acc_add(Acc acc, uint t);
uint acc_float(Acc acc);

#include "float_ssim_gauss_body.glsl"

Acc acc_zero() { return Soft64(0ul, 0); }

// Planted: 1 float_ssim_vulkan_nofp64_float_sum (the sum rounded to 24 bits, an fp32 sum);
// 2 float_ssim_vulkan_nofp64_sum_past_bound (add53's 64-bit bound broken).
Acc acc_add(Acc acc, uint t) { return add53(acc, t, pc.planted == 1u, pc.planted == 2u); }

uint acc_float(Acc acc) { return float_of53(acc); }
