// The per-output functions the CUDA twins of float_ssim, integer_ssim and float_motion run on the
// device (VQTWIN_HD, compiled here for the host), assembled as the kernels assemble them, against
// the CPU references' own results: the exact ordered double sum, the exact integer decimation, the
// SSIM map terms, the integer window moments and the motion blur. Runs in CI, no GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/ordered_sum.hpp"
#include "extractor_harness.hpp"
#include "features/float_motion/blur.hpp"
#include "features/float_motion/math.hpp"
#include "common/luma_float.hpp"
#include "features/float_ssim/decimate.hpp"
#include "features/float_ssim/decimate_exact.hpp"
#include "features/float_ssim/front.hpp"
#include "features/float_ssim/math.hpp"
#include "features/float_ssim/ssim_core.hpp"
#include "features/integer_ssim/math.hpp"
#include "features/integer_ssim/moments.hpp"

namespace vqtwin::test {
namespace {

bool same(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }
bool same(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }

double plain_sum(const std::vector<double>& t) {
  double s = 0.0;
  for (double v : t) s += v;
  return s;
}

// The ordered sum in binary32 (psnr_hvs's fp32 total): bit-identical to the plain fp32 loop on
// non-negative terms of very different sizes (a total climbing through many binades), on signed terms,
// and on runs of equal terms (ties at every step).
TEST(OrderedSumFloat, EqualsThePlainLoop) {
  std::mt19937 rng(25);
  std::size_t walked = 0, chunks = 0;
  for (std::size_t n : {std::size_t(1), std::size_t(300), std::size_t(70000), std::size_t(1000000), std::size_t(2700000)})
    for (int kind = 0; kind < 4; ++kind) {
      std::vector<float> t(n);
      std::uniform_real_distribution<float> u(0.0f, 1.0f);
      for (float& v : t) {
        const float x = u(rng);
        v = kind == 0 ? x * x * x * 5000.0f : kind == 1 ? (x < 0.9f ? 0.0f : x * 1e6f)
                                            : kind == 2 ? x - 0.45f : 0.75f;
      }
      float plain = 0.0f;
      for (float v : t) plain += v;
      ordered_sum::Stats st;
      const float got = ordered_sum::sum_by_chunks(t.data(), n, &st);
      EXPECT_TRUE(same(got, plain)) << "n " << n << " kind " << kind << ": " << got << " vs " << plain;
      walked += st.walked;
      chunks += st.chunks;
    }
  EXPECT_LT(walked, chunks / 4);  // most chunks are shifted, not walked
}

// ---- the ordered sum ------------------------------------------------------------------------

// Bit-identical to the plain loop; returns how many chunks had to be added term by term.
std::size_t expect_ordered(const std::vector<double>& t, const std::string& what) {
  ordered_sum::Stats st;
  const double got = ordered_sum::sum_by_chunks(t.data(), t.size(), &st);
  const double want = plain_sum(t);
  EXPECT_TRUE(same(got, want)) << what << ": " << got << " vs " << want;
  return st.walked;
}

TEST(TwinOrderedSum, EqualsTheSequentialLoopOnSsimLikeTerms) {
  std::mt19937_64 rng(1);
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(255), std::size_t(256), std::size_t(257),
                        std::size_t(5000), std::size_t(122200), std::size_t(1 << 20)}) {
    std::uniform_real_distribution<double> u(0.2, 1.0), v(-0.3, 1.0), w(0.0, 65536.0);
    std::vector<double> t(n);
    for (double& x : t) x = u(rng);
    // Sums of positive terms cross powers of two inside chunks: the four runs cover that.
    EXPECT_EQ(expect_ordered(t, "positive " + std::to_string(n)), 0u);
    for (double& x : t) x = v(rng);
    expect_ordered(t, "mixed " + std::to_string(n));
    for (double& x : t) x = w(rng);  // integer_ssim's terms are w-scaled
    EXPECT_EQ(expect_ordered(t, "large " + std::to_string(n)), 0u);
  }
}

TEST(TwinOrderedSum, EqualsTheSequentialLoopOnAdversarialTerms) {
  std::mt19937_64 rng(2);
  const std::size_t n = 300000;
  std::vector<double> t(n);
  // Mixed signs with cancellation around zero: the running sum changes binade constantly.
  std::normal_distribution<double> g(0.0, 1.0);
  for (double& v : t) v = g(rng);
  expect_ordered(t, "gaussian");
  // Ties: the sum runs along 2^10 .. 2^17, whose grids are 2^-42 .. 2^-35, and every third term is an
  // odd multiple of 2^-43 .. 2^-36 on top of 0.75: half a grid step, rounded to even.
  for (std::size_t i = 0; i < n; ++i) t[i] = 0.75 + ((i % 3 == 0) ? std::ldexp(double(2 * (rng() % 8) + 1), -43 + int(i % 8)) : 0.0);
  expect_ordered(t, "ties");
  // A sum that hovers around a power of two: 1024 - 1e-9 then +-1e-9 steps.
  t.assign(n, 0.0);
  t[0] = 1024.0 - 1e-9;
  for (std::size_t i = 1; i < n; ++i) t[i] = (rng() & 1) ? 1e-9 : -1e-9;
  EXPECT_GT(expect_ordered(t, "hover"), 0u);  // those chunks are walked term by term
  // Huge and tiny magnitudes, then a cancellation back to small values.
  for (std::size_t i = 0; i < n; ++i) t[i] = (i == n / 2) ? -1e12 : (i < n / 2 ? 1e12 / double(n / 2) : 1e-3);
  expect_ordered(t, "cancel");
  // Non-finite terms pass through as the loop passes them.
  t.assign(5000, 1.0);
  t[4000] = std::numeric_limits<double>::infinity();
  expect_ordered(t, "inf");
  t[4500] = -std::numeric_limits<double>::infinity();
  expect_ordered(t, "nan");
}

TEST(TwinOrderedSum, ChunksClimbingTwoBinadesAreWalked) {
  // Chunk 2 climbs from just below 2 past 8: its top grid (2^-49) is 4x its start's, so a start
  // shift by a multiple of 4 grid steps can be an odd multiple of the top's half step. Such chunks
  // must be added term by term (without that rule, 5 of these 64 sums come out wrong).
  std::size_t walked = 0;
  for (int v = 0; v < 64; ++v) {
    std::vector<double> t(768);
    for (int i = 0; i < 256; ++i) t[i] = 1.5 / 256;
    for (int i = 256; i < 512; ++i) t[i] = 0.0019 + v * 1e-7 + i * 1e-9;
    for (int i = 512; i < 768; ++i) t[i] = 0.03125 + std::ldexp(double(2 * (i % 5) + 1), -50);
    walked += expect_ordered(t, "climb " + std::to_string(v));
  }
  EXPECT_GT(walked, 0u);
}

TEST(TwinOrderedSum, EveryPredictionWithinReachIsTheRunItself) {
  // Random chunks (positive, mixed, tie-making, negative starts) from random starts near powers of
  // two; every start the runs claim to reach must give exactly the run from that start.
  std::mt19937_64 rng(11);
  std::size_t checked = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int kind = trial % 4;
    std::vector<double> t(200 + rng() % 300);
    for (double& x : t) {
      const double u = double(rng() >> 11) * 0x1p-53;
      x = kind == 0   ? 0.2 + u
          : kind == 1 ? u - 0.3
          : kind == 2 ? 0.75 + std::ldexp(double(2 * (rng() % 8) + 1), -44 + int(rng() % 6))
                      : -(0.5 + u);
    }
    const int e = 8 + int(rng() % 6);
    const double edge = std::ldexp(1.0, e) * (kind == 3 ? -1.0 : 1.0);
    const double a = edge + (kind == 3 ? 1.0 : -1.0) * double(rng() % 4000) * 0.37;
    const ordered_sum::ChunkRuns r = ordered_sum::run_variants(t.data(), 0, t.size(), a);
    const double g = ordered_sum::grid_of(a);
    for (int probe = 0; probe < 40; ++probe) {
      // Half the probes up to 1e6 grid steps away (ties), half over four times the reach (its bound:
      // a reach 8 times too large fails here in about one probe of ten).
      const double spread = probe % 2 ? 1e6 : (r.reach > 0 ? 4 * r.reach / g : 1e6);
      const double k = std::floor((double(rng() >> 11) * 0x1p-53 * 2 - 1) * spread);
      const double s = a + k * g;
      double end = 0;
      if (!ordered_sum::shifted_end(r, a, s, &end)) continue;
      ++checked;
      ASSERT_TRUE(same(end, ordered_sum::run(t.data(), 0, t.size(), s))) << "trial " << trial << " k " << k;
    }
  }
  EXPECT_GT(checked, 5000u);
}

TEST(TwinOrderedSum, ShiftedRunsAreExactWithinReachOnly) {
  // One chunk of terms near 1 from a start near 2^20: the runs from a predict the run from a + d for
  // every d within reach, and refuse beyond it.
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.5, 1.0);
  std::vector<double> t(1000);
  for (double& x : t) x = u(rng);
  const double a = 1048576.0 + 12345.678;
  const ordered_sum::ChunkRuns r = ordered_sum::run_variants(t.data(), 0, t.size(), a);
  ASSERT_GT(r.reach, 0.0);
  const double g = ordered_sum::grid_of(a);
  for (long k = -50; k <= 50; ++k) {
    const double s = a + double(k) * g;
    double end = 0;
    ASSERT_TRUE(ordered_sum::shifted_end(r, a, s, &end)) << k;
    EXPECT_TRUE(same(end, ordered_sum::run(t.data(), 0, t.size(), s))) << k;
  }
  double end = 0;
  EXPECT_FALSE(ordered_sum::shifted_end(r, a, a + 2 * r.reach, &end));
  EXPECT_FALSE(ordered_sum::shifted_end(r, a, -a, &end));
  // A start whose runs come near a power of two (2^21 here) has a smaller reach.
  const double near = 2097152.0 - 900.0;
  EXPECT_LT(ordered_sum::run_variants(t.data(), 0, t.size(), near).reach, 200.0);
}

// ---- float_ssim: conversion and decimation -----------------------------------------------------

Picture random_luma(int w, int h, int bits, unsigned seed, bool extremes = false) {
  std::mt19937 rng(seed);
  const unsigned max = (1u << bits) - 1;
  return make_picture({w, h, bits, ChromaFormat::k420}, [&](int x, int y) {
    if (extremes) return ((x / 3 + y / 2) & 1) ? max : 0u;
    return unsigned(rng() % (max + 1));
  });
}

// Any 16-bit word in a 10- or 12-bit picture (libvmaf accepts words of 2^bpc or more:
// core/sample_range.hpp): random words, with runs of the largest one so that windows fill up with it.
Picture wild_luma(int w, int h, int bits, unsigned seed) {
  std::mt19937 rng(seed);
  return make_picture({w, h, bits, ChromaFormat::k420}, [&](int x, int y) {
    if (((x / 5 + y / 4) % 3) == 0) return 65535u;
    return unsigned(rng() % 65536);
  });
}

// What the device plane kernel writes, computed here with the same per-output function.
std::vector<float> exact_plane(const Picture& p, int s) {
  const int w = p.width(0), h = p.height(0), bits = p.format().bitdepth;
  const int ow = s > 1 ? float_ssim::decimated_size(w, s) : w, oh = s > 1 ? float_ssim::decimated_size(h, s) : h;
  const float recip = float_ssim::sample_scale(bits), weight = float_ssim::box_weight(s);
  std::vector<float> out(std::size_t(ow) * oh);
  for (int y = 0; y < oh; ++y)
    for (int x = 0; x < ow; ++x) {
      float v;
      if (bits > 8)
        v = float_ssim::decimated_sample(p.row<std::uint16_t>(0, 0), long(p.stride(0)), w, h, x, y, s, recip, weight);
      else
        v = float_ssim::decimated_sample(p.row<std::uint8_t>(0, 0), long(p.stride(0)), w, h, x, y, s, recip, weight);
      out[std::size_t(y) * ow + x] = v;
    }
  return out;
}

// The CPU's plane: luma_to_float, then box_decimate when s > 1.
std::vector<float> cpu_plane(const Picture& p, int s) {
  const int w = p.width(0), h = p.height(0);
  std::vector<float> full(std::size_t(w) * h);
  vqtwin::luma_to_float(p, 0.0f, full.data());
  if (s == 1) return full;
  std::vector<float> out(std::size_t(float_ssim::decimated_size(w, s)) * float_ssim::decimated_size(h, s));
  float_ssim::box_decimate(full.data(), w, h, s, out.data());
  return out;
}

std::size_t differing(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return std::max(a.size(), b.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < a.size(); ++i) bad += !same(a[i], b[i]);
  return bad;
}

TEST(TwinFloatSsimDecimation, ExactIntegerSumIsTheCpuPlaneAtEveryDepthAndScale) {
  const int scales[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 16, 32, 64, 128};
  const int sizes[][2] = {{853, 481}, {161, 91}, {300, 129}, {129, 300}};
  unsigned seed = 1;
  for (int bits : {8, 10, 12, 16})
    for (const auto& sz : sizes)
      for (int s : scales)
        for (bool extremes : {false, true}) {
          const Picture p = random_luma(sz[0], sz[1], bits, seed++, extremes);
          EXPECT_EQ(differing(exact_plane(p, s), cpu_plane(p, s)), 0u)
              << bits << "-bit " << sz[0] << "x" << sz[1] << " scale " << s << (extremes ? " extremes" : "");
        }
}

TEST(TwinFloatSsimDecimation, OutOfRangeWordsAt10And12Bits) {
  // Samples up to 16383.75 (10-bit) and 4095.94 (12-bit): the sums pass 256, the units still hold them.
  const int scales[] = {1, 2, 3, 5, 7, 10, 16, 33, 128};
  unsigned seed = 100;
  for (int bits : {10, 12})
    for (int s : scales) {
      const Picture p = wild_luma(s == 128 ? 1500 : 301, s == 128 ? 1400 : 203, bits, seed++);
      EXPECT_EQ(differing(exact_plane(p, s), cpu_plane(p, s)), 0u) << bits << "-bit scale " << s;
    }
}

TEST(TwinFloatSsimDecimation, NarrowPlanesTheCheckAllows) {
  // The narrowest planes the capability check lets through (11 after decimation) and odd/even edges.
  const int cases[][3] = {{21, 22, 2}, {22, 21, 2}, {33, 31, 3}, {41, 44, 4}, {99, 121, 9}, {11, 11, 1}, {1281, 13, 128}};
  for (const auto& c : cases)
    for (int bits : {8, 16}) {
      const Picture p = random_luma(c[0], c[1], bits, unsigned(c[0] * 7 + c[1]));
      EXPECT_EQ(differing(exact_plane(p, c[2]), cpu_plane(p, c[2])), 0u)
          << c[0] << "x" << c[1] << " scale " << c[2] << " " << bits << "-bit";
    }
}

TEST(TwinFloatSsimDecimation, UnitsAreExact) {
  EXPECT_EQ(float_ssim::to_units45(1.0f), std::int64_t(1) << 45);
  EXPECT_EQ(float_ssim::to_units45(0.0f), 0);
  EXPECT_EQ(float_ssim::to_units45(0x1p-22f), std::int64_t(1) << 23);
  EXPECT_EQ(float_ssim::to_units45(255.99609375f), std::int64_t(65535) << 37);
  // The largest 10-bit word, 65535 / 4.
  EXPECT_EQ(float_ssim::to_units45(16383.75f), std::int64_t(65535) << 43);
  EXPECT_EQ(float_ssim::from_units45(std::int64_t(65535) << 43), 16383.75f);
  EXPECT_EQ(float_ssim::from_units45(std::int64_t(1) << 45), 1.0f);
  // One unit more than a float midpoint rounds up, the midpoint itself to even.
  const std::int64_t one = std::int64_t(1) << 45, half_ulp = std::int64_t(1) << 21;
  EXPECT_EQ(float_ssim::from_units45(one + half_ulp), 1.0f);
  EXPECT_EQ(float_ssim::from_units45(one + half_ulp + 1), std::nextafter(1.0f, 2.0f));
}

// ---- float_ssim: the capability check -------------------------------------------------------------

int check_of(int w, int h, const OptionPairs& pairs) {
  const OptionValues o(float_ssim::kSpec.options, pairs, "float_ssim_cuda");
  return float_ssim::device_check(o, PictureFormat{w, h, 8, ChromaFormat::k420});
}

TEST(TwinFloatSsimCheck, ServesEverySizeTheCpuServesAndDeclinesTheRest) {
  // Auto scale and every explicit scale on the sizes: served, with no fallback.
  const int sizes[][2] = {{320, 240}, {383, 383}, {384, 384}, {576, 324}, {960, 540},
                          {1920, 1080}, {2560, 1440}, {3840, 2160}, {7680, 4320}};
  for (const auto& sz : sizes) {
    EXPECT_EQ(check_of(sz[0], sz[1], {}), 0) << sz[0] << "x" << sz[1];
    for (int s = 1; s <= 10; ++s) {
      const float_ssim::Geometry g = float_ssim::geometry_of(s, sz[0], sz[1]);
      const int want = g.computable() ? 0 : -ENOTSUP;
      EXPECT_EQ(check_of(sz[0], sz[1], {{"scale", std::to_string(s)}}), want) << sz[0] << "x" << sz[1] << " " << s;
      // At these sizes only planes too small for the window are declined (240 / 10 + 0 = 24 >= 11).
      EXPECT_EQ(want, 0) << sz[0] << "x" << sz[1] << " " << s;
    }
  }
  // Decimated planes under 11x11 go to the CPU path (which refuses them with its error).
  EXPECT_EQ(check_of(40, 40, {{"scale", "4"}}), -ENOTSUP);
  EXPECT_EQ(check_of(10, 200, {}), -ENOTSUP);
  EXPECT_EQ(check_of(21, 22, {{"scale", "2"}}), 0);
  EXPECT_EQ(check_of(20, 22, {{"scale", "2"}}), -ENOTSUP);
  // Auto scale past 128 (a 33000-pixel short side): the CPU's exactness bound, declined.
  EXPECT_EQ(float_ssim::geometry_of(0, 33000, 33000).scale, 129);
  EXPECT_EQ(check_of(33000, 33000, {}), -ENOTSUP);
  EXPECT_EQ(check_of(32700, 32700, {}), 0);
}

// ---- float_ssim: the SSIM map terms ---------------------------------------------------------------

// The device's stages on the host: horizontal planes (gauss_pass), vertical pass + pixel_lcs per map
// pixel, ordered sums, mean_of.
float_ssim::Means twin_means(const std::vector<float>& r, const std::vector<float>& d, int w, int h) {
  using namespace float_ssim;
  const int mw = w - 10, mh = h - 10;
  const long nh = long(mw) * h;
  std::vector<float> hm(5 * std::size_t(nh));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < mw; ++x) {
      const long i = long(y) * mw + x;
      const float* pr = r.data() + long(y) * w + x;
      const float* pd = d.data() + long(y) * w + x;
      hm[i] = gauss_pass(pr, 1);
      hm[nh + i] = gauss_pass(pd, 1);
      hm[2 * nh + i] = gauss_pass_products(pr, pr, 1);
      hm[3 * nh + i] = gauss_pass_products(pd, pd, 1);
      hm[4 * nh + i] = gauss_pass_products(pr, pd, 1);
    }
  const std::size_t n = std::size_t(mw) * mh;
  std::vector<double> terms(4 * n);
  for (std::size_t i = 0; i < n; ++i) {
    const float* at = hm.data() + i;
    const PixelLcs p = pixel_lcs(gauss_pass(at, mw), gauss_pass(at + nh, mw), gauss_pass(at + 2 * nh, mw),
                                 gauss_pass(at + 3 * nh, mw), gauss_pass(at + 4 * nh, mw));
    terms[i] = p.l * p.c * p.s;
    terms[n + i] = p.l;
    terms[2 * n + i] = p.c;
    terms[3 * n + i] = p.s;
  }
  float m[4];
  for (int j = 0; j < 4; ++j) m[j] = mean_of(ordered_sum::sum_by_chunks(terms.data() + j * n, n), mw, mh);
  return {m[0], m[1], m[2], m[3]};
}

TEST(TwinFloatSsimMap, DeviceStagesGiveTheCpuMeans) {
  const int sizes[][3] = {{11, 11, 1}, {64, 48, 1}, {161, 91, 1}, {853, 481, 2}, {853, 481, 3}, {400, 300, 7}};
  unsigned seed = 5;
  for (const auto& sz : sizes)
    for (int bits : {8, 10, 16})
      for (int kind = 0; kind < 3; ++kind) {
        const int w = sz[0], h = sz[1], s = sz[2];
        const Picture r = random_luma(w, h, bits, seed++, kind == 2);
        std::mt19937 rng(seed);
        const unsigned max = (1u << bits) - 1;
        // dist: identical (kind 0), ref plus noise (1), unrelated (2).
        const Picture d = make_picture(r.format(), [&](int x, int y) {
          const unsigned v = bits > 8 ? r.row<std::uint16_t>(0, y)[x] : r.row<std::uint8_t>(0, y)[x];
          if (kind == 0) return v;
          if (kind == 2) return unsigned(rng() % (max + 1));
          return unsigned(std::clamp(int(v) + int(rng() % 9) - 4, 0, int(max)));
        });
        const auto rp = exact_plane(r, s), dp = exact_plane(d, s);
        const int pw = s > 1 ? float_ssim::decimated_size(w, s) : w, ph = s > 1 ? float_ssim::decimated_size(h, s) : h;
        const float_ssim::Means got = twin_means(rp, dp, pw, ph);
        float_ssim::Scratch scratch;  // the portable kernel: the reference
        const float_ssim::Means want =
            float_ssim::ssim_kernels_for(0).means(scratch, cpu_plane(r, s).data(), cpu_plane(d, s).data(), pw, ph);
        const std::string what = std::to_string(w) + "x" + std::to_string(h) + " s" + std::to_string(s) + " " +
                                 std::to_string(bits) + "-bit kind " + std::to_string(kind);
        EXPECT_TRUE(same(got.lcs, want.lcs)) << what << " " << got.lcs << " " << want.lcs;
        EXPECT_TRUE(same(got.l, want.l)) << what;
        EXPECT_TRUE(same(got.c, want.c)) << what;
        EXPECT_TRUE(same(got.s, want.s)) << what;
      }
}

// ---- integer_ssim: window moments and terms -----------------------------------------------------

// The twin's window at (x, y) as its tile kernel computes it: the row sums of the 9 rows (samples 0
// outside the picture), then the column.
template <class T, class Acc, class ColAcc>
integer_ssim::Moments tiled_window(const Picture& r, const Picture& d, int x, int y) {
  using namespace integer_ssim;
  const int w = r.width(0), h = r.height(0);
  RowSums<Acc> rows[kTaps];
  for (int j = 0; j < kTaps; ++j) {
    T a[kTaps], b[kTaps];
    const int yy = y - kRadius + j;
    for (int i = 0; i < kTaps; ++i) {
      const int xx = x - kRadius + i;
      const bool inside = xx >= 0 && xx < w && yy >= 0 && yy < h;
      a[i] = inside ? r.row<T>(0, yy)[xx] : T(0);
      b[i] = inside ? d.row<T>(0, yy)[xx] : T(0);
    }
    rows[j] = row_sums<T, Acc>(a, b);
  }
  return column_moments<ColAcc>(rows, 1, weight_used(x, w) * weight_used(y, h));
}

double twin_term_sum(const Picture& r, const Picture& d) {
  using namespace integer_ssim;
  const int w = r.width(0), h = r.height(0), bits = r.format().bitdepth;
  const double peak = double((1u << bits) - 1u);
  std::vector<double> terms(std::size_t(w) * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      // The twin's accumulator choice: 32-bit sums at 8 bits only.
      const Moments m = bits > 8 ? tiled_window<std::uint16_t, std::uint64_t, std::uint64_t>(r, d, x, y)
                                 : tiled_window<std::uint8_t, std::uint32_t, std::uint32_t>(r, d, x, y);
      terms[std::size_t(y) * w + x] = window_term(m, peak * peak);
    }
  return ordered_sum::sum_by_chunks(terms.data(), terms.size());
}

TEST(TwinIntegerSsim, TiledWindowsGiveTheCpuTermSum) {
  const int sizes[][2] = {{1, 1}, {2, 3}, {5, 9}, {9, 5}, {33, 35}, {161, 91}, {320, 240}};
  unsigned seed = 9;
  for (const auto& sz : sizes)
    for (int bits : {8, 10, 12, 16})
      for (int kind = 0; kind < 3; ++kind) {
        const Picture r = random_luma(sz[0], sz[1], bits, seed++, kind == 2);
        const Picture d = kind == 0 ? random_luma(sz[0], sz[1], bits, seed - 1, false)  // identical
                                    : random_luma(sz[0], sz[1], bits, seed++, false);
        const double want = integer_ssim::frame_term_sum(r, d);
        const double got = twin_term_sum(r, d);
        EXPECT_TRUE(same(got, want)) << sz[0] << "x" << sz[1] << " " << bits << "-bit kind " << kind << ": " << got
                                     << " vs " << want;
      }
}

TEST(TwinIntegerSsim, LargestSamplesFitTheRowAccumulators) {
  // Every sample at its maximum: the row sums reach 256 * max^2.
  for (int bits : {8, 10, 12, 16}) {
    const unsigned max = (1u << bits) - 1;
    const Picture full = make_picture({40, 30, bits, ChromaFormat::k420}, [&](int, int) { return max; });
    const Picture half = make_picture({40, 30, bits, ChromaFormat::k420}, [&](int x, int) { return x % 2 ? max : 0u; });
    EXPECT_TRUE(same(twin_term_sum(full, half), integer_ssim::frame_term_sum(full, half))) << bits;
    EXPECT_TRUE(same(twin_term_sum(full, full), integer_ssim::frame_term_sum(full, full))) << bits;
  }
}

TEST(TwinIntegerSsim, OutOfRangeWordsAt10And12Bits) {
  // Any 16-bit word in a 10- or 12-bit picture: row sums up to 256 * 65535^2, past 2^32.
  unsigned seed = 40;
  for (int bits : {10, 12})
    for (const auto& sz : {std::pair{33, 35}, std::pair{161, 91}}) {
      const Picture r = wild_luma(sz.first, sz.second, bits, seed++), d = wild_luma(sz.first, sz.second, bits, seed++);
      EXPECT_TRUE(same(twin_term_sum(r, d), integer_ssim::frame_term_sum(r, d))) << bits;
    }
}

TEST(TwinIntegerSsim, WeightTotalIsTheCpuDoubleSum) {
  for (int w : {1, 2, 4, 5, 8, 9, 10, 161, 1920})
    for (int h : {1, 3, 9, 91, 1080}) {
      double sum = 0;  // the CPU's former raster-order double sum of every window's weight
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
          sum += double(integer_ssim::weight_used(x, w) * integer_ssim::weight_used(y, h));
      EXPECT_TRUE(same(integer_ssim::weight_total(w, h), sum)) << w << "x" << h;
    }
}

// ---- float_motion: the blur and the SAD ---------------------------------------------------------

// The device's two passes on the host, per output.
std::vector<float> twin_blur(const Picture& p, int plane, int filter_size) {
  using namespace float_motion;
  const int w = p.width(plane), h = p.height(plane), bits = p.format().bitdepth;
  const float recip = float_ssim::sample_scale(bits);
  const int taps = taps_read(filter_size), r = taps / 2;
  const BlurTaps f = taps == 3 ? taps3() : taps5();
  auto sample = [&](int x, int y) {
    return motion_sample(bits > 8 ? p.row<std::uint16_t>(plane, y)[x] : p.row<std::uint8_t>(plane, y)[x], recip);
  };
  std::vector<float> tmp(std::size_t(w) * h), out(tmp.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      if (filter_size == 1) {
        out[std::size_t(y) * w + x] = sample(x, y);
        continue;
      }
      float v[5];
      for (int k = 0; k < taps; ++k) v[k] = sample(x, reflect101(y - r + k, h));
      tmp[std::size_t(y) * w + x] = blur_dot(f, taps, v);
    }
  if (filter_size == 1) return out;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float v[5];
      for (int k = 0; k < taps; ++k) v[k] = tmp[std::size_t(y) * w + reflect101(x - r + k, w)];
      out[std::size_t(y) * w + x] = blur_dot(f, taps, v);
    }
  return out;
}

TEST(TwinFloatMotion, BlurIsTheCpuBlurForEveryFilterAndDepth) {
  unsigned seed = 3;
  for (int bits : {8, 10, 12, 16})
    for (int fs : {1, 3, 5})
      for (const auto& sz : {std::pair{3, 3}, std::pair{17, 5}, std::pair{161, 91}, std::pair{853, 64}}) {
        const Picture p = random_luma(sz.first, sz.second, bits, seed++);
        float_motion::PlaneBlur cpu(sz.first, sz.second, fs);
        std::vector<float> want(std::size_t(sz.first) * sz.second);
        cpu.run(p, 0, want.data(), nullptr);
        EXPECT_EQ(differing(twin_blur(p, 0, fs), want), 0u) << bits << "-bit mfs " << fs << " " << sz.first << "x" << sz.second;
      }
}

TEST(TwinFloatMotion, SadAndHalfSizeAreTheCpus) {
  const Picture a = random_luma(853, 481, 10, 77), b = random_luma(853, 481, 10, 78);
  const auto ba = twin_blur(a, 0, 5), bb = twin_blur(b, 0, 5);
  // Row sums left to right, rows in order: what row_sad_kernel + total_kernel do.
  float total = 0.0f;
  for (int y = 0; y < 481; ++y) {
    float s = 0.0f;
    for (int x = 0; x < 853; ++x) s = s + std::fabs(ba[std::size_t(y) * 853 + x] - bb[std::size_t(y) * 853 + x]);
    total = total + s;
  }
  EXPECT_TRUE(same(total, float_motion::sad_total(ba.data(), bb.data(), 853, 481)));
  // Half-size planes through bilinear_at and the CPU's tables.
  float_motion::HalfResampler half(853, 481);
  std::vector<float> want(std::size_t(half.width()) * half.height()), got(want.size());
  half.run(ba.data(), want.data());
  for (int y = 0; y < half.height(); ++y) {
    const auto ty = float_motion::bilinear_tap(y, 481, half.height());
    for (int x = 0; x < half.width(); ++x) {
      const auto tx = float_motion::bilinear_tap(x, 853, half.width());
      got[std::size_t(y) * half.width() + x] = float_motion::bilinear_at(
          ba.data() + std::size_t(ty.i0) * 853, ba.data() + std::size_t(ty.i1) * 853, tx.i0, tx.i1, tx.frac, ty.frac);
    }
  }
  EXPECT_EQ(differing(got, want), 0u);
}

}  // namespace
}  // namespace vqtwin::test
