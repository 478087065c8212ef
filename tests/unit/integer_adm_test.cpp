// integer ADM (`adm`): its pieces against independent references (a straightforward DWT, the
// reciprocal table by division, the gain by double division, the float constants recomputed),
// whole frames against numbers from libvmaf's scalar C build (cases no golden covers: 16-bit,
// the smallest frames, non-integer gain limits, CSF modes, skip options), refusals, and the
// AVX2 kernels against the scalar ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "core/extractor.hpp"
#include "core/registry.hpp"
#include "features/integer_adm/dwt.hpp"
#include "features/integer_adm/math.hpp"
#include "features/integer_adm/pipeline.hpp"
#include "features/integer_adm/rows.hpp"
#include "features/integer_adm/setup.hpp"
#include "../support/integer_adm_planes.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::integer_adm {
namespace {

// ---- helpers ----

struct Sink final : FeatureSink {
  std::vector<std::pair<std::string, double>> values;
  void put(std::string_view name, unsigned, double v) override { values.emplace_back(std::string(name), v); }
  void aggregate(std::string_view, double) override {}
};

OptionValues options_of(const std::string& text) {
  const ExtractorInfo* info = find_extractor("adm");
  return OptionValues(info->spec->options, text.empty() ? OptionPairs{} : split_option_string(text, "adm"), "adm");
}

// The extractor end to end (option parsing, naming, init, extract) on one frame pair.
std::vector<std::pair<std::string, double>> run_frame(const std::string& opts, const Picture& ref, const Picture& dis) {
  const ExtractorInfo* info = find_extractor("adm");
  auto ex = info->create(options_of(opts));
  ex->init(ref.format());
  Sink sink;
  ex->extract(ref, dis, 0, sink);
  return sink.values;
}

// ---- constants ----

TEST(IntegerAdmConstants, ReciprocalTableIsTruncatedDivision) {
  for (int m = 1; m <= 32768; ++m) {
    const uint64_t q = (uint64_t(1) << 30) / uint64_t(m);
    ASSERT_EQ(uint64_t(kReciprocal.div[m]), q) << m;
    // floor: q * m <= 2^30 < (q + 1) * m
    ASSERT_LE(q * uint64_t(m), uint64_t(1) << 30);
    ASSERT_GT((q + 1) * uint64_t(m), uint64_t(1) << 30);
  }
  EXPECT_EQ(kReciprocal.div[1], 1 << 30);
  EXPECT_EQ(kReciprocal.div[3], 357913941);
  EXPECT_EQ(kReciprocal.div[32768], 32768);
}

TEST(IntegerAdmConstants, CosineSquaredIsRecomputedFloat) {
  const double c = std::cos(1.0 * M_PI / 180.0);
  EXPECT_EQ(kCos1DegSq, float(c * c));
}

TEST(IntegerAdmConstants, WatsonFactorsOfTheDefaultDisplay) {
  // Spec table (bit patterns of libvmaf's float factors at nvd 3, rdh 1080).
  const uint32_t hv[4] = {0x3c8e63ba, 0x3d030286, 0x3d31a788, 0x3d3b140b};
  const uint32_t d[4] = {0x3bc106aa, 0x3c6a46a3, 0x3cc7dc06, 0x3d0041c9};
  for (int l = 0; l < 4; ++l) {
    EXPECT_EQ(std::bit_cast<uint32_t>(watson_factor(l, 1, 3.0, 1080)), hv[l]) << l;
    EXPECT_EQ(std::bit_cast<uint32_t>(watson_factor(l, 2, 3.0, 1080)), d[l]) << l;
  }
  const CsfFactors f = make_csf_factors(Settings{});
  EXPECT_EQ(f.r0[0], 36453);  // libvmaf's hard-coded values, not the computed 36451 / 49414
  EXPECT_EQ(f.r0[2], 49417);
  EXPECT_EQ(f.rs[1][0], 137373792u);
  EXPECT_EQ(f.rs[1][2], 61414028u);
  EXPECT_EQ(f.rs[3][0], 196165808u);
  EXPECT_EQ(f.rs[3][2], 134487184u);
  Settings other;
  other.norm_view_dist = 5.0;  // off the default display: computed from the float factors
  const CsfFactors g = make_csf_factors(other);
  EXPECT_EQ(g.r0[0], uint16_t(double(g.f[0][0]) * 2097152.0));
}

TEST(IntegerAdmConstants, PoolRectOfTheSpecExample) {
  const Rect r = pool_rect(288, 162);
  EXPECT_EQ(r.left, 28);
  EXPECT_EQ(r.right, 260);
  EXPECT_EQ(r.top, 15);
  EXPECT_EQ(r.bottom, 147);
}

// ---- decouple ----

TEST(IntegerAdmDecouple, GainIsTheClampedRatioInQ15) {
  std::mt19937 rng(1);
  std::uniform_int_distribution<int> any16(-32768, 32767);
  for (int i = 0; i < 200000; ++i) {
    const int32_t o = any16(rng), t = any16(rng);
    if (o == 0) continue;
    const int32_t k = gain_scale0(o, t, kReciprocal.div);
    const double exact = std::clamp(32768.0 * t / o, 0.0, 32768.0);
    ASSERT_LE(std::fabs(k - exact), 1.5) << o << " " << t;
    // Below 2^15 the scale 1-3 rule is the same computation.
    ASSERT_EQ(gain_scale123(o, t, kReciprocal.div), k) << o << " " << t;
  }
  std::uniform_int_distribution<int32_t> wide(-(1 << 24), 1 << 24);
  for (int i = 0; i < 200000; ++i) {
    const int32_t o = wide(rng), t = wide(rng);
    if (o == 0) continue;
    const double exact = std::clamp(32768.0 * t / o, 0.0, 32768.0);
    // |o| is rounded to 15 significant bits first: a relative error of about 2^-15.
    ASSERT_LE(std::fabs(gain_scale123(o, t, kReciprocal.div) - exact), 2.5) << o << " " << t;
  }
  EXPECT_EQ(gain_scale0(0, 5, kReciprocal.div), 32768);
  EXPECT_EQ(gain_scale123(0, -5, kReciprocal.div), 32768);
}

TEST(IntegerAdmDecouple, AngleTestAgreesWithTheAngleAwayFromOneDegree) {
  std::mt19937 rng(2);
  std::uniform_int_distribution<int> any16(-32768, 32767);
  int checked = 0;
  for (int i = 0; i < 200000; ++i) {
    const int64_t oh = any16(rng), ov = any16(rng);
    // t = o rotated by a random angle of -3..3 degrees, scaled.
    const double a = std::uniform_real_distribution<double>(-3.0, 3.0)(rng) * M_PI / 180.0;
    const double s = std::uniform_real_distribution<double>(0.5, 1.0)(rng);
    const int64_t th = std::llround(s * (oh * std::cos(a) - ov * std::sin(a)));
    const int64_t tv = std::llround(s * (oh * std::sin(a) + ov * std::cos(a)));
    const double on = std::hypot(double(oh), double(ov)), tn = std::hypot(double(th), double(tv));
    if (on < 1000 || tn < 1000) continue;
    const double deg = std::acos(std::clamp((oh * th + ov * tv) / (on * tn), -1.0, 1.0)) * 180.0 / M_PI;
    if (std::fabs(deg - 1.0) < 0.05) continue;  // float rounding decides there
    ASSERT_EQ(angle_within_1deg(oh, ov, th, tv), deg < 1.0) << oh << " " << ov << " " << th << " " << tv;
    ++checked;
  }
  EXPECT_GT(checked, 50000);
  EXPECT_FALSE(angle_within_1deg(100, 0, -100, 0));  // opposite: dot < 0
}

TEST(IntegerAdmDecouple, GainLimitOneKeepsRestoredWithinDis) {
  // egl = 1: a restored value never exceeds the dis value in magnitude when the angle test holds.
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> any16(-32768, 32767);
  for (int i = 0; i < 100000; ++i) {
    const int16_t o = int16_t(any16(rng)), t = int16_t(any16(rng));
    const Restored16 r = decouple_scale0(o, t, true, 1.0, kReciprocal.div);
    if (o > 0 && r.rst > 0) {
      ASSERT_LE(r.rst, t);
    }
    if (o < 0 && r.rst < 0) {
      ASSERT_GE(r.rst, t);
    }
    ASSERT_EQ(int16_t(t - r.rst), r.q);
  }
  // Identical bands and the default gain limit: everything is restored, nothing added.
  for (int v : {-32768, -1234, -1, 1, 77, 32767}) {
    const Restored16 r = decouple_scale0(int16_t(v), int16_t(v), true, 100.0, kReciprocal.div);
    EXPECT_EQ(r.rst, v);
    EXPECT_EQ(r.q, 0);
  }
}

// ---- DWT against a straightforward implementation ----

// Straightforward separable DWT of one plane (any integer input, int64 sums): extend every
// line explicitly (-1 -> 1, n -> n-1, n+1 -> n-2), filter, round, narrow.
struct Bands {
  std::vector<int64_t> a, h, v, d;
};
Bands reference_dwt(const std::vector<int64_t>& in, int w, int h, int64_t offset, int vshift, int64_t vround,
                    int hshift, int64_t hround, bool narrow16) {
  auto ext = [](int p, int n) {
    if (p == -1) return 1;
    if (p == n) return n - 1;
    if (p == n + 1) return n - 2;
    return p;
  };
  auto narrow = [&](int64_t v) { return narrow16 ? int64_t(int16_t(v)) : int64_t(int32_t(v)); };
  const int ow = (w + 1) / 2, oh = (h + 1) / 2;
  std::vector<int64_t> lo(std::size_t(oh) * w), hi(lo.size());
  for (int k = 0; k < oh; ++k)
    for (int x = 0; x < w; ++x) {
      int64_t l = 0, g = 0;
      for (int t = 0; t < 4; ++t) {
        const int64_t s = in[std::size_t(ext(2 * k - 1 + t, h)) * w + x];
        l += kLo[t] * s;
        g += kHi[t] * s;
      }
      lo[std::size_t(k) * w + x] = narrow((l - offset + vround) >> vshift);
      hi[std::size_t(k) * w + x] = narrow((g + vround) >> vshift);
    }
  Bands b;
  for (auto* v : {&b.a, &b.h, &b.v, &b.d}) v->resize(std::size_t(ow) * oh);
  for (int k = 0; k < oh; ++k)
    for (int j = 0; j < ow; ++j) {
      int64_t sa = 0, sv = 0, sh = 0, sd = 0;
      for (int t = 0; t < 4; ++t) {
        const int64_t l = lo[std::size_t(k) * w + ext(2 * j - 1 + t, w)];
        const int64_t g = hi[std::size_t(k) * w + ext(2 * j - 1 + t, w)];
        sa += kLo[t] * l;
        sv += kHi[t] * l;
        sh += kLo[t] * g;
        sd += kHi[t] * g;
      }
      const std::size_t i = std::size_t(k) * ow + j;
      b.a[i] = narrow((sa + hround) >> hshift);
      b.v[i] = narrow((sv + hround) >> hshift);
      b.h[i] = narrow((sh + hround) >> hshift);
      b.d[i] = narrow((sd + hround) >> hshift);
    }
  return b;
}

void check_dwt0(int w, int h, int bpc, const std::vector<uint32_t>& plane, const RowKernels& k) {
  const Picture p = make_picture(w, h, bpc, plane);
  const int ow = (w + 1) / 2, oh = (h + 1) / 2;
  std::vector<int16_t> lo(w + 3), hi(w + 3), bh(ow), bv(ow), bd(ow), a(ow);
  int16_t* band[3] = {bh.data(), bv.data(), bd.data()};
  std::vector<int64_t> in(plane.begin(), plane.end());
  const Bands r = reference_dwt(in, w, h, int64_t(kLoSum) << (bpc - 1), bpc, int64_t(1) << (bpc - 1), 16, 32768,
                                true);
  for (int y = 0; y < oh; ++y) {
    if (bpc == 8)
      dwt0_row(p.row<uint8_t>(0, 0), p.stride(0), w, h, 8, y, lo.data(), hi.data(), a.data(), band, k);
    else
      dwt0_row(p.row<uint16_t>(0, 0), p.stride(0), w, h, bpc, y, lo.data(), hi.data(), a.data(), band, k);
    for (int j = 0; j < ow; ++j) {
      const std::size_t i = std::size_t(y) * ow + j;
      ASSERT_EQ(a[j], r.a[i]) << w << "x" << h << "@" << bpc << " a " << y << "," << j;
      ASSERT_EQ(bh[j], r.h[i]) << w << "x" << h << "@" << bpc << " h " << y << "," << j;
      ASSERT_EQ(bv[j], r.v[i]) << w << "x" << h << "@" << bpc << " v " << y << "," << j;
      ASSERT_EQ(bd[j], r.d[i]) << w << "x" << h << "@" << bpc << " d " << y << "," << j;
    }
  }
}

void check_dwt123(int scale, int w, int h, const std::vector<int64_t>& in, const RowKernels& k) {
  const int ow = (w + 1) / 2, oh = (h + 1) / 2;
  std::vector<int32_t> plane(in.begin(), in.end()), lo(w + 3), hi(w + 3), a(ow), bh(ow), bv(ow), bd(ow);
  int32_t* band[3] = {bh.data(), bv.data(), bd.data()};
  const Bands r = reference_dwt(in, w, h, 0, kDwtVShift[scale], kDwtVRound[scale], kDwtHShift[scale],
                                kDwtHRound[scale], false);
  for (int y = 0; y < oh; ++y) {
    dwt123_row(scale, plane.data(), w, h, y, lo.data(), hi.data(), a.data(), band, k);
    for (int j = 0; j < ow; ++j) {
      const std::size_t i = std::size_t(y) * ow + j;
      ASSERT_EQ(a[j], r.a[i]) << scale << " a " << y << "," << j;
      ASSERT_EQ(bh[j], r.h[i]) << scale << " h " << y << "," << j;
      ASSERT_EQ(bv[j], r.v[i]) << scale << " v " << y << "," << j;
      ASSERT_EQ(bd[j], r.d[i]) << scale << " d " << y << "," << j;
    }
  }
}

// The reference kernels; tests/cpu_check holds every other variant to them.
TEST(IntegerAdmDwt, Scale0MatchesAStraightforwardDwtOnTinyPlanes) {
  const RowKernels* k = &reference_kernels();
  for (int bpc : {8, 10, 12, 16})
    for (auto [w, h] : {std::pair{5, 5}, {6, 7}, {9, 6}, {33, 35}, {70, 45}}) {
      const auto planes = make_planes(w, h, bpc, uint32_t(w * 131 + h + bpc), Content::kRandom);
      check_dwt0(w, h, bpc, planes.first, *k);
      // Extremes: a 0 / max checkerboard.
      std::vector<uint32_t> board(std::size_t(w) * h);
      for (int i = 0; i < w * h; ++i) board[i] = ((i % w + i / w) % 2) ? (1u << bpc) - 1 : 0;
      check_dwt0(w, h, bpc, board, *k);
    }
}

TEST(IntegerAdmDwt, Scale0HandComputedFlatPlanes) {
  // Mid-grey: every band is 0. White (8-bit 255): v = h = d = 0 and
  // a = (46342 * ((46342 * 127 + 128) >> 8) + 32768) >> 16 = (46342 * 22990 + 32768) >> 16 = 16257.
  for (auto [value, a_expected] : {std::pair{128u, 0}, {255u, 16257}}) {
    const Picture p = make_picture(8, 8, 8, std::vector<uint32_t>(64, value));
    std::vector<int16_t> lo(11), hi(11), bh(4), bv(4), bd(4), a(4);
    int16_t* band[3] = {bh.data(), bv.data(), bd.data()};
    for (int y = 0; y < 4; ++y) {
      dwt0_row(p.row<uint8_t>(0, 0), p.stride(0), 8, 8, 8, y, lo.data(), hi.data(), a.data(), band,
               reference_kernels());
      for (int j = 0; j < 4; ++j) {
        EXPECT_EQ(a[j], a_expected);
        EXPECT_EQ(bh[j], 0);
        EXPECT_EQ(bv[j], 0);
        EXPECT_EQ(bd[j], 0);
      }
    }
  }
}

TEST(IntegerAdmDwt, Scales123MatchAStraightforwardDwt) {
  std::mt19937 rng(4);
  const RowKernels* k = &reference_kernels();
  for (int scale = 1; scale <= 3; ++scale)
    for (auto [w, h] : {std::pair{5, 5}, {9, 17}, {40, 23}, {77, 19}}) {
      // Scale-1 inputs are int16 a values; later scales' take any int32 (the results then wrap
      // in the int32 narrowing, which both kernels must reproduce).
      const int64_t span = scale == 1 ? 32767 : 2147483647;
      std::uniform_int_distribution<int64_t> d(-span, span);
      std::vector<int64_t> in(std::size_t(w) * h);
      for (auto& v : in) v = d(rng);
      check_dwt123(scale, w, h, in, *k);
    }
}

// ---- whole frames against libvmaf's scalar C build ----

struct ReferenceCase {
  const char* name;
  int w, h, bpc;
  uint32_t seed;
  Content content;
  const char* options;
  double expected[7];  // adm2, aim, adm3, scale0..3 from libvmaf 3.2 (C path), %.17g
};

// Inputs: make_planes(w, h, bpc, seed, content). Expected values: libvmaf f85a8536's
// integer_adm.c built with GCC -O2 -ffp-contract=off, scalar C path, on the same samples.
const ReferenceCase kReferenceCases[] = {
    {"noise16",
     70,
     45,
     16,
     11,
     Content::kPerturbed,
     "",
     {0.99644509975049766, 0, 0.99822254987524883, 0.99766018572144077, 0.99684895665271311, 0.99612293484140368,
      0.9941293925532475}},
    {"random8_33",
     33,
     33,
     8,
     5,
     Content::kRandom,
     "",
     {0.40719720017254463, 0.68047258377502085, 0.36336230819876192, 0.42859693767354978, 0.42103745416288424,
      0.41915864976702305, 0.35988514672400007}},
    {"random16_odd",
     41,
     37,
     16,
     8,
     Content::kRandom,
     "adm_enhn_gain_limit=1",
     {0.36104269603155215, 0.68228427085048216, 0.339379212590535, 0.46721639345827559, 0.34633178169578666,
      0.48103597143081717, 0.083821990117550524}},
    {"smooth12_egl",
     47,
     61,
     12,
     3,
     Content::kSmooth,
     "adm_enhn_gain_limit=1.5",
     {0.99810448786877881, 0.0022695435810632819, 0.99791747214385773, 0.99722719996857001, 0.99828570167373842,
      0.99728416680690701, 0.99891501492871837}},
    {"smooth8_csf3",
     64,
     48,
     8,
     9,
     Content::kSmooth,
     "adm_csf_mode=3:adm_ref_display_height=2160",
     {0.9992607627109561, 0.00080220701821340202, 0.99922927784637139, 0.999205835070893, 0.99851362844172642,
      0.99979952654731907, 0.99919795304205761}},
    {"noise10_ssz",
     100,
     75,
     10,
     21,
     Content::kPerturbed,
     "adm_skip_scale0=true:adm_noise_weight=0.5",
     {0.99926579528135429, 0, 0.9996328976406772, 0, 0.99762759702230064, 0.99945445070305561, 1.0013662491418851}},
    {"smooth16_nvd",
     120,
     34,
     16,
     4,
     Content::kSmooth,
     "adm_norm_view_dist=5:adm_dlm_weight=0.8",
     {0.99902407487791145, 0.0012647003872583425, 0.99896631982487749, 0.99784869322607717, 0.99716058519426309,
      0.99876417500595915, 0.99988358481505668}},
};

TEST(IntegerAdmFrames, MatchLibvmafScalarC) {
  for (const ReferenceCase& c : kReferenceCases) {
    const auto [r, d] = make_planes(c.w, c.h, c.bpc, c.seed, c.content);
    const auto values = run_frame(c.options, make_picture(c.w, c.h, c.bpc, r), make_picture(c.w, c.h, c.bpc, d));
    ASSERT_EQ(values.size(), 7u) << c.name;
    for (int i = 0; i < 7; ++i) EXPECT_EQ(values[i].second, c.expected[i]) << c.name << " " << values[i].first;
  }
}

TEST(IntegerAdmFrames, HighBitDepthOfShiftedSamplesEqualsEightBit) {
  // B-bit samples s << (B - 8) give exactly the 8-bit DWT (floor((2^k X + 2^(B-1)) / 2^B) =
  // floor((X + 128) / 256)), so every output must be equal; at 16 bits this runs the vertical
  // pass at its extremes without overflow.
  for (Content kind : {Content::kRandom, Content::kSmooth}) {
    const auto [r, d] = make_planes(77, 50, 8, 99, kind);
    const auto base = run_frame("", make_picture(77, 50, 8, r), make_picture(77, 50, 8, d));
    for (int bpc : {10, 12, 16}) {
      auto shift = [&](std::vector<uint32_t> v) {
        for (auto& s : v) s <<= (bpc - 8);
        return v;
      };
      const auto wide = run_frame("", make_picture(77, 50, bpc, shift(r)), make_picture(77, 50, bpc, shift(d)));
      EXPECT_EQ(wide, base) << bpc;
    }
  }
  // Full-scale 16-bit extremes: finite, and aim = 0 / adm2 ~ 1 for identical frames.
  std::vector<uint32_t> board(64 * 40);
  for (int i = 0; i < 64 * 40; ++i) board[i] = ((i % 64) / 3 + (i / 64) / 2) % 2 ? 65535 : 0;
  const Picture p = make_picture(64, 40, 16, board);
  const auto same = run_frame("", p, p);
  EXPECT_EQ(same[1].second, 0.0);
  EXPECT_NEAR(same[0].second, 1.0, 1e-4);
  for (const auto& [n, v] : same) EXPECT_TRUE(std::isfinite(v)) << n;
}

// ---- refusals and names ----

TEST(IntegerAdmRefusals, FramesSmallerThan33AreRefusedAtInit) {
  const ExtractorInfo* info = find_extractor("adm");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(find_extractor("integer_adm"), info);
  for (auto [w, h, ok] : {std::tuple{32, 100, false}, {100, 32, false}, {16, 16, false}, {33, 33, true}}) {
    auto ex = info->create(options_of(""));
    PictureFormat f;
    f.width = w;
    f.height = h;
    if (ok) {
      EXPECT_NO_THROW(ex->init(f));
    } else {
      EXPECT_THROW(ex->init(f), Error) << w << "x" << h;
    }
  }
  auto ex = info->create(options_of(""));
  PictureFormat f;
  f.width = 64;
  f.height = 64;
  f.bitdepth = 9;
  EXPECT_THROW(ex->init(f), Error);
}

TEST(IntegerAdmRefusals, UnsupportedCsfSettingsAreRefusedAtCreation) {
  const ExtractorInfo* info = find_extractor("adm");
  EXPECT_THROW(info->create(options_of("adm_csf_mode=1")), Error);
  EXPECT_THROW(info->create(options_of("adm_csf_mode=2:adm_norm_view_dist=4")), Error);
  EXPECT_THROW(info->create(options_of("adm_csf_mode=3:adm_ref_display_height=1000")), Error);
  EXPECT_THROW(info->create(options_of("adm_norm_view_dist=1.5")), Error);  // 1.5 * 1080 < 3240
  EXPECT_NO_THROW(info->create(options_of("adm_norm_view_dist=1.5:adm_ref_display_height=2160")));
  EXPECT_NO_THROW(info->create(options_of("adm_csf_mode=2:adm_ref_display_height=720:adm_norm_view_dist=5")));
  EXPECT_NO_THROW(info->create(options_of("adm_csf_mode=3")));
  EXPECT_THROW(info->create(options_of("adm_enhn_gain_limit=0.5")), Error);  // below its range
}

TEST(IntegerAdmNames, SuffixesFollowLibvmafsRule) {
  const auto [r, d] = make_planes(40, 40, 8, 1, Content::kSmooth);
  const Picture ref = make_picture(40, 40, 8, r), dis = make_picture(40, 40, 8, d);
  auto names = [&](const std::string& opts) {
    std::vector<std::string> n;
    for (const auto& [name, v] : run_frame(opts, ref, dis)) n.push_back(name);
    return n;
  };
  EXPECT_EQ(names("adm_enhn_gain_limit=1")[0], "integer_adm2_egl_1");
  EXPECT_EQ(names("adm_skip_scale0=true:adm_norm_view_dist=5:adm_enhn_gain_limit=1:adm_csf_mode=2:"
                  "adm_skip_aim=true:adm_noise_weight=0.25")[0],
            "integer_adm2_csf_2_egl_1_nw_0.25_nvd_5_ssz");
  EXPECT_EQ(names("adm_enhn_gain_limit=1:adm_norm_view_dist=5")[3], "integer_adm_scale0_egl_1_nvd_5");
  const auto debug = names("debug=true");
  const std::vector<std::string> expected = {
      "integer_adm2",           "integer_aim",            "integer_adm3",           "integer_adm_scale0",
      "integer_adm_scale1",     "integer_adm_scale2",     "integer_adm_scale3",     "integer_adm",
      "integer_adm_num",        "integer_adm_den",        "integer_adm_num_scale0", "integer_adm_den_scale0",
      "integer_adm_num_scale1", "integer_adm_den_scale1", "integer_adm_num_scale2", "integer_adm_den_scale2",
      "integer_adm_num_scale3", "integer_adm_den_scale3"};
  EXPECT_EQ(debug, expected);
  // skip_aim changes values but not names.
  const auto skip = run_frame("adm_skip_aim=true", ref, dis);
  EXPECT_EQ(skip[1].first, "integer_aim");
  EXPECT_EQ(skip[1].second, 0.0);
  EXPECT_EQ(skip[2].second, skip[0].second * 0.5 + 0.5);
}

TEST(IntegerAdmCombine, FlatReferenceWithoutNoiseWeightGivesOneAndZeroAim) {
  // den = 0 (noise weight 0, no detail): adm2 = 1, aim = 0 (libvmaf leaves aim unset; spec: DECISIONS.md §10).
  const Picture flat = make_picture(48, 48, 8, std::vector<uint32_t>(48 * 48, 90));
  const auto [r, d] = make_planes(48, 48, 8, 3, Content::kRandom);
  const auto v = run_frame("adm_noise_weight=0", flat, make_picture(48, 48, 8, d));
  EXPECT_EQ(v[0].second, 1.0);
  EXPECT_EQ(v[1].second, 0.0);
  EXPECT_EQ(v[2].second, 1.0);
}

}  // namespace
}  // namespace vqtwin::integer_adm
