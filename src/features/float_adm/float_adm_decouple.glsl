// float_adm's decouple (math.hpp: decouple_cell; scale.cpp: decouple_planes), one invocation per cell
// of the work rect: the refined rcpss reciprocal of o + 1e-30 from the run's table, the clamped ratio,
// the angle test and, on the same angle, the gain limit, whose double steps each path supplies
// (limit_up, limit_down: float_adm_decouple_fp64.comp, float_adm_decouple_int.comp). fp32 steps as in
// float_adm_f32.glsl. Output: the restored and additive h, v, d planes (m floats each).
#extension GL_EXT_spirv_intrinsics : require
#extension GL_GOOGLE_include_directive : require
#include "float_adm_f32.glsl"

#ifndef ADM_FP64
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 32);
#endif

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Ref { float ref_b[]; };  // a, h, v, d planes
layout(std430, set = 0, binding = 1) readonly buffer Dis { float dis_b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Restored { float r_out[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Additive { float a_out[]; };
layout(std430, set = 0, binding = 4) readonly buffer Table { uint table[]; };  // the run's rcpss table
layout(std430, set = 0, binding = 5) buffer Results { uint results[]; };
layout(std430, set = 0, binding = 6) writeonly buffer MaskR { float mask_r[]; };  // mask planes of r, a (h, v, d)
layout(std430, set = 0, binding = 7) writeonly buffer MaskA { float mask_a[]; };
layout(push_constant) uniform Push {
  uint bw, m, left, top, right, bottom, flag_at;
  uint cos_sq;          // math.hpp's kCosOneDegreeSq, float bits
  uint egl_lo, egl_hi;  // the gain limit: fp64 path its double's words; fp64-free path M's (2^52 <= M < 2^53)
  int egl_e;            // fp64-free path: the gain limit is M * 2^egl_e
  uint rf_hv, rf_d;     // the scale's CSF factors, float bits
  uint k30_lo, k30_hi;  // math.hpp's kOneBy30: fp64 path the double's words, fp64-free path M's
  int k30_e;            // fp64-free path: M * 2^k30_e
} pc;

// The gain limit of a restored value (same angle): float(min(double(rst) * egl, double(t))) for
// rst > 0, float(max(...)) for rst < 0, exactly as the CPU rounds them.
float limit_up(float rst, float t);
float limit_down(float rst, float t);
// f32(1/30 * |v|) in double (scale.cpp: csf_planes' mask plane; cells.hpp: mask_at).
float mask_of(float v);

// libvmaf's n / d in the decouple: n * (y + y * (1 - d * y)), y = rcpss(d) (math.hpp).
float refined_reciprocal(float d) {
  const float y = adm_rcpss(d, table[(floatBitsToUint(d) & 0x7FFFFFu) >> 11]);
  return f_add(y, f_mul(y, f_sub(1.0, f_mul(d, y))));
}

void main() {
  const float eps = uintBitsToFloat(0x0DA24260u);  // 1e-30f
  const float cos_sq = uintBitsToFloat(pc.cos_sq);
  const uint nw = pc.right - pc.left, cells = nw * (pc.bottom - pc.top);
  for (uint i = gl_GlobalInvocationID.x; i < cells; i += gl_NumWorkGroups.x * 256u) {
    const uint c = (pc.top + i / nw) * pc.bw + pc.left + i % nw;
    float o[3], t[3], rst[3];
    for (uint k = 0u; k < 3u; ++k) {
      o[k] = ref_b[(k + 1u) * pc.m + c];
      t[k] = dis_b[(k + 1u) * pc.m + c];
      float ratio = f_mul(t[k], refined_reciprocal(f_add(o[k], eps)));
      ratio = ratio < 0.0 ? 0.0 : (ratio > 1.0 ? 1.0 : ratio);
      rst[k] = f_mul(ratio, o[k]);
    }
    const float dot_ot = f_add(f_mul(o[0], t[0]), f_mul(o[1], t[1]));
    const float o_mag_sq = f_add(f_mul(o[0], o[0]), f_mul(o[1], o[1]));
    const float t_mag_sq = f_add(f_mul(t[0], t[0]), f_mul(t[1], t[1]));
    const bool same_angle = dot_ot >= 0.0 && f_mul(dot_ot, dot_ot) >= f_mul(f_mul(cos_sq, o_mag_sq), t_mag_sq);
    for (uint k = 0u; k < 3u; ++k) {
      float s = rst[k];
      if (same_angle) {  // two tests, as libvmaf's (the second sees the first's result)
        if (s > 0.0) s = limit_up(s, t[k]);
        if (s < 0.0) s = limit_down(s, t[k]);
      }
      const float a = f_sub(t[k], s), f = uintBitsToFloat(k == 2u ? pc.rf_d : pc.rf_hv);
      r_out[k * pc.m + c] = s;
      a_out[k * pc.m + c] = a;
      // The masking planes of the work rect, as the CPU's csf_planes stores them (threshold_at reads them).
      mask_r[k * pc.m + c] = mask_of(f_mul(f, s));
      mask_a[k * pc.m + c] = mask_of(f_mul(f, a));
    }
  }
  if (adm_tiny) results[pc.flag_at] = 1u;
}
