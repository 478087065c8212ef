// The time-shift check's pieces: thumbnails are block means on the 8-bit scale (hand-computed), and
// the offset is found where the thumbnails match, only when it clearly beats the clip as given.
#include <gtest/gtest.h>

#include <cstdint>

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

}  // namespace
}  // namespace vqtwin
