#version 450
// float_adm's per-row totals, fp64 path: the threshold centre's double product and sum on the fp64
// unit (`precise`, RoundingModeRTE for 64-bit floats), each result rounded to float in integers
// (adm_f32_of); the fp32 operations too are doubles rounded in integers (ADM_FP64: float_adm_f32.glsl).
// float_adm_rows.glsl has the rest.
#extension GL_GOOGLE_include_directive : require
#define ADM_FP64 1
#include "float_adm_rows.glsl"

spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 64);

// float_adm_vulkan_fp64_centre_float (planted bug): the centre's product rounded to float and added in float.
float centre_of(float sum, float c) {
  precise double p = packDouble2x32(uvec2(pc.k15_lo, pc.k15_hi)) * double(abs(c));
  if (pc.planted != 0u) return f_add(sum, adm_f32_of_double(p));
  precise double x = double(sum) + p;
  return adm_f32_of_double(x);
}
