// ciede against hand-computed colours and differences, libvmaf's chroma reads for 4:2:x (worked out from
// its buffer layout), and the batched math against the scalar math bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "features/ciede/batch.hpp"
#include "features/ciede/math.hpp"
#include "../support/ciede_pairs.hpp"
#include "motion_test_util.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::test {
namespace {

using ciede::Lab;

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

double ciede_of(const Picture& r, const Picture& d) {
  auto e = make_extractor("ciede");
  RecordingSink sink;
  e->init(r.format());
  e->extract(r, d, 0, sink);
  EXPECT_EQ(sink.names(), std::vector<std::string>{"ciede2000"});
  return sink.puts.at(0).value;
}

TEST(Ciede, LabOfWhiteBlackAndGrey) {
  // BT.709 limited range: Y 235 / 16 with neutral chroma are sRGB white and black: L* 100 and 0, a* b* 0.
  const Lab white = ciede::to_lab(235, 128, 128, 8);
  EXPECT_NEAR(white.l, 100.0, 1e-4);
  EXPECT_NEAR(white.a, 0.0, 1e-2);
  EXPECT_NEAR(white.b, 0.0, 1e-2);
  const Lab black = ciede::to_lab(16, 128, 128, 8);
  EXPECT_NEAR(black.l, 0.0, 1e-6);
  // The same colours at 10 bits (samples 4x).
  const Lab white10 = ciede::to_lab(940, 512, 512, 10);
  EXPECT_TRUE(same_bits(white10.l, white.l) && same_bits(white10.a, white.a) && same_bits(white10.b, white.b));
  // Mid grey: Y' = 0.5 -> linear ((0.5 + 0.055) / 1.055)^2.4 = 0.21404, L* = 116 * 0.21404^(1/3) - 16 = 53.389.
  const Lab grey = ciede::to_lab(16 + 219 * 0.5, 128, 128, 8);
  EXPECT_NEAR(grey.l, 116 * std::cbrt(std::pow(0.555 / 1.055, 2.4)) - 16, 1e-3);
  EXPECT_NEAR(grey.l, 53.389, 1e-3);
}

TEST(Ciede, DifferenceOfNeutralColours) {
  // a* = b* = 0: only the lightness term, dL / (kL S_L) with kL = 0.65 and
  // S_L = 1 + 0.015 (L - 50)^2 / sqrt(20 + (L - 50)^2) at the mean lightness L.
  const float de = ciede::ciede2000({50, 0, 0}, {60, 0, 0});
  const double s_l = 1 + 0.015 * 25 / std::sqrt(45.0);
  EXPECT_NEAR(de, 10 / (0.65 * s_l), 1e-5);
  EXPECT_EQ(ciede::ciede2000({37, 5, -9}, {37, 5, -9}), 0.0f);
  // A pure hue rotation at equal chroma: dH = 2 C sin(dh / 2) over kH S_H (kH = 4) plus the rotation term.
  EXPECT_GT(ciede::ciede2000({50, 20, 0}, {50, 0, 20}), 0.0f);
}

TEST(Ciede, ScoreOfAUniformDifference) {
  // Every pixel black against grey Y 126: mean difference d, score 45 - 20 log10(d).
  const PictureFormat f = format(6, 4, 8, ChromaFormat::k444);
  const Picture a = make_picture(f, [](int p, int, int) { return p ? 128u : 16u; });
  const Picture b = make_picture(f, [](int p, int, int) { return p ? 128u : 126u; });
  const float d = ciede::ciede2000(ciede::to_lab(16, 128, 128, 8), ciede::to_lab(126, 128, 128, 8));
  double sum = 0;
  for (int i = 0; i < 24; ++i) sum += d;
  EXPECT_TRUE(same_bits(ciede_of(a, b), 45. - 20. * std::log10(sum / 24)));
  EXPECT_TRUE(std::isinf(ciede_of(a, a)));  // no difference: 45 - 20 log10(0)
}

// 4:2:0: nearest chroma sample (x >> 1, y >> 1). 4:2:2, as libvmaf reads it: row y >> 1 and buffer
// position x of its plane (w/2 samples a row, padded with zeros to 32): for w = 6, columns 0-2 are the
// row's samples and 3-5 the padding.
TEST(Ciede, ChromaAsLibvmafReadsIt) {
  auto chroma_value = [](int p, int x, int y) { return unsigned(40 + 30 * p + 7 * x + 11 * y); };
  const int w = 6, h = 4;
  for (ChromaFormat c : {ChromaFormat::k420, ChromaFormat::k422}) {
    // What libvmaf pairs with luma (x, y): the plane's value, or 0 where it reads the row padding.
    auto seen = [&](const std::function<unsigned(int, int, int)>& plane) {
      return [=](int p, int x, int y) -> unsigned {
        if (p == 0) return 90u;
        if (c == ChromaFormat::k420) return plane(p, x >> 1, y >> 1);
        return x < w / 2 ? plane(p, x, y >> 1) : 0u;
      };
    };
    auto flat = [](int, int, int) { return 128u; };
    const Picture ref = make_picture(format(w, h, 8, c), [](int p, int, int) { return p ? 128u : 90u; });
    const Picture dist = make_picture(format(w, h, 8, c), [&](int p, int x, int y) { return p ? chroma_value(p, x, y) : 90u; });
    const Picture ref444 = make_picture(format(w, h, 8, ChromaFormat::k444), seen(flat));
    const Picture dist444 = make_picture(format(w, h, 8, ChromaFormat::k444), seen(chroma_value));
    EXPECT_TRUE(same_bits(ciede_of(ref, dist), ciede_of(ref444, dist444))) << to_string(c);
  }
}

TEST(Ciede, Refusals) {
  EXPECT_THROW(make_extractor("ciede")->init(format(16, 16, 8, ChromaFormat::k400)), Error);
  EXPECT_THROW(make_extractor("ciede")->init(format(16, 16, 9)), Error);
  // libvmaf reads past its chroma planes here: 4:2:0 with an odd height, an odd width whose half is a
  // multiple of 32 (no padding to absorb the extra column), 4:2:2 one row high, a zero-width chroma plane.
  EXPECT_THROW(make_extractor("ciede")->init(format(16, 15)), Error);
  EXPECT_THROW(make_extractor("ciede")->init(format(65, 16)), Error);
  EXPECT_THROW(make_extractor("ciede")->init(format(64, 1, 8, ChromaFormat::k422)), Error);
  EXPECT_THROW(make_extractor("ciede")->init(format(1, 16)), Error);
  EXPECT_NO_THROW(make_extractor("ciede")->init(format(17, 16)));  // the extra column reads the zero padding
  EXPECT_NO_THROW(make_extractor("ciede")->init(format(15, 15, 8, ChromaFormat::k444)));
}

Lab random_lab(std::mt19937& rng) {
  std::uniform_real_distribution<float> l(0, 100), ab(-110, 110);
  switch (rng() % 5) {
    case 0: return {l(rng), 0, 0};            // neutral: hue 0
    case 1: return {l(rng), 0, ab(rng)};       // on an axis
    case 2: return {l(rng), ab(rng), 0};
    default: return {l(rng), ab(rng), ab(rng)};
  }
}

TEST(Ciede, BatchEqualsScalar) {
  std::mt19937 rng(17);
  for (int round = 0; round < 300; ++round) {
    const int n = 1 + int(rng() % ciede::kBatch);
    Lab a[ciede::kBatch], b[ciede::kBatch];
    for (int k = 0; k < n; ++k) {
      a[k] = random_lab(rng);
      b[k] = rng() % 7 == 0 ? a[k] : random_lab(rng);
      if (rng() % 5 == 0) b[k] = {a[k].l, -a[k].a, -a[k].b};  // opposite hues: the 2 pi wrap
    }
    float de[ciede::kBatch];
    ciede::ciede2000_batch(a, b, n, de);
    for (int k = 0; k < n; ++k) ASSERT_TRUE(same_bits(de[k], ciede::ciede2000(a[k], b[k]))) << round << " " << k;
  }
  for (unsigned bpc : {8u, 10u, 12u, 16u}) {
    const unsigned max = (1u << bpc) - 1;
    for (int round = 0; round < 100; ++round) {
      std::uint16_t y[2 * ciede::kBatch], u[2 * ciede::kBatch], v[2 * ciede::kBatch];
      const int n = 2 * ciede::kBatch;
      for (int k = 0; k < n; ++k) {
        y[k] = std::uint16_t(round == 0 ? (k & 1) * max : rng() & max);
        u[k] = std::uint16_t(round == 0 ? (k & 2) / 2 * max : rng() & max);
        v[k] = std::uint16_t(round == 0 ? (k & 4) / 4 * max : rng() & max);
      }
      Lab out[2 * ciede::kBatch];
      ciede::to_lab_batch(y, u, v, n, bpc, out);
      for (int k = 0; k < n; ++k) {
        const Lab s = ciede::to_lab(y[k], u[k], v[k], bpc);
        ASSERT_TRUE(same_bits(out[k].l, s.l) && same_bits(out[k].a, s.a) && same_bits(out[k].b, s.b)) << bpc << " " << k;
      }
    }
  }
}

// The batch's approximations (approx.hpp) decide a float only when its rounding is certain; these pairs are
// what video gives: colours with small differences (many hue angles and differences near zero), greys,
// and unrelated colours, at 8 and 10 bits, so the fallback to the library calls is taken too. The planted
// bug ciede_cpu_short_sin (ctest ciede_plant_short_sin) must fail here.
TEST(Ciede, BatchEqualsScalarOnVideoLikePairs) {
  std::mt19937 rng(23);
  long mismatches = 0;
  for (unsigned bpc : {8u, 10u}) {
    for (int round = 0; round < 1500; ++round) {
      Lab lab[2 * ciede::kBatch];
      for (int k = 0; k < ciede::kBatch; ++k) video_like_pair(rng, bpc, lab[k], lab[ciede::kBatch + k]);
      float de[ciede::kBatch];
      ciede::ciede2000_batch(lab, lab + ciede::kBatch, ciede::kBatch, de);
      for (int k = 0; k < ciede::kBatch; ++k)
        mismatches += !same_bits(de[k], ciede::ciede2000(lab[k], lab[ciede::kBatch + k]));
    }
  }
  EXPECT_EQ(mismatches, 0);
}

// Every 8-bit colour (a third of them, every third in raster order of (Y, Cb, Cr)) through the batch
// conversion = the scalar one.
TEST(Ciede, ToLabBatchEqualsScalarOver8BitColours) {
  long mismatches = 0;
  std::uint16_t y[2 * ciede::kBatch], u[2 * ciede::kBatch], v[2 * ciede::kBatch];
  Lab out[2 * ciede::kBatch];
  for (unsigned c = 0; c < (1u << 24);) {
    int n = 0;
    for (; n < 2 * ciede::kBatch && c < (1u << 24); ++n, c += 3)
      y[n] = std::uint16_t(c >> 16), u[n] = std::uint16_t((c >> 8) & 255), v[n] = std::uint16_t(c & 255);
    ciede::to_lab_batch(y, u, v, n, 8, out);
    for (int k = 0; k < n; ++k) {
      const Lab s = ciede::to_lab(y[k], u[k], v[k], 8);
      mismatches += !(same_bits(out[k].l, s.l) && same_bits(out[k].a, s.a) && same_bits(out[k].b, s.b));
    }
  }
  EXPECT_EQ(mismatches, 0);
}

}  // namespace
}  // namespace vqtwin::test
