#pragma once
// float_adm one output at a time, for the device twin (spec: float_adm.md §3, §5-§8): one DWT cell
// (its four bands), the contrast-masking threshold of one pool cell and its masked and denominator
// terms, and the in-order float sum of a row. Each is the CPU's loop body for one output (dwt.cpp,
// scale.cpp) with the same operations in the same order; the decouple is math.hpp's decouple_cell.
// The CSF and mask values a threshold reads are recomputed from the band (the same float product and
// double scaling the CPU stores in its planes). tests/unit/float_adm_cells_test.cpp runs these on the
// host against the CPU's scale values.
#include <cmath>
#include <cstddef>

#include "core/hd.hpp"
#include "features/float_adm/dwt.hpp"
#include "features/float_adm/math.hpp"

namespace vqtwin::float_adm {

// The taps as values (device code cannot index the host arrays kLo / kHi).
struct DwtTaps {
  float lo[4], hi[4];
};
VQTWIN_HD inline DwtTaps dwt_taps() {
  constexpr DwtTaps t = {{kLo[0], kLo[1], kLo[2], kLo[3]}, {kHi[0], kHi[1], kHi[2], kHi[3]}};
  return t;
}

// 4-tap sum from 0 as libvmaf writes it (0 + x turns a -0 into +0).
VQTWIN_HD inline float taps4_at(const float c[4], float s0, float s1, float s2, float s3) {
  float acc = 0.0f;
  acc += c[0] * s0;
  acc += c[1] * s1;
  acc += c[2] * s2;
  acc += c[3] * s3;
  return acc;
}

// The four bands at cell (m, k) of the one-level DWT of src (w x h packed): the vertical low and high
// passes of the four source columns the cell reads, then the horizontal passes of those.
struct DwtCell {
  float a, h, v, d;
};
VQTWIN_HD inline DwtCell dwt_cell_at(const float* src, int w, int h, int m, int k) {
  const DwtTaps t = dwt_taps();
  const float* s0 = src + std::ptrdiff_t(source_index(2 * k - 1, h)) * w;
  const float* s1 = src + std::ptrdiff_t(source_index(2 * k, h)) * w;
  const float* s2 = src + std::ptrdiff_t(source_index(2 * k + 1, h)) * w;
  const float* s3 = src + std::ptrdiff_t(source_index(2 * k + 2, h)) * w;
  float lo[4], hi[4];
  for (int u = 0; u < 4; ++u) {
    const int c = source_index(2 * m - 1 + u, w);
    lo[u] = taps4_at(t.lo, s0[c], s1[c], s2[c], s3[c]);
    hi[u] = taps4_at(t.hi, s0[c], s1[c], s2[c], s3[c]);
  }
  return {taps4_at(t.lo, lo[0], lo[1], lo[2], lo[3]), taps4_at(t.lo, hi[0], hi[1], hi[2], hi[3]),
          taps4_at(t.hi, lo[0], lo[1], lo[2], lo[3]), taps4_at(t.hi, hi[0], hi[1], hi[2], hi[3])};
}

// The three orientations (h, v, d) of a scale's planes, w x h packed.
struct Oriented {
  const float* p[3];
};

// The masking plane's value at one cell: f32(1/30 (double) * |rf * src|), as csf_planes stores it.
VQTWIN_HD inline float mask_at(const float* src, float f, std::size_t i) {
  const float v = f * src[i];
  return float(kOneBy30 * double(fabsf(v)));
}

// The threshold of pool cell (j, i): per orientation the 3x3 neighbourhood of the mask of `masker`
// summed from 0 in row-major order with the centre replaced by 1/15 (double) * |csf|, the three
// orientations added to 0 in order. Neighbours mirror as libvmaf's: row -1 -> 1, row h -> h-1,
// column -1 -> 1, column w -> w-1.
VQTWIN_HD inline float threshold_at(const Oriented& masker, const float rf[3], int w, int h, int j, int i) {
  const std::size_t up = std::size_t(i == 0 ? 1 : i - 1) * std::size_t(w);
  const std::size_t mid = std::size_t(i) * std::size_t(w);
  const std::size_t down = std::size_t(i + 1 == h ? h - 1 : i + 1) * std::size_t(w);
  const std::size_t jl = std::size_t(j == 0 ? 1 : j - 1), jc = std::size_t(j), jr = std::size_t(j + 1 == w ? w - 1 : j + 1);
  float thr = 0.0f;
  for (int k = 0; k < 3; ++k) {
    const float* s = masker.p[k];
    const float f = rf[k];
    float sum = 0.0f;
    sum += mask_at(s, f, up + jl);
    sum += mask_at(s, f, up + jc);
    sum += mask_at(s, f, up + jr);
    sum += mask_at(s, f, mid + jl);
    sum = float(double(sum) + kOneBy15 * double(fabsf(f * s[mid + jc])));
    sum += mask_at(s, f, mid + jr);
    sum += mask_at(s, f, down + jl);
    sum += mask_at(s, f, down + jc);
    sum += mask_at(s, f, down + jr);
    thr += sum;
  }
  return thr;
}

// One orientation's contrast-masked term (p-norm 3): max(|src * rf| - thr, 0) cubed.
VQTWIN_HD inline float masked_term(float src, float f, float thr) {
  float x = src * f;
  x = fabsf(x) - thr;
  x = x < 0.0f ? 0.0f : x;
  return x * x * x;
}

// One reference value's denominator term (p-norm 3): |rf * o| cubed.
VQTWIN_HD inline float den_term(float o, float f) {
  const float y = fabsf(f * o);
  return y * y * y;
}

// A row's values added in order from 0.0f, in float.
VQTWIN_HD inline float sum_in_order(const float* v, int n) {
  float acc = 0.0f;
  for (int j = 0; j < n; ++j) acc += v[j];
  return acc;
}

}  // namespace vqtwin::float_adm
