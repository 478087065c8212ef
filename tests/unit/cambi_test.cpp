// cambi against hand-computed values and plain reference loops written from the definitions in
// src/features/cambi/README.md (brute-force window counts, a textbook transcription of the
// selection loop); the 18 cambi goldens check the whole extractor against libvmaf 3.2.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <random>
#include <tuple>
#include <utility>

#include "extractor_harness.hpp"
#include "features/cambi/math.hpp"
#include "features/cambi/pipeline.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::test {
namespace {

using namespace vqtwin::cambi;

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Expected thresholds from an independent transcription (Python, glibc pow) of the bisection.
TEST(Cambi, VisibilityThresholds) {
  const int bt1886_019[] = {178, 305, 432, 559, 686, 813, 1023, 1023};
  const int bt1886_012[] = {252, 453, 653, 854, 1023, 1023, 1023, 1023};
  const int pq_05[] = {110, 179, 277, 433, 1023, 1023, 1023, 1023};
  for (int d = 1; d <= 8; ++d) {
    EXPECT_EQ(tvi_for_diff(d, 0.019, Eotf::kBt1886), bt1886_019[d - 1]) << d;
    EXPECT_EQ(tvi_for_diff(d, 0.012, Eotf::kBt1886), bt1886_012[d - 1]) << d;
    EXPECT_EQ(tvi_for_diff(d, 0.05, Eotf::kPq), pq_05[d - 1]) << d;
  }
  EXPECT_EQ(vis_lum_code(0.0, Eotf::kBt1886), 0);
  EXPECT_EQ(vis_lum_code(0.06, Eotf::kBt1886), 78);
  EXPECT_EQ(vis_lum_code(1.0, Eotf::kBt1886), 135);
  EXPECT_EQ(vis_lum_code(0.06, Eotf::kPq), 108);
  EXPECT_EQ(vis_lum_code(300.0, Eotf::kBt1886), 940);  // the BT.1886 peak is exactly 300 cd/m2
  EXPECT_EQ(luminance(940, Eotf::kBt1886), 300.0);
  EXPECT_EQ(luminance(64, Eotf::kBt1886), luminance(0, Eotf::kBt1886));  // clipped to the foot
}

TEST(Cambi, WindowAndMaskThreshold) {
  EXPECT_EQ(scaled_window(65, 3840, 2160, false), 65);      // (65*6000/375)>>4 = 65
  EXPECT_EQ(scaled_window(65, 1920, 1080, false), 33);      // 520>>4 = 32, made odd
  EXPECT_EQ(scaled_window(65, 1920, 1080, true), 17);       // (32+1)>>1 = 16, made odd
  EXPECT_EQ(scaled_window(65, 576, 324, false), 9);         // 156>>4 = 9
  EXPECT_EQ(scaled_window(127, 3840, 2160, false), 127);    // 2032>>4 = 127 (127^2 >= 4226: refused)
  EXPECT_EQ(mask_threshold(576, 324), 16);    // 9*5 = 45 blocks, ceil_log2 6: (49 - 15 - 1)>>1
  EXPECT_EQ(mask_threshold(3840, 2160), 24);  // 60*33 = 1980, ceil_log2 11: (49 - 1)>>1
  EXPECT_EQ(mask_threshold(32, 32), 7);       // 0 blocks: (49 - 33 - 1)>>1
  EXPECT_EQ(ceil_log2(1), 0);
  EXPECT_EQ(ceil_log2(1024), 10);
  EXPECT_EQ(ceil_log2(1025), 11);
}

TEST(Cambi, Mode3) {
  EXPECT_EQ(mode3(5, 5, 9), 5);
  EXPECT_EQ(mode3(9, 5, 5), 5);
  EXPECT_EQ(mode3(5, 9, 5), 5);
  EXPECT_EQ(mode3(7, 3, 9), 3);  // no pair: the smallest
  EXPECT_EQ(mode3(2, 2, 2), 2);
}

TEST(Cambi, ReciprocalTableIsNineDigitDecimals) {
  const auto r = reciprocal_table();
  ASSERT_EQ(r.size(), 4226u);
  EXPECT_EQ(r[0], 0.0f);
  EXPECT_EQ(r[1], 1.0f);
  EXPECT_EQ(r[3], 0.333333333f);
  EXPECT_EQ(r[82], 0x1.8f9c1ap-7f);  // libvmaf's 0.012195122f, one ulp above 1.0f / 82
  int differ = 0;
  for (int n = 1; n < 4226; ++n) differ += r[std::size_t(n)] != 1.0f / float(n);
  EXPECT_EQ(differ, 42);
}

TEST(Cambi, SamplePositions) {
  const auto id = sample_positions(7, 7);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(id[std::size_t(i)], i);
  const auto quarter = sample_positions(1920, 480);  // ratio 4, from 1.5: 2, 6, 10, ...
  EXPECT_EQ(quarter[0], 2);
  EXPECT_EQ(quarter[1], 6);
  EXPECT_EQ(quarter[479], 1918);
  const auto odd = sample_positions(853, 480);  // ratio 1.7770833: 0.3885, 2.1656, 3.9427, ...
  EXPECT_EQ(odd[0], 0);
  EXPECT_EQ(odd[1], 2);
  EXPECT_EQ(odd[2], 4);
}

// Values over the whole int range but with equal neighbours often (flat patches).
std::vector<std::uint16_t> patchy(int w, int h, std::mt19937& rng, int lo, int hi) {
  std::vector<std::uint16_t> img(std::size_t(w) * h);
  std::uniform_int_distribution<int> val(lo, hi), coin(0, 3);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::uint16_t& v = img[std::size_t(y) * w + x];
      if (x > 0 && coin(rng)) v = img[std::size_t(y) * w + x - 1];
      else if (y > 0 && coin(rng)) v = img[std::size_t(y - 1) * w + x];
      else v = std::uint16_t(val(rng));
    }
  return img;
}

TEST(Cambi, SpatialMaskMatchesBruteForce) {
  std::mt19937 rng(7);
  for (const auto& size : {std::pair{1, 1}, {5, 3}, {40, 23}, {64, 64}, {3, 70}}) {
    const int w = size.first, h = size.second;  // named: lambdas capture them (clang 14 cannot capture bindings)
    const auto img = patchy(w, h, rng, 0, 3);
    auto px = [&](int x, int y) { return img[std::size_t(y) * w + x]; };
    const int t = mask_threshold(w, h);
    std::vector<std::uint8_t> mask(img.size()), scratch;
    spatial_mask(img.data(), w, h, t, mask.data(), scratch);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        int flat = 0;
        for (int yy = y - 3; yy <= y + 3; ++yy)
          for (int xx = x - 3; xx <= x + 3; ++xx) {
            if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
            const bool right = xx == w - 1 || px(xx, yy) == px(xx + 1, yy);
            const bool down = yy == h - 1 || px(xx, yy) == px(xx, yy + 1);
            flat += right && down;
          }
        ASSERT_EQ(mask[std::size_t(y) * w + x], flat > t ? 1 : 0) << w << "x" << h << " at " << x << "," << y;
      }
  }
}

TEST(Cambi, ModeFilterMatchesDefinition) {
  std::mt19937 rng(3);
  for (const auto& size : {std::pair{1, 5}, {2, 2}, {9, 4}, {31, 17}}) {
    const int w = size.first, h = size.second;
    auto img = patchy(w, h, rng, 0, 4);
    const auto orig = img;
    auto o = [&](int x, int y) { return orig[std::size_t(y) * w + x]; };
    auto hmode = [&](int x, int y) {
      return x == 0 || x == w - 1 ? o(x, y) : mode3(o(x - 1, y), o(x, y), o(x + 1, y));
    };
    std::vector<std::uint16_t> scratch;
    mode_filter(img.data(), w, w, h, scratch);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const std::uint16_t want =
            (y == 0 || y == h - 1) ? o(x, y) : mode3(hmode(x, y - 1), hmode(x, y), hmode(x, y + 1));
        ASSERT_EQ(img[std::size_t(y) * w + x], want) << x << "," << y;
      }
  }
}

// The banding value of every pixel from window counts made by brute force.
TEST(Cambi, BandingValuesMatchBruteForce) {
  std::mt19937 rng(11);
  for (int nd : {1, 4, 8})
    for (const auto& dims : {std::tuple{30, 20, 9}, {17, 33, 5}, {12, 12, 25}, {50, 7, 13}}) {
      const int w = std::get<0>(dims), h = std::get<1>(dims), window = std::get<2>(dims);
      SCOPED_TRACE(std::to_string(nd) + " diffs, " + std::to_string(w) + "x" + std::to_string(h));
      cambi::Setup s;
      s.num_diffs = nd;
      for (int d = 0; d < nd; ++d) s.tvi.push_back(100 + 3 * d + nd);
      s.vlt = 95;
      s.band_base = std::max(0, s.vlt - 3 * nd + 1);
      s.band_size = s.tvi.back() + 1 - s.band_base;
      const auto img = patchy(w, h, rng, 85, 120);
      std::vector<std::uint8_t> mask(img.size());
      for (auto& m : mask) m = std::uint8_t(rng() % 4 != 0);
      std::vector<float> got(img.size());
      std::vector<std::uint16_t> hist;
      banding_values(s, img.data(), mask.data(), w, w, h, window, hist, got.data());
      const int pad = window / 2;
      const float* rec = reciprocal_table().data();
      auto counted = [&](int x, int y, int v) {
        const int i = y * w + x;
        return mask[std::size_t(i)] && img[std::size_t(i)] == v && v >= s.band_base && v < s.band_base + s.band_size;
      };
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const int value = img[std::size_t(y) * w + x];
          auto count = [&](int v) {
            int c = 0;
            for (int yy = std::max(0, y - pad); yy <= std::min(h - 1, y + pad); ++yy)
              for (int xx = std::max(0, x - pad); xx <= std::min(w - 1, x + pad); ++xx) c += counted(xx, yy, v);
            return c;
          };
          float want = 0.0f;
          if (counted(x, y, value)) {
            const int p0 = count(value);
            for (int d = 0; d < nd; ++d) {
              if (!(value + nd <= s.tvi[std::size_t(d)] && value + nd + d + 1 > s.vlt)) continue;
              const int p1 = count(value + d + 1), p2 = count(value - d - 1);
              const int p = p1 > p2 ? p1 : p2;
              const float v = float(kContrastWeights[d] * p0 * p) * rec[p0 + p];
              if (v > want) want = v;
            }
          }
          ASSERT_TRUE(same_bits(got[std::size_t(y) * w + x], want)) << x << "," << y << ": " << want;
        }
    }
}

// libvmaf's selection loop as in a textbook (Hoare partition, pivot at index k).
void reference_select(std::vector<float>& a, int k) {
  const int n = int(a.size());
  if (n == k) return;
  int left = 0, right = n - 1;
  while (left < right) {
    const float pivot = a[std::size_t(k)];
    int i = left, j = right;
    do {
      while (a[std::size_t(i)] > pivot) i++;
      while (a[std::size_t(j)] < pivot) j--;
      if (i <= j) {
        std::swap(a[std::size_t(i)], a[std::size_t(j)]);
        i++;
        j--;
      }
    } while (i <= j);
    if (j < k) left = i;
    if (k < i) right = j;
  }
}

TEST(Cambi, SelectionLeavesTheArrayAsLibvmafDoes) {
  std::mt19937 rng(5);
  for (int n : {1, 2, 3, 10, 100, 1000, 5000, 40000})
    for (int zero_percent : {0, 50, 88, 97, 100})
      for (double topk : {0.0001, 0.2, 0.6, 0.95, 1.0}) {
        std::vector<float> v(static_cast<std::size_t>(n));
        for (auto& x : v) x = int(rng() % 100) < zero_percent ? 0.0f : float(1 + rng() % 50) * 0.37f;
        if (n > 100)  // spatially coherent zeros, as in real pictures
          for (int i = 0; i < n / 3; ++i) v[std::size_t(i)] = 0.0f;
        int k = int(topk * n);
        k = std::clamp(k, 1, n);
        auto want = v;
        reference_select(want, k);
        select_largest(v.data(), n, k);
        for (int i = 0; i < n; ++i)
          ASSERT_TRUE(same_bits(v[std::size_t(i)], want[std::size_t(i)]))
              << "n " << n << " zeros " << zero_percent << "% k " << k << " at " << i;
      }
}

TEST(Cambi, PoolingAndWeights) {
  float v[] = {3, 1, 2, 0};
  EXPECT_EQ(pool_topk(v, 4, 0.5), 2.5);    // k = 2: (3 + 2) / 2
  float w[] = {3, 1, 2, 0};
  EXPECT_EQ(pool_topk(w, 4, 0.0001), 3.0);  // at least one value
  const double scores[kNumScales] = {1, 2, 3, 4, 5};
  EXPECT_EQ(weight_scales(scores, 9), (16 + 16 + 12 + 8 + 5) / 81.0);
}

TEST(Cambi, TenBitConversion) {
  for (int bpc : {8, 10, 12, 16}) {
    const PictureFormat f{4, 2, bpc, ChromaFormat::k444};
    const Picture pic = make_picture(f, [&](int x, int y) { return unsigned(((x + 4 * y) * 37) % (1 << bpc)); });
    cambi::Setup s;
    s.bitdepth = bpc;
    Target t;
    t.w = 4;
    t.h = 2;
    t.xs = sample_positions(4, 4);
    t.ys = sample_positions(2, 2);
    std::uint16_t out[8];
    to_10bit(s, t, pic, out);
    for (int i = 0; i < 8; ++i) {
      const unsigned v = unsigned((i * 37) % (1 << bpc));
      const unsigned want = bpc == 8 ? v << 2 : bpc == 10 ? v : bpc == 12 ? (v + 2) >> 2 : (v + 32) >> 6;
      EXPECT_EQ(out[i], want) << bpc << "-bit sample " << i;
    }
  }
  // Anti-dithering: 2x2 means (pairs on the last row and column), from the original values.
  std::uint16_t img[] = {4, 8, 12, 0, 4, 8};  // 3x2
  anti_dither(img, 3, 2);
  EXPECT_EQ(img[0], (4 + 8 + 0 + 4) >> 2);
  EXPECT_EQ(img[1], (8 + 12 + 4 + 8) >> 2);
  EXPECT_EQ(img[2], (12 + 8) >> 1);
  EXPECT_EQ(img[3], (0 + 4) >> 1);
  EXPECT_EQ(img[4], (4 + 8) >> 1);
  EXPECT_EQ(img[5], 8);
}

PictureFormat fmt(int w, int h, int bpc = 8) { return {w, h, bpc, ChromaFormat::k420}; }

TEST(Cambi, FlatPictureHasNoBanding) {
  const Picture flat = make_picture(fmt(256, 240), [](int, int) { return 100u; });
  EXPECT_EQ(run_one("cambi", {}, flat, flat).at("cambi"), 0.0);
}

TEST(Cambi, StepsAreBanding) {
  // Bands of 16 columns one 8-bit code value apart: every step is visible at this luminance.
  const Picture bands = make_picture(fmt(256, 240), [](int x, int) { return unsigned(60 + x / 16); });
  const auto out = run_one("cambi", {{"full_ref", "true"}}, bands, bands);
  EXPECT_GT(out.at("cambi"), 1.0);
  EXPECT_EQ(out.at("cambi_source"), out.at("cambi"));
  EXPECT_EQ(out.at("cambi_full_reference"), 0.0);
  // cambi_max_val clips, and renames.
  EXPECT_EQ(run_one("cambi", {{"cambi_max_val", "0.5"}}, bands, bands).at("cambi_cmxv_0.5"), 0.5);
  // An encode size above the input's is the input's (same value, renamed).
  EXPECT_EQ(run_one("cambi", {{"enc_width", "4000"}, {"enc_height", "4000"}}, bands, bands)
                .at("cambi_ench_4000_encw_4000"),
            out.at("cambi"));
}

TEST(Cambi, Refusals) {
  auto refused = [](const OptionPairs& o, const PictureFormat& f, const std::string& what) {
    try {
      make_extractor("cambi", o, f);
      ADD_FAILURE() << "accepted: " << what;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  refused({}, fmt(200, 200), "too small");
  refused({{"window_size", "127"}}, fmt(3840, 2160), "too large for reciprocal LUT");
  refused({}, fmt(3840, 100), "too small for its 43-pixel window");
  refused({{"eotf", "srgb"}}, fmt(256, 256), "unknown EOTF");
  refused({{"heatmaps_path", ""}}, fmt(256, 256), "heatmaps_path is empty");
  refused({{"src_width", "1920"}, {"src_height", "200"}, {"full_ref", "true"}}, fmt(1280, 720),
          "larger or smaller together");
  refused({{"enc_width", "100"}}, fmt(256, 256), "out of range");
  EXPECT_NO_THROW(make_extractor("cambi", {}, fmt(216, 100)));  // one side of 216 is enough
  // Samples above the bit depth (libvmaf refuses them too).
  auto ex = make_extractor("cambi", {}, fmt(256, 256, 10));
  const Picture bad = make_picture(fmt(256, 256, 10), [](int x, int) { return x == 7 ? 1100u : 500u; });
  MapSink sink;
  EXPECT_THROW(ex->extract(bad, bad, 0, sink), Error);
}

TEST(Cambi, Heatmaps) {
  const std::string dir = std::filesystem::temp_directory_path() / ("vqtwin_cambi_" + std::to_string(getpid()));
  const Picture bands = make_picture(fmt(256, 240), [](int x, int) { return unsigned(60 + x / 16); });
  auto ex = make_extractor("cambi", {{"heatmaps_path", dir + "/sub"}}, bands.format());
  MapSink sink;
  ex->extract(bands, bands, 1, sink);  // frame 1 first: written at its offset
  ex->extract(bands, bands, 0, sink);
  ex.reset();
  int w = 256, h = 240;
  for (int s = 0; s < 5; ++s) {
    const std::string f = dir + "/sub/cambi_heatmap_scale_" + std::to_string(s) + "_" + std::to_string(w) + "x" +
                          std::to_string(h) + "_16b.gray";
    ASSERT_TRUE(std::filesystem::exists(f)) << f;
    EXPECT_EQ(std::filesystem::file_size(f), std::uintmax_t(2 * w * h * 2)) << f;
    w = (w + 1) / 2;
    h = (h + 1) / 2;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace vqtwin::test
