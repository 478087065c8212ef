#pragma once
// float_ssim's scalar math (spec: float_ssim.md), shared by the CPU reference,
// float_ms_ssim and the CUDA twins. Every expression keeps libvmaf's types and operation order:
// float where it rounds to float, double where it works in double, nothing contracted.
#include <math.h>

#include "core/hd.hpp"

namespace vqtwin::float_ssim {

// Gaussian window: 11 taps, sigma 1.5, the 6-decimal float literals of libvmaf (their sum is not
// 1 and nothing renormalises them). Horizontal and vertical passes use the same vector.
inline constexpr int kWindow = 11;
inline constexpr int kRadius = kWindow / 2;
// (A function too: device code cannot read a namespace-scope array; gauss_pass copies it locally.)
struct GaussTaps {
  float v[kWindow];
};
VQTWIN_HD constexpr GaussTaps gauss_taps() {
  return {{0.001028f, 0.007599f, 0.036001f, 0.109361f, 0.213006f, 0.266012f, 0.213006f, 0.109361f, 0.036001f,
           0.007599f, 0.001028f}};
}
inline constexpr float kGauss[kWindow] = {gauss_taps().v[0], gauss_taps().v[1], gauss_taps().v[2], gauss_taps().v[3],
                                          gauss_taps().v[4], gauss_taps().v[5], gauss_taps().v[6], gauss_taps().v[7],
                                          gauss_taps().v[8], gauss_taps().v[9], gauss_taps().v[10]};

// One output of a Gaussian pass: f32(sum_u f64(f32(p[u*step] * g[u]))), u ascending from a double 0
// (spec §5: float products, double sums, one float rounding per pass).
VQTWIN_HD inline float gauss_pass(const float* p, long step) {
  constexpr GaussTaps g = gauss_taps();
  double acc = 0.0;
  for (int u = 0; u < kWindow; ++u) acc += double(p[u * step] * g.v[u]);
  return float(acc);
}

// The same pass over the float products a[i]*b[i] (the r*r, d*d, r*d planes of spec §7, each
// product rounded to float before it is weighted).
VQTWIN_HD inline float gauss_pass_products(const float* a, const float* b, long step) {
  constexpr GaussTaps g = gauss_taps();
  double acc = 0.0;
  for (int u = 0; u < kWindow; ++u) {
    const float prod = a[u * step] * b[u * step];
    acc += double(prod * g.v[u]);
  }
  return float(acc);
}

// Stabilising constants, evaluated in float as libvmaf does (L = 255 at every bit depth: samples
// are converted to the 8-bit range first).
inline constexpr float kC1 = (0.01f * 255) * (0.01f * 255);
inline constexpr float kC2 = (0.03f * 255) * (0.03f * 255);
inline constexpr float kC3 = kC2 / 2.0f;

// The largest box-decimation scale for which the double window sum is provably exact (spec §4).
inline constexpr int kMaxScale = 128;

// scale=0: max(1, round_half_up(min(w, h) / 256)) in float.
VQTWIN_HD inline int auto_scale(int width, int height) {
  const float a = float(width < height ? width : height) / 256.0f;
  const int t = int(a);
  const int r = (a - float(t) >= 0.5f) ? t + 1 : t;
  return r > 1 ? r : 1;
}

// Size of a dimension after box decimation by s > 1: n/s + (n&1). Not ceil: an odd dimension always
// gets one more sample (centred at n - 1 + ..., served by the mirror), an even one never does.
VQTWIN_HD inline int decimated_size(int n, int scale) { return n / scale + (n & 1); }

// Every weight of the s x s box (float division, rounded for s not a power of two).
VQTWIN_HD inline float box_weight(int scale) { return 1.0f / float(scale * scale); }

// Edge-duplicating mirror (KBND_SYMMETRIC): -1 -> 0, n -> n-1. Folded with period 2n so that any
// coordinate maps into [0, n) (one reflection, as in libvmaf, whenever -n <= c < 2n).
VQTWIN_HD inline int mirror(int c, int n) {
  const int period = 2 * n;
  int r = c % period;
  if (r < 0) r += period;
  return r < n ? r : period - 1 - r;
}

// One SSIM-map pixel from its five Gaussian moments (spec §7-8), in two steps so that a vectorised
// CPU loop can take the square root in between; pixel_lcs chains them.
struct PixelStats {
  float var_r, var_d, cov;
};

VQTWIN_HD inline PixelStats pixel_stats(float mu_r, float mu_d, float m_rr, float m_dd, float m_rd) {
  float var_r = m_rr - mu_r * mu_r;
  float var_d = m_dd - mu_d * mu_d;
  const float cov = m_rd - mu_r * mu_d;
  // MAX(0.0, v): the comparison form matters only for NaN, which passes through as in libvmaf.
  var_r = (0.0f > var_r) ? 0.0f : var_r;
  var_d = (0.0f > var_d) ? 0.0f : var_d;
  return PixelStats{var_r, var_d, cov};
}

struct PixelLcs {
  double l, c, s;
};

// srsc = sqrtf(var_r * var_d) (float product, correctly rounded square root).
VQTWIN_HD inline PixelLcs pixel_lcs_of(float mu_r, float mu_d, const PixelStats& st, float srsc) {
  PixelLcs p;
  // Double numerators, float denominators, double divisions.
  p.l = (2.0 * mu_r * mu_d + kC1) / double(mu_r * mu_r + mu_d * mu_d + kC1);
  p.c = (2.0 * srsc + kC2) / double(st.var_r + st.var_d + kC2);
  // Flat windows of identical inputs: a slightly negative covariance with zero deviations is 0.
  const float cov = (st.cov < 0.0f && srsc <= 0.0f) ? 0.0f : st.cov;
  p.s = double((cov + kC3) / (srsc + kC3));
  return p;
}

VQTWIN_HD inline PixelLcs pixel_lcs(float mu_r, float mu_d, float m_rr, float m_dd, float m_rd) {
  const PixelStats st = pixel_stats(mu_r, mu_d, m_rr, m_dd, m_rd);
  return pixel_lcs_of(mu_r, mu_d, st, sqrtf(st.var_r * st.var_d));
}

// The per-frame means, each a double sum over the map divided by its size, rounded to float.
struct Means {
  float lcs, l, c, s;
};

// A mean of the map_w x map_h SSIM map from its raster-order double sum: the double division by the
// int product, then the float rounding that libvmaf's iqa_ssim returns (spec §9).
VQTWIN_HD inline float mean_of(double sum, int map_w, int map_h) { return float(sum / double(map_w * map_h)); }

}  // namespace vqtwin::float_ssim
