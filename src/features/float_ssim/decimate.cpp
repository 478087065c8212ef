#include "features/float_ssim/decimate.hpp"

#include <vector>

#include "features/float_ssim/math.hpp"

namespace vqtwin::float_ssim {
namespace {

// Outputs handled together in the interior: independent accumulators keep the adder pipelines busy
// while each output still adds its own taps strictly in order.
constexpr int kGroup = 4;

}  // namespace

void box_decimate(const float* src, int w, int h, int scale, float* dst) {
  const int s = scale;
  const int sw = decimated_size(w, s), sh = decimated_size(h, s);
  const int lo = s / 2;  // taps run from -lo to s-1-lo
  const float wgt = box_weight(s);

  // Mirrored source column of every tap of every output (only the edge outputs need it).
  std::vector<int> col(std::size_t(sw) * std::size_t(s));
  for (int x = 0; x < sw; ++x)
    for (int u = 0; u < s; ++u) col[std::size_t(x) * s + u] = mirror(x * s - lo + u, w);
  // Outputs [x_begin, x_end) have every tap inside the row.
  const int x_begin = (lo + s - 1) / s;
  int x_end = (w - s + lo >= 0) ? (w - s + lo) / s + 1 : 0;
  if (x_end > sw) x_end = sw;
  if (x_end < x_begin) x_end = x_begin;

  std::vector<const float*> rows(static_cast<std::size_t>(s));
  for (int y = 0; y < sh; ++y, dst += sw) {
    for (int v = 0; v < s; ++v) rows[v] = src + std::size_t(mirror(y * s - lo + v, h)) * std::size_t(w);
    auto edge = [&](int x) {
      const int* c = &col[std::size_t(x) * s];
      double sum = 0.0;
      for (int v = 0; v < s; ++v)
        for (int u = 0; u < s; ++u) sum += double(rows[v][c[u]] * wgt);
      dst[x] = float(sum);
    };
    int x = 0;
    for (; x < x_begin && x < sw; ++x) edge(x);
    for (; x + kGroup <= x_end; x += kGroup) {
      double acc[kGroup] = {0.0, 0.0, 0.0, 0.0};
      const int base = x * s - lo;
      for (int v = 0; v < s; ++v) {
        const float* r = rows[v] + base;
        for (int u = 0; u < s; ++u)
          for (int g = 0; g < kGroup; ++g) acc[g] += double(r[g * s + u] * wgt);
      }
      for (int g = 0; g < kGroup; ++g) dst[x + g] = float(acc[g]);
    }
    for (; x < sw; ++x) edge(x);
  }
}

}  // namespace vqtwin::float_ssim
