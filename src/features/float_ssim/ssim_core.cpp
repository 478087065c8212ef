#include "features/float_ssim/ssim_core.hpp"

#include <cstddef>
#include <vector>

#include "features/ssim_common/vector.hpp"

namespace vqtwin::float_ssim {
namespace {

// The five moment planes: mu_ref, mu_dist, ref^2, dist^2, ref*dist.
constexpr int kMoments = 5;
// Spare samples after each row: rows of different planes start apart (no loop reads them).
constexpr int kPad = 64;

// Buffers for one plane width, reused from frame to frame by each thread.
struct Scratch {
  int width = 0;
  int map_w = 0;
  std::size_t in_len = 0;
  std::vector<float> in;      // ref^2, dist^2, ref*dist of one source row (float products)
  std::vector<float> ring;    // kWindow x kMoments horizontally filtered rows
  std::vector<float> moment;  // kMoments vertically filtered rows
  std::vector<float> stats;   // var_r, var_d, cov, sqrt(var_r var_d) of one map row
  std::vector<double> lcs;    // l*c*s, l, c, s of one map row

  // float_ms_ssim calls with five widths per frame: buffers only grow, and every element a call
  // reads was written earlier in the same call, so stale contents never matter.
  void size_for(int w) {
    if (w == width) return;
    width = w;
    map_w = w - (kWindow - 1);
    in_len = std::size_t(w) + kPad;
    const std::size_t mw = std::size_t(map_w) + kPad;
    grow(in, 3 * in_len);
    grow(ring, std::size_t(kWindow) * kMoments * mw);
    grow(moment, kMoments * mw);
    grow(stats, 4 * mw);
    grow(lcs, 4 * mw);
  }
  template <class T>
  static void grow(std::vector<T>& v, std::size_t n) {
    if (v.size() < n) v.resize(n);
  }
  std::size_t map_len() const { return std::size_t(map_w) + kPad; }
  float* in_row(int m) { return in.data() + std::size_t(m) * in_len; }
  float* ring_row(int slot, int m) { return ring.data() + (std::size_t(slot) * kMoments + m) * map_len(); }
  float* moment_row(int m) { return moment.data() + std::size_t(m) * map_len(); }
  float* stats_row(int i) { return stats.data() + std::size_t(i) * map_len(); }
  double* lcs_row(int i) { return lcs.data() + std::size_t(i) * map_len(); }
};

thread_local Scratch t_scratch;

// The loops below are plain scalar code in the reference order; GCC vectorises them across x (one
// lane per output, see ssim_common/vector.hpp), which changes nothing in the values.

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

VQTWIN_VECTOR_CLONES
Means means_of(Scratch& sc, const float* ref, const float* dist, int h) {
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

}  // namespace

Means ssim_means(const float* ref, const float* dist, int w, int h) {
  Scratch& sc = t_scratch;
  sc.size_for(w);
  return means_of(sc, ref, dist, h);
}

}  // namespace vqtwin::float_ssim
