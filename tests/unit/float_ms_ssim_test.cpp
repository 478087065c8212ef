// float_ms_ssim: the pyramid step against a straightforward implementation of the spec
// (spec: float_ms_ssim.md §4), the combination, the size guard and the flat-frame values of §8.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "extractor_harness.hpp"
#include "features/float_ms_ssim/math.hpp"
#include "features/float_ms_ssim/pyramid.hpp"
#include "features/ssim_common/db.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::test {
namespace {

// The 9x9 table written out in full, as in libvmaf.
const float kTable[9][9] = {
    {0.000714f, -0.000450f, -0.002090f, 0.007132f, 0.016114f, 0.007132f, -0.002090f, -0.000450f, 0.000714f},
    {-0.000450f, 0.000283f, 0.001316f, -0.004490f, -0.010146f, -0.004490f, 0.001316f, 0.000283f, -0.000450f},
    {-0.002090f, 0.001316f, 0.006115f, -0.020867f, -0.047149f, -0.020867f, 0.006115f, 0.001316f, -0.002090f},
    {0.007132f, -0.004490f, -0.020867f, 0.071207f, 0.160885f, 0.071207f, -0.020867f, -0.004490f, 0.007132f},
    {0.016114f, -0.010146f, -0.047149f, 0.160885f, 0.363505f, 0.160885f, -0.047149f, -0.010146f, 0.016114f},
    {0.007132f, -0.004490f, -0.020867f, 0.071207f, 0.160885f, 0.071207f, -0.020867f, -0.004490f, 0.007132f},
    {-0.002090f, 0.001316f, 0.006115f, -0.020867f, -0.047149f, -0.020867f, 0.006115f, 0.001316f, -0.002090f},
    {-0.000450f, 0.000283f, 0.001316f, -0.004490f, -0.010146f, -0.004490f, 0.001316f, 0.000283f, -0.000450f},
    {0.000714f, -0.000450f, -0.002090f, 0.007132f, 0.016114f, 0.007132f, -0.002090f, -0.000450f, 0.000714f},
};

int reflect_once(int c, int n) {
  if (c < 0) return -1 - c;
  if (c >= n) return 2 * n - 1 - c;
  return c;
}

std::vector<float> reference_lpf(const std::vector<float>& src, int w, int h) {
  const int ow = w / 2 + (w & 1), oh = h / 2 + (h & 1);
  std::vector<float> out(std::size_t(ow) * oh);
  for (int y = 0; y < oh; ++y)
    for (int x = 0; x < ow; ++x) {
      double sum = 0.0;
      for (int v = -4; v <= 4; ++v)
        for (int u = -4; u <= 4; ++u) {
          const float s = src[std::size_t(reflect_once(2 * y + v, h)) * w + reflect_once(2 * x + u, w)];
          sum += double(s * kTable[v + 4][u + 4]);
        }
      out[std::size_t(y) * ow + x] = float(sum);
    }
  return out;
}

TEST(FloatMsSsimMath, TableAndExponentBitPatterns) {
  for (int a = 0; a < 9; ++a)
    for (int b = 0; b < 9; ++b)
      EXPECT_EQ(std::bit_cast<std::uint32_t>(float_ms_ssim::lpf_weight(a - 4, b - 4)),
                std::bit_cast<std::uint32_t>(kTable[a][b]));
  EXPECT_EQ(std::bit_cast<std::uint32_t>(float_ms_ssim::kBeta[0]), 0x3D378034u);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(float_ms_ssim::kBeta[4]), 0x3E087FCCu);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(float_ms_ssim::kAlpha[4]), 0x3E087FCCu);
}

TEST(FloatMsSsimPyramid, MatchesStraightforwardLowPass) {
  const int sizes[][2] = {{22, 22}, {23, 25}, {44, 11}, {107, 60}, {176, 177}, {427, 31}};
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-2.0f, 258.0f);
  for (const auto& sz : sizes) {
    const int w = sz[0], h = sz[1];
    std::vector<float> src(std::size_t(w) * h);
    for (float& v : src) v = dist(rng);
    std::vector<float> got(std::size_t(float_ms_ssim::half_size(w)) * float_ms_ssim::half_size(h), -1.0f);
    float_ms_ssim::Scratch scratch;  // the portable build; tests/cpu_check holds the others to it
    float_ms_ssim::pyramid_kernels_for(0).lpf_decimate(scratch, src.data(), w, h, got.data());
    const auto want = reference_lpf(src, w, h);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < want.size(); ++i)
      bad += std::bit_cast<std::uint32_t>(got[i]) != std::bit_cast<std::uint32_t>(want[i]);
    EXPECT_EQ(bad, 0u) << w << "x" << h;
  }
}

TEST(FloatMsSsimMath, SizeGuardUsesFloorHalving) {
  EXPECT_TRUE(float_ms_ssim::size_supported(176, 176));
  EXPECT_FALSE(float_ms_ssim::size_supported(175, 1000));
  EXPECT_FALSE(float_ms_ssim::size_supported(1000, 175));
  EXPECT_TRUE(float_ms_ssim::size_supported(177, 1920));
}

TEST(FloatMsSsimMath, CombinationOrder) {
  const float one[5] = {1, 1, 1, 1, 1};
  EXPECT_EQ(float_ms_ssim::combine(one, one, one), 1.0);
  // Luminance enters at the last level only: pow(x, 0) = 1 even for NaN.
  const float l[5] = {std::nanf(""), -1.0f, 0.0f, 0.5f, 1.0f};
  EXPECT_EQ(float_ms_ssim::combine(l, one, one), 1.0);
  const float s[5] = {1, 1, -0.5f, 1, 1};
  EXPECT_TRUE(std::isnan(float_ms_ssim::combine(one, one, s)));
  // (pL * pC) * pS per level, then M * t: written out for two non-trivial levels.
  const float c2[5] = {0.9f, 0.8f, 0.7f, 0.95f, 0.99f};
  const float s2[5] = {0.91f, 0.81f, 0.71f, 0.96f, 0.98f};
  const float l2[5] = {1, 1, 1, 1, 0.97f};
  double m = 1.0;
  for (int k = 0; k < 5; ++k) {
    const double t = std::pow(double(l2[k]), double(float_ms_ssim::kAlpha[k])) *
                     std::pow(double(c2[k]), double(float_ms_ssim::kBeta[k])) *
                     std::pow(double(s2[k]), double(float_ms_ssim::kGamma[k]));
    m = m * t;
  }
  EXPECT_EQ(float_ms_ssim::combine(l2, c2, s2), m);
}

PictureFormat fmt(int w, int h, int bpc = 8) { return PictureFormat{w, h, bpc, ChromaFormat::k444}; }

TEST(FloatMsSsimExtractor, FlatIdenticalFrames) {
  const auto f = fmt(176, 176);
  auto flat = [&](unsigned level) { return make_picture(f, [=](int, int) { return level; }); };
  const Picture p128 = flat(128), p0 = flat(0), p23 = flat(23);
  EXPECT_EQ(run_one("float_ms_ssim", {}, p128, p128).at("float_ms_ssim"), 0.99999999205470025);
  EXPECT_EQ(run_one("float_ms_ssim", {}, p0, p0).at("float_ms_ssim"), 1.0);
  EXPECT_EQ(run_one("float_ms_ssim", {}, p23, p23).at("float_ms_ssim"), 1.0000000158905982);
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(run_one("float_ms_ssim", {{"enable_db", "true"}}, p23, p23).at("float_ms_ssim"), inf);
  EXPECT_EQ(run_one("float_ms_ssim", {{"enable_db", "true"}, {"clip_db", "true"}}, p23, p23).at("float_ms_ssim"),
            ssim_db::max_db(8, 176, 176, true));
  EXPECT_NEAR(run_one("float_ms_ssim", {{"enable_db", "true"}}, p128, p128).at("float_ms_ssim"), 80.999, 1e-3);
}

TEST(FloatMsSsimExtractor, TexturedIdenticalFramesAndLcsOutputs) {
  const auto f = fmt(200, 181);
  const Picture p = make_picture(f, [](int x, int y) {
    return unsigned(128 + 90 * std::sin(x * 0.21) * std::cos(y * 0.13) + (x * y) % 29);
  });
  const auto v = run_one("float_ms_ssim", {{"enable_lcs", "true"}}, p, p);
  EXPECT_EQ(v.size(), 16u);
  // s is exactly 1 per pixel (the same float operations on both sides); l and c have a double
  // numerator over a float denominator, so their means may land one float step off 1 (spec §8:
  // "identical => 1" is a consequence of rounding, not a guarantee).
  for (int k = 0; k < 5; ++k) {
    EXPECT_EQ(v.at("float_ms_ssim_s_scale" + std::to_string(k)), 1.0) << k;
    EXPECT_NEAR(v.at("float_ms_ssim_l_scale" + std::to_string(k)), 1.0, 0x1p-23) << k;
    EXPECT_NEAR(v.at("float_ms_ssim_c_scale" + std::to_string(k)), 1.0, 0x1p-23) << k;
  }
  EXPECT_NEAR(v.at("float_ms_ssim"), 1.0, 1e-7);
}

TEST(FloatMsSsimExtractor, RefusesSmallFramesAndOddBitDepths) {
  EXPECT_THROW(make_extractor("float_ms_ssim", {}, fmt(175, 300)), Error);
  EXPECT_THROW(make_extractor("float_ms_ssim", {}, fmt(300, 175)), Error);
  EXPECT_THROW(make_extractor("float_ms_ssim", {}, fmt(300, 300, 9)), Error);
  EXPECT_NO_THROW(make_extractor("float_ms_ssim", {}, fmt(176, 176)));
  // 176 x 176: level 4 is 11 x 11, a single SSIM-map pixel.
  const auto f = fmt(176, 176);
  const Picture r = make_picture(f, [](int x, int y) { return unsigned((x * 5 + y * 3) % 251); });
  const Picture d = make_picture(f, [](int x, int y) { return unsigned((x * 5 + y * 3 + x % 7) % 251); });
  const double v = run_one("float_ms_ssim", {}, r, d).at("float_ms_ssim");
  EXPECT_TRUE(v > 0.5 && v < 1.0) << v;
}

}  // namespace
}  // namespace vqtwin::test
