#include "features/float_ssim/ssim_core.hpp"

#include "common/cpu.hpp"
#include "common/vector.hpp"

namespace vqtwin::float_ssim {
namespace {

// The loops below are plain scalar code in the reference order; GCC vectorises them across x (one
// lane per output, see common/vector.hpp), which changes nothing in the values.

// out[x] = f32(sum_u f64(f32(in[x+u] * g[u]))).
VQTWIN_ALWAYS_INLINE void filter_row(const float* __restrict in, float* __restrict out, int n) {
  VQTWIN_IVDEP
  for (int x = 0; x < n; ++x) {
    double acc = 0.0;
#pragma GCC unroll 11
    for (int u = 0; u < kWindow; ++u) acc += double(in[x + u] * kGauss[u]);
    out[x] = float(acc);
  }
}

// out[x] = f32(sum_v f64(f32(rows[v][x] * g[v]))).
VQTWIN_ALWAYS_INLINE void filter_column(const float* const* rows, float* __restrict out, int n) {
  VQTWIN_IVDEP
  for (int x = 0; x < n; ++x) {
    double acc = 0.0;
#pragma GCC unroll 11
    for (int v = 0; v < kWindow; ++v) acc += double(rows[v][x] * kGauss[v]);
    out[x] = float(acc);
  }
}

// Horizontal pass of source row y into ring slot `slot` (reads x + u <= w - 1 only).
VQTWIN_ALWAYS_INLINE void horizontal(Scratch& sc, const float* ref, const float* dist, int y, int slot) {
  const int w = sc.width;
  const float* __restrict r = ref + std::size_t(y) * w;
  const float* __restrict d = dist + std::size_t(y) * w;
  float* __restrict rr = sc.in_row(0);
  float* __restrict dd = sc.in_row(1);
  float* __restrict rd = sc.in_row(2);
  VQTWIN_IVDEP
  for (int x = 0; x < w; ++x) {
    rr[x] = r[x] * r[x];
    dd[x] = d[x] * d[x];
    rd[x] = r[x] * d[x];
  }
  filter_row(r, sc.ring_row(slot, 0), sc.map_w);
  filter_row(d, sc.ring_row(slot, 1), sc.map_w);
  filter_row(rr, sc.ring_row(slot, 2), sc.map_w);
  filter_row(dd, sc.ring_row(slot, 3), sc.map_w);
  filter_row(rd, sc.ring_row(slot, 4), sc.map_w);
}

// l, c, s and l*c*s of one map row (not yet summed).
VQTWIN_ALWAYS_INLINE void pixel_row(Scratch& sc) {
  const int n = sc.map_w;
  const float* __restrict mu_r = sc.moment_row(0);
  const float* __restrict mu_d = sc.moment_row(1);
  const float* __restrict m_rr = sc.moment_row(2);
  const float* __restrict m_dd = sc.moment_row(3);
  const float* __restrict m_rd = sc.moment_row(4);
  float* __restrict var_r = sc.stats_row(0);
  float* __restrict var_d = sc.stats_row(1);
  float* __restrict cov = sc.stats_row(2);
  float* __restrict root = sc.stats_row(3);
  VQTWIN_IVDEP
  for (int x = 0; x < n; ++x) {
    const PixelStats st = pixel_stats(mu_r[x], mu_d[x], m_rr[x], m_dd[x], m_rd[x]);
    var_r[x] = st.var_r;
    var_d[x] = st.var_d;
    cov[x] = st.cov;
    root[x] = st.var_r * st.var_d;
  }
  vector_sqrt(root, n);
  double* __restrict lcs = sc.lcs_row(0);
  double* __restrict l = sc.lcs_row(1);
  double* __restrict c = sc.lcs_row(2);
  double* __restrict s = sc.lcs_row(3);
  VQTWIN_IVDEP
  for (int x = 0; x < n; ++x) {
    const PixelLcs p = pixel_lcs_of(mu_r[x], mu_d[x], PixelStats{var_r[x], var_d[x], cov[x]}, root[x]);
    lcs[x] = p.l * p.c * p.s;
    l[x] = p.l;
    c[x] = p.c;
    s[x] = p.s;
  }
}

VQTWIN_ALWAYS_INLINE Means means_of(Scratch& sc, const float* ref, const float* dist, int h) {
  const int map_w = sc.map_w, map_h = h - (kWindow - 1);
  for (int y = 0; y < kWindow - 1; ++y) horizontal(sc, ref, dist, y, y);

  double sum_lcs = 0.0, sum_l = 0.0, sum_c = 0.0, sum_s = 0.0;
  const float* rows[kWindow];
  for (int y = 0; y < map_h; ++y) {
    // Source rows y .. y+10 live in ring slots (y+v) % 11; row y+10 is the new one.
    horizontal(sc, ref, dist, y + kWindow - 1, (y + kWindow - 1) % kWindow);
    for (int m = 0; m < kMoments; ++m) {
      for (int v = 0; v < kWindow; ++v) rows[v] = sc.ring_row((y + v) % kWindow, m);
      filter_column(rows, sc.moment_row(m), map_w);
    }
    pixel_row(sc);
    // The sums run in raster order, one pixel after the other.
    const double* lcs = sc.lcs_row(0);
    const double* l = sc.lcs_row(1);
    const double* c = sc.lcs_row(2);
    const double* s = sc.lcs_row(3);
    for (int x = 0; x < map_w; ++x) {
      sum_lcs += lcs[x];
      sum_l += l[x];
      sum_c += c[x];
      sum_s += s[x];
    }
  }
  return Means{mean_of(sum_lcs, map_w, map_h), mean_of(sum_l, map_w, map_h), mean_of(sum_c, map_w, map_h),
               mean_of(sum_s, map_w, map_h)};
}

// The builds of means_of (common/isa.hpp): the same body, vectorised for each set.
Means means_portable(Scratch& sc, const float* ref, const float* dist, int w, int h) {
  sc.size_for(w);
  return means_of(sc, ref, dist, h);
}
#if VQTWIN_X86_VARIANTS
VQTWIN_TARGET_V3 Means means_v3(Scratch& sc, const float* ref, const float* dist, int w, int h) {
  sc.size_for(w);
  return means_of(sc, ref, dist, h);
}
VQTWIN_TARGET_V4 Means means_v4(Scratch& sc, const float* ref, const float* dist, int w, int h) {
  sc.size_for(w);
  return means_of(sc, ref, dist, h);
}
#endif

}  // namespace

SsimKernels ssim_kernels_for(unsigned cpu_flags) {
  SsimKernels k{"portable", means_portable};
#if VQTWIN_X86_VARIANTS
  if (!cpu::allows(cpu_flags, cpu::kAvx2)) return k;
  k = {"x86-64-v3", means_v3};
  if (!cpu::allows(cpu_flags, cpu::kAvx512)) return k;
  k = {"x86-64-v4", means_v4};
#endif
  return k;
}

}  // namespace vqtwin::float_ssim
