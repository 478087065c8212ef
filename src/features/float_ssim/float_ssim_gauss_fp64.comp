#version 450
// float_ssim's Gaussian passes (float_ssim_gauss_body.glsl), fp64 path: every double addition on the
// fp64 unit (`precise`, RoundingModeRTE for 64-bit floats), the result rounded to float in integers.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_spirv_intrinsics : require

// SPV_KHR_float_controls: RoundingModeRTE (capability 4467, execution mode 4462) for 64-bit floats.
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 64);

#define Acc double
Acc acc_zero();
Acc acc_add(Acc acc, uint t);
uint acc_float(Acc acc);

#include "float_ssim_gauss_body.glsl"

Acc acc_zero() { return 0.0; }

// acc + f64(t): the widening is exact; the addition rounds as the CPU's. Planted
// float_ssim_vulkan_fp64_float_sum: each partial sum rounded to float (an fp32 sum).
Acc acc_add(Acc acc, uint t) {
  precise double s = acc + double(uintBitsToFloat(t));
  if (pc.planted != 0u) s = double(float(s));
  return s;
}

uint acc_float(Acc acc) { return float_of_double_bits(unpackDouble2x32(acc)); }
