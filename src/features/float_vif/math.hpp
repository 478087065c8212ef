#pragma once
// float_vif's scalar math, shared by the CPU reference and the twins (spec: float_vif.md §3, §6).
// Every line is one IEEE operation in the order and type
// libvmaf uses: float where it keeps floats, double where a double operand promotes the expression.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/hd.hpp"

// The per-pixel functions are inlined into the row loops (a call per pixel would block SIMD lanes).
#if defined(__CUDACC__)
#define VQTWIN_VIF_INLINE __forceinline__
#elif defined(__GNUC__)
#define VQTWIN_VIF_INLINE inline __attribute__((always_inline))
#else
#define VQTWIN_VIF_INLINE inline
#endif

namespace vqtwin::float_vif {

// libvmaf's fast log2 (VIF_OPT_FAST_LOG2): exponent field plus a degree-8 polynomial of the mantissa,
// all in float. Not libm log2: the polynomial's rounding is part of the numbers.
VQTWIN_HD VQTWIN_VIF_INLINE float log2_approx(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  const int exponent = int((bits >> 23) & 0xFFu);
  const std::uint32_t mantissa_bits = (bits & 0x007FFFFFu) | 0x3F800000u;  // same mantissa, in [1, 2)
  float m;
  std::memcpy(&m, &mantissa_bits, sizeof m);
  const float t = m - 1.0f;
  // Horner, highest coefficient first, from v = 0 (written out: a loop here blocks vectorisation).
  float v = 0.0f;
  v = v * t + -0.012671635276421f;  // each line: one float multiply, one float add (never fused)
  v = v * t + 0.064841182402670f;
  v = v * t + -0.157048836463065f;
  v = v * t + 0.257167726303123f;
  v = v * t + -0.353800560300520f;
  v = v * t + 0.480131410397451f;
  v = v * t + -0.721314327952201f;
  v = v * t + 1.442694803896991f;
  v = v * t + 0.0f;
  const float result = float(exponent - 127) + v;
  return x == 0.0f ? -INFINITY : (x < 0.0f ? NAN : result);
}

// The float totals of one scale: Σ num and Σ den, each row summed in float, the rows in order.
struct ScaleSums {
  float num = 0.0f;
  float den = 0.0f;
};

// Constants of the per-pixel statistic, fixed per context.
struct StatParams {
  float gain_limit;    // (float)vif_enhn_gain_limit
  double sigma_nsq;    // vif_sigma_nsq, kept double: it promotes the log arguments
  float sigma_max_inv; // f32(powf(f32(nsq), 2) / (255.0 * 255.0))
};

inline StatParams make_stat_params(double gain_limit, double sigma_nsq) {
  StatParams p;
  p.gain_limit = float(gain_limit);
  p.sigma_nsq = sigma_nsq;
  p.sigma_max_inv = float(double(std::pow(float(sigma_nsq), 2.0f)) / (255.0 * 255.0));
  return p;
}

// One pixel's numerator and denominator from the five filtered moments (spec §6, in its order:
// each test sees the values left by the previous one; NaN-safe comparisons as libvmaf's macros).
VQTWIN_HD VQTWIN_VIF_INLINE void pixel_num_den(float mu1, float mu2, float xx, float yy, float xy, const StatParams& p,
                                    float& num, float& den) {
  constexpr float eps = 1.0e-10f;
  const float mu1_sq = mu1 * mu1;
  const float mu2_sq = mu2 * mu2;
  const float mu1_mu2 = mu1 * mu2;
  float sigma1_sq = xx - mu1_sq;
  float sigma2_sq = yy - mu2_sq;
  const float sigma12 = xy - mu1_mu2;
  sigma1_sq = sigma1_sq > 0.0f ? sigma1_sq : 0.0f;
  sigma2_sq = sigma2_sq > 0.0f ? sigma2_sq : 0.0f;

  float g = sigma12 / (sigma1_sq + eps);
  float sv_sq = sigma2_sq - g * sigma12;
  if (sigma1_sq < eps) {
    g = 0.0f;
    sv_sq = sigma2_sq;
    sigma1_sq = 0.0f;
  }
  if (sigma2_sq < eps) {
    g = 0.0f;
    sv_sq = 0.0f;
  }
  if (g < 0.0f) {
    sv_sq = sigma2_sq;
    g = 0.0f;
  }
  sv_sq = sv_sq > eps ? sv_sq : eps;
  g = g < p.gain_limit ? g : p.gain_limit;

  // g*g*s1 in float; the divisor sv + nsq is double, so the quotient and the 1 + are double,
  // rounded to float once when handed to the float log.
  const float gain_term = g * g * sigma1_sq;
  num = log2_approx(float(1.0 + double(gain_term) / (double(sv_sq) + p.sigma_nsq)));
  den = log2_approx(float(1.0 + double(sigma1_sq) / p.sigma_nsq));
  if (sigma12 < 0.0f) num = 0.0f;
  if (double(sigma1_sq) < p.sigma_nsq) {
    num = 1.0f - sigma2_sq * p.sigma_max_inv;
    den = 1.0f;
  }
}

// ---- kernels (host only: generated once per context) ----

// True when `ks` (converted to float, as libvmaf does) is within 1e-3 of one of its 21 values.
bool kernelscale_is_valid(double ks);

// Width of the scale-s Gaussian: max(odd ceiling of f32((2^(4-s)+1) * ks), 3).
int kernel_width(int scale, double ks);

// The normalised scale-s Gaussian (spec §3): sigma = width / 5, the pdf evaluated in double,
// rounded to float, divided (sic) by the float normaliser, then divided by the float sum.
std::vector<float> make_kernel(int scale, double ks);

}  // namespace vqtwin::float_vif
