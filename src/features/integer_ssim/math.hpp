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
// (A function too: device code cannot read a namespace-scope array.)
struct KernelTaps {
  int v[kTaps];
};
VQTWIN_HD constexpr KernelTaps kernel_taps() { return {{2, 9, 28, 55, 68, 55, 28, 9, 2}}; }
inline constexpr int kKernel[kTaps] = {kernel_taps().v[0], kernel_taps().v[1], kernel_taps().v[2],
                                       kernel_taps().v[3], kernel_taps().v[4], kernel_taps().v[5],
                                       kernel_taps().v[6], kernel_taps().v[7], kernel_taps().v[8]};

// Moments of one window, each a sum of weight * sample products over the taps inside the picture
// (taps outside are dropped, not mirrored); w is the sum of the weights used (65536 inside).
struct Moments {
  std::int64_t mux, muy, x2, xy, y2, w;
};

// K1^2 and K2^2 as the fork's double constants (the Vulkan twin passes their bits to its shader).
inline constexpr double kK1sq = 0.01 * 0.01;
inline constexpr double kK2sq = 0.03 * 0.03;

// The combined Wang formula scaled by w^4, no clamps, in the fork's order of double operations.
// peak_sq = (2^bpc - 1)^2 as a double (exact; the fork's fix of upstream's int overflow at 16 bit).
VQTWIN_HD inline double window_term(const Moments& m, double peak_sq) {
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

// The weights of the taps of position i that fall inside [0, n) (256 away from the edges).
VQTWIN_HD inline std::int64_t weight_used(int i, int n) {
  constexpr KernelTaps k = kernel_taps();
  std::int64_t sum = 0;
  for (int j = 0; j < kTaps; ++j) {
    const int c = i - kRadius + j;
    if (c >= 0 && c < n) sum += k.v[j];
  }
  return sum;
}

// The windows in two separable passes, as the CUDA twin runs them over a tile: first the 9-tap sums
// of each row (row_sums), then 9 of those rows down a column (column_moments). Samples outside the
// picture are read as 0, which adds nothing to any moment: the same as dropping the tap. Every sum is
// exact, in any order, when its type holds it:
//  - `Acc` (row sums): uint32 suffices for 8-bit samples (256 * 255^2 < 2^32); deeper pictures need
//    64 bits, since a 10- or 12-bit picture may hold any 16-bit word.
//  - `ColAcc` (window sums): uint32 at 8 bits too (65536 * 255^2 = 4,261,478,400 < 2^32), 64 bits
//    deeper (65536 * 65535^2 < 2^48).
template <class Acc>
struct RowSums {
  Acc x, y, x2, xy, y2;
};

// The 9-tap sums of one row: samples a[0..8] of the reference, b[0..8] of the distorted.
template <class T, class Acc>
VQTWIN_HD inline RowSums<Acc> row_sums(const T* a, const T* b) {
  constexpr KernelTaps k = kernel_taps();
  RowSums<Acc> r{0, 0, 0, 0, 0};
  for (int i = 0; i < kTaps; ++i) {
    const Acc s = a[i], d = b[i], wk = Acc(k.v[i]);
    r.x += wk * s;
    r.y += wk * d;
    r.x2 += wk * (s * s);
    r.xy += wk * (s * d);
    r.y2 += wk * (d * d);
  }
  return r;
}

// The window from the row sums of its 9 rows, rows[j * stride] for tap j; `weight` its weight_used
// product.
template <class ColAcc, class Acc>
VQTWIN_HD inline Moments column_moments(const RowSums<Acc>* rows, int stride, std::int64_t weight) {
  constexpr KernelTaps k = kernel_taps();
  ColAcc mux = 0, muy = 0, x2 = 0, xy = 0, y2 = 0;
  for (int j = 0; j < kTaps; ++j) {
    const RowSums<Acc>& r = rows[j * stride];
    const ColAcc vk = ColAcc(k.v[j]);
    mux += vk * ColAcc(r.x);
    muy += vk * ColAcc(r.y);
    x2 += vk * ColAcc(r.x2);
    xy += vk * ColAcc(r.xy);
    y2 += vk * ColAcc(r.y2);
  }
  return Moments{std::int64_t(mux), std::int64_t(muy), std::int64_t(x2), std::int64_t(xy), std::int64_t(y2), weight};
}

// Sum of every window's weight over a w x h picture: the CPU adds these integers in a double, exactly
// (each partial sum is an integer below 65536 w h < 2^53), so the exact integer product is its value.
inline double weight_total(int w, int h) {
  std::int64_t cols = 0, rows = 0;
  for (int x = 0; x < w; ++x) cols += weight_used(x, w);
  for (int y = 0; y < h; ++y) rows += weight_used(y, h);
  return double(cols * rows);
}

}  // namespace vqtwin::integer_ssim
