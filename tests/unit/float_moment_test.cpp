// float_moment against hand-computed moments and a plain loop in libvmaf's order (fp32 samples v / scale,
// fp32 squares, a double sum in raster order, divided by w*h).
#include <gtest/gtest.h>

#include <cstring>

#include "motion_test_util.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::test {
namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

struct Moments {
  double ref1, dis1, ref2, dis2;
};

Moments moments_of(const Picture& r, const Picture& d) {
  auto e = make_extractor("float_moment");
  RecordingSink sink;
  e->init(r.format());
  e->extract(r, d, 0, sink);
  EXPECT_EQ(sink.names(), (std::vector<std::string>{"float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd",
                                                    "float_moment_dis2nd"}));
  return {sink.puts.at(0).value, sink.puts.at(1).value, sink.puts.at(2).value, sink.puts.at(3).value};
}

// libvmaf's definition written as plainly as possible.
std::pair<double, double> plain(const Picture& p) {
  const int w = p.width(0), h = p.height(0), bpc = p.format().bitdepth;
  const float scale = bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : bpc == 16 ? 256.0f : 1.0f;
  double s1 = 0, s2 = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float v = float(sample(p, 0, x, y)) / scale;
      s1 += v;
      s2 += v * v;
    }
  return {s1 / (w * h), s2 / (w * h)};
}

TEST(FloatMoment, HandComputed) {
  // 2x2 luma 1 2 / 3 4: mean 2.5, mean square (1 + 4 + 9 + 16) / 4 = 7.5; the same in 8-bit units at 10
  // and 12 bits (samples 4x and 16x); chroma is not read.
  for (int bpc : {8, 10, 12}) {
    const unsigned k = bpc == 8 ? 1 : bpc == 10 ? 4 : 16;
    const Picture a = make_picture(format(2, 2, bpc), [&](int p, int x, int y) { return p ? 9u : k * unsigned(1 + x + 2 * y); });
    const Picture b = make_picture(format(2, 2, bpc), [&](int p, int, int) { return p ? 0u : 2 * k; });
    const Moments m = moments_of(a, b);
    EXPECT_EQ(m.ref1, 2.5) << bpc;
    EXPECT_EQ(m.ref2, 7.5) << bpc;
    EXPECT_EQ(m.dis1, 2.0) << bpc;
    EXPECT_EQ(m.dis2, 4.0) << bpc;
  }
  // 16 bits: 65535 / 256 = 255.99609375, whose fp32 square rounds (65534.00...): 1st moment exact.
  const Picture w16 = make_picture(format(1, 1, 16), [](int, int, int) { return 65535u; });
  const Moments m = moments_of(w16, w16);
  EXPECT_EQ(m.ref1, 255.99609375);
  EXPECT_EQ(m.ref2, double(255.99609375f * 255.99609375f));
}

TEST(FloatMoment, MatchesThePlainLoopAtEveryDepth) {
  std::mt19937 rng(3);
  for (int bpc : {8, 10, 12, 16})
    for (auto [w, h] : {std::pair{1, 1}, {7, 3}, {64, 33}, {333, 41}}) {
      const PictureFormat f = format(w, h, bpc);
      const Picture a = random_picture(f, rng), b = random_picture(f, rng);
      const Moments m = moments_of(a, b);
      const auto [r1, r2] = plain(a);
      const auto [d1, d2] = plain(b);
      EXPECT_TRUE(same_bits(m.ref1, r1) && same_bits(m.ref2, r2) && same_bits(m.dis1, d1) && same_bits(m.dis2, d2))
          << bpc << "-bit " << w << "x" << h;
    }
}

// 10/12-bit files may hold samples above their bit depth (libvmaf accepts them): 4097 at 10 bits is
// 1024.25, whose square 1049088.0625 needs 25 bits, so libvmaf's fp32 square rounds to 1049088 (an exact
// integer sum would give 1049088.0625). Such a picture takes libvmaf's own order.
TEST(FloatMoment, SamplesAboveTheBitDepthRoundAsInLibvmaf) {
  for (int bpc : {10, 12})
    for (auto [w, h] : {std::pair{1, 1}, {70, 9}}) {
      const Picture a = make_picture(format(w, h, bpc), [](int, int x, int y) { return (x + y) % 5 ? 4097u : 65535u; });
      const Picture b = make_picture(format(w, h, bpc), [](int, int x, int) { return unsigned(x * 13 % 1024); });
      const Moments m = moments_of(a, b);
      const auto [r1, r2] = plain(a);
      const auto [d1, d2] = plain(b);
      EXPECT_TRUE(same_bits(m.ref1, r1) && same_bits(m.ref2, r2) && same_bits(m.dis1, d1) && same_bits(m.dis2, d2))
          << bpc << "-bit " << w << "x" << h << ": " << m.ref2 << " vs " << r2;
    }
  const Picture one = make_picture(format(1, 1, 10), [](int, int, int) { return 4097u; });
  EXPECT_EQ(moments_of(one, one).ref2, 1049088.0);
}

TEST(FloatMoment, RefusesOtherBitDepthsAndOptions) {
  EXPECT_THROW(make_extractor("float_moment")->init(format(8, 8, 9)), Error);
  EXPECT_THROW(make_extractor("float_moment", {{"debug", "true"}}), Error);
}

}  // namespace
}  // namespace vqtwin::test
