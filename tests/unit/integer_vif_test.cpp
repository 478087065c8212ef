// integer VIF unit tests: the log table against an independent generation, the reference kernels
// against a naive wide-integer implementation of the spec's definition (2-D mirrored sums in
// 128-bit integers, per-pixel double block written again from the spec), options, names, refused
// formats. The SIMD sets are held to the reference by tests/cpu_check.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/extractor.hpp"
#include "core/registry.hpp"
#include "features/integer_vif/kernels.hpp"
#include "features/integer_vif/log_table.hpp"
#include "features/integer_vif/math.hpp"
#include "features/integer_vif/pipeline.hpp"
#include "../support/integer_vif_planes.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::integer_vif {
namespace {

__extension__ typedef unsigned __int128 u128;  // GCC/Clang extension: exact wide sums

// ---- log table ------------------------------------------------------------------------------

// The spec's independent definition: round the real 2048*log2(m) to nearest, then +1 at the 38
// entries where binary32 log2 pushes libvmaf's table up.
constexpr int kCorrections[] = {33108, 33209, 34457, 34492, 34844, 35764, 36399, 37398, 38620, 39319,
                                43418, 44159, 45494, 45772, 45834, 46443, 48961, 50887, 51146, 51633,
                                53104, 53266, 53519, 54765, 55081, 56230, 56727, 58087, 58146, 59985,
                                60168, 61340, 61966, 62134, 62408, 64360, 64469, 64841};

TEST(IntegerVifLogTable, MatchesExactRoundingPlusCorrections) {
  const std::uint16_t* t = log2_table();
  std::int64_t sum = 0;
  int mismatches = 0;
  for (int m = 32768; m < 65536; ++m) {
    const long double exact = 2048.0L * std::log2(static_cast<long double>(m));
    long long expected = std::llround(exact);
    if (std::find(std::begin(kCorrections), std::end(kCorrections), m) != std::end(kCorrections)) ++expected;
    if (t[m] != expected && ++mismatches < 10) ADD_FAILURE() << "T[" << m << "] = " << t[m] << ", want " << expected;
    sum += t[m];
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(sum, 1044032097);  // spec check value
  EXPECT_EQ(t[32767], 30720);
  EXPECT_EQ(t[32768], 30720);
  EXPECT_EQ(t[65535], 32768);
}

// ---- naive reference ------------------------------------------------------------------------

constexpr std::uint32_t kTaps[4][17] = {
    {489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, 7455, 6547, 5274, 3896, 2640, 1640, 935, 489},
    {1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244},
    {3571, 16004, 26386, 16004, 3571},
    {10904, 43728, 10904}};
constexpr int kWidth[4] = {17, 9, 5, 3};

int refl(int c, int n) {
  if (c < 0) return -c;
  if (c >= n) return 2 * (n - 1) - c;
  return c;
}

std::int64_t naive_log(std::uint64_t v, const std::uint16_t* t) {
  int k = 0;
  while ((v >> k) >= 65536) ++k;
  return std::int64_t(t[v >> k]) + 2048 * k;
}

// Vertical sums at (row i, column c) rounded with (round, shift): A_x, A_y, B_xx, B_yy, B_xy.
struct Vert {
  std::uint64_t a_x, a_y, b_xx, b_yy, b_xy;
};

Accum naive_scale(const Plane& x, const Plane& y, int bpc, int scale, double egl) {
  const std::uint16_t* table = log2_table();
  const int n = kWidth[scale], r = n / 2;
  const std::uint32_t* f = kTaps[scale];
  const unsigned sm = scale ? 16 : unsigned(bpc), sq = scale ? 16 : 2 * unsigned(bpc - 8);
  const u128 rm = u128(1) << (sm - 1), rq = sq ? u128(1) << (sq - 1) : 0;
  Accum acc;
  for (int i = 0; i < x.h; ++i) {
    // Vertical pass of this row for every column.
    std::vector<Vert> vert(std::size_t(x.w));
    for (int c = 0; c < x.w; ++c) {
      u128 ax = 0, ay = 0, bxx = 0, byy = 0, bxy = 0;
      for (int t = 0; t < n; ++t) {
        const int rr = refl(i - r + t, x.h);
        const u128 xv = x.at(rr, c), yv = y.at(rr, c);
        ax += f[t] * xv;
        ay += f[t] * yv;
        bxx += f[t] * xv * xv;
        byy += f[t] * yv * yv;
        bxy += f[t] * xv * yv;
      }
      vert[c] = {std::uint64_t((ax + rm) >> sm), std::uint64_t((ay + rm) >> sm), std::uint64_t((bxx + rq) >> sq),
                 std::uint64_t((byy + rq) >> sq), std::uint64_t((bxy + rq) >> sq)};
    }
    for (int j = 0; j < x.w; ++j) {
      u128 mx = 0, my = 0, exx = 0, eyy = 0, exy = 0;
      for (int t = 0; t < n; ++t) {
        const Vert& v = vert[refl(j - r + t, x.w)];
        mx += f[t] * u128(v.a_x);
        my += f[t] * u128(v.a_y);
        exx += f[t] * u128(v.b_xx);
        eyy += f[t] * u128(v.b_yy);
        exy += f[t] * u128(v.b_xy);
      }
      const u128 half32 = u128(1) << 31;
      const std::int64_t s1 = std::int64_t((exx + 32768) >> 16) - std::int64_t((mx * mx + half32) >> 32);
      std::int64_t s2 = std::int64_t((eyy + 32768) >> 16) - std::int64_t((my * my + half32) >> 32);
      const std::int64_t s12 = std::int64_t((exy + 32768) >> 16) - std::int64_t((mx * my + half32) >> 32);
      // The spec's range argument: the sigmas fit int32.
      EXPECT_LT(std::llabs(s1), 1LL << 31);
      EXPECT_LT(std::llabs(s2), 1LL << 31);
      EXPECT_LT(std::llabs(s12), 1LL << 31);
      s2 = std::max<std::int64_t>(s2, 0);
      if (s1 >= 131072) {
        acc.den_log += naive_log(std::uint64_t(131072 + s1), table) - 34816;
        if (s12 > 0 && s2 > 0) {
          double g = double(s12) / (double(s1) + 65536 * 1.0e-10);
          const double gs = g * double(s12);
          const double t = double(s2) - gs;
          const std::int64_t sv = t >= 1.0 ? std::int64_t(t) : 0;
          g = std::min(g, egl);
          const double gg = g * g;
          const double p = gg * double(s1);
          const std::int64_t n1 = sv + 131072;
          acc.num_log += naive_log(std::uint64_t(std::int64_t(p) + n1), table) - naive_log(std::uint64_t(n1), table);
        }
      } else {
        acc.lin_sigma2 += s2;
        acc.lin_count += 1;
      }
    }
  }
  return acc;
}

Plane naive_downsample(const Plane& x, int bpc, int from_scale) {
  const int n = kWidth[from_scale + 1], r = n / 2;
  const std::uint32_t* f = kTaps[from_scale + 1];
  const unsigned sh = from_scale ? 16 : unsigned(bpc);
  Plane out{x.w / 2, x.h / 2, {}};
  out.v.resize(std::size_t(out.w) * out.h);
  for (int i = 0; i < out.h; ++i)
    for (int j = 0; j < out.w; ++j) {
      u128 s = 0;
      for (int u = 0; u < n; ++u) {
        const int c = refl(2 * j - r + u, x.w);
        u128 v = 0;
        for (int t = 0; t < n; ++t) v += f[t] * u128(x.at(refl(2 * i - r + t, x.h), c));
        s += f[u] * ((v + (u128(1) << (sh - 1))) >> sh);
      }
      out.v[std::size_t(i) * out.w + j] = std::uint32_t((s + 32768) >> 16);
    }
  return out;
}

std::array<Accum, 4> naive_frame(const Plane& x0, const Plane& y0, int bpc, double egl, bool skip0) {
  std::array<Accum, 4> out{};
  Plane x = x0, y = y0;
  for (int s = 0; s < 4; ++s) {
    if (s > 0) {
      x = naive_downsample(x, bpc, s - 1);
      y = naive_downsample(y, bpc, s - 1);
    }
    if (s > 0 || !skip0) out[s] = naive_scale(x, y, bpc, s, egl);
  }
  return out;
}

std::string show(const Accum& a) {
  return "{num_log " + std::to_string(a.num_log) + ", den_log " + std::to_string(a.den_log) + ", lin_sigma2 " +
         std::to_string(a.lin_sigma2) + ", lin_count " + std::to_string(a.lin_count) + "}";
}

void expect_same(const std::array<Accum, 4>& got, const std::array<Accum, 4>& want, const std::string& what) {
  for (int s = 0; s < 4; ++s)
    EXPECT_TRUE(got[s] == want[s]) << what << " scale " << s << ": " << show(got[s]) << " != " << show(want[s]);
}

struct NaiveCase {
  int w, h, bpc;
  Pattern pattern;
  double egl;
};

class IntegerVifNaive : public ::testing::TestWithParam<NaiveCase> {};

TEST_P(IntegerVifNaive, KernelsMatchWideIntegerReference) {
  const NaiveCase& c = GetParam();
  const Pair p = make_pair(c.w, c.h, c.bpc, c.pattern, unsigned(c.w * 131 + c.h * 7 + c.bpc));
  for (bool skip0 : {false, true}) {
    const auto want = naive_frame(p.x, p.y, c.bpc, c.egl, skip0);
    // The reference table; tests/cpu_check holds every other variant to it.
    const KernelSet k = kernels_for(0);
    FrameSetup s{c.w, c.h, c.bpc, c.egl, skip0};
    Workspace ws;
    expect_same(frame_sums(k, s, p.ref(), p.dist(), ws), want,
                std::string(skip0 ? "skip0 " : "") + std::to_string(c.w) + "x" + std::to_string(c.h) + " " +
                    std::to_string(c.bpc) + "-bit");
  }
}

INSTANTIATE_TEST_SUITE_P(
    Planes, IntegerVifNaive,
    ::testing::Values(NaiveCase{16, 16, 8, Pattern::kRandom, 100}, NaiveCase{17, 19, 8, Pattern::kNoisyCopy, 100},
                      NaiveCase{37, 29, 8, Pattern::kNoisyCopy, 1}, NaiveCase{66, 44, 8, Pattern::kCheckerMax, 100},
                      NaiveCase{61, 17, 8, Pattern::kMaxVsZero, 1.5}, NaiveCase{50, 38, 10, Pattern::kNoisyCopy, 100},
                      NaiveCase{18, 18, 10, Pattern::kRandom, 1}, NaiveCase{66, 44, 12, Pattern::kNoisyCopy, 2.5},
                      NaiveCase{45, 33, 12, Pattern::kCheckerMax, 100}, NaiveCase{66, 44, 16, Pattern::kRandom, 100},
                      NaiveCase{70, 35, 16, Pattern::kNoisyCopy, 1}, NaiveCase{40, 40, 16, Pattern::kCheckerMax, 100},
                      NaiveCase{33, 21, 16, Pattern::kMaxVsZero, 100}, NaiveCase{48, 32, 16, Pattern::kGradient, 1},
                      NaiveCase{23, 16, 8, Pattern::kFlatPlusOne, 100}, NaiveCase{129, 95, 8, Pattern::kNoisyCopy, 100}));

// ---- the extractor --------------------------------------------------------------------------

class MapSink final : public FeatureSink {
 public:
  void put(std::string_view name, unsigned frame, double value) override {
    names.emplace_back(name);
    values[std::string(name)] = value;
  }
  void aggregate(std::string_view, double) override {}
  std::vector<std::string> names;
  std::map<std::string, double> values;
};

std::unique_ptr<Extractor> make_vif(const OptionPairs& opts, OptionValues* keep = nullptr) {
  const ExtractorInfo* info = find_extractor("vif");
  EXPECT_NE(info, nullptr);
  EXPECT_EQ(find_extractor("integer_vif"), info);
  OptionValues o(info->spec->options, opts, info->name);
  if (keep) *keep = o;
  return info->create(o);
}

Picture picture_of(const Pair& p, bool dist) {
  Picture pic(PictureFormat{p.w, p.h, p.bpc, ChromaFormat::k400});
  for (int i = 0; i < p.h; ++i)
    for (int j = 0; j < p.w; ++j) {
      const std::uint32_t v = (dist ? p.y : p.x).at(i, j);
      if (p.bpc == 8) pic.row<std::uint8_t>(0, i)[j] = std::uint8_t(v);
      else pic.row<std::uint16_t>(0, i)[j] = std::uint16_t(v);
    }
  return pic;
}

TEST(IntegerVifExtractor, RefusesTinyPlanesAndOddBitDepths) {
  for (auto [w, h] : {std::pair{15, 16}, std::pair{16, 15}, std::pair{8, 8}, std::pair{1, 1}}) {
    auto e = make_vif({});
    EXPECT_THROW(e->init(PictureFormat{w, h, 8, ChromaFormat::k420}), Error) << w << "x" << h;
  }
  try {
    make_vif({})->init(PictureFormat{15, 100, 8, ChromaFormat::k420});
    ADD_FAILURE() << "15x100 accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("16x16"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(make_vif({})->init(PictureFormat{16, 16, 8, ChromaFormat::k420}));
  for (int bpc : {9, 11, 14}) EXPECT_THROW(make_vif({})->init(PictureFormat{64, 64, bpc, ChromaFormat::k420}), Error);
  for (int bpc : {8, 10, 12, 16}) EXPECT_NO_THROW(make_vif({})->init(PictureFormat{64, 64, bpc, ChromaFormat::k444}));
}

TEST(IntegerVifExtractor, OptionRangesAreChecked) {
  const ExtractorInfo* info = find_extractor("vif");
  ASSERT_NE(info, nullptr);
  EXPECT_THROW(OptionValues(info->spec->options, {{"vif_enhn_gain_limit", "0.5"}}, "vif"), Error);
  EXPECT_THROW(OptionValues(info->spec->options, {{"vif_enhn_gain_limit", "100.5"}}, "vif"), Error);
  EXPECT_THROW(OptionValues(info->spec->options, {{"vif_skip_scale0", "yes"}}, "vif"), Error);
  EXPECT_NO_THROW(OptionValues(info->spec->options, {{"vif_enhn_gain_limit", "1"}}, "vif"));
}

TEST(IntegerVifExtractor, NamesFollowFeatureParams) {
  const Pair p = make_pair(40, 24, 8, Pattern::kNoisyCopy, 3);
  const Picture ref = picture_of(p, false), dist = picture_of(p, true);
  struct Case {
    OptionPairs opts;
    std::string suffix;
  };
  const Case cases[] = {{{}, ""},
                        {{{"vif_enhn_gain_limit", "100"}}, ""},
                        {{{"vif_enhn_gain_limit", "1"}}, "_egl_1"},
                        {{{"vif_enhn_gain_limit", "1.5"}}, "_egl_1.5"},
                        {{{"vif_skip_scale0", "true"}}, "_ssclz"},
                        {{{"vif_skip_scale0", "true"}, {"vif_enhn_gain_limit", "2.5"}}, "_egl_2.5_ssclz"}};
  for (const Case& c : cases) {
    auto e = make_vif(c.opts);
    e->init(ref.format());
    MapSink sink;
    e->extract(ref, dist, 0, sink);
    std::vector<std::string> want;
    for (int s = 0; s < 4; ++s) want.push_back("integer_vif_scale" + std::to_string(s) + c.suffix);
    EXPECT_EQ(sink.names, want);
  }
}

TEST(IntegerVifExtractor, DebugOutputsAreConsistent) {
  const Pair p = make_pair(64, 48, 10, Pattern::kNoisyCopy, 5);
  const Picture ref = picture_of(p, false), dist = picture_of(p, true);
  for (bool skip : {false, true}) {
    auto e = make_vif({{"debug", "true"}, {"vif_skip_scale0", skip ? "true" : "false"}});
    e->init(ref.format());
    MapSink sink;
    e->extract(ref, dist, 0, sink);
    const std::string sx = skip ? "_ssclz" : "";
    std::vector<std::string> want;
    for (int s = 0; s < 4; ++s) want.push_back("integer_vif_scale" + std::to_string(s) + sx);
    for (const char* n : {"integer_vif", "integer_vif_num", "integer_vif_den"}) want.push_back(n + sx);
    for (int s = 0; s < 4; ++s) {
      want.push_back("integer_vif_num_scale" + std::to_string(s) + sx);
      want.push_back("integer_vif_den_scale" + std::to_string(s) + sx);
    }
    ASSERT_EQ(sink.names, want);
    auto v = [&](const std::string& n) { return sink.values.at(n + sx); };
    double num = 0, den = 0;
    for (int s = skip ? 1 : 0; s < 4; ++s) {
      const std::string i = std::to_string(s);
      EXPECT_EQ(v("integer_vif_scale" + i), double(float(v("integer_vif_num_scale" + i)) /
                                                  float(v("integer_vif_den_scale" + i))));
      num += v("integer_vif_num_scale" + i);
      den += v("integer_vif_den_scale" + i);
    }
    EXPECT_EQ(v("integer_vif_num"), num);
    EXPECT_EQ(v("integer_vif_den"), den);
    EXPECT_EQ(v("integer_vif"), num / den);
    if (skip) {
      EXPECT_EQ(v("integer_vif_scale0"), 0.0);
      EXPECT_EQ(v("integer_vif_num_scale0"), 0.0);
      EXPECT_EQ(v("integer_vif_den_scale0"), -1.0);
    }
  }
}

TEST(IntegerVifExtractor, FlatPairScoresExactlyOneIdenticalAtMostOne) {
  // Flat: every pixel takes the linear branch with sigma2 = 0, so num = den.
  Pair flat = make_pair(48, 40, 12, Pattern::kFlatPlusOne, 1);
  flat.y = flat.x;
  const Picture a = picture_of(flat, false);
  auto e = make_vif({});
  e->init(a.format());
  MapSink sink;
  e->extract(a, a, 0, sink);
  for (int s = 0; s < 4; ++s) EXPECT_EQ(sink.values.at("integer_vif_scale" + std::to_string(s)), 1.0);
  // Textured identical frames never exceed 1 (the golden identical_* pairs show values just below).
  const Pair tex = make_pair(96, 64, 8, Pattern::kNoisyCopy, 2);
  const Picture b = picture_of(tex, false);
  MapSink sink2;
  e = make_vif({});
  e->init(b.format());
  e->extract(b, b, 0, sink2);
  for (int s = 0; s < 4; ++s) {
    const double v = sink2.values.at("integer_vif_scale" + std::to_string(s));
    EXPECT_LE(v, 1.0);
    EXPECT_GT(v, 0.9999);
  }
}

TEST(IntegerVifMath, CombineFollowsSpecOrder) {
  Accum a;
  a.num_log = 123456789;
  a.den_log = 987654321;
  a.lin_sigma2 = 55555555555;
  a.lin_count = 4242;
  const NumDen nd = combine(a);
  const double num = 123456789 / 2048.0 + (4242.0 - (55555555555 / 16384.0) / 65025.0);
  const double den = 987654321 / 2048.0 + 4242.0;
  EXPECT_EQ(nd.num, float(num));
  EXPECT_EQ(nd.den, float(den));
  EXPECT_EQ(scale_score(nd), double(float(num) / float(den)));
}

}  // namespace
}  // namespace vqtwin::integer_vif
