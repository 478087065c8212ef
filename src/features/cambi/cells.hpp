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

// anti_dither's output at (i, j) of a w x h picture whose samples px(r, c) gives: the mean of its 2x2
// square, of its pair on the last row / column, itself at the last corner. (The twin reads the
// samples through the conversion, so that one pass does both.)
template <class Px>
VQTWIN_HD inline std::uint16_t anti_dither_of(const Px& px, int w, int h, int i, int j) {
  if (i + 1 < h) {
    if (j + 1 < w) return std::uint16_t((px(i, j) + px(i, j + 1) + px(i + 1, j) + px(i + 1, j + 1)) >> 2);
    return std::uint16_t((px(i, j) + px(i + 1, j)) >> 1);
  }
  if (j + 1 < w) return std::uint16_t((px(i, j) + px(i, j + 1)) >> 1);
  return px(i, j);
}
// The same on a packed picture.
VQTWIN_HD inline std::uint16_t anti_dither_at(const std::uint16_t* img, int w, int h, int i, int j) {
  const auto px = [img, w](int r, int c) -> std::uint16_t { return img[(long long)r * w + c]; };
  return anti_dither_of(px, w, h, i, j);
}

// spatial_mask's flat flag at (r, c): equal to its right and lower neighbours (a missing one counts
// as equal).
VQTWIN_HD inline std::uint8_t flat_at(const std::uint16_t* img, int w, int h, int r, int c) {
  const std::uint16_t* p = img + (long long)r * w;
  const bool right = c + 1 < w ? p[c] == p[c + 1] : true;
  const bool below = r + 1 < h ? p[c] == p[c + w] : true;
  return std::uint8_t(right & below);
}

// spatial_mask's output at (r, c): more than `threshold` (as uint8) flat pixels in its 7x7 square, the
// flags of the w x h picture from flat(y, x) (the twin takes them from a tile it fills with flat_at).
template <class Flat>
VQTWIN_HD inline std::uint8_t mask_of(const Flat& flat, int w, int h, int threshold, int r, int c) {
  constexpr int kPad = kMaskFilterSize / 2;
  int sum = 0;
  for (int y = r - kPad; y <= r + kPad; ++y) {
    if (y < 0 || y >= h) continue;
    for (int x = c - kPad; x <= c + kPad; ++x)
      if (x >= 0 && x < w) sum += flat(y, x);
  }
  return std::uint8_t(sum > int(std::uint8_t(threshold)));
}
// The same from a packed picture of flags.
VQTWIN_HD inline std::uint8_t mask_at(const std::uint8_t* flat, int w, int h, int threshold, int r, int c) {
  const auto f = [flat, w](int y, int x) -> int { return flat[(long long)y * w + x]; };
  return mask_of(f, w, h, threshold, r, c);
}

// decimate's output at (i, j): the sample at (2i, 2j), both in pictures of row stride `stride`.
template <class T>
VQTWIN_HD inline T decimate_at(const T* img, long long stride, int i, int j) {
  return img[2 * i * stride + 2 * j];
}

// mode_filter's output at (i, j) of a w x h picture whose samples px(r, c) gives: the first and last
// rows (and pictures of fewer than 3 rows) keep their samples; interior rows take the vertical mode
// of the horizontal modes of rows i-1, i, i+1 (whose end samples are kept). (The twin reads the
// samples through the decimation, so that one pass does both.)
template <class Px>
VQTWIN_HD inline std::uint16_t mode_of(const Px& px, int w, int h, int i, int j) {
  if (h < 3 || i == 0 || i == h - 1) return px(i, j);
  const auto horizontal = [&px, w, j](int r) -> std::uint16_t {
    if (j == 0 || j == w - 1) return px(r, j);
    return mode3(px(r, j - 1), px(r, j), px(r, j + 1));
  };
  return mode3(horizontal(i - 1), horizontal(i), horizontal(i + 1));
}
// The same on a picture of row stride `stride`.
VQTWIN_HD inline std::uint16_t mode_at(const std::uint16_t* img, long long stride, int w, int h, int i, int j) {
  const auto px = [img, stride](int r, int c) -> std::uint16_t { return img[r * stride + c]; };
  return mode_of(px, w, h, i, j);
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

// Adds (or takes away) the counted pixels of row r, columns [j-pad, j+pad], of histogram rows
// cv - nd .. cv + nd to counts[k * count_stride] (k = offset + nd). `counted(r, c)` gives -1 outside
// the picture and for pixels not counted.
template <class Counted>
VQTWIN_HD inline void count_row(const Counted& counted, int r, int j, int pad, int cv, int nd, bool add,
                                std::uint16_t* counts, int count_stride) {
  for (int c = j - pad; c <= j + pad; ++c) {
    const int u = counted(r, c);
    const unsigned k = unsigned(u - cv + nd);
    if (u >= 0 && k <= unsigned(2 * nd)) {
      std::uint16_t& n = counts[k * count_stride];
      n = std::uint16_t(add ? n + 1 : n - 1);
    }
  }
}

// The largest step response over the steps from `first`, each taking the larger of the counts d+1
// rows above and below (the CPU's histogram queries, pipeline.cpp).
VQTWIN_HD inline float banding_from_counts(int first, int nd, const int* weights, const float* reciprocal,
                                           const std::uint16_t* counts, int count_stride) {
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

// The banding value of pixel (i, j) of histogram row cv (>= 0) with first step `first`: the counts
// of counted pixels of rows cv - nd .. cv + nd in its window (rows [i-pad, i+pad] by columns [j-pad,
// j+pad]) into counts[k * count_stride] (2 nd + 1 of them), then banding_from_counts.
template <class Counted>
VQTWIN_HD inline float banding_value_at(const Counted& counted, int i, int j, int pad, int cv, int first, int nd,
                                        const int* weights, const float* reciprocal, std::uint16_t* counts,
                                        int count_stride) {
  for (int k = 0; k <= 2 * nd; ++k) counts[k * count_stride] = 0;
  for (int r = i - pad; r <= i + pad; ++r) count_row(counted, r, j, pad, cv, nd, true, counts, count_stride);
  return banding_from_counts(first, nd, weights, reciprocal, counts, count_stride);
}

// The banding values of the pixels (i0 .. i0 + run - 1, j) below row h, out(i, value) for each
// (0 for a pixel not counted or without a counting step, first_step[cv] == nd): banding_value_at's
// counts, carried from a pixel to the one below while both have the same histogram row (the window
// moves down a row: the row leaving taken away, the row entering added; the same integer counts).
template <class Counted, class Out>
VQTWIN_HD inline void banding_column(const Counted& counted, int i0, int run, int h, int j, int pad,
                                     const int* first_step, int nd, const int* weights, const float* reciprocal,
                                     std::uint16_t* counts, int count_stride, const Out& out) {
  int have = -1;  // the histogram row the counts hold the window of the pixel above for
  for (int i = i0; i < i0 + run && i < h; ++i) {
    const int cv = counted(i, j);
    float v = 0.0f;
    if (cv >= 0 && first_step[cv] < nd) {
      if (cv == have) {
        count_row(counted, i - 1 - pad, j, pad, cv, nd, false, counts, count_stride);
        count_row(counted, i + pad, j, pad, cv, nd, true, counts, count_stride);
        v = banding_from_counts(first_step[cv], nd, weights, reciprocal, counts, count_stride);
      } else {
        v = banding_value_at(counted, i, j, pad, cv, first_step[cv], nd, weights, reciprocal, counts, count_stride);
      }
      have = cv;
    } else {
      have = -1;
    }
    out(i, v);
  }
}

// The pooling's selection on the device: the k-th largest value of a scale by its bits (the bits of
// non-negative floats order as the values), three levels of a radix selection: bits 30..20
// (2048 bins), 19..10 and 9..0 (1024 bins each), each level counting only the values whose higher
// bits are the bins chosen so far (`prefix`).
inline constexpr int kSelectLevels = 3;
inline constexpr unsigned kSelectHistogram = 2048 + 1024 + 1024;  // one scale's three histograms
VQTWIN_HD inline unsigned select_bins(int level) { return level == 0 ? 2048u : 1024u; }
VQTWIN_HD inline unsigned select_offset(int level) { return level == 0 ? 0u : (level == 1 ? 2048u : 3072u); }
VQTWIN_HD inline int select_shift(int level) { return level == 0 ? 20 : (level == 1 ? 10 : 0); }
// Whether a value of these bits is counted at `level`, and its bin there.
VQTWIN_HD inline bool select_key(std::uint32_t bits, int level, std::uint32_t prefix, unsigned& key) {
  if (level > 0 && (bits >> select_shift(level - 1)) != prefix) return false;
  key = (bits >> select_shift(level)) & (select_bins(level) - 1);
  return true;
}
// The prefix after choosing bin b at `level`.
VQTWIN_HD inline std::uint32_t select_prefix(std::uint32_t prefix, int level, unsigned b) {
  return level == 0 ? b : (prefix << 10) | b;
}
// The bin holding the value of rank r (1: the largest) of a histogram, scanning from the top: the b
// with (count above b) < r <= (count above b) + hist[b]; r becomes the rank within b. False if none
// (r beyond the count). The device finds the same bin with a parallel suffix sum.
inline bool find_bin(const unsigned* hist, unsigned bins, unsigned& r, unsigned& b) {
  unsigned above = 0;
  for (unsigned q = bins; q-- > 0;) {
    if (above < r && r <= above + hist[q]) {
      r -= above;
      b = q;
      return true;
    }
    above += hist[q];
  }
  return false;
}

}  // namespace vqtwin::cambi::cells
