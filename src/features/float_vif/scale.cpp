// float_vif's per-scale filters, statistic and sums (spec float_vif.md §4-§7).
#include "features/float_vif/scale.hpp"

// Let GCC evaluate both sides of a float select (if-conversion) in the lane loops: FP exception
// flags are never read here, and this flag changes no value (unlike -ffast-math's other parts).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")
#endif

// The row loops are also built for AVX2 (8 lanes) and picked at run time. Same operations per lane
// (plain avx2: no FMA; the library forbids contraction anyway), so the same bits as the SSE2 build;
// tests/unit/float_vif_test.cpp compares the result with libvmaf's literal scalar loops.
// VQTWIN_NO_CLONES builds only the baseline version (to test it on a machine that has AVX2).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && !defined(VQTWIN_NO_CLONES)
#define VQTWIN_VIF_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define VQTWIN_VIF_CLONES
#endif

#include <cstddef>
#include <cstring>
#include <stdexcept>

namespace vqtwin::float_vif {
namespace {

// The widest kernel (ks = 360/97 at scale 0: 65 taps).
constexpr int kMaxTaps = 65;

// libvmaf's reflect-101, applied once: -q for q < 0, 2n - q - 2 for q >= n.
inline int reflect101(int q, int n) { return q < 0 ? -q : (q >= n ? 2 * n - q - 2 : q); }

// `row` holds w samples at row[0..w); fill r mirrored samples on each side (row[-r..-1], row[w..w+r)).
void pad_reflect101(float* row, int w, int r) {
  for (int m = 1; m <= r; ++m) {
    row[-m] = row[m];
    row[w - 1 + m] = row[w - 1 - m];
  }
}

// Vertical pass of the five filters for output row i: per column, acc = 0, then acc += k[t] * S
// for t ascending, S = x, y, x*x, y*y, x*y (the product rounded first, as libvmaf does).
#if defined(__GNUC__)
// GCC/Clang vector extension: 8 float lanes, each operation one IEEE rounding per lane (SSE2 pairs or
// one AVX2 register, whichever the clone is built for).
// Loads and stores are memcpy (unaligned, no aliasing issue), written inline: a function taking or
// returning this type would change the ABI between the SSE2 and AVX2 clones.
typedef float Lanes8 __attribute__((vector_size(32)));
#define VQTWIN_LOAD8(dst, src) std::memcpy(&(dst), (src), sizeof(Lanes8))
#define VQTWIN_STORE8(dst, src) std::memcpy((dst), &(src), sizeof(Lanes8))
#endif

VQTWIN_VIF_CLONES void vertical_moments(const FloatPlane& ref, const FloatPlane& dis, int i, std::span<const float> k,
                                        float* __restrict m1, float* __restrict m2, float* __restrict xx,
                                        float* __restrict yy, float* __restrict xy) {
  const int w = ref.w;
  const int taps = int(k.size());
  const int r = taps / 2;
  const float* rows_a[kMaxTaps];
  const float* rows_b[kMaxTaps];
  for (int t = 0; t < taps; ++t) {
    const int q = reflect101(i - r + t, ref.h);
    rows_a[t] = ref.row(q);
    rows_b[t] = dis.row(q);
  }
  int j0 = 0;
#if defined(__GNUC__)
  // 8 columns at a time, the five accumulators in registers over all taps.
  for (; j0 + 8 <= w; j0 += 8) {
    Lanes8 s1 = {}, s2 = {}, sxx = {}, syy = {}, sxy = {};
    for (int t = 0; t < taps; ++t) {
      const float kt = k[std::size_t(t)];
      Lanes8 x, y;
      VQTWIN_LOAD8(x, rows_a[t] + j0);
      VQTWIN_LOAD8(y, rows_b[t] + j0);
      s1 += kt * x;
      s2 += kt * y;
      sxx += kt * (x * x);
      syy += kt * (y * y);
      sxy += kt * (x * y);
    }
    VQTWIN_STORE8(m1 + j0, s1);
    VQTWIN_STORE8(m2 + j0, s2);
    VQTWIN_STORE8(xx + j0, sxx);
    VQTWIN_STORE8(yy + j0, syy);
    VQTWIN_STORE8(xy + j0, sxy);
  }
#endif
  for (int j = j0; j < w; ++j) {
    float s1 = 0.0f, s2 = 0.0f, sxx = 0.0f, syy = 0.0f, sxy = 0.0f;
    for (int t = 0; t < taps; ++t) {
      const float kt = k[std::size_t(t)];
      const float x = rows_a[t][j];
      const float y = rows_b[t][j];
      s1 += kt * x;
      s2 += kt * y;
      sxx += kt * (x * x);
      syy += kt * (y * y);
      sxy += kt * (x * y);
    }
    m1[j] = s1;
    m2[j] = s2;
    xx[j] = sxx;
    yy[j] = syy;
    xy[j] = sxy;
  }
}

// Plain vertical pass of one plane at row i (the anti-alias filter of the decimation).
VQTWIN_VIF_CLONES void vertical_plain(const FloatPlane& src, int i, std::span<const float> k, float* __restrict out) {
  const int w = src.w;
  const int r = int(k.size()) / 2;
  for (int j = 0; j < w; ++j) out[j] = 0.0f;
  for (int t = 0; t < int(k.size()); ++t) {
    const float* __restrict a = src.row(reflect101(i - r + t, src.h));
    const float kt = k[std::size_t(t)];
    for (int j = 0; j < w; ++j) out[j] += kt * a[j];
  }
}

// Horizontal pass over a padded row: out[j] = sum_t k[t] * in[step*j - r + t], from 0, t ascending.
// step 1 filters every column; step 2 only the even ones (decimation: out[j] is column 2j).
VQTWIN_VIF_CLONES void horizontal(const float* __restrict in, std::span<const float> k, float* __restrict out, int n,
                                  int step) {
  const int taps = int(k.size());
  const float* __restrict base = in - taps / 2;
  int j0 = 0;
#if defined(__GNUC__)
  if (step == 1) {
    // 16 columns at a time, two 8-lane accumulators in registers over all taps.
    for (; j0 + 16 <= n; j0 += 16) {
      Lanes8 a0 = {}, a1 = {};
      for (int t = 0; t < taps; ++t) {
        const float kt = k[std::size_t(t)];
        Lanes8 x0, x1;
        VQTWIN_LOAD8(x0, base + t + j0);
        VQTWIN_LOAD8(x1, base + t + j0 + 8);
        a0 += kt * x0;
        a1 += kt * x1;
      }
      VQTWIN_STORE8(out + j0, a0);
      VQTWIN_STORE8(out + j0 + 8, a1);
    }
  }
#endif
  for (int j = j0; j < n; ++j) {
    float acc = 0.0f;
    for (int t = 0; t < taps; ++t) acc += k[std::size_t(t)] * base[step * j + t];
    out[j] = acc;
  }
}

// The per-pixel statistic of one row (lanes: each column independent).
VQTWIN_VIF_CLONES void statistic_row(const float* __restrict mu1, const float* __restrict mu2, const float* __restrict xx,
                   const float* __restrict yy, const float* __restrict xy, const StatParams& params,
                   float* __restrict num, float* __restrict den, int w) {
  const StatParams p = params;
  for (int j = 0; j < w; ++j) pixel_num_den(mu1[j], mu2[j], xx[j], yy[j], xy[j], p, num[j], den[j]);
}

}  // namespace

ScaleSums scale_sums(const FloatPlane& ref, const FloatPlane& dis, std::span<const float> kernel,
                     const StatParams& params, ScaleScratch& scratch) {
  const int w = ref.w;
  const int h = ref.h;
  const int r = int(kernel.size()) / 2;
  // Valid kernel scales give at most 65 taps (360/97 at scale 0).
  if (kernel.size() > std::size_t(kMaxTaps)) throw std::logic_error("float_vif: kernel wider than 65 taps");
  const std::size_t padded = std::size_t(w + 2 * r);
  scratch.rows.resize(5 * padded + 7 * std::size_t(w));
  float* vert[5];
  float* filt[5];
  for (int m = 0; m < 5; ++m) {
    vert[m] = scratch.rows.data() + std::size_t(m) * padded + std::size_t(r);
    filt[m] = scratch.rows.data() + 5 * padded + std::size_t(m) * std::size_t(w);
  }
  float* num_row = scratch.rows.data() + 5 * padded + 5 * std::size_t(w);
  float* den_row = num_row + w;

  float acc_num = 0.0f;
  float acc_den = 0.0f;
  for (int i = 0; i < h; ++i) {
    vertical_moments(ref, dis, i, kernel, vert[0], vert[1], vert[2], vert[3], vert[4]);
    for (int m = 0; m < 5; ++m) {
      pad_reflect101(vert[m], w, r);
      horizontal(vert[m], kernel, filt[m], w, 1);
    }
    statistic_row(filt[0], filt[1], filt[2], filt[3], filt[4], params, num_row, den_row, w);
    // The order-dependent part: the row's values in column order, then the rows in order.
    float row_num = 0.0f;
    float row_den = 0.0f;
    for (int j = 0; j < w; ++j) {
      row_num += num_row[j];
      row_den += den_row[j];
    }
    acc_num += row_num;
    acc_den += row_den;
  }
  return {acc_num, acc_den};
}

void blur_decimate(const FloatPlane& src, std::span<const float> kernel, FloatPlane& dst, ScaleScratch& scratch) {
  const int r = int(kernel.size()) / 2;
  dst.resize(src.w / 2, src.h / 2);
  scratch.rows.resize(std::size_t(src.w + 2 * r));
  float* vert = scratch.rows.data() + r;
  for (int i = 0; i < dst.h; ++i) {
    vertical_plain(src, 2 * i, kernel, vert);
    pad_reflect101(vert, src.w, r);
    horizontal(vert, kernel, dst.row(i), dst.w, 2);
  }
}

}  // namespace vqtwin::float_vif
