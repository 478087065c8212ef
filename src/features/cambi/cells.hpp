#pragma once
// cambi's per-sample work, one output at a time, for the CUDA twin (cuda.cu: one thread per output)
// and the host test that runs the twin's arrangement against the CPU reference
// (tests/unit/cambi_cells_test.cpp). Each function is the CPU's loop body for that output
// (pipeline.cpp): the same integer types and shifts, the same float product and comparison.
// The whole-picture passes are out of place here (the CPU's in-place loops only read samples they
// have not yet written: each output depends on the input picture only).
#include <cstdint>

#include "core/hd.hpp"
#include "features/cambi/math.hpp"

namespace vqtwin::cambi::cells {

// One input sample at 10 bits (to_10bit): 8-bit v << 2, deeper (v + round) >> (bpc - 10).
VQTWIN_HD inline std::uint16_t to_10bit(unsigned v, int bitdepth) {
  if (bitdepth == 8) return std::uint16_t(v << 2);
  const int shift = bitdepth - 10;
  const unsigned round = shift == 0 ? 0u : 1u << (shift - 1);
  return std::uint16_t((v + round) >> shift);
}

// anti_dither's output at (i, j) of a packed w x h picture: the mean of its 2x2 square, of its pair on
// the last row / column, itself at the last corner.
VQTWIN_HD inline std::uint16_t anti_dither_at(const std::uint16_t* img, int w, int h, int i, int j) {
  const std::uint16_t* a = img + (long long)i * w;
  if (i + 1 < h) {
    const std::uint16_t* b = a + w;
    if (j + 1 < w) return std::uint16_t((a[j] + a[j + 1] + b[j] + b[j + 1]) >> 2);
    return std::uint16_t((a[j] + b[j]) >> 1);
  }
  if (j + 1 < w) return std::uint16_t((a[j] + a[j + 1]) >> 1);
  return a[j];
}

// spatial_mask's flat flag at (r, c): equal to its right and lower neighbours (a missing one counts
// as equal).
VQTWIN_HD inline std::uint8_t flat_at(const std::uint16_t* img, int w, int h, int r, int c) {
  const std::uint16_t* p = img + (long long)r * w;
  const bool right = c + 1 < w ? p[c] == p[c + 1] : true;
  const bool below = r + 1 < h ? p[c] == p[c + w] : true;
  return std::uint8_t(right & below);
}

// spatial_mask's output at (r, c): more than `threshold` (as uint8) flat pixels in its 7x7 square.
VQTWIN_HD inline std::uint8_t mask_at(const std::uint8_t* flat, int w, int h, int threshold, int r, int c) {
  constexpr int kPad = kMaskFilterSize / 2;
  int sum = 0;
  for (int y = r - kPad; y <= r + kPad; ++y) {
    if (y < 0 || y >= h) continue;
    for (int x = c - kPad; x <= c + kPad; ++x)
      if (x >= 0 && x < w) sum += flat[(long long)y * w + x];
  }
  return std::uint8_t(sum > int(std::uint8_t(threshold)));
}

// decimate's output at (i, j): the sample at (2i, 2j), both in pictures of row stride `stride`.
template <class T>
VQTWIN_HD inline T decimate_at(const T* img, long long stride, int i, int j) {
  return img[2 * i * stride + 2 * j];
}

// mode_filter's output at (i, j) of a w x h picture of row stride `stride`: the first and last rows
// (and pictures of fewer than 3 rows) keep their samples; interior rows take the vertical mode of
// the horizontal modes of rows i-1, i, i+1 (whose end samples are kept).
VQTWIN_HD inline std::uint16_t horizontal_mode_at(const std::uint16_t* row, int w, int j) {
  if (j == 0 || j == w - 1) return row[j];
  return mode3(row[j - 1], row[j], row[j + 1]);
}
VQTWIN_HD inline std::uint16_t mode_at(const std::uint16_t* img, long long stride, int w, int h, int i, int j) {
  const std::uint16_t* p = img + i * stride;
  if (h < 3 || i == 0 || i == h - 1) return p[j];
  return mode3(horizontal_mode_at(p - stride, w, j), horizontal_mode_at(p, w, j), horizontal_mode_at(p + stride, w, j));
}

// A pixel's histogram row: v - base when it is counted (in the mask and the band), -1 otherwise.
VQTWIN_HD inline int counted_value(std::uint16_t v, std::uint8_t mask, int base, int size) {
  const int cv = int(v) - base;
  return (mask != 0 && unsigned(cv) < unsigned(size)) ? cv : -1;
}

// The first contrast step that counts at histogram row cv (num_diffs: none): where the value is at
// most the step's visibility threshold and the value plus the step is above the visibility-luminance
// code value (both grow with the step, so every later step counts too).
inline int first_step(int cv, int base, int num_diffs, const int* tvi, int vlt) {
  const int value = cv + base;
  for (int d = 0; d < num_diffs; ++d)
    if (value + num_diffs <= tvi[d] && value + num_diffs + d + 1 > vlt) return d;
  return num_diffs;
}

// The banding value of pixel (i, j) of histogram row cv (>= 0) with first step `first`: the counts
// of counted pixels of rows cv - nd .. cv + nd in its window (rows [i-pad, i+pad] by columns [j-pad,
// j+pad]; `counted(r, c)` gives -1 outside the picture) into counts[k * count_stride] (k = offset + nd,
// 2 nd + 1 of them), then the largest step response over the steps from `first`, each taking the
// larger of the counts d+1 rows above and below (the CPU's histogram queries, pipeline.cpp).
template <class Counted>
VQTWIN_HD inline float banding_value_at(const Counted& counted, int i, int j, int pad, int cv, int first, int nd,
                                        const int* weights, const float* reciprocal, std::uint16_t* counts,
                                        int count_stride) {
  for (int k = 0; k <= 2 * nd; ++k) counts[k * count_stride] = 0;
  for (int r = i - pad; r <= i + pad; ++r)
    for (int c = j - pad; c <= j + pad; ++c) {
      const int u = counted(r, c);
      const unsigned k = unsigned(u - cv + nd);
      if (u >= 0 && k <= unsigned(2 * nd)) counts[k * count_stride] = std::uint16_t(counts[k * count_stride] + 1);
    }
  const int p0 = counts[nd * count_stride];
  float o = 0.0f;
  for (int d = first; d < nd; ++d) {
    const int above = counts[(nd + d + 1) * count_stride], below = counts[(nd - d - 1) * count_stride];
    const int q = above > below ? above : below;
    const float v = step_response(weights[d], p0, q, reciprocal);
    o = v > o ? v : o;
  }
  return o;
}

}  // namespace vqtwin::cambi::cells
