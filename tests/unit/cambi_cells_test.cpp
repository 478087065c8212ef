// cambi's device arrangement on the host: every pass of the CUDA twin (cuda.cu) as plain loops over
// cells.hpp's per-output functions (out of place, one output at a time, the banding values by counting
// each pixel's window), pooled through the front, against the CPU reference's score_picture, bit for
// bit, over bit depths, option sets (anti-dithering, contrasts, speed-up, encode and source sizes,
// thresholds, EOTFs) and contents with banding.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "features/cambi/cells.hpp"
#include "features/cambi/front.hpp"
#include "features/cambi/pipeline.hpp"
#include "features/cambi/schema.hpp"
#include "motion_test_util.hpp"

namespace vqtwin::test {
namespace {

using cambi::Front;
using cambi::Setup;
using cambi::Target;
namespace cells = cambi::cells;

std::uint64_t bits(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

// The twin's selection on the host (cuda.cu's select kernels, one value at a time): the k-th largest
// of n values by the three radix levels, then the count and exact sum of the values above it.
cambi::TopkSummary summarize(const float* v, std::size_t n, int k) {
  std::vector<unsigned> hist(cells::kSelectHistogram, 0u);
  std::uint32_t prefix = 0;
  unsigned r = unsigned(k), b = 0;
  for (int level = 0; level < cells::kSelectLevels; ++level) {
    unsigned* h = hist.data() + cells::select_offset(level);
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t u;
      std::memcpy(&u, &v[i], sizeof u);
      unsigned key = 0;
      if (cells::select_key(u, level, prefix, key)) ++h[key];
    }
    EXPECT_TRUE(cells::find_bin(h, cells::select_bins(level), r, b));
    prefix = cells::select_prefix(prefix, level, b);
  }
  cambi::TopkSummary s;
  s.kth_bits = prefix;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t u;
    std::memcpy(&u, &v[i], sizeof u);
    std::uint64_t f = 0;
    if (!cambi::fixed_24(u, f)) s.bad = 1;
    else if (u > prefix) {
      ++s.above;
      s.above_sum += f;
    }
  }
  return s;
}

// The twin's passes on the host.
double cells_score(const Front& fr, const Target& t, const Picture& pic) {
  const Setup& s = fr.setup();
  const int tw = t.w, th = t.h;
  const std::size_t n = std::size_t(tw) * std::size_t(th);
  std::vector<std::uint16_t> img(n), tmp(n);
  std::vector<std::uint8_t> mask(n);
  // The conversion and the anti-dithering in one pass.
  const auto px = [&](int i, int j) -> std::uint16_t {
    const unsigned v = s.bitdepth == 8 ? pic.row<std::uint8_t>(0, t.ys[std::size_t(i)])[t.xs[std::size_t(j)]]
                                       : pic.row<std::uint16_t>(0, t.ys[std::size_t(i)])[t.xs[std::size_t(j)]];
    return cells::to_10bit(v, s.bitdepth);
  };
  for (int i = 0; i < th; ++i)
    for (int j = 0; j < tw; ++j)
      img[std::size_t(i) * tw + j] = s.enc_bitdepth < 10 ? cells::anti_dither_of(px, tw, th, i, j) : px(i, j);
  // The flat flags and the mask in one pass (the kernel's tile: flags formed where read).
  const auto flat_of = [&](int y, int x) -> int { return cells::flat_at(img.data(), tw, th, y, x); };
  for (int i = 0; i < th; ++i)
    for (int j = 0; j < tw; ++j)
      mask[std::size_t(i) * tw + j] = cells::mask_of(flat_of, tw, th, cambi::mask_threshold(tw, th), i, j);
  std::vector<int> first(std::size_t(std::max(s.band_size, 1)), s.num_diffs);
  for (int cv = 0; cv < s.band_size; ++cv)
    first[std::size_t(cv)] = cells::first_step(cv, s.band_base, s.num_diffs, s.tvi.data(), s.vlt);
  const float* reciprocal = cambi::reciprocal_table().data();
  std::vector<float> values(fr.values_count(t), 0.0f);
  float* out = values.data();
  std::vector<std::uint8_t> mtmp(n);
  std::vector<std::uint16_t> counts(std::size_t(2 * s.num_diffs + 1));
  for (int scale = 0; scale < cambi::kNumScales; ++scale) {
    int w = 0, h = 0;
    fr.scale_size(t, scale, w, h);
    // The decimation (step 2) and the mode filter in one pass.
    const int step = scale > 0 || s.high_res_speedup ? 2 : 1;
    const auto sampled = [&](int r, int c) -> std::uint16_t { return img[std::size_t(r * step) * tw + c * step]; };
    for (int i = 0; i < h; ++i)
      for (int j = 0; j < w; ++j) {
        tmp[std::size_t(i) * tw + j] = cells::mode_of(sampled, w, h, i, j);
        if (step == 2) mtmp[std::size_t(i) * tw + j] = cells::decimate_at(mask.data(), tw, i, j);
      }
    std::swap(img, tmp);
    if (step == 2) std::swap(mask, mtmp);
    auto counted = [&](int r, int c) {
      if (r < 0 || r >= h || c < 0 || c >= w) return -1;
      const std::size_t at = std::size_t(r) * tw + c;
      return cells::counted_value(img[at], mask[at], s.band_base, s.band_size);
    };
    // One column of 8 rows at a time (the kernel's threads).
    for (int i0 = 0; i0 < h; i0 += 8)
      for (int j = 0; j < w; ++j)
        cells::banding_column(counted, i0, 8, h, j, t.window >> 1, first.data(), s.num_diffs, cambi::kContrastWeights,
                              reciprocal, counts.data(), 1,
                              [&](int i, float v) { out[std::size_t(i) * w + j] = v; });
    out += std::size_t(w) * h;
  }
  // The device's pooling: each scale's summary, then the front's sums (which must take them here).
  cambi::TopkSummary sums[cambi::kNumScales];
  const float* v = values.data();
  for (int scale = 0; scale < cambi::kNumScales; ++scale) {
    int w = 0, h = 0;
    fr.scale_size(t, scale, w, h);
    sums[scale] = summarize(v, std::size_t(w) * std::size_t(h), cambi::topk_count(w * h, s.topk));
    v += std::size_t(w) * std::size_t(h);
  }
  double from_sums = 0;
  EXPECT_TRUE(fr.score_from_summaries(t, sums, from_sums));
  std::vector<float> scratch;
  const double from_values = fr.score(t, values.data(), scratch);
  EXPECT_EQ(bits(from_sums), bits(from_values));
  return from_sums;
}

// Smooth gradients with plateaus (banding) and some noise, luma only matters.
Picture banded(const PictureFormat& f, std::mt19937& rng, int steps) {
  const unsigned max = (1u << f.bitdepth) - 1;
  return make_picture(f, [&](int, int x, int y) -> unsigned {
    const unsigned level = unsigned((x / 23 + y / 31) % steps);
    // Steps of one code value at the working 10 bits (four at 8 bits).
    const unsigned base = max / 8 + level * (f.bitdepth == 8 ? 1u : 1u << (f.bitdepth - 10));
    return (rng() % 29 == 0) ? (base + unsigned(rng() % 3)) & max : base;
  });
}

TEST(CambiCells, DeviceArrangementEqualsCpuPipeline) {
  const std::vector<OptionPairs> sets = {
      {},
      {{"full_ref", "true"}},
      {{"enc_bitdepth", "8"}},
      {{"max_log_contrast", "0"}},
      {{"max_log_contrast", "5"}, {"tvi_threshold", "0.05"}},
      {{"window_size", "127"}},
      {{"enc_width", "300"}, {"enc_height", "220"}, {"full_ref", "true"}, {"src_width", "320"}, {"src_height", "240"}},
      {{"cambi_vis_lum_threshold", "0.01"}, {"eotf", "pq"}},
      {{"topk", "0.01"}, {"max_log_contrast", "3"}},
  };
  std::mt19937 rng(25);
  int compared = 0;
  for (int bpc : {8, 10, 12, 16})
    for (const OptionPairs& given : sets) {
      const PictureFormat f = format(352, 240, bpc, ChromaFormat::k420);
      const Picture ref = banded(f, rng, 9), dist = banded(f, rng, 5);
      const OptionValues o(cambi::kSpec.options, given, "cambi");
      Front fr(o);
      fr.init(f);
      cambi::Workspace ws;
      const double cpu = cambi::score_picture(fr.setup(), fr.encode(), dist, ws, nullptr);
      EXPECT_EQ(bits(cells_score(fr, fr.encode(), dist)), bits(cpu)) << "bpc " << bpc << " set " << compared;
      // Banding everywhere but where the contrasts stop below 8-bit steps (max_log_contrast 0).
      if (bpc > 8 || compared % int(sets.size()) != 3) {
        EXPECT_GT(cpu, 0.0) << "bpc " << bpc << " set " << compared % int(sets.size());
      }
      if (fr.full_ref()) {
        const double src = cambi::score_picture(fr.setup(), fr.source(), ref, ws, nullptr);
        EXPECT_EQ(bits(cells_score(fr, fr.source(), ref)), bits(src));
      }
      ++compared;
    }
  EXPECT_EQ(compared, 4 * 9);
}

// The speed-up (scale 0 halved) takes a 1080p encode; one case.
TEST(CambiCells, HighResSpeedupEqualsCpuPipeline) {
  std::mt19937 rng(7);
  const PictureFormat f = format(1920, 1080, 10, ChromaFormat::k420);
  const Picture dist = banded(f, rng, 7);
  const OptionValues o(cambi::kSpec.options, {{"cambi_high_res_speedup", "1080"}, {"window_size", "31"}}, "cambi");
  Front fr(o);
  fr.init(f);
  ASSERT_TRUE(fr.setup().high_res_speedup);
  cambi::Workspace ws;
  EXPECT_EQ(bits(cells_score(fr, fr.encode(), dist)), bits(cambi::score_picture(fr.setup(), fr.encode(), dist, ws, nullptr)));
}

// The summary's pooled value equals pool_topk's ordered double sum bit for bit, over sizes, topk
// values, mostly-zero and dense contents with ties (every value a step response, as the banding
// values are); and the summary refuses what it cannot prove.
TEST(CambiCells, SummaryPoolingEqualsOrderedSum) {
  std::mt19937 rng(2025);
  const float* reciprocal = cambi::reciprocal_table().data();
  int compared = 0;
  for (int n : {1, 2, 3, 17, 64, 65, 200, 1000, 4097, 30000})
    for (double zeros : {0.0, 0.5, 0.97, 1.0})
      for (double topk : {1e-9, 0.01, 0.2, 0.6, 0.9, 1.0}) {
        std::vector<float> v(std::size_t(n), 0.0f);
        const int distinct = 1 + int(rng() % 40);  // few distinct values: many ties
        for (float& x : v)
          if (std::uniform_real_distribution<double>(0, 1)(rng) >= zeros) {
            const int p0 = 1 + int(rng() % unsigned(distinct)), q = 1 + int(rng() % 1088u);
            x = cambi::step_response(cambi::kContrastWeights[rng() % 32u], p0, q, reciprocal);
          }
        const cambi::TopkSummary s = summarize(v.data(), v.size(), cambi::topk_count(n, topk));
        double got = 0;
        ASSERT_TRUE(cambi::pool_topk_from_summary(s, n, topk, got)) << n << " " << topk;
        std::vector<float> w = v;
        EXPECT_EQ(bits(got), bits(cambi::pool_topk(w.data(), n, topk))) << n << " " << zeros << " " << topk;
        ++compared;
      }
  EXPECT_EQ(compared, 10 * 4 * 6);
  double out = 0;
  std::vector<float> v(1000, 0.25f);  // below 1/2: not a whole number of 2^-24 units for sure
  EXPECT_FALSE(cambi::pool_topk_from_summary(summarize(v.data(), v.size(), 1000), 1000, 1.0, out));
  v.assign(1000, 20000.0f);  // beyond 2^14
  EXPECT_FALSE(cambi::pool_topk_from_summary(summarize(v.data(), v.size(), 1000), 1000, 1.0, out));
  v.assign(40000, 16000.0f);  // a total beyond 2^29
  EXPECT_FALSE(cambi::pool_topk_from_summary(summarize(v.data(), v.size(), 40000), 40000, 1.0, out));
  EXPECT_TRUE(cambi::pool_topk_from_summary(summarize(v.data(), v.size(), 20000), 40000, 0.5, out));
  std::vector<float> w = v;
  EXPECT_EQ(bits(out), bits(cambi::pool_topk(w.data(), 40000, 0.5)));
}

}  // namespace
}  // namespace vqtwin::test
