// float_vif (spec: float_vif.md): generated kernels, the fast log2, the per-scale filters against
// straightforward loops in the order the spec defines (written here), names/options, and what is refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "core/extractor.hpp"
#include "core/registry.hpp"
#include "features/float_vif/math.hpp"
#include "features/float_vif/prescale.hpp"
#include "features/float_vif/scale.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace {

using namespace float_vif;

std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
std::uint64_t bits_of(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

// ---- kernels ----

TEST(FloatVifKernels, DefaultTapsHaveTheSpecBitPatterns) {
  // float_vif.md §3: the left half and centre of each default kernel; the rest mirrors.
  const std::vector<std::vector<std::uint32_t>> half = {
      {0x3bf453b8, 0x3c69b9d9, 0x3ccd0e7b, 0x3d24fecf, 0x3d738495, 0x3da4d021, 0x3dcc9a86, 0x3de8f3b3, 0x3df33fb2},
      {0x3c9b77ec, 0x3d64f57b, 0x3df7a562, 0x3e44ba13, 0x3e658dc1},
      {0x3d5f2f86, 0x3e7a0fea, 0x3ece2433},
      {0x3e2a5f21, 0x3f2ad06f},
  };
  for (int s = 0; s < 4; ++s) {
    const std::vector<float> k = make_kernel(s, 1.0);
    const std::size_t n = half[std::size_t(s)].size();
    ASSERT_EQ(k.size(), 2 * n - 1) << "scale " << s;
    for (std::size_t i = 0; i < k.size(); ++i) {
      const std::size_t mirrored = i < n ? i : k.size() - 1 - i;
      EXPECT_EQ(bits_of(k[i]), half[std::size_t(s)][mirrored]) << "scale " << s << " tap " << i;
    }
  }
}

TEST(FloatVifKernels, WidthsFollowTheOddCeilingRule) {
  EXPECT_EQ(kernel_width(0, 1.0), 17);
  EXPECT_EQ(kernel_width(3, 1.0), 3);
  EXPECT_EQ(kernel_width(0, 0.5), 9);   // 8.5 -> 9
  EXPECT_EQ(kernel_width(1, 0.5), 5);   // 4.5 -> 5
  EXPECT_EQ(kernel_width(3, 0.5), 3);   // 1.5 -> 2 -> 3, and at least 3
  EXPECT_EQ(kernel_width(0, 2.0), 35);  // 34 is even -> 35
  EXPECT_EQ(kernel_width(0, 360.0 / 97.0), 65);
  // Normalised: the float sum of the taps is close to 1 (not exactly: each tap is rounded).
  for (double ks : {0.5, 1.0, 2.0, 360.0 / 97.0}) {
    double sum = 0;
    for (float v : make_kernel(0, ks)) sum += v;
    EXPECT_NEAR(sum, 1.0, 1e-6) << ks;
  }
}

TEST(FloatVifKernels, KernelScaleList) {
  for (double ks : {1.0, 0.5, 1.5, 2.0, 2.0 / 3.0, 2.4, 360.0 / 97.0, 3.0, 1.0 / 2.25, 1.111111})
    EXPECT_TRUE(kernelscale_is_valid(ks)) << ks;
  EXPECT_TRUE(kernelscale_is_valid(1.0009));  // within 1e-3
  EXPECT_FALSE(kernelscale_is_valid(1.0011));
  EXPECT_FALSE(kernelscale_is_valid(0.3));
  EXPECT_FALSE(kernelscale_is_valid(4.0));  // inside the option range, not in the list
}

// ---- log2 ----

TEST(FloatVifLog2, PowersOfTwoAreExactAndOthersClose) {
  for (int e = -20; e <= 20; ++e) EXPECT_EQ(log2_approx(std::ldexp(1.0f, e)), float(e));
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(1.0f, 1e6f);
  for (int i = 0; i < 1000; ++i) {
    const float x = u(rng);
    EXPECT_NEAR(log2_approx(x), std::log2(double(x)), 2e-6 * std::max(1.0, std::fabs(std::log2(double(x)))));
  }
  EXPECT_TRUE(std::isinf(log2_approx(0.0f)));
  EXPECT_TRUE(std::isnan(log2_approx(-1.0f)));
}

TEST(FloatVifLog2, PolynomialIsHornerInFloat) {
  // Independent evaluation of the same definition; also catches a fused or double Horner.
  const float c[9] = {-0.012671635276421f, 0.064841182402670f, -0.157048836463065f,
                      0.257167726303123f,  -0.353800560300520f, 0.480131410397451f,
                      -0.721314327952201f, 1.442694803896991f,  0.0f};
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(1.0f, 2.0f);
  for (int i = 0; i < 2000; ++i) {
    const float m = u(rng);
    const float t = m - 1.0f;
    volatile float v = 0.0f;  // volatile: one rounding per operation whatever the optimiser does
    for (float ck : c) {
      v = v * t;
      v = v + ck;
    }
    EXPECT_EQ(bits_of(log2_approx(m * 8.0f)), bits_of(3.0f + v)) << m;
  }
}

// ---- statistic ----

TEST(FloatVifStatistic, FlatAndDegenerateCases) {
  const StatParams p = make_stat_params(100.0, 2.0);
  EXPECT_EQ(bits_of(p.sigma_max_inv), 0x38810182u);  // spec §6
  float num, den;
  // Flat patch: sigma1 = 0 < nsq, so num = 1 - s2 * smi, den = 1.
  pixel_num_den(10.0f, 10.0f, 100.0f, 100.0f, 100.0f, p, num, den);
  EXPECT_EQ(num, 1.0f);
  EXPECT_EQ(den, 1.0f);
  pixel_num_den(10.0f, 10.0f, 100.0f, 164.0f, 100.0f, p, num, den);  // s2 = 64
  EXPECT_EQ(num, 1.0f - 64.0f * p.sigma_max_inv);
  // Identical textured patch: s1 = s2 = s12 = 50 -> g = 1 (almost), num ~ den = log2(1 + 25).
  pixel_num_den(0.0f, 0.0f, 50.0f, 50.0f, 50.0f, p, num, den);
  EXPECT_NEAR(den, std::log2(26.0), 1e-5);
  EXPECT_NEAR(num, den, 1e-5);
  // Anti-correlated: s12 < 0 -> num = 0.
  pixel_num_den(0.0f, 0.0f, 50.0f, 50.0f, -50.0f, p, num, den);
  EXPECT_EQ(num, 0.0f);
  // Gain limit 1 caps g: a contrast-boosted dis (s2 = 4 s1, s12 = 2 s1) gives num = log2(1 + s1/(sv+nsq)).
  const StatParams p1 = make_stat_params(1.0, 2.0);
  pixel_num_den(0.0f, 0.0f, 50.0f, 200.0f, 100.0f, p1, num, den);
  EXPECT_NEAR(num, std::log2(1.0 + 50.0 / (1e-10 + 2.0)), 1e-5);
}

// ---- filters: fused row loops vs the literal scalar order ----

inline int reflect(int q, int n) { return q < 0 ? -q : (q >= n ? 2 * n - q - 2 : q); }

enum class Term { kPlain, kSquare, kCross };

// The spec's scalar filter order (our own plain loops): per output row, vertical then horizontal, per pixel a fresh
// accumulator over the taps in order.
std::vector<float> literal_filter(const FloatPlane& a, const FloatPlane& b, const std::vector<float>& k, Term term) {
  const int w = a.w, h = a.h, r = int(k.size()) / 2;
  std::vector<float> out(static_cast<std::size_t>(w * h)), tmp(static_cast<std::size_t>(w));
  for (int i = 0; i < h; ++i) {
    for (int j = 0; j < w; ++j) {
      float acc = 0;
      for (int t = 0; t < int(k.size()); ++t) {
        const int q = reflect(i - r + t, h);
        const float x = a.row(q)[j], y = b.row(q)[j];
        const float s = term == Term::kPlain ? x : term == Term::kSquare ? x * x : x * y;
        acc += k[std::size_t(t)] * s;
      }
      tmp[std::size_t(j)] = acc;
    }
    for (int j = 0; j < w; ++j) {
      float acc = 0;
      for (int t = 0; t < int(k.size()); ++t) acc += k[std::size_t(t)] * tmp[std::size_t(reflect(j - r + t, w))];
      out[std::size_t(i) * std::size_t(w) + std::size_t(j)] = acc;
    }
  }
  return out;
}

FloatPlane random_plane(int w, int h, unsigned seed) {
  FloatPlane p;
  p.resize(w, h);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> u(0, 255);
  for (float& v : p.px) v = float(u(rng)) - 128.0f;
  return p;
}

ScaleSums literal_scale_sums(const FloatPlane& ref, const FloatPlane& dis, const std::vector<float>& k,
                             const StatParams& p) {
  const auto mu1 = literal_filter(ref, ref, k, Term::kPlain);
  const auto mu2 = literal_filter(dis, dis, k, Term::kPlain);
  const auto xx = literal_filter(ref, ref, k, Term::kSquare);
  const auto yy = literal_filter(dis, dis, k, Term::kSquare);
  const auto xy = literal_filter(ref, dis, k, Term::kCross);
  float acc_num = 0, acc_den = 0;
  for (int i = 0; i < ref.h; ++i) {
    float rn = 0, rd = 0;
    for (int j = 0; j < ref.w; ++j) {
      const std::size_t x = std::size_t(i) * std::size_t(ref.w) + std::size_t(j);
      float n, d;
      pixel_num_den(mu1[x], mu2[x], xx[x], yy[x], xy[x], p, n, d);
      rn += n;
      rd += d;
    }
    acc_num += rn;
    acc_den += rd;
  }
  return {acc_num, acc_den};
}

// The portable row loops; tests/cpu_check holds the other builds to them.
TEST(FloatVifFilters, FusedScaleSumsEqualTheLiteralLoops) {
  const ScaleKernels portable = scale_kernels_for(0);
  const StatParams p = make_stat_params(100.0, 2.0);
  ScaleScratch scratch;
  for (auto [w, h] : {std::pair{37, 23}, std::pair{64, 17}, std::pair{18, 40}}) {
    const FloatPlane ref = random_plane(w, h, unsigned(w * 100 + h));
    FloatPlane dis = ref;
    std::mt19937 rng(5);
    std::normal_distribution<float> noise(0.0f, 6.0f);
    for (float& v : dis.px) v = std::round(v + noise(rng));
    for (int s = 0; s < 4; ++s) {
      const auto k = make_kernel(s, 1.0);
      if (int(k.size()) / 2 >= std::min(w, h)) continue;
      const ScaleSums got = scale_sums(portable, ref, dis, k, p, scratch);
      const ScaleSums want = literal_scale_sums(ref, dis, k, p);
      EXPECT_EQ(bits_of(got.num), bits_of(want.num)) << w << "x" << h << " scale " << s;
      EXPECT_EQ(bits_of(got.den), bits_of(want.den)) << w << "x" << h << " scale " << s;
    }
  }
}

TEST(FloatVifFilters, DecimationKeepsEvenSamplesOfTheBlur) {
  const ScaleKernels portable = scale_kernels_for(0);
  ScaleScratch scratch;
  for (auto [w, h] : {std::pair{37, 23}, std::pair{20, 31}}) {
    const FloatPlane src = random_plane(w, h, 11);
    const auto k = make_kernel(1, 1.0);
    const auto blur = literal_filter(src, src, k, Term::kPlain);
    FloatPlane dst;
    blur_decimate(portable, src, k, dst, scratch);
    ASSERT_EQ(dst.w, w / 2);
    ASSERT_EQ(dst.h, h / 2);
    for (int i = 0; i < dst.h; ++i)
      for (int j = 0; j < dst.w; ++j)
        ASSERT_EQ(bits_of(dst.row(i)[j]), bits_of(blur[std::size_t(2 * i) * std::size_t(w) + std::size_t(2 * j)]))
            << i << "," << j;
  }
}

TEST(FloatVifPrescale, SameSizeIsACopyAndNearestDoubles) {
  const FloatPlane src = random_plane(20, 18, 2);
  FloatPlane dst;
  for (PrescaleMethod m : {PrescaleMethod::kNearest, PrescaleMethod::kBilinear, PrescaleMethod::kBicubic,
                           PrescaleMethod::kLanczos4}) {
    prescale(src, m, 20, 18, dst);
    EXPECT_EQ(dst.px, src.px);
  }
  EXPECT_EQ(prescaled_size(20, 2.0), 40);
  EXPECT_EQ(prescaled_size(853, 0.5), 427);  // (int)(426.5 + 0.5)
  prescale(src, PrescaleMethod::kNearest, 40, 36, dst);
  for (int y = 0; y < 36; ++y)
    for (int x = 0; x < 40; ++x) ASSERT_EQ(dst.row(y)[x], src.row(y / 2)[x / 2]);
  // Bilinear at 2x on a horizontal ramp: interior samples interpolate linearly.
  FloatPlane ramp;
  ramp.resize(16, 16);
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 16; ++x) ramp.row(y)[x] = float(x);
  prescale(ramp, PrescaleMethod::kBilinear, 32, 32, dst);
  EXPECT_EQ(dst.row(5)[5], 2.25f);  // source x = (5.5) * 0.5 - 0.5 = 2.25
  PrescaleMethod m;
  EXPECT_FALSE(parse_prescale_method("area", m));
}

// ---- the extractor ----

struct MapSink final : FeatureSink {
  std::mutex mu;
  std::map<std::string, std::map<unsigned, double>> values;
  std::vector<std::string> order;
  void put(std::string_view name, unsigned frame, double v) override {
    std::lock_guard lock(mu);
    if (!values.count(std::string(name))) order.emplace_back(name);
    values[std::string(name)][frame] = v;
  }
  void aggregate(std::string_view, double) override {}
};

Picture make_picture(int w, int h, int depth, unsigned seed, bool flat = false) {
  PictureFormat f;
  f.width = w;
  f.height = h;
  f.bitdepth = depth;
  f.chroma = ChromaFormat::k420;
  Picture pic(f);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> u(0, (1 << depth) - 1);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int v = flat ? (1 << (depth - 1)) : u(rng);
      if (depth > 8) pic.row<std::uint16_t>(0, y)[x] = std::uint16_t(v);
      else pic.row<std::uint8_t>(0, y)[x] = std::uint8_t(v);
    }
  return pic;
}

std::unique_ptr<Extractor> make_vif(const OptionPairs& opts) {
  const ExtractorInfo* info = find_extractor("float_vif");
  EXPECT_NE(info, nullptr);
  return info->create(OptionValues(info->spec->options, opts, "float_vif"));
}

TEST(FloatVifExtractor, RefusesSmallPlanesAndBadOptions) {
  PictureFormat f;
  f.width = 15;
  f.height = 64;
  EXPECT_THROW(make_vif({})->init(f), Error);
  f.width = 64;
  f.height = 15;
  EXPECT_THROW(make_vif({})->init(f), Error);
  f.height = 16;
  EXPECT_NO_THROW(make_vif({})->init(f));
  f.width = f.height = 32;  // ks 360/97: the 65-tap scale-0 kernel needs more than 32 samples
  EXPECT_THROW(make_vif({{"vif_kernelscale", std::to_string(360.0 / 97.0)}})->init(f), Error);
  f.width = f.height = 16;
  EXPECT_THROW(make_vif({{"vif_prescale", "0.5"}})->init(f), Error);  // 8x8 after prescale
  f.bitdepth = 9;
  EXPECT_THROW(make_vif({})->init(f), Error);
  // An invalid kernel scale is refused when the context is created (spec: DECISIONS.md §16).
  EXPECT_THROW(make_vif({{"vif_kernelscale", "0.3"}}), Error);
  EXPECT_THROW(make_vif({{"vif_prescale_method", "area"}}), Error);
}

TEST(FloatVifExtractor, NamesCarryTheOptionSuffixes) {
  const Picture ref = make_picture(48, 40, 8, 1), dis = make_picture(48, 40, 8, 2);
  MapSink sink;
  auto e = make_vif({{"vif_enhn_gain_limit", "1"}, {"vif_skip_scale0", "true"}});
  e->init(ref.format());
  e->extract(ref, dis, 0, sink);
  const std::vector<std::string> want = {"vif_scale0_egl_1_ssclz", "vif_scale1_egl_1_ssclz",
                                         "vif_scale2_egl_1_ssclz", "vif_scale3_egl_1_ssclz"};
  EXPECT_EQ(sink.order, want);
  EXPECT_EQ(sink.values["vif_scale0_egl_1_ssclz"][0], 0.0);

  MapSink dbg;
  auto d = make_vif({{"debug", "true"}});
  d->init(ref.format());
  d->extract(ref, dis, 3, dbg);
  ASSERT_EQ(dbg.order.size(), 15u);
  EXPECT_EQ(dbg.order[4], "vif");
  EXPECT_EQ(dbg.order[14], "vif_den_scale3");
  const double num0 = dbg.values["vif_num_scale0"][3], den0 = dbg.values["vif_den_scale0"][3];
  EXPECT_EQ(bits_of(dbg.values["vif_scale0"][3]), bits_of(num0 / den0));
}

TEST(FloatVifExtractor, IdenticalFramesScoreNearOneAndBitDepthsAgree) {
  // The same content at 10, 12 and 16 bits (v << (depth - 8)) converts to the same floats: same bits.
  const Picture a8 = make_picture(40, 36, 8, 9), b8 = make_picture(40, 36, 8, 10);
  auto widen = [](const Picture& p8, int depth) {
    PictureFormat f = p8.format();
    f.bitdepth = depth;
    Picture p(f);
    for (int y = 0; y < f.height; ++y)
      for (int x = 0; x < f.width; ++x)
        p.row<std::uint16_t>(0, y)[x] = std::uint16_t(p8.row<std::uint8_t>(0, y)[x] << (depth - 8));
    return p;
  };
  auto scores = [](const Picture& r, const Picture& d) {
    MapSink sink;
    auto e = make_vif({});
    e->init(r.format());
    e->extract(r, d, 0, sink);
    return sink.values;
  };
  const auto same8 = scores(a8, a8);
  for (int s = 0; s < 4; ++s) EXPECT_NEAR(same8.at("vif_scale" + std::to_string(s)).at(0), 1.0, 1e-5) << s;
  const auto diff8 = scores(a8, b8);
  for (int depth : {10, 12, 16}) {
    const auto diff = scores(widen(a8, depth), widen(b8, depth));
    for (int s = 0; s < 4; ++s) {
      const std::string n = "vif_scale" + std::to_string(s);
      EXPECT_EQ(bits_of(diff.at(n).at(0)), bits_of(diff8.at(n).at(0))) << n << " at " << depth << " bits";
    }
  }
}

}  // namespace
}  // namespace vqtwin
