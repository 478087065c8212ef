#version 450
// float_adm's per-row totals, fp64-free path: the threshold centre's double product and sum in
// integers (float_adm_soft.glsl: adm_mul, adm_add, each the IEEE double result), then rounded to float
// (adm_f32_of). float_adm_rows.glsl has the rest.
#extension GL_GOOGLE_include_directive : require
#include "float_adm_rows.glsl"
#include "float_adm_soft.glsl"

// float_adm_vulkan_nofp64_centre_low_word (planted bug): the centre's product without its low partial product.
float centre_of(float sum, float c) {
  const uint64_t k15 = (uint64_t(pc.k15_hi) << 32) | uint64_t(pc.k15_lo);
  const AdmD x = adm_add(adm_widen(sum), adm_mul(adm_mant(c), adm_exp(c), k15, pc.k15_e, pc.planted != 0u));
  return adm_f32_of(0u, x.m, x.e);
}
