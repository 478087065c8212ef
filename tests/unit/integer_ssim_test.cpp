// integer_ssim: the extractor against a straightforward implementation of the spec written here
// (spec: integer_ssim.md; direct 9x9 window sums per pixel, int64, the double formula spelled out), at 8, 10, 12 and 16 bits, odd and tiny sizes; identical frames; names.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "core/registry.hpp"
#include "extractor_harness.hpp"
#include "features/ssim_common/db.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::test {
namespace {

const int kW[9] = {2, 9, 28, 55, 68, 55, 28, 9, 2};

unsigned sample(const Picture& p, int x, int y) {
  return p.format().bitdepth > 8 ? p.row<std::uint16_t>(0, y)[x] : p.row<std::uint8_t>(0, y)[x];
}

double reference_score(const Picture& ref, const Picture& dist) {
  const int w = ref.width(0), h = ref.height(0);
  const double peak = double((1u << ref.format().bitdepth) - 1u);
  double ssim = 0.0, ssimw = 0.0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::int64_t mux = 0, muy = 0, x2 = 0, xy = 0, y2 = 0, ww = 0;
      for (int j = 0; j < 9; ++j) {
        const int yy = y - 4 + j;
        if (yy < 0 || yy >= h) continue;
        for (int i = 0; i < 9; ++i) {
          const int xx = x - 4 + i;
          if (xx < 0 || xx >= w) continue;
          const std::int64_t k = std::int64_t(kW[j]) * kW[i];
          const std::int64_t s = sample(ref, xx, yy), d = sample(dist, xx, yy);
          mux += k * s;
          muy += k * d;
          x2 += k * s * s;
          xy += k * s * d;
          y2 += k * d * d;
          ww += k;
        }
      }
      const double wd = double(ww);
      const double c1 = peak * peak * (0.01 * 0.01) * wd * wd;
      const double c2 = peak * peak * (0.03 * 0.03) * wd * wd;
      const double mx2 = double(mux) * double(mux), mxy = double(mux) * double(muy);
      const double my2 = double(muy) * double(muy);
      ssim += wd * (2 * mxy + c1) * (c2 + 2 * (double(xy) * wd - mxy)) /
              ((mx2 + my2 + c1) * (double(x2) * wd - mx2 + double(y2) * wd - my2 + c2));
      ssimw += wd;
    }
  return ssim / ssimw;
}

PictureFormat fmt(int w, int h, int bpc) { return PictureFormat{w, h, bpc, ChromaFormat::k420}; }

TEST(IntegerSsim, MatchesStraightforwardDefinition) {
  const int sizes[][2] = {{1, 1}, {3, 2}, {5, 9}, {9, 9}, {17, 13}, {64, 40}, {101, 7}};
  for (int bpc : {8, 10, 12, 16}) {
    for (const auto& sz : sizes) {
      std::mt19937 rng(unsigned(bpc * 1000 + sz[0] * 10 + sz[1]));
      const unsigned max = (1u << bpc) - 1u;
      // Near-white noise: the 16-bit moments exceed 32 bits, where upstream's int arithmetic overflows.
      const auto f = fmt(sz[0], sz[1], bpc);
      const Picture r = make_picture(f, [&](int, int) { return max - rng() % (max / 8 + 1); });
      const Picture d = make_picture(f, [&](int x, int y) {
        const int v = int(sample(r, x, y)) + int(rng() % 65) - 32;
        return unsigned(std::clamp(v, 0, int(max)));
      });
      const double got = run_one("integer_ssim", {}, r, d).at("integer_ssim");
      EXPECT_EQ(got, reference_score(r, d)) << bpc << "-bit " << sz[0] << "x" << sz[1];
      EXPECT_TRUE(got > 0.0 && got <= 1.0) << got;
    }
  }
}

TEST(IntegerSsim, IdenticalFramesAreExactlyOneAtEveryDepth) {
  const double inf = std::numeric_limits<double>::infinity();
  for (int bpc : {8, 10, 12, 16}) {
    std::mt19937 rng{unsigned(bpc)};
    const auto f = fmt(67, 45, bpc);
    const unsigned max = (1u << bpc) - 1u;
    const Picture p = make_picture(f, [&](int x, int) { return x < 20 ? max : unsigned(rng() % (max + 1)); });
    EXPECT_EQ(run_one("integer_ssim", {}, p, p).at("integer_ssim"), 1.0) << bpc;
    EXPECT_EQ(run_one("integer_ssim", {{"enable_db", "true"}}, p, p).at("integer_ssim"), inf) << bpc;
    EXPECT_EQ(run_one("integer_ssim", {{"enable_db", "true"}, {"clip_db", "true"}}, p, p).at("integer_ssim"),
              ssim_db::max_db(unsigned(bpc), 67, 45, true))
        << bpc;
  }
  EXPECT_EQ(ssim_db::max_db(8, 161, 91, true), 93.0);
}

TEST(IntegerSsim, DbOfAnOrdinaryScore) {
  const auto f = fmt(40, 30, 8);
  const Picture r = make_picture(f, [](int x, int y) { return unsigned((x * 9 + y * 5) % 256); });
  const Picture d = make_picture(f, [](int x, int y) { return unsigned((x * 9 + y * 5 + (x * y) % 11) % 256); });
  const double lin = run_one("integer_ssim", {}, r, d).at("integer_ssim");
  EXPECT_LT(lin, 1.0);
  EXPECT_EQ(run_one("integer_ssim", {{"enable_db", "true"}}, r, d).at("integer_ssim"), -10.0 * std::log10(1.0 - lin));
}

TEST(IntegerSsim, NamesAndRefusals) {
  const ExtractorInfo* a = find_extractor("ssim");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a, find_extractor("integer_ssim"));
  EXPECT_EQ(a->name, "integer_ssim");
  EXPECT_THROW(make_extractor("integer_ssim", {}, fmt(64, 64, 9)), Error);
  EXPECT_NO_THROW(make_extractor("integer_ssim", {}, fmt(1, 1, 16)));
}

}  // namespace
}  // namespace vqtwin::test
