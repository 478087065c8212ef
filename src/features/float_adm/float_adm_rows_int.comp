#version 450
// float_adm's per-row totals, fp64-free path: the mask's and the centre's double product and sum in
// integers (float_adm_soft.glsl: adm_mul, adm_add, each the IEEE double result), then rounded to float
// (adm_f32_of). float_adm_rows.glsl has the rest.
#extension GL_GOOGLE_include_directive : require
#include "float_adm_rows.glsl"
#include "float_adm_soft.glsl"

// float_adm_vulkan_nofp64_mask_low_word (planted bug): the mask's product without its low partial product.
float mask_of(float v) {
  const uint64_t k30 = (uint64_t(pc.k30_hi) << 32) | uint64_t(pc.k30_lo);
  const AdmD x = adm_mul(adm_mant(v), adm_exp(v), k30, pc.k30_e, pc.planted != 0u);
  return adm_f32_of(0u, x.m, x.e);
}

float centre_of(float sum, float c) {
  const uint64_t k15 = (uint64_t(pc.k15_hi) << 32) | uint64_t(pc.k15_lo);
  const AdmD x = adm_add(adm_widen(sum), adm_mul(adm_mant(c), adm_exp(c), k15, pc.k15_e, false));
  return adm_f32_of(0u, x.m, x.e);
}
