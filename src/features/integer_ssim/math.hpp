#pragma once
// integer_ssim's window math (spec: integer_ssim.md), shared by the CPU reference
// and the twins: exact integer moments in, one double SSIM term out, in the fork's operation order.
#include <cstdint>

#include "core/hd.hpp"

namespace vqtwin::integer_ssim {

// The 9-tap Gaussian (sigma 1.5) in units of 1/256, the same kernel horizontally and vertically:
// round(256 exp(-k^2 / 4.5) / (sqrt(2 pi) 1.5)) for |k| = 1..4, the centre making the sum 256.
inline constexpr int kTaps = 9;
inline constexpr int kRadius = kTaps / 2;
inline constexpr int kKernel[kTaps] = {2, 9, 28, 55, 68, 55, 28, 9, 2};

// Moments of one window, each a sum of weight * sample products over the taps inside the picture
// (taps outside are dropped, not mirrored); w is the sum of the weights used (65536 inside).
struct Moments {
  std::int64_t mux, muy, x2, xy, y2, w;
};

// The combined Wang formula scaled by w^4, no clamps, in the fork's order of double operations.
// peak_sq = (2^bpc - 1)^2 as a double (exact; the fork's fix of upstream's int overflow at 16 bit).
VQTWIN_HD inline double window_term(const Moments& m, double peak_sq) {
  constexpr double kK1sq = 0.01 * 0.01;
  constexpr double kK2sq = 0.03 * 0.03;
  const double w = double(m.w);
  const double c1 = peak_sq * kK1sq * w * w;
  const double c2 = peak_sq * kK2sq * w * w;
  const double mx2 = double(m.mux) * double(m.mux);
  const double mxy = double(m.mux) * double(m.muy);
  const double my2 = double(m.muy) * double(m.muy);
  const double num = w * (2 * mxy + c1) * (c2 + 2 * (double(m.xy) * w - mxy));
  const double den = (mx2 + my2 + c1) * (double(m.x2) * w - mx2 + double(m.y2) * w - my2 + c2);
  return num / den;
}

}  // namespace vqtwin::integer_ssim
