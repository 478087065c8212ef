// float_adm (spec: float_adm.md): the rcpss tables and their rule (against this CPU's instruction), CSF factor bit patterns, the DWT against
// straightforward loops in the order the spec defines (written here), regions, edge cases (identical frames, zero
// denominator), names/options, and what is refused.
#include <gtest/gtest.h>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/extractor.hpp"
#include "core/registry.hpp"
#include "features/float_adm/csf.hpp"
#include "features/float_adm/dwt.hpp"
#include "features/float_adm/math.hpp"
#include "features/float_adm/rcpss.hpp"
#include "features/float_adm/scale.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace {

using namespace float_adm;

std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
float float_of(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
float rcp(float x) { return rcpss_from_table(x, kRcpssAmd); }

// ---- rcpss ----

TEST(FloatAdmRcpss, TableRuleOnHandValues) {
  // x = 1 + i/4096 reads entry i directly.
  EXPECT_EQ(bits_of(rcp(1.0f)), 0x3f7ff000u);                    // T[0]
  EXPECT_EQ(bits_of(rcp(1.0f + 1.0f / 4096)), 0x3f7fe000u);      // T[1]
  EXPECT_EQ(bits_of(rcp(1.0f + 4095.0f / 4096)), 0x3f000000u);   // T[4095]
  // Lower mantissa bits (below the top 12) do not matter.
  EXPECT_EQ(bits_of(rcp(float_of(0x3f800000u | 0x7FFu))), 0x3f7ff000u);
  // The exponent scales exactly: rcp(2^e x) = 2^-e rcp(x).
  EXPECT_EQ(bits_of(rcp(2.0f)), 0x3efff000u);
  EXPECT_EQ(bits_of(rcp(0.5f)), 0x3ffff000u);
  EXPECT_EQ(bits_of(rcp(1024.0f)), bits_of(std::ldexp(float_of(0x3f7ff000u), -10)));
  EXPECT_EQ(bits_of(rcp(3.0f)), bits_of(std::ldexp(float_of(kRcpssAmd[2048]), -1)));  // 3 = 2 * 1.5
  // The sign carries over.
  EXPECT_EQ(bits_of(rcp(-1.5f)), 0x80000000u | kRcpssAmd[2048]);
  // Zero and subnormals give a signed infinity; 1e-30 (ADM's epsilon) is normal.
  EXPECT_EQ(rcp(0.0f), INFINITY);
  EXPECT_EQ(rcp(-0.0f), -INFINITY);
  EXPECT_EQ(rcp(1e-40f), INFINITY);
  EXPECT_NEAR(rcp(1e-30f), 1e30f, 1e30f * 4e-4f);
}

TEST(FloatAdmRcpss, EveryEntryIsWithinTheIsaBound) {
  // The ISA bounds rcpss's relative error by 1.5 * 2^-12: a sanity check of the embedded data.
  for (const std::uint32_t* table : {kRcpssAmd, kRcpssIntel})
    for (int i = 0; i < kRcpssEntries; ++i) {
      const double x = 1.0 + i / 4096.0;
      const double rel = std::fabs(double(float_of(table[i])) * x - 1.0);
      EXPECT_LE(rel, 1.5 / 4096) << i;
    }
}

TEST(FloatAdmRcpss, TheTwoTablesAreTheTwoCpus) {
  // Spot values of each measurement (the spec's AMD table; the Intel Xeon's, which gives the same
  // result to each pair of entries 2k, 2k+1: its table has 11 index bits). They differ in 2115 entries.
  EXPECT_EQ(kRcpssAmd[1], 0x3f7fe000u);
  EXPECT_EQ(kRcpssIntel[1], 0x3f7ff000u);
  EXPECT_EQ(kRcpssIntel[2], 0x3f7fd000u);
  EXPECT_EQ(kRcpssAmd[4095], 0x3f000000u);
  int differ = 0;
  for (int i = 0; i < kRcpssEntries; ++i) {
    differ += kRcpssAmd[i] != kRcpssIntel[i];
    if (i % 2) {
      EXPECT_EQ(kRcpssIntel[i], kRcpssIntel[i - 1]) << i;
    }
  }
  EXPECT_EQ(differ, 2115);
  EXPECT_EQ(rcpss_table(Rcpss::kAmd), kRcpssAmd);
  EXPECT_EQ(rcpss_table(Rcpss::kIntel), kRcpssIntel);
}

TEST(FloatAdmRcpss, NamesOfTheTables) {
  for (Rcpss r : {Rcpss::kAmd, Rcpss::kIntel, Rcpss::kNative}) EXPECT_EQ(parse_rcpss(to_string(r)), r);
  EXPECT_EQ(parse_rcpss("AMD"), std::nullopt);
  EXPECT_EQ(parse_rcpss(""), std::nullopt);
}

#if defined(__x86_64__) || defined(__i386__)
float hardware_rcpss(float x) { return _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x))); }

// --rcpss native: this CPU's table, measured once, and the rule that extends a table to every float
// (top 12 mantissa bits, exact exponent scaling, sign, zero/subnormal/huge inputs) held against this
// CPU's instruction on every exponent. The known tables are checked on their CPUs the same way (the
// AMD one when it was measured; the Intel one on the Intel Xeon this test last ran on).
TEST(FloatAdmRcpss, NativeTableAndRuleMatchThisCpu) {
  const std::uint32_t* native = rcpss_table(Rcpss::kNative);
  EXPECT_EQ(rcpss_table(Rcpss::kNative), native);  // measured once
  for (int i = 0; i < kRcpssEntries; ++i)
    ASSERT_EQ(native[i], bits_of(hardware_rcpss(1.0f + float(i) / 4096))) << i;
  std::mt19937 rng(15);
  std::uniform_int_distribution<std::uint32_t> mantissa(0, 0x7FFFFF);
  long checked = 0;
  for (std::uint32_t exponent = 0; exponent <= 255; ++exponent)
    for (int k = 0; k < 2000; ++k) {
      const std::uint32_t m = k < 2 ? (k ? 0x7FFFFFu : 0u) : mantissa(rng);
      for (std::uint32_t sign : {0u, 0x80000000u}) {
        const float x = float_of(sign | exponent << 23 | m);
        ASSERT_EQ(bits_of(rcpss_from_table(x, native)), bits_of(hardware_rcpss(x))) << std::hex << bits_of(x);
        ++checked;
      }
    }
  EXPECT_GT(checked, 1000000);
  const char* which = std::equal(native, native + kRcpssEntries, kRcpssAmd)     ? "the AMD table"
                      : std::equal(native, native + kRcpssEntries, kRcpssIntel) ? "the Intel table"
                                                                                  : "neither known table";
  std::printf("this CPU's rcpss is %s\n", which);
}
#endif

TEST(FloatAdmRcpss, RefinedReciprocalIsOneNewtonStepInFloat) {
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> u(-1000.0f, 1000.0f);
  for (int i = 0; i < 1000; ++i) {
    const float d = u(rng);
    const float y = rcp(d);
    volatile float dy = d * y;
    volatile float e = 1.0f - dy;
    volatile float c = y * e;
    EXPECT_EQ(bits_of(refined_reciprocal(d, kRcpssAmd)), bits_of(y + c));
    EXPECT_NEAR(refined_reciprocal(d, kRcpssAmd) * d, 1.0f, 1e-6f);
  }
}

// ---- CSF ----

TEST(FloatAdmCsf, WatsonDefaultsHaveTheSpecBitPatterns) {
  const std::uint32_t want[4][2] = {
      {0x3c8e63ba, 0x3bc106aa}, {0x3d030286, 0x3c6a46a3}, {0x3d31a788, 0x3cc7dc06}, {0x3d3b140b, 0x3d0041c9}};
  CsfSettings s;
  for (int scale = 0; scale < 4; ++scale) {
    const CsfFactors f = csf_factors(scale, s);
    EXPECT_EQ(bits_of(f.hv), want[scale][0]) << scale;
    EXPECT_EQ(bits_of(f.d), want[scale][1]) << scale;
  }
  s.mode = 3;  // Watson too in float ADM
  EXPECT_EQ(bits_of(csf_factors(0, s).hv), want[0][0]);
  s.mode = 0;
  s.f1_override[2] = 0.02;
  s.f2_override[2] = 0.0;  // >= 0 replaces
  EXPECT_EQ(csf_factors(2, s).hv, 0.02f);
  EXPECT_EQ(csf_factors(2, s).d, 0.0f);
  EXPECT_EQ(bits_of(kCosOneDegreeSq), 0x3f7fec0au);
}

TEST(FloatAdmCsf, OtherModesMatchTheirFormulas) {
  // Barten at the defaults: about 1.21, 5.04, 14.6, 27.0 (integer_adm.md §5.3).
  const double barten[4] = {1.21, 5.04, 14.6, 27.0};
  for (int s = 0; s < 4; ++s) EXPECT_NEAR(barten_factor(s, 3.0, 1080, 1.0), barten[s], 0.01 * barten[s]) << s;
  EXPECT_EQ(barten_factor(1, 3.0, 1080, 2.0), float(double(barten_factor(1, 3.0, 1080, 1.0)) * 2.0));
  // ADM native: (0.31 + 0.69 f) exp(-0.29 f) at f = 56.5487 / 2^(s+1), / 0.7 on the diagonal.
  for (int s = 0; s < 4; ++s) {
    const double f = double(float(3.0 * 1080 * M_PI / 180.0)) / std::pow(2.0, s + 1);
    EXPECT_NEAR(adm_native_factor(s, 3.0, 1080, false), (0.31 + 0.69 * f) * std::exp(-0.29 * f), 1e-6);
    const double fd = f / 0.7;
    EXPECT_NEAR(adm_native_factor(s, 3.0, 1080, true), (0.31 + 0.69 * fd) * std::exp(-0.29 * fd), 1e-6);
  }
}

// ---- DWT ----

int src_index(int q, int n) { return q < 0 ? -q : (q >= n ? 2 * n - q - 1 : q); }

TEST(FloatAdmDwt, EqualsTheLiteralLoops) {
  const float lo[4] = {0.482962913144690f, 0.836516303737469f, 0.224143868041857f, -0.129409522550921f};
  const float hi[4] = {-0.129409522550921f, -0.224143868041857f, 0.836516303737469f, -0.482962913144690f};
  std::mt19937 rng(8);
  std::uniform_int_distribution<int> u(-128, 127);
  for (auto [w, h] : {std::pair{33, 35}, std::pair{40, 17}, std::pair{5, 6}}) {
    std::vector<float> src(std::size_t(w * h));
    for (float& v : src) v = float(u(rng));
    Subbands out;
    std::vector<float> scratch;
    dwt2(src.data(), w, h, out, false, scratch);
    const int bw = (w + 1) / 2, bh = (h + 1) / 2;
    ASSERT_EQ(out.a.w, bw);
    ASSERT_EQ(out.a.h, bh);
    for (int i = 0; i < bh; ++i) {
      std::vector<float> tl(static_cast<std::size_t>(w)), th(static_cast<std::size_t>(w));
      for (int j = 0; j < w; ++j) {
        float al = 0, ah = 0;
        for (int t = 0; t < 4; ++t) {
          const float s = src[std::size_t(src_index(2 * i - 1 + t, h) * w + j)];
          al += lo[t] * s;
          ah += hi[t] * s;
        }
        tl[std::size_t(j)] = al;
        th[std::size_t(j)] = ah;
      }
      for (int j = 0; j < bw; ++j) {
        float a = 0, v = 0, hh = 0, d = 0;
        for (int t = 0; t < 4; ++t) {
          const std::size_t c = std::size_t(src_index(2 * j - 1 + t, w));
          a += lo[t] * tl[c];
          v += hi[t] * tl[c];
          hh += lo[t] * th[c];
          d += hi[t] * th[c];
        }
        ASSERT_EQ(bits_of(out.a.row(i)[j]), bits_of(a)) << w << "x" << h << " a " << i << "," << j;
        ASSERT_EQ(bits_of(out.v.row(i)[j]), bits_of(v)) << "v " << i << "," << j;
        ASSERT_EQ(bits_of(out.h.row(i)[j]), bits_of(hh)) << "h " << i << "," << j;
        ASSERT_EQ(bits_of(out.d.row(i)[j]), bits_of(d)) << "d " << i << "," << j;
      }
    }
    Subbands approx;
    dwt2(src.data(), w, h, approx, true, scratch);
    EXPECT_EQ(approx.a.px, out.a.px);
  }
}

// ---- regions and decouple ----

TEST(FloatAdmRegions, PoolAndWorkRects) {
  const Rect p = pool_rect(288, 162);  // 576x324 at scale 0
  EXPECT_EQ(p.left, 28);               // (int)(28.8 - 0.5)
  EXPECT_EQ(p.top, 15);                // (int)(16.2 - 0.5)
  EXPECT_EQ(p.right, 260);
  EXPECT_EQ(p.bottom, 147);
  const Rect wr = work_rect(288, 162);
  EXPECT_EQ(wr.left, 27);
  EXPECT_EQ(wr.top, 14);
  EXPECT_EQ(wr.right, 263);
  EXPECT_EQ(wr.bottom, 150);
  const Rect tiny = pool_rect(3, 3);  // the pool rect can touch the band edge on small frames
  EXPECT_EQ(tiny.left, 0);
  EXPECT_EQ(tiny.right, 3);
  const Rect tiny_w = work_rect(3, 3);
  EXPECT_EQ(tiny_w.left, 0);
  EXPECT_EQ(tiny_w.right, 3);
}

TEST(FloatAdmDecouple, HandCases) {
  float r[3], a[3];
  const float cos_sq = kCosOneDegreeSq;
  // Distorted = half the reference, same direction: k = 0.5 (to rcpss precision), then the gain
  // limit (100) makes rst = min(100 * rst, t) = t: everything restored, nothing additive.
  {
    const float o[3] = {8.0f, 4.0f, 2.0f}, t[3] = {4.0f, 2.0f, 1.0f};
    decouple_cell(o, t, 100.0, cos_sq, kRcpssAmd, r, a);
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(r[k], t[k]);
      EXPECT_EQ(a[k], 0.0f);
    }
    decouple_cell(o, t, 1.0, cos_sq, kRcpssAmd, r, a);  // gain limit 1: rst = min(rst, t)
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(r[k], t[k], 1e-5f);
  }
  // Opposite sign: k clamps to 0, nothing restored; the distortion is all additive.
  {
    const float o[3] = {8.0f, -4.0f, 2.0f}, t[3] = {-4.0f, 2.0f, -1.0f};
    decouple_cell(o, t, 100.0, cos_sq, kRcpssAmd, r, a);
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(r[k], 0.0f);
      EXPECT_EQ(a[k], t[k]);
    }
  }
  // Perpendicular (h, v) directions: no angle match; k clamps to 1 at most -> rst = o.
  {
    const float o[3] = {2.0f, 0.0f, 1.0f}, t[3] = {5.0f, 5.0f, 5.0f};
    decouple_cell(o, t, 100.0, cos_sq, kRcpssAmd, r, a);
    EXPECT_EQ(r[0], 2.0f);
    EXPECT_EQ(r[2], 1.0f);
    EXPECT_EQ(a[0], 3.0f);
  }
}

// ---- the row loops of one scale vs their per-cell definitions ----

Subbands random_bands(int w, int h, unsigned seed, float scale) {
  Subbands b;
  std::mt19937 rng(seed);
  std::normal_distribution<float> u(0.0f, scale);
  for (Band* band : {&b.a, &b.h, &b.v, &b.d}) {
    band->resize(w, h);
    for (float& v : band->px) v = std::round(u(rng) * 16.0f) / 16.0f;
  }
  // Special cells: zeros, equal, opposite and proportional pairs.
  b.h.px[0] = 0.0f;
  b.v.px[1] = -0.0f;
  return b;
}

Subbands distorted(const Subbands& ref, unsigned seed) {
  Subbands d = ref;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> kind(0, 4);
  std::normal_distribution<float> u(0.0f, 3.0f);
  for (Band* band : {&d.h, &d.v, &d.d})
    for (float& v : band->px) {
      switch (kind(rng)) {
        case 0: break;                      // identical
        case 1: v = v * 0.5f; break;        // attenuated, same angle
        case 2: v = -v; break;              // opposite
        case 3: v = v * 1.25f; break;       // enhanced
        default: v = v + u(rng); break;     // noise
      }
    }
  return d;
}

TEST(FloatAdmScale, DecoupleRowsEqualTheCellDefinition) {
  for (double egl : {100.0, 1.0}) {
    const Subbands ref = random_bands(41, 23, 1, 20.0f), dis = distorted(ref, 2);
    ScaleSettings s;
    s.gain_limit = egl;
    s.rcp_table = kRcpssAmd;
    ScaleWork work;
    decouple_planes(ref, dis, s, work);
    const Rect wr = work_rect(41, 23);
    for (int i = wr.top; i < wr.bottom; ++i)
      for (int j = wr.left; j < wr.right; ++j) {
        const float o[3] = {ref.h.row(i)[j], ref.v.row(i)[j], ref.d.row(i)[j]};
        const float t[3] = {dis.h.row(i)[j], dis.v.row(i)[j], dis.d.row(i)[j]};
        float r[3], a[3];
        decouple_cell(o, t, egl, kCosOneDegreeSq, kRcpssAmd, r, a);
        for (int k = 0; k < 3; ++k) {
          ASSERT_EQ(bits_of(work.restored[k].row(i)[j]), bits_of(r[k])) << egl << " " << i << "," << j << " " << k;
          ASSERT_EQ(bits_of(work.additive[k].row(i)[j]), bits_of(a[k])) << egl << " " << i << "," << j << " " << k;
        }
      }
  }
}

// Spec §7 cell by cell, with libvmaf's neighbour mirror (-1 -> 1, n -> n-1).
float literal_masked_sum(const Band src[3], const Band csf[3], const Band mask[3], const float rf[3], double nw,
                         bool bypass) {
  const int w = src[0].w, h = src[0].h;
  const Rect pr = pool_rect(w, h);
  auto mirror = [](int q, int n) { return q < 0 ? 1 : (q >= n ? n - 1 : q); };
  float acc[3] = {0, 0, 0};
  for (int i = pr.top; i < pr.bottom; ++i) {
    float inner[3] = {0, 0, 0};
    for (int j = pr.left; j < pr.right; ++j) {
      float thr = 0;
      for (int k = 0; k < 3 && !bypass; ++k) {
        float sum = 0;
        for (int di = -1; di <= 1; ++di)
          for (int dj = -1; dj <= 1; ++dj) {
            if (di == 0 && dj == 0) sum = float(double(sum) + kOneBy15 * double(std::fabs(csf[k].row(i)[j])));
            else sum += mask[k].row(mirror(i + di, h))[mirror(j + dj, w)];
          }
        thr += sum;
      }
      for (int k = 0; k < 3; ++k) {
        float x = std::fabs(src[k].row(i)[j] * rf[k]) - thr;
        x = x < 0 ? 0 : x;
        inner[k] += x * x * x;
      }
    }
    for (int k = 0; k < 3; ++k) acc[k] += inner[k];
  }
  const float e = float(1.0 / 3.0);
  const float noise = std::pow(float((pr.right - pr.left) * (pr.bottom - pr.top) * nw), e);
  return ((std::pow(acc[0], e) + noise) + (std::pow(acc[1], e) + noise)) + (std::pow(acc[2], e) + noise);
}

TEST(FloatAdmScale, MaskedSumEqualsTheCellDefinitionAlsoAtBandEdges) {
  // 3x3 and 9x5 bands: the pool rect touches the band edges (the mirrored neighbours are read).
  for (auto [w, h] : {std::pair{3, 3}, std::pair{9, 5}, std::pair{36, 21}, std::pair{14, 17}}) {
    const Subbands ref = random_bands(w, h, 5, 20.0f), dis = distorted(ref, 6);
    ScaleSettings s;
    s.rcp_table = kRcpssAmd;
    ScaleWork work;
    decouple_planes(ref, dis, s, work);
    const float rf[3] = {0.03f, 0.03f, 0.014f};
    csf_planes(work.additive, rf, work);
    for (bool bypass : {false, true}) {
      s.bypass_cm = bypass;
      const float got = masked_sum(work.restored, rf, 0.03125, s, work);
      const float want = literal_masked_sum(work.restored, work.csf, work.mask, rf, 0.03125, bypass);
      EXPECT_EQ(bits_of(got), bits_of(want)) << w << "x" << h << " bypass " << bypass;
    }
  }
}

// ---- the extractor ----

// Single-threaded use only (one extract at a time in these tests).
struct MapSink final : FeatureSink {
  std::map<std::string, double> values;
  std::vector<std::string> order;
  void put(std::string_view name, unsigned, double v) override {
    if (!values.count(std::string(name))) order.emplace_back(name);
    values[std::string(name)] = v;
  }
  void aggregate(std::string_view, double) override {}
};

Picture make_picture(int w, int h, unsigned seed, bool flat = false) {
  PictureFormat f;
  f.width = w;
  f.height = h;
  f.chroma = ChromaFormat::k444;
  Picture pic(f);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> u(0, 255);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) pic.row<std::uint8_t>(0, y)[x] = std::uint8_t(flat ? 128 : u(rng));
  return pic;
}

std::unique_ptr<Extractor> make_adm(const OptionPairs& opts) {
  const ExtractorInfo* info = find_extractor("float_adm");
  EXPECT_NE(info, nullptr);
  return info->create(OptionValues(info->spec->options, opts, "float_adm"));
}

MapSink run_once(const OptionPairs& opts, const Picture& ref, const Picture& dis) {
  MapSink sink;
  auto e = make_adm(opts);
  e->init(ref.format());
  e->extract(ref, dis, 0, sink);
  return sink;
}

TEST(FloatAdmExtractor, RefusesSmallPlanesAndBitDepths) {
  PictureFormat f;
  f.width = 32;
  f.height = 64;
  EXPECT_THROW(make_adm({})->init(f), Error);
  f.width = 64;
  f.height = 32;
  EXPECT_THROW(make_adm({})->init(f), Error);
  f.height = 33;
  EXPECT_NO_THROW(make_adm({})->init(f));
  f.bitdepth = 14;
  EXPECT_THROW(make_adm({})->init(f), Error);
  EXPECT_THROW(make_adm({{"adm_skip_aim_scale", "4"}}), Error);
  EXPECT_NO_THROW(make_adm({{"adm_skip_aim_scale", "-1"}}));  // the default, given explicitly (spec: DECISIONS.md §16)
}

TEST(FloatAdmExtractor, IdenticalFramesGiveExactOnes) {
  const Picture p = make_picture(67, 37, 5);  // small: the pool rect touches the band edges at scale 3
  const MapSink s = run_once({}, p, p);
  const std::vector<std::string> names = {"adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2",
                                          "adm_scale3"};
  EXPECT_EQ(s.order, names);
  EXPECT_EQ(s.values.at("adm2"), 1.0);
  EXPECT_EQ(s.values.at("aim"), 0.0);
  EXPECT_EQ(s.values.at("adm3"), 1.0);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(s.values.at("adm_scale" + std::to_string(k)), 1.0);
}

TEST(FloatAdmExtractor, HighBitDepthsGiveTheSameBitsAsEightBit) {
  const Picture r8 = make_picture(70, 50, 11), d8 = make_picture(70, 50, 12);
  const MapSink s8 = run_once({}, r8, d8);
  for (int depth : {10, 12, 16}) {
    auto widen = [depth](const Picture& p8) {
      PictureFormat f = p8.format();
      f.bitdepth = depth;
      Picture p(f);
      for (int y = 0; y < f.height; ++y)
        for (int x = 0; x < f.width; ++x)
          p.row<std::uint16_t>(0, y)[x] = std::uint16_t(p8.row<std::uint8_t>(0, y)[x] << (depth - 8));
      return p;
    };
    const MapSink s = run_once({}, widen(r8), widen(d8));
    for (const auto& [name, v] : s8.values) EXPECT_EQ(s.values.at(name), v) << name << " at " << depth << " bits";
  }
}

TEST(FloatAdmExtractor, ZeroDenominatorGivesAdm2OneAndAimZero) {
  // A flat reference has all-zero detail bands: with no noise floor the denominator is 0.
  const Picture ref = make_picture(48, 48, 1, true), dis = make_picture(48, 48, 2);
  const MapSink s = run_once({{"adm_noise_weight", "0"}}, ref, dis);
  EXPECT_EQ(s.values.at("adm2_nw_0"), 1.0);
  EXPECT_EQ(s.values.at("aim_nw_0"), 0.0);
  EXPECT_EQ(s.values.at("adm3_nw_0"), 1.0);
}

TEST(FloatAdmExtractor, OptionsRenameAndChangeTheOutputs) {
  const Picture ref = make_picture(80, 64, 3), dis = make_picture(80, 64, 4);
  const MapSink base = run_once({}, ref, dis);
  const MapSink egl = run_once({{"adm_enhn_gain_limit", "1"}}, ref, dis);
  EXPECT_EQ(egl.order[0], "adm2_egl_1");
  const MapSink skip = run_once({{"adm_skip_scale0", "true"}, {"adm_dlm_weight", "0.8"}}, ref, dis);
  EXPECT_EQ(skip.order[0], "adm2_dlmw_0.8_ssz");
  EXPECT_EQ(skip.values.at("adm_scale0_dlmw_0.8_ssz"), 0.0);
  EXPECT_EQ(skip.values.at("adm_scale1_dlmw_0.8_ssz"), base.values.at("adm_scale1"));  // later scales unchanged
  // libvmaf never renames the debug output "adm" (it is not in its provided list); the others it does.
  const MapSink dbg_ssz = run_once({{"debug", "true"}, {"adm_skip_scale0", "true"}}, ref, dis);
  EXPECT_EQ(dbg_ssz.order[7], "adm");
  EXPECT_EQ(dbg_ssz.order[8], "adm_num_ssz");
  const MapSink dbg = run_once({{"debug", "true"}}, ref, dis);
  ASSERT_EQ(dbg.order.size(), 18u);
  EXPECT_EQ(dbg.order[7], "adm");
  EXPECT_EQ(dbg.order[17], "adm_den_scale3");
  EXPECT_EQ(dbg.values.at("adm"), dbg.values.at("adm2"));
  EXPECT_EQ(dbg.values.at("adm2"), dbg.values.at("adm_num") / dbg.values.at("adm_den"));
  EXPECT_EQ(dbg.values.at("adm_scale2"), dbg.values.at("adm_num_scale2") / dbg.values.at("adm_den_scale2"));
  // adm3 = adm2 * w + (1 - aim) * (1 - w), clamped below by adm_min_val.
  const MapSink hm = run_once({{"adm_adm3_apply_hm", "true"}}, ref, dis);
  const double a2 = base.values.at("adm2"), aim = base.values.at("aim");
  EXPECT_EQ(base.values.at("adm3"), a2 * 0.5 + (1 - aim) * (1 - 0.5));
  EXPECT_EQ(hm.values.at("adm3_aah"), 2 * a2 * aim / (a2 + aim));
  const MapSink clamp = run_once({{"adm_min_val", "0.99"}}, ref, dis);
  EXPECT_EQ(clamp.values.at("adm3_min_0.99"), 0.99);
  const MapSink sasc = run_once({{"adm_skip_aim_scale", "1"}}, ref, dis);
  EXPECT_NE(sasc.values.at("aim_sasc_1"), aim);
  EXPECT_EQ(sasc.values.at("adm2_sasc_1"), a2);
}

}  // namespace
}  // namespace vqtwin
