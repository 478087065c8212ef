#include "features/integer_ssim/moments.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

#include "features/integer_ssim/math.hpp"

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

template <class Sample, class Acc>
void horizontal(Scratch<Acc>& sc, const Sample* s, const Sample* d, int slot) {
  const int w = sc.width;
  Acc* q[5];
  for (int m = 0; m < 5; ++m) q[m] = sc.in.data() + m * sc.padded + kRadius;
  for (int x = 0; x < w; ++x) {
    const Acc a = s[x], b = d[x];
    q[0][x] = a;
    q[1][x] = b;
    q[2][x] = a * a;
    q[3][x] = a * b;
    q[4][x] = b * b;
  }
  for (int m = 0; m < 5; ++m) {
    const Acc* in = q[m] - kRadius;
    Acc* out = sc.ring_row(slot, m);
    for (int x = 0; x < w; ++x) out[x] = 0;
    for (int k = 0; k < kTaps; ++k) {
      const Acc wk = Acc(kKernel[k]);
      const Acc* src = in + k;
      for (int x = 0; x < w; ++x) out[x] += wk * src[x];
    }
  }
}

template <class Sample, class Acc>
double score(const Picture& ref, const Picture& dist) {
  thread_local Scratch<Acc> sc;
  const int w = ref.width(0), h = ref.height(0);
  sc.size_for(w);
  const int bpc = ref.format().bitdepth;
  const double peak = double((1u << bpc) - 1u);
  const double peak_sq = peak * peak;

  for (int r = 0; r < kRadius && r < h; ++r)
    horizontal<Sample, Acc>(sc, ref.row<Sample>(0, r), dist.row<Sample>(0, r), r % kTaps);

  double sum = 0.0, sum_w = 0.0;
  for (int y = 0; y < h; ++y) {
    const int next = y + kRadius;
    if (next < h) horizontal<Sample, Acc>(sc, ref.row<Sample>(0, next), dist.row<Sample>(0, next), next % kTaps);
    // Vertical taps over the rows that exist.
    const int k_begin = y < kRadius ? kRadius - y : 0;
    const int k_end = (y + kRadius < h) ? kTaps : kTaps - (y + kRadius - h + 1);
    std::int64_t w_row = 0;
    for (int k = k_begin; k < k_end; ++k) w_row += kKernel[k];
    for (int m = 0; m < 5; ++m) {
      Acc* out = sc.col.data() + std::size_t(m) * w;
      for (int x = 0; x < w; ++x) out[x] = 0;
      for (int k = k_begin; k < k_end; ++k) {
        const Acc vk = Acc(kKernel[k]);
        const Acc* src = sc.ring_row((y - kRadius + k) % kTaps, m);
        for (int x = 0; x < w; ++x) out[x] += vk * src[x];
      }
    }
    const Acc* mux = sc.col.data();
    const Acc* muy = mux + w;
    const Acc* x2 = muy + w;
    const Acc* xy = x2 + w;
    const Acc* y2 = xy + w;
    for (int x = 0; x < w; ++x) {
      const Moments mo{std::int64_t(mux[x]), std::int64_t(muy[x]), std::int64_t(x2[x]),
                       std::int64_t(xy[x]),  std::int64_t(y2[x]),  sc.w_col[x] * w_row};
      sc.term[x] = window_term(mo, peak_sq);
    }
    // Raster order, one double sum: the result is not rounded afterwards, so order is visible.
    for (int x = 0; x < w; ++x) {
      sum += sc.term[x];
      sum_w += double(sc.w_col[x] * w_row);
    }
  }
  return sum / sum_w;
}

}  // namespace

double frame_score(const Picture& ref, const Picture& dist) {
  if (ref.format().bitdepth <= 8) return score<std::uint8_t, std::uint32_t>(ref, dist);
  return score<std::uint16_t, std::uint64_t>(ref, dist);
}

}  // namespace vqtwin::integer_ssim
