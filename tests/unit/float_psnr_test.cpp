// float_psnr against libvmaf's definition written plainly: float samples (v / scale), fp32
// difference and square, a double sum in raster order, dB capped per bit depth.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "motion_test_util.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::test {
namespace {

double reference_psnr(const Picture& r, const Picture& d) {
  const int w = r.width(0), h = r.height(0), bpc = r.format().bitdepth;
  const float scale = bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : bpc == 16 ? 256.0f : 1.0f;
  const double peak = bpc == 10 ? 255.75 : bpc == 12 ? 255.9375 : bpc == 16 ? 255.99609375 : 255.0;
  const double cap = 6.0 * bpc + 12.0;
  double noise = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float a = bpc == 8 ? float(sample(r, 0, x, y)) : float(sample(r, 0, x, y)) / scale;
      const float b = bpc == 8 ? float(sample(d, 0, x, y)) : float(sample(d, 0, x, y)) / scale;
      const float diff = a - b;
      noise += diff * diff;
    }
  noise /= (w * h);
  return std::min(10 * std::log10(peak * peak / std::max(noise, 1e-10)), cap);
}

double psnr_of(const Picture& r, const Picture& d) {
  auto e = make_extractor("float_psnr");
  RecordingSink sink;
  e->init(r.format());
  e->extract(r, d, 0, sink);
  EXPECT_EQ(sink.names(), std::vector<std::string>{"float_psnr"});
  return sink.puts.at(0).value;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(FloatPsnr, HandComputed) {
  // 4x4, one sample off by 3: noise = 9/16, psnr = 10 log10(255^2 * 16 / 9).
  const PictureFormat f = format(4, 4);
  const Picture a = make_picture(f, [](int, int, int) { return 50u; });
  const Picture b = make_picture(f, [](int p, int x, int y) { return p == 0 && x == 1 && y == 2 ? 53u : 50u; });
  EXPECT_TRUE(same_bits(psnr_of(a, b), 10 * std::log10(255.0 * 255.0 / (9.0 / 16))));
  // Identical pictures: the cap 6*bpc + 12.
  for (int bpc : {8, 10, 12, 16}) {
    const Picture flat = make_picture(format(4, 4, bpc), [](int, int, int) { return 7u; });
    EXPECT_EQ(psnr_of(flat, flat), 6.0 * bpc + 12.0);
  }
  // Chroma is ignored.
  const Picture c = make_picture(f, [](int p, int, int) { return p ? 0u : 50u; });
  EXPECT_EQ(psnr_of(a, c), 60.0);
}

TEST(FloatPsnr, MatchesTheReferenceAtEveryDepth) {
  std::mt19937 rng(5);
  for (int bpc : {8, 10, 12, 16})
    for (auto [w, h] : {std::pair{1, 1}, {17, 5}, {64, 33}}) {
      const PictureFormat f = format(w, h, bpc);
      const Picture a = random_picture(f, rng), b = random_picture(f, rng);
      EXPECT_TRUE(same_bits(psnr_of(a, b), reference_psnr(a, b))) << bpc << "-bit " << w << "x" << h;
      // Nearly equal pictures (high dB, small sums) too.
      const Picture c = make_picture(f, [&](int p, int x, int y) {
        const unsigned v = sample(a, p, x, y);
        return (x * 7 + y) % 5 == 0 ? (v ? v - 1 : 1) : v;
      });
      EXPECT_TRUE(same_bits(psnr_of(a, c), reference_psnr(a, c))) << bpc << "-bit " << w << "x" << h;
    }
}

TEST(FloatPsnr, RefusesOtherBitDepths) {
  EXPECT_THROW(make_extractor("float_psnr")->init(format(8, 8, 9)), Error);
  EXPECT_THROW(make_extractor("float_psnr", {{"enable_chroma", "true"}}), Error);  // no options
}

}  // namespace
}  // namespace vqtwin::test
