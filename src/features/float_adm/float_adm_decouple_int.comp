#version 450
// float_adm's decouple, fp64-free path: the gain limit's double product rounded in integers
// (float_adm_soft.glsl: adm_mul), compared with t exactly and rounded to float (adm_f32_of).
// float_adm_decouple.glsl has the rest.
#extension GL_GOOGLE_include_directive : require
#include "float_adm_decouple.glsl"
#include "float_adm_soft.glsl"

AdmD boosted_of(float rst) {
  const uint64_t big_m = (uint64_t(pc.egl_hi) << 32) | uint64_t(pc.egl_lo);
  return adm_mul(adm_mant(rst), adm_exp(rst), big_m, pc.egl_e, false);
}

// rst > 0: the double B = rst * egl > 0 is below t only when t > 0 and B < t.
float limit_up(float rst, float t) {
  const AdmD b = boosted_of(rst);
  return t > 0.0 && adm_less(b, t) ? adm_f32_of(0u, b.m, b.e) : t;
}

// rst < 0: -B is above t only when t < 0 and B < |t|.
float limit_down(float rst, float t) {
  const AdmD b = boosted_of(rst);
  return t < 0.0 && adm_less(b, -t) ? adm_f32_of(0x80000000u, b.m, b.e) : t;
}

float mask_of(float v) {
  const uint64_t k30 = (uint64_t(pc.k30_hi) << 32) | uint64_t(pc.k30_lo);
  const AdmD x = adm_mul(adm_mant(v), adm_exp(v), k30, pc.k30_e, false);
  return adm_f32_of(0u, x.m, x.e);
}
