// SpEED (speed_chroma, speed_temporal) against independent references: eigenvalues from a plain
// double-precision Jacobi iteration, linear solves checked by their residual, hand-computed sizes
// and kernels, and the extractors' rules on constructed pictures. The 12 speed goldens and the 30
// v1.0.16 goldens check the bits against libvmaf 3.2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "extractor_harness.hpp"
#include "features/speed/core.hpp"
#include "features/speed/linalg.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::test {
namespace {

// Eigenvalues of a symmetric matrix by cyclic Jacobi rotations in double (sorted).
std::vector<double> jacobi(std::vector<double> a, int n) {
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0;
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) off += a[p * n + q] * a[p * n + q];
    if (off < 1e-24) break;
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) {
        if (a[p * n + q] == 0) continue;
        const double theta = (a[q * n + q] - a[p * n + p]) / (2 * a[p * n + q]);
        const double t = (theta >= 0 ? 1 : -1) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < n; ++k) {
          const double akp = a[k * n + p], akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (int k = 0; k < n; ++k) {
          const double apk = a[p * n + k], aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
      }
  }
  std::vector<double> d;
  for (int i = 0; i < n; ++i) d.push_back(a[i * n + i]);
  std::sort(d.begin(), d.end());
  return d;
}

std::vector<float> random_spd(int n, std::mt19937& rng) {
  std::normal_distribution<float> g(0, 1);
  std::vector<float> m(std::size_t(n * n)), a(std::size_t(n * n), 0.0f);
  for (auto& v : m) v = g(rng);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int k = 0; k < n; ++k) s += m[std::size_t(i * n + k)] * m[std::size_t(j * n + k)];
      a[std::size_t(i * n + j)] = s / float(n) + (i == j ? 0.5f : 0.0f);
    }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j) a[std::size_t(i * n + j)] = a[std::size_t(j * n + i)];  // exactly symmetric
  return a;
}

TEST(Speed, EigenvaluesMatchJacobi) {
  std::mt19937 rng(2);
  for (int n : {1, 2, 3, 5, 25}) {
    for (int rep = 0; rep < 5; ++rep) {
      const auto a = random_spd(n, rng);
      auto got = speed::eigenvalues(a, n);
      std::sort(got.begin(), got.end());
      const auto want = jacobi(std::vector<double>(a.begin(), a.end()), n);
      for (int i = 0; i < n; ++i)
        EXPECT_NEAR(got[std::size_t(i)], want[std::size_t(i)], 1e-4 * std::max(1.0, std::fabs(want[std::size_t(i)])))
            << n << "x" << n << " #" << i;
    }
  }
  // By hand: [[2, 1], [1, 2]] has eigenvalues 1 and 3; a diagonal matrix its diagonal.
  auto two = speed::eigenvalues(std::vector<float>{2, 1, 1, 2}, 2);
  std::sort(two.begin(), two.end());
  EXPECT_NEAR(two[0], 1.0f, 1e-6);
  EXPECT_NEAR(two[1], 3.0f, 1e-6);
  auto diag = speed::eigenvalues(std::vector<float>{4, 0, 0, 0, 9, 0, 0, 0, 1}, 3);
  std::sort(diag.begin(), diag.end());
  EXPECT_EQ(diag, (std::vector<float>{1, 4, 9}));
  EXPECT_EQ(speed::eigenvalues(std::vector<float>(25 * 25, 0.0f), 25), std::vector<float>(25, 0.0f));
}

TEST(Speed, SolveHasASmallResidual) {
  std::mt19937 rng(4);
  const int n = 25, cols = 7;
  const auto a = random_spd(n, rng);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> b(std::size_t(n * cols)), x(std::size_t(n * cols));
  for (auto& v : b) v = u(rng);
  ASSERT_TRUE(speed::solve(a, n, b, cols, x));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < cols; ++j) {
      double ax = 0;
      for (int k = 0; k < n; ++k) ax += double(a[std::size_t(i * n + k)]) * x[std::size_t(k * cols + j)];
      EXPECT_NEAR(ax, b[std::size_t(i * cols + j)], 1e-3) << i << "," << j;
    }
  // A singular matrix: R's last diagonal entry vanishes.
  std::vector<float> singular(std::size_t(n * n), 0.0f);
  for (int i = 0; i < n - 1; ++i) singular[std::size_t(i * n + i)] = 1;
  EXPECT_FALSE(speed::solve(singular, n, b, cols, x));
}

TEST(Speed, DimensionsAndKernels) {
  // 576x324 4:2:0: chroma 288x162 -> 1/16: 18x10 -> 3x2 blocks -> windows of 11x6.
  const auto d = speed::make_dimensions(288, 162, 1.0, "t");
  EXPECT_EQ(d.down_w, 18);
  EXPECT_EQ(d.down_h, 10);
  EXPECT_EQ(d.blocks_x, 3);
  EXPECT_EQ(d.blocks_y, 2);
  EXPECT_EQ(d.sub_w, 11);
  EXPECT_EQ(d.sub_h, 6);
  EXPECT_FALSE(d.prescaled);
  const auto p = speed::make_dimensions(640, 360, 0.6, "t");  // int(640 * 0.6 + 0.5) = 384, 216
  EXPECT_EQ(p.scaled_w, 384);
  EXPECT_EQ(p.scaled_h, 216);
  EXPECT_TRUE(p.prescaled);
  EXPECT_THROW(speed::make_dimensions(79, 500, 1.0, "t"), Error);   // 79 >> 4 = 4: no whole block
  EXPECT_NO_THROW(speed::make_dimensions(80, 80, 1.0, "t"));
  EXPECT_THROW(speed::make_dimensions(2000, 2000, 1.0005, "t"), Error);  // skipped resize, new size 2001
  EXPECT_NO_THROW(speed::make_dimensions(400, 400, 1.0005, "t"));        // 400.7 -> 400: unchanged
  // Kernels: symmetric, normalised, the 3-tap local-mean kernel by hand (sigma 0.6).
  const auto k = speed::gaussian(3, 3.0f / 5.0f);
  const double e = std::exp(-0.5 / 0.36);
  EXPECT_NEAR(k[0], e / (1 + 2 * e), 1e-7);
  EXPECT_EQ(k[0], k[2]);
  const auto aa = speed::gaussian(9, 3.6f);
  float sum = 0;
  for (float v : aa) sum += v;
  EXPECT_NEAR(sum, 1.0f, 1e-6);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(aa[std::size_t(i)], aa[std::size_t(8 - i)]);
}

PictureFormat fmt(int w, int h, ChromaFormat c = ChromaFormat::k420) { return {w, h, 8, c}; }

// Smooth waves (SpEED looks at 1/16 size) whose phases depend on the seed, plus a little noise.
Picture textured(const PictureFormat& f, int seed, bool flat_u = false) {
  std::mt19937 rng(static_cast<unsigned>(seed));
  Picture pic(f);
  for (int p = 0; p < f.num_planes(); ++p)
    for (int y = 0; y < pic.height(p); ++y)
      for (int x = 0; x < pic.width(p); ++x) {
        const double wave = std::sin(x * 0.09 + seed * (p + 1)) * std::cos(y * 0.07 + 2.0 * seed);
        pic.row<std::uint8_t>(p, y)[x] = std::uint8_t(p == 1 && flat_u ? 77 : 128 + 60 * wave + double(rng() % 5));
      }
  return pic;
}

TEST(Speed, IdenticalPicturesScoreZero) {
  const Picture a = textured(fmt(1024, 768), 1);
  const auto out = run_one("speed_chroma", {}, a, a);
  EXPECT_EQ(out.at("speed_chroma_u"), 0.0);
  EXPECT_EQ(out.at("speed_chroma_v"), 0.0);
  EXPECT_EQ(out.at("speed_chroma_uv"), 0.0);
  const Picture b = textured(fmt(1024, 768), 2);
  const auto diff = run_one("speed_chroma", {}, a, b);
  EXPECT_GT(diff.at("speed_chroma_u"), 0.0);
  EXPECT_EQ(float(diff.at("speed_chroma_uv")), float((float(diff.at("speed_chroma_u")) + float(diff.at("speed_chroma_v"))) / 2.0));
  // speed_max_val clips and renames.
  EXPECT_EQ(run_one("speed_chroma", {{"speed_max_val", "0"}}, a, b).at("speed_chroma_v_mxv_0"), 0.0);
}

TEST(Speed, SingularPlaneTakesTheOthersScore) {
  // U flat in both pictures: its covariance is singular on both sides; uv is v's score.
  const Picture a = textured(fmt(1024, 768), 1, true), b = textured(fmt(1024, 768), 2, true);
  const auto out = run_one("speed_chroma", {}, a, b);
  EXPECT_GT(out.at("speed_chroma_v"), 0.0);
  EXPECT_EQ(out.at("speed_chroma_uv"), out.at("speed_chroma_v"));
}

TEST(Speed, TemporalScoresFrameDifferences) {
  auto ex = make_extractor("speed_temporal", {}, fmt(320, 192));
  MapSink sink;
  const Picture f0 = textured(fmt(320, 192), 1), f1 = textured(fmt(320, 192), 2), f2 = textured(fmt(320, 192), 3);
  ex->extract(f0, f0, 0, sink);
  ex->extract(f1, f1, 1, sink);  // the same change in both: no difference
  ex->extract(f0, f2, 2, sink);  // different changes
  ex->flush(sink);
  EXPECT_EQ(sink.values["speed_temporal"][0], 0.0);
  EXPECT_EQ(sink.values["speed_temporal"][1], 0.0);
  EXPECT_GT(sink.values["speed_temporal"][2], 0.0);
}

TEST(Speed, Refusals) {
  auto refused = [](const std::string& name, const OptionPairs& o, const PictureFormat& f, const std::string& what) {
    try {
      make_extractor(name, o, f);
      ADD_FAILURE() << "accepted: " << what;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  refused("speed_chroma", {}, fmt(320, 192, ChromaFormat::k400), "4:0:0");
  refused("speed_chroma", {}, fmt(158, 400), "too small");  // chroma 79 wide
  refused("speed_temporal", {}, fmt(79, 400), "too small");
  refused("speed_chroma", {{"speed_kernelscale", "0.9"}}, fmt(320, 192), "kernel scales");
  refused("speed_temporal", {{"speed_prescale_method", "area"}}, fmt(320, 192), "speed_prescale_method");
  refused("speed_chroma", {{"speed_weight_var_mode", "7"}}, fmt(320, 192), "out of range");
  EXPECT_NO_THROW(make_extractor("speed_chroma", {}, fmt(160, 160)));  // chroma 80x80: one block
}

}  // namespace
}  // namespace vqtwin::test
