// The time-shift check's pieces: thumbnails are block means on the 8-bit scale (hand-computed), and
// the offset is found where the thumbnails match, only when it clearly beats the clip as given.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "common/cpu.hpp"
#include "io/alignment.hpp"

namespace vqtwin {
namespace {

TEST(Alignment, ThumbnailIsBlockMeansOnThe8BitScale) {
  // 288x288: blocks of round(288 / 144) = 2 samples a side.
  Picture pic(PictureFormat{288, 288, 10, ChromaFormat::k420});
  for (int y = 0; y < 288; ++y)
    for (int x = 0; x < 288; ++x) pic.row<std::uint16_t>(0, y)[x] = std::uint16_t(4 * (x + 3 * y) % 1024);
  const Thumbnail t = make_thumbnail(pic);
  ASSERT_EQ(t.width, 144);
  ASSERT_EQ(t.height, 144);
  // Block (1, 2): samples x 2..3, y 4..5, 10-bit values 4 * (x + 3y), divided by 4 for the 8-bit scale.
  const double mean = ((2 + 12) + (3 + 12) + (2 + 15) + (3 + 15)) / 4.0;
  EXPECT_FLOAT_EQ(t.values[2 * 144 + 1], float(mean));
}

// A sequence of thumbnails of a moving pattern: frame f's sample i depends on i + 7f.
std::vector<Thumbnail> moving(int first, int count, float noise) {
  std::vector<Thumbnail> out;
  for (int f = first; f < first + count; ++f) {
    Thumbnail t;
    t.width = 32;
    t.height = 8;
    for (int i = 0; i < 256; ++i) {
      const std::uint32_t h = std::uint32_t(i + 7 * f) * 2654435761u;
      t.values.push_back(float(h >> 24) + noise * float((i * 5 + f) % 3 - 1));
    }
    out.push_back(t);
  }
  return out;
}

TEST(Alignment, FindsEachOffsetFromMinus3ToPlus3) {
  const auto ref = moving(0, kSyncFrames, 0);
  for (int offset = -kMaxSyncOffset; offset <= kMaxSyncOffset; ++offset) {
    // Distorted frame i + offset shows reference frame i: it starts at reference frame -offset.
    const ShiftEstimate e = estimate_shift(ref, moving(-offset, kSyncFrames, 2));
    EXPECT_EQ(e.offset, offset);
    EXPECT_GT(e.psnr_offset, e.psnr_aligned + (offset ? 1.0 : -1e-9));
  }
  EXPECT_EQ(skip_option(2), "--frame_skip_dist 2");
  EXPECT_EQ(skip_option(-1), "--frame_skip_ref 1");
}

TEST(Alignment, StaticOrUnrelatedContentIsNotCalledShifted) {
  // Every frame alike: each offset scores the same, so 0 stays.
  std::vector<Thumbnail> still(kSyncFrames, moving(0, 1, 0)[0]);
  EXPECT_EQ(estimate_shift(still, still).offset, 0);
  // Noise-level differences between offsets (less than 1 dB) are not a shift.
  auto noisy = still;
  for (std::size_t f = 0; f < noisy.size(); ++f)
    for (std::size_t i = 0; i < noisy[f].values.size(); ++i) noisy[f].values[i] += float((i + 3 * f) % 5) - 2.f;
  EXPECT_EQ(estimate_shift(still, noisy).offset, 0);
  // Too few frames for the offset to be tried (3 pairs at least), or none at all.
  EXPECT_EQ(estimate_shift(moving(0, 3, 0), moving(1, 3, 0)).offset, 0);
  EXPECT_EQ(estimate_shift({}, {}).offset, 0);
}

// The thumbnails' column sums and the offsets' MSE have AVX2 variants: the same bits as the baseline
// (masked with the run mask), for 8- and 16-bit pictures and thumbnails whose size is not a multiple
// of the vector width.
TEST(Alignment, Avx2VariantsGiveTheBaselineBits) {
  if (!cpu::allows(cpu::detected(), cpu::kAvx2)) GTEST_SKIP() << "no AVX2 here";
  for (int bitdepth : {8, 12}) {
    const PictureFormat f{333, 301, bitdepth, ChromaFormat::k420};
    Picture ref(f), dist(f);
    for (int y = 0; y < f.height; ++y)
      for (int x = 0; x < f.width; ++x) {
        const std::uint32_t h = std::uint32_t(x * 31 + y * 17) * 2654435761u;
        const unsigned v = (h >> 13) & ((1u << bitdepth) - 1), w = (v + (h >> 7) % 37) & ((1u << bitdepth) - 1);
        if (bitdepth > 8) {
          ref.row<std::uint16_t>(0, y)[x] = std::uint16_t(v);
          dist.row<std::uint16_t>(0, y)[x] = std::uint16_t(w);
        } else {
          ref.row<std::uint8_t>(0, y)[x] = std::uint8_t(v);
          dist.row<std::uint8_t>(0, y)[x] = std::uint8_t(w);
        }
      }
    auto run = [&] {
      std::vector<Thumbnail> r, d;
      for (int i = 0; i < kSyncFrames; ++i) {
        r.push_back(make_thumbnail(i % 2 ? dist : ref));
        d.push_back(make_thumbnail(i % 3 ? ref : dist));
      }
      return std::make_pair(r, estimate_shift(r, d));
    };
    const auto fast = run();
    std::pair<std::vector<Thumbnail>, ShiftEstimate> base;
    {
      const cpu::RunMask no_avx2(cpu::kAvx2 | cpu::kAvx512);
      base = run();
    }
    ASSERT_EQ(fast.first.size(), base.first.size());
    for (std::size_t i = 0; i < fast.first.size(); ++i)
      EXPECT_EQ(fast.first[i].values, base.first[i].values) << bitdepth << "-bit thumbnail " << i;
    EXPECT_EQ(std::memcmp(&fast.second.psnr_aligned, &base.second.psnr_aligned, sizeof(double)), 0) << bitdepth;
    EXPECT_EQ(std::memcmp(&fast.second.psnr_offset, &base.second.psnr_offset, sizeof(double)), 0) << bitdepth;
    EXPECT_EQ(fast.second.offset, base.second.offset);
  }
}

}  // namespace
}  // namespace vqtwin
