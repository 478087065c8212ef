// float_vif's per-scale filters, statistic and sums (spec float_vif.md §4-§7).
#include "features/float_vif/scale.hpp"

// Let GCC evaluate both sides of a float select (if-conversion) in the lane loops: FP exception
// flags are never read here, and this flag changes no value (unlike -ffast-math's other parts).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")
#endif

#include <cstddef>

namespace vqtwin::float_vif {
namespace {

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
void vertical_moments(const FloatPlane& ref, const FloatPlane& dis, int i, std::span<const float> k,
                      float* __restrict m1, float* __restrict m2, float* __restrict xx, float* __restrict yy,
                      float* __restrict xy) {
  const int w = ref.w;
  const int r = int(k.size()) / 2;
  for (int j = 0; j < w; ++j) m1[j] = m2[j] = xx[j] = yy[j] = xy[j] = 0.0f;
  for (int t = 0; t < int(k.size()); ++t) {
    const int q = reflect101(i - r + t, ref.h);
    const float* __restrict a = ref.row(q);
    const float* __restrict b = dis.row(q);
    const float kt = k[std::size_t(t)];
    for (int j = 0; j < w; ++j) {
      const float x = a[j];
      const float y = b[j];
      m1[j] += kt * x;
      m2[j] += kt * y;
      xx[j] += kt * (x * x);
      yy[j] += kt * (y * y);
      xy[j] += kt * (x * y);
    }
  }
}

// Plain vertical pass of one plane at row i (the anti-alias filter of the decimation).
void vertical_plain(const FloatPlane& src, int i, std::span<const float> k, float* __restrict out) {
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
void horizontal(const float* __restrict in, std::span<const float> k, float* __restrict out, int n, int step) {
  const int r = int(k.size()) / 2;
  for (int j = 0; j < n; ++j) out[j] = 0.0f;
  for (int t = 0; t < int(k.size()); ++t) {
    const float kt = k[std::size_t(t)];
    const float* __restrict s = in - r + t;
    if (step == 1) {
      for (int j = 0; j < n; ++j) out[j] += kt * s[j];
    } else {
      for (int j = 0; j < n; ++j) out[j] += kt * s[2 * j];
    }
  }
}

// The per-pixel statistic of one row (lanes: each column independent).
void statistic_row(const float* __restrict mu1, const float* __restrict mu2, const float* __restrict xx,
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
