// float_vif's per-output functions of the CUDA twin (features/float_vif/cells.hpp), run on the host in
// the twin's order (the blur + decimation one output at a time; per row the five vertical moments, the
// horizontal pass and the statistic per column, the row added in column order; the rows added in row
// order), against the CPU reference's sums and decimated planes (the portable row loops), bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "features/float_vif/cells.hpp"
#include "features/float_vif/scale.hpp"

namespace vqtwin::float_vif {
namespace {

std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// The twin's rows kernel for one scale, as plain loops.
ScaleSums cells_scale_sums(const FloatPlane& a, const FloatPlane& b, const Taps& k, const StatParams& p) {
  const int w = a.w, h = a.h;
  std::vector<float> m[5];
  std::vector<float> num(static_cast<std::size_t>(w)), den(static_cast<std::size_t>(w));
  std::vector<float> row_num(static_cast<std::size_t>(h)), row_den(static_cast<std::size_t>(h));
  for (auto& v : m) v.resize(std::size_t(w));
  for (int i = 0; i < h; ++i) {
    for (int j = 0; j < w; ++j) {
      const Moments5 v = vertical_moments_at(a.px.data(), b.px.data(), w, h, k, i, j);
      for (int q = 0; q < 5; ++q) m[q][std::size_t(j)] = v.m[q];
    }
    for (int j = w - 1; j >= 0; --j) {  // any column order: each output is independent
      float f[5];
      for (int q = 0; q < 5; ++q) f[q] = horizontal_at(m[q].data(), w, k, j, 1);
      pixel_num_den(f[0], f[1], f[2], f[3], f[4], p, num[std::size_t(j)], den[std::size_t(j)]);
    }
    row_num[std::size_t(i)] = sum_in_order(num.data(), w);
    row_den[std::size_t(i)] = sum_in_order(den.data(), w);
  }
  return {sum_in_order(row_num.data(), h), sum_in_order(row_den.data(), h)};
}

FloatPlane cells_decimate(const FloatPlane& src, const Taps& k) {
  FloatPlane out;
  out.resize(src.w / 2, src.h / 2);
  for (int i = 0; i < out.h; ++i)
    for (int j = 0; j < out.w; ++j) out.row(i)[j] = blur_decimate_at(src.px.data(), src.w, src.h, k, i, j);
  return out;
}

enum class Content { kRandom, kNoisyCopy, kFlat, kEdges, kIdentical };

// Samples of `bpc` bits as float_vif converts them (v / 2^(bpc-8) - 128).
void fill(FloatPlane& a, FloatPlane& b, int w, int h, int bpc, Content c, std::mt19937& rng) {
  a.resize(w, h);
  b.resize(w, h);
  const unsigned top = (1u << bpc) - 1;
  const float scale = float(1u << (bpc - 8));
  std::uniform_int_distribution<unsigned> any(0, top);
  std::uniform_int_distribution<int> noise(-9, 9);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      unsigned u = 0, v = 0;
      switch (c) {
        case Content::kRandom: u = any(rng), v = any(rng); break;
        case Content::kNoisyCopy:
          u = unsigned((x * 37 + y * 11) % (top + 1));
          v = unsigned(std::clamp(int(u) + noise(rng) * int(1u << (bpc - 8)), 0, int(top)));
          break;
        case Content::kFlat: u = top / 3, v = top / 3 + 1; break;
        case Content::kEdges: u = ((x / 3 + y / 2) & 1) ? top : 0, v = ((x / 2 + y / 3) & 1) ? top : 0; break;
        case Content::kIdentical: u = v = any(rng); break;
      }
      a.row(y)[x] = float(u) / scale + -128.0f;
      b.row(y)[x] = float(v) / scale + -128.0f;
    }
}

void expect_frame_matches(int w, int h, int bpc, Content c, double ks, double egl, double nsq, bool skip0,
                          std::mt19937& rng) {
  SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bpc) + "-bit content " +
               std::to_string(int(c)) + " ks " + std::to_string(ks) + " egl " + std::to_string(egl) + " nsq " +
               std::to_string(nsq) + (skip0 ? " skip0" : ""));
  const ScaleKernels cpu = scale_kernels_for(0);
  const StatParams p = make_stat_params(egl, nsq);
  FloatPlane a, b;
  fill(a, b, w, h, bpc, c, rng);
  FloatPlane cpu_a = a, cpu_b = b, dev_a = a, dev_b = b;
  ScaleScratch scratch;
  for (int s = skip0 ? 1 : 0; s < 4; ++s) {
    const std::vector<float> kernel = make_kernel(s, ks);
    const Taps k = taps_of(kernel);
    if (s > 0) {
      FloatPlane na, nb;
      blur_decimate(cpu, cpu_a, kernel, na, scratch);
      blur_decimate(cpu, cpu_b, kernel, nb, scratch);
      cpu_a = na, cpu_b = nb;
      dev_a = cells_decimate(dev_a, k);
      dev_b = cells_decimate(dev_b, k);
      ASSERT_EQ(dev_a.w, cpu_a.w);
      ASSERT_EQ(dev_a.h, cpu_a.h);
      for (int i = 0; i < cpu_a.w * cpu_a.h; ++i) {
        ASSERT_EQ(bits(dev_a.px[std::size_t(i)]), bits(cpu_a.px[std::size_t(i)])) << "scale " << s << " sample " << i;
        ASSERT_EQ(bits(dev_b.px[std::size_t(i)]), bits(cpu_b.px[std::size_t(i)])) << "scale " << s << " sample " << i;
      }
    }
    const ScaleSums want = scale_sums(cpu, cpu_a, cpu_b, kernel, p, scratch);
    const ScaleSums got = cells_scale_sums(dev_a, dev_b, k, p);
    EXPECT_EQ(bits(got.num), bits(want.num)) << "scale " << s << ": " << got.num << " vs " << want.num;
    EXPECT_EQ(bits(got.den), bits(want.den)) << "scale " << s << ": " << got.den << " vs " << want.den;
  }
}

TEST(FloatVifCells, SumsAndPlanesEqualTheCpuAtEveryDepthSizeAndOption) {
  std::mt19937 rng(2026);
  for (int bpc : {8, 10, 12, 16})
    for (auto [w, h] : {std::pair{16, 16}, {33, 35}, {67, 37}, {176, 144}})
      for (Content c : {Content::kRandom, Content::kNoisyCopy, Content::kFlat, Content::kEdges, Content::kIdentical})
        expect_frame_matches(w, h, bpc, c, 1.0, 100.0, 2.0, false, rng);
  // Options: kernel scales (up to 65 taps), gain limit, noise variance (0 too), skip_scale0.
  for (double ks : {0.5, 360.0 / 97.0, 1.5, 1.0 / 2.25})
    expect_frame_matches(ks > 3 ? 260 : 96, ks > 3 ? 250 : 80, 8, Content::kNoisyCopy, ks, 100.0, 2.0, false, rng);
  expect_frame_matches(96, 80, 10, Content::kNoisyCopy, 1.0, 1.0, 2.0, false, rng);
  expect_frame_matches(96, 80, 8, Content::kRandom, 1.0, 2.5, 0.0, false, rng);
  expect_frame_matches(96, 80, 12, Content::kEdges, 1.0, 100.0, 5.0, true, rng);
}

}  // namespace
}  // namespace vqtwin::float_vif
