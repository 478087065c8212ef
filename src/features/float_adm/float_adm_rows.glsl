// float_adm's per-row totals (scale.cpp: denominator, masked_sum; cells.hpp), one workgroup per pool row:
// for each pool column the denominator term and the DLM and AIM contrast-masked terms of each
// orientation (the thresholds from the 3x3 masks of the additive and the restored planes, cells.hpp's
// threshold_at), 256 columns at a time into shared memory, each of the nine totals added in column order
// from 0 by one invocation (the CPU's float order). The mask value and the threshold's centre are double
// steps that each path supplies (mask_of, centre_of: float_adm_rows_fp64.comp, float_adm_rows_int.comp).
// fp32 steps as in float_adm_f32.glsl. Output: per row 3 den, then (3 * rows later) 3 num, 3 aim.
#extension GL_EXT_spirv_intrinsics : require
#extension GL_GOOGLE_include_directive : require
#include "float_adm_f32.glsl"

spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 32);

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Ref { float ref_b[]; };        // a, h, v, d planes
layout(std430, set = 0, binding = 1) readonly buffer Restored { float r_b[]; };     // h, v, d
layout(std430, set = 0, binding = 2) readonly buffer Additive { float a_b[]; };     // h, v, d
layout(std430, set = 0, binding = 3) buffer Results { uint results[]; };
layout(push_constant) uniform Push {
  uint bw, bh, m, left, top, right, bottom, row_offset, bypass_cm, flag_at, planted;
  uint rf_hv, rf_d;                // the scale's CSF factors, float bits
  uint k30_lo, k30_hi, k15_lo, k15_hi;  // math.hpp's kOneBy30, kOneBy15: fp64 path the doubles' words,
  int k30_e, k15_e;                     // fp64-free path M's words (2^52 <= M < 2^53) and M * 2^e
} pc;

// f32(1/30 * |v|) in double (cells.hpp: mask_at), and f32(double(sum) + 1/15 * |c|) (the centre).
float mask_of(float v);
float centre_of(float sum, float c);

shared float terms[9 * 256];

float plane_at(bool restored, uint k, uint idx) { return restored ? r_b[k * pc.m + idx] : a_b[k * pc.m + idx]; }

// cells.hpp's threshold_at, the masker being the restored (true) or the additive planes.
float threshold_at(bool restored, const float rf[3], uint j, uint i) {
  const uint w = pc.bw, h = pc.bh;
  const uint up = (i == 0u ? 1u : i - 1u) * w, mid = i * w, down = (i + 1u == h ? h - 1u : i + 1u) * w;
  const uint jl = j == 0u ? 1u : j - 1u, jr = j + 1u == w ? w - 1u : j + 1u;
  float thr = 0.0;
  for (uint k = 0u; k < 3u; ++k) {
    const float f = rf[k];
    float sum = 0.0;
    sum = f_add(sum, mask_of(f_mul(f, plane_at(restored, k, up + jl))));
    sum = f_add(sum, mask_of(f_mul(f, plane_at(restored, k, up + j))));
    sum = f_add(sum, mask_of(f_mul(f, plane_at(restored, k, up + jr))));
    sum = f_add(sum, mask_of(f_mul(f, plane_at(restored, k, mid + jl))));
    sum = centre_of(sum, f_mul(f, plane_at(restored, k, mid + j)));
    sum = f_add(sum, mask_of(f_mul(f, plane_at(restored, k, mid + jr))));
    sum = f_add(sum, mask_of(f_mul(f, plane_at(restored, k, down + jl))));
    sum = f_add(sum, mask_of(f_mul(f, plane_at(restored, k, down + j))));
    sum = f_add(sum, mask_of(f_mul(f, plane_at(restored, k, down + jr))));
    thr = f_add(thr, sum);
  }
  return thr;
}

float masked_term(float src, float f, float thr) {
  float x = f_sub(abs(f_mul(src, f)), thr);
  x = x < 0.0 ? 0.0 : x;
  return f_mul(f_mul(x, x), x);
}

float den_term(float o, float f) {
  const float y = abs(f_mul(f, o));
  return f_mul(f_mul(y, y), y);
}

void main() {
  const uint pw = pc.right - pc.left, rows = pc.bottom - pc.top, lid = gl_LocalInvocationID.x;
  const float rf[3] = float[3](uintBitsToFloat(pc.rf_hv), uintBitsToFloat(pc.rf_hv), uintBitsToFloat(pc.rf_d));
  for (uint row = gl_WorkGroupID.x; row < rows; row += gl_NumWorkGroups.x) {
    const uint i = pc.top + row;
    float total = 0.0;  // invocation q < 9: total q of this row
    for (uint x0 = 0u; x0 < pw; x0 += 256u) {
      if (x0 + lid < pw) {
        const uint j = pc.left + x0 + lid, c = i * pc.bw + j;
        // DLM: the restored detail against the additive impairment's masks; AIM: the reverse.
        const float thr_num = pc.bypass_cm != 0u ? 0.0 : threshold_at(false, rf, j, i);
        const float thr_aim = pc.bypass_cm != 0u ? 0.0 : threshold_at(true, rf, j, i);
        for (uint k = 0u; k < 3u; ++k) {
          terms[k * 256u + lid] = den_term(ref_b[(k + 1u) * pc.m + c], rf[k]);
          terms[(3u + k) * 256u + lid] = masked_term(r_b[k * pc.m + c], rf[k], thr_num);
          terms[(6u + k) * 256u + lid] = masked_term(a_b[k * pc.m + c], rf[k], thr_aim);
        }
      }
      memoryBarrierShared();
      barrier();
      if (lid < 9u) {
        const uint n = min(256u, pw - x0);
        for (uint u = 0u; u < n; ++u) total = f_add(total, terms[lid * 256u + u]);
      }
      memoryBarrierShared();
      barrier();
    }
    if (lid < 9u) results[pc.row_offset + (lid / 3u) * 3u * rows + 3u * row + lid % 3u] = floatBitsToUint(total);
  }
  if (adm_tiny) results[pc.flag_at] = 1u;
}
