// float ADM's db2 DWT (spec: float_adm.md §3): vertical pass then horizontal, 4 taps summed from 0
// in tap order, every product and sum a float rounding; edges mirrored as libvmaf's index tables
// (q = -1 -> 1, q = n -> n-1, q = n+1 -> n-2).
#include "features/float_adm/dwt.hpp"

namespace vqtwin::float_adm {
namespace {

// 4-tap sum from 0 as libvmaf writes it: acc = 0; acc += c0*s0; ... (kept literally: 0 + x turns a
// -0 into +0).
inline float taps4(const float c[4], float s0, float s1, float s2, float s3) {
  float acc = 0.0f;
  acc += c[0] * s0;
  acc += c[1] * s1;
  acc += c[2] * s2;
  acc += c[3] * s3;
  return acc;
}

// Pads a row of n values held at row[0..n) with the mirrored row[-1] and row[n], row[n+1].
inline void pad_row(float* row, int n) {
  row[-1] = row[1];
  row[n] = row[n - 1];
  row[n + 1] = row[n - 2];
}

}  // namespace

void dwt2(const float* src, int w, int h, Subbands& out, bool approx_only, std::vector<float>& scratch) {
  const int bw = (w + 1) / 2;
  const int bh = (h + 1) / 2;
  out.a.resize(bw, bh);
  if (!approx_only) {
    out.h.resize(bw, bh);
    out.v.resize(bw, bh);
    out.d.resize(bw, bh);
  }
  // Vertical low/high rows with one mirrored sample before and two after.
  const std::size_t padded = std::size_t(w) + 3;
  scratch.resize(2 * padded);
  float* lo = scratch.data() + 1;
  float* hi = scratch.data() + padded + 1;

  for (int k = 0; k < bh; ++k) {
    const float* s0 = src + std::size_t(source_index(2 * k - 1, h)) * std::size_t(w);
    const float* s1 = src + std::size_t(source_index(2 * k, h)) * std::size_t(w);
    const float* s2 = src + std::size_t(source_index(2 * k + 1, h)) * std::size_t(w);
    const float* s3 = src + std::size_t(source_index(2 * k + 2, h)) * std::size_t(w);
    for (int j = 0; j < w; ++j) lo[j] = taps4(kLo, s0[j], s1[j], s2[j], s3[j]);
    pad_row(lo, w);
    float* a = out.a.row(k);
    for (int m = 0; m < bw; ++m) {
      const float* c = lo + 2 * m - 1;
      a[m] = taps4(kLo, c[0], c[1], c[2], c[3]);
    }
    if (approx_only) continue;
    for (int j = 0; j < w; ++j) hi[j] = taps4(kHi, s0[j], s1[j], s2[j], s3[j]);
    pad_row(hi, w);
    float* v = out.v.row(k);
    float* hb = out.h.row(k);
    float* d = out.d.row(k);
    for (int m = 0; m < bw; ++m) {
      const float* c = lo + 2 * m - 1;
      v[m] = taps4(kHi, c[0], c[1], c[2], c[3]);
      const float* e = hi + 2 * m - 1;
      hb[m] = taps4(kLo, e[0], e[1], e[2], e[3]);
      d[m] = taps4(kHi, e[0], e[1], e[2], e[3]);
    }
  }
}

}  // namespace vqtwin::float_adm
