// float_ms_ssim's per-output functions of the CUDA twin (features/float_ms_ssim/cells.hpp) and the
// ordered sums it takes the map means with, run on the host in the twin's order (each pyramid level one
// output at a time, the horizontal moments of every row, each map pixel's l, c, s, the raster-order
// sums by core/ordered_sum.hpp's chunks), against the CPU reference (the portable pyramid and SSIM
// loops), bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/ordered_sum.hpp"
#include "features/float_ms_ssim/cells.hpp"
#include "features/float_ms_ssim/pyramid.hpp"
#include "features/float_ssim/ssim_core.hpp"

namespace vqtwin::float_ms_ssim {
namespace {

std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

constexpr int kWindow = float_ssim::kWindow;

// l, c, s means of one level, the twin's way.
void cells_means(const float* r, const float* d, int w, int h, float out[3], long long* runs) {
  const GaussTaps g = gauss_taps();
  const int map_w = w - (kWindow - 1), map_h = h - (kWindow - 1);
  std::vector<float> hp[5];
  for (auto& p : hp) p.resize(std::size_t(map_w) * std::size_t(h));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < map_w; ++x) {
      const Moments5 m = horizontal_moments_at(r + std::size_t(y) * w, d + std::size_t(y) * w, g, x);
      for (int q = 0; q < 5; ++q) hp[q][std::size_t(y) * map_w + x] = m.m[q];
    }
  const float* planes[5] = {hp[0].data(), hp[1].data(), hp[2].data(), hp[3].data(), hp[4].data()};
  const std::size_t n = std::size_t(map_w) * std::size_t(map_h);
  std::vector<double> l(n), c(n), s(n);
  for (int y = 0; y < map_h; ++y)
    for (int x = 0; x < map_w; ++x) {
      const float_ssim::PixelLcs p = pixel_at(planes, std::size_t(map_w), g, x, y, [](float v) { return std::sqrt(v); });
      const std::size_t i = std::size_t(y) * map_w + x;
      l[i] = p.l, c[i] = p.c, s[i] = p.s;
    }
  const double count = double(map_w * map_h);
  const std::vector<double>* terms[3] = {&l, &c, &s};
  for (int q = 0; q < 3; ++q) {
    ordered_sum::Stats st;
    out[q] = float(ordered_sum::sum_by_chunks(terms[q]->data(), n, &st) / count);
    *runs += (long long)(st.chunks - st.walked);  // chunks the shifted runs gave (not walked term by term)
  }
}

void expect_frame_matches(int w, int h, int bpc, int content) {
  SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bpc) + "-bit content " +
               std::to_string(content));
  std::mt19937 rng(unsigned(w * 31 + h + bpc + content));
  const unsigned top = (1u << bpc) - 1;
  std::uniform_int_distribution<unsigned> any(0, top);
  std::uniform_int_distribution<int> noise(-6, 6);
  const float scale = float(1u << (bpc - 8));
  std::vector<float> r(std::size_t(w) * h), d(r.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      unsigned u = 0, v = 0;
      switch (content) {
        case 0: u = any(rng), v = any(rng); break;
        case 1:
          u = unsigned((0.5 + 0.4 * std::sin(0.05 * x + 0.03 * y)) * top);
          v = unsigned(std::clamp(int(u) + noise(rng) * int(1u << (bpc - 8)), 0, int(top)));
          break;
        case 2: u = v = top / 3; break;
        default: u = ((x / 5 + y / 3) & 1) ? top : 0, v = top - u; break;
      }
      r[std::size_t(y) * w + x] = float(u) / scale;
      d[std::size_t(y) * w + x] = float(v) / scale;
    }
  const PyramidKernels cpu_pyr = pyramid_kernels_for(0);
  const float_ssim::SsimKernels cpu_ssim = float_ssim::ssim_kernels_for(0);
  Scratch pyr_scratch;
  float_ssim::Scratch ssim_scratch;
  const LpfTable t = lpf_table();
  std::vector<float> cr = r, cd = d, gr = r, gd = d;
  int cw = w, ch = h;
  long long runs = 0;
  for (int k = 0; k < kLevels; ++k) {
    if (k > 0) {
      const int ow = half_size(cw), oh = half_size(ch);
      std::vector<float> nr(std::size_t(ow) * oh), nd(nr.size()), mr(nr.size()), md(nr.size());
      cpu_pyr.lpf_decimate(pyr_scratch, cr.data(), cw, ch, nr.data());
      cpu_pyr.lpf_decimate(pyr_scratch, cd.data(), cw, ch, nd.data());
      for (int y = 0; y < oh; ++y)
        for (int x = 0; x < ow; ++x) {
          mr[std::size_t(y) * ow + x] = lpf_decimate_at(gr.data(), cw, ch, t, x, y);
          md[std::size_t(y) * ow + x] = lpf_decimate_at(gd.data(), cw, ch, t, x, y);
        }
      for (std::size_t i = 0; i < nr.size(); ++i) {
        ASSERT_EQ(bits(mr[i]), bits(nr[i])) << "level " << k << " sample " << i;
        ASSERT_EQ(bits(md[i]), bits(nd[i])) << "level " << k << " sample " << i;
      }
      cr = nr, cd = nd, gr = mr, gd = md, cw = ow, ch = oh;
    }
    const float_ssim::Means want = cpu_ssim.means(ssim_scratch, cr.data(), cd.data(), cw, ch);
    float got[3];
    cells_means(gr.data(), gd.data(), cw, ch, got, &runs);
    EXPECT_EQ(bits(got[0]), bits(want.l)) << "level " << k;
    EXPECT_EQ(bits(got[1]), bits(want.c)) << "level " << k;
    EXPECT_EQ(bits(got[2]), bits(want.s)) << "level " << k;
  }
  EXPECT_GT(runs, 0) << "no chunk was taken from its shifted runs";
}

TEST(FloatMsSsimCells, PyramidAndMeansEqualTheCpu) {
  for (int bpc : {8, 10, 12, 16})
    for (auto [w, h] : {std::pair{176, 176}, {177, 181}, {240, 200}})
      for (int content : {0, 1, 2, 3}) expect_frame_matches(w, h, bpc, content);
}

}  // namespace
}  // namespace vqtwin::float_ms_ssim
