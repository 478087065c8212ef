#version 450
// float_adm's decouple, fp64 path: the gain limit's product and comparison in double on the fp64 unit
// (`precise`, RoundingModeRTE for 64-bit floats), the chosen double rounded to float in integers
// (adm_f32_of). float_adm_decouple.glsl has the rest.
#extension GL_GOOGLE_include_directive : require
#include "float_adm_decouple.glsl"

spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 64);

// A double (never subnormal here) rounded to float.
float adm_f32_of_double(double x) {
  const uvec2 b = unpackDouble2x32(x);
  const uint sign = b.y & 0x80000000u;
  const int field = int((b.y >> 20) & 0x7FFu);
  if (field == 0) return uintBitsToFloat(sign);
  const uint64_t m = (uint64_t((b.y & 0xFFFFFu) | 0x100000u) << 32) | uint64_t(b.x);
  return adm_f32_of(sign, m, field - 1075);
}

float limit_up(float rst, float t) {
  precise double boosted = double(rst) * packDouble2x32(uvec2(pc.egl_lo, pc.egl_hi));
  return boosted < double(t) ? adm_f32_of_double(boosted) : t;
}

float limit_down(float rst, float t) {
  precise double boosted = double(rst) * packDouble2x32(uvec2(pc.egl_lo, pc.egl_hi));
  return boosted > double(t) ? adm_f32_of_double(boosted) : t;
}
