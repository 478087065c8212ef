#pragma once
// float_vif one output at a time, for the device twin (spec: float_vif.md §4, §5, §7): the five
// vertical moments at one sample, the horizontal pass at one column of a row, one decimated sample,
// one pixel's statistic (math.hpp's pixel_num_den) and the in-order float sum of a row. Each is the
// CPU's scalar loop body for one output (scale_rows.inc), with the same operations in the same
// order: accumulators from 0.0f, taps ascending, products rounded before the add, reflect-101 edges
// applied once. tests/unit/float_vif_cells_test.cpp runs them on the host against the CPU's sums.
#include <cstddef>
#include <span>

#include "core/hd.hpp"
#include "features/float_vif/math.hpp"

namespace vqtwin::float_vif {

// The widest kernel (ks = 360/97 at scale 0: 65 taps).
inline constexpr int kMaxKernelTaps = 65;

// A kernel as a value (passed to device kernels as an argument).
struct Taps {
  float k[kMaxKernelTaps];
  int n;
};

inline Taps taps_of(std::span<const float> kernel) {
  Taps t{};
  t.n = int(kernel.size());
  for (int i = 0; i < t.n && i < kMaxKernelTaps; ++i) t.k[i] = kernel[std::size_t(i)];
  return t;
}

// libvmaf's reflect-101, applied once: -q for q < 0, 2n - q - 2 for q >= n.
VQTWIN_HD inline int reflect101(int q, int n) { return q < 0 ? -q : (q >= n ? 2 * n - q - 2 : q); }

// The five vertical moments of planes a (ref) and b (dis), w x h packed, at column j of row i:
// per moment acc = 0, then acc += k[t] * S for t ascending, S = x, y, x*x, y*y, x*y.
struct Moments5 {
  float m[5];
};
VQTWIN_HD inline Moments5 vertical_moments_at(const float* a, const float* b, int w, int h, const Taps& k, int i,
                                              int j) {
  const int r = k.n / 2;
  float s1 = 0.0f, s2 = 0.0f, sxx = 0.0f, syy = 0.0f, sxy = 0.0f;
  for (int t = 0; t < k.n; ++t) {
    const std::ptrdiff_t q = reflect101(i - r + t, h);
    const float kt = k.k[t];
    const float x = a[q * w + j];
    const float y = b[q * w + j];
    s1 += kt * x;
    s2 += kt * y;
    sxx += kt * (x * x);
    syy += kt * (y * y);
    sxy += kt * (x * y);
  }
  return {{s1, s2, sxx, syy, sxy}};
}

// The horizontal pass at output j of a row of w values: acc = 0, acc += k[t] * in[step*j - r + t]
// for t ascending (reflect-101 on the row). step 1 filters every column, step 2 decimates.
VQTWIN_HD inline float horizontal_at(const float* in, int w, const Taps& k, int j, int step) {
  const int r = k.n / 2;
  float acc = 0.0f;
  for (int t = 0; t < k.n; ++t) acc += k.k[t] * in[reflect101(step * j - r + t, w)];
  return acc;
}

// The plain vertical pass of src (w x h packed) at column j of row i: out = 0, out += k[t] * a.
VQTWIN_HD inline float vertical_plain_at(const float* src, int w, int h, const Taps& k, int i, int j) {
  const int r = k.n / 2;
  float out = 0.0f;
  for (int t = 0; t < k.n; ++t) out += k.k[t] * src[std::ptrdiff_t(reflect101(i - r + t, h)) * w + j];
  return out;
}

// One sample (i, j) of the blurred and decimated plane (floor(w/2) x floor(h/2)): the horizontal
// pass at column 2j of the vertical pass at row 2i (each vertical value recomputed, same bits).
VQTWIN_HD inline float blur_decimate_at(const float* src, int w, int h, const Taps& k, int i, int j) {
  const int r = k.n / 2;
  float acc = 0.0f;
  for (int t = 0; t < k.n; ++t) acc += k.k[t] * vertical_plain_at(src, w, h, k, 2 * i, reflect101(2 * j - r + t, w));
  return acc;
}

// A row's (or the rows') values added in order from 0.0f, in float.
VQTWIN_HD inline float sum_in_order(const float* v, int n) {
  float acc = 0.0f;
  for (int j = 0; j < n; ++j) acc += v[j];
  return acc;
}

}  // namespace vqtwin::float_vif
