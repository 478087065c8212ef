#include "features/float_ssim/ssim_core.hpp"

#include <cstddef>
#include <cstring>
#include <vector>

namespace vqtwin::float_ssim {
namespace {

// Eight map pixels per step. Each lane performs exactly the scalar sequence of one output pixel
// (float product, widened, added to that lane's double sum in tap order), so the result does not
// depend on the vector width the compiler picks.
constexpr int kLanes = 8;
typedef float VecF __attribute__((vector_size(kLanes * sizeof(float))));
typedef double VecD __attribute__((vector_size(kLanes * sizeof(double))));

// The five moment planes: mu_ref, mu_dist, ref^2, dist^2, ref*dist.
constexpr int kMoments = 5;

struct Scratch {
  int width = 0;         // source width the buffers were sized for
  std::size_t span = 0;  // map width rounded up to whole vectors
  std::vector<float> in;     // kMoments padded input rows (samples and their products)
  std::vector<float> ring;   // kWindow x kMoments horizontally filtered rows
  std::vector<float> moment; // kMoments vertically filtered rows

  void size_for(int w) {
    if (w == width) return;
    width = w;
    const std::size_t map_w = std::size_t(w - (kWindow - 1));
    span = (map_w + kLanes - 1) / kLanes * kLanes;
    // Vector loads reach kWindow-1 + kLanes-1 samples past a chunk start; zero padding keeps the
    // unused lanes finite.
    const std::size_t in_len = span + kWindow + kLanes;
    in.assign(kMoments * in_len, 0.0f);
    ring.assign(std::size_t(kWindow) * kMoments * span, 0.0f);
    moment.assign(kMoments * span, 0.0f);
  }
  std::size_t in_len() const { return span + kWindow + kLanes; }
  float* in_row(int m) { return in.data() + std::size_t(m) * in_len(); }
  float* ring_row(int slot, int m) { return ring.data() + (std::size_t(slot) * kMoments + m) * span; }
  float* moment_row(int m) { return moment.data() + std::size_t(m) * span; }
};

thread_local Scratch t_scratch;

// out[x] = f32(sum_u f64(f32(in[x+u] * g[u]))), x < span.
void filter_row(const float* in, float* out, std::size_t span) {
  for (std::size_t x = 0; x < span; x += kLanes) {
    VecD acc = {};
    for (int u = 0; u < kWindow; ++u) {
      VecF v;
      std::memcpy(&v, in + x + u, sizeof v);
      acc += __builtin_convertvector(v * kGauss[u], VecD);
    }
    const VecF r = __builtin_convertvector(acc, VecF);
    std::memcpy(out + x, &r, sizeof r);
  }
}

// out[x] = f32(sum_v f64(f32(rows[v][x] * g[v]))), x < span.
void filter_column(const float* const* rows, float* out, std::size_t span) {
  for (std::size_t x = 0; x < span; x += kLanes) {
    VecD acc = {};
    for (int v = 0; v < kWindow; ++v) {
      VecF s;
      std::memcpy(&s, rows[v] + x, sizeof s);
      acc += __builtin_convertvector(s * kGauss[v], VecD);
    }
    const VecF r = __builtin_convertvector(acc, VecF);
    std::memcpy(out + x, &r, sizeof r);
  }
}

// Horizontal pass of source row y into ring slot `slot`.
void horizontal(Scratch& sc, const float* ref, const float* dist, int w, int y, int slot) {
  float* r = sc.in_row(0);
  float* d = sc.in_row(1);
  float* rr = sc.in_row(2);
  float* dd = sc.in_row(3);
  float* rd = sc.in_row(4);
  std::memcpy(r, ref + std::size_t(y) * w, sizeof(float) * w);
  std::memcpy(d, dist + std::size_t(y) * w, sizeof(float) * w);
  for (int x = 0; x < w; ++x) {
    rr[x] = r[x] * r[x];
    dd[x] = d[x] * d[x];
    rd[x] = r[x] * d[x];
  }
  for (int m = 0; m < kMoments; ++m) filter_row(sc.in_row(m), sc.ring_row(slot, m), sc.span);
}

}  // namespace

Means ssim_means(const float* ref, const float* dist, int w, int h) {
  Scratch& sc = t_scratch;
  sc.size_for(w);
  const int map_w = w - (kWindow - 1), map_h = h - (kWindow - 1);

  for (int y = 0; y < kWindow - 1; ++y) horizontal(sc, ref, dist, w, y, y);

  double sum_lcs = 0.0, sum_l = 0.0, sum_c = 0.0, sum_s = 0.0;
  const float* rows[kWindow];
  for (int y = 0; y < map_h; ++y) {
    // Source rows y .. y+10 live in ring slots (y+v) % 11; row y+10 is the new one.
    horizontal(sc, ref, dist, w, y + kWindow - 1, (y + kWindow - 1) % kWindow);
    for (int m = 0; m < kMoments; ++m) {
      for (int v = 0; v < kWindow; ++v) rows[v] = sc.ring_row((y + v) % kWindow, m);
      filter_column(rows, sc.moment_row(m), sc.span);
    }
    const float* mu_r = sc.moment_row(0);
    const float* mu_d = sc.moment_row(1);
    const float* m_rr = sc.moment_row(2);
    const float* m_dd = sc.moment_row(3);
    const float* m_rd = sc.moment_row(4);
    for (int x = 0; x < map_w; ++x) {
      const PixelLcs p = pixel_lcs(mu_r[x], mu_d[x], m_rr[x], m_dd[x], m_rd[x]);
      sum_lcs += p.l * p.c * p.s;
      sum_l += p.l;
      sum_c += p.c;
      sum_s += p.s;
    }
  }
  const double n = double(map_w * map_h);
  return Means{float(sum_lcs / n), float(sum_l / n), float(sum_c / n), float(sum_s / n)};
}

}  // namespace vqtwin::float_ssim
