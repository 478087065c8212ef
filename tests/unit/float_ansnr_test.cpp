// float_ansnr against hand-computed cases and libvmaf's definition written plainly: 2-D filters over the
// fp32 planes (v / scale - 128) with libvmaf's mirrored edges, per-row fp32 sums, a fp32 total.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "motion_test_util.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::test {
namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

std::pair<double, double> ansnr_of(const Picture& r, const Picture& d) {
  auto e = make_extractor("float_ansnr");
  RecordingSink sink;
  e->init(r.format());
  e->extract(r, d, 0, sink);
  EXPECT_EQ(sink.names(), (std::vector<std::string>{"float_ansnr", "float_anpsnr"}));
  return {sink.puts.at(0).value, sink.puts.at(1).value};
}

// The plain definition, pixel by pixel.
std::pair<double, double> plain(const Picture& rp, const Picture& dp) {
  const int w = rp.width(0), h = rp.height(0), bpc = rp.format().bitdepth;
  const float scale = bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : bpc == 16 ? 256.0f : 1.0f;
  const double peak = bpc == 10 ? 255.75 : bpc == 12 ? 255.9375 : bpc == 16 ? 255.99609375 : 255.0;
  const double cap = 6.0 * bpc + 12.0;
  auto plane = [&](const Picture& p) {
    std::vector<float> v(std::size_t(w * h));
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        v[std::size_t(y * w + x)] = bpc == 8 ? float(sample(p, 0, x, y)) + -128 : float(sample(p, 0, x, y)) / scale + -128;
    return v;
  };
  auto reflect = [](int i, int n) { return i < 0 ? -i : i >= n ? 2 * n - i - 1 : i; };
  auto filter = [&](const std::vector<float>& src, const float* f, int n) {
    std::vector<float> out(src.size());
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        float total = 0;
        for (int i = 0; i < n; ++i) {
          float part = 0;
          for (int j = 0; j < n; ++j)
            part += f[i * n + j] * src[std::size_t(reflect(y - n / 2 + i, h) * w + reflect(x - n / 2 + j, w))];
          total += part;
        }
        out[std::size_t(y * w + x)] = total;
      }
    return out;
  };
  float fr[9], fd[25];
  const int kr[9] = {1, 2, 1, 2, 4, 2, 1, 2, 1};
  const int kd[25] = {2, 7, 12, 7, 2, 7, 31, 52, 31, 7, 12, 52, 127, 52, 12, 7, 31, 52, 31, 7, 2, 7, 12, 7, 2};
  for (int i = 0; i < 9; ++i) fr[i] = float(kr[i] / 16.0);
  for (int i = 0; i < 25; ++i) fd[i] = float(kd[i] / 571.0);
  const auto r = filter(plane(rp), fr, 3), d = filter(plane(dp), fd, 5);
  float sig = 0, noise = 0;
  for (int y = 0; y < h; ++y) {
    float s = 0, e = 0;
    for (int x = 0; x < w; ++x) {
      const float a = r[std::size_t(y * w + x)], b = d[std::size_t(y * w + x)];
      s += a * a;
      e += (a - b) * (a - b);
    }
    sig += s;
    noise += e;
  }
  const double ansnr = noise == 0 ? cap : 10.0 * std::log10(double(sig / noise));
  const double anpsnr = std::min(10 * std::log10(peak * peak * w * h / std::max(double(noise), 1e-10)), cap);
  return {ansnr, anpsnr};
}

TEST(FloatAnsnr, HandComputed) {
  // Reference flat 138, distorted flat 128: the 3x3 taps (k/16) keep 10 exactly, the distorted plane is 0,
  // so signal = noise = 100 w h: ansnr 0 dB, anpsnr 10 log10(255^2 / 100).
  const PictureFormat f = format(16, 9);
  const Picture a = make_picture(f, [](int, int, int) { return 138u; });
  const Picture b = make_picture(f, [](int, int, int) { return 128u; });
  const auto [ansnr, anpsnr] = ansnr_of(a, b);
  EXPECT_EQ(ansnr, 0.0);
  EXPECT_EQ(anpsnr, 10 * std::log10(255.0 * 255.0 * 16 * 9 / (100.0 * 16 * 9)));
  EXPECT_NEAR(anpsnr, 20 * std::log10(25.5), 1e-12);
  // Zero noise (both planes 0 after the -128 offset, so both filters give exactly 0): both scores are the
  // cap, 6 bpc + 12 dB. (Identical textured pictures are not noise-free: the two sides are filtered
  // differently.)
  for (int bpc : {8, 10, 12, 16}) {
    const Picture p = make_picture(format(5, 4, bpc), [&](int, int, int) { return 1u << (bpc - 1); });
    const auto [s, ps] = ansnr_of(p, p);
    EXPECT_EQ(s, 6.0 * bpc + 12) << bpc;
    EXPECT_EQ(ps, 6.0 * bpc + 12) << bpc;
  }
}

TEST(FloatAnsnr, MatchesThePlainDefinition) {
  std::mt19937 rng(11);
  for (int bpc : {8, 10, 12, 16})
    for (auto [w, h] : {std::pair{3, 3}, {4, 5}, {17, 9}, {70, 21}}) {
      const PictureFormat f = format(w, h, bpc);
      const Picture a = random_picture(f, rng);
      const Picture b = make_picture(f, [&](int p, int x, int y) {
        const unsigned v = sample(a, p, x, y);
        return (x + y) % 3 ? v : v ^ 5u;
      });
      const auto got = ansnr_of(a, b), want = plain(a, b);
      EXPECT_TRUE(same_bits(got.first, want.first) && same_bits(got.second, want.second))
          << bpc << "-bit " << w << "x" << h << ": " << got.first << " " << want.first;
    }
}

TEST(FloatAnsnr, Refusals) {
  EXPECT_THROW(make_extractor("float_ansnr")->init(format(2, 8)), Error);
  EXPECT_THROW(make_extractor("float_ansnr")->init(format(8, 2)), Error);
  EXPECT_THROW(make_extractor("float_ansnr")->init(format(8, 8, 9)), Error);
  EXPECT_NO_THROW(make_extractor("float_ansnr")->init(format(3, 3)));
}

}  // namespace
}  // namespace vqtwin::test
