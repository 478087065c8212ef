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

// The twin's passes on the host.
double cells_score(const Front& fr, const Target& t, const Picture& pic) {
  const Setup& s = fr.setup();
  const int tw = t.w, th = t.h;
  const std::size_t n = std::size_t(tw) * std::size_t(th);
  std::vector<std::uint16_t> img(n), tmp(n);
  std::vector<std::uint8_t> mask(n), flat(n);
  for (int i = 0; i < th; ++i)
    for (int j = 0; j < tw; ++j) {
      const unsigned v = s.bitdepth == 8 ? pic.row<std::uint8_t>(0, t.ys[std::size_t(i)])[t.xs[std::size_t(j)]]
                                         : pic.row<std::uint16_t>(0, t.ys[std::size_t(i)])[t.xs[std::size_t(j)]];
      img[std::size_t(i) * tw + j] = cells::to_10bit(v, s.bitdepth);
    }
  if (s.enc_bitdepth < 10) {
    for (int i = 0; i < th; ++i)
      for (int j = 0; j < tw; ++j) tmp[std::size_t(i) * tw + j] = cells::anti_dither_at(img.data(), tw, th, i, j);
    std::swap(img, tmp);
  }
  for (int i = 0; i < th; ++i)
    for (int j = 0; j < tw; ++j) flat[std::size_t(i) * tw + j] = cells::flat_at(img.data(), tw, th, i, j);
  for (int i = 0; i < th; ++i)
    for (int j = 0; j < tw; ++j)
      mask[std::size_t(i) * tw + j] = cells::mask_at(flat.data(), tw, th, cambi::mask_threshold(tw, th), i, j);
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
    if (scale > 0 || s.high_res_speedup) {
      for (int i = 0; i < h; ++i)
        for (int j = 0; j < w; ++j) {
          tmp[std::size_t(i) * tw + j] = cells::decimate_at(img.data(), tw, i, j);
          mtmp[std::size_t(i) * tw + j] = cells::decimate_at(mask.data(), tw, i, j);
        }
      std::swap(img, tmp);
      std::swap(mask, mtmp);
    }
    for (int i = 0; i < h; ++i)
      for (int j = 0; j < w; ++j) tmp[std::size_t(i) * tw + j] = cells::mode_at(img.data(), tw, w, h, i, j);
    std::swap(img, tmp);
    auto counted = [&](int r, int c) {
      if (r < 0 || r >= h || c < 0 || c >= w) return -1;
      const std::size_t at = std::size_t(r) * tw + c;
      return cells::counted_value(img[at], mask[at], s.band_base, s.band_size);
    };
    for (int i = 0; i < h; ++i)
      for (int j = 0; j < w; ++j) {
        const int cv = counted(i, j);
        if (cv >= 0 && first[std::size_t(cv)] < s.num_diffs)
          out[std::size_t(i) * w + j] =
              cells::banding_value_at(counted, i, j, t.window >> 1, cv, first[std::size_t(cv)], s.num_diffs,
                                      cambi::kContrastWeights, reciprocal, counts.data(), 1);
      }
    out += std::size_t(w) * h;
  }
  std::vector<float> scratch;
  return fr.score(t, values.data(), scratch);
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

}  // namespace
}  // namespace vqtwin::test
