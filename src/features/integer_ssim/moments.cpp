#include "features/integer_ssim/moments.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

#include "features/integer_ssim/math.hpp"
#include "features/ssim_common/vector.hpp"

namespace vqtwin::integer_ssim {
namespace {

// Taps that fall outside the picture are dropped, which for the moments is the same as reading 0:
// rows are padded with kRadius zeros on each side and the filters run unguarded; only the weight
// sum W needs the truncation, and it factors into (columns used) x (rows used).
//
// Acc holds a moment exactly: 8-bit moments are below 256 * 256 * 255^2 < 2^32, so uint32 (which
// vectorises well) suffices there; deeper samples need 64 bits (256 * 256 * 65535^2 < 2^48).
template <class Acc>
struct Scratch {
  int width = 0;
  std::size_t padded = 0;
  std::vector<Acc> in;    // 5 zero-padded rows: s, d, s*s, s*d, d*d
  std::vector<Acc> ring;  // kTaps x 5 horizontally filtered rows
  std::vector<Acc> col;   // 5 vertically filtered rows
  std::vector<double> term;
  std::vector<std::int64_t> w_col;  // weight used per column

  void size_for(int w) {
    if (w == width) return;
    width = w;
    padded = std::size_t(w) + 2 * kRadius;
    in.assign(5 * padded, 0);
    ring.assign(std::size_t(kTaps) * 5 * w, 0);
    col.assign(5 * std::size_t(w), 0);
    term.assign(std::size_t(w), 0.0);
    w_col.assign(std::size_t(w), 0);
    for (int x = 0; x < w; ++x) {
      std::int64_t sum = 0;
      for (int k = 0; k < kTaps; ++k) {
        const int c = x - kRadius + k;
        if (c >= 0 && c < w) sum += kKernel[k];
      }
      w_col[x] = sum;
    }
  }
  Acc* ring_row(int slot, int m) { return ring.data() + (std::size_t(slot) * 5 + m) * width; }
};

// Integer arithmetic: exact in any order, so these loops are free to vectorise.
template <class Sample, class Acc>
VQTWIN_ALWAYS_INLINE void horizontal(Scratch<Acc>& sc, const Sample* s, const Sample* d, int slot) {
  const int w = sc.width;
  Acc* __restrict q[5];
  for (int m = 0; m < 5; ++m) q[m] = sc.in.data() + m * sc.padded + kRadius;
  VQTWIN_IVDEP
  for (int x = 0; x < w; ++x) {
    const Acc a = s[x], b = d[x];
    q[0][x] = a;
    q[1][x] = b;
    q[2][x] = a * a;
    q[3][x] = a * b;
    q[4][x] = b * b;
  }
  for (int m = 0; m < 5; ++m) {
    const Acc* __restrict in = q[m] - kRadius;
    Acc* __restrict out = sc.ring_row(slot, m);
    VQTWIN_IVDEP
    for (int x = 0; x < w; ++x) {
      Acc sum = 0;
#pragma GCC unroll 9
      for (int k = 0; k < kTaps; ++k) sum += Acc(kKernel[k]) * in[x + k];
      out[x] = sum;
    }
  }
}

template <class Sample, class Acc>
VQTWIN_ALWAYS_INLINE double term_sum(Scratch<Acc>& sc, const Picture& ref, const Picture& dist, double peak_sq) {
  const int w = sc.width, h = ref.height(0);

  for (int r = 0; r < kRadius && r < h; ++r)
    horizontal<Sample, Acc>(sc, ref.row<Sample>(0, r), dist.row<Sample>(0, r), r % kTaps);

  double sum = 0.0;
  for (int y = 0; y < h; ++y) {
    const int next = y + kRadius;
    if (next < h) horizontal<Sample, Acc>(sc, ref.row<Sample>(0, next), dist.row<Sample>(0, next), next % kTaps);
    // Vertical taps over the rows that exist.
    const int k_begin = y < kRadius ? kRadius - y : 0;
    const int k_end = (y + kRadius < h) ? kTaps : kTaps - (y + kRadius - h + 1);
    std::int64_t w_row = 0;
    for (int k = k_begin; k < k_end; ++k) w_row += kKernel[k];
    for (int m = 0; m < 5; ++m) {
      Acc* __restrict out = sc.col.data() + std::size_t(m) * w;
      if (k_begin == 0 && k_end == kTaps) {
        const Acc* rows[kTaps];
        for (int k = 0; k < kTaps; ++k) rows[k] = sc.ring_row((y - kRadius + k) % kTaps, m);
        VQTWIN_IVDEP
        for (int x = 0; x < w; ++x) {
          Acc acc = 0;
#pragma GCC unroll 9
          for (int k = 0; k < kTaps; ++k) acc += Acc(kKernel[k]) * rows[k][x];
          out[x] = acc;
        }
        continue;
      }
      for (int x = 0; x < w; ++x) out[x] = 0;
      for (int k = k_begin; k < k_end; ++k) {
        const Acc vk = Acc(kKernel[k]);
        const Acc* __restrict src = sc.ring_row((y - kRadius + k) % kTaps, m);
        VQTWIN_IVDEP
        for (int x = 0; x < w; ++x) out[x] += vk * src[x];
      }
    }
    const Acc* mux = sc.col.data();
    const Acc* muy = mux + w;
    const Acc* x2 = muy + w;
    const Acc* xy = x2 + w;
    const Acc* y2 = xy + w;
    VQTWIN_IVDEP
    for (int x = 0; x < w; ++x) {
      const Moments mo{std::int64_t(mux[x]), std::int64_t(muy[x]), std::int64_t(x2[x]),
                       std::int64_t(xy[x]),  std::int64_t(y2[x]),  sc.w_col[x] * w_row};
      sc.term[x] = window_term(mo, peak_sq);
    }
    // Raster order, one double sum: the result is not rounded afterwards, so order is visible.
    // (The weights' sum is exact in any order: math.hpp, weight_total.)
    for (int x = 0; x < w; ++x) sum += sc.term[x];
  }
  return sum;
}

VQTWIN_VECTOR_CLONES
double sum_8bit(Scratch<std::uint32_t>& sc, const Picture& ref, const Picture& dist, double peak_sq) {
  return term_sum<std::uint8_t, std::uint32_t>(sc, ref, dist, peak_sq);
}

VQTWIN_VECTOR_CLONES
double sum_16bit(Scratch<std::uint64_t>& sc, const Picture& ref, const Picture& dist, double peak_sq) {
  return term_sum<std::uint16_t, std::uint64_t>(sc, ref, dist, peak_sq);
}

}  // namespace

double frame_term_sum(const Picture& ref, const Picture& dist, double peak_sq) {
  if (ref.format().bitdepth <= 8) {
    thread_local Scratch<std::uint32_t> sc;
    sc.size_for(ref.width(0));
    return sum_8bit(sc, ref, dist, peak_sq);
  }
  thread_local Scratch<std::uint64_t> sc;
  sc.size_for(ref.width(0));
  return sum_16bit(sc, ref, dist, peak_sq);
}

}  // namespace vqtwin::integer_ssim
