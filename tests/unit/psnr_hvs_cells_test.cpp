// psnr_hvs's device arrangement on the host: cells.hpp's block_terms_at (the twin's one block per thread),
// the plane's terms added into an fp32 total from +0 in block raster order (the twin's adding thread),
// through the front, against the CPU reference's vector kernels (portable and this machine's build),
// bit for bit, over bit depths, chroma formats, sizes and contents.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "common/cpu.hpp"
#include "core/ordered_sum.hpp"
#include "features/psnr_hvs/cells.hpp"
#include "features/psnr_hvs/front.hpp"
#include "features/psnr_hvs/kernels.hpp"
#include "motion_test_util.hpp"

namespace vqtwin::test {
namespace {

std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// The twin's total of plane p, as cuda.cu computes it: the blocks' terms in raster order, added by the
// chunked ordered sum (core/ordered_sum.hpp in binary32, step for step as the device), which must equal
// the plain loop.
template <class T>
float cells_total(const psnr_hvs::Front& front, const Picture& r, const Picture& d, int p) {
  auto rows_of = [p](const Picture& pic) { return [&pic, p](int y) { return pic.row<T>(p, y); }; };
  const auto rr = rows_of(r), dr = rows_of(d);
  std::vector<float> terms(std::size_t(64 * front.blocks_x(p) * front.blocks_y(p)));
  for (int by = 0; by < front.blocks_y(p); ++by)
    for (int bx = 0; bx < front.blocks_x(p); ++bx)
      psnr_hvs::block_terms_at<T>(rr, dr, 7 * bx, 7 * by, front.tables(p),
                                  terms.data() + 64 * (std::size_t(by) * front.blocks_x(p) + bx));
  float plain = 0.0f;
  for (float t : terms) plain += t;
  const float chunked = ordered_sum::sum_by_chunks(terms.data(), terms.size());
  EXPECT_EQ(bits(chunked), bits(plain));
  return chunked;
}

TEST(PsnrHvsCells, DeviceArrangementEqualsCpuKernels) {
  std::mt19937 rng(25);
  const ChromaFormat chromas[] = {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444};
  const int sizes[][2] = {{16, 16}, {37, 29}, {176, 144}, {127, 65}, {720, 480}};
  const psnr_hvs::BlockKernels kernels[] = {psnr_hvs::block_kernels_for(0), psnr_hvs::block_kernels_for(cpu::flags())};
  int planes = 0, nan_totals = 0;
  for (int bpc : {8, 10, 12})
    for (ChromaFormat c : chromas)
      for (const auto& s : sizes)
        for (int content = 0; content < 4; ++content) {
          const PictureFormat f = format(s[0], s[1], bpc, c);
          const unsigned max = (1u << bpc) - 1;
          // Random, smooth with noise, and extremes (the largest DCT coefficients).
          auto value = [&](int p, int x, int y) -> unsigned {
            if (content == 0) return unsigned(rng()) & max;
            if (content == 1) return (unsigned(x * 3 + y * 5 + p * 40) + (unsigned(rng()) & 7)) & max;
            if (content == 2) return ((x / 3 + y / 2) & 1) ? max : 0u;
            // Any 16-bit word at 10/12 bits (libvmaf accepts words of 2^bpc or more): the int32 AC energy
            // can overflow, and a plane total is then NaN.
            return bpc == 8 ? unsigned(rng()) & max : unsigned(rng()) & 0xFFFFu;
          };
          const Picture r = make_picture(f, value);
          const Picture d = make_picture(f, value);
          psnr_hvs::Front front;
          front.init(f);
          for (int p = 0; p < 3; ++p) {
            const float total = bpc == 8 ? cells_total<std::uint8_t>(front, r, d, p)
                                         : cells_total<std::uint16_t>(front, r, d, p);
            for (const psnr_hvs::BlockKernels& k : kernels) {
              const int w = front.width(p), h = front.height(p);
              const psnr_hvs::PlaneSum cpu = bpc == 8 ? k.plane_sum8(r, d, p, w, h, front.tables(p))
                                                      : k.plane_sum16(r, d, p, w, h, front.tables(p));
              ASSERT_EQ(bits(total), bits(cpu.total))
                  << k.name << " " << s[0] << "x" << s[1] << " bpc " << bpc << " plane " << p << " content " << content;
              ASSERT_EQ(cpu.count, 64 * front.blocks_x(p) * front.blocks_y(p));
              // The twin maps a device NaN to the front's: it must be the CPU's NaN, bit for bit.
              if (std::isnan(cpu.total)) {
                ASSERT_EQ(bits(cpu.total), bits(psnr_hvs::Front::cpu_nan_total()));
                ++nan_totals;
              }
            }
            ++planes;
          }
        }
  EXPECT_EQ(planes, 3 * 3 * 5 * 4 * 3);
  EXPECT_GT(nan_totals, 0);
}

}  // namespace
}  // namespace vqtwin::test
