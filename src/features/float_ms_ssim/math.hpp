#pragma once
// float_ms_ssim's constants and the combination of the per-level means (spec: float_ms_ssim.md),
// shared by the CPU reference and the twins.
#include <cmath>

#include "core/hd.hpp"

namespace vqtwin::float_ms_ssim {

inline constexpr int kLevels = 5;
inline constexpr int kLpfTaps = 9;
inline constexpr int kLpfRadius = kLpfTaps / 2;

// The 9/7 biorthogonal low-pass as libvmaf uses it: a 2-D table of float literals (not the outer
// product of its 1-D vector, which differs in the last bits). Symmetric: kLpfQuarter[|dy|][|dx|].
inline constexpr float kLpfQuarter[kLpfRadius + 1][kLpfRadius + 1] = {
    {0.363505f, 0.160885f, -0.047149f, -0.010146f, 0.016114f},
    {0.160885f, 0.071207f, -0.020867f, -0.004490f, 0.007132f},
    {-0.047149f, -0.020867f, 0.006115f, 0.001316f, -0.002090f},
    {-0.010146f, -0.004490f, 0.001316f, 0.000283f, -0.000450f},
    {0.016114f, 0.007132f, -0.002090f, -0.000450f, 0.000714f},
};

VQTWIN_HD constexpr float lpf_weight(int dy, int dx) {
  return kLpfQuarter[dy < 0 ? -dy : dy][dx < 0 ? -dx : dx];
}

// Wang's exponents, float literals (widened to double where used). Luminance enters at level 4 only.
inline constexpr float kAlpha[kLevels] = {0.0000f, 0.0000f, 0.0000f, 0.0000f, 0.1333f};
inline constexpr float kBeta[kLevels] = {0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f};
inline constexpr float kGamma[kLevels] = {0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f};

// ceil(n / 2) written as libvmaf does.
VQTWIN_HD inline int half_size(int n) { return n / 2 + (n & 1); }

// libvmaf's guard: floor-halved sizes must hold the 11-tap window at every level, i.e. w, h >= 176
// (stricter than the ceil-halved pyramid itself needs).
inline bool size_supported(int w, int h) {
  for (int k = 0; k < kLevels; ++k, w /= 2, h /= 2)
    if (w < 11 || h < 11) return false;
  return true;
}

// M = prod_k (pow(L_k, a_k) * pow(C_k, b_k)) * pow(S_k, g_k), in double, levels in order, with the C
// library's double pow of the float means. Host only: a device pow may differ in the last bit.
inline double combine(const float l[kLevels], const float c[kLevels], const float s[kLevels]) {
  double m = 1.0;
  for (int k = 0; k < kLevels; ++k) {
    const double t = std::pow(double(l[k]), double(kAlpha[k])) * std::pow(double(c[k]), double(kBeta[k])) *
                     std::pow(double(s[k]), double(kGamma[k]));
    m = m * t;
  }
  return m;
}

}  // namespace vqtwin::float_ms_ssim
