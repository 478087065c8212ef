#version 450
// integer VIF's local statistics and per-pixel contribution at one scale: the horizontal pass over a
// row of moments and the variances/covariance (cells.hpp sigmas_at), then math.hpp's
// accumulate_pixel, each invocation adding its pixels' terms in int64 and each workgroup writing one
// partial of each of the four sums (integer: any order gives the CPU's totals; the host adds them).
// The double block of numerator_term runs on the fp64 unit in libvmaf's order, one rounded
// operation per statement, `precise` (no contraction) under RoundingModeRTE; its division is done
// exactly in integers (exact_division.glsl), never by the driver. The log table is the CPU's.
// No value is denormal: den >= 2^17, g >= 2^-31 (sigma12 >= 1, den < 2^32), g*g >= 2^-62.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_spirv_intrinsics : require
#extension GL_GOOGLE_include_directive : require
#include "exact_division.glsl"

// SPV_KHR_float_controls: RoundingModeRTE (capability 4467, execution mode 4462) for 64-bit floats.
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 64);

layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer Mx { uint mx[]; };
layout(std430, set = 0, binding = 1) readonly buffer My { uint my[]; };
layout(std430, set = 0, binding = 2) readonly buffer Mxx { uint mxx[]; };
layout(std430, set = 0, binding = 3) readonly buffer Myy { uint myy[]; };
layout(std430, set = 0, binding = 4) readonly buffer Mxy { uint mxy[]; };
layout(std430, set = 0, binding = 5) readonly buffer Taps { uint taps[]; };
layout(std430, set = 0, binding = 6) readonly buffer LogTable { uint log_table[]; };
layout(std430, set = 0, binding = 7) writeonly buffer Partials { uint64_t partials[]; };
layout(push_constant) uniform Push {
  uint width, height, tap_first, tap_count, tap_half;
  uint gain_lo, gain_hi, eps_lo, eps_hi;  // vif_enhn_gain_limit and 65536 * 1e-10, double bits
  uint first_partial;                     // this scale's partials: 4 runs of 256 (kGroups; a workgroup's at its index)
} pc;

const int kSigmaNsq = 131072;
const int kLogSigmaNsq = 17 * 2048;

int mirror(int c, int n) { return c < 0 ? -c : (c >= n ? 2 * (n - 1) - c : c); }

// math.hpp log_q11: the 16 leading bits index the table, 2048 per further bit (v >= 2^17).
int log_q11(uint64_t v) {
  const uint hi = uint(v >> 32);
  const int k = (hi != 0u ? findMSB(hi) + 33 : findMSB(uint(v)) + 1) - 16;
  return int(log_table[uint(v >> uint(k))]) + 2048 * k;
}

// math.hpp numerator_term, statement for statement.
int numerator_term(int sigma1, int sigma2, int sigma12) {
  const double eps = packDouble2x32(uvec2(pc.eps_lo, pc.eps_hi));
  const double gain_limit = packDouble2x32(uvec2(pc.gain_lo, pc.gain_hi));
  precise const double den = double(sigma1) + eps;
  double g = exact_div(double(sigma12), den, false);
  precise const double g_sigma12 = g * double(sigma12);
  precise const double t = double(sigma2) - g_sigma12;
  const int sv = t < 1.0 ? 0 : int(t);  // t <= sigma2 < 2^31
  g = g < gain_limit ? g : gain_limit;
  precise const double gg = g * g;
  precise const double p = gg * double(sigma1);  // >= 0 and < 1e4 * 2^31
  const int64_t n1 = int64_t(sv) + int64_t(kSigmaNsq);
  const int64_t n2 = int64_t(p) + n1;
  return log_q11(uint64_t(n2)) - log_q11(uint64_t(n1));
}

int low32(int64_t v) { return int(uint(uint64_t(v))); }

shared int64_t fold[4][64];

void main() {
  const uint lane = gl_LocalInvocationID.x;
  const int w = int(pc.width);
  const uint n = pc.width * pc.height;
  int64_t num_log = 0l, den_log = 0l, lin_sigma2 = 0l, lin_count = 0l;
  for (uint i = gl_GlobalInvocationID.x; i < n; i += gl_NumWorkGroups.x * 64u) {
    const uint row = i / pc.width * pc.width;
    const int col = int(i - row);
    uint64_t sx = 0ul, sy = 0ul, exx = 0ul, eyy = 0ul, exy = 0ul;
    for (uint t = 0u; t < pc.tap_count; ++t) {
      const uint c = row + uint(mirror(col - int(pc.tap_half) + int(t), w));
      const uint64_t f = uint64_t(taps[pc.tap_first + t]);
      sx += f * uint64_t(mx[c]);
      sy += f * uint64_t(my[c]);
      exx += f * uint64_t(mxx[c]);
      eyy += f * uint64_t(myy[c]);
      exy += f * uint64_t(mxy[c]);
    }
    exx = (exx + 32768ul) >> 16;
    eyy = (eyy + 32768ul) >> 16;
    exy = (exy + 32768ul) >> 16;
    const uint64_t pxx = (sx * sx + 0x80000000ul) >> 32;
    const uint64_t pyy = (sy * sy + 0x80000000ul) >> 32;
    const uint64_t pxy = (sx * sy + 0x80000000ul) >> 32;
    const int sigma1 = low32(int64_t(exx) - int64_t(pxx));
    int sigma2 = low32(int64_t(eyy) - int64_t(pyy));
    const int sigma12 = low32(int64_t(exy) - int64_t(pxy));
    // math.hpp accumulate_pixel.
    if (sigma2 < 0) sigma2 = 0;
    if (sigma1 >= kSigmaNsq) {
      den_log += int64_t(log_q11(uint64_t(uint(kSigmaNsq) + uint(sigma1))) - kLogSigmaNsq);
      if (sigma12 > 0 && sigma2 > 0) num_log += int64_t(numerator_term(sigma1, sigma2, sigma12));
    } else {
      lin_sigma2 += int64_t(sigma2);
      lin_count += 1l;
    }
  }
  fold[0][lane] = num_log;
  fold[1][lane] = den_log;
  fold[2][lane] = lin_sigma2;
  fold[3][lane] = lin_count;
  barrier();
  for (uint k = 32u; k > 0u; k >>= 1) {
    if (lane < k)
      for (int s = 0; s < 4; ++s) fold[s][lane] += fold[s][lane + k];
    barrier();
  }
  if (lane < 4u) partials[pc.first_partial + lane * 256u + gl_WorkGroupID.x] = uint64_t(fold[lane][0]);
}
