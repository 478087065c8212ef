#include "features/float_ms_ssim/pyramid.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "features/float_ms_ssim/math.hpp"
#include "features/float_ssim/math.hpp"
#include "features/ssim_common/vector.hpp"

namespace vqtwin::float_ms_ssim {
namespace {

// Outputs sit on even source columns, so tap dx of output x reads source column 2x + dx. Splitting
// each mirrored, padded source row into its even and odd samples makes those reads contiguous:
// column 2x + dx = padded index 2x + t (t = dx + 4) = even[x + t/2] or odd[x + t/2].
constexpr int kCacheSlots = 16;  // > 9 rows of one window, a power of two for the modulo

struct Scratch {
  int width = 0;
  std::size_t half_len = 0;
  std::vector<float> rows;  // kCacheSlots x (even, odd)
  int tag[kCacheSlots];
  std::vector<double> acc;  // the output row's running sums

  void size_for(int w) {
    width = w;
    half_len = std::size_t(half_size(w)) + kLpfRadius;
    if (rows.size() < std::size_t(kCacheSlots) * 2 * half_len) rows.resize(std::size_t(kCacheSlots) * 2 * half_len);
    for (int& t : tag) t = -1;
    if (acc.size() < std::size_t(half_size(w))) acc.resize(std::size_t(half_size(w)));
  }

  // Even/odd split of mirrored source row r (r already in range).
  const float* split_row(const float* src, int r) {
    const int slot = r % kCacheSlots;
    float* even = rows.data() + std::size_t(slot) * 2 * half_len;
    if (tag[slot] != r) {
      tag[slot] = r;
      float* odd = even + half_len;
      const float* s = src + std::size_t(r) * width;
      auto at = [&](int c) { return s[unsigned(c) < unsigned(width) ? c : float_ssim::mirror(c, width)]; };
      // Column 2j - 4 (even) and 2j - 3 (odd): direct inside the row, mirrored near its ends.
      const int n = int(half_len);
      const int j_begin = 2, j_end = std::max(j_begin, std::min(n, (width + 3) / 2));
      for (int j = 0; j < j_begin; ++j) {
        even[j] = at(2 * j - kLpfRadius);
        odd[j] = at(2 * j + 1 - kLpfRadius);
      }
      const float* __restrict base = s - kLpfRadius;
      VQTWIN_IVDEP
      for (int j = j_begin; j < j_end; ++j) {
        even[j] = base[2 * j];
        odd[j] = base[2 * j + 1];
      }
      for (int j = j_end; j < n; ++j) {
        even[j] = at(2 * j - kLpfRadius);
        odd[j] = at(2 * j + 1 - kLpfRadius);
      }
    }
    return even;
  }
};

thread_local Scratch t_scratch;

// Plain scalar code in the reference order; GCC vectorises it across x (one lane per output).
VQTWIN_VECTOR_CLONES
void decimate(Scratch& sc, const float* src, int w, int h, float* dst) {
  const int ow = half_size(w), oh = half_size(h);
  // Source rows of the 9 taps: tap (v, t) of output x reads rows[v][t & 1][x + t/2].
  const float* rows[kLpfTaps][2];
  for (int y = 0; y < oh; ++y, dst += ow) {
    for (int v = 0; v < kLpfTaps; ++v) {
      rows[v][0] = sc.split_row(src, float_ssim::mirror(2 * y + v - kLpfRadius, h));
      rows[v][1] = rows[v][0] + sc.half_len;
    }
    // Row v of the window for every output, then row v + 1: each output still adds its 81 taps
    // in the reference order, and only 9 weights are live at a time.
    double* __restrict acc = sc.acc.data();
    for (int x = 0; x < ow; ++x) acc[x] = 0.0;
#pragma GCC unroll 1
    for (int v = 0; v < kLpfTaps; ++v) {
      const float* __restrict e = rows[v][0];
      const float* __restrict o = rows[v][1];
      const int dy = v - kLpfRadius;
      VQTWIN_IVDEP
      for (int x = 0; x < ow; ++x) {
        double a = acc[x];
        a += double(e[x] * lpf_weight(dy, -4));
        a += double(o[x] * lpf_weight(dy, -3));
        a += double(e[x + 1] * lpf_weight(dy, -2));
        a += double(o[x + 1] * lpf_weight(dy, -1));
        a += double(e[x + 2] * lpf_weight(dy, 0));
        a += double(o[x + 2] * lpf_weight(dy, 1));
        a += double(e[x + 3] * lpf_weight(dy, 2));
        a += double(o[x + 3] * lpf_weight(dy, 3));
        a += double(e[x + 4] * lpf_weight(dy, 4));
        acc[x] = a;
      }
    }
    VQTWIN_IVDEP
    for (int x = 0; x < ow; ++x) dst[x] = float(acc[x]);
  }
}

}  // namespace

void lpf_decimate(const float* src, int w, int h, float* dst) {
  Scratch& sc = t_scratch;
  sc.size_for(w);
  decimate(sc, src, w, h, dst);
}

}  // namespace vqtwin::float_ms_ssim
