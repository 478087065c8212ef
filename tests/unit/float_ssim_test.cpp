// float_ssim: the decimation, the SSIM core and the extractor against straightforward
// implementations of the spec written here independently (spec: float_ssim.md; plain loops, no
// vectorisation, libvmaf's structure), plus the spec's tables and identical-frame values.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "extractor_harness.hpp"
#include "features/float_ssim/decimate.hpp"
#include "features/float_ssim/math.hpp"
#include "features/float_ssim/ssim_core.hpp"
#include "features/ssim_common/db.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::test {
namespace {

using float_ssim::decimated_size;

// KBND_SYMMETRIC as libvmaf writes it: one reflection, valid for -n <= c < 2n.
int reflect_once(int c, int n) {
  if (c < 0) c = -1 - c;
  else if (c >= n) c = 2 * n - 1 - c;
  EXPECT_TRUE(c >= 0 && c < n) << "test size too small for one reflection";
  return c;
}

std::vector<float> reference_decimate(const std::vector<float>& src, int w, int h, int s) {
  const int sw = w / s + (w & 1), sh = h / s + (h & 1);
  const float wgt = 1.0f / float(s * s);
  const int lo = s / 2;
  std::vector<float> out(std::size_t(sw) * sh);
  for (int y = 0; y < sh; ++y)
    for (int x = 0; x < sw; ++x) {
      double sum = 0.0;
      for (int v = -lo; v <= s - 1 - lo; ++v)
        for (int u = -lo; u <= s - 1 - lo; ++u) {
          const float sample = src[std::size_t(reflect_once(y * s + v, h)) * w + reflect_once(x * s + u, w)];
          const float p = sample * wgt;
          sum += double(p);
        }
      out[std::size_t(y) * sw + x] = float(sum);
    }
  return out;
}

// Samples as float_ssim makes them: integers / 2^k, i.e. on the 2^-8 grid in [0, 256).
std::vector<float> grid_plane(int w, int h, unsigned seed, int bits) {
  std::mt19937 rng(seed);
  const float inv = 1.0f / float(1 << (bits - 8));
  std::vector<float> p(std::size_t(w) * h);
  for (float& v : p) v = float(rng() & ((1u << bits) - 1)) * inv;
  return p;
}

std::vector<float> arbitrary_plane(int w, int h, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-3.0f, 300.0f);
  std::vector<float> p(std::size_t(w) * h);
  for (float& v : p) v = d(rng);
  return p;
}

// Exact +-2^20 among samples near 2^-20: the big ones cancel exactly, and whether a small one
// survives depends on when it is added, so only the reference's order of additions reproduces the
// sums (on the 2^-8 grid any order would do, the sums being exact there).
std::vector<float> order_sensitive_plane(int w, int h, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> m(1.0f, 2.0f);
  std::vector<float> p(std::size_t(w) * h);
  for (float& v : p) {
    const float sign = (rng() & 1) ? 1.0f : -1.0f;
    v = rng() % 3 == 0 ? sign * 0x1p20f : std::ldexp(m(rng), int(rng() % 8) - 20);
  }
  return p;
}

void expect_same_bits(const std::vector<float>& a, const std::vector<float>& b, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::bit_cast<std::uint32_t>(a[i]) != std::bit_cast<std::uint32_t>(b[i])) ++bad;
  EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << a.size() << " samples differ";
}

TEST(FloatSsimMath, ConstantsAreLibvmafBitPatterns) {
  EXPECT_EQ(std::bit_cast<std::uint32_t>(float_ssim::kC1), 0x40D0147Au);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(float_ssim::kC2), 0x426A1709u);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(float_ssim::kC3), 0x41EA1709u);
  const std::uint32_t gauss[6] = {0x3A86BDF5, 0x3BF90108, 0x3D1375C9, 0x3DDFF8A9, 0x3E5A1E3F, 0x3E8832BA};
  for (int k = 0; k < 6; ++k) {
    EXPECT_EQ(std::bit_cast<std::uint32_t>(float_ssim::kGauss[k]), gauss[k]) << k;
    EXPECT_EQ(std::bit_cast<std::uint32_t>(float_ssim::kGauss[10 - k]), gauss[k]) << k;
  }
  EXPECT_EQ(std::bit_cast<std::uint32_t>(float_ssim::box_weight(3)), 0x3DE38E39u);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(float_ssim::box_weight(5)), 0x3D23D70Au);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(float_ssim::box_weight(10)), 0x3C23D70Au);
  EXPECT_EQ(float_ssim::box_weight(4), 0.0625f);
}

TEST(FloatSsimMath, AutoScaleTable) {
  const int cases[][2] = {{100, 1}, {383, 1}, {384, 2}, {639, 2}, {640, 3}, {895, 3}, {896, 4},
                          {1080, 4}, {1151, 4}, {1440, 6}, {2160, 8}, {2688, 11}, {4320, 17}};
  for (const auto& c : cases) {
    EXPECT_EQ(float_ssim::auto_scale(100000, c[0]), c[1]) << c[0];
    EXPECT_EQ(float_ssim::auto_scale(c[0], 100000), c[1]) << c[0];
  }
}

TEST(FloatSsimMath, DecimatedSizeIsNotCeil) {
  EXPECT_EQ(decimated_size(1920, 4), 480);
  EXPECT_EQ(decimated_size(1080, 4), 270);
  EXPECT_EQ(decimated_size(3840, 8), 480);
  EXPECT_EQ(decimated_size(853, 2), 427);
  EXPECT_EQ(decimated_size(481, 2), 241);
  EXPECT_EQ(decimated_size(853, 3), 285);
  EXPECT_EQ(decimated_size(481, 3), 161);
  EXPECT_EQ(decimated_size(576, 7), 82);
  EXPECT_EQ(decimated_size(324, 7), 46);
  EXPECT_EQ(decimated_size(1280, 3), 426);
  EXPECT_EQ(decimated_size(9, 3), 4);  // odd and divisible: the last centre is one past the edge
  EXPECT_EQ(decimated_size(10, 3), 3);
}

// Every scale the option allows, and the larger ones a device twin is tested at.
TEST(FloatSsimDecimate, MatchesStraightforwardDefinitionAtEveryScale) {
  const int scales[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 16, 32, 128};
  for (int s : scales) {
    // Odd sizes, large enough for a single reflection to stay inside the plane.
    const int w = 11 * s + 3 + (s & 1), h = 3 * s + 1 + (s & 1);
    ASSERT_TRUE(w & 1);
    ASSERT_TRUE(h & 1);
    const int sw = decimated_size(w, s), sh = decimated_size(h, s);
    for (int kind = 0; kind < 4; ++kind) {
      const auto src = kind == 0   ? grid_plane(w, h, 11u + s, 8)
                       : kind == 1 ? grid_plane(w, h, 23u + s, 16)
                       : kind == 2 ? arbitrary_plane(w, h, 37u + s)
                                   : order_sensitive_plane(w, h, 41u + s);
      std::vector<float> got(std::size_t(sw) * sh, -1.0f);
      float_ssim::box_decimate(src.data(), w, h, s, got.data());
      expect_same_bits(got, reference_decimate(src, w, h, s),
                       "scale " + std::to_string(s) + " kind " + std::to_string(kind) + " " +
                           std::to_string(w) + "x" + std::to_string(h));
    }
  }
}

TEST(FloatSsimDecimate, SmallOddPlanesAndEvenSizes) {
  const int sizes[][3] = {{9, 9, 3}, {7, 5, 2}, {15, 11, 5}, {20, 17, 4}, {33, 18, 10}, {853, 481, 3}};
  for (const auto& c : sizes) {
    const int w = c[0], h = c[1], s = c[2];
    for (const auto& src : {grid_plane(w, h, 5u, 10), order_sensitive_plane(w, h, 6u)}) {
      std::vector<float> got(std::size_t(decimated_size(w, s)) * decimated_size(h, s));
      float_ssim::box_decimate(src.data(), w, h, s, got.data());
      expect_same_bits(got, reference_decimate(src, w, h, s), std::to_string(w) + "x" + std::to_string(h));
    }
  }
}

// ---- single-scale SSIM, written as libvmaf structures it: whole planes, one step at a time ----

std::vector<float> reference_convolve(const std::vector<float>& img, int w, int h) {
  const float* g = float_ssim::kGauss;
  const int dw = w - 10, dh = h - 10;
  std::vector<float> tmp(std::size_t(w) * h, 0.0f), out(std::size_t(dw) * dh);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < dw; ++x) {
      double sum = 0.0;
      for (int u = 0; u < 11; ++u) sum += double(float(img[std::size_t(y) * w + x + u] * g[u]));
      tmp[std::size_t(y) * w + x + 5] = float(sum);
    }
  for (int x = 0; x < dw; ++x)
    for (int y = 0; y < dh; ++y) {
      double sum = 0.0;
      for (int v = 0; v < 11; ++v) sum += double(float(tmp[std::size_t(y + v) * w + x + 5] * g[v]));
      out[std::size_t(y) * dw + x] = float(sum);
    }
  return out;
}

float_ssim::Means reference_means(const std::vector<float>& r, const std::vector<float>& d, int w, int h) {
  const float c1 = (0.01f * 255) * (0.01f * 255), c2 = (0.03f * 255) * (0.03f * 255), c3 = c2 / 2.0f;
  std::vector<float> rr(r.size()), dd(r.size()), rd(r.size());
  for (std::size_t i = 0; i < r.size(); ++i) {
    rr[i] = r[i] * r[i];
    dd[i] = d[i] * d[i];
    rd[i] = r[i] * d[i];
  }
  const auto mu_r = reference_convolve(r, w, h), mu_d = reference_convolve(d, w, h);
  auto s_rr = reference_convolve(rr, w, h), s_dd = reference_convolve(dd, w, h);
  auto s_rd = reference_convolve(rd, w, h);
  double sum = 0, sl = 0, sc = 0, ss = 0;
  for (std::size_t i = 0; i < mu_r.size(); ++i) {
    s_rr[i] -= mu_r[i] * mu_r[i];
    s_dd[i] -= mu_d[i] * mu_d[i];
    s_rr[i] = std::max(0.0f, s_rr[i]);
    s_dd[i] = std::max(0.0f, s_dd[i]);
    s_rd[i] -= mu_r[i] * mu_d[i];
    const float sigma = float(std::sqrt(double(s_rr[i] * s_dd[i])));
    const double l = (2.0 * mu_r[i] * mu_d[i] + c1) / (mu_r[i] * mu_r[i] + mu_d[i] * mu_d[i] + c1);
    const double c = (2.0 * sigma + c2) / (s_rr[i] + s_dd[i] + c2);
    const float cov = (s_rd[i] < 0.0f && sigma <= 0.0f) ? 0.0f : s_rd[i];
    const float s = (cov + c3) / (sigma + c3);
    sum += l * c * s;
    sl += l;
    sc += c;
    ss += s;
  }
  const double n = double(mu_r.size());
  return {float(sum / n), float(sl / n), float(sc / n), float(ss / n)};
}

void expect_same_means(const float_ssim::Means& a, const float_ssim::Means& b, const std::string& what) {
  EXPECT_EQ(std::bit_cast<std::uint32_t>(a.lcs), std::bit_cast<std::uint32_t>(b.lcs)) << what << " " << a.lcs << " " << b.lcs;
  EXPECT_EQ(std::bit_cast<std::uint32_t>(a.l), std::bit_cast<std::uint32_t>(b.l)) << what;
  EXPECT_EQ(std::bit_cast<std::uint32_t>(a.c), std::bit_cast<std::uint32_t>(b.c)) << what;
  EXPECT_EQ(std::bit_cast<std::uint32_t>(a.s), std::bit_cast<std::uint32_t>(b.s)) << what;
}

// The portable build; tests/cpu_check holds the other builds to it.
float_ssim::Means portable_means(const std::vector<float>& r, const std::vector<float>& d, int w, int h) {
  float_ssim::Scratch scratch;
  return float_ssim::ssim_kernels_for(0).means(scratch, r.data(), d.data(), w, h);
}

TEST(FloatSsimCore, MatchesStraightforwardSsimOnRandomPlanes) {
  const int sizes[][2] = {{11, 11}, {12, 13}, {37, 21}, {64, 64}, {203, 31}, {97, 120}};
  unsigned seed = 1;
  for (const auto& sz : sizes) {
    const int w = sz[0], h = sz[1];
    for (int kind = 0; kind < 3; ++kind, ++seed) {
      // ref: random texture; dist: ref plus noise (correlated), or an unrelated plane.
      auto r = kind == 2 ? arbitrary_plane(w, h, seed) : grid_plane(w, h, seed, kind == 0 ? 8 : 16);
      auto d = r;
      std::mt19937 rng(seed * 7);
      for (float& v : d) v = kind == 2 ? float(rng() % 256) : std::fmin(255.0f, std::fmax(0.0f, v + float(int(rng() % 31) - 15)));
      expect_same_means(portable_means(r, d, w, h), reference_means(r, d, w, h),
                        std::to_string(w) + "x" + std::to_string(h) + " kind " + std::to_string(kind));
    }
  }
}

TEST(FloatSsimCore, SmoothPlanesWithFlatRegions) {
  // Flat areas exercise the variance clamp and the covariance fix; ramps the rounding of squares.
  const int w = 90, h = 47;
  std::vector<float> r(std::size_t(w) * h), d(r.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      r[std::size_t(y) * w + x] = x < 40 ? 128.0f : float((x * 3 + y) % 256);
      d[std::size_t(y) * w + x] = x < 40 ? 128.0f : float((x * 3 + y / 2) % 256);
    }
  expect_same_means(portable_means(r, d, w, h), reference_means(r, d, w, h), "smooth");
}

// ---- the extractor ----

PictureFormat fmt(int w, int h, int bpc = 8) { return PictureFormat{w, h, bpc, ChromaFormat::k420}; }

TEST(FloatSsimExtractor, FlatIdenticalFramesAreNotAlwaysOne) {
  // Spec §11: the kernel sum is not 1, so a flat level gives the float-rounded l of that level.
  const auto f = fmt(64, 64);
  auto flat = [&](unsigned level) { return make_picture(f, [=](int, int) { return level; }); };
  const Picture p128 = flat(128), p0 = flat(0), p16 = flat(16), p255 = flat(255), p25 = flat(25), p68 = flat(68);
  EXPECT_EQ(run_one("float_ssim", {}, p128, p128).at("float_ssim"), 1.0 - 0x1p-24);
  EXPECT_EQ(run_one("float_ssim", {}, p68, p68).at("float_ssim"), 1.0 - 0x1p-23);
  EXPECT_EQ(run_one("float_ssim", {}, p25, p25).at("float_ssim"), 1.0 + 0x1p-23);
  for (const Picture* p : {&p0, &p16, &p255}) EXPECT_EQ(run_one("float_ssim", {}, *p, *p).at("float_ssim"), 1.0);

  const double db128 = run_one("float_ssim", {{"enable_db", "true"}}, p128, p128).at("float_ssim");
  EXPECT_EQ(db128, -10.0 * std::log10(0x1p-24));
  EXPECT_NEAR(db128, 72.247, 5e-4);
  // A score above 1 has no dB value: libvmaf's min() then yields max_db (spec: DECISIONS.md §14).
  EXPECT_EQ(run_one("float_ssim", {{"enable_db", "true"}}, p25, p25).at("float_ssim"),
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(run_one("float_ssim", {{"enable_db", "true"}, {"clip_db", "true"}}, p25, p25).at("float_ssim"), 88.0);
}

TEST(FloatSsimExtractor, TexturedIdenticalFramesAreExactlyOne) {
  const auto f = fmt(160, 120);
  const Picture p = make_picture(f, [](int x, int y) {
    return unsigned(128 + 100 * std::sin(x * 0.31) * std::cos(y * 0.17) + (x * y) % 17);
  });
  for (const char* scale : {"1", "2", "3"}) {
    const auto v = run_one("float_ssim", {{"scale", scale}, {"enable_lcs", "true"}}, p, p);
    EXPECT_EQ(v.at("float_ssim"), 1.0) << scale;
    EXPECT_EQ(v.at("float_ssim_l"), 1.0) << scale;
    EXPECT_EQ(v.at("float_ssim_c"), 1.0) << scale;
    EXPECT_EQ(v.at("float_ssim_s"), 1.0) << scale;
    EXPECT_EQ(run_one("float_ssim", {{"scale", scale}, {"enable_db", "true"}}, p, p).at("float_ssim"),
              std::numeric_limits<double>::infinity());
    EXPECT_EQ(run_one("float_ssim", {{"scale", scale}, {"enable_db", "true"}, {"clip_db", "true"}}, p, p)
                  .at("float_ssim"),
              ssim_db::max_db(8, 160, 120, true));
  }
}

TEST(FloatSsimExtractor, HighBitDepthIsScaledToEightBits) {
  // A 10-bit picture equal to an 8-bit one times 4 gives the same float planes, hence the same values.
  auto tex = [](int x, int y) { return unsigned((x * 7 + y * 13 + (x * y) % 23) % 256); };
  auto tex2 = [](int x, int y) { return unsigned((x * 7 + y * 11 + (x ^ y) % 19) % 256); };
  for (int bpc : {10, 12, 16}) {
    const int shift = bpc - 8;
    const Picture r8 = make_picture(fmt(48, 40), tex), d8 = make_picture(fmt(48, 40), tex2);
    const Picture rh = make_picture(fmt(48, 40, bpc), [&](int x, int y) { return tex(x, y) << shift; });
    const Picture dh = make_picture(fmt(48, 40, bpc), [&](int x, int y) { return tex2(x, y) << shift; });
    EXPECT_EQ(run_one("float_ssim", {}, r8, d8).at("float_ssim"), run_one("float_ssim", {}, rh, dh).at("float_ssim"))
        << bpc;
  }
}

TEST(FloatSsimExtractor, RefusesWhatLibvmafWouldComputeAsGarbage) {
  auto throws_one_line = [](const std::string& name, const OptionPairs& o, const PictureFormat& f) {
    try {
      make_extractor(name, o, f);
    } catch (const Error& e) {
      const std::string m = e.what();
      EXPECT_EQ(m.find('\n'), std::string::npos);
      EXPECT_EQ(m.rfind(name, 0), 0u) << m;
      return true;
    }
    return false;
  };
  EXPECT_TRUE(throws_one_line("float_ssim", {}, fmt(64, 64, 9)));
  EXPECT_TRUE(throws_one_line("float_ssim", {}, fmt(64, 64, 14)));
  EXPECT_TRUE(throws_one_line("float_ssim", {}, fmt(10, 64)));
  EXPECT_TRUE(throws_one_line("float_ssim", {{"scale", "2"}}, fmt(20, 64)));  // 20/2 = 10 < 11
  EXPECT_TRUE(throws_one_line("float_ssim", {{"scale", "10"}}, fmt(100, 1000)));
  EXPECT_FALSE(throws_one_line("float_ssim", {{"scale", "2"}}, fmt(21, 22)));  // 21/2 + 1 = 11
  EXPECT_FALSE(throws_one_line("float_ssim", {}, fmt(11, 11)));
  EXPECT_FALSE(throws_one_line("float_ssim", {}, fmt(64, 64, 16)));
  EXPECT_FALSE(throws_one_line("float_ssim", {}, fmt(5000, 2700)));  // auto scale 11, above the option's 10
  EXPECT_THROW(make_extractor("float_ssim", {{"scale", "11"}}, fmt(64, 64)), Error);
}

// ---- dB, shared by all three SSIMs ----

TEST(SsimDb, MaxDbTableOfTheSpec) {
  EXPECT_EQ(ssim_db::max_db(8, 161, 91, true), 93.0);
  EXPECT_EQ(ssim_db::max_db(8, 576, 324, true), 104.0);
  EXPECT_EQ(ssim_db::max_db(8, 853, 480, true), 108.0);
  EXPECT_EQ(ssim_db::max_db(8, 1280, 720, true), 111.0);
  EXPECT_EQ(ssim_db::max_db(8, 1920, 1080, true), 115.0);
  EXPECT_EQ(ssim_db::max_db(8, 3840, 2160, true), 121.0);
  EXPECT_EQ(ssim_db::max_db(10, 1920, 1080, true), 127.0);
  EXPECT_EQ(ssim_db::max_db(10, 1280, 720, true), 123.0);
  EXPECT_EQ(ssim_db::max_db(12, 1920, 1080, true), 139.0);
  EXPECT_EQ(ssim_db::max_db(16, 1920, 1080, true), 163.0);
  EXPECT_EQ(ssim_db::max_db(8, 1920, 1080, false), std::numeric_limits<double>::infinity());
}

TEST(SsimDb, ScoreAboveOneOrNanGivesMaxDb) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(ssim_db::to_db(1.0, inf), inf);
  EXPECT_EQ(ssim_db::to_db(1.0, 104.0), 104.0);
  EXPECT_EQ(ssim_db::to_db(1.0 + 0x1p-23, inf), inf);
  EXPECT_EQ(ssim_db::to_db(1.0 + 0x1p-23, 104.0), 104.0);
  EXPECT_EQ(ssim_db::to_db(std::nan(""), 104.0), 104.0);
  EXPECT_EQ(ssim_db::to_db(0.9, 104.0), -10.0 * std::log10(1.0 - 0.9));
  EXPECT_EQ(ssim_db::to_db(1.0 - 1e-12, 104.0), 104.0);
}

}  // namespace
}  // namespace vqtwin::test
