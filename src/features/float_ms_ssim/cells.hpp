#pragma once
// float_ms_ssim one output at a time, for the device twin (spec: float_ms_ssim.md §4, float_ssim.md
// §5-§9): one sample of the pyramid's low-pass decimation, one sample of the five horizontally
// filtered moment rows, and one SSIM-map pixel's l, c, s from the vertical pass. Each is the CPU's
// loop body for one output (pyramid.cpp, float_ssim/ssim_core.cpp), in the same types and order; the
// filters' taps travel as values (device code cannot index the host tables). The per-level sums are
// ordered double sums (core/ordered_sum.hpp). tests/unit/float_ms_ssim_cells_test.cpp runs these on
// the host against the CPU.
#include <cstddef>

#include "core/hd.hpp"
#include "features/float_ms_ssim/math.hpp"
#include "features/float_ssim/math.hpp"

namespace vqtwin::float_ms_ssim {

// The 9x9 low-pass weights as values: w[|dy|][|dx|].
struct LpfTable {
  float w[kLpfRadius + 1][kLpfRadius + 1];
};
inline LpfTable lpf_table() {
  LpfTable t{};
  for (int a = 0; a <= kLpfRadius; ++a)
    for (int b = 0; b <= kLpfRadius; ++b) t.w[a][b] = kLpfQuarter[a][b];
  return t;
}

// The 11-tap Gaussian as values.
struct GaussTaps {
  float g[float_ssim::kWindow];
};
inline GaussTaps gauss_taps() {
  GaussTaps t{};
  for (int u = 0; u < float_ssim::kWindow; ++u) t.g[u] = float_ssim::kGauss[u];
  return t;
}

// Output (x, y) of the decimation of src (w x h packed): rows dy = -4..4 outer, columns dx = -4..4
// inner, the float product sample * weight added to a double from 0, edges mirrored (-1 -> 0,
// n -> n-1), rounded to float once.
VQTWIN_HD inline float lpf_decimate_at(const float* src, int w, int h, const LpfTable& t, int x, int y) {
  double acc = 0.0;
  for (int dy = -kLpfRadius; dy <= kLpfRadius; ++dy) {
    const float* row = src + std::ptrdiff_t(float_ssim::mirror(2 * y + dy, h)) * w;
    const float* wr = t.w[dy < 0 ? -dy : dy];
    for (int dx = -kLpfRadius; dx <= kLpfRadius; ++dx)
      acc += double(row[float_ssim::mirror(2 * x + dx, w)] * wr[dx < 0 ? -dx : dx]);
  }
  return float(acc);
}

// The horizontal pass at map column x of source row r (ref) and d (dist): per moment
// f32(sum_u f64(f32(in[x+u] * g[u]))), in = r, d, r*r, d*d, r*d (float products).
struct Moments5 {
  float m[5];
};
VQTWIN_HD inline Moments5 horizontal_moments_at(const float* r, const float* d, const GaussTaps& k, int x) {
  double a[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
  for (int u = 0; u < float_ssim::kWindow; ++u) {
    const float rv = r[x + u], dv = d[x + u];
    const float g = k.g[u];
    a[0] += double(rv * g);
    a[1] += double(dv * g);
    a[2] += double((rv * rv) * g);
    a[3] += double((dv * dv) * g);
    a[4] += double((rv * dv) * g);
  }
  return {{float(a[0]), float(a[1]), float(a[2]), float(a[3]), float(a[4])}};
}

// One SSIM-map pixel from the five horizontally filtered planes (map_w wide, `stride` apart per
// row): the vertical pass over rows y..y+10 (f32(sum_v f64(f32(H[y+v][x] * g[v])))), then l, c, s.
// `sqrt_rn` is the correctly rounded float square root of the compiler at hand.
template <class Sqrt>
VQTWIN_HD inline float_ssim::PixelLcs pixel_at(const float* const h[5], std::size_t stride, const GaussTaps& k, int x,
                                               int y, Sqrt sqrt_rn) {
  float m[5];
  for (int q = 0; q < 5; ++q) {
    double acc = 0.0;
    for (int v = 0; v < float_ssim::kWindow; ++v) acc += double(h[q][std::size_t(y + v) * stride + std::size_t(x)] * k.g[v]);
    m[q] = float(acc);
  }
  const float_ssim::PixelStats st = float_ssim::pixel_stats(m[0], m[1], m[2], m[3], m[4]);
  return float_ssim::pixel_lcs_of(m[0], m[1], st, sqrt_rn(st.var_r * st.var_d));
}

}  // namespace vqtwin::float_ms_ssim
