#version 450
// float_adm's decouple, fp64 path: the gain limit's product and comparison in double on the fp64 unit
// (`precise`, RoundingModeRTE for 64-bit floats), the chosen double rounded to float in integers
// (adm_f32_of); the fp32 operations too are doubles rounded in integers (ADM_FP64: float_adm_f32.glsl).
// float_adm_decouple.glsl has the rest.
#extension GL_GOOGLE_include_directive : require
#define ADM_FP64 1
#include "float_adm_decouple.glsl"

spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 64);

float limit_up(float rst, float t) {
  precise double boosted = double(rst) * packDouble2x32(uvec2(pc.egl_lo, pc.egl_hi));
  return boosted < double(t) ? adm_f32_of_double(boosted) : t;
}

float limit_down(float rst, float t) {
  precise double boosted = double(rst) * packDouble2x32(uvec2(pc.egl_lo, pc.egl_hi));
  return boosted > double(t) ? adm_f32_of_double(boosted) : t;
}

float mask_of(float v) {
  precise double x = packDouble2x32(uvec2(pc.k30_lo, pc.k30_hi)) * double(abs(v));
  return adm_f32_of_double(x);
}
