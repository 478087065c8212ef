// psnr's SSE at the extremes, against hand-computed values: every sample 0 in one picture and the
// largest value in the other, so mse = peak^2 exactly and psnr = 10 log10(peak^2 / peak^2) = 0 dB.
// The square of a difference above 46340 overflows a signed 32-bit product (16-bit content, or
// out-of-range samples at 10/12 bits, which libvmaf accepts).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "extractor_harness.hpp"
#include "features/psnr/math.hpp"
#include "features/psnr/sse.hpp"

namespace vqtwin::test {
namespace {

Picture filled(const PictureFormat& fmt, unsigned value) {
  Picture pic(fmt);
  for (int p = 0; p < fmt.num_planes(); ++p)
    for (int y = 0; y < pic.height(p); ++y)
      for (int x = 0; x < pic.width(p); ++x) {
        if (fmt.bitdepth > 8) pic.row<std::uint16_t>(p, y)[x] = std::uint16_t(value);
        else pic.row<std::uint8_t>(p, y)[x] = std::uint8_t(value);
      }
  return pic;
}

TEST(Psnr, ZeroAgainstMaxAtEveryDepth) {
  for (int bits : {8, 10, 12, 16})
    for (auto chroma : {ChromaFormat::k420, ChromaFormat::k444}) {
      // 1000 px wide: a 16-bit row's sum of squares (1000 * 65535^2) is far past 2^32.
      const PictureFormat fmt{1000, 4, bits, chroma};
      const unsigned peak = (1u << bits) - 1;
      for (bool swap : {false, true}) {
        const auto v = run_one("psnr", {{"enable_mse", "true"}}, filled(fmt, swap ? peak : 0), filled(fmt, swap ? 0 : peak));
        for (const char* plane : {"y", "cb", "cr"}) {
          EXPECT_EQ(v.at(std::string("mse_") + plane), double(peak) * double(peak)) << bits << " bits " << plane;
          EXPECT_EQ(v.at(std::string("psnr_") + plane), 0.0) << bits << " bits " << plane;
        }
      }
    }
}

TEST(Psnr, OutOfRangeSamplesBelow16Bits) {
  // 65535 in a 10-bit picture: libvmaf squares the magnitude as it is (mse 65535^2), psnr against 1023.
  const PictureFormat fmt{64, 2, 10, ChromaFormat::k444};
  const auto v = run_one("psnr", {{"enable_mse", "true"}}, filled(fmt, 0), filled(fmt, 65535));
  EXPECT_EQ(v.at("mse_y"), 65535.0 * 65535.0);
  EXPECT_EQ(v.at("psnr_y"), 10. * std::log10(double(1023u * 1023u) / (65535.0 * 65535.0)));
}

// apsnr's cap ceil(10 log10(2 peak^2 N)): libvmaf forms the product in 64 bits, which wraps for long
// 16-bit clips (here N = 3e9: 2 * 65535^2 * 3e9 = 2.58e19 > 2^64 would cap at 189 dB); vqtwin keeps it.
TEST(Psnr, ApsnrCap) {
  EXPECT_EQ(psnr::apsnr_of(0, 1000, 255), 82.0);  // ceil(10 log10(2 * 65025 * 1000)) = ceil(81.15)
  const double uncapped = 10 * (std::log10(4294836225.0) + std::log10(3e9) - std::log10(1.0));
  EXPECT_GT(uncapped, 191.0);
  EXPECT_EQ(psnr::apsnr_of(1, 3000000000ull, 65535), uncapped);
  EXPECT_EQ(psnr::apsnr_of(0, 3000000000ull, 65535), 195.0);  // ceil(10 log10(2.577e19)) = ceil(194.11)
}

// The portable SSE build (the reference every SIMD build is held to in cpu_check) against a plain
// 64-bit sum, on rows longer than its 32768-sample int32 runs and on the largest differences.
TEST(Psnr, PortableSseEqualsAPlainSum) {
  const psnr::SseKernels k = psnr::sse_kernels_for(0);
  for (int w : {1, 17, 32767, 32768, 32769, 100003}) {
    std::vector<std::uint8_t> a(std::size_t(w) * 2), b(a.size());
    std::vector<std::uint16_t> c(a.size()), d(a.size());
    std::uint64_t plain8 = 0, plain16 = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      a[i] = (i % 5 == 0) ? 0 : 255;
      b[i] = (i % 3 == 0) ? 255 : std::uint8_t(i * 37);
      c[i] = (i % 5 == 0) ? 0 : 65535;
      d[i] = (i % 3 == 0) ? 65535 : std::uint16_t(i * 997);
      const std::int64_t e8 = std::int64_t(a[i]) - b[i], e16 = std::int64_t(c[i]) - d[i];
      plain8 += std::uint64_t(e8 * e8);
      plain16 += std::uint64_t(e16 * e16);
    }
    EXPECT_EQ(k.sse8(a.data(), w, b.data(), w, w, 2), plain8) << w;
    EXPECT_EQ(k.sse16(c.data(), w, d.data(), w, w, 2), plain16) << w;
  }
}

}  // namespace
}  // namespace vqtwin::test
