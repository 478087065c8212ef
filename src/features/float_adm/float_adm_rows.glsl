// float_adm's per-row totals (scale.cpp: denominator, masked_sum; cells.hpp), one workgroup per pool row:
// for each pool column the denominator term and the DLM and AIM contrast-masked terms of each
// orientation (the thresholds from the 3x3 masks of the additive and the restored planes, cells.hpp's
// threshold_at: the mask planes the decouple wrote, the centre from the plane), 256 columns at a time into shared memory, each of the nine totals added in column order
// from 0 by one invocation (the CPU's float order). The threshold's centre is a double step that each
// path supplies (centre_of: float_adm_rows_fp64.comp, float_adm_rows_int.comp).
// fp32 steps as in float_adm_f32.glsl. Output: per row 3 den, then (3 * rows later) 3 num, 3 aim.
#extension GL_EXT_spirv_intrinsics : require
#extension GL_GOOGLE_include_directive : require
#include "float_adm_f32.glsl"

#ifndef ADM_FP64
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 32);
#endif

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Ref { float ref_b[]; };        // a, h, v, d planes
layout(std430, set = 0, binding = 1) readonly buffer Restored { float r_b[]; };     // h, v, d
layout(std430, set = 0, binding = 2) readonly buffer Additive { float a_b[]; };     // h, v, d
layout(std430, set = 0, binding = 3) buffer Results { uint results[]; };
layout(std430, set = 0, binding = 4) readonly buffer MaskR { float mask_r[]; };  // the decouple's mask planes
layout(std430, set = 0, binding = 5) readonly buffer MaskA { float mask_a[]; };
layout(push_constant) uniform Push {
  uint bw, bh, m, left, top, right, bottom, row_offset, bypass_cm, flag_at, planted;
  uint rf_hv, rf_d;                // the scale's CSF factors, float bits
  uint k15_lo, k15_hi;  // math.hpp's kOneBy15: fp64 path the double's words, fp64-free path M's words
  int k15_e;            // (2^52 <= M < 2^53) and M * 2^e
} pc;

// f32(double(sum) + 1/15 * |c|) (cells.hpp: threshold_at's centre).
float centre_of(float sum, float c);

shared uint terms[9 * 256];  // float bits

float plane_at(bool restored, uint k, uint idx) { return restored ? r_b[k * pc.m + idx] : a_b[k * pc.m + idx]; }
float mask_at(bool restored, uint k, uint idx) { return restored ? mask_r[k * pc.m + idx] : mask_a[k * pc.m + idx]; }

// cells.hpp's threshold_at, the masker being the restored (true) or the additive planes.
float threshold_at(bool restored, const float rf[3], uint j, uint i) {
  const uint w = pc.bw, h = pc.bh;
  const uint up = (i == 0u ? 1u : i - 1u) * w, mid = i * w, down = (i + 1u == h ? h - 1u : i + 1u) * w;
  const uint jl = j == 0u ? 1u : j - 1u, jr = j + 1u == w ? w - 1u : j + 1u;
  float thr = 0.0;
  for (uint k = 0u; k < 3u; ++k) {
    const float f = rf[k];
    float sum = 0.0;
    sum = f_add(sum, mask_at(restored, k, up + jl));
    sum = f_add(sum, mask_at(restored, k, up + j));
    sum = f_add(sum, mask_at(restored, k, up + jr));
    sum = f_add(sum, mask_at(restored, k, mid + jl));
    sum = centre_of(sum, f_mul(f, plane_at(restored, k, mid + j)));
    sum = f_add(sum, mask_at(restored, k, mid + jr));
    sum = f_add(sum, mask_at(restored, k, down + jl));
    sum = f_add(sum, mask_at(restored, k, down + j));
    sum = f_add(sum, mask_at(restored, k, down + jr));
    thr = f_add(thr, sum);
  }
  return thr;
}

// The cubed terms and the row totals reach below 2^-126 on flat content (a flat picture's d band is a
// rounding residual near 2^-43, its cube subnormal), so they are kept exact with gradual underflow:
// each term is computed on the float unit and, when one of its operations would be subnormal,
// recomputed in integers (adm_mul_gradual: the CPU's result, subnormal or not); terms and totals are
// held as float bits (a device may flush a subnormal operand), added by total_add. Every value here
// is >= 0, whose bits order as the values.
const uint kMinNormalBits = 0x00800000u;  // 2^-126
const uint kSmallBits = 0x0D800000u;      // 2^-100

// A value below 2^-100 (bits) in units of 2^-149: an integer below 2^50.
uint64_t units_of(uint bits) {
  const uint field = bits >> 23;
  return field == 0u ? uint64_t(bits) : uint64_t((bits & 0x7FFFFFu) | 0x800000u) << (field - 1u);
}

// m * 2^e (m < 2^63) rounded to the nearest float (ties to even) with gradual underflow, as bits.
uint adm_bits_gradual(uint64_t m, int e) {
  if (m == 0ul) return 0u;
  const int top = adm_msb64(m);
  int drop = top - 23;                  // 24 significant bits
  if (top + e < -126) drop = -149 - e;  // subnormal: bits down to 2^-149
  if (drop > top + 1) return 0u;        // below 2^-150: rounds to 0 (m < 2^51 here: drop <= 52)
  if (drop > 0) {
    const uint64_t lo = m & ((uint64_t(1) << drop) - 1ul), tie = uint64_t(1) << (drop - 1);
    uint64_t kept = m >> drop;
    if (lo > tie || (lo == tie && (kept & 1ul) != 0ul)) kept += 1ul;
    m = kept;
  } else {
    m <<= -drop;
  }
  e += drop;
  if (m == (uint64_t(1) << 24)) {
    m >>= 1;
    e += 1;
  }
  if (m < 0x800000ul) return uint(m);  // subnormal (e == -149)
  return (uint(e + 150) << 23) | (uint(m) & 0x7FFFFFu);
}

// |a| * |b| for float bits (subnormal allowed), rounded as the CPU's float product.
uint adm_mul_gradual(uint a, uint b) {
  a &= 0x7FFFFFFFu;
  b &= 0x7FFFFFFFu;
  const uint fa = a >> 23, fb = b >> 23;
  const uint ma = fa == 0u ? a : ((a & 0x7FFFFFu) | 0x800000u), mb = fb == 0u ? b : ((b & 0x7FFFFFu) | 0x800000u);
  const int ea = fa == 0u ? -149 : int(fa) - 150, eb = fb == 0u ? -149 : int(fb) - 150;
  return adm_bits_gradual(uint64_t(ma) * uint64_t(mb), ea + eb);
}

uint cube_gradual(uint x) { return adm_mul_gradual(adm_mul_gradual(x, x), x); }

// max(|src * f| - thr, 0) cubed (cells.hpp: masked_term), as bits. thr is zero or normal (a threshold
// that would be subnormal flags the frame in threshold_at).
uint masked_term(float src, float f, float thr) {
  const bool before = adm_tiny;
  adm_tiny = false;
  float x = f_sub(abs(f_mul(src, f)), thr);
  x = x < 0.0 ? 0.0 : x;
  const float r = f_mul(f_mul(x, x), x);
  const bool tiny = adm_tiny;
  adm_tiny = before;
  if (!tiny) return floatBitsToUint(r);
  // Exactly: p = |src * f| (perhaps subnormal); p - thr is exact on the float unit when p >= 2^-100
  // (a non-zero difference is then at least 2^-124: no subnormal), else exact in units of 2^-149.
  const uint p = adm_mul_gradual(floatBitsToUint(src), floatBitsToUint(f)), t = floatBitsToUint(thr);
  if (p <= t) return 0u;
  if (p >= kSmallBits) return cube_gradual(floatBitsToUint(f_sub(uintBitsToFloat(p), thr)));
  return cube_gradual(adm_bits_gradual(units_of(p) - units_of(t), -149));
}

// |f * o| cubed (cells.hpp: den_term), as bits.
uint den_term(float o, float f) {
  const bool before = adm_tiny;
  adm_tiny = false;
  const float y = abs(f_mul(f, o));
  const float r = f_mul(f_mul(y, y), y);
  const bool tiny = adm_tiny;
  adm_tiny = before;
  return tiny ? cube_gradual(adm_mul_gradual(floatBitsToUint(f), floatBitsToUint(o))) : floatBitsToUint(r);
}

// total + v (bits of values >= 0, subnormal allowed), rounded as the CPU's float sum: on the float unit
// when both are normal; a subnormal beside a value >= 2^-100 leaves it unchanged (below its half ulp,
// 2^-124); two values below 2^-100 are added exactly in units of 2^-149 and rounded.
uint total_add(uint total, uint v) {
  v &= 0x7FFFFFFFu;  // a -0 term adds nothing
  if (v == 0u) return total;
  if (total == 0u) return v;
  if (total >= kMinNormalBits && v >= kMinNormalBits)
    return floatBitsToUint(f_add(uintBitsToFloat(total), uintBitsToFloat(v)));
  if (total >= kSmallBits) return total;
  if (v >= kSmallBits) return v;
  return adm_bits_gradual(units_of(total) + units_of(v), -149);
}

void main() {
  const uint pw = pc.right - pc.left, rows = pc.bottom - pc.top, lid = gl_LocalInvocationID.x;
  const float rf[3] = float[3](uintBitsToFloat(pc.rf_hv), uintBitsToFloat(pc.rf_hv), uintBitsToFloat(pc.rf_d));
  for (uint row = gl_WorkGroupID.x; row < rows; row += gl_NumWorkGroups.x) {
    const uint i = pc.top + row;
    uint total = 0u;  // invocation q < 9: total q of this row (float bits)
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
        for (uint u = 0u; u < n; ++u) total = total_add(total, terms[lid * 256u + u]);
      }
      memoryBarrierShared();
      barrier();
    }
    if (lid < 9u) results[pc.row_offset + (lid / 3u) * 3u * rows + 3u * row + lid % 3u] = total;
  }
  if (adm_tiny) results[pc.flag_at] = 1u;
}
